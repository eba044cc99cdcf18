/**
 * Test helpers: parse IR text, run the pass, read the metadata it wrote.
 */
import { getMetadata, parseModule, printModule, type Module } from '@syclkit/ir';
import type { DiagnosticInput } from '@syclkit/pass-manager';
import { propagateAspectsUsage, type PropagateAspectsOptions } from '../src/propagate.js';
import { readAspectValues } from '@syclkit/sycl-conventions';

export interface Run {
  readonly module: Module;
  readonly text: string;
  readonly diagnostics: readonly DiagnosticInput[];
  readonly changed: boolean;
  /** `!sycl_used_aspects` of a function, in order; undefined when it has none. */
  used(name: string): number[] | undefined;
  /** Another metadata list of a function (`sycl_fixed_targets`, ...). */
  list(name: string, kind: string): number[] | undefined;
  /** `!sycl_conditionally_used_aspects` of a function as (condition, aspects) pairs. */
  conditional(name: string): [number[], number[]][] | undefined;
  codes(): string[];
}

export function parse(ir: string): Module {
  return parseModule(ir, { filename: 'test.ll' });
}

export function runPass(ir: string | Module, options: PropagateAspectsOptions = {}): Run {
  const module = typeof ir === 'string' ? parse(ir) : ir;
  const result = propagateAspectsUsage(module, options);
  return inspect(module, result.diagnostics, result.changed);
}

export function inspect(module: Module, diagnostics: readonly DiagnosticInput[] = [], changed = false): Run {
  const fn = (name: string) => {
    const f = module.getFunction(name);
    if (f === undefined) throw new Error(`no function @${name}`);
    return f;
  };
  const list = (name: string, kind: string): number[] | undefined => {
    const node = getMetadata(fn(name), module.context, kind);
    return node === undefined ? undefined : readAspectValues(node).values;
  };
  return {
    module,
    text: printModule(module),
    diagnostics,
    changed,
    used: (name) => list(name, 'sycl_used_aspects'),
    list,
    conditional(name) {
      const node = getMetadata(fn(name), module.context, 'sycl_conditionally_used_aspects');
      if (node === undefined) return undefined;
      if (node.mk !== 'tuple') throw new Error('not a tuple');
      return node.operands.map((pair) => {
        if (pair === null || pair.mk !== 'tuple') throw new Error('pair is not a tuple');
        const [c, a] = pair.operands;
        if (c?.mk !== 'tuple' || a?.mk !== 'tuple') throw new Error('pair operands are not tuples');
        return [readAspectValues(c).values, readAspectValues(a).values];
      });
    },
    codes: () => diagnostics.map((d) => d.code),
  };
}

/** A `!sycl_aspects` table with the usual values and the given extra entries. */
export function aspectsTable(extra: readonly (readonly [string, number])[] = []): string {
  const entries: (readonly [string, number])[] = [
    ['cpu', 1],
    ['gpu', 2],
    ['fp16', 5],
    ['fp64', 6],
    ['atomic64', 28],
    ...extra,
  ];
  const refs = entries.map((_, i) => `!${900 + i}`).join(', ');
  const nodes = entries.map(([name, value], i) => `!${900 + i} = !{!"${name}", i32 ${value}}`).join('\n');
  return `!sycl_aspects = !{${refs}}\n${nodes}\n`;
}

/**
 * Properties of record-sycl-aspect-names and cleanup-sycl-metadata on generated modules (random
 * `!sycl_aspects` tables with repeated names and values, random `!sycl_used_aspects` and
 * `!sycl_declared_aspects` lists of plain and already named operands):
 * 1. Values are kept: every function's lists hold the same aspect values, in order, after both passes.
 * 2. Naming: an `i32 N` operand becomes the last table entry with value N when there is one, and
 *    stays `i32 N` otherwise; a named operand stays as it was.
 * 3. Cleanup: `!sycl_aspects` and `!sycl_types_that_use_aspects` are gone, other named metadata is
 *    untouched, and running both passes again changes nothing.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { getMetadata, parseModule, printModule, type Module } from '@syclkit/ir';
import { fcOptions } from '@syclkit/testing';
import { aspectOperandConstant, aspectOperandName, readAspectValues } from '@syclkit/sycl-conventions';
import { cleanupSyclMetadata, recordAspectNames } from './cleanup.js';

const NAMES = ['fp16', 'fp64', 'atomic64', 'gpu', 'custom_a'];
const entryArb = fc.tuple(fc.constantFrom(...NAMES), fc.integer({ min: -2, max: 6 }));
const operandArb = fc.oneof(fc.record({ value: fc.integer({ min: -2, max: 8 }) }), fc.record({ entry: fc.nat({ max: 9 }) }));
const fnArb = fc.record({ used: fc.option(fc.array(operandArb, { maxLength: 4 })), declared: fc.option(fc.array(operandArb, { maxLength: 3 })) });
const programArb = fc.record({ table: fc.array(entryArb, { maxLength: 6 }), fns: fc.array(fnArb, { minLength: 1, maxLength: 4 }) });

type Program = { table: [string, number][]; fns: { used: Operand[] | null; declared: Operand[] | null }[] };
type Operand = { value: number } | { entry: number };

function moduleText({ table, fns }: Program): string {
  const md: string[] = table.map(([name, value]) => `!{!"${name}", i32 ${value}}`);
  const list = (ops: Operand[]): string => {
    md.push(`!{${ops.map((op) => ('value' in op || table.length === 0 ? `i32 ${'value' in op ? op.value : 0}` : `!${op.entry % table.length}`)).join(', ')}}`);
    return `!${md.length - 1}`;
  };
  const defs = fns.map((f, i) => {
    const att = [f.used === null ? '' : ` !sycl_used_aspects ${list(f.used)}`, f.declared === null ? '' : ` !sycl_declared_aspects ${list(f.declared)}`].join('');
    return `define void @f${i}()${att} {\n  ret void\n}`;
  });
  md.push('!{!"clang"}');
  const named = [
    table.length > 0 ? `!sycl_aspects = !{${table.map((_, i) => `!${i}`).join(', ')}}` : '',
    `!sycl_types_that_use_aspects = !{!${md.length}}`,
    `!llvm.ident = !{!${md.length - 1}}`,
  ];
  md.push('!{!"T", i32 1}');
  return `%T = type { i32 }\n${defs.join('\n')}\n${named.join('\n')}\n${md.map((m, i) => `!${i} = ${m}`).join('\n')}\n`;
}

const lists = (module: Module) =>
  module.functions.map((fn) => ['sycl_used_aspects', 'sycl_declared_aspects'].map((kind) => getMetadata(fn, module.context, kind)));

describe('record-sycl-aspect-names and cleanup-sycl-metadata on generated modules', () => {
  test.prop([programArb], fcOptions())('keep values, name what the table names, and drop only the tables', (program) => {
    const module = parseModule(moduleText(program as Program));
    const before = lists(module);
    const ident = module.getNamedMetadata('llvm.ident');
    recordAspectNames(module);
    cleanupSyclMetadata(module);
    const after = lists(module);
    const lastOf = new Map<number, string>(program.table.map(([name, value]) => [value, name]));
    before.forEach((nodes, f) =>
      nodes.forEach((node, k) => {
        const now = after[f]![k];
        expect(readAspectValues(now).values).toEqual(readAspectValues(node).values);
        if (node === undefined || node.mk !== 'tuple' || now === undefined || now.mk !== 'tuple') return;
        node.operands.forEach((op, i) => {
          const out = now.operands[i];
          if (op !== null && op.mk === 'value') {
            const name = lastOf.get(aspectOperandConstant(op)!.num);
            expect(aspectOperandName(out)).toBe(name);
            if (name === undefined) expect(out).toBe(op);
          } else expect(out).toBe(op);
        });
      }),
    );
    expect(module.getNamedMetadata('sycl_aspects')).toBeUndefined();
    expect(module.getNamedMetadata('sycl_types_that_use_aspects')).toBeUndefined();
    expect(module.getNamedMetadata('llvm.ident')).toEqual(ident);
    const text = printModule(module);
    expect(recordAspectNames(module) || cleanupSyclMetadata(module)).toBe(false);
    expect(printModule(module)).toBe(text);
  });
});

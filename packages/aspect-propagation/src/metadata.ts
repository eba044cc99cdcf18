/**
 * Reading and writing the metadata the pass works with: the module's `!sycl_aspects` table,
 * `!sycl_types_that_use_aspects`, and `i32` lists such as `!sycl_used_aspects`.
 */
import type { Context, MDNode, Metadata, Module, StructType } from '@syclkit/ir';
import { AspectSet } from './aspect-set.js';

export const MD_USED_ASPECTS = 'sycl_used_aspects';
export const MD_DECLARED_ASPECTS = 'sycl_declared_aspects';
export const MD_CONDITIONALLY_USED_ASPECTS = 'sycl_conditionally_used_aspects';
export const MD_FIXED_TARGETS = 'sycl_fixed_targets';
export const MD_ASPECTS = 'sycl_aspects';
export const MD_TYPES_THAT_USE_ASPECTS = 'sycl_types_that_use_aspects';

/**
 * The module's `!sycl_aspects`: `!{!"name", i32 value}` per enumerator, in declaration order.
 * Name lookups take the last entry of a name (intel/llvm fills a map in order); value lookups give
 * the first name declared for a value.
 */
export class ModuleAspectTable {
  readonly pairs: readonly (readonly [string, number])[];
  private readonly byName = new Map<string, number>();
  private readonly byValue = new Map<number, string>();

  constructor(pairs: readonly (readonly [string, number])[]) {
    this.pairs = pairs;
    for (const [name, value] of pairs) {
      this.byName.set(name, value);
      if (!this.byValue.has(value)) this.byValue.set(value, name);
    }
  }

  /** True when the module has a non-empty `!sycl_aspects`. */
  get present(): boolean {
    return this.pairs.length > 0;
  }

  valueOf(name: string): number | undefined {
    return this.byName.get(name);
  }

  nameOf(value: number): string | undefined {
    return this.byValue.get(value);
  }

  /** Distinct (name, value) pairs, one per name with its last value, in first-declaration order. */
  uniquePairs(): [string, number][] {
    return [...this.byName];
  }
}

/** A problem with the module's metadata, reported as a warning. */
export interface MetadataProblem {
  readonly message: string;
  readonly function?: string;
}

/** An `i32` constant operand (`i32 6`), or undefined. */
export function intOperand(md: Metadata | null | undefined): number | undefined {
  if (md === null || md === undefined || md.mk !== 'value') return undefined;
  const v = md.value;
  if (v.vk !== 'int') return undefined;
  return typeof v.value === 'number' ? v.value : Number(v.value);
}

/**
 * The aspect values of a list node. Operands are `i32 v`, or `!{!"name", i32 v}` pairs (the form
 * `RecordSYCLAspectNamesPass` writes). Operands of other shapes are counted in `malformed`.
 */
export function readAspectList(node: MDNode): { values: number[]; malformed: number } {
  const values: number[] = [];
  let malformed = 0;
  if (node.mk !== 'tuple') return { values, malformed: 1 };
  for (const op of node.operands) {
    let value = intOperand(op);
    if (value === undefined && op !== null && op.mk === 'tuple' && op.operands.length === 2 && op.operands[0]?.mk === 'string') {
      value = intOperand(op.operands[1]);
    }
    if (value === undefined) malformed++;
    else values.push(value);
  }
  return { values, malformed };
}

/** Reads `!sycl_aspects`; malformed operands are reported and skipped. */
export function readAspectTable(module: Module, problems: MetadataProblem[]): ModuleAspectTable {
  const pairs: [string, number][] = [];
  for (const node of module.getNamedMetadata(MD_ASPECTS) ?? []) {
    const name = node.mk === 'tuple' && node.operands.length === 2 && node.operands[0]?.mk === 'string' ? node.operands[0].value : undefined;
    const value = node.mk === 'tuple' && node.operands.length === 2 ? intOperand(node.operands[1]) : undefined;
    if (name === undefined || value === undefined) {
      problems.push({ message: `!${MD_ASPECTS} has an operand that is not a !{!"name", i32 value} pair; it is ignored` });
      continue;
    }
    pairs.push([name, value]);
  }
  return new ModuleAspectTable(pairs);
}

/**
 * Reads `!sycl_types_that_use_aspects`: each operand `!{!"<struct name>", i32 a, ...}`. Types are
 * looked up once, by name, among the context's identified structs; a name that matches no type is
 * reported and skipped (intel/llvm asserts).
 */
export function readTypesThatUseAspects(module: Module, problems: MetadataProblem[]): Map<StructType, AspectSet> {
  const result = new Map<StructType, AspectSet>();
  for (const node of module.getNamedMetadata(MD_TYPES_THAT_USE_ASPECTS) ?? []) {
    const first = node.mk === 'tuple' ? node.operands[0] : undefined;
    if (node.mk !== 'tuple' || first === undefined || first === null || first.mk !== 'string') {
      problems.push({ message: `!${MD_TYPES_THAT_USE_ASPECTS} has an operand that does not start with a type name; it is ignored` });
      continue;
    }
    const type = module.context.getStruct(first.value);
    if (type === undefined) {
      problems.push({ message: `!${MD_TYPES_THAT_USE_ASPECTS} names type '%${first.value}', which the module does not define; it is ignored` });
      continue;
    }
    let set = result.get(type);
    if (set === undefined) {
      set = new AspectSet();
      result.set(type, set);
    }
    for (let i = 1; i < node.operands.length; i++) {
      const value = intOperand(node.operands[i]);
      if (value === undefined) {
        problems.push({ message: `!${MD_TYPES_THAT_USE_ASPECTS} entry for '%${first.value}' has an operand that is not an i32 constant; it is ignored` });
        continue;
      }
      set.add(value);
    }
  }
  return result;
}

/** The uniqued tuple `!{i32 a, i32 b, ...}`. */
export function aspectListNode(context: Context, values: Iterable<number>): MDNode {
  const operands: Metadata[] = [];
  for (const value of values) operands.push(context.md.value(context.constI32(value)));
  return context.md.tuple(operands);
}

/**
 * The metadata only this pass reads and writes: `!sycl_types_that_use_aspects`, and `i32` lists
 * such as `!sycl_used_aspects` (the module's `!sycl_aspects` table and aspect lists are read by
 * `@syclkit/sycl-conventions`).
 */
import type { Context, MDNode, Metadata, Module, StructType } from '@syclkit/ir';
import { SyclMetadata, aspectOperandConstant, type ModuleAspectTable } from '@syclkit/sycl-conventions';
import { AspectSet } from './aspect-set.js';

const MD_TYPES_THAT_USE_ASPECTS = SyclMetadata.typesThatUseAspects;

/** A problem with the module's metadata, reported as a warning. */
export interface MetadataProblem {
  readonly message: string;
  readonly function?: string;
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
      const value = aspectOperandConstant(node.operands[i])?.num;
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

/** Malformed `!sycl_aspects` entries of a table, as problems. */
export function aspectTableProblems(table: ModuleAspectTable): MetadataProblem[] {
  const message = `!${SyclMetadata.aspects} has an operand that is not a !{!"name", i32 value} pair; it is ignored`;
  return Array.from({ length: table.malformed }, () => ({ message }));
}

/**
 * The rules a module brings with it: its `!sycl_aspects` table, the value of `fp64`, and the
 * aspects of its types (`!sycl_types_that_use_aspects`, `double`). Read once per run, by the pass
 * and by {@link directAspectUses} alike.
 */
import type { Module } from '@syclkit/ir';
import { readAspectTable, type ModuleAspectTable } from '@syclkit/sycl-conventions';
import { aspectTableProblems, readTypesThatUseAspects, type MetadataProblem } from './metadata.js';
import { TypeAspects } from './type-aspects.js';

/** intel/llvm's `fp64` value, used when a module has no `!sycl_aspects` (older test modules). */
export const DEFAULT_FP64 = 6;

export interface ModuleRules {
  readonly table: ModuleAspectTable;
  /** The value of `fp64`: from `!sycl_aspects`, else {@link DEFAULT_FP64}. */
  readonly fp64: number;
  /** The module has a `!sycl_aspects` table without `fp64`. */
  readonly fp64Missing: boolean;
  readonly types: TypeAspects;
}

/** Reads the module's rules; malformed metadata is skipped and described in `problems`. */
export function readModuleRules(module: Module, problems: MetadataProblem[]): ModuleRules {
  const table = readAspectTable(module);
  problems.push(...aspectTableProblems(table));
  const listedTypes = readTypesThatUseAspects(module, problems);
  const value = table.valueOf('fp64');
  const fp64 = value ?? DEFAULT_FP64;
  return { table, fp64, fp64Missing: value === undefined && table.present, types: new TypeAspects(listedTypes, module.context.double, fp64) };
}

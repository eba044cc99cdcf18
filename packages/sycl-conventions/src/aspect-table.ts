/**
 * Aspects in device IR: the module's `!sycl_aspects` table and aspect lists such as
 * `!sycl_used_aspects`, `!sycl_declared_aspects` and `!sycl_fixed_targets`.
 *
 * An aspect operand is `i32 N`, or the named pair `!{!"fp64", i32 N}` that RecordSYCLAspectNamesPass
 * writes. Values are read as LLVM's `getSExtValue` reads them: signed, at the constant's width
 * (internal aspects are negative).
 */
import { AspectTable, builtinAspectTable } from '@syclkit/device-config';
import type { ConstantInt, MDNode, Metadata, Module } from '@syclkit/ir';
import { SyclMetadata } from './names.js';

function intConstant(md: Metadata | null | undefined): ConstantInt | undefined {
  return md != null && md.mk === 'value' && md.value.vk === 'int' ? md.value : undefined;
}

function namedPair(md: Metadata | null | undefined): { name: string; value: Metadata | null } | undefined {
  if (md == null || md.mk !== 'tuple' || md.operands.length !== 2) return undefined;
  const [name, value] = md.operands;
  return name != null && name.mk === 'string' ? { name: name.value, value: value ?? null } : undefined;
}

/** The integer constant of an aspect operand (`i32 6` or `!{!"fp64", i32 6}`); undefined for any other shape. */
export function aspectOperandConstant(operand: Metadata | null | undefined): ConstantInt | undefined {
  return intConstant(operand) ?? intConstant(namedPair(operand)?.value);
}

/** The name of a named-pair aspect operand (`!{!"fp64", i32 6}` gives `fp64`). */
export function aspectOperandName(operand: Metadata | null | undefined): string | undefined {
  const pair = namedPair(operand);
  return pair !== undefined && intConstant(pair.value) !== undefined ? pair.name : undefined;
}

/**
 * The aspect values of a list node, in order. Operands of other shapes are skipped and counted in
 * `malformed`; a node that is not a tuple counts as one malformed operand.
 */
export function readAspectValues(node: MDNode | undefined): { values: number[]; malformed: number } {
  const values: number[] = [];
  if (node === undefined) return { values, malformed: 0 };
  if (node.mk !== 'tuple') return { values, malformed: 1 };
  let malformed = 0;
  for (const operand of node.operands) {
    const constant = aspectOperandConstant(operand);
    if (constant === undefined) malformed++;
    else values.push(constant.num);
  }
  return { values, malformed };
}

/**
 * A module's `!sycl_aspects`: `!{!"name", i32 value}` per enumerator, in declaration order. Name
 * lookups take the last entry of a name (intel/llvm fills a map in order); value lookups give the
 * first name declared for a value.
 */
export class ModuleAspectTable {
  readonly #byName = new Map<string, number>();
  readonly #byValue = new Map<number, string>();

  constructor(
    /** The well-formed entries, in order. */
    readonly pairs: readonly (readonly [string, number])[],
    /** How many entries were not `!{!"name", iN value}` pairs (intel/llvm asserts; they are skipped). */
    readonly malformed = 0,
  ) {
    for (const [name, value] of pairs) {
      this.#byName.set(name, value);
      if (!this.#byValue.has(value)) this.#byValue.set(value, name);
    }
  }

  /** True when the module has a non-empty `!sycl_aspects`. */
  get present(): boolean {
    return this.pairs.length > 0;
  }

  valueOf(name: string): number | undefined {
    return this.#byName.get(name);
  }

  nameOf(value: number): string | undefined {
    return this.#byValue.get(value);
  }

  /** Distinct (name, value) pairs, one per name with its last value, in first-declaration order. */
  uniquePairs(): [string, number][] {
    return [...this.#byName];
  }
}

/** Reads the module's `!sycl_aspects` (empty when absent); malformed entries are skipped and counted. */
export function readAspectTable(module: Module): ModuleAspectTable {
  const pairs: [string, number][] = [];
  let malformed = 0;
  for (const node of module.getNamedMetadata(SyclMetadata.aspects) ?? []) {
    const pair = namedPair(node);
    const value = intConstant(pair?.value);
    if (pair === undefined || value === undefined) malformed++;
    else pairs.push([pair.name, value.num]);
  }
  return new ModuleAspectTable(pairs, malformed);
}

export interface AspectTableOptions {
  /** The table for names and numbers the module does not define (default: device-config's built-in table). */
  readonly base?: AspectTable;
  /**
   * `true` (default): the module's pairs, then the names of `base` whose name and number the
   * module does not use. `false`: the module's pairs alone when it has any, else `base`.
   */
  readonly mergeBase?: boolean;
}

const tables = new WeakMap<MDNode, { nodes: readonly MDNode[]; base: AspectTable; mergeBase: boolean; table: AspectTable }[]>();

/**
 * The aspect numbering of a module as a device-config `AspectTable`: its `!sycl_aspects` pairs
 * win (one per name, its last value, as intel/llvm fills its map), then, with `mergeBase`, the
 * names of `base` the module does not define. A module without pairs gets `base`. Cached per
 * `!sycl_aspects` operand list, so the images of one module share one table.
 */
export function aspectTableOf(module: Module, options: AspectTableOptions = {}): AspectTable {
  const base = options.base ?? builtinAspectTable;
  const mergeBase = options.mergeBase ?? true;
  const nodes = module.getNamedMetadata(SyclMetadata.aspects);
  if (nodes === undefined || nodes.length === 0) return base;
  const cached = tables.get(nodes[0]!) ?? [];
  const hit = cached.find((c) => c.base === base && c.mergeBase === mergeBase && c.nodes.length === nodes.length && c.nodes.every((n, i) => n === nodes[i]));
  if (hit !== undefined) return hit.table;
  const pairs = readAspectTable(module).uniquePairs();
  let table = base;
  if (pairs.length > 0) {
    const names = new Set(pairs.map(([name]) => name));
    const values = new Set(pairs.map(([, value]) => value));
    table = AspectTable.fromDefinitions([
      ...pairs.map(([name, value]) => ({ name, value, status: 'current' as const })),
      ...(mergeBase ? base.definitions.filter((definition) => !names.has(definition.name) && !values.has(definition.value)) : []),
    ]);
  }
  tables.set(nodes[0]!, [...cached, { nodes: [...nodes], base, mergeBase, table }]);
  return table;
}

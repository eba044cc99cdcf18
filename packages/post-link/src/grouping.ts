/**
 * Grouping entry points into device images.
 *
 * Upstream (intel/llvm, reference §5.2–5.3): every entry point gets a string key and entry points
 * with equal keys share an image; images come out in **descending** byte-wise key order (a
 * `std::map` popped from the back). Keys:
 * - per kernel: `<name>-`;
 * - global (no split, or auto with IR-only output): `<GLOBAL>-`;
 * - per source / auto: 11 parts, each followed by `-`: module id, `indirectly-callable`, register
 *   alloc mode, GRF size, sorted `!sycl_used_aspects` (zero-extended, `-<v>` each), required
 *   work-group size, `!work_group_num_dim`, `!intel_reqd_sub_group_size`, opt level,
 *   `!sycl_joint_matrix`, `!sycl_joint_matrix_mad`.
 *
 * Design (OptionalDeviceFeatures.md, DeviceIf.md): after the mode split (except per kernel), a
 * kernel shares an image only with kernels of the same *requirement class*: the same non-empty
 * `!sycl_fixed_targets`, or — without fixed targets — the same UsedAspects (used ∪ declared,
 * internal aspects included), required work-group size, numeric required sub-group size (named
 * sizes bundle with "none") and conditionally used aspects. With dynamic linking, also the same
 * *unresolved imports*: the functions no module defines that the kernel reaches, whose
 * requirements only the runtime learns (from the images that export them).
 */
import type { IRFunction, Metadata, Module } from '@syclkit/ir';
import { isEsimdFunction } from '@syclkit/sycl-conventions';
import { functionFeatures, type FunctionFeatures } from './sycl-metadata.js';

export type SplitMode = 'kernel' | 'source' | 'auto' | 'none';

/**
 * Which bundling rule applies on top of the split mode: `upstream` (intel/llvm's key), `design`
 * (OptionalDeviceFeatures.md), or `features-blind` (the spec-constant variant: kernels are bundled
 * whatever they require; requirements travel per kernel instead).
 */
export type RequirementPolicy = 'upstream' | 'design' | 'features-blind';

/** Scope of the mode split (upstream `EntryPointsGroupScope`). */
export type GroupScope = 'per-kernel' | 'per-module' | 'global';

export function groupScope(mode: SplitMode, irOutputOnly: boolean): GroupScope {
  switch (mode) {
    case 'kernel':
      return 'per-kernel';
    case 'source':
      return 'per-module';
    case 'auto':
      return irOutputOnly ? 'global' : 'per-module';
    case 'none':
      return 'global';
  }
}

/** Which half of an ESIMD split a group is. */
export type EsimdKind = 'sycl' | 'esimd' | 'mixed';

export interface EntryGroup {
  /** The grouping key (the ordering key). */
  readonly key: string;
  /** Entry points in module order. */
  readonly entries: readonly IRFunction[];
  /** Whether the entry points are ESIMD functions (`!sycl_explicit_simd`). */
  readonly esimd: EsimdKind;
}

export interface GroupingOptions {
  readonly mode: SplitMode;
  readonly irOutputOnly?: boolean;
  readonly policy?: RequirementPolicy;
  /**
   * Design policy with dynamic linking: the imported functions the module does not define that
   * an entry point reaches (sorted). Entry points that reach different ones never share an image:
   * what those functions require is unknown until run time, and an image is linked whole.
   */
  readonly unresolvedImports?: (fn: IRFunction) => readonly string[];
  /** The features of a function (default: read from its metadata; the `aspect-facts` analysis caches them). */
  readonly features?: (fn: IRFunction) => FunctionFeatures;
}

const sep = '-';

/** Parts 1-4 of the upstream per-source key: where the function comes from and how it is compiled. */
function originParts(f: FunctionFeatures): string {
  return (f.moduleId ?? '') + sep + (f.indirectlyCallable ?? '') + sep + (f.registerAllocMode ?? '') + sep + (f.grfSize ?? '') + sep;
}

/** Parts 9-11: optimization level and joint matrix uses. */
function tailParts(f: FunctionFeatures): string {
  let key = (f.optLevel ?? '') + sep;
  for (const s of f.jointMatrix) key += '-' + s;
  key += sep;
  for (const s of f.jointMatrixMad) key += '-' + s;
  return key + sep;
}

/** The 11-part upstream per-source key of an entry point. */
export function upstreamSourceKey(f: FunctionFeatures): string {
  let key = originParts(f);
  const aspects = f.usedAspects.map((a) => a.zext).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const a of aspects) key += '-' + a.toString();
  key += sep;
  for (const v of f.reqdWorkGroupSize ?? []) key += '-' + v.toString();
  key += sep;
  for (const v of f.workGroupNumDim ?? []) key += '-' + v.toString();
  key += sep;
  for (const v of f.reqdSubGroupSizeRaw) key += '-' + v.toString();
  key += sep;
  return key + tailParts(f);
}

/** The per-source parts that are not requirements (kept in design mode too): the key without parts 5-8. */
function designSourceKey(f: FunctionFeatures): string {
  return originParts(f) + tailParts(f);
}

/** UsedAspects of the design: used ∪ declared, sorted, deduplicated (internal aspects kept). */
export function usedAspectSet(f: FunctionFeatures): number[] {
  const set = new Set<number>();
  for (const a of f.usedAspects) set.add(a.value);
  for (const a of f.declaredAspects) set.add(a.value);
  return [...set].sort((a, b) => a - b);
}

/** A canonical text for a metadata tree (conditionally used aspects compare by content). */
export function metadataText(md: Metadata | null): string {
  if (md === null) return 'null';
  switch (md.mk) {
    case 'string':
      return JSON.stringify(md.value);
    case 'value':
      return md.value.vk === 'int' ? md.value.big.toString() : `?${md.value.vk}`;
    case 'tuple':
      return `{${md.operands.map(metadataText).join(',')}}`;
    default:
      return `?${md.mk}`;
  }
}

/**
 * The design's requirement class of an entry point: fixed targets when non-empty, else
 * UsedAspects, required work-group size, numeric required sub-group size and conditionally used
 * aspects.
 */
export function requirementKey(f: FunctionFeatures): string {
  if (f.fixedTargets !== undefined && f.fixedTargets.length > 0) {
    return 'targets:' + [...new Set(f.fixedTargets)].sort((a, b) => a - b).join(',');
  }
  const sg = f.reqdSubGroupSize?.kind === 'numeric' ? String(f.reqdSubGroupSize.value) : '';
  const wg = (f.reqdWorkGroupSize ?? []).map(String).join(',');
  const cond = f.conditionallyUsedAspects === undefined ? '' : metadataText(f.conditionallyUsedAspects);
  return `aspects:${usedAspectSet(f).join(',')}|wg:${wg}|sg:${sg}|cond:${cond}`;
}

/** The key of one entry point under the given mode and policy. */
export function entryKey(
  module: Module,
  fn: IRFunction,
  scope: GroupScope,
  policy: RequirementPolicy,
  features?: FunctionFeatures,
  unresolvedImports?: (fn: IRFunction) => readonly string[],
): string {
  if (scope === 'per-kernel') return fn.name + sep;
  const f = features ?? functionFeatures(module, fn);
  if (policy === 'upstream') return scope === 'global' ? '<GLOBAL>' + sep : upstreamSourceKey(f);
  const base = scope === 'global' ? '<GLOBAL>' + sep : designSourceKey(f);
  if (policy === 'features-blind') return base;
  const imports = unresolvedImports?.(fn) ?? [];
  return base + '|' + requirementKey(f) + (imports.length === 0 ? '' : `|imports:${imports.join(',')}`);
}

/** Byte-wise comparison (keys are latin1 strings, so UTF-16 code units are bytes). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Groups the entry points and orders the groups as upstream emits them (descending key). With no
 * entry points at all there is one `<GLOBAL>` group without entries.
 */
export function groupEntryPoints(module: Module, entries: readonly IRFunction[], options: GroupingOptions): EntryGroup[] {
  const scope = groupScope(options.mode, options.irOutputOnly ?? false);
  // Upstream: with -split=none there is no requirement split at all.
  const policy = options.policy ?? 'upstream';
  const byKey = new Map<string, IRFunction[]>();
  for (const fn of entries) {
    const key = entryKey(module, fn, scope, policy, options.features?.(fn), options.unresolvedImports);
    const list = byKey.get(key);
    if (list === undefined) byKey.set(key, [fn]);
    else list.push(fn);
  }
  if (byKey.size === 0) return [{ key: '<GLOBAL>', entries: [], esimd: 'sycl' }];
  // The default sort compares UTF-16 code units, as compareKeys does, without a call per comparison.
  const keys = [...byKey.keys()].sort().reverse();
  return keys.map((key) => {
    const members = byKey.get(key)!;
    const esimd = members.map((fn) => isEsimdFunction(module, fn));
    const kind: EsimdKind = esimd.every(Boolean) ? 'esimd' : esimd.some(Boolean) ? 'mixed' : 'sycl';
    return { key, entries: members, esimd: kind };
  });
}

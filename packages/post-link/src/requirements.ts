/**
 * Requirements of a finished image: what goes into `SYCL/device requirements` (reference §2.3,
 * intel/llvm's `SYCLDeviceRequirements`) and the design's SYCL_EXTERNAL check
 * (OptionalDeviceFeatures.md, "Error checking for SYCL_EXTERNAL functions").
 */
import type { AspectTable } from '@syclkit/device-config';
import type { IRFunction, Module } from '@syclkit/ir';
import { aspectTableOf as moduleAspectTable } from '@syclkit/sycl-conventions';
import { FeatureReader, functionFeatures, type FunctionFeatures } from './sycl-metadata.js';

/** An aspect as it appears in requirements: its enum value and, when known, its name. */
export interface NamedAspect {
  readonly value: number;
  readonly name?: string;
}

/** The requirements of one image (upstream rules). */
export interface ImageRequirements {
  /** Union over all functions of used and declared aspects; non-negative, sorted, unique. */
  readonly aspects: readonly NamedAspect[];
  /** The same union with internal (negative) aspects kept. */
  readonly allAspects: readonly number[];
  /** Union of `!sycl_fixed_targets`, sorted. */
  readonly fixedTarget: readonly number[];
  /** Last non-empty `!sycl_joint_matrix` in module order. */
  readonly jointMatrix?: string;
  readonly jointMatrixMad?: string;
  /** From the first entry point with a numeric `!intel_reqd_sub_group_size`. */
  readonly reqdSubGroupSize?: number;
  /** From any function; dropped when two functions disagree. */
  readonly reqdWorkGroupSize?: readonly bigint[];
  /** `!work_group_num_dim` operand 0, recorded only before a work-group size is seen. */
  readonly workGroupNumDim?: number;
}

/**
 * The aspect name table of an image: its module's `!sycl_aspects` alone, else the built-in table
 * (`@syclkit/sycl-conventions`' `aspectTableOf`, cached per operand list, so images share the input's).
 */
export function aspectTableOf(module: Module): AspectTable {
  return moduleAspectTable(module, { mergeBase: false });
}

/** Features of every function of an image, in module order (computed once per image). */
export function imageFeatures(module: Module): Map<IRFunction, FunctionFeatures> {
  const out = new Map<IRFunction, FunctionFeatures>();
  const reader = new FeatureReader(module);
  for (const fn of module.functions) out.set(fn, reader.read(fn));
  return out;
}

export function computeImageRequirements(
  module: Module,
  entryPoints: readonly IRFunction[],
  features: ReadonlyMap<IRFunction, FunctionFeatures> = imageFeatures(module),
  table: AspectTable = aspectTableOf(module),
): ImageRequirements {
  const aspects = new Map<number, string | undefined>();
  const fixed = new Set<number>();
  let jointMatrix: string | undefined;
  let jointMatrixMad: string | undefined;
  let wg: bigint[] | undefined;
  let wgConflict = false;
  let numDim: number | undefined;
  for (const fn of module.functions) {
    const f = features.get(fn) ?? functionFeatures(module, fn);
    // Per function of every image: no arrays or strings made for the common function with none.
    for (const a of f.usedAspects) if (aspects.get(a.value) === undefined) aspects.set(a.value, a.name ?? table.nameOf(a.value));
    for (const a of f.declaredAspects) if (aspects.get(a.value) === undefined) aspects.set(a.value, a.name ?? table.nameOf(a.value));
    if (f.fixedTargets !== undefined) for (const t of f.fixedTargets) fixed.add(t);
    if (f.jointMatrix.length > 0) {
      const jm = f.jointMatrix.join(';');
      if (jm !== '') jointMatrix = jm;
    }
    if (f.jointMatrixMad.length > 0) {
      const jmm = f.jointMatrixMad.join(';');
      if (jmm !== '') jointMatrixMad = jmm;
    }
    if (f.reqdWorkGroupSize !== undefined && f.reqdWorkGroupSize.length > 0) {
      if (wg === undefined) wg = [...f.reqdWorkGroupSize];
      else if (wg.length !== f.reqdWorkGroupSize.length || wg.some((v, i) => v !== f.reqdWorkGroupSize![i])) wgConflict = true;
    }
    if (wg === undefined && f.workGroupNumDim !== undefined && f.workGroupNumDim.length > 0) numDim = Number(f.workGroupNumDim[0]!);
  }
  let reqdSubGroupSize: number | undefined;
  for (const fn of entryPoints) {
    const sg = (features.get(fn) ?? functionFeatures(module, fn)).reqdSubGroupSize;
    if (sg?.kind === 'numeric') {
      reqdSubGroupSize = sg.value;
      break;
    }
  }
  const all = [...aspects.keys()].sort((a, b) => a - b);
  const result: { -readonly [K in keyof ImageRequirements]: ImageRequirements[K] } = {
    aspects: all.filter((v) => v >= 0).map((value) => {
      const name = aspects.get(value);
      return name === undefined ? { value } : { value, name };
    }),
    allAspects: all,
    fixedTarget: [...fixed].sort((a, b) => a - b),
  };
  if (jointMatrix !== undefined) result.jointMatrix = jointMatrix;
  if (jointMatrixMad !== undefined) result.jointMatrixMad = jointMatrixMad;
  if (reqdSubGroupSize !== undefined) result.reqdSubGroupSize = reqdSubGroupSize;
  if (wg !== undefined && !wgConflict) result.reqdWorkGroupSize = wg;
  if (numDim !== undefined) result.workGroupNumDim = numDim;
  return result;
}

/** One finding of the SYCL_EXTERNAL check. */
export interface ExternalCheckWarning {
  readonly code: 'unexpected-aspect' | 'sub-group-mismatch' | 'fixed-targets-mismatch';
  readonly function: string;
  readonly message: string;
}

/** What the design's SYCL_EXTERNAL check concludes for an image. */
export interface ExternalCheckResult {
  /** Whether the image's entry points were compiled with `-fsycl-fixed-targets`. */
  readonly fixedTargetImage: boolean;
  /** FinalUsedAspects (non-fixed-target images). */
  readonly finalUsedAspects: readonly number[];
  /** FinalSubGroup: the image's size plus mismatching sizes of callees. */
  readonly finalSubGroup: readonly number[];
  /** FinalWorkGroup. */
  readonly finalWorkGroup?: readonly bigint[];
  /** FinalFixedTargets (fixed-target images). */
  readonly finalFixedTargets: readonly number[];
  readonly warnings: readonly ExternalCheckWarning[];
}

/**
 * The check of OptionalDeviceFeatures.md after bundling: functions of the image that use aspects
 * or a sub-group size the image's entry points do not declare (typically SYCL_EXTERNAL functions
 * from another translation unit), and fixed-target mismatches.
 */
export function checkExternalFunctions(
  module: Module,
  entryPoints: readonly IRFunction[],
  features: ReadonlyMap<IRFunction, FunctionFeatures> = imageFeatures(module),
  table: AspectTable = aspectTableOf(module),
): ExternalCheckResult {
  const feat = (fn: IRFunction): FunctionFeatures => features.get(fn) ?? functionFeatures(module, fn);
  const warnings: ExternalCheckWarning[] = [];
  let entryFixed: readonly number[] | undefined;
  for (const fn of entryPoints) {
    const targets = feat(fn).fixedTargets;
    if (targets !== undefined && targets.length > 0) {
      entryFixed = targets;
      break;
    }
  }
  if (entryFixed !== undefined) {
    const imageTargets = new Set(entryFixed);
    let final = new Set(entryFixed);
    for (const fn of module.functions) {
      const targets = feat(fn).fixedTargets;
      if (targets === undefined) continue;
      if (targets.some((t) => !imageTargets.has(t))) {
        warnings.push({
          code: 'fixed-targets-mismatch',
          function: fn.name,
          message: `function '${fn.name}' compiled with a different \`-fsycl-fixed-targets\` switch than its calling kernel.`,
        });
        const own = new Set(targets);
        final = new Set([...final].filter((t) => own.has(t)));
      }
    }
    return {
      fixedTargetImage: true,
      finalUsedAspects: [],
      finalSubGroup: [],
      finalFixedTargets: [...final].sort((a, b) => a - b),
      warnings,
    };
  }
  const used = new Set<number>();
  let imageSubGroup: number | undefined;
  let imageWorkGroup: readonly bigint[] | undefined;
  for (const fn of entryPoints) {
    const f = feat(fn);
    for (const a of f.usedAspects) used.add(a.value);
    for (const a of f.declaredAspects) used.add(a.value);
    if (imageSubGroup === undefined && f.reqdSubGroupSize?.kind === 'numeric') imageSubGroup = f.reqdSubGroupSize.value;
    if (imageWorkGroup === undefined && f.reqdWorkGroupSize !== undefined) imageWorkGroup = f.reqdWorkGroupSize;
  }
  const finalAspects = new Set(used);
  const finalSubGroup = new Set<number>(imageSubGroup === undefined ? [] : [imageSubGroup]);
  for (const fn of module.functions) {
    const f = feat(fn);
    let reported: Set<number> | undefined;
    for (const a of f.usedAspects.length === 0 ? f.declaredAspects : f.declaredAspects.length === 0 ? f.usedAspects : [...f.usedAspects, ...f.declaredAspects]) {
      if (used.has(a.value) || reported?.has(a.value) === true) continue;
      (reported ??= new Set()).add(a.value);
      finalAspects.add(a.value);
      if (a.value < 0) continue; // internal aspects split images but are never reported
      const name = a.name ?? table.nameOf(a.value) ?? String(a.value);
      warnings.push({
        code: 'unexpected-aspect',
        function: fn.name,
        message: `function '${fn.name}' uses aspect '${name}' not expected by its calling kernel. Missing [[sycl::device_has()]] on SYCL_EXTERNAL function?`,
      });
    }
    const sg = f.reqdSubGroupSize;
    if (sg?.kind === 'numeric' && sg.value !== imageSubGroup) {
      finalSubGroup.add(sg.value);
      warnings.push({
        code: 'sub-group-mismatch',
        function: fn.name,
        message: `function '${fn.name}' has required sub-group size '${sg.value}' that does not match its calling kernel. Missing [[sycl::reqd_sub_group()]] attribute on SYCL_EXTERNAL function?`,
      });
    }
  }
  const result: { -readonly [K in keyof ExternalCheckResult]: ExternalCheckResult[K] } = {
    fixedTargetImage: false,
    finalUsedAspects: [...finalAspects].sort((a, b) => a - b),
    finalSubGroup: [...finalSubGroup].sort((a, b) => a - b),
    finalFixedTargets: [],
    warnings,
  };
  if (imageWorkGroup !== undefined) result.finalWorkGroup = imageWorkGroup;
  return result;
}

/**
 * Reading the SYCL attributes and metadata that decide how functions are bundled into device
 * images: aspects (`!sycl_used_aspects`, `!sycl_declared_aspects`), required work-group and
 * sub-group sizes, joint-matrix descriptors, fixed targets, conditionally used aspects and the
 * string attributes of the per-source key.
 *
 * Metadata kinds are looked up without registering them, so reading never changes the order in
 * which the printer emits attachments.
 */
import type { IRFunction, MDNode, Metadata, Module } from '@syclkit/ir';
import { SyclAttribute, SyclMetadata, aspectOperandConstant, aspectOperandName } from '@syclkit/sycl-conventions';

/** One aspect operand: bare `i32 N` or the named pair `!{!"fp64", i32 6}`. */
export interface AspectOperand {
  /** The value as a signed 32-bit integer (internal aspects are negative). */
  readonly value: number;
  /** The name when the operand is a named pair. */
  readonly name?: string;
  /** The value zero-extended from its integer width (upstream's grouping key uses this). */
  readonly zext: bigint;
}

/** Operands of a tuple node (DI nodes have none in this sense). */
export function tupleOperands(node: MDNode | undefined): readonly (Metadata | null)[] {
  return node !== undefined && node.mk === 'tuple' ? node.operands : [];
}

/** An integer operand (`i32 6`) as { signed, zext }; undefined for anything else. */
export function integerOperand(md: Metadata | null | undefined): { signed: bigint; zext: bigint; bits: number } | undefined {
  if (md == null || md.mk !== 'value') return undefined;
  const v = md.value;
  if (v.vk !== 'int') return undefined;
  const signed = v.big;
  return { signed, zext: BigInt.asUintN(v.type.bits, signed), bits: v.type.bits };
}

/** A string operand (`!"fp64"`), or undefined. */
export function stringOperand(md: Metadata | null | undefined): string | undefined {
  return md != null && md.mk === 'string' ? md.value : undefined;
}

/** Reads an aspect list node (`!sycl_used_aspects`, `!sycl_declared_aspects`, `!sycl_fixed_targets`). */
export function readAspectOperands(node: MDNode | undefined): AspectOperand[] {
  const out: AspectOperand[] = [];
  for (const op of tupleOperands(node)) {
    const constant = aspectOperandConstant(op);
    if (constant === undefined) continue;
    const aspect: AspectOperand = { value: Number(BigInt.asIntN(32, constant.big)), zext: BigInt.asUintN(constant.type.bits, constant.big) };
    const name = aspectOperandName(op);
    out.push(name === undefined ? aspect : { ...aspect, name });
  }
  return out;
}

/** Integer operands of a node in order (`!reqd_work_group_size !{i32 8, i32 16, i32 1}`). */
export function readIntegers(node: MDNode | undefined): { signed: bigint; zext: bigint }[] {
  const out: { signed: bigint; zext: bigint }[] = [];
  for (const op of tupleOperands(node)) {
    const i = integerOperand(op);
    if (i !== undefined) out.push(i);
  }
  return out;
}

/** String operands of a node in order. */
export function readStrings(node: MDNode | undefined): string[] {
  const out: string[] = [];
  for (const op of tupleOperands(node)) {
    const s = stringOperand(op);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/** `!intel_reqd_sub_group_size`: a number, a named size (`!{!"primary"}`), or absent. */
export type SubGroupSize = { readonly kind: 'numeric'; readonly value: number } | { readonly kind: 'named'; readonly name: string };

/** Everything about one function that bundling and requirements look at. */
export interface FunctionFeatures {
  /** `!sycl_used_aspects` operands in metadata order. */
  readonly usedAspects: readonly AspectOperand[];
  /** `!sycl_declared_aspects` operands in metadata order. */
  readonly declaredAspects: readonly AspectOperand[];
  /** `!reqd_work_group_size` operands (zero-extended), undefined when absent. */
  readonly reqdWorkGroupSize?: readonly bigint[];
  /** `!work_group_num_dim` operands (zero-extended). */
  readonly workGroupNumDim?: readonly bigint[];
  readonly reqdSubGroupSize?: SubGroupSize;
  /** Raw `!intel_reqd_sub_group_size` integers (zero-extended), for the upstream key. */
  readonly reqdSubGroupSizeRaw: readonly bigint[];
  /** `!sycl_joint_matrix` strings. */
  readonly jointMatrix: readonly string[];
  readonly jointMatrixMad: readonly string[];
  /** `!sycl_fixed_targets` values; undefined when the metadata is absent, empty when it is `!{}`. */
  readonly fixedTargets?: readonly number[];
  /** The node of `!sycl_conditionally_used_aspects`, if any. */
  readonly conditionallyUsedAspects?: MDNode;
  readonly moduleId?: string;
  readonly indirectlyCallable?: string;
  readonly registerAllocMode?: string;
  readonly grfSize?: string;
  readonly optLevel?: string;
}

/** The string value of a function attribute, or undefined. */
export function fnAttr(fn: IRFunction, key: string): string | undefined {
  return fn.attributes.fn.getString(key);
}

/** Reads the features of a function. */
export function functionFeatures(module: Module, fn: IRFunction): FunctionFeatures {
  return functionFeaturesReader(module)(fn);
}

/** The metadata kinds `functionFeatures` reads, in the order of {@link FEATURE_KINDS}. */
const FEATURE_KINDS = [
  SyclMetadata.usedAspects,
  SyclMetadata.declaredAspects,
  SyclMetadata.reqdSubGroupSize,
  SyclMetadata.reqdWorkGroupSize,
  SyclMetadata.workGroupNumDim,
  SyclMetadata.fixedTargets,
  SyclMetadata.conditionallyUsedAspects,
  SyclMetadata.jointMatrix,
  SyclMetadata.jointMatrixMad,
] as const;

type AttrField = 'moduleId' | 'indirectlyCallable' | 'registerAllocMode' | 'grfSize' | 'optLevel';

const FEATURE_ATTRIBUTES: readonly (readonly [string, AttrField])[] = [
  [SyclAttribute.moduleId, 'moduleId'],
  [SyclAttribute.indirectlyCallable, 'indirectlyCallable'],
  [SyclAttribute.registerAllocMode, 'registerAllocMode'],
  [SyclAttribute.grfSize, 'grfSize'],
  [SyclAttribute.optLevel, 'optLevel'],
];

/** Shared by functions without such metadata (features are read-only). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * `functionFeatures` for many functions of one module: metadata kinds are looked up once, each
 * function's attachments are walked once, and the string attributes are read once per attribute
 * set (functions share their `#N` groups). Functions without a list get one shared empty array.
 */
export function functionFeaturesReader(module: Module): (fn: IRFunction) => FunctionFeatures {
  const kinds = module.context.md.kinds;
  const ids = FEATURE_KINDS.map((kind) => kinds.lookup(kind) ?? -1);
  const [usedId, declaredId, sgId, wgId, numDimId, fixedId, condId, jmId, jmMadId] = ids as [number, number, number, number, number, number, number, number, number];
  const attributesOf = new Map<object, readonly (readonly [AttrField, string])[]>();
  return (fn) => {
    let used: MDNode | undefined;
    let declared: MDNode | undefined;
    let sgNode: MDNode | undefined;
    let wg: MDNode | undefined;
    let numDim: MDNode | undefined;
    let fixed: MDNode | undefined;
    let cond: MDNode | undefined;
    let jm: MDNode | undefined;
    let jmMad: MDNode | undefined;
    // The first attachment of a kind counts (as `attachment` finds it).
    const attachments = fn.attachments as readonly { readonly kind: number; readonly node: MDNode }[] | null;
    if (attachments !== null) {
      for (const a of attachments) {
        const k = a.kind;
        if (k === usedId) used ??= a.node;
        else if (k === declaredId) declared ??= a.node;
        else if (k === sgId) sgNode ??= a.node;
        else if (k === wgId) wg ??= a.node;
        else if (k === numDimId) numDim ??= a.node;
        else if (k === fixedId) fixed ??= a.node;
        else if (k === condId) cond ??= a.node;
        else if (k === jmId) jm ??= a.node;
        else if (k === jmMadId) jmMad ??= a.node;
      }
    }
    const sgInts = sgNode === undefined ? NONE : readIntegers(sgNode);
    let reqdSubGroupSize: SubGroupSize | undefined;
    if (sgInts.length > 0) reqdSubGroupSize = { kind: 'numeric', value: Number(sgInts[0]!.zext) };
    else if (sgNode !== undefined) {
      const named = readStrings(sgNode)[0];
      if (named !== undefined) reqdSubGroupSize = { kind: 'named', name: named };
    }
    const features: { -readonly [K in keyof FunctionFeatures]: FunctionFeatures[K] } = {
      usedAspects: used === undefined ? NONE : readAspectOperands(used),
      declaredAspects: declared === undefined ? NONE : readAspectOperands(declared),
      reqdSubGroupSizeRaw: sgInts.length === 0 ? NONE : sgInts.map((i) => i.zext),
      jointMatrix: jm === undefined ? NONE : readStrings(jm),
      jointMatrixMad: jmMad === undefined ? NONE : readStrings(jmMad),
    };
    if (wg !== undefined) features.reqdWorkGroupSize = readIntegers(wg).map((i) => i.zext);
    if (numDim !== undefined) features.workGroupNumDim = readIntegers(numDim).map((i) => i.zext);
    if (reqdSubGroupSize !== undefined) features.reqdSubGroupSize = reqdSubGroupSize;
    if (fixed !== undefined) features.fixedTargets = readAspectOperands(fixed).map((a) => a.value);
    if (cond !== undefined) features.conditionallyUsedAspects = cond;
    const set = fn.attributes.fn;
    let attrs = attributesOf.get(set);
    if (attrs === undefined) {
      const found: (readonly [AttrField, string])[] = [];
      for (const [key, field] of FEATURE_ATTRIBUTES) {
        const v = set.getString(key);
        if (v !== undefined) found.push([field, v]);
      }
      attributesOf.set(set, (attrs = found));
    }
    for (const [field, value] of attrs) features[field] = value;
    return features;
  };
}

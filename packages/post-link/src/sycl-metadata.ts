/**
 * Reading the SYCL attributes and metadata that decide how functions are bundled into device
 * images: aspects (`!sycl_used_aspects`, `!sycl_declared_aspects`), required work-group and
 * sub-group sizes, joint-matrix descriptors, fixed targets, conditionally used aspects and the
 * string attributes of the per-source key.
 *
 * Metadata kinds are looked up without registering them, so reading never changes the order in
 * which the printer emits attachments.
 */
import type { AttributeSet, IRFunction, MDNode, Metadata, Module } from '@syclkit/ir';
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
  /** `"calls-indirectly"`: the virtual-function sets the function uses, comma-separated. */
  readonly callsIndirectly?: string;
  readonly registerAllocMode?: string;
  readonly grfSize?: string;
  readonly optLevel?: string;
}

/** The string value of a function attribute, or undefined. */
export function fnAttr(fn: IRFunction, key: string): string | undefined {
  return fn.attributes.fn.getString(key);
}

/** Reads the features of a function (for many functions of one module, use a {@link FeatureReader}). */
export function functionFeatures(module: Module, fn: IRFunction): FunctionFeatures {
  return readFeatures(fn, featureKinds(module.context), undefined);
}

/**
 * Reads the features of many functions of one module: the metadata kinds are looked up once, and
 * what functions share is read once — an attribute set's string attributes (functions share
 * attribute sets) and an aspect list node's operands (lists are uniqued nodes). The results equal
 * {@link functionFeatures}'; lists that come from a shared node are shared (they are read-only).
 */
export class FeatureReader {
  readonly #kinds: FeatureKinds;
  readonly #memo: FeatureMemo = { attributes: new Map(), aspectLists: new Map(), fixedTargets: new Map() };

  constructor(module: Module) {
    this.#kinds = featureKinds(module.context);
  }

  read(fn: IRFunction): FunctionFeatures {
    return readFeatures(fn, this.#kinds, this.#memo);
  }
}

/** The kind ids of the metadata features are read from (-1: never registered, so never attached). */
interface FeatureKinds {
  readonly used: number;
  readonly declared: number;
  readonly subGroup: number;
  readonly workGroup: number;
  readonly numDim: number;
  readonly fixed: number;
  readonly conditional: number;
  readonly jointMatrix: number;
  readonly jointMatrixMad: number;
}

function featureKinds(context: Module['context']): FeatureKinds {
  // Looked up, not registered: reading must not change the order attachments print in.
  const id = (kind: string): number => context.md.kinds.lookup(kind) ?? -1;
  return {
    used: id(SyclMetadata.usedAspects),
    declared: id(SyclMetadata.declaredAspects),
    subGroup: id(SyclMetadata.reqdSubGroupSize),
    workGroup: id(SyclMetadata.reqdWorkGroupSize),
    numDim: id(SyclMetadata.workGroupNumDim),
    fixed: id(SyclMetadata.fixedTargets),
    conditional: id(SyclMetadata.conditionallyUsedAspects),
    jointMatrix: id(SyclMetadata.jointMatrix),
    jointMatrixMad: id(SyclMetadata.jointMatrixMad),
  };
}

/** The features read from a function's string attributes. */
export type AttributeFeatures = Pick<FunctionFeatures, 'moduleId' | 'indirectlyCallable' | 'callsIndirectly' | 'registerAllocMode' | 'grfSize' | 'optLevel'>;

/** The string attribute each of {@link AttributeFeatures} is read from. */
export const ATTRIBUTE_FEATURE_KEYS: Readonly<Record<keyof AttributeFeatures, string>> = {
  moduleId: SyclAttribute.moduleId,
  indirectlyCallable: SyclAttribute.indirectlyCallable,
  callsIndirectly: SyclAttribute.callsIndirectly,
  registerAllocMode: SyclAttribute.registerAllocMode,
  grfSize: SyclAttribute.grfSize,
  optLevel: SyclAttribute.optLevel,
};

interface FeatureMemo {
  readonly attributes: Map<AttributeSet, AttributeFeatures>;
  readonly aspectLists: Map<MDNode, readonly AspectOperand[]>;
  readonly fixedTargets: Map<MDNode, readonly number[]>;
}

const NO_OPERANDS: readonly never[] = Object.freeze([]);

function readFeatures(fn: IRFunction, kinds: FeatureKinds, memo: FeatureMemo | undefined): FunctionFeatures {
  // The first attachment of each kind, in one pass over the function's attachments.
  let used: MDNode | undefined;
  let declared: MDNode | undefined;
  let sgNode: MDNode | undefined;
  let wg: MDNode | undefined;
  let numDim: MDNode | undefined;
  let fixed: MDNode | undefined;
  let cond: MDNode | undefined;
  let jm: MDNode | undefined;
  let jmm: MDNode | undefined;
  for (const a of fn.attachments) {
    const kind = a.kind;
    if (kind === kinds.used) used ??= a.node;
    else if (kind === kinds.declared) declared ??= a.node;
    else if (kind === kinds.subGroup) sgNode ??= a.node;
    else if (kind === kinds.workGroup) wg ??= a.node;
    else if (kind === kinds.numDim) numDim ??= a.node;
    else if (kind === kinds.fixed) fixed ??= a.node;
    else if (kind === kinds.conditional) cond ??= a.node;
    else if (kind === kinds.jointMatrix) jm ??= a.node;
    else if (kind === kinds.jointMatrixMad) jmm ??= a.node;
  }
  let reqdSubGroupSize: SubGroupSize | undefined;
  let reqdSubGroupSizeRaw: readonly bigint[] = NO_OPERANDS;
  if (sgNode !== undefined) {
    const sgInts = readIntegers(sgNode);
    reqdSubGroupSizeRaw = sgInts.map((i) => i.zext);
    if (sgInts.length > 0) reqdSubGroupSize = { kind: 'numeric', value: Number(sgInts[0]!.zext) };
    else {
      const named = readStrings(sgNode)[0];
      if (named !== undefined) reqdSubGroupSize = { kind: 'named', name: named };
    }
  }
  const features: { -readonly [K in keyof FunctionFeatures]: FunctionFeatures[K] } = {
    usedAspects: aspectList(used, memo),
    declaredAspects: aspectList(declared, memo),
    reqdSubGroupSizeRaw,
    jointMatrix: jm === undefined ? NO_OPERANDS : readStrings(jm),
    jointMatrixMad: jmm === undefined ? NO_OPERANDS : readStrings(jmm),
  };
  if (wg !== undefined) features.reqdWorkGroupSize = readIntegers(wg).map((i) => i.zext);
  if (numDim !== undefined) features.workGroupNumDim = readIntegers(numDim).map((i) => i.zext);
  if (reqdSubGroupSize !== undefined) features.reqdSubGroupSize = reqdSubGroupSize;
  if (fixed !== undefined) features.fixedTargets = fixedTargetValues(fixed, memo);
  if (cond !== undefined) features.conditionallyUsedAspects = cond;
  const attributes = fn.attributes.fn;
  let attrs = memo?.attributes.get(attributes);
  if (attrs === undefined) {
    attrs = attributeFeatures(fn);
    memo?.attributes.set(attributes, attrs);
  }
  if (attrs.moduleId !== undefined) features.moduleId = attrs.moduleId;
  if (attrs.indirectlyCallable !== undefined) features.indirectlyCallable = attrs.indirectlyCallable;
  if (attrs.callsIndirectly !== undefined) features.callsIndirectly = attrs.callsIndirectly;
  if (attrs.registerAllocMode !== undefined) features.registerAllocMode = attrs.registerAllocMode;
  if (attrs.grfSize !== undefined) features.grfSize = attrs.grfSize;
  if (attrs.optLevel !== undefined) features.optLevel = attrs.optLevel;
  return features;
}

function aspectList(node: MDNode | undefined, memo: FeatureMemo | undefined): readonly AspectOperand[] {
  if (node === undefined) return NO_OPERANDS;
  let list = memo?.aspectLists.get(node);
  if (list === undefined) {
    list = readAspectOperands(node);
    memo?.aspectLists.set(node, list);
  }
  return list;
}

function fixedTargetValues(node: MDNode, memo: FeatureMemo | undefined): readonly number[] {
  let values = memo?.fixedTargets.get(node);
  if (values === undefined) {
    values = readAspectOperands(node).map((a) => a.value);
    memo?.fixedTargets.set(node, values);
  }
  return values;
}

const ATTRIBUTE_FEATURE_FIELDS = Object.keys(ATTRIBUTE_FEATURE_KEYS) as (keyof AttributeFeatures)[];

function attributeFeatures(fn: IRFunction): AttributeFeatures {
  const out: { -readonly [K in keyof AttributeFeatures]: AttributeFeatures[K] } = {};
  for (const field of ATTRIBUTE_FEATURE_FIELDS) {
    const v = fnAttr(fn, ATTRIBUTE_FEATURE_KEYS[field]);
    if (v !== undefined) out[field] = v;
  }
  return out;
}

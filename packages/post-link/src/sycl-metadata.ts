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
import { SyclAttribute, SyclMetadata, aspectOperandConstant, aspectOperandName, attachment } from '@syclkit/sycl-conventions';

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
  const md = (kind: string): MDNode | undefined => attachment(fn, module.context, kind);
  const sgNode = md(SyclMetadata.reqdSubGroupSize);
  const sgInts = readIntegers(sgNode);
  let reqdSubGroupSize: SubGroupSize | undefined;
  if (sgInts.length > 0) reqdSubGroupSize = { kind: 'numeric', value: Number(sgInts[0]!.zext) };
  else {
    const named = readStrings(sgNode)[0];
    if (named !== undefined) reqdSubGroupSize = { kind: 'named', name: named };
  }
  const wg = md(SyclMetadata.reqdWorkGroupSize);
  const numDim = md(SyclMetadata.workGroupNumDim);
  const fixed = md(SyclMetadata.fixedTargets);
  const cond = md(SyclMetadata.conditionallyUsedAspects);
  const features: { -readonly [K in keyof FunctionFeatures]: FunctionFeatures[K] } = {
    usedAspects: readAspectOperands(md(SyclMetadata.usedAspects)),
    declaredAspects: readAspectOperands(md(SyclMetadata.declaredAspects)),
    reqdSubGroupSizeRaw: sgInts.map((i) => i.zext),
    jointMatrix: readStrings(md(SyclMetadata.jointMatrix)),
    jointMatrixMad: readStrings(md(SyclMetadata.jointMatrixMad)),
  };
  if (wg !== undefined) features.reqdWorkGroupSize = readIntegers(wg).map((i) => i.zext);
  if (numDim !== undefined) features.workGroupNumDim = readIntegers(numDim).map((i) => i.zext);
  if (reqdSubGroupSize !== undefined) features.reqdSubGroupSize = reqdSubGroupSize;
  if (fixed !== undefined) features.fixedTargets = readAspectOperands(fixed).map((a) => a.value);
  if (cond !== undefined) features.conditionallyUsedAspects = cond;
  const attr = (key: string, field: 'moduleId' | 'indirectlyCallable' | 'registerAllocMode' | 'grfSize' | 'optLevel'): void => {
    const v = fnAttr(fn, key);
    if (v !== undefined) features[field] = v;
  };
  attr(SyclAttribute.moduleId, 'moduleId');
  attr(SyclAttribute.indirectlyCallable, 'indirectlyCallable');
  attr(SyclAttribute.registerAllocMode, 'registerAllocMode');
  attr(SyclAttribute.grfSize, 'grfSize');
  attr(SyclAttribute.optLevel, 'optLevel');
  return features;
}

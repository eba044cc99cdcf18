/**
 * Properties of reading function features, on generated modules whose functions carry random
 * subsets of the SYCL metadata (shared and unshared nodes, repeated kinds, named and bare aspect
 * operands, malformed operands) and random string attributes:
 *
 * 1. `functionFeatures` reads what a direct reading of each attachment (`attachment()`, the first
 *    node of a kind) and each attribute gives;
 * 2. a `FeatureReader` (kinds looked up once, shared nodes and attribute sets read once) gives
 *    the same features as `functionFeatures`, for every function, in any order of reading;
 * 3. reading registers no metadata kind.
 */
import { fc, test } from '@fast-check/vitest';
import type { IRFunction, MDNode, Module } from '@syclkit/ir';
import { SyclAttribute, SyclMetadata, attachment } from '@syclkit/sycl-conventions';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { ir } from '../test/testing.js';
import { FeatureReader, fnAttr, functionFeatures, readAspectOperands, readIntegers, readStrings, type FunctionFeatures, type SubGroupSize } from './sycl-metadata.js';

/** The reading before FeatureReader: one `attachment()` lookup per kind. */
function referenceFeatures(module: Module, fn: IRFunction): FunctionFeatures {
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

/** Metadata nodes a function may carry (indices into NODES), by kind. */
const KINDS = [
  SyclMetadata.usedAspects,
  SyclMetadata.declaredAspects,
  SyclMetadata.reqdSubGroupSize,
  SyclMetadata.reqdWorkGroupSize,
  SyclMetadata.workGroupNumDim,
  SyclMetadata.fixedTargets,
  SyclMetadata.conditionallyUsedAspects,
  SyclMetadata.jointMatrix,
  SyclMetadata.jointMatrixMad,
  'other_kind',
] as const;

/** Node bodies: aspect lists (bare, named, malformed, empty), sizes, strings. */
const NODES = [
  '!{i32 6}',
  '!{i32 1, i32 6, i32 -3}',
  '!{!{!"fp64", i32 6}, i32 2}',
  '!{!"x", i32 4, float 1.0}',
  '!{}',
  '!{i32 16}',
  '!{!"primary"}',
  '!{i32 8, i32 16, i32 1}',
  '!{i64 4294967297, i8 -1}',
  '!{!"matrix;a", !"b"}',
  '!{!{!{i32 1}, !{i32 2}}}',
];

const STRING_ATTRIBUTES = [
  `"${SyclAttribute.moduleId}"="a.cpp"`,
  `"${SyclAttribute.moduleId}"="b.cpp"`,
  `"${SyclAttribute.indirectlyCallable}"="set"`,
  `"${SyclAttribute.registerAllocMode}"="2"`,
  `"${SyclAttribute.grfSize}"="256"`,
  `"${SyclAttribute.optLevel}"="3"`,
  '"other"="x"',
];

const genFunction = fc.record({
  declaration: fc.boolean(),
  attachments: fc.array(fc.tuple(fc.nat(KINDS.length - 1), fc.nat(NODES.length - 1)), { maxLength: 6 }),
  attributeSet: fc.nat(3),
});

const genModule = fc.record({
  functions: fc.array(genFunction, { minLength: 1, maxLength: 8 }),
  attributeSets: fc.array(fc.subarray(STRING_ATTRIBUTES), { minLength: 4, maxLength: 4 }),
  /** Kinds some other function registers (reading must see kinds registered in any order). */
  kindOrder: fc.shuffledSubarray([...KINDS.keys()]),
});

function moduleText(spec: GenModule): string {
  const lines: string[] = [];
  // A function that only fixes the order in which kinds are registered.
  if (spec.kindOrder.length > 0) lines.push(`define void @order() ${spec.kindOrder.map((k) => `!${KINDS[k]} !${k}`).join(' ')} {\n  ret void\n}`);
  spec.functions.forEach((f, i) => {
    const attachments = f.attachments.map(([kind, node]) => ` !${KINDS[kind]} !${100 + node}`).join('');
    lines.push(f.declaration ? `declare${attachments} void @f${i}() #${f.attributeSet}` : `define void @f${i}() #${f.attributeSet}${attachments} {\n  ret void\n}`);
  });
  spec.attributeSets.forEach((set, i) => lines.push(`attributes #${i} = { ${['nounwind', ...set].join(' ')} }`));
  KINDS.forEach((_, k) => lines.push(`!${k} = !{}`));
  NODES.forEach((body, n) => lines.push(`!${100 + n} = ${body}`));
  return lines.join('\n') + '\n';
}

type GenModule = {
  functions: { declaration: boolean; attachments: [number, number][]; attributeSet: number }[];
  attributeSets: string[][];
  kindOrder: number[];
};

describe('function features', () => {
  test.prop([genModule as fc.Arbitrary<GenModule>], fcOptions())('equal a direct reading of every attachment and attribute (1)', (spec) => {
    const module = ir(moduleText(spec));
    for (const fn of module.functions) expect(functionFeatures(module, fn)).toEqual(referenceFeatures(module, fn));
  });

  test.prop([genModule as fc.Arbitrary<GenModule>, fc.boolean()], fcOptions())('are the same from a FeatureReader, in any order (2, 3)', (spec, reversed) => {
    const module = ir(moduleText(spec));
    const kinds = module.context.md.kinds.list().length;
    const reader = new FeatureReader(module);
    const functions = reversed ? [...module.functions].reverse() : module.functions;
    for (const fn of functions) expect(reader.read(fn)).toEqual(functionFeatures(module, fn));
    // Twice: answers from the shared reads are the same.
    for (const fn of functions) expect(reader.read(fn)).toEqual(referenceFeatures(module, fn));
    expect(module.context.md.kinds.list().length).toBe(kinds);
  });
});

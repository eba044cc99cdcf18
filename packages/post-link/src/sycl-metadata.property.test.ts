/**
 * Properties of reading function features on generated modules (functions with any mix of the
 * SYCL attachments, in any order, some repeated, and string attributes in groups that functions
 * share or not):
 *
 * 1. `functionFeaturesReader(module)` gives, for every function, what reading each attachment and
 *    attribute on its own gives (the first attachment of a kind counts; an absent list is empty);
 * 2. one reader used for all functions gives what a fresh reader per function gives (its per-set
 *    attribute memo and kind lookups never carry one function's answer to another).
 */
import { fc, test } from '@fast-check/vitest';
import type { IRFunction, MDNode, Module } from '@syclkit/ir';
import { SyclAttribute, SyclMetadata, attachment } from '@syclkit/sycl-conventions';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { ir } from '../test/testing.js';
import { functionFeaturesReader, readAspectOperands, readIntegers, readStrings, type FunctionFeatures } from './sycl-metadata.js';

/** Attachment kinds and the nodes they may carry. */
const NODES: Readonly<Record<string, readonly string[]>> = {
  [SyclMetadata.usedAspects]: ['!{i32 1, i32 5}', '!{}', '!{!"fp64", i32 6}', '!{i32 -1}'],
  [SyclMetadata.declaredAspects]: ['!{i32 9}', '!{i32 1, i32 6}'],
  [SyclMetadata.reqdSubGroupSize]: ['!{i32 16}', '!{!"primary"}', '!{}'],
  [SyclMetadata.reqdWorkGroupSize]: ['!{i32 8, i32 1, i32 1}', '!{i64 4294967296}'],
  [SyclMetadata.workGroupNumDim]: ['!{i32 2}'],
  [SyclMetadata.fixedTargets]: ['!{}', '!{i32 3, i32 4}'],
  [SyclMetadata.conditionallyUsedAspects]: ['!{!{i32 1}}'],
  [SyclMetadata.jointMatrix]: ['!{!"matrix_type::bf16,use::a,8,16"}'],
  [SyclMetadata.jointMatrixMad]: ['!{!"mad"}', '!{}'],
  srcloc: ['!{i32 7}'],
};
const KINDS = Object.keys(NODES);
const ATTRIBUTES = [SyclAttribute.moduleId, SyclAttribute.indirectlyCallable, SyclAttribute.registerAllocMode, SyclAttribute.grfSize, SyclAttribute.optLevel, 'other'];

const genFunction = fc.record({
  attachments: fc.array(fc.tuple(fc.constantFrom(...KINDS), fc.nat()), { maxLength: 6 }),
  group: fc.nat({ max: 3 }),
  repeat: fc.boolean(),
});
const genGroup = fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom('a.cpp', '', '256', 'set')), { maxLength: 4 });

function moduleText(functions: readonly { attachments: [string, number][]; group: number }[], groups: readonly [string, string][][]): string {
  const nodes: string[] = [];
  const lines: string[] = [];
  functions.forEach((fn, i) => {
    // One attachment per kind in the text (the reader keeps one); repeats are added after parsing.
    const seen = new Set<string>();
    const attached = fn.attachments
      .filter(([kind]) => (seen.has(kind) ? false : (seen.add(kind), true)))
      .map(([kind, pick]) => {
        nodes.push(`!${nodes.length} = ${NODES[kind]![pick % NODES[kind]!.length]!}`);
        return `!${kind} !${nodes.length - 1}`;
      });
    lines.push(`define void @f${i}() #${fn.group} ${attached.join(' ')} {\n  ret void\n}`);
  });
  groups.forEach((group, g) => lines.push(`attributes #${g} = { nounwind ${group.map(([key, value]) => `"${key}"="${value}"`).join(' ')} }`));
  for (let g = groups.length; g < 4; g++) lines.push(`attributes #${g} = { nounwind }`);
  return `${lines.join('\n')}\n${nodes.join('\n')}\n`;
}

/** The features of one function read attachment by attachment (the specification). */
function reference(module: Module, fn: IRFunction): FunctionFeatures {
  const md = (kind: string): MDNode | undefined => attachment(fn, module.context, kind);
  const sg = md(SyclMetadata.reqdSubGroupSize);
  const sgInts = readIntegers(sg);
  const named = readStrings(sg)[0];
  const out: Record<string, unknown> = {
    usedAspects: readAspectOperands(md(SyclMetadata.usedAspects)),
    declaredAspects: readAspectOperands(md(SyclMetadata.declaredAspects)),
    reqdSubGroupSizeRaw: sgInts.map((i) => i.zext),
    jointMatrix: readStrings(md(SyclMetadata.jointMatrix)),
    jointMatrixMad: readStrings(md(SyclMetadata.jointMatrixMad)),
  };
  const wg = md(SyclMetadata.reqdWorkGroupSize);
  if (wg !== undefined) out.reqdWorkGroupSize = readIntegers(wg).map((i) => i.zext);
  const numDim = md(SyclMetadata.workGroupNumDim);
  if (numDim !== undefined) out.workGroupNumDim = readIntegers(numDim).map((i) => i.zext);
  if (sgInts.length > 0) out.reqdSubGroupSize = { kind: 'numeric', value: Number(sgInts[0]!.zext) };
  else if (named !== undefined) out.reqdSubGroupSize = { kind: 'named', name: named };
  const fixed = md(SyclMetadata.fixedTargets);
  if (fixed !== undefined) out.fixedTargets = readAspectOperands(fixed).map((a) => a.value);
  const cond = md(SyclMetadata.conditionallyUsedAspects);
  if (cond !== undefined) out.conditionallyUsedAspects = cond;
  const fields: [string, string][] = [
    [SyclAttribute.moduleId, 'moduleId'],
    [SyclAttribute.indirectlyCallable, 'indirectlyCallable'],
    [SyclAttribute.registerAllocMode, 'registerAllocMode'],
    [SyclAttribute.grfSize, 'grfSize'],
    [SyclAttribute.optLevel, 'optLevel'],
  ];
  for (const [key, field] of fields) {
    const value = fn.attributes.fn.getString(key);
    if (value !== undefined) out[field] = value;
  }
  return out as unknown as FunctionFeatures;
}

describe('function features', () => {
  test.prop([fc.array(genFunction, { minLength: 1, maxLength: 8 }), fc.array(genGroup, { maxLength: 4 })], fcOptions())(
    'one reader per module reads what each attachment and attribute says',
    (functions, groups) => {
      const module = ir(moduleText(functions, groups));
      module.functions.forEach((fn, i) => {
        const first = fn.attachments[0];
        // A second attachment of the first kind, after it: the first one must count.
        if (functions[i]!.repeat && first !== undefined) fn.attachments.push({ kind: first.kind, node: module.context.md.tuple([]) });
      });
      const read = functionFeaturesReader(module);
      for (const fn of module.functions) {
        const expected = reference(module, fn);
        expect(read(fn), fn.name).toEqual(expected);
        expect(functionFeaturesReader(module)(fn), fn.name).toEqual(expected);
      }
    },
  );
});

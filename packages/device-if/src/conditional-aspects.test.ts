import { describe, expect, it } from 'vitest';
import { ConditionError } from './condition.js';
import {
  ConditionalAspectsFormatError,
  architectureAspectsFromTable,
  conditionallyUsedAspectsEqual,
  fromConditionallyUsedAspectsOperands,
  simplifyConditionallyUsedAspects,
  toConditionallyUsedAspectsOperands,
  type ConditionalAspectsPair,
} from './conditional-aspects.js';

const FP16 = 5;
const FP64 = 6;
const ATOMIC64 = 28;
const ESIMD = 53;
const PVC = 0x000000030f000700n;
const DG1 = 0x0000000302800000n;
const TGLLP = 0x0000000300000000n;
const X86_64 = 0x0300000000000000n;
const pvc = 251660032;
const dg1 = 41943040;

const pair = (condition: number[], aspects: number[]): ConditionalAspectsPair => ({ condition, aspects });

describe('metadata operands', () => {
  it('converts pairs to !{ !{ !{i32 cond...}, !{i32 aspect...} }, ... } as nested arrays, in order', () => {
    const pairs = [pair([1, 2], [3, 4]), pair([1, 2, 3, 4], [4])];
    expect(toConditionallyUsedAspectsOperands(pairs)).toEqual([
      [
        [1, 2],
        [3, 4],
      ],
      [[1, 2, 3, 4], [4]],
    ]);
    expect(toConditionallyUsedAspectsOperands([])).toEqual([]);
  });

  it('reads operands back, keeping conditions that do not decode (the corpus uses placeholders)', () => {
    expect(fromConditionallyUsedAspectsOperands([[[0], [3, 6]]])).toEqual([pair([0], [3, 6])]);
  });

  it.each([
    [{}, [], 'expected a list of (condition, aspects) pairs'],
    [[[[1]]], [0], 'pair 0: expected a node with 2 operands (condition, aspects), found 1 operands'],
    [[[[1], [2], [3]]], [0], 'found 3 operands'],
    [[[[1], [2]], 7], [1], 'found a value that is not a node'],
    [[[5, [2]]], [0, 0], 'pair 0: the condition operand is not a node'],
    [[[[1], [2, 'fp16']]], [0, 1, 1], 'pair 0: aspects operand 1 is not an i32 constant (fp16)'],
    [[[[2 ** 31], [2]]], [0, 0, 0], 'condition operand 0 is not an i32 constant'],
  ])('rejects malformed operands %j with the path of the problem', (operands, path, message) => {
    let error: unknown;
    try {
      fromConditionallyUsedAspectsOperands(operands);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConditionalAspectsFormatError);
    expect((error as ConditionalAspectsFormatError).path).toEqual(path);
    expect((error as ConditionalAspectsFormatError).message).toContain(message);
    expect((error as ConditionalAspectsFormatError).render()).toMatch(/^error: malformed !sycl_conditionally_used_aspects: /);
  });
});

describe('architectureAspectsFromTable', () => {
  it('answers by truncated operand and intersects architectures that share one', () => {
    const table = architectureAspectsFromTable([
      [PVC, [ESIMD, FP16, FP64, ATOMIC64]],
      [TGLLP, [ESIMD, FP16, ATOMIC64]],
      [X86_64, []],
    ]);
    expect([...table.guaranteedAspects(pvc)!]).toEqual([ESIMD, FP16, FP64, ATOMIC64]);
    expect([...table.guaranteedAspects(0)!]).toEqual([]);
    expect(table.guaranteedAspects(dg1)).toBeUndefined();
  });
});

describe('simplifyConditionallyUsedAspects', () => {
  it('merges pairs whose conditions normalize alike, at the first one’s place, with the union of aspects', () => {
    const result = simplifyConditionallyUsedAspects([
      pair([-4, -1, FP64, -1, FP16], [1]),
      pair([-2, pvc], [3]),
      pair([-4, -1, FP16, -1, FP64], [2]),
      pair([-3, -3, -2, pvc], [4]),
    ]);
    expect(result.pairs).toEqual([pair([-4, -1, FP16, -1, FP64], [1, 2]), pair([-2, pvc], [3, 4])]);
  });

  it('writes conditions in normal form and aspects ascending', () => {
    expect(simplifyConditionallyUsedAspects([pair([-5, -1, 9, -1, 7], [30, 3, 12, 3])]).pairs).toEqual([
      pair([-5, -1, 7, -1, 9], [3, 12, 30]),
    ]);
  });

  it('drops aspects the function already uses unconditionally, and then empty pairs', () => {
    const result = simplifyConditionallyUsedAspects([pair([-1, 7], [1, 2]), pair([-1, 9], [1])], { usedAspects: [1] });
    expect(result.pairs).toEqual([pair([-1, 7], [2])]);
  });

  it('drops aspects an AND of aspects requires (the design’s "fp16 == true" example)', () => {
    expect(simplifyConditionallyUsedAspects([pair([-1, FP16], [FP16])]).pairs).toEqual([]);
    expect(simplifyConditionallyUsedAspects([pair([-4, -1, FP16, -1, FP64], [FP16, FP64, ATOMIC64])]).pairs).toEqual([
      pair([-4, -1, FP16, -1, FP64], [ATOMIC64]),
    ]);
  });

  it('also drops aspects required by a top-level term of a mixed AND', () => {
    expect(simplifyConditionallyUsedAspects([pair([-4, -1, FP16, -3, -2, pvc], [FP16, ATOMIC64])]).pairs).toEqual([
      pair([-4, -1, FP16, -3, -2, pvc], [ATOMIC64]),
    ]);
  });

  it('keeps aspects a condition does not require: under a negation or an OR of aspects', () => {
    expect(simplifyConditionallyUsedAspects([pair([-3, -1, FP16], [FP16])]).pairs).toEqual([pair([-3, -1, FP16], [FP16])]);
    expect(simplifyConditionallyUsedAspects([pair([-5, -1, FP16, -1, FP64], [FP16])]).pairs).toEqual([
      pair([-5, -1, FP16, -1, FP64], [FP16]),
    ]);
  });

  it('drops aspects every architecture of an OR of architectures has, per the device configuration', () => {
    const architectureAspects = architectureAspectsFromTable([
      [PVC, [ESIMD, FP16, FP64, ATOMIC64]],
      [DG1, [ESIMD, FP16, ATOMIC64]],
    ]);
    const condition = [-5, -2, pvc, -2, dg1];
    const result = simplifyConditionallyUsedAspects([pair(condition, [1, FP16, FP64, ATOMIC64])], { architectureAspects });
    expect(result.pairs).toEqual([pair([-5, -2, dg1, -2, pvc], [1, FP64])]);
    expect(simplifyConditionallyUsedAspects([pair([-2, pvc], [1, FP64])], { architectureAspects }).pairs).toEqual([
      pair([-2, pvc], [1]),
    ]);
    expect(simplifyConditionallyUsedAspects([pair([-4, -1, 9, -2, pvc], [FP64])], { architectureAspects }).pairs).toEqual([]);
  });

  it('skips the architecture rule without a device configuration or for unknown architectures', () => {
    expect(simplifyConditionallyUsedAspects([pair([-2, pvc], [FP64])]).pairs).toEqual([pair([-2, pvc], [FP64])]);
    const architectureAspects = architectureAspectsFromTable([[PVC, [FP64]]]);
    expect(simplifyConditionallyUsedAspects([pair([-5, -2, pvc, -2, dg1], [FP64])], { architectureAspects }).pairs).toEqual([
      pair([-5, -2, dg1, -2, pvc], [FP64]),
    ]);
  });

  it('treats the ambiguous operand 0 as every architecture that truncates to it', () => {
    const gpusOnly = architectureAspectsFromTable([
      [TGLLP, [ESIMD, FP16, ATOMIC64]],
      [0x0000000200000000n, [ESIMD, FP16, FP64, ATOMIC64]], // intel_gpu_bdw
    ]);
    expect(simplifyConditionallyUsedAspects([pair([-2, 0], [FP16, FP64])], { architectureAspects: gpusOnly }).pairs).toEqual([
      pair([-2, 0], [FP64]),
    ]);
    const withCpu = architectureAspectsFromTable([
      [TGLLP, [ESIMD, FP16, ATOMIC64]],
      [X86_64, []],
    ]);
    expect(simplifyConditionallyUsedAspects([pair([-2, 0], [FP16])], { architectureAspects: withCpu }).pairs).toEqual([
      pair([-2, 0], [FP16]),
    ]);
  });

  it('drops pairs whose condition is always false', () => {
    expect(simplifyConditionallyUsedAspects([pair([-4, -1, FP16, -3, -1, FP16], [1])])).toEqual({ pairs: [], alwaysUsed: [] });
    expect(simplifyConditionallyUsedAspects([pair([-4, -2, pvc, -2, dg1], [1])]).pairs).toEqual([]);
  });

  it('reports aspects under an always-true condition as alwaysUsed and removes them from other pairs', () => {
    const result = simplifyConditionallyUsedAspects([pair([-1, 7], [2, 3]), pair([-5, -1, FP16, -3, -1, FP16], [3, 1, 4])], {
      usedAspects: [4],
    });
    expect(result).toEqual({ pairs: [pair([-1, 7], [2])], alwaysUsed: [1, 3] });
  });

  it('rejects a malformed condition, naming the pair', () => {
    expect(() => simplifyConditionallyUsedAspects([pair([-1, 5], [1]), pair([0, 0], [2])])).toThrow(ConditionError);
    expect(() => simplifyConditionallyUsedAspects([pair([-1, 5], [1]), pair([0, 0], [2])])).toThrow(
      /^pair 1: expected an opcode/,
    );
  });
});

describe('conditionallyUsedAspectsEqual', () => {
  it('ignores pair order, spelling of conditions and splitting of pairs', () => {
    const a = [pair([-4, -1, FP16, -1, FP64], [1, 2]), pair([-2, pvc], [3])];
    const b = [pair([-2, pvc], [3]), pair([-4, -1, FP64, -1, FP16], [2]), pair([-4, -1, FP16, -1, FP64], [1])];
    expect(conditionallyUsedAspectsEqual(a, b)).toBe(true);
  });

  it('tells different aspect sets and different conditions apart', () => {
    const a = [pair([-1, FP16], [1])];
    expect(conditionallyUsedAspectsEqual(a, [pair([-1, FP16], [1, 2])])).toBe(false);
    expect(conditionallyUsedAspectsEqual(a, [pair([-1, FP64], [1])])).toBe(false);
    expect(conditionallyUsedAspectsEqual(a, [])).toBe(false);
  });
});

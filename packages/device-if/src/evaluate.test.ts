import { describe, expect, it } from 'vitest';
import { decodeCondition, type Condition } from './condition.js';
import { decideCondition, deviceFacts, evaluateCondition, type DeviceFacts } from './evaluate.js';

const PVC = 0x000000030f000700n;
const TGLLP = 0x0000000300000000n;
const X86_64 = 0x0300000000000000n;
const pvcWithFp64 = deviceFacts([5, 6, 28], PVC);

describe('evaluateCondition', () => {
  it('tests aspects against the device', () => {
    expect(evaluateCondition(decodeCondition([-1, 6]), pvcWithFp64)).toBe(true);
    expect(evaluateCondition(decodeCondition([-1, 53]), pvcWithFp64)).toBe(false);
  });

  it('compares the truncated device architecture with the operand', () => {
    expect(evaluateCondition(decodeCondition([-2, 251660032]), pvcWithFp64)).toBe(true);
    expect(evaluateCondition(decodeCondition([-2, 41943040]), pvcWithFp64)).toBe(false);
  });

  it('follows the truncation where it collides: a tgllp device satisfies the operand written for x86_64', () => {
    const x86Condition = decodeCondition([-2, 0]);
    expect(evaluateCondition(x86Condition, deviceFacts([], X86_64))).toBe(true);
    expect(evaluateCondition(x86Condition, deviceFacts([], TGLLP))).toBe(true);
  });

  it('gives false for every architecture leaf when the architecture is unknown', () => {
    expect(evaluateCondition(decodeCondition([-2, 0]), deviceFacts([5]))).toBe(false);
    expect(evaluateCondition(decodeCondition([-3, -2, 0]), deviceFacts([5]))).toBe(true);
  });

  it('combines with not, and, or', () => {
    // fp16 && !(arch(pvc) || fp64)
    const condition = decodeCondition([-4, -1, 5, -3, -5, -2, 251660032, -1, 6]);
    expect(evaluateCondition(condition, pvcWithFp64)).toBe(false);
    expect(evaluateCondition(condition, deviceFacts([5], TGLLP))).toBe(true);
    expect(evaluateCondition(condition, deviceFacts([6], TGLLP))).toBe(false);
  });

  it('returns the value of constants', () => {
    const always: Condition = { kind: 'or', left: { kind: 'constant', value: true }, right: { kind: 'aspect', aspect: 1 } };
    expect(evaluateCondition(always, deviceFacts([]))).toBe(true);
    expect(evaluateCondition({ kind: 'constant', value: false }, pvcWithFp64)).toBe(false);
  });

  it('accepts any DeviceFacts adapter, e.g. one backed by a predicate', () => {
    const everyEvenAspect = { hasAspect: (aspect: number) => aspect % 2 === 0, architecture: undefined };
    expect(evaluateCondition(decodeCondition([-4, -1, 6, -1, 28]), everyEvenAspect)).toBe(true);
    expect(evaluateCondition(decodeCondition([-4, -1, 6, -1, 5]), everyEvenAspect)).toBe(false);
  });
});

describe('decideCondition', () => {
  /** fp16 and fp64 known present, atomic64 known absent, every other aspect open; no fixed architecture. */
  const partial: DeviceFacts = {
    hasAspect: (aspect) => aspect === 5 || aspect === 6,
    knowsAspect: (aspect) => aspect === 5 || aspect === 6 || aspect === 28,
    architecture: undefined,
    knowsArchitecture: false,
  };

  it('agrees with evaluateCondition when the facts know everything', () => {
    for (const sequence of [[-1, 6], [-1, 53], [-2, 251660032], [-3, -2, 0], [-4, -1, 5, -3, -5, -2, 251660032, -1, 6]]) {
      const condition = decodeCondition(sequence);
      expect(decideCondition(condition, pvcWithFp64)).toBe(evaluateCondition(condition, pvcWithFp64));
    }
  });

  it('leaves open aspects and architecture leaves undecided', () => {
    expect(decideCondition(decodeCondition([-1, 53]), partial)).toBeUndefined();
    expect(decideCondition(decodeCondition([-3, -2, 251660032]), partial)).toBeUndefined();
    expect(decideCondition(decodeCondition([-1, 28]), partial)).toBe(false);
  });

  it('decides and/or with Kleene logic when the known side settles it', () => {
    expect(decideCondition(decodeCondition([-4, -1, 53, -1, 28]), partial)).toBe(false); // open && false
    expect(decideCondition(decodeCondition([-5, -2, 0, -1, 5]), partial)).toBe(true); // open || true
    expect(decideCondition(decodeCondition([-4, -1, 53, -1, 5]), partial)).toBeUndefined(); // open && true
    expect(decideCondition(decodeCondition([-5, -1, 53, -1, 28]), partial)).toBeUndefined(); // open || false
  });

  it('treats an undefined architecture as matching nothing unless knowsArchitecture is false', () => {
    expect(decideCondition(decodeCondition([-2, 0]), deviceFacts([5]))).toBe(false);
    expect(decideCondition(decodeCondition([-2, 0]), { ...deviceFacts([5]), knowsArchitecture: false })).toBeUndefined();
  });
});

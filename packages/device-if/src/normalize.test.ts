import { describe, expect, it } from 'vitest';
import { ifArchitectureIs, ifDeviceHas } from './builders.js';
import { constantConditionSequence, decodeCondition, encodeCondition, type Condition } from './condition.js';
import { normalizeCondition, normalizedConditionKey } from './normalize.js';

/** Normal form of a sequence, as a sequence (or 'true' / 'false'). */
const normal = (sequence: number[]): number[] | string => {
  const result = normalizeCondition(decodeCondition(sequence));
  return result.kind === 'constant' ? String(result.value) : encodeCondition(result);
};

const PVC = 251660032;
const DG1 = 41943040;

describe('normalizeCondition', () => {
  it('sorts commutative operands: fp64 && fp16 becomes fp16 && fp64', () => {
    expect(normal([-4, -1, 6, -1, 5])).toEqual([-4, -1, 5, -1, 6]);
  });

  it('flattens and right-nests, so sorted input matches the header builder sequence', () => {
    expect(normal([-4, -4, -1, 28, -1, 6, -1, 5])).toEqual([-4, -1, 5, -4, -1, 6, -1, 28]);
    expect(normal([-4, -1, 5, -4, -1, 6, -1, 28])).toEqual([-4, -1, 5, -4, -1, 6, -1, 28]);
  });

  it('orders aspects before architectures and a literal before its negation', () => {
    expect(normal([-4, -2, PVC, -4, -3, -1, 6, -1, 5])).toEqual([-4, -1, 5, -4, -3, -1, 6, -2, PVC]);
  });

  it('removes duplicates', () => {
    expect(normal([-4, -1, 5, -1, 5])).toEqual([-1, 5]);
    expect(normal([-5, -1, 5, -5, -1, 6, -1, 5])).toEqual([-5, -1, 5, -1, 6]);
  });

  it('removes double negation', () => {
    expect(normal([-3, -3, -1, 5])).toEqual([-1, 5]);
  });

  it('pushes negation to the leaves (De Morgan)', () => {
    expect(normal([-3, -4, -1, 5, -1, 6])).toEqual([-5, -3, -1, 5, -3, -1, 6]);
    expect(normal([-3, -5, -2, PVC, -2, DG1])).toEqual([-4, -3, -2, DG1, -3, -2, PVC]);
  });

  it('folds a && !a to false and a || !a to true', () => {
    expect(normal([-4, -1, 5, -3, -1, 5])).toBe('false');
    expect(normal([-5, -1, 5, -3, -1, 5])).toBe('true');
    expect(normal([-4, -1, 6, -4, -1, 5, -3, -1, 6])).toBe('false');
  });

  it('uses that a device has one architecture', () => {
    expect(normal([-4, -2, PVC, -2, DG1])).toBe('false');
    expect(normal([-4, -2, PVC, -3, -2, DG1])).toEqual([-2, PVC]);
    expect(normal([-5, -3, -2, PVC, -3, -2, DG1])).toBe('true');
    expect(normal([-5, -3, -2, PVC, -2, DG1])).toEqual([-3, -2, PVC]);
  });

  it('applies absorption', () => {
    expect(normal([-4, -1, 5, -5, -1, 5, -1, 6])).toEqual([-1, 5]);
    expect(normal([-5, -1, 5, -4, -1, 5, -1, 6])).toEqual([-1, 5]);
    expect(normal([-4, -5, -1, 5, -1, 6, -5, -1, 5, -5, -1, 6, -1, 28])).toEqual([-5, -1, 5, -1, 6]);
  });

  it('keeps one of two operands that unit resolution made equal (regression)', () => {
    // arch(0) && (fp16 || arch(icllp) || atomic64) && (fp16 || arch(icllp) || atomic64), nested so
    // that the first copy is resolved before the second is seen.
    const or = [-5, -1, 5, -5, -2, -1073741824, -1, 28];
    expect(normal([-4, -4, -2, 0, ...or, ...or])).toEqual([-4, -2, 0, -5, -1, 5, -1, 28]);
  });

  it('applies unit resolution: a && !(a && b) is a && !b, a || (!a && b) is a || b', () => {
    expect(normal([-4, -1, 5, -3, -4, -1, 5, -1, 6])).toEqual([-4, -1, 5, -3, -1, 6]);
    expect(normal([-5, -1, 5, -4, -3, -1, 5, -1, 6])).toEqual([-5, -1, 5, -1, 6]);
  });

  it('folds an else_if_architecture_is clause: !(arch(A) || arch(B)) && arch(C) is arch(C)', () => {
    const [, second, otherwise] = ifArchitectureIs(PVC, DG1).elseIfArchitectureIs(0).otherwise();
    expect(encodeCondition(normalizeCondition(second!))).toEqual([-2, 0]);
    expect(encodeCondition(normalizeCondition(otherwise!))).toEqual([-4, -3, -2, 0, -4, -3, -2, DG1, -3, -2, PVC]);
  });

  it('keeps if_device_has chain clauses, which are already minimal', () => {
    const [, second] = ifDeviceHas(5).elseIfDeviceHas(6).otherwise();
    expect(encodeCondition(normalizeCondition(second!))).toEqual([-4, -3, -1, 5, -1, 6]);
  });

  it('folds constants away, or returns a constant node at the top', () => {
    const fp16: Condition = { kind: 'aspect', aspect: 5 };
    expect(normalizeCondition({ kind: 'and', left: fp16, right: { kind: 'constant', value: true } })).toEqual(fp16);
    expect(normalizeCondition({ kind: 'or', left: fp16, right: { kind: 'constant', value: true } })).toEqual({
      kind: 'constant',
      value: true,
    });
    expect(normalizeCondition({ kind: 'not', operand: { kind: 'constant', value: true } })).toEqual({
      kind: 'constant',
      value: false,
    });
  });

  it('folds the canonical constant encodings back to constants', () => {
    expect(normal(constantConditionSequence(true))).toBe('true');
    expect(normal(constantConditionSequence(false))).toBe('false');
  });
});

describe('normalizedConditionKey', () => {
  it('is equal for conditions with the same normal form and names constants', () => {
    expect(normalizedConditionKey(decodeCondition([-4, -1, 6, -1, 5]))).toBe(
      normalizedConditionKey(decodeCondition([-4, -1, 5, -1, 6])),
    );
    expect(normalizedConditionKey(decodeCondition([-4, -1, 6, -1, 5]))).not.toBe(
      normalizedConditionKey(decodeCondition([-5, -1, 5, -1, 6])),
    );
    expect(normalizedConditionKey(decodeCondition([-4, -1, 5, -3, -1, 5]))).toBe('false');
  });
});

import { describe, expect, it } from 'vitest';
import {
  ConditionError,
  ConditionOpcode,
  conditionsEqual,
  constantConditionSequence,
  decodeCondition,
  encodeCondition,
  type Condition,
} from './condition.js';

const fp16: Condition = { kind: 'aspect', aspect: 5 };
const fp64: Condition = { kind: 'aspect', aspect: 6 };
const pvc: Condition = { kind: 'architecture', architecture: 251660032 };

function thrown(run: () => unknown): ConditionError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConditionError) return error;
    throw error;
  }
  throw new Error('expected a ConditionError');
}

const decodeError = (sequence: readonly number[], options = {}): ConditionError =>
  thrown(() => decodeCondition(sequence, options));

describe('ConditionOpcode', () => {
  it('has the header ABI values -1..-5', () => {
    expect(ConditionOpcode).toEqual({ Aspect: -1, Architecture: -2, Not: -3, And: -4, Or: -5 });
  });
});

describe('decodeCondition', () => {
  it('decodes the architecture condition of the conditional-call-on-device corpus test', () => {
    expect(decodeCondition([-2, 251660032])).toEqual(pvc);
  });

  it('decodes prefix notation with and/or/not into a binary tree', () => {
    expect(decodeCondition([-4, -1, 5, -3, -5, -1, 6, -2, 251660032])).toEqual({
      kind: 'and',
      left: fp16,
      right: { kind: 'not', operand: { kind: 'or', left: fp64, right: pvc } },
    });
  });

  it('accepts any int32 as a leaf value, including negative architecture truncations', () => {
    expect(decodeCondition([-2, -1073741824])).toEqual({ kind: 'architecture', architecture: -1073741824 });
    expect(decodeCondition([-1, -3])).toEqual({ kind: 'aspect', aspect: -3 });
  });

  it('rejects an empty sequence at position 0', () => {
    const error = decodeError([]);
    expect(error.code).toBe('empty');
    expect(error.position).toBe(0);
    expect(error.message).toMatch(/expected an opcode .* at position 0, found an empty sequence/);
  });

  it('rejects an unknown opcode, naming its position and the opcodes expected', () => {
    const error = decodeError([-4, -1, 5, 7]);
    expect(error.code).toBe('unknown-opcode');
    expect(error.position).toBe(3);
    expect(error.message).toBe(
      'expected an opcode (-1 aspect, -2 architecture, -3 not, -4 and, -5 or) for the second operand of ConditionAnd (opened at position 0) at position 3, found 7',
    );
  });

  it('rejects the corpus placeholder condition [0, 0] as an unknown opcode at position 0', () => {
    const error = decodeError([0, 0]);
    expect(error.code).toBe('unknown-opcode');
    expect(error.position).toBe(0);
  });

  it('reports a missing leaf value after ConditionAspect', () => {
    const error = decodeError([-4, -1, 5, -1]);
    expect(error.code).toBe('unexpected-end');
    expect(error.position).toBe(4);
    expect(error.message).toBe(
      'expected the aspect value of ConditionAspect (opened at position 3) at position 4, but the expression ends',
    );
  });

  it('reports a missing architecture value after ConditionArchitecture', () => {
    const error = decodeError([-2]);
    expect(error.code).toBe('unexpected-end');
    expect(error.message).toContain('the architecture value of ConditionArchitecture (opened at position 0)');
  });

  it('reports a missing second operand of ConditionOr', () => {
    const error = decodeError([-5, -1, 5]);
    expect(error.code).toBe('unexpected-end');
    expect(error.position).toBe(3);
    expect(error.message).toContain('for the second operand of ConditionOr (opened at position 0)');
  });

  it('reports a missing operand of ConditionNot', () => {
    const error = decodeError([-3]);
    expect(error.code).toBe('unexpected-end');
    expect(error.message).toContain('for the operand of ConditionNot (opened at position 0)');
  });

  it('rejects values left after a complete expression', () => {
    const error = decodeError([-1, 5, -1, 6]);
    expect(error.code).toBe('trailing-values');
    expect(error.position).toBe(2);
    expect(error.message).toBe('unexpected value -1 at position 2: the expression is complete after 2 values');
  });

  it('rejects values that are not 32-bit signed integers', () => {
    for (const value of [2 ** 31, 1.5, Number.NaN]) {
      const error = decodeError([-1, value]);
      expect(error.code).toBe('not-int32');
      expect(error.position).toBe(1);
    }
  });

  it('rejects nesting deeper than maxDepth instead of overflowing the stack', () => {
    const deep = [...Array<number>(100_000).fill(-3), -1, 5];
    expect(decodeError(deep).code).toBe('too-deep');
    expect(decodeError([-3, -3, -1, 5], { maxDepth: 1 }).code).toBe('too-deep');
    expect(decodeCondition([-3, -3, -1, 5], { maxDepth: 2 })).toEqual({ kind: 'not', operand: { kind: 'not', operand: fp16 } });
  });

  it('renders a one-line user error with the sequence', () => {
    expect(decodeError([-4, -1, 5]).render()).toBe(
      'error: invalid condition expression [-4, -1, 5]: expected an opcode (-1 aspect, -2 architecture, -3 not, -4 and, -5 or) for the second operand of ConditionAnd (opened at position 0) at position 3, but the expression ends',
    );
  });

  it('shortens long sequences in render()', () => {
    const rendered = decodeError([...Array<number>(40).fill(-3)]).render();
    expect(rendered).toContain('... (40 values)');
  });
});

describe('encodeCondition', () => {
  it('writes prefix notation', () => {
    const tree: Condition = { kind: 'or', left: { kind: 'not', operand: fp16 }, right: { kind: 'and', left: fp64, right: pvc } };
    expect(encodeCondition(tree)).toEqual([-5, -3, -1, 5, -4, -1, 6, -2, 251660032]);
  });

  it('refuses constants by default, saying how to get the canonical form', () => {
    expect(() => encodeCondition({ kind: 'constant', value: true })).toThrow(ConditionError);
    const error = thrown(() => encodeCondition({ kind: 'and', left: fp16, right: { kind: 'constant', value: false } }));
    expect(error.code).toBe('constant');
    expect(error.position).toBe(3);
    expect(error.message).toContain("constants: 'tautology'");
  });

  it("encodes constants as the canonical tautology/contradiction with constants: 'tautology'", () => {
    expect(encodeCondition({ kind: 'constant', value: true }, { constants: 'tautology' })).toEqual([-5, -1, 0, -3, -1, 0]);
    expect(encodeCondition({ kind: 'constant', value: false }, { constants: 'tautology' })).toEqual([-4, -1, 0, -3, -1, 0]);
    expect(constantConditionSequence(true)).toEqual([-5, -1, 0, -3, -1, 0]);
  });

  it('refuses leaf values outside int32', () => {
    expect(() => encodeCondition({ kind: 'aspect', aspect: 2 ** 32 })).toThrow(/not a 32-bit signed integer/);
  });

  it('handles very deep trees without recursion', () => {
    let tree: Condition = fp16;
    for (let i = 0; i < 50_000; i += 1) tree = { kind: 'not', operand: tree };
    expect(encodeCondition(tree)).toHaveLength(50_002);
  });
});

describe('conditionsEqual', () => {
  it('compares shape and values', () => {
    expect(conditionsEqual({ kind: 'and', left: fp16, right: fp64 }, { kind: 'and', left: fp16, right: fp64 })).toBe(true);
    expect(conditionsEqual({ kind: 'and', left: fp16, right: fp64 }, { kind: 'and', left: fp64, right: fp16 })).toBe(false);
    expect(conditionsEqual({ kind: 'and', left: fp16, right: fp64 }, { kind: 'or', left: fp16, right: fp64 })).toBe(false);
    expect(conditionsEqual({ kind: 'constant', value: true }, { kind: 'constant', value: false })).toBe(false);
  });
});

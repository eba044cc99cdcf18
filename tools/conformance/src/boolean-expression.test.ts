import { describe, expect, it } from 'vitest';
import { BooleanExpressionError, evaluateBooleanExpression } from './boolean-expression.js';

describe('lit feature expressions', () => {
  const features = ['x86_64-linux', 'asserts', 'e=quals'];

  it('is true for an available feature and for `true`, false for an unknown one', () => {
    expect(evaluateBooleanExpression('asserts', features)).toBe(true);
    expect(evaluateBooleanExpression('true', [])).toBe(true);
    expect(evaluateBooleanExpression('vg_leak', features)).toBe(false);
  });

  it('combines with !, && and || with && binding tighter', () => {
    expect(evaluateBooleanExpression('!vg_leak', features)).toBe(true);
    expect(evaluateBooleanExpression('asserts && vg_leak', features)).toBe(false);
    expect(evaluateBooleanExpression('vg_leak || asserts && e=quals', features)).toBe(true);
    expect(evaluateBooleanExpression('(vg_leak || asserts) && !e=quals', features)).toBe(false);
  });

  it('matches {{regex}} parts against whole feature names', () => {
    expect(evaluateBooleanExpression('{{x86_64}}-linux', features)).toBe(true);
    expect(evaluateBooleanExpression('x86{{.*}}', features)).toBe(true);
    expect(evaluateBooleanExpression('{{linux}}', features)).toBe(false);
  });

  it('rejects bad syntax with the expression in the message', () => {
    expect(() => evaluateBooleanExpression('a &&', [])).toThrow(BooleanExpressionError);
    expect(() => evaluateBooleanExpression('(a', [])).toThrow(/expected: '\)'.*in expression: '\(a'/);
    expect(() => evaluateBooleanExpression('a b', [])).toThrow(/end of expression/);
    expect(() => evaluateBooleanExpression('', [])).toThrow(BooleanExpressionError);
  });
});

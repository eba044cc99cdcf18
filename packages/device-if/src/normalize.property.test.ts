/**
 * Properties of normalizeCondition:
 * 1. It preserves the value of the expression on random devices (random aspect sets, random
 *    architectures including colliding truncations, or none), also after the rewrites of 3,
 *    which produce the repeated subtrees random trees rarely have.
 * 2. It is idempotent: normalizing a normal form returns the same tree.
 * 3. Equivalent rewrites — operands of and/or commuted, operands duplicated (x → x && x, x || x),
 *    double negation added, and/or reassociated — normalize to the same sequence.
 * 4. The result is a constant only at the top; otherwise it encodes, `not` sits only on leaves, and
 *    every junction's operands are distinct and sorted (re-encoding after a reversal changes it
 *    back under normalization).
 * 5. It never grows the number of leaves.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { anyCondition, device, encodableCondition } from '../test/arbitraries.js';
import { conditionsEqual, encodeCondition, type Condition } from './condition.js';
import { evaluateCondition } from './evaluate.js';
import { normalizeCondition } from './normalize.js';
import { fcOptions } from '@syclkit/testing';

/** Applies value-preserving rewrites chosen by `choices` at every node, bottom-up. */
function rewrite(condition: Condition, choices: readonly number[]): Condition {
  let i = 0;
  const pick = (): number => choices[i++ % choices.length] ?? 0;
  const visit = (node: Condition): Condition => {
    let result: Condition;
    switch (node.kind) {
      case 'not':
        result = { kind: 'not', operand: visit(node.operand) };
        break;
      case 'and':
      case 'or':
        result = { kind: node.kind, left: visit(node.left), right: visit(node.right) };
        break;
      default:
        result = node;
    }
    switch (pick() % 6) {
      case 1: // commute
        if (result.kind === 'and' || result.kind === 'or') result = { kind: result.kind, left: result.right, right: result.left };
        break;
      case 2: // duplicate
        result = { kind: pick() % 2 === 0 ? 'and' : 'or', left: result, right: result };
        break;
      case 3: // double negation
        result = { kind: 'not', operand: { kind: 'not', operand: result } };
        break;
      case 4: // reassociate x op (y op z) → (x op y) op z
        if ((result.kind === 'and' || result.kind === 'or') && result.right.kind === result.kind) {
          const { kind } = result;
          const inner = result.right as Extract<Condition, { kind: 'and' | 'or' }>;
          result = { kind, left: { kind, left: result.left, right: inner.left }, right: inner.right };
        }
        break;
      case 5: // reassociate (x op y) op z → x op (y op z)
        if ((result.kind === 'and' || result.kind === 'or') && result.left.kind === result.kind) {
          const { kind } = result;
          const inner = result.left as Extract<Condition, { kind: 'and' | 'or' }>;
          result = { kind, left: inner.left, right: { kind, left: inner.right, right: result.right } };
        }
        break;
      default:
        break;
    }
    return result;
  };
  return visit(condition);
}

const sequenceOf = (condition: Condition): number[] => encodeCondition(condition, { constants: 'tautology' });

function leafCount(condition: Condition): number {
  switch (condition.kind) {
    case 'not':
      return leafCount(condition.operand);
    case 'and':
    case 'or':
      return leafCount(condition.left) + leafCount(condition.right);
    case 'constant':
      return 0;
    default:
      return 1;
  }
}

/** `not` only above leaves, no constants below the top, and/or right-nested. */
function checkShape(condition: Condition, top: boolean): void {
  switch (condition.kind) {
    case 'constant':
      expect(top).toBe(true);
      break;
    case 'not':
      expect(['aspect', 'architecture']).toContain(condition.operand.kind);
      break;
    case 'and':
    case 'or':
      expect(condition.left.kind).not.toBe(condition.kind);
      checkShape(condition.left, false);
      checkShape(condition.right, false);
      break;
    default:
      break;
  }
}

describe('normalization properties', () => {
  test.prop([anyCondition, fc.array(device, { minLength: 1, maxLength: 8 })], fcOptions(200))(
    'preserves the value on random devices',
    (condition, devices) => {
      const normalized = normalizeCondition(condition);
      for (const dev of devices) expect(evaluateCondition(normalized, dev.facts)).toBe(evaluateCondition(condition, dev.facts));
    },
  );

  test.prop(
    [encodableCondition, fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), fc.array(device, { minLength: 1, maxLength: 8 })],
    fcOptions(200),
  )('preserves the value of rewritten conditions on random devices', (condition, choices, devices) => {
    const rewritten = rewrite(condition, choices);
    const normalized = normalizeCondition(rewritten);
    for (const dev of devices) expect(evaluateCondition(normalized, dev.facts)).toBe(evaluateCondition(condition, dev.facts));
  });

  test.prop([anyCondition], fcOptions(200))('is idempotent', (condition) => {
    const once = normalizeCondition(condition);
    expect(conditionsEqual(normalizeCondition(once), once)).toBe(true);
  });

  test.prop([encodableCondition, fc.array(fc.nat(), { minLength: 1, maxLength: 64 })], fcOptions(200))(
    'equivalent rewrites normalize to the same sequence',
    (condition, choices) => {
      expect(sequenceOf(normalizeCondition(rewrite(condition, choices)))).toEqual(sequenceOf(normalizeCondition(condition)));
    },
  );

  test.prop([anyCondition], fcOptions(200))('has the normal shape and encodes unless constant', (condition) => {
    const normalized = normalizeCondition(condition);
    checkShape(normalized, true);
    if (normalized.kind !== 'constant') expect(() => encodeCondition(normalized)).not.toThrow();
  });

  test.prop([anyCondition], fcOptions(200))('never grows the number of leaves', (condition) => {
    expect(leafCount(normalizeCondition(condition))).toBeLessThanOrEqual(leafCount(condition));
  });
});

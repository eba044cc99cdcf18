/**
 * Properties of the encoding:
 * 1. decodeCondition(encodeCondition(e)) equals e for every constant-free tree.
 * 2. Decoding an arbitrary integer sequence either throws a ConditionError whose position lies
 *    within the sequence (or at its end), or succeeds and re-encodes to exactly that sequence.
 * 3. evaluateCondition agrees with a reference evaluator that walks the integer sequence directly,
 *    as the runtime would, comparing truncated architectures.
 * 4. Every sequence the header builders produce decodes, and re-encodes unchanged.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { ASPECTS, ARCHITECTURE_OPERANDS, device, encodableCondition } from '../test/arbitraries.js';
import { ifArchitectureIs, ifDeviceHas } from './builders.js';
import { ConditionError, conditionsEqual, decodeCondition, encodeCondition } from './condition.js';
import { evaluateCondition } from './evaluate.js';
import { holds } from '../test/conditional-modules.js';
import { fcOptions } from '@syclkit/testing';

const smallInts = fc.array(fc.oneof(fc.integer({ min: -6, max: 3 }), fc.constantFrom(...ASPECTS, ...ARCHITECTURE_OPERANDS)), {
  maxLength: 16,
});

describe('condition encoding properties', () => {
  test.prop([encodableCondition], fcOptions(200))('decode(encode(e)) = e', (condition) => {
    expect(conditionsEqual(decodeCondition(encodeCondition(condition)), condition)).toBe(true);
  });

  test.prop([smallInts], fcOptions(500))('decoding fails with a positioned ConditionError or round-trips exactly', (sequence) => {
    let decoded;
    try {
      decoded = decodeCondition(sequence);
    } catch (error) {
      expect(error).toBeInstanceOf(ConditionError);
      expect((error as ConditionError).position).toBeGreaterThanOrEqual(0);
      expect((error as ConditionError).position).toBeLessThanOrEqual(sequence.length);
      return;
    }
    expect(encodeCondition(decoded)).toEqual(sequence);
  });

  test.prop([encodableCondition, device], fcOptions(200))('evaluation matches a direct walk of the sequence', (condition, dev) => {
    expect(evaluateCondition(condition, dev.facts)).toBe(holds(encodeCondition(condition), dev.aspects, dev.architecture));
  });

  test.prop(
    [fc.array(fc.array(fc.constantFrom(...ASPECTS), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 })],
    fcOptions(200),
  )('if_device_has chains produce decodable sequences', (clauses) => {
    let chain = ifDeviceHas(...clauses[0]!);
    for (const clause of clauses.slice(1)) chain = chain.elseIfDeviceHas(...clause);
    for (const condition of chain.otherwise()) {
      const sequence = encodeCondition(condition);
      expect(encodeCondition(decodeCondition(sequence))).toEqual(sequence);
    }
  });

  test.prop(
    [
      fc.array(fc.array(fc.constantFrom(...ARCHITECTURE_OPERANDS), { minLength: 1, maxLength: 3 }), {
        minLength: 1,
        maxLength: 4,
      }),
    ],
    fcOptions(200),
  )('if_architecture_is chains produce decodable sequences', (clauses) => {
    let chain = ifArchitectureIs(...clauses[0]!);
    for (const clause of clauses.slice(1)) chain = chain.elseIfArchitectureIs(...clause);
    for (const condition of chain.otherwise()) {
      const sequence = encodeCondition(condition);
      expect(encodeCondition(decodeCondition(sequence))).toEqual(sequence);
    }
  });
});

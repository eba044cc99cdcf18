/**
 * Properties of the conditionally-used-aspects model:
 * 1. fromConditionallyUsedAspectsOperands(toConditionallyUsedAspectsOperands(pairs)) = pairs.
 * 2. Simplification keeps what every device is missing: for any device consistent with the device
 *    configuration, (used ∪ alwaysUsed ∪ aspects of the pairs whose condition holds) minus the
 *    device's aspects is the same before and after, and nothing new is required.
 * 3. Simplification is idempotent.
 * 4. Its output has distinct normalized conditions, non-empty ascending aspect lists, and no
 *    aspect that is used unconditionally.
 * 5. Shuffling the input pairs does not change the result up to pair order
 *    (conditionallyUsedAspectsEqual).
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { ASPECTS, DEVICE_ARCHITECTURES, anyCondition, encodableCondition, headerCondition } from '../test/arbitraries.js';
import { decodeCondition, encodeCondition } from './condition.js';
import {
  architectureAspectsFromTable,
  conditionallyUsedAspectsEqual,
  fromConditionallyUsedAspectsOperands,
  simplifyConditionallyUsedAspects,
  toConditionallyUsedAspectsOperands,
  type ConditionalAspectsPair,
} from './conditional-aspects.js';
import { deviceFacts, evaluateCondition } from './evaluate.js';
import { normalizedConditionKey } from './normalize.js';
import { fcOptions } from '@syclkit/testing';

const aspectList = fc.array(fc.constantFrom(...ASPECTS, 1, 2, 3), { maxLength: 5 });

const pairs: fc.Arbitrary<ConditionalAspectsPair[]> = fc.array(
  fc.record({ condition: fc.oneof(encodableCondition, headerCondition).map((c) => encodeCondition(c)), aspects: aspectList }),
  { maxLength: 6 },
);

/**
 * Conditions may fold to constants here; the canonical constant encodings stand in for them.
 * Header-shaped clauses make the AND-of-aspects and OR-of-architectures rules fire often.
 */
const pairsWithConstants: fc.Arbitrary<ConditionalAspectsPair[]> = fc.array(
  fc.record({
    condition: fc.oneof(anyCondition, headerCondition).map((c) => encodeCondition(c, { constants: 'tautology' })),
    aspects: aspectList,
  }),
  { maxLength: 6 },
);

/** A device configuration: aspects each architecture surely has. */
const configuration = fc.tuple(...DEVICE_ARCHITECTURES.map(() => fc.subarray([...ASPECTS])));

const deviceChoice = fc.record({
  architecture: fc.option(fc.nat(DEVICE_ARCHITECTURES.length - 1), { nil: undefined }),
  extra: fc.subarray([...ASPECTS, 1, 2, 3]),
});

function required(
  input: readonly ConditionalAspectsPair[],
  always: Iterable<number>,
  device: ReturnType<typeof deviceFacts>,
): Set<number> {
  const result = new Set(always);
  for (const pair of input) {
    if (evaluateCondition(decodeCondition(pair.condition), device)) for (const aspect of pair.aspects) result.add(aspect);
  }
  return result;
}

describe('conditionally used aspects properties', () => {
  // fc.integer() ranges over int32 by default, which is what an `i32` operand holds.
  test.prop([fc.array(fc.record({ condition: fc.array(fc.integer()), aspects: fc.array(fc.integer()) }))], fcOptions(200))(
    'metadata operands round-trip',
    (input) => {
      expect(fromConditionallyUsedAspectsOperands(toConditionallyUsedAspectsOperands(input))).toEqual(input);
    },
  );

  test.prop(
    [pairsWithConstants, fc.subarray([...ASPECTS, 1]), configuration, fc.array(deviceChoice, { minLength: 1, maxLength: 6 })],
    fcOptions(200),
  )('keeps what each consistent device is missing', (input, used, config, devices) => {
    const table = DEVICE_ARCHITECTURES.map((architecture, i) => [architecture, config[i]!] as const);
    const architectureAspects = architectureAspectsFromTable(table);
    const output = simplifyConditionallyUsedAspects(input, { usedAspects: used, architectureAspects });
    for (const choice of devices) {
      const architecture = choice.architecture === undefined ? undefined : DEVICE_ARCHITECTURES[choice.architecture];
      const own = choice.architecture === undefined ? [] : config[choice.architecture]!;
      const device = deviceFacts([...own, ...choice.extra], architecture);
      const before = required(input, used, device);
      const after = required(output.pairs, [...used, ...output.alwaysUsed], device);
      const missing = (set: Set<number>) => [...set].filter((a) => !device.hasAspect(a)).sort();
      expect(missing(after)).toEqual(missing(before));
      for (const aspect of after) expect(before.has(aspect)).toBe(true);
    }
  });

  test.prop([pairs, fc.subarray([...ASPECTS])], fcOptions(200))('is idempotent', (input, used) => {
    const once = simplifyConditionallyUsedAspects(input, { usedAspects: used });
    expect(simplifyConditionallyUsedAspects(once.pairs, { usedAspects: used })).toEqual({ pairs: once.pairs, alwaysUsed: [] });
  });

  test.prop([pairsWithConstants, fc.subarray<number>([...ASPECTS])], fcOptions(200))(
    'produces distinct conditions and sorted, non-empty aspects',
    (input, used) => {
      const { pairs: output, alwaysUsed } = simplifyConditionallyUsedAspects(input, { usedAspects: used });
      const keys = output.map((p) => normalizedConditionKey(decodeCondition(p.condition)));
      expect(new Set(keys).size).toBe(keys.length);
      for (const pair of output) {
        expect(pair.aspects.length).toBeGreaterThan(0);
        expect(pair.aspects).toEqual([...new Set(pair.aspects)].sort((x, y) => x - y));
        for (const aspect of pair.aspects) expect(used.includes(aspect) || alwaysUsed.includes(aspect)).toBe(false);
      }
    },
  );

  test.prop(
    [pairs.chain((input) => fc.tuple(fc.constant(input), fc.shuffledSubarray(input, { minLength: input.length })))],
    fcOptions(200),
  )('does not depend on the order of the input pairs beyond the output order', ([input, shuffled]) => {
    expect(
      conditionallyUsedAspectsEqual(
        simplifyConditionallyUsedAspects(input).pairs,
        simplifyConditionallyUsedAspects(shuffled).pairs,
      ),
    ).toBe(true);
  });
});

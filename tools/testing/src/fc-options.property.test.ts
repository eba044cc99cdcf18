/**
 * Properties of fcOptions:
 * 1. Any positive integer FC_NUM_RUNS is taken as the run count, whatever the default.
 * 2. Any integer FC_SEED is replayed exactly.
 * 3. The result is always a usable fast-check setting: a positive integer run count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from './fc-options.js';

describe('fcOptions properties', () => {
  it('takes positive integer run counts and integer seeds exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 1e6 }), fc.integer(), (fallback, runs, seed) => {
        expect(fcOptions(fallback, { FC_NUM_RUNS: String(runs), FC_SEED: String(seed) })).toEqual({ numRuns: runs, seed });
      }),
    );
  });

  it('always gives a positive integer run count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.string(), (fallback, text) => {
        const { numRuns } = fcOptions(fallback, { FC_NUM_RUNS: text });
        expect(Number.isInteger(numRuns) && numRuns > 0).toBe(true);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { fcOptions } from './fc-options.js';

describe('fcOptions', () => {
  it('uses the default run count and no seed when the environment says nothing', () => {
    expect(fcOptions(250, {})).toEqual({ numRuns: 250 });
  });

  it('takes FC_NUM_RUNS (rounded) over the default', () => {
    expect(fcOptions(100, { FC_NUM_RUNS: '1000' })).toEqual({ numRuns: 1000 });
    expect(fcOptions(100, { FC_NUM_RUNS: '2.6' })).toEqual({ numRuns: 3 });
  });

  it('ignores run counts that are not positive numbers', () => {
    for (const bad of ['', 'many', '0', '-5', 'NaN', 'Infinity']) expect(fcOptions(7, { FC_NUM_RUNS: bad })).toEqual({ numRuns: 7 });
  });

  it('replays an integer FC_SEED, including negative seeds, and ignores others', () => {
    expect(fcOptions(1, { FC_SEED: '-1827' })).toEqual({ numRuns: 1, seed: -1827 });
    expect(fcOptions(1, { FC_SEED: '1.5' })).toEqual({ numRuns: 1 });
    expect(fcOptions(1, { FC_SEED: ' ' })).toEqual({ numRuns: 1 });
  });
});

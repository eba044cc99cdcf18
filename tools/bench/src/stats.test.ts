import { describe, expect, it } from 'vitest';
import { describeGrowth, growthExponent, median, medianRatio, pairedRatios, summarize } from './stats.js';

describe('median', () => {
  it('takes the middle value of an odd count, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
  });

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });

  it('is not moved by one outlier', () => {
    expect(median([100, 101, 99, 5000, 100])).toBe(100);
  });
});

describe('ratios', () => {
  it('pairs rounds: ratio i is candidate[i] / baseline[i]', () => {
    expect(pairedRatios([200, 330, 100], [100, 110, 50])).toEqual([2, 3, 2]);
  });

  it('uses only the rounds both commands have', () => {
    expect(pairedRatios([1, 2, 3], [1, 1])).toEqual([1, 2]);
  });

  it('reports the median of per-round ratios, not the ratio of medians', () => {
    // Machine slows down in round 3 for both commands: paired ratios stay at 2.
    const candidate = [200, 210, 900];
    const baseline = [100, 105, 450];
    expect(medianRatio(candidate, baseline)).toBe(2);
    expect(median(candidate) / median(baseline)).toBe(2);
    // A drift that hits only one round of the baseline does not move the paired median.
    expect(medianRatio([200, 200, 200], [100, 100, 400])).toBe(2);
  });
});

describe('summarize', () => {
  it('gives median, min, max and mean', () => {
    expect(summarize([3, 1, 2, 10])).toEqual({ median: 2.5, min: 1, max: 10, mean: 4 });
  });
});

describe('growthExponent', () => {
  it('is 1 for times proportional to size', () => {
    expect(growthExponent([{ size: 25, time: 10 }, { size: 50, time: 20 }, { size: 100, time: 40 }])).toBeCloseTo(1, 10);
  });

  it('is 2 for times growing with the square of size', () => {
    expect(growthExponent([{ size: 1, time: 3 }, { size: 2, time: 12 }, { size: 4, time: 48 }, { size: 8, time: 192 }])).toBeCloseTo(2, 10);
  });

  it('is NaN with fewer than two distinct sizes', () => {
    expect(growthExponent([{ size: 5, time: 1 }, { size: 5, time: 2 }])).toBeNaN();
  });

  it('describes growth as linear up to the noise limit and superlinear beyond', () => {
    expect(describeGrowth(1.05)).toMatch(/^linear/);
    expect(describeGrowth(1.6)).toMatch(/^superlinear/);
    expect(describeGrowth(Number.NaN)).toBe('n/a');
  });
});

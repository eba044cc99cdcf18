import { describe, expect, it } from 'vitest';
import { SyclError, errc, formatSizes, ndRange, parseRange, range, rangeSize } from './index.js';

describe('ranges', () => {
  it('makes ranges of one to three dimensions', () => {
    expect(range(8)).toEqual({ dims: 1, sizes: [8] });
    expect(range(4, 4, 2)).toEqual({ dims: 3, sizes: [4, 4, 2] });
    expect(rangeSize(range(4, 4, 2))).toBe(32);
    expect(rangeSize(range(0, 5))).toBe(0);
  });

  it('rejects bad dimension counts and sizes as errc.invalid', () => {
    expect(() => range()).toThrow(new SyclError(errc.invalid, 'a range must have 1, 2 or 3 dimensions, got 0'));
    expect(() => range(1, 2, 3, 4)).toThrow(/got 4/);
    expect(() => range(-1)).toThrow('a range sizes must be integers >= 0, got {-1}');
    expect(() => range(1.5)).toThrow(/integers >= 0/);
  });

  it('makes nd_ranges of matching dimensions with local sizes of at least one', () => {
    expect(ndRange([64, 64], range(8, 8))).toEqual({ global: range(64, 64), local: range(8, 8) });
    expect(() => ndRange([64], [0])).toThrow('a local range sizes must be integers >= 1, got {0}');
    expect(() => ndRange([64, 64], [8])).toThrow('an nd_range needs global and local ranges of the same dimensions, got 2 and 1');
  });

  it('parses sizes separated by x or commas', () => {
    expect(parseRange('1024')).toEqual(range(1024));
    expect(parseRange('64x64')).toEqual(range(64, 64));
    expect(parseRange(' 8,8,8 ')).toEqual(range(8, 8, 8));
    expect(() => parseRange('8x', '--local')).toThrow("--local '8x' is not a list of 1 to 3 non-negative integers (e.g. 1024, 64x64, 8,8,8)");
  });

  it('formats sizes as the runtime messages do', () => {
    expect(formatSizes([8, 8, 8])).toBe('{8, 8, 8}');
    expect(formatSizes([16n])).toBe('{16}');
  });
});

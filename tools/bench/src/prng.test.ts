import { describe, expect, it } from 'vitest';
import { Prng } from './prng.js';

describe('Prng', () => {
  it('gives the same sequence for the same seed and stream', () => {
    const a = new Prng(42, 3);
    const b = new Prng(42, 3);
    expect(Array.from({ length: 20 }, () => a.nextU32())).toEqual(Array.from({ length: 20 }, () => b.nextU32()));
  });

  it('gives different sequences for different seeds or streams', () => {
    const first = (p: Prng): number[] => Array.from({ length: 5 }, () => p.nextU32());
    expect(first(new Prng(1))).not.toEqual(first(new Prng(2)));
    expect(first(new Prng(1, 0))).not.toEqual(first(new Prng(1, 1)));
  });

  it('keeps int() inside the inclusive range and reaches both ends', () => {
    const p = new Prng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = p.int(3, 6);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(6);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });

  it('never picks a zero-weight entry', () => {
    const p = new Prng(9);
    for (let i = 0; i < 1000; i++) expect(p.weighted([['a', 1], ['never', 0], ['b', 3]] as const)).not.toBe('never');
  });

  it('rejects an empty range', () => {
    expect(() => new Prng(1).int(5, 4)).toThrow(RangeError);
  });
});

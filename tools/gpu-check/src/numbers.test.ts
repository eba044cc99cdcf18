import { describe, expect, it } from 'vitest';
import { compare, fromHalfBits, seededRandom, toHalfBits, ulpDistance32 } from './numbers.js';

describe('half precision', () => {
  it('converts known values as fptrunc does', () => {
    expect(toHalfBits(1)).toBe(0x3c00);
    expect(toHalfBits(-2)).toBe(0xc000);
    expect(toHalfBits(65504)).toBe(0x7bff);
    expect(toHalfBits(65520)).toBe(0x7c00); // rounds up to infinity
    expect(toHalfBits(2 ** -24)).toBe(0x0001); // smallest subnormal
    expect(toHalfBits(2 ** -26)).toBe(0x0000); // below half of it: zero
    expect(toHalfBits(1 + 2 ** -11)).toBe(0x3c00); // a tie rounds to even (down)
    expect(toHalfBits(1 + 3 * 2 ** -11)).toBe(0x3c02); // a tie rounds to even (up)
    expect(toHalfBits(Number.NaN) & 0x7c00).toBe(0x7c00);
  });

  it('reads back every finite half exactly', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue;
      expect(toHalfBits(fromHalfBits(bits))).toBe(bits);
    }
  });
});

describe('comparison', () => {
  it('counts exact elements and reports the first element over the tolerance', () => {
    const c = compare(new Float32Array([1, 2, 3]), new Float32Array([1, Math.fround(2 + 2 ** -22), 4]), 2, ulpDistance32);
    expect(c).toEqual({ elements: 3, exact: 1, maxDifference: 2 ** 22, firstMismatch: { index: 2, device: 3, host: 4 }, ok: false });
    expect(compare([1n, 2n], [1n, 2n])).toMatchObject({ ok: true, exact: 2 });
    expect(compare([1], [1, 2]).ok).toBe(false);
  });

  it('measures float distance in ulps across zero', () => {
    expect(ulpDistance32(1, Math.fround(1 + 2 ** -23))).toBe(1);
    expect(ulpDistance32(-0, 0)).toBe(0);
    expect(ulpDistance32(2 ** -149, -(2 ** -149))).toBe(2);
  });

  it('draws the same numbers from the same seed', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

/**
 * Properties of the host arithmetic the references use:
 * 1. toHalfBits rounds to the nearest half: no half lies closer to the input than the chosen one.
 * 2. toHalfBits is monotonic on finite floats.
 * 3. compare() is ok exactly when every element is within the tolerance, and counts exact elements.
 */
import { fc, test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { expect } from 'vitest';
import { compare, fromHalfBits, toHalfBits } from './numbers.js';

const finite = fc.float({ noNaN: true, noDefaultInfinity: true, min: -65504, max: 65504 });

test.prop([finite], fcOptions(500))('rounds to the nearest half (1)', (x) => {
  const bits = toHalfBits(x);
  const chosen = Math.abs(fromHalfBits(bits) - x);
  for (const neighbour of [bits - 1, bits + 1, bits ^ 0x8000]) {
    if ((neighbour & 0x7c00) === 0x7c00 || neighbour < 0 || neighbour > 0xffff) continue;
    expect(chosen).toBeLessThanOrEqual(Math.abs(fromHalfBits(neighbour) - x));
  }
});

test.prop([finite, finite], fcOptions(500))('is monotonic (2)', (a, b) => {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  expect(fromHalfBits(toHalfBits(lo))).toBeLessThanOrEqual(fromHalfBits(toHalfBits(hi)));
});

test.prop([fc.array(fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -3, max: 3 }))), fc.integer({ min: 0, max: 3 })], fcOptions(200))(
  'compare is ok exactly when every difference is within the tolerance (3)',
  (pairs, tolerance) => {
    const device = pairs.map(([v]) => v);
    const host = pairs.map(([v, d]) => v + d);
    const c = compare(device, host, tolerance, (a, b) => Math.abs(a - b));
    expect(c.ok).toBe(pairs.every(([, d]) => Math.abs(d) <= tolerance));
    expect(c.exact).toBe(pairs.filter(([, d]) => d === 0).length);
  },
);

/**
 * Properties of AspectSet (LLVM SmallSet<int, 4> iteration order):
 * 1. It holds exactly the distinct inserted values.
 * 2. While at most four distinct values were inserted it iterates in first-insertion order;
 *    from the fifth on, in ascending order.
 * 3. addAll of another set equals inserting that set's values one by one in its iteration order.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { AspectSet } from './aspect-set.js';
import { fcOptions } from '@syclkit/testing';

const values = fc.array(fc.integer({ min: -5, max: 40 }), { maxLength: 12 });

describe('AspectSet properties', () => {
  test.prop([values], fcOptions(200))('holds the distinct values, in LLVM SmallSet order', (inserted) => {
    const set = new AspectSet(inserted);
    const distinct = [...new Set(inserted)];
    expect(set.size).toBe(distinct.length);
    expect(set.toArray()).toEqual(distinct.length <= 4 ? distinct : [...distinct].sort((a, b) => a - b));
    for (const v of inserted) expect(set.has(v)).toBe(true);
  });

  test.prop([values, values], fcOptions(200))('addAll inserts in the other set\'s iteration order', (a, b) => {
    const left = new AspectSet(a);
    left.addAll(new AspectSet(b));
    const manual = new AspectSet(a);
    for (const v of new AspectSet(b).toArray()) manual.add(v);
    expect(left.toArray()).toEqual(manual.toArray());
  });
});

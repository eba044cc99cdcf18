import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScratchList, exactCopy } from './parser-state.js';

// Properties of exactCopy (array literals for short lists, slice for long ones) and of
// ScratchList.copy, which uses it:
// 1. the copy has the same elements in the same order, for every length, short or long;
// 2. it is a new array: changing one does not change the other;
// 3. with a length, only that prefix is copied (a scratch list keeps stale items past its count);
// 4. a ScratchList refilled after a longer use copies only the new items, from any start.
const item = fc.oneof(fc.object(), fc.integer(), fc.constant(null), fc.string());

describe('exactCopy', () => {
  it('copies lists of every length element for element into a new array', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 24 }), (list) => {
        const copy = exactCopy(list);
        expect(copy).not.toBe(list);
        expect(copy.length).toBe(list.length);
        for (let i = 0; i < list.length; i++) expect(copy[i]).toBe(list[i]);
        copy.push('extra');
        expect(list.length).toBe(copy.length - 1);
      }),
    );
  });

  it('copies only the first `length` items when given a length', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 24 }), fc.nat(24), (list, n) => {
        const length = Math.min(n, list.length);
        const copy = exactCopy(list, length);
        expect(copy.length).toBe(length);
        for (let i = 0; i < length; i++) expect(copy[i]).toBe(list[i]);
      }),
    );
  });

  it('keeps null and undefined elements as they are', () => {
    expect(exactCopy([null, undefined, 0])).toEqual([null, undefined, 0]);
  });
});

describe('ScratchList.copy', () => {
  it('copies exactly the items pushed since the last clear, from any start', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), fc.array(item, { maxLength: 20 }), fc.nat(20), (first, second, s) => {
        const scratch = new ScratchList<unknown>();
        for (const x of first) scratch.push(x);
        scratch.clear();
        for (const x of second) scratch.push(x);
        const start = Math.min(s, second.length);
        const copy = scratch.copy(start);
        expect(copy).toEqual(second.slice(start));
        for (let i = 0; i < copy.length; i++) expect(copy[i]).toBe(second[start + i]);
      }),
    );
  });
});

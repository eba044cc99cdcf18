import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactCopy } from './parse-instructions.js';

// Properties of exactCopy (array literals for short lists, slice for long ones):
// 1. the copy has the same elements in the same order, for every length, short or long;
// 2. it is a new array: changing one does not change the other.
describe('exactCopy', () => {
  it('copies lists of every length element for element into a new array', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.object(), fc.integer(), fc.constant(null), fc.string()), { maxLength: 24 }), (list) => {
        const copy = exactCopy(list);
        expect(copy).not.toBe(list);
        expect(copy.length).toBe(list.length);
        for (let i = 0; i < list.length; i++) expect(copy[i]).toBe(list[i]);
        copy.push('extra');
        expect(list.length).toBe(copy.length - 1);
      }),
    );
  });

  it('keeps null and undefined elements as they are', () => {
    expect(exactCopy([null, undefined, 0])).toEqual([null, undefined, 0]);
  });
});

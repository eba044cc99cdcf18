import { describe, expect, it } from 'vitest';
import { AspectSet } from './aspect-set.js';

describe('AspectSet (LLVM SmallSet<int, 4> iteration order)', () => {
  it('iterates in first-insertion order while it holds at most four values', () => {
    const set = new AspectSet([3, 4, 2, 1]);
    expect(set.toArray()).toEqual([3, 4, 2, 1]);
    expect(set.isLarge).toBe(false);
  });

  it('switches to ascending order when a fifth distinct value arrives', () => {
    const set = new AspectSet([3, 4, 2, 1]);
    set.add(0);
    expect(set.toArray()).toEqual([0, 1, 2, 3, 4]);
    expect(set.isLarge).toBe(true);
  });

  it('stays ascending after the switch, inserting in place', () => {
    const set = new AspectSet([9, 7, 5, 3, 1]);
    set.add(4);
    set.add(-2);
    expect(set.toArray()).toEqual([-2, 1, 3, 4, 5, 7, 9]);
  });

  it('ignores repeated values, so a repeat is not the fifth value', () => {
    const set = new AspectSet([2, 1, 2, 1, 3, 4]);
    expect(set.toArray()).toEqual([2, 1, 3, 4]);
    expect(set.add(4)).toBe(false);
    expect(set.add(6)).toBe(true);
    expect(set.toArray()).toEqual([1, 2, 3, 4, 6]);
  });

  it('answers membership in both modes', () => {
    const small = new AspectSet([6, -1]);
    expect(small.has(-1)).toBe(true);
    expect(small.has(0)).toBe(false);
    const large = new AspectSet([1, 2, 3, 4, 5]);
    expect(large.has(5)).toBe(true);
    expect(large.has(0)).toBe(false);
  });

  it('clones keep the order and the mode, and are independent', () => {
    const set = new AspectSet([1, 2, 3, 4, 5]);
    const copy = set.clone();
    copy.add(0);
    expect(set.toArray()).toEqual([1, 2, 3, 4, 5]);
    expect(copy.toArray()).toEqual([0, 1, 2, 3, 4, 5]);
    const small = new AspectSet([2, 1]).clone();
    small.add(0);
    expect(small.toArray()).toEqual([2, 1, 0]);
  });
});

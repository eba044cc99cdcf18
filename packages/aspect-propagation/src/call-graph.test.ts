import { describe, expect, it } from 'vitest';
import { AspectSet } from './aspect-set.js';
import { closeOverCallGraph, stronglyConnectedComponents } from './call-graph.js';

const sets = (...lists: (number[] | undefined)[]): (AspectSet | undefined)[] => lists.map((l) => (l === undefined ? undefined : new AspectSet(l)));
const arrays = (result: (AspectSet | undefined)[]): (number[] | undefined)[] => result.map((s) => s?.toArray());

describe('stronglyConnectedComponents', () => {
  it('lists callees before callers', () => {
    // 0 -> 1 -> 2, 0 -> 2
    expect(stronglyConnectedComponents([[1, 2], [2], []])).toEqual([[2], [1], [0]]);
  });

  it('groups a cycle into one component, members ascending', () => {
    // 0 -> 1 -> 2 -> 1, 2 -> 3
    expect(stronglyConnectedComponents([[1], [2], [1, 3], []])).toEqual([[3], [1, 2], [0]]);
  });

  it('handles a long chain without recursion', () => {
    const n = 200_000;
    const succ = Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : []));
    const components = stronglyConnectedComponents(succ);
    expect(components.length).toBe(n);
    expect(components[0]).toEqual([n - 1]);
    expect(components[n - 1]).toEqual([0]);
  });
});

describe('closeOverCallGraph', () => {
  it("gives each function its own aspects, then its callees' (gathered in call order)", () => {
    // kernel1 -> f1, f2; kernel2 -> f2, f3 (call-graph-1.ll)
    const result = closeOverCallGraph([[2, 3], [3, 4], [], [], []], sets(undefined, undefined, undefined, [1], [2]));
    expect(arrays(result)).toEqual([[1], [1, 2], undefined, [1], [2]]);
  });

  it('orders a fifth aspect ascending, like exclude-aspect.ll funcD', () => {
    // D(3,4) -> C(2) -> B(1) -> A(0)
    const result = closeOverCallGraph([[1], [2], [3], []], sets([3, 4], [2], [1], [0]));
    expect(arrays(result)).toEqual([[0, 1, 2, 3, 4], [2, 1, 0], [1, 0], [0]]);
  });

  it('gives every member of a cycle everything the cycle reaches', () => {
    // 0 -> 1 -> 2 -> 1; 2 -> 3
    const result = closeOverCallGraph([[1], [2], [1, 3], []], sets([10], [11], [12], [13]));
    expect(new Set(result[1])).toEqual(new Set([11, 12, 13]));
    expect(new Set(result[2])).toEqual(new Set([11, 12, 13]));
    expect(new Set(result[0])).toEqual(new Set([10, 11, 12, 13]));
  });

  it('closes over a self-recursive function', () => {
    const result = closeOverCallGraph([[0, 1], []], sets([1], [2]));
    expect(arrays(result)).toEqual([[1, 2], [2]]);
  });

  it('propagates into functions no entry point reaches', () => {
    const result = closeOverCallGraph([[1], []], sets(undefined, [7]));
    expect(arrays(result)).toEqual([[7], [7]]);
  });

  it('leaves nodes that are not closed with their own set', () => {
    const result = closeOverCallGraph([[1], [2], []], sets([1], [2], [3]), (n) => n !== 1);
    expect(arrays(result)).toEqual([[1, 2], [2], [3]]);
  });

  it('does not change the own sets it is given', () => {
    const own = sets([1], [2]);
    closeOverCallGraph([[1], []], own);
    expect(arrays(own)).toEqual([[1], [2]]);
  });
});

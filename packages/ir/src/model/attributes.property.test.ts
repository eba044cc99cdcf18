/**
 * Properties of `AttributeSet` look-ups (`get`, `has`, `getString`, `hasString`), which rely on the
 * canonical order (string attributes last, sorted by key):
 * 1. For any attributes built in any order, with repeated keys, `get(k)` is the last non-string
 *    attribute added with key k, and `getString(k)` the value of the last string attribute added
 *    with key k, for keys present and absent alike; a string and a non-string attribute may share
 *    a key without hiding each other.
 * 2. The same holds after `with`, `without`, `withoutString` and `merge`, and for a placeholder
 *    set completed by `fill` (the parser's `#N` groups).
 */
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { AttributeSet, enumAttr, intAttr, stringAttr, type Attribute } from './attributes.js';

// Keys that collide across kinds and sort on both sides of each other, including '' and non-ASCII.
const key = fc.constantFrom('', 'a', 'align', 'noundef', 'nounwind', 'b', 'sycl-used-aspects', 'uwtable', 'z', 'é', 'A', 'memory');
const attribute: fc.Arbitrary<Attribute> = fc.oneof(
  key.map((k) => enumAttr(k)),
  fc.tuple(key, fc.nat(64)).map(([k, v]) => intAttr(k, v)),
  fc.tuple(key, fc.constantFrom('', '1', 'x', 'true')).map(([k, v]) => stringAttr(k, v)),
  key.map((k): Attribute => ({ kind: 'raw', key: k, text: 'r' })),
);
const attributes = fc.array(attribute, { maxLength: 12 });

/** What a set built from `added` (last one of a key winning) answers, by a linear search. */
function expected(added: readonly Attribute[], k: string): { plain: Attribute | undefined; string: string | undefined } {
  let plain: Attribute | undefined;
  let string: string | undefined;
  for (const a of added) {
    if (a.key !== k) continue;
    if (a.kind === 'string') string = a.value;
    else plain = a;
  }
  return { plain, string };
}

function expectLookups(set: AttributeSet, added: readonly Attribute[]): void {
  for (const k of ['', 'a', 'align', 'noundef', 'nounwind', 'b', 'sycl-used-aspects', 'uwtable', 'z', 'é', 'A', 'memory', 'absent']) {
    const want = expected(added, k);
    expect(set.get(k)).toEqual(want.plain);
    expect(set.has(k)).toBe(want.plain !== undefined);
    expect(set.getString(k)).toBe(want.string);
    expect(set.hasString(k)).toBe(want.string !== undefined);
  }
}

describe('attribute set look-ups', () => {
  test.prop([attributes], fcOptions())('1. get and getString find the last attribute added per key and kind', (added) => {
    expectLookups(AttributeSet.of(added), added);
  });

  test.prop([attributes, attributes, key], fcOptions())('2. look-ups after with, without, merge and fill', (first, second, k) => {
    const set = AttributeSet.of(first);
    expectLookups(set.with(...second), [...first, ...second]);
    expectLookups(set.merge(AttributeSet.of(second)), [...first, ...second]);
    expectLookups(set.without(k), first.filter((a) => a.key !== k || a.kind === 'string'));
    expectLookups(set.withoutString(k), first.filter((a) => a.kind !== 'string' || a.key !== k));
    const placeholder = AttributeSet.placeholder();
    placeholder.fill(first);
    expectLookups(placeholder, first);
  });
});

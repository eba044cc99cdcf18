/**
 * Properties of the ratchet and of test selection:
 * 1. Updating never removes a listed path, adds exactly the passing paths not yet listed, and
 *    yields a sorted list without duplicates.
 * 2. Updating twice with the same passing tests adds nothing the second time (idempotent).
 * 3. Writing a list and reading it back gives the same set of paths.
 * 4. A listed test that did not pass is always reported as a regression; the check passes only
 *    when every listed test passed.
 * 5. Selecting tiers returns exactly the tests of those tiers, in order; `all` selects everything.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { checkRatchet, formatRatchet, parseRatchet, updateRatchet } from './ratchet.js';
import { parseTierList, selectTests, TIERS, type ScoredTest } from './scored.js';
import { fcOptions } from '@syclkit/testing';

const path = fc.stringMatching(/^[a-zA-Z0-9_][a-zA-Z0-9_./-]{0,15}$/);
const paths = fc.uniqueArray(path, { maxLength: 12 });
const sorted = (list: readonly string[]): string[] => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('ratchet (properties)', () => {
  test.prop([paths, paths], fcOptions())('never removes, adds exactly the new passes, stays sorted and unique', (listed, passed) => {
    const { paths: updated, added } = updateRatchet(listed, passed);
    expect(updated).toEqual(sorted([...new Set([...listed, ...passed])]));
    expect(added).toEqual(sorted(passed.filter((p) => !listed.includes(p))));
    for (const p of listed) expect(updated).toContain(p);
  });

  test.prop([paths, paths], fcOptions())('adds nothing on a second identical update', (listed, passed) => {
    const once = updateRatchet(listed, passed).paths;
    expect(updateRatchet(once, passed)).toEqual({ paths: once, added: [] });
  });

  test.prop([paths], fcOptions())('reads back what it writes', (list) => {
    expect(sorted(parseRatchet(formatRatchet(list)))).toEqual(sorted(list));
  });

  test.prop([fc.uniqueArray(fc.tuple(path, fc.boolean()), { selector: ([p]) => p, maxLength: 12 })], fcOptions())(
    'reports exactly the listed tests that did not pass',
    (entries) => {
      const outcomes = new Map(entries.map(([p, passed]) => [p, { passed, label: passed ? 'PASS' : 'FAIL' }]));
      const check = checkRatchet(
        entries.map(([p]) => p),
        outcomes,
        new Set(entries.map(([p]) => p)),
      );
      expect(check.regressions.map((r) => r.path)).toEqual(sorted(entries.filter(([, passed]) => !passed).map(([p]) => p)));
      expect(check.stillPassing + check.regressions.length).toBe(entries.length);
    },
  );
});

describe('tier selection (properties)', () => {
  const scored = fc
    .uniqueArray(fc.tuple(path, fc.constantFrom(...TIERS)), { selector: ([p]) => p, maxLength: 15 })
    .map((rows): ScoredTest[] => rows.map(([p, tier]) => ({ path: p, tier, reason: '' })));

  test.prop([scored, fc.subarray([...TIERS], { minLength: 1 })], fcOptions())('selects exactly the tests of the chosen tiers, in order', (tests, tiers) => {
    const selected = selectTests(tests, { tiers: parseTierList(tiers.join(',')) });
    expect(selected).toEqual(tests.filter((t) => tiers.includes(t.tier)));
    expect(selectTests(tests, { tiers: parseTierList('all') })).toEqual(tests);
  });
});

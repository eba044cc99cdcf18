import { describe, expect, it } from 'vitest';
import { checkRatchet, formatRatchet, parseRatchet, updateRatchet, type RatchetOutcome } from './ratchet.js';

const pass: RatchetOutcome = { passed: true, label: 'PASS' };
const fail: RatchetOutcome = { passed: false, label: 'FAIL' };
const known = new Set(['a.ll', 'b.ll', 'c.ll', 'd.ll']);

describe('ratchet file', () => {
  it('reads one path per line, ignoring blank lines and surrounding spaces', () => {
    expect(parseRatchet('b.ll\n\n  a.ll  \nb.ll\n')).toEqual(['b.ll', 'a.ll']);
    expect(parseRatchet('')).toEqual([]);
  });

  it('writes paths sorted by code unit, unique, one per line', () => {
    expect(formatRatchet(['b.ll', 'B.ll', 'a.ll', 'b.ll'])).toBe('B.ll\na.ll\nb.ll\n');
    expect(formatRatchet([])).toBe('');
  });
});

describe('ratchet check', () => {
  it('passes when every listed test passed, whatever unlisted tests did', () => {
    const outcomes = new Map([
      ['a.ll', pass],
      ['b.ll', fail],
    ]);
    expect(checkRatchet(['a.ll'], outcomes, known)).toEqual({ listed: 1, stillPassing: 1, regressions: [] });
  });

  it('fails when a listed test fails, naming it and how it ended', () => {
    const outcomes = new Map([
      ['a.ll', pass],
      ['b.ll', { passed: false, label: 'FAIL(timeout)' }],
    ]);
    expect(checkRatchet(['a.ll', 'b.ll'], outcomes, known).regressions).toEqual([{ path: 'b.ll', reason: 'FAIL(timeout)' }]);
  });

  it('counts a listed test that did not run or left the corpus as a regression', () => {
    const check = checkRatchet(['gone.ll', 'c.ll'], new Map(), known);
    expect(check.regressions).toEqual([
      { path: 'c.ll', reason: 'not run' },
      { path: 'gone.ll', reason: 'not in SCORED.tsv' },
    ]);
    expect(check.stillPassing).toBe(0);
  });
});

describe('ratchet update', () => {
  it('adds the tests that pass now, sorted', () => {
    expect(updateRatchet(['c.ll'], ['d.ll', 'a.ll'])).toEqual({ paths: ['a.ll', 'c.ll', 'd.ll'], added: ['a.ll', 'd.ll'] });
  });

  it('never removes a listed test, even one that failed or vanished', () => {
    const { paths, added } = updateRatchet(['b.ll', 'gone.ll'], ['a.ll']);
    expect(paths).toEqual(['a.ll', 'b.ll', 'gone.ll']);
    expect(added).toEqual(['a.ll']);
  });

  it('adds nothing when the passing tests are already listed', () => {
    expect(updateRatchet(['a.ll'], ['a.ll'])).toEqual({ paths: ['a.ll'], added: [] });
  });
});

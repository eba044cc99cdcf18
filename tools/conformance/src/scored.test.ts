import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScored, parseTierList, ScoredFormatError, selectTests, TierSpecError } from './scored.js';

const fixture = new URL('../test/fixtures/mini-corpus/SCORED.tsv', import.meta.url);
const tests = parseScored(readFileSync(fixture, 'utf8'), 'SCORED.tsv');
const paths = (list: readonly { path: string }[]): string[] => list.map((t) => t.path);

describe('SCORED.tsv', () => {
  it('reads every row after the header with its tier and reason', () => {
    expect(tests).toHaveLength(13);
    expect(tests[0]).toEqual({ path: 'tests/echo-filecheck.test', tier: 'core', reason: '' });
    expect(tests[4]).toEqual({ path: 'tests/fails-check.test', tier: 'core', reason: 'a CHECK line that does not match' });
  });

  it('rejects an unknown tier with file:line:col', () => {
    expect(() => parseScored('path\ttier\treason\na.ll\tcore\t\nb.ll\tcroe\tx\n', 'S.tsv')).toThrow(new ScoredFormatError("S.tsv:3:6: unknown tier 'croe' (expected core, extended, skip)"));
  });

  it('rejects a row without a tier and a path listed twice', () => {
    expect(() => parseScored('only-a-path\n', 'S.tsv')).toThrow(/S.tsv:1:1: expected 'path<TAB>tier<TAB>reason'/);
    expect(() => parseScored('a\tcore\t\na\tskip\t\n', 'S.tsv')).toThrow(/S.tsv:2:1: 'a' is listed twice \(first at line 1\)/);
  });

  const corpus = new URL('../../../../shared/conformance/intel-llvm/', import.meta.url);
  it('reads the real corpus list: 76 core, 53 extended, 38 skip, each naming a file of the corpus', () => {
    const real = parseScored(readFileSync(new URL('SCORED.tsv', corpus), 'utf8'));
    const count = (tier: string): number => real.filter((t) => t.tier === tier).length;
    expect([count('core'), count('extended'), count('skip')]).toEqual([76, 53, 38]);
    expect(real.filter((t) => !existsSync(new URL(t.path, corpus))).map((t) => t.path)).toEqual([]);
  });
});

describe('tier selection', () => {
  it('parses one tier, a comma list, and all', () => {
    expect([...parseTierList('core')]).toEqual(['core']);
    expect([...parseTierList('extended, skip')]).toEqual(['extended', 'skip']);
    expect([...parseTierList('all')]).toEqual(['core', 'extended', 'skip']);
  });

  it('rejects an unknown tier', () => {
    expect(() => parseTierList('core,everything')).toThrow(TierSpecError);
    expect(() => parseTierList('')).toThrow(/unknown tier ''/);
  });

  it('selects the tests of the chosen tiers in file order', () => {
    expect(paths(selectTests(tests, { tiers: parseTierList('extended') }))).toEqual([
      'tests/xpass.test',
      'tests/unsupported.test',
      'tests/xfail-unknown-feature.test',
    ]);
    expect(selectTests(tests, { tiers: parseTierList('core') })).toHaveLength(8);
    expect(selectTests(tests, { tiers: parseTierList('all') })).toHaveLength(13);
  });

  it('narrows the selection by a regex on the path', () => {
    expect(paths(selectTests(tests, { tiers: parseTierList('all'), filter: /xfail|xpass/ }))).toEqual([
      'tests/xfail.test',
      'tests/xpass.test',
      'tests/xfail-unknown-feature.test',
    ]);
    expect(selectTests(tests, { tiers: parseTierList('skip'), filter: /xfail/ })).toEqual([]);
  });
});

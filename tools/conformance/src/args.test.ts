import { describe, expect, it } from 'vitest';
import { parseOptions, usage, UsageError } from './args.js';

const parse = (...argv: string[]) => parseOptions(argv, 4);

describe('command-line options', () => {
  it('defaults to the core tier, CPU-count jobs, 60 s timeout, no ratchet', () => {
    const o = parse();
    expect([...o.tiers]).toEqual(['core']);
    expect(o).toMatchObject({ jobs: 4, timeoutSeconds: 60, ratchet: false, updateRatchet: false, list: false, verbose: false, keepTemps: false });
    expect(o.filter).toBeUndefined();
  });

  it('accepts --name value, --name=value and short forms', () => {
    const o = parse('--tier=core,extended', '--filter', 'split', '-j', '2', '--timeout=1.5', '-v');
    expect([...o.tiers]).toEqual(['core', 'extended']);
    expect(o.filter?.test('sycl-module-split/x.ll')).toBe(true);
    expect(o).toMatchObject({ jobs: 2, timeoutSeconds: 1.5, verbose: true });
    expect(parse('-j8').jobs).toBe(8);
  });

  it('takes --ratchet with or without a file, and --update-ratchet implies --ratchet', () => {
    expect(parse('--ratchet')).toMatchObject({ ratchet: true });
    expect(parse('--ratchet').ratchetFile).toBeUndefined();
    expect(parse('--ratchet', 'mine.txt', '--verbose')).toMatchObject({ ratchet: true, ratchetFile: 'mine.txt', verbose: true });
    expect(parse('--ratchet', '--verbose')).toMatchObject({ ratchet: true, verbose: true });
    expect(parse('--ratchet', '--verbose').ratchetFile).toBeUndefined();
    expect(parse('--update-ratchet')).toMatchObject({ ratchet: true, updateRatchet: true });
  });

  it('collects repeated --tool-map entries', () => {
    const o = parse('--tool-map', 'opt=/opt/intel/bin/opt', '--tool-map=sycl-post-link=my-post-link -v');
    expect([...o.toolMap]).toEqual([
      ['opt', '/opt/intel/bin/opt'],
      ['sycl-post-link', 'my-post-link -v'],
    ]);
  });

  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['--verbos'], "did you mean '--verbose'?"],
    [['--tier', 'nightly'], "--tier: unknown tier 'nightly'"],
    [['--tier'], "option '--tier' needs a value"],
    [['--filter', '(unclosed'], '--filter: invalid regular expression'],
    [['--jobs', '0'], '--jobs: expected a whole number of at least 1'],
    [['--jobs', 'many'], '--jobs: expected a whole number'],
    [['--timeout', '-3'], '--timeout: expected a positive number of seconds'],
    [['--tool-map', 'opt'], '--tool-map: expected <tool>=<command>'],
    [['--tool-map', 'op t=x'], '--tool-map: expected <tool>=<command>'],
    [['--list=yes'], "option '--list' does not take a value"],
    [['--tier', 'core', '--tier', 'skip'], "option '--tier' given more than once"],
    [['tests/foo.ll'], "unexpected argument 'tests/foo.ll'"],
    [['--corpus='], '--corpus: the value is empty'],
  ])('rejects %j with a usage error', (argv, message) => {
    expect(() => parseOptions(argv, 1)).toThrow(UsageError);
    expect(() => parseOptions(argv, 1)).toThrow(message);
  });

  it('documents every option in --help', () => {
    const text = usage();
    for (const name of ['tier', 'filter', 'verbose', 'ratchet', 'update-ratchet', 'corpus', 'llvm-bin', 'tool-map', 'jobs', 'timeout', 'keep-temps', 'list', 'json', 'help']) {
      expect(text).toContain(`--${name}`);
    }
  });
});

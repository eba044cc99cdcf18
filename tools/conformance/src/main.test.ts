/**
 * End to end: the runner on the fixture corpus in test/fixtures/mini-corpus, whose RUN lines use
 * echo, cat, not and LLVM FileCheck only, so these tests do not depend on syclkit.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultRepoRoot, main } from './main.js';

const corpus = fileURLToPath(new URL('../test/fixtures/mini-corpus', import.meta.url));
let cwd: string;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'conformance-main-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

async function conformance(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string; results: string[] }> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    argv,
    { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } },
    { repoRoot: defaultRepoRoot(), cwd },
  );
  // The result lines, without the header (which names directories).
  const results = stdout.split('\n').filter((l) => /^(PASS|FAIL|UNSUPPORTED)/.test(l));
  return { code, stdout, stderr, results };
}

const CORE_RESULTS = [
  'PASS: tests/echo-filecheck.test',
  'PASS: tests/temp-files.test',
  'PASS: tests/continuation.test',
  'PASS: tests/define.test',
  // a path under the corpus is shown relative to it, so the line reads the same wherever the checkout is
  'FAIL: tests/fails-check.test (RUN at line 1 exited 1: tests/fails-check.test:2:10: error: CHECK: expected string not found in input)',
  'FAIL: tests/pipefail.test (RUN at line 2 exited 1)',
  'FAIL: tests/stops-at-first-failure.test (RUN at line 2 exited 1: second)',
  expect.stringMatching(/^PASS\(xfail\): tests\/xfail.test \(expected failure: RUN at line 2 exited 1: /),
];

describe('conformance runner on the fixture corpus', () => {
  it('runs the core tier by default, prints each result in order and the counts, and exits 1 on failures', async () => {
    const { code, stdout, results } = await conformance('--corpus', corpus);
    expect(results).toEqual(CORE_RESULTS);
    expect(stdout).toContain('conformance: 8 tests (tier core) from ');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('5 passed, 3 failed');
    expect(code).toBe(1);
  });

  it('prints the same thing whatever the number of jobs', async () => {
    const everythingButTheSleeper = ['--corpus', corpus, '--tier', 'all', '--filter', '^(?!tests/timeout)'];
    const one = await conformance(...everythingButTheSleeper, '--jobs', '1');
    const many = await conformance(...everythingButTheSleeper, '--jobs', '8');
    expect(one.results).toHaveLength(12);
    expect(many.stdout).toBe(one.stdout);
  });

  it('reports FAIL(xpass), UNSUPPORTED, FAIL(unresolved) and FAIL(timeout) across all tiers', async () => {
    const { code, results, stdout } = await conformance('--corpus', corpus, '--tier', 'extended,skip', '--timeout', '0.5');
    expect(results).toEqual([
      'FAIL(xpass): tests/xpass.test (XFAIL test passed unexpectedly)',
      'UNSUPPORTED: tests/unsupported.test (Test requires the following unavailable features: feature-nobody-has)',
      'PASS: tests/xfail-unknown-feature.test',
      "FAIL(unresolved): tests/no-run-line.test (Test has no 'RUN:' line)",
      'FAIL(timeout): tests/timeout.test (timed out after 0.5 s (RUN at line 1 was killed))',
    ]);
    expect(stdout).toContain('1 passed, 3 failed, 1 unsupported');
    expect(code).toBe(1);
  });

  it('selects tests with --filter and exits 0 when all of them pass', async () => {
    const { code, results } = await conformance('--corpus', corpus, '--filter', 'echo|define');
    expect(results).toEqual(['PASS: tests/echo-filecheck.test', 'PASS: tests/define.test']);
    expect(code).toBe(0);
  });

  it('shows the failing command after substitution and its output with --verbose', async () => {
    const { stdout } = await conformance('--corpus', corpus, '--filter', 'fails-check|stops-at', '--verbose');
    expect(stdout).toContain(`  command (RUN at line 1):\n    echo goodbye | FileCheck ${corpus}/tests/fails-check.test\n  exit code: 1\n  stderr:\n`);
    expect(stdout).toContain('  command (RUN at line 2):\n    not echo second\n  exit code: 1\n  stdout:\n    second\n');
  });

  it('lists the selected tests without running them (no LLVM needed)', async () => {
    const { code, stdout } = await conformance('--corpus', corpus, '--tier', 'extended', '--list', '--llvm-bin', '/nonexistent');
    expect(stdout).toBe('tests/xpass.test\ntests/unsupported.test\ntests/xfail-unknown-feature.test\n');
    expect(code).toBe(0);
  });

  it('writes machine-readable results with --json', async () => {
    const { code } = await conformance('--corpus', corpus, '--filter', 'echo|pipefail', '--json', 'out/results.json');
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(cwd, 'out', 'results.json'), 'utf8').toString());
    expect(report.summary).toEqual({ passed: 1, failed: 1, unsupported: 0 });
    expect(report.tests.map((t: { path: string; status: string; outcome: string }) => [t.path, t.status, t.outcome])).toEqual([
      ['tests/echo-filecheck.test', 'pass', 'pass'],
      ['tests/pipefail.test', 'fail', 'fail'],
    ]);
    expect(report.tests[1].failure).toMatchObject({ startLine: 2, command: 'false | cat', exitCode: 1 });
  });

  it('puts only JSON on stdout with --json - and the report on stderr', async () => {
    const { stdout, stderr } = await conformance('--corpus', corpus, '--filter', 'echo', '--json', '-');
    expect(JSON.parse(stdout).tests[0].path).toBe('tests/echo-filecheck.test');
    expect(stderr).toContain('PASS: tests/echo-filecheck.test');
  });

  it('maps a tool to another command with --tool-map', async () => {
    const scratch = join(cwd, 'corpus');
    mkdirSync(join(scratch, 't'), { recursive: true });
    writeFileSync(join(scratch, 'SCORED.tsv'), 'path\ttier\treason\nt/opt.ll\tcore\t\n');
    writeFileSync(join(scratch, 't', 'opt.ll'), '; RUN: opt -passes=x %s | FileCheck %s\n; CHECK: mapped -passes=x {{.*}}opt.ll\n');
    const { code, results } = await conformance('--corpus', scratch, '--tool-map', 'opt=echo mapped');
    expect(results).toEqual(['PASS: t/opt.ll']);
    expect(code).toBe(0);
  });
});

describe('ratchet', () => {
  const ratchet = (text: string): string => {
    writeFileSync(join(cwd, 'passing.txt'), text);
    return 'passing.txt';
  };

  it('exits 0 when every listed test passes although unlisted ones fail', async () => {
    const { code, stdout } = await conformance('--corpus', corpus, '--ratchet', ratchet('tests/define.test\ntests/echo-filecheck.test\n'));
    expect(stdout).toContain('5 passed, 3 failed');
    expect(stdout).toContain('ratchet passing.txt: 2 of 2 listed tests pass, 0 regressed');
    expect(code).toBe(0);
  });

  it('exits 1 and names the listed test that fails', async () => {
    const { code, stdout } = await conformance('--corpus', corpus, '--ratchet', ratchet('tests/echo-filecheck.test\ntests/pipefail.test\n'));
    expect(stdout).toContain('ratchet passing.txt: 1 of 2 listed tests pass, 1 regressed\n  REGRESSED: tests/pipefail.test (FAIL)');
    expect(code).toBe(1);
  });

  it('runs listed tests outside the selected tier too', async () => {
    const { code, results } = await conformance('--corpus', corpus, '--filter', 'echo', '--ratchet', ratchet('tests/xpass.test\n'));
    expect(results).toEqual(['PASS: tests/echo-filecheck.test', 'FAIL(xpass): tests/xpass.test (XFAIL test passed unexpectedly)']);
    expect(code).toBe(1);
  });

  it('adds newly passing tests with --update-ratchet, sorted, and removes none', async () => {
    const file = ratchet('tests/zz-renamed-away.test\ntests/pipefail.test\n');
    const { code, stdout } = await conformance('--corpus', corpus, '--update-ratchet', '--ratchet', file);
    expect(readFileSync(join(cwd, file), 'utf8')).toBe(
      ['tests/continuation.test', 'tests/define.test', 'tests/echo-filecheck.test', 'tests/pipefail.test', 'tests/temp-files.test', 'tests/xfail.test', 'tests/zz-renamed-away.test', ''].join('\n'),
    );
    expect(stdout).toContain('REGRESSED: tests/pipefail.test (FAIL)');
    expect(stdout).toContain('REGRESSED: tests/zz-renamed-away.test (not in SCORED.tsv)');
    expect(stdout).toContain('ratchet passing.txt: added 5 tests:\n  ADDED: tests/continuation.test\n');
    expect(code).toBe(1);
  });

  it('creates the ratchet file with --update-ratchet when it does not exist', async () => {
    const { code } = await conformance('--corpus', corpus, '--filter', 'echo', '--update-ratchet', '--ratchet', 'new/passing.txt');
    expect(readFileSync(join(cwd, 'new', 'passing.txt'), 'utf8')).toBe('tests/echo-filecheck.test\n');
    expect(code).toBe(0);
  });

  it('refuses a missing ratchet file without --update-ratchet', async () => {
    const { code, stderr } = await conformance('--corpus', corpus, '--ratchet', 'missing.txt');
    expect(stderr).toMatch(/^conformance: error: ratchet file .*missing.txt does not exist/);
    expect(code).toBe(2);
  });
});

describe('usage and environment errors', () => {
  it.each([
    [['--tier', 'nightly'], /^conformance: error: --tier: unknown tier 'nightly'/],
    [['--corpus', '/nonexistent/corpus'], /^conformance: error: no corpus at \/nonexistent\/corpus \(SCORED.tsv not found\)/],
    [['--corpus', corpus, '--llvm-bin', '/nonexistent/llvm'], /^conformance: error: --llvm-bin \/nonexistent\/llvm: no such directory/],
    [['--corpus', corpus, '--filter', 'matches-nothing'], /^conformance: error: no tests selected \(tier core, filter \/matches-nothing\/; 13 in SCORED.tsv\)/],
  ])('%j exits 2 with a one-line reason', async (argv, message) => {
    const { code, stderr, stdout } = await conformance(...argv);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });

  it('prints the help and exits 0', async () => {
    const { code, stdout } = await conformance('--help');
    expect(stdout).toMatch(/^usage: npm run conformance -- \[options\]/);
    expect(code).toBe(0);
  });

  it('has a built entry point that reports bad arguments without a stack trace', () => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
    expect(existsSync(cli), `build first: npx tsc -b tools/conformance (${cli} missing)`).toBe(true);
    const run = spawnSync(process.execPath, [cli, '--jobs', 'lots'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe("conformance: error: --jobs: expected a whole number of at least 1, got 'lots'\nRun with --help for the options.\n");
    expect(execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' })).toContain('--update-ratchet');
  });
});

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTest, shortenLine, summarizeFailure, type ExecuteOptions } from './execute.js';
import { createShimDir, findLlvmBin } from './toolchain.js';

let root: string;
let corpusDir: string;
let shimDir: string;
let counter = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'conformance-execute-'));
  corpusDir = join(root, 'corpus');
  shimDir = join(root, 'bin');
  mkdirSync(corpusDir);
  mkdirSync(shimDir);
  createShimDir(shimDir, { llvmBin: findLlvmBin(undefined), syclkitBin: '/nonexistent/syclkit.js', nodePath: process.execPath, toolMap: new Map() });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes a test file into the scratch corpus and runs it. */
async function run(name: string, text: string, options: Partial<ExecuteOptions> = {}) {
  writeFileSync(join(corpusDir, name), text);
  const workDir = join(root, 'work', `${counter++}`);
  const result = await runTest({ path: name, tier: 'core', reason: '' }, { corpusDir, shimDir, workDir, timeoutMs: 20_000, keepTemps: false, ...options });
  return { result, workDir };
}

describe('running one test', () => {
  it('passes when every RUN line succeeds, with %t files kept across lines', async () => {
    const { result } = await run('pass.test', '; RUN: echo alpha > %t.txt\n; RUN: FileCheck %s < %t.txt\n; CHECK: alpha\n');
    expect(result).toMatchObject({ path: 'pass.test', outcome: 'pass' });
    expect(result.failure).toBeUndefined();
  });

  it('stops at the first failing RUN line and reports that line, its command and output', async () => {
    const marker = join(root, 'third-line-ran');
    const { result } = await run('stop.test', `; RUN: echo one\n; RUN: echo out; echo err >&2; exit 4\n; RUN: touch ${marker}\n`);
    expect(result.outcome).toBe('fail');
    expect(result.failure).toMatchObject({ startLine: 2, endLine: 2, command: 'echo out; echo err >&2; exit 4', exitCode: 4, stdout: 'out\n' });
    expect(result.failure?.stderr).toBe('err\n');
    expect(existsSync(marker)).toBe(false);
    expect(result.message).toBe('RUN at line 2 exited 4: err');
  });

  it('fails a pipeline whose first command fails (pipefail)', async () => {
    const { result } = await run('pipefail.test', '; RUN: false | cat\n');
    expect(result.outcome).toBe('fail');
    expect(result.failure?.exitCode).toBe(1);
  });

  it('reports a FileCheck mismatch with FileCheck\'s diagnostics', async () => {
    const { result } = await run('mismatch.test', '; RUN: echo goodbye | FileCheck %s\n; CHECK: hello\n');
    expect(result.outcome).toBe('fail');
    expect(result.failure?.stderr).toContain('error: CHECK: expected string not found in input');
  });

  it('reports a shell syntax error against the RUN line that has it', async () => {
    const { result } = await run('syntax.test', '; RUN: true\n; RUN: echo ((\n');
    expect(result.outcome).toBe('fail');
    expect(result.failure?.startLine).toBe(2);
    expect(result.failure?.stderr).toMatch(/syntax error/);
  });

  it('kills a test that runs too long and reports FAIL(timeout) on the running line', async () => {
    const started = Date.now();
    const { result } = await run('slow.test', '; RUN: true\n; RUN: sleep 30 | cat\n', { timeoutMs: 300 });
    expect(result.outcome).toBe('timeout');
    expect(result.failure).toMatchObject({ startLine: 2, exitCode: null });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('inverts the result of an XFAIL: * test', async () => {
    expect((await run('xfail.test', '; XFAIL: *\n; RUN: false\n')).result.outcome).toBe('xfail');
    expect((await run('xpass.test', '; XFAIL: *\n; RUN: true\n')).result.outcome).toBe('xpass');
  });

  it('treats an XFAIL on an unknown feature as not applying', async () => {
    expect((await run('xfail-feature.test', '; XFAIL: vg_leak\n; RUN: true\n')).result.outcome).toBe('pass');
  });

  it('reports UNSUPPORTED for a REQUIRES: nobody meets and for UNSUPPORTED: true, without running', async () => {
    const marker = join(root, 'unsupported-ran');
    const requires = await run('requires.test', `; REQUIRES: gpu\n; RUN: touch ${marker}\n`);
    expect(requires.result).toMatchObject({ outcome: 'unsupported', message: 'Test requires the following unavailable features: gpu' });
    expect((await run('unsupported.test', `; UNSUPPORTED: true\n; RUN: touch ${marker}\n`)).result.outcome).toBe('unsupported');
    expect(existsSync(marker)).toBe(false);
  });

  it('reports a test without RUN: lines, or a missing file, as FAIL(unresolved)', async () => {
    expect((await run('inert.test', '; RUN echo no colon\n')).result).toMatchObject({ outcome: 'unresolved', message: "Test has no 'RUN:' line" });
    const missing = await runTest(
      { path: 'nope.test', tier: 'core', reason: '' },
      { corpusDir, shimDir, workDir: join(root, 'work', 'missing'), timeoutMs: 1000, keepTemps: false },
    );
    expect(missing.outcome).toBe('unresolved');
    expect(missing.message).toMatch(/cannot read .*nope.test: ENOENT/);
  });

  it('re-runs a failing test up to ALLOW_RETRIES times', async () => {
    const tally = join(root, 'tally');
    const { result } = await run('flaky.test', `; ALLOW_RETRIES: 2\n; RUN: echo x >> ${tally}\n; RUN: test "$(wc -l < ${tally})" -ge 2\n`);
    expect(result.outcome).toBe('pass');
    expect(readFileSync(tally, 'utf8')).toBe('x\nx\n');
  });

  it('runs in a fresh directory whose Output/ is %T, removed afterwards', async () => {
    const { result, workDir } = await run('cwd.test', '; RUN: test "$(pwd)/Output" = "%T" && test -z "$(ls -A %T)" && touch %t\n');
    expect(result.outcome).toBe('pass');
    expect(existsSync(workDir)).toBe(false);
  });

  it('keeps the directory with keepTemps', async () => {
    const { result, workDir } = await run('keep.test', '; RUN: echo kept > %t.out\n', { keepTemps: true });
    expect(result.tempDir).toBe(workDir);
    expect(readFileSync(join(workDir, 'Output', 'keep.test.tmp.out'), 'utf8')).toBe('kept\n');
  });

  it('restores a test file its RUN lines overwrite, and fails the test', async () => {
    // Like intel/llvm's device-requirements.ll, which passes `-o %s` to sycl-post-link.
    const text = '; RUN: echo clobbered > %s\n';
    const file = join(corpusDir, 'clobber.test');
    writeFileSync(file, text);
    chmodSync(file, 0o640);
    const result = await runTest({ path: 'clobber.test', tier: 'core', reason: '' }, { corpusDir, shimDir, workDir: join(root, 'work', 'clobber'), timeoutMs: 20_000, keepTemps: false });
    expect(result.outcome).toBe('fail');
    expect(result.message).toMatch(/overwrote the test file itself; it was restored/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(corpusDir).filter((f) => f.includes('clobber'))).toEqual(['clobber.test']);
  });
});

describe('the one-line account of a failure', () => {
  const failure = (stderr: string) => ({ startLine: 3, endLine: 3, command: 'x', exitCode: 1, stdout: '', stderr });
  const deep = `/tmp/${'deep'.repeat(40)}/checkout/corpus`;

  it('names paths under the corpus and the work directory relative to them', () => {
    const said = summarizeFailure(failure(`${deep}/tests/a.test:2:10: error: CHECK: expected string not found in input\nmore`), { corpusDir: deep, workDir: '/tmp/w/1' });
    expect(said).toBe('RUN at line 3 exited 1: tests/a.test:2:10: error: CHECK: expected string not found in input');
    expect(summarizeFailure(failure('cannot open /tmp/w/1/Output/a.tmp'), { corpusDir: deep, workDir: '/tmp/w/1' })).toBe('RUN at line 3 exited 1: cannot open Output/a.tmp');
  });

  it('cuts a long diagnostic at the start of its location, keeping the message', () => {
    const line = `${deep}/elsewhere/a.test:2:10: error: CHECK: expected string not found in input`;
    const short = shortenLine(line, 80);
    expect(short).toHaveLength(80);
    expect(short.startsWith('...')).toBe(true);
    expect(short.endsWith('a.test:2:10: error: CHECK: expected string not found in input')).toBe(true);
  });

  it('cuts other long lines at the end, and leaves short ones alone', () => {
    expect(shortenLine('x'.repeat(200), 20)).toBe(`${'x'.repeat(17)}...`);
    expect(shortenLine(`error: ${'y'.repeat(200)}`, 20)).toBe(`error: ${'y'.repeat(10)}...`);
    expect(shortenLine('short', 20)).toBe('short');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Runner, RunOutcome } from './harness.js';
import { callgrindArgv, countInstructions, parseCollected, renderCounts } from './instruction-count.js';
import { main } from './main.js';
import { createProcessRunner, resolveExecutable } from './process-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-count-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const input = join(dir, 'in.ll');
writeFileSync(input, '; empty\n');

const outcome = (stderrTail: string, exitCode = 0): RunOutcome => ({ wallMs: 1, exitCode, signal: null, maxRssKb: null, cpuMs: null, stderrTail });
const callgrindTail = (n: number): string => `==42== Events    : Ir\n==42== Collected : ${n}\n==42==\n==42== I   refs:      ${n.toLocaleString('en-US')}\n`;

describe('callgrindArgv', () => {
  it('runs node with the flags that make its count repeatable, other commands as given', () => {
    expect(callgrindArgv(['node', 'x.js', '-S'], '/usr/bin/valgrind')).toEqual([
      '/usr/bin/valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', 'node', '--single-threaded', '--predictable', 'x.js', '-S',
    ]);
    expect(callgrindArgv(['/usr/lib/llvm-16/bin/opt', '-S', 'in.ll'])).toEqual(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', '/usr/lib/llvm-16/bin/opt', '-S', 'in.ll']);
    expect(callgrindArgv([process.execPath, 'y.js']).slice(3, 6)).toEqual([process.execPath, '--single-threaded', '--predictable']);
  });
});

describe('parseCollected', () => {
  it("reads callgrind's total, and nothing from other output", () => {
    expect(parseCollected(callgrindTail(4872472287))).toBe(4872472287);
    expect(parseCollected('error: no such file\n')).toBeUndefined();
  });
});

describe('countInstructions', () => {
  it('counts each command once on the input and reports ratios to the baseline (the last by default)', async () => {
    const seen: string[][] = [];
    const counts = [1_010, 1_000];
    const runner: Runner = async (argv) => {
      seen.push([...argv]);
      return outcome(callgrindTail(counts[seen.length - 1]!));
    };
    const report = await countInstructions([{ label: 'new', argv: ['node', 'a.js', '{input}'] }, { label: 'base', argv: ['node', 'b.js', '{input}'] }], input, runner, { timeoutMs: 1000 });
    expect(seen.map((a) => a.at(-1))).toEqual([input, input]);
    expect(report.results.map((r) => r.instructions)).toEqual([1_010, 1_000]);
    expect(report.baseline).toBe(1);
    expect(renderCounts(report)).toMatch(/new\s+1,010\s+1\.0100x\n\s+base\s+1,000\s+baseline/);
  });

  it('reports a command that fails, or that callgrind gave no count for, without a number', async () => {
    const replies = [outcome('boom\n', 1), outcome('no total here\n'), outcome(callgrindTail(7))];
    const runner: Runner = async () => replies.shift()!;
    const report = await countInstructions(
      [{ label: 'bad', argv: ['x'] }, { label: 'silent', argv: ['y'] }, { label: 'good', argv: ['z'] }],
      input,
      runner,
      { timeoutMs: 1000, baseline: 2 },
    );
    expect(report.results.map((r) => [r.label, r.instructions, r.failure])).toEqual([
      ['bad', undefined, 'exit 1: boom'],
      ['silent', undefined, 'callgrind reported no count'],
      ['good', 7, undefined],
    ]);
    expect(renderCounts(report)).toContain('bad      FAILED: exit 1: boom');
  });

  const valgrind = resolveExecutable('valgrind');
  it.skipIf(valgrind === undefined)('counts real commands under valgrind: the same count twice, a different one for a different command', async () => {
    const runner = createProcessRunner({ kind: 'none', reason: 'test' });
    const report = await countInstructions(
      [{ label: 'true', argv: ['/bin/true'] }, { label: 'true again', argv: ['/bin/true'] }, { label: 'echo', argv: ['/bin/echo', 'hello'] }],
      input,
      runner,
      { timeoutMs: 60_000, valgrind: valgrind! },
    );
    const [a, b, c] = report.results.map((r) => r.instructions);
    expect(a).toBeGreaterThan(10_000);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  }, 60_000);
});

describe('bench count', () => {
  it('needs two commands, and prints the counts of the scripted runs', async () => {
    let out = '';
    let err = '';
    const io = { stdout: { write: (s: string) => void (out += s) }, stderr: { write: (s: string) => void (err += s) } };
    expect(await main(['count', '--input', input, '--', 'a'], io)).toBe(2);
    expect(err).toContain('count needs at least two commands');
    const runner: Runner = async (argv) => outcome(callgrindTail(argv.includes('a') ? 300 : 200));
    expect(await main(['count', '--input', input, '--', 'a', '{input}', '--', 'b', '{input}'], io, { runner })).toBe(0);
    expect(out).toMatch(/a\s+300\s+1\.5000x/);
  });
});

import { describe, expect, it } from 'vitest';
import { createProcessRunner, detectMemoryProbe, parseResourceUsage, resolveExecutable } from './process-runner.js';

const node = process.execPath;
const plain = createProcessRunner({ kind: 'none', reason: 'test' });

describe('process runner', () => {
  it('reports the exit status and the end of stderr of a failing command', async () => {
    const r = await plain([node, '-e', 'console.error("first"); console.error("boom"); process.exit(3)'], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(3);
    expect(r.stderrTail).toContain('boom');
    expect(r.wallMs).toBeGreaterThan(0);
  });

  it('reports a command that does not exist instead of throwing', async () => {
    const r = await plain(['/nonexistent/syclkit-bench-tool', '-S'], { timeoutMs: 1000 });
    expect(r.error).toBe('command not found: /nonexistent/syclkit-bench-tool');
  });

  it('stops a command that runs past the timeout', async () => {
    const r = await plain([node, '-e', 'setTimeout(() => {}, 60000)'], { timeoutMs: 300 });
    expect(r.error).toMatch(/timed out/);
    expect(r.wallMs).toBeLessThan(30_000);
  });

  it('reports max RSS as null without a memory probe', async () => {
    const r = await plain([node, '-e', ''], { timeoutMs: 30_000 });
    expect(r.maxRssKb).toBeNull();
  });

  const probe = detectMemoryProbe();
  it.skipIf(probe.kind !== 'gnu-time')(`measures max RSS with GNU time (skipped when /usr/bin/time is not GNU time)`, async () => {
    const runner = createProcessRunner(probe);
    const small = await runner([node, '-e', ''], { timeoutMs: 30_000 });
    // Touch 200 MiB so the peak is well above node's baseline.
    const big = await runner([node, '-e', 'const b = Buffer.alloc(200 * 1024 * 1024, 1); console.log(b[5])'], { timeoutMs: 30_000 });
    expect(small.exitCode).toBe(0);
    expect(small.maxRssKb).toBeGreaterThan(10 * 1024);
    expect(big.maxRssKb! - small.maxRssKb!).toBeGreaterThan(150 * 1024);
  });

  it.skipIf(probe.kind !== 'gnu-time')('measures CPU time of all threads with GNU time', async () => {
    const runner = createProcessRunner(probe);
    // 400 ms of CPU time on the main thread (counted by CPU time, not wall time: on a busy host the
    // process may get less than one core); never more than wall time x cores
    const busy = await runner([node, '-e', 'while (process.cpuUsage().user < 400_000);'], { timeoutMs: 30_000 });
    expect(busy.cpuMs).toBeGreaterThanOrEqual(350);
    expect(busy.cpuMs!).toBeLessThan(busy.wallMs * 8);
    const idle = await runner([node, '-e', 'setTimeout(() => {}, 400)'], { timeoutMs: 30_000 });
    expect(idle.cpuMs!).toBeLessThan(busy.cpuMs! - 200);
  }, 60_000);

  it.skipIf(probe.kind !== 'gnu-time')('keeps the command exit status when wrapped by GNU time', async () => {
    const r = await createProcessRunner(probe)([node, '-e', 'process.exit(5)'], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(5);
    expect(r.maxRssKb).toBeGreaterThan(0);
  });
});

describe('parseResourceUsage', () => {
  it('takes max RSS and user + system CPU from the line GNU time writes last, after a status line', () => {
    expect(parseResourceUsage('Command exited with non-zero status 1\n51234 1.70 0.17\n')).toEqual({ maxRssKb: 51234, cpuMs: 1870 });
    expect(parseResourceUsage('61040 0.29 0.01\n')).toEqual({ maxRssKb: 61040, cpuMs: 300 });
  });

  it('gives null when the last line is not the report', () => {
    expect(parseResourceUsage('')).toBeNull();
    expect(parseResourceUsage('Command terminated by signal 9\n')).toBeNull();
    expect(parseResourceUsage('61040\n')).toBeNull();
  });
});

describe('resolveExecutable', () => {
  it('finds a program on PATH and refuses a missing path', () => {
    expect(resolveExecutable('node', `/nonexistent:${node.replace(/\/node$/, '')}`)).toBe(node);
    expect(resolveExecutable('./definitely-not-here')).toBeUndefined();
  });
});

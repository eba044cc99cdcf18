import { describe, expect, it } from 'vitest';
import { createProcessRunner, detectMemoryProbe, parseMaxRss, resolveExecutable } from './process-runner.js';

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

  it.skipIf(probe.kind !== 'gnu-time')('keeps the command exit status when wrapped by GNU time', async () => {
    const r = await createProcessRunner(probe)([node, '-e', 'process.exit(5)'], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(5);
    expect(r.maxRssKb).toBeGreaterThan(0);
  });
});

describe('parseMaxRss', () => {
  it('takes the number GNU time writes last, after a status line', () => {
    expect(parseMaxRss('Command exited with non-zero status 1\n51234\n')).toBe(51234);
    expect(parseMaxRss('61040\n')).toBe(61040);
  });

  it('gives null when there is no number', () => {
    expect(parseMaxRss('')).toBeNull();
    expect(parseMaxRss('Command terminated by signal 9\n')).toBeNull();
  });
});

describe('resolveExecutable', () => {
  it('finds a program on PATH and refuses a missing path', () => {
    expect(resolveExecutable('node', `/nonexistent:${node.replace(/\/node$/, '')}`)).toBe(node);
    expect(resolveExecutable('./definitely-not-here')).toBeUndefined();
  });
});

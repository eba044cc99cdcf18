import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateModule } from './generator.js';
import type { Runner, RunOutcome } from './harness.js';
import { defaultLabel, main, parseArguments } from './main.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bench-main-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function capture(): { io: { stdout: { write(s: string): void }; stderr: { write(s: string): void } }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: { write: (s) => void (out += s) }, stderr: { write: (s) => void (err += s) } }, out: () => out, err: () => err };
}

const ok: RunOutcome = { wallMs: 10, exitCode: 0, signal: null, maxRssKb: 1000, cpuMs: 15, stderrTail: '' };
const noMemory = { kind: 'none', reason: 'test' } as const;

describe('parseArguments', () => {
  it('splits commands at -- separators and keeps options before the first one', () => {
    const p = parseArguments(['compare', '--runs', '3', '--', 'a', '-S', '{input}', '--', 'b', '{input}']);
    expect(p.positional).toEqual(['compare']);
    expect(p.values.get('runs')).toEqual(['3']);
    expect(p.commands).toEqual([['a', '-S', '{input}'], ['b', '{input}']]);
  });

  it('splits a command given as one quoted string on whitespace', () => {
    expect(parseArguments(['compare', '--', 'opt -S {input}', '--', 'x']).commands).toEqual([['opt', '-S', '{input}'], ['x']]);
  });

  it('accepts --name=value and rejects unknown options', () => {
    expect(parseArguments(['run', '--runs=4']).values.get('runs')).toEqual(['4']);
    expect(() => parseArguments(['run', '--frobnicate'])).toThrow(/unknown option/);
  });
});

describe('defaultLabel', () => {
  it('names node scripts by script, LLVM tools by version, and numbers only look-alikes', () => {
    const all = [['/usr/bin/node', '/r/packages/cli/bin/syclkit.js', 'opt'], ['/usr/lib/llvm-16/bin/opt', '-S'], ['/usr/lib/llvm-16/bin/opt', '-O2']];
    expect(defaultLabel(all[0]!, all)).toBe('syclkit.js');
    expect(defaultLabel(all[1]!, all)).toBe('llvm-16 opt #2');
    expect(defaultLabel(all[2]!, all)).toBe('llvm-16 opt #3');
  });
});

describe('bench generate', () => {
  it('writes the same module the library generates and reports its size', async () => {
    const dir = tempDir();
    const out = join(dir, 'm.ll');
    const c = capture();
    const code = await main(['generate', '--seed', '3', '--kernels', '4', '--tus', '2', '--functions', '20', '-o', out], c.io);
    expect(code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(generateModule({ seed: 3, kernels: 4, tus: 2, functions: 20 }).text);
    expect(c.err()).toMatch(/20 functions \(4 kernels\)/);
  });

  it('applies --typed-pointers, -g and --target-size', async () => {
    const dir = tempDir();
    const out = join(dir, 'm.ll');
    const code = await main(['generate', '--typed-pointers', '-g', '--target-size', '150KB', '-o', out], capture().io);
    expect(code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.length).toBeGreaterThanOrEqual(150 * 1024);
    expect(text).toContain('!llvm.dbg.cu');
    expect(text).toMatch(/addrspace\(1\)\*/);
  });

  it('exits 2 with a message for bad usage', async () => {
    for (const argv of [['generate'], ['generate', '--opaque', '--typed-pointers', '-o', 'x'], ['generate', '--kernels', 'many', '-o', 'x'], ['frob'], ['run'], ['run', 'nope']]) {
      const c = capture();
      expect(await main(argv, c.io), argv.join(' ')).toBe(2);
      expect(c.err()).toMatch(/^bench: error: /);
    }
  });

  it('exits 2 when functions are fewer than kernels', async () => {
    const c = capture();
    expect(await main(['generate', '--kernels', '5', '--functions', '2', '-o', join(tempDir(), 'x.ll')], c.io)).toBe(2);
    expect(c.err()).toMatch(/functions \(2\) must be at least kernels \(5\)/);
  });
});

describe('bench compare', () => {
  it('prints JSON with per-command medians and the ratio to the last command', async () => {
    const input = join(tempDir(), 'in.ll');
    writeFileSync(input, 'x');
    const runner: Runner = async (argv) => ({ ...ok, wallMs: argv[0] === 'a' ? 30 : 10 });
    const c = capture();
    const code = await main(['compare', '--input', input, '--runs', '3', '--warmup', '0', '--json', '--', 'a', '{input}', '--', 'b', '{input}'], c.io, { runner, memory: noMemory });
    expect(code).toBe(0);
    const report = JSON.parse(c.out());
    expect(report.benchmark).toBe('compare');
    expect(report.cases[0].comparison.commands.map((r: { time: { median: number } }) => r.time.median)).toEqual([30, 10]);
    expect(report.cases[0].comparison.ratios[0]).toMatchObject({ candidate: 'a', baseline: 'b', median: 3 });
  });

  it('reports a failing command as FAILED, keeps measuring the other, and exits 1', async () => {
    const input = join(tempDir(), 'in.ll');
    writeFileSync(input, 'x');
    const runner: Runner = async (argv) => (argv[0] === 'bad' ? { ...ok, exitCode: 1, stderrTail: "syclkit: error: unknown command 'opt'" } : ok);
    const c = capture();
    const code = await main(['compare', '--input', input, '--runs', '2', '--', 'bad', '--', 'good'], c.io, { runner, memory: noMemory });
    expect(code).toBe(1);
    expect(c.out()).toMatch(/bad\s+FAILED in warm-up round 1: exit 1: syclkit: error: unknown command 'opt'/);
    expect(c.out()).toMatch(/good\s+10 ms/);
    expect(c.out()).toMatch(/ratio bad \/ good: n\/a \(bad failed\)/);
  });

  it('appends a markdown section with one row per command', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.ll');
    const results = join(dir, 'RESULTS.md');
    writeFileSync(input, 'x');
    writeFileSync(results, '# Results\n\n');
    await main(['compare', '--input', input, '--runs', '1', '--label', 'ours', '--label', 'llvm', '--markdown', results, '--', 'a', '--', 'b'], capture().io, {
      runner: async () => ok,
      memory: noMemory,
    });
    const md = readFileSync(results, 'utf8');
    expect(md.startsWith('# Results\n\n### compare — ')).toBe(true);
    expect(md).toMatch(/^\| in\.ll \| 1 B \| ours \| 10 ms \| .* \| 15 ms \| .* \| 1\.00x \(CPU 1\.00x\) \|$/m);
    expect(md).toMatch(/^\| in\.ll \| 1 B \| llvm \| .* \| baseline \|$/m);
  });

  it('runs real commands end to end', async () => {
    const input = join(tempDir(), 'in.ll');
    writeFileSync(input, 'x');
    const c = capture();
    const node = process.execPath;
    const code = await main(
      ['compare', '--input', input, '--runs', '2', '--warmup', '0', '--no-memory', '--json', '--', node, '-e', 'require("fs").readFileSync(process.argv[1])', '{input}', '--', node, '-e', ''],
      c.io,
    );
    expect(code).toBe(0);
    const report = JSON.parse(c.out());
    expect(report.environment.maxRss).toBe('n/a (disabled with --no-memory)');
    expect(report.cases[0].comparison.commands[0].timesMs).toHaveLength(2);
  });
});

describe('bench run', () => {
  it('runs post-link-split on generated inputs, verifies the file table and reports the target as not measured at other sizes', async () => {
    const cacheDir = tempDir();
    const seen: string[][] = [];
    const runner: Runner = async (argv) => {
      seen.push([...argv]);
      const out = argv[argv.indexOf('-o') + 1]!;
      if (argv.includes('post-link')) writeFileSync(out, '[Code|Properties|Symbols]\nm_0.ll|m_0.prop|m_0.sym\n');
      return { ...ok, wallMs: argv.includes('post-link') ? 40 : 10 };
    };
    const c = capture();
    const code = await main(['run', 'post-link-split', '--sizes', '3,6', '--runs', '1', '--warmup', '0', '--cache-dir', cacheDir, '--json'], c.io, { runner, memory: noMemory });
    expect(code).toBe(0);
    const report = JSON.parse(c.out());
    expect(report.cases.map((x: { input: { kernels: number } }) => x.input.kernels)).toEqual([3, 6]);
    expect(report.cases[0].comparison.ratios[0].median).toBe(4);
    expect(report.findings.at(-1)).toMatch(/not measured in this run/);
    const postLink = seen.find((a) => a.includes('post-link'))!;
    expect(postLink.slice(-8, -1)).toEqual(['post-link', '-split=kernel', '-symbols', '-properties', '-S', '-o', postLink.at(-2)!]);
    expect(postLink.at(-2)).toMatch(/out\.table$/);
    expect(existsSync(postLink.at(-1)!)).toBe(true);
  });

  it('fails a post-link run that leaves no file table', async () => {
    const runner: Runner = async () => ok;
    const c = capture();
    const code = await main(['run', 'post-link-split', '--sizes', '2', '--runs', '1', '--warmup', '0', '--cache-dir', tempDir()], c.io, { runner, memory: noMemory });
    expect(code).toBe(1);
    expect(c.out()).toMatch(/FAILED in measured round 1: no file table at .*out\.table/);
  });

  it('reports propagate growth over function counts', async () => {
    const runner: Runner = async (argv) => {
      // Time proportional to the number of functions in the input name (fNNN).
      const functions = Number(/-f(\d+)-/.exec(argv.find((a) => a.endsWith('.ll'))!)![1]);
      return { ...ok, wallMs: functions * (argv.some((a) => a.startsWith('-passes=')) ? 2 : 1) };
    };
    const c = capture();
    const code = await main(['run', 'propagate', '--sizes', '50,100', '--runs', '1', '--warmup', '0', '--cache-dir', tempDir(), '--json'], c.io, { runner, memory: noMemory });
    expect(code).toBe(0);
    const report = JSON.parse(c.out());
    const passArgv = report.cases[0].comparison.commands[0].argv;
    expect(passArgv).toContain('-passes=sycl-propagate-aspects-usage');
    expect(report.findings.filter((f: string) => /linear \(time ~ size\^1\.00\)/.test(f))).toHaveLength(2);
  });

  it('refuses generator options for a built-in benchmark', async () => {
    const c = capture();
    expect(await main(['run', 'parse-print', '--kernels', '3'], c.io, { runner: async () => ok, memory: noMemory })).toBe(2);
    expect(c.err()).toMatch(/generates its own inputs/);
  });
});

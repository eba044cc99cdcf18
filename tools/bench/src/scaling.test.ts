import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandResult, Runner, RunOutcome } from './harness.js';
import { main } from './main.js';
import { resolveGeneratorOptions } from './options.js';
import { planModule } from './plan.js';
import { filesystemOf } from './host.js';
import { containerShape, createFiles, kernelCandidates, postLinkFilesOf, scalingInput, scalingTargets } from './scaling.js';
import { ratioToSum } from './stats.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'bench-scaling-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A container with these bundles (the layout of @syclkit/offload-wrapper's README; records left out, only the index matters here). */
function container(version: 1 | 2, bundles: [string, number][]): Buffer {
  const header = Buffer.alloc(16);
  header.write('\x89SKFAT\r\n', 0, 'latin1');
  header.writeUInt16LE(version, 8);
  const parts: Buffer[] = [Buffer.from('INDX', 'latin1'), u32(bundles.length)];
  for (const [target, images] of bundles) {
    parts.push(u32(Buffer.byteLength(target)), Buffer.from(target), u32(images));
    if (version === 1) parts.push(Buffer.alloc(8 * images));
  }
  if (version === 2) parts.push(Buffer.alloc(8 * bundles.reduce((n, [, images]) => n + images, 0)), u32(0), u32(1), u32(0), u32(0));
  const index = Buffer.concat(parts);
  const trailer = Buffer.alloc(32);
  trailer.write('SKFATEND', 0, 'latin1');
  trailer.writeBigUInt64LE(16n, 8);
  trailer.writeBigUInt64LE(BigInt(index.length), 16);
  return Buffer.concat([header, index, trailer]);
}

function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value);
  return b;
}

const ok: RunOutcome = { wallMs: 10, exitCode: 0, signal: null, maxRssKb: 1000, cpuMs: 15, stderrTail: '' };

describe('containerShape', () => {
  it('reads the bundles of version 1 and version 2 containers from the trailer and the index', () => {
    const dir = tempDir();
    for (const version of [1, 2] as const) {
      const path = join(dir, `v${version}.fatbin`);
      writeFileSync(path, container(version, [['spir64', 3], ['intel_gpu_pvc', 2]]));
      expect(containerShape(path)).toEqual({ version, size: statSync(path).size, bundles: [{ target: 'spir64', images: 3 }, { target: 'intel_gpu_pvc', images: 2 }] });
    }
  });

  it('refuses a file that is not a container', () => {
    const path = join(tempDir(), 'x.table');
    writeFileSync(path, '[Code|Properties|Symbols]\n'.padEnd(64, ' '));
    expect(() => containerShape(path)).toThrow('not a syclkit fat-binary container');
  });

  it('counts the files post-link writes for the images: three per image and a table per target', () => {
    expect(postLinkFilesOf({ version: 2, size: 1000, bundles: [{ target: 'a', images: 4 }, { target: 'b', images: 2 }] })).toEqual({ files: 20, bytes: 1000 });
  });
});

describe('createFiles', () => {
  it('creates that many files holding that many bytes in all', () => {
    const dir = join(tempDir(), 'out');
    createFiles(dir, { files: 7, bytes: 100 });
    const names = readdirSync(dir);
    expect(names).toHaveLength(7);
    expect(names.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0)).toBe(100);
  });

  it('runs as the create-files command, taking the count from --from when that file exists', async () => {
    const dir = tempDir();
    const from = join(dir, 'count.json');
    writeFileSync(from, JSON.stringify({ files: 3, bytes: 30 }));
    const io = { stdout: { write: () => {} }, stderr: { write: () => {} } };
    expect(await main(['create-files', '--from', from, '--files', '9', '--bytes', '9', '--dir', join(dir, 'a')], io)).toBe(0);
    expect(readdirSync(join(dir, 'a'))).toHaveLength(3);
    expect(await main(['create-files', '--from', join(dir, 'missing.json'), '--files', '2', '--bytes', '9', '--dir', join(dir, 'b')], io)).toBe(0);
    expect(readdirSync(join(dir, 'b'))).toHaveLength(2);
    expect(await main(['create-files', '--dir', join(dir, 'c')], io)).toBe(2);
  });
});

describe('kernelCandidates', () => {
  it('names kernels both modules define: plain ones first for run, ones using an aspect in both for explain', () => {
    const small = planModule(resolveGeneratorOptions(scalingInput(6)));
    const big = planModule(resolveGeneratorOptions(scalingInput(300)));
    const { run, explain } = kernelCandidates(small, big);
    const bigNames = new Set(big.functions.filter((f) => f.role === 'kernel').map((f) => f.name));
    const smallNames = small.functions.filter((f) => f.role === 'kernel').map((f) => f.name);
    expect(run.length).toBeGreaterThan(0);
    for (const name of run) expect(bigNames.has(name) && smallNames.includes(name)).toBe(true);
    expect(explain.map((e) => e.kernel).sort()).toEqual([...run].sort());
    for (const e of explain) expect(e.small).toEqual(expect.arrayContaining([6, 5, 28, 9]));
  });
});

describe('ratioToSum', () => {
  const result = (timesMs: number[], failed = false): CommandResult => ({
    label: 'x',
    argv: [],
    timesMs,
    time: { median: 0, min: 0, max: 0, mean: 0 },
    maxRssKb: [],
    medianMaxRssKb: null,
    peakMaxRssKb: null,
    cpuMs: [],
    cpu: null,
    failure: failed ? { phase: 'measured', round: 1, message: 'exit 1' } : undefined,
  });

  it('is the median of the per-round ratios to the sum of two others, or null when one failed', () => {
    expect(ratioToSum(result([30, 90, 40]), result([5, 10, 10]), result([5, 20, 10]))).toBe(3);
    expect(ratioToSum(result([30]), result([5], true), result([5]))).toBeNull();
  });
});

describe('filesystemOf', () => {
  it('names the filesystem of a directory', () => {
    expect(filesystemOf(tmpdir())).toMatch(/\S/);
    if (existsSync('/dev/shm')) expect(filesystemOf('/dev/shm')).toBe('tmpfs');
  });
});

describe('run compile-scaling', () => {
  it('compiles at each size, measures the floor with the files the images need, then reads the biggest binary and checks every size', async () => {
    const cacheDir = tempDir();
    const seen: string[][] = [];
    const runner: Runner = async (argv) => {
      seen.push([...argv]);
      if (argv.includes('compile')) {
        const kernels = Number(/-k(\d+)-/.exec(argv.find((a) => a.endsWith('.ll'))!)![1]);
        writeFileSync(argv[argv.indexOf('-o') + 1]!, container(2, scalingTargets.map((t) => [t, kernels])));
        return { ...ok, wallMs: kernels * 3 };
      }
      return { ...ok, wallMs: argv.includes('check') ? 50 : 10 };
    };
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => void out.push(s) }, stderr: { write: () => {} } };
    const code = await main(['run', 'compile-scaling', '--sizes', '8,16', '--cache-dir', cacheDir, '--out-dir', tempDir(), '--json'], io, { runner, memory: { kind: 'none', reason: 'test' } });
    expect(code).toBe(0);
    const report = JSON.parse(out.join(''));
    const names = report.cases.map((c: { name: string }) => c.name);
    expect(names).toEqual([
      '8 kernels',
      '16 kernels',
      'syclkit run: 16 vs 6 kernels',
      'syclkit explain: 16 vs 6 kernels',
      'syclkit inspect -kernel: 16 vs 6 kernels',
      'syclkit inspect (whole binary): 16 vs 6 kernels',
      'syclkit check, 3 devices',
    ]);
    const first = report.cases[0].comparison.commands.map((c: { label: string }) => c.label);
    expect(first).toEqual(['syclkit compile per_kernel', 'syclkit compile auto', 'file-creation floor', 'llvm-16 opt -S']);
    const compile = seen.find((a) => a.includes('-fsycl-device-code-split=per_kernel'))!;
    expect(compile).toContain('-fsycl-targets=spir64,intel_gpu_pvc,nvidia_gpu_sm_80');
    // images stay device IR: llvm-spirv's process per image is measured apart
    expect(compile).toContain('-fsycl-device-obj=llvmir');
    const floor = seen.find((a) => a.includes('create-files'))!;
    const countFile = floor[floor.indexOf('--from') + 1]!;
    expect(floor).toContain('--dir');
    // the floor's count (written by the per_kernel run of the same round) was 3 files per image and a table per target
    expect(report.findings.some((f: string) => /^8 kernels: per_kernel binary [\d.]+ \w+; the floor created 75 files of /.test(f))).toBe(true);
    expect(existsSync(countFile)).toBe(false); // the benchmark's work directory is gone
    expect(report.findings.some((f: string) => /^target \(syclkit run of one kernel on 16 kernels <= 1\.5x its time on 6\): met \(1\.00x\)$/.test(f))).toBe(true);
    expect(report.findings.some((f: string) => /^target \(compile per_kernel growth exponent <= 1\.1 from 1k to 16k kernels\): met \(1\.00 over 8, 16\)$/.test(f))).toBe(true);
    const check = report.cases.at(-1).comparison.commands.map((c: { label: string }) => c.label);
    expect(check).toEqual(['check 16 kernels', 'check 8 kernels', 'check 6 kernels']);
    expect(seen.find((a) => a.includes('check'))).toContain('intel_gpu_pvc,nvidia_gpu_sm_80,intel_gpu_dg1');
  });
});

describe('run compile-scaling --compile-flag', () => {
  it('adds each flag, split on whitespace, to every compile (both splits and the 6-kernel binary), before -o', async () => {
    const seen: string[][] = [];
    const runner: Runner = async (argv) => {
      seen.push([...argv]);
      if (argv.includes('compile')) {
        const kernels = Number(/-k(\d+)-/.exec(argv.find((a) => a.endsWith('.ll'))!)![1]);
        writeFileSync(argv[argv.indexOf('-o') + 1]!, container(2, scalingTargets.map((t) => [t, kernels])));
      }
      return ok;
    };
    const io = { stdout: { write: () => {} }, stderr: { write: () => {} } };
    const args = ['run', 'compile-scaling', '--sizes', '8', '--cache-dir', tempDir(), '--out-dir', tempDir(), '--json', '--compile-flag', '-aot nvidia_gpu_sm_80=ir', '--compile-flag', '-j 1'];
    expect(await main(args, io, { runner, memory: { kind: 'none', reason: 'test' } })).toBe(0);
    const compiles = seen.filter((a) => a.includes('compile'));
    expect(compiles.length).toBeGreaterThanOrEqual(3);
    for (const argv of compiles) {
      const o = argv.indexOf('-o');
      expect(argv.slice(o - 4, o)).toEqual(['-aot', 'nvidia_gpu_sm_80=ir', '-j', '1']);
    }
    expect(seen.filter((a) => !a.includes('compile')).some((a) => a.includes('-aot'))).toBe(false);
  });
});

describe('run read-scaling', () => {
  it('reads the binaries of a folder: one kernel of the biggest vs 6 kernels, and check of each', async () => {
    const dir = tempDir();
    for (const kernels of [8, 16]) writeFileSync(join(dir, `k${kernels}.fatbin`), container(2, scalingTargets.map((t) => [t, kernels])));
    writeFileSync(join(dir, 'k6.fatbin'), container(2, scalingTargets.map((t) => [t, 6])));
    const seen: string[][] = [];
    const runner: Runner = async (argv) => {
      seen.push([...argv]);
      return ok;
    };
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => void out.push(s) }, stderr: { write: () => {} } };
    const code = await main(['run', 'read-scaling', '--binaries', dir, '--cache-dir', tempDir(), '--runs', '1', '--warmup', '0', '--json'], io, { runner, memory: { kind: 'none', reason: 'test' } });
    expect(code).toBe(0);
    const report = JSON.parse(out.join(''));
    expect(report.cases.map((c: { name: string }) => c.name)).toEqual([
      'syclkit run: 16 vs 6 kernels',
      'syclkit explain: 16 vs 6 kernels',
      'syclkit inspect -kernel: 16 vs 6 kernels',
      'syclkit inspect (whole binary): 16 vs 6 kernels',
      'syclkit check, 3 devices',
    ]);
    expect(seen.some((a) => a.includes('compile'))).toBe(false); // the 6-kernel binary was there
    expect(report.cases.at(-1).comparison.commands.map((c: { label: string }) => c.label)).toEqual(['check 16 kernels', 'check 8 kernels', 'check 6 kernels']);
  });

  it('measures explain with "does not use" (exit 1) accepted when no kernel uses an aspect in both binaries', async () => {
    const dir = tempDir();
    for (const kernels of [6, 16]) writeFileSync(join(dir, `k${kernels}.fatbin`), container(2, scalingTargets.map((t) => [t, kernels])));
    const runner: Runner = async (argv) => ({ ...ok, exitCode: argv.includes('explain') ? 1 : 0 });
    const out: string[] = [];
    const io = { stdout: { write: (s: string) => void out.push(s) }, stderr: { write: () => {} } };
    expect(await main(['run', 'read-scaling', '--binaries', dir, '--cache-dir', tempDir(), '--runs', '1', '--warmup', '0', '--json'], io, { runner, memory: { kind: 'none', reason: 'test' } })).toBe(0);
    const report = JSON.parse(out.join(''));
    const explain = report.cases.find((c: { name: string }) => c.name === 'syclkit explain: 16 vs 6 kernels');
    expect(explain.comparison.commands.map((c: { failure?: unknown; argv: string[] }) => [c.failure ?? null, c.argv.at(-1)])).toEqual([
      [null, '6'],
      [null, '6'],
    ]);
    expect(report.findings.some((f: string) => /^syclkit explain: no kernel both binaries define uses an aspect in both; measured with \S+ and fp64/.test(f))).toBe(true);
  });

  it('needs --binaries with at least one binary to read', async () => {
    const err: string[] = [];
    const io = { stdout: { write: () => {} }, stderr: { write: (s: string) => void err.push(s) } };
    expect(await main(['run', 'read-scaling'], io, { runner: async () => ok, memory: { kind: 'none', reason: 'test' } })).toBe(2);
    expect(err.join('')).toMatch(/read-scaling needs --binaries DIR/);
    expect(await main(['run', 'read-scaling', '--binaries', tempDir()], io, { runner: async () => ok, memory: { kind: 'none', reason: 'test' } })).toBe(2);
    expect(err.join('')).toMatch(/holds no k<N>\.fatbin to read/);
  });
});

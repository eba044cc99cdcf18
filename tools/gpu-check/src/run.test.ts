import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoDriver, writeFixture } from '../test/fixture.js';
import { runGpuCheck } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'gpu-check-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFixture(dir);
const ptxas = existsSync('/usr/local/cuda/bin/ptxas') ? '/usr/local/cuda/bin/ptxas' : false;

async function transcript(wrong?: string) {
  const lines: string[] = [];
  const out = join(dir, `out-${wrong ?? 'right'}`);
  const report = await runGpuCheck({ input: dir, out, driver: demoDriver(wrong), ptxas, timings: false, log: (line) => lines.push(line) });
  return { report, text: lines.join('\n'), out };
}

describe('gpu-check run (fake driver, hand-written PTX)', () => {
  it('passes when the device computes what JavaScript computes, and says what it checked', async () => {
    const { report, text, out } = await transcript();
    expect(text).toContain('→ target nvidia_gpu_sm_90 (also nvidia_gpu_sm_90a)');
    expect(text).toMatch(/ok {3}Integrate {7}image demo_0, grid 4x1x1 block 1024x1x1, .*: 4096\/4096 bit-identical/);
    expect(text).toMatch(/ok {3}HalfHistogram {3}image shade, grid 1x1x1 block 64x1x1/);
    expect(text).toContain('ok   per_kernel and auto: 5 of 5 kernels give byte-identical results');
    expect(text).toContain('ok   SubgroupReduce: kernel_not_supported: Sub-group size 8 is not supported on the device; driver calls during the submission: none');
    expect(text).toContain('gpu-check: all checks passed');
    expect(report.ok).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8'))).toMatchObject({ ok: true, splitsAgree: true });
    if (ptxas !== false) {
      expect(text).toMatch(/10 images checked with .* 0 rejected/);
      expect(readFileSync(join(out, 'ptxas.log'), 'utf8')).toContain('ok   demo-per_kernel.fatbin:demo_0');
    }
  });

  it('fails, naming the kernel and the first differing element, when the device result is wrong', async () => {
    const { report, text } = await transcript('_ZTS13ScaleVelocity');
    expect(text).toMatch(/FAIL ScaleVelocity .*4095\/4096 bit-identical, .*first mismatch at \[0\]/);
    expect(report.failures).toContain('ScaleVelocity (per_kernel) differs from the host');
    expect(text).toContain('gpu-check: 2 check(s) failed');
    expect(report.ok).toBe(false);
  });
});

// The built command line, the koffi binding and the child processes, against the C stand-in for
// libcuda (which runs no kernel, so the comparisons fail: what matters is that every step runs).
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const hasCc = spawnSync('cc', ['--version']).status === 0;
describe.skipIf(!hasCc || !existsSync(cli))('gpu-check run from the command line, fake libcuda through koffi', () => {
  it('runs every step, timings in child processes included, and writes the reports', () => {
    const library = join(dir, 'libcuda.so.1');
    execFileSync('cc', ['-shared', '-fPIC', '-o', library, fileURLToPath(new URL('../../../packages/runtime/test/fake-libcuda/fake_libcuda.c', import.meta.url))]);
    const out = join(dir, 'cli-out');
    const result = spawnSync(process.execPath, [cli, 'run', '--in', dir, '--out', out, '--library', library, ...(ptxas === false ? ['--ptxas', '/nonexistent'] : [])], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('Fake H100 (syclkit fake libcuda): compute capability 9.0 → target nvidia_gpu_sm_90');
    expect(result.stdout).toMatch(/FAIL Integrate {7}image demo_0/);
    expect(result.stdout).toContain('ok   SubgroupReduce: kernel_not_supported: Sub-group size 8 is not supported on the device; driver calls during the submission: none');
    expect(result.stdout).toMatch(/bench-off\.fatbin: 1 images; cold median [\d.]+ ms \(driver's JIT 0\.25 ms;/);
    expect(result.stdout).toMatch(/cold {7}per_kernel 2 images: first launch done [\d.]+ ms after registration \(build [\d.]+ ms of image bench_0/);
    expect(result.stdout).toMatch(/disk cache off {8}1 images: first launch done/);
    expect(readFileSync(join(out, 'jit-times.tsv'), 'utf8').split('\n')[0]).toBe('fatbin\timage\tkernels\tptx_bytes\tcold_ms\tcold_driver_jit_ms\tdisk_cache_ms\tprogram_cache_ms');
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8')).firstLaunch).toHaveLength(4);
  });
});

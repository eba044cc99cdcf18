import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_PRINTF_LINES, demoDriver, writeFixture } from '../test/fixture.js';
import { printfCheck, runGpuCheck } from './run.js';

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
    expect(text).toContain('ok   _ZTS2K2 (generated module, reqd_sub_group_size(16)): kernel_not_supported: Sub-group size 16 is not supported on the device; driver calls during the submission: none');
    expect(text).toContain('gpu-check: all checks passed');
    expect(report.ok).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8'))).toMatchObject({ ok: true, splitsAgree: true });
    if (ptxas !== false) {
      expect(text).toMatch(/11 images checked with .* 0 rejected/);
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

describe('printfCheck: the device printf lines against the host emulation', () => {
  const emulation = (inOrder: number, reversed: number, isolated: number) => ({
    workItems: 1024,
    steps: 1,
    printfCalls: inOrder,
    complete: true,
    printf: { inOrder, reversed, isolated, scheduleIndependent: inOrder > 0 && inOrder === reversed && reversed === isolated },
  });
  it('requires exactly the emulated count when it is the same in every order of the work-items', () => {
    expect(printfCheck(684, emulation(684, 684, 684))).toEqual({ ok: true, text: 'device printf 684 lines, host emulation 684 calls (the same in order, reversed and each work-item alone)' });
    expect(printfCheck(683, emulation(684, 684, 684)).ok).toBe(false);
    expect(printfCheck(0, emulation(684, 684, 684)).ok).toBe(false);
  });
  it('only reports the count where the emulation says it depends on the order (run 2: 0 lines, 1500 in order)', () => {
    expect(printfCheck(0, emulation(1500, 0, 0))).toEqual({
      ok: undefined,
      text: "device printf 0 lines (not compared: the host emulation's count depends on the order of the work-items: 1500 in order, 0 reversed, 0 each alone)",
    });
    expect(printfCheck(7, { workItems: 1024, steps: 1, printfCalls: 1500, complete: true }).ok).toBeUndefined();
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
    // The fake libcuda prints the first-launch kernel's printf lines at synchronization, as the driver does.
    const result = spawnSync(process.execPath, [cli, 'run', '--in', dir, '--out', out, '--library', library, ...(ptxas === false ? ['--ptxas', '/nonexistent'] : [])], {
      encoding: 'utf8',
      env: { ...process.env, FAKE_CUDA_PRINTF: `_ZTS2K0:${FIXTURE_PRINTF_LINES},syclkit_printf_probe_const:4,syclkit_printf_probe_global:4` },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('Fake H100 (syclkit fake libcuda): compute capability 9.0 → target nvidia_gpu_sm_90');
    expect(result.stdout).toMatch(/FAIL Integrate {7}image demo_0/);
    expect(result.stdout).toContain('ok   SubgroupReduce: kernel_not_supported: Sub-group size 8 is not supported on the device; driver calls during the submission: none');
    expect(result.stdout).toMatch(/bench-off\.fatbin: 1 images; cold median [\d.]+ ms \(driver's JIT 0\.25 ms;/);
    expect(result.stdout).toMatch(/bench-per_kernel\.fatbin: 3 images; cold median/);
    expect(result.stdout).not.toContain('did not build');
    expect(result.stdout).toMatch(/cold {7}per_kernel 3 images: first launch done [\d.]+ ms after registration \(build [\d.]+ ms of image bench_0/);
    expect(result.stdout).toMatch(/disk cache off {8}1 images: first launch done/);
    expect(result.stdout).toContain('kernel _ZTS2K0 (1 kernels before it passed over; the first: prints nothing)');
    for (const run of ['cold, per_kernel', 'cold, off', 'disk cache, per_kernel', 'disk cache, off']) {
      expect(result.stdout).toContain(`ok   device printf (${run}): device printf 3 lines, host emulation 3 calls (the same in order, reversed and each work-item alone); the first: "[fake device printf] 0"`);
    }
    expect(result.stdout).not.toContain('FAIL device printf');
    expect(result.stdout).toContain('ok   device printf probe, format in .const (hand-written PTX, 4 threads): 4 lines; the first: "[fake device printf] 0"');
    expect(result.stdout).toContain('ok   device printf probe, format in .global (hand-written PTX, 4 threads): 4 lines');
    expect(readFileSync(join(out, 'jit-times.tsv'), 'utf8').split('\n')[0]).toBe('fatbin\timage\tkernels\tptx_bytes\tcold_ms\tcold_driver_jit_ms\tdisk_cache_ms\tprogram_cache_ms');
    const json = JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8')) as { firstLaunch: { printedLines: number; printfChecked: boolean }[] };
    expect(json.firstLaunch).toHaveLength(4);
    expect(json.firstLaunch.map((f) => [f.printedLines, f.printfChecked])).toEqual(new Array(4).fill([3, true]));
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8')).printfProbe).toEqual({ const: 4, global: 4 });
  });

  it('fails when the device prints another number of printf lines than the emulation counted (run 2: none)', () => {
    const library = join(dir, 'libcuda.so.1');
    if (!existsSync(library)) execFileSync('cc', ['-shared', '-fPIC', '-o', library, fileURLToPath(new URL('../../../packages/runtime/test/fake-libcuda/fake_libcuda.c', import.meta.url))]);
    const out = join(dir, 'cli-printf');
    const result = spawnSync(process.execPath, [cli, 'run', '--in', dir, '--out', out, '--library', library, '--ptxas', '/nonexistent'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('FAIL device printf (cold, per_kernel): device printf 0 lines, host emulation 3 calls (the same in order, reversed and each work-item alone)');
    expect(result.stdout).toContain('FAIL device printf (disk cache, off): device printf 0 lines');
    expect(result.stdout).toContain('FAIL device printf probe, format in .const (hand-written PTX, 4 threads): 0 lines');
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8')).failures).toContain('device printf (cold, off): device printf 0 lines, host emulation 3 calls (the same in order, reversed and each work-item alone)');
  });

  it('runs a launch that faults again under compute-sanitizer memcheck, once, and keeps its report', () => {
    const library = join(dir, 'libcuda.so.1');
    if (!existsSync(library)) execFileSync('cc', ['-shared', '-fPIC', '-o', library, fileURLToPath(new URL('../../../packages/runtime/test/fake-libcuda/fake_libcuda.c', import.meta.url))]);
    // A stand-in for compute-sanitizer: runs the command, then writes a report shaped like memcheck's.
    const sanitizer = join(dir, 'fake-compute-sanitizer');
    writeFileSync(
      sanitizer,
      [
        '#!/bin/sh',
        'if [ "$1" = "--version" ]; then echo "fake compute-sanitizer"; exit 0; fi',
        'log=""',
        'while [ $# -gt 0 ]; do case "$1" in --log-file) log="$2"; shift 2;; --tool|--print-limit) shift 2;; *) break;; esac; done',
        'echo "$*" > "$log.command"',
        '"$@"; status=$?',
        'printf "========= COMPUTE-SANITIZER\n========= Invalid __local__ read of size 4 bytes\n=========     at _ZL11interp_2095PU3AS4flf+0x1b0\n=========     by thread (4,0,0) in block (0,0,0)\n=========     Address 0xfffcd0 is out of bounds\n=========     Saved host backtrace up to driver entry point at kernel launch time\n=========         Host Frame: cuLaunchKernel\n========= ERROR SUMMARY: 1 error\n" > "$log"',
        'exit $status',
      ].join('\n'),
      { mode: 0o755 },
    );
    const out = join(dir, 'cli-fault');
    const result = spawnSync(process.execPath, [cli, 'run', '--in', dir, '--out', out, '--library', library, '--ptxas', '/nonexistent', '--sanitizer', sanitizer], {
      encoding: 'utf8',
      env: { ...process.env, FAKE_CUDA_FAULT_KERNEL: '_ZTS2K0' },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'FAIL first launch (cold, per_kernel): child first-launch failed (2): gpu-check: error: CUDA device Fake H100 (syclkit fake libcuda): cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)',
    );
    expect(result.stdout).toContain(`  CUDA_ERROR_ILLEGAL_ADDRESS: running first-launch per_kernel again under ${sanitizer} --tool memcheck`);
    expect(result.stdout).toMatch(/ {2}memcheck \([\d.]+ s, exit 2\), report memcheck-first-launch-per_kernel\.txt:\n {4}Invalid __local__ read of size 4 bytes\n {4}by thread \(4,0,0\) in block \(0,0,0\)\n {4}Address 0xfffcd0 is out of bounds\n {4}ERROR SUMMARY: 1 error\n/);
    // The other faulting children are not run again: one report is enough, and the budget is shared.
    expect(result.stdout.match(/running .* again under/g)).toHaveLength(1);
    expect(result.stdout).toContain('FAIL first launch (cold, off): child first-launch failed (2)');
    const report = readFileSync(join(out, 'memcheck-first-launch-per_kernel.txt'), 'utf8');
    expect(report).toContain('========= ERROR SUMMARY: 1 error');
    expect(report).toContain('--- exit status 2');
    expect(report).toContain('cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS');
    expect(readFileSync(join(out, 'memcheck-first-launch-per_kernel.txt.command'), 'utf8')).toMatch(/cli\.js child first-launch .*bench-per_kernel\.fatbin nvidia_gpu_sm_90 _ZTS2K0 .*bench-params\.json/);
    const json = JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8')) as { memcheck: { what: string; fault: string; report: string; status: number }[] };
    expect(json.memcheck).toEqual([expect.objectContaining({ what: 'first-launch per_kernel', fault: 'CUDA_ERROR_ILLEGAL_ADDRESS', report: 'memcheck-first-launch-per_kernel.txt', status: 2 })]);
  });

  it('stops the timing children when the time budget is spent, and still writes the reports', () => {
    const library = join(dir, 'libcuda.so.1');
    const out = join(dir, 'cli-budget');
    const result = spawnSync(process.execPath, [cli, 'run', '--in', dir, '--out', out, '--library', library, '--ptxas', '/nonexistent', '--budget', '0'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('FAIL first launch (cold, per_kernel): the time budget is spent: child first-launch not started');
    expect(result.stdout).toContain('FAIL JIT times of bench-off.fatbin: the time budget is spent: child jit-times not started');
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8')).ok).toBe(false);
  });
});

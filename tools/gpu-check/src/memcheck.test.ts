import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findSanitizer, kernelFault, memcheckSummary } from './memcheck.js';

const dir = mkdtempSync(join(tmpdir(), 'gpu-check-memcheck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('memcheck', () => {
  it('recognizes the driver errors of a faulting kernel, and only those', () => {
    expect(kernelFault('cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)')).toBe('CUDA_ERROR_ILLEGAL_ADDRESS');
    expect(kernelFault('CUDA_ERROR_MISALIGNED_ADDRESS')).toBe('CUDA_ERROR_MISALIGNED_ADDRESS');
    expect(kernelFault('cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED')).toBe('CUDA_ERROR_LAUNCH_FAILED');
    expect(kernelFault('CUDA_ERROR_ASSERT (device-side assert triggered)')).toBe('CUDA_ERROR_ASSERT');
    expect(kernelFault('cuModuleLoadDataEx returned CUDA_ERROR_INVALID_PTX')).toBeUndefined();
    expect(kernelFault('the time budget is spent')).toBeUndefined();
  });

  it('keeps the lines of a report that say what happened, without the backtraces', () => {
    const report = [
      '========= COMPUTE-SANITIZER',
      '========= Invalid __local__ write of size 4 bytes',
      '=========     at _ZL12stencil_2268PU3AS4flf+0x90',
      '=========     by thread (300,0,0) in block (0,0,0)',
      '=========     Address 0xfffd40 is out of bounds',
      '=========     Device Frame:_ZL11interp_2095PU3AS4flf+0x200',
      '=========     Saved host backtrace up to driver entry point at kernel launch time',
      '=========         Host Frame: cuLaunchKernel [0x2f] in libcuda.so.1',
      '=========',
      '========= ERROR SUMMARY: 1 error',
    ].join('\n');
    expect(memcheckSummary(report)).toEqual([
      'Invalid __local__ write of size 4 bytes',
      'by thread (300,0,0) in block (0,0,0)',
      'Address 0xfffd40 is out of bounds',
      'Device Frame:_ZL11interp_2095PU3AS4flf+0x200',
      'ERROR SUMMARY: 1 error',
    ]);
    expect(memcheckSummary(report, 2)).toHaveLength(2);
  });

  it('finds compute-sanitizer where it is given, in $COMPUTE_SANITIZER or on PATH, and only if it runs', () => {
    const tool = join(dir, 'compute-sanitizer');
    writeFileSync(tool, '#!/bin/sh\necho "NVIDIA (R) Compute Sanitizer"\n', { mode: 0o755 });
    const broken = join(dir, 'broken');
    writeFileSync(broken, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const empty = { PATH: '/nonexistent' };
    expect(findSanitizer(tool, empty)).toBe(tool);
    expect(findSanitizer(false, { PATH: dir })).toBeUndefined();
    expect(findSanitizer(undefined, { PATH: `/nonexistent:${dir}` })).toBe(existsAtDefault() ?? tool);
    expect(findSanitizer(undefined, { PATH: '/nonexistent', COMPUTE_SANITIZER: tool })).toBe(tool);
    expect(findSanitizer(broken, empty)).toBeUndefined();
  });
});

/** A real compute-sanitizer at the default place wins over PATH (not on CI machines without CUDA's tools). */
function existsAtDefault(): string | undefined {
  return findSanitizer(undefined, { PATH: '/nonexistent' });
}

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deviceTraitsHeader } from '@syclkit/device-config';
import { runSyclkit } from '../../test/testing.js';

async function run(...argv: string[]) {
  return runSyclkit(['macros', ...argv]);
}

const dir = mkdtempSync(join(tmpdir(), 'syclkit-macros-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('syclkit macros', () => {
  it('prints one -D<NAME>=<value> per line for intel_gpu_pvc', async () => {
    const { code, out, err } = await run('-fsycl-targets=intel_gpu_pvc');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toBe(
      [
        '-D__SYCL_TARGET_INTEL_GPU_PVC__=1',
        '-D__SYCL_ANY_DEVICE_HAS_atomic64__=1',
        '-D__SYCL_ANY_DEVICE_HAS_ext_intel_esimd__=1',
        '-D__SYCL_ANY_DEVICE_HAS_fp16__=1',
        '-D__SYCL_ANY_DEVICE_HAS_fp64__=1',
        '-D__SYCL_ALL_DEVICES_HAVE_atomic64__=1',
        '-D__SYCL_ALL_DEVICES_HAVE_ext_intel_esimd__=1',
        '-D__SYCL_ALL_DEVICES_HAVE_fp16__=1',
        '-D__SYCL_ALL_DEVICES_HAVE_fp64__=1',
        '',
      ].join('\n'),
    );
  });

  it('defaults to spir64, as the driver does with -fsycl alone', async () => {
    expect((await run()).out).toBe('-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1\n');
  });

  it('uses the current __SYCL_TARGET_ spelling for NVIDIA and AMD targets', async () => {
    const { out } = await run('-fsycl-targets=nvidia_gpu_sm_80,amd_gpu_gfx90a');
    expect(out.split('\n').slice(0, 3)).toEqual(['-D__SYCL_TARGET_NVIDIA_GPU_SM_80__=1', '-D__SYCL_TARGET_AMD_GPU_GFX90A__=1', '-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1']);
    expect(out).toContain('-D__SYCL_ALL_DEVICES_HAVE_fp64__=1\n');
    expect(out).not.toContain('ALL_DEVICES_HAVE_fp16');
  });

  it('warns about a repeated target and drops it', async () => {
    const { code, out, err } = await run('-fsycl-targets=intel_gpu_tgllp,intel_gpu_12_0_0');
    expect(code).toBe(0);
    expect(err).toBe("syclkit macros: warning: SYCL offloading target 'intel_gpu_12_0_0' is similar to target 'intel_gpu_tgllp' already specified; will be ignored\n");
    expect(out.split('\n').filter((l) => l.startsWith('-D__SYCL_TARGET_'))).toEqual(['-D__SYCL_TARGET_INTEL_GPU_TGLLP__=1']);
  });

  it('fails on unknown targets with a suggestion and prints no macros', async () => {
    const { code, out, err } = await run('-fsycl-targets=intel_gpu_pvcc,spir64');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe("syclkit macros: error: SYCL target is invalid: 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'?\n");
  });

  it('fails when spir64_gen is mixed with Intel GPU device names', async () => {
    const { code, err } = await run('-fsycl-targets=spir64_gen,intel_gpu_dg1');
    expect(code).toBe(1);
    expect(err).toContain("'spir64_gen' cannot be combined with Intel GPU device names");
  });

  it('follows a configuration file that overrides a target', async () => {
    const config = file('dg1.yaml', 'intel_gpu_dg1:\n  aspects: [fp64]\n  sub-group-sizes: [8]\n');
    const { code, out } = await run('-fsycl-targets=intel_gpu_dg1', `-fsycl-device-config-file=${config}`);
    expect(code).toBe(0);
    expect(out).toBe('-D__SYCL_TARGET_INTEL_GPU_DG1__=1\n-D__SYCL_ANY_DEVICE_HAS_fp64__=1\n-D__SYCL_ALL_DEVICES_HAVE_fp64__=1\n');
  });

  it('accepts a target that only the configuration file defines', async () => {
    const config = file('new.yaml', 'intel_gpu_35_20_1:\n  aspects: [fp16]\n  sub-group-sizes: [16]\n');
    const { code, out } = await run('-fsycl-targets=intel_gpu_35_20_1', `-fsycl-device-config-file=${config}`);
    expect(code).toBe(0);
    // No __SYCL_TARGET_ macro: the architecture enum has no enumerator for this device.
    expect(out).toBe('-D__SYCL_ANY_DEVICE_HAS_fp16__=1\n-D__SYCL_ALL_DEVICES_HAVE_fp16__=1\n');
  });

  it('fails on a bad configuration file with file:line:col', async () => {
    const config = file('bad.yaml', 'intel_gpu_dg1:\n  aspects: [fp64]\n');
    const { code, out, err } = await run('-fsycl-targets=intel_gpu_dg1', `-fsycl-device-config-file=${config}`);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`${config}:1:1: error: target 'intel_gpu_dg1' is missing the required key 'sub-group-sizes'\n`);
  });

  it('switches to intel/llvm driver semantics on request', async () => {
    const design = await run('-fsycl-targets=intel_gpu_pvc,intel_gpu_bmg_g21');
    const driver = await run('-fsycl-targets=intel_gpu_pvc,intel_gpu_bmg_g21', '-trait-semantics=intel-llvm');
    expect(design.out).toContain('-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1');
    expect(design.out).not.toContain('ALL_DEVICES_HAVE');
    expect(driver.out).not.toContain('ANY_ASPECT');
    expect(driver.out).toContain('-D__SYCL_ALL_DEVICES_HAVE_fp64__=1');
  });

  it('rejects an unknown semantics name', async () => {
    const { code, err } = await run('-trait-semantics=clang');
    expect(code).toBe(1);
    expect(err).toBe("syclkit macros: error: invalid value 'clang' for '-trait-semantics'; expected design or intel-llvm\n");
  });

  it('rejects positional arguments, pointing at -fsycl-targets', async () => {
    const { code, err } = await run('intel_gpu_pvc');
    expect(code).toBe(1);
    expect(err).toContain("unexpected argument 'intel_gpu_pvc'");
  });

  it('writes the traits header when asked', async () => {
    const path = join(dir, 'traits.hpp');
    const { code } = await run('-fsycl-targets=intel_gpu_pvc', `-traits-header=${path}`);
    expect(code).toBe(0);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(deviceTraitsHeader());
  });

  it('documents its options and semantics in --help', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    for (const text of ['-fsycl-targets=<list>', '-fsycl-device-config-file=<file.yaml>', '-trait-semantics=<design|intel-llvm>', '-traits-header=<file>', 'default: spir64']) {
      expect(out).toContain(text);
    }
  });
});

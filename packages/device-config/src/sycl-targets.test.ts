import { describe, expect, it } from 'vitest';
import { DeviceConfig } from './config.js';
import { formatMacroFlags, parseSyclTargets, selectAotTargets, syclTargetMacroName, syclTargetMacros } from './sycl-targets.js';

const config = DeviceConfig.builtin();
const names = (value: string) => parseSyclTargets(config, value).targets.map((t) => t.name);
const codes = (value: string) => parseSyclTargets(config, value).diagnostics.map((d) => `${d.severity}:${d.code}`);

describe('parseSyclTargets', () => {
  it('accepts device names, aliases and triples in order', () => {
    expect(names('intel_gpu_pvc,intel_gpu_9_0_9,nvidia_gpu_sm_80,amd_gpu_gfx90a,spir64,spir64_x86_64,nvptx64-nvidia-cuda,amdgcn-amd-amdhsa')).toEqual([
      'intel_gpu_pvc',
      'intel_gpu_skl',
      'nvidia_gpu_sm_80',
      'amd_gpu_gfx90a',
      'spir64',
      'spir64_x86_64',
      'nvptx64-nvidia-cuda',
      'amdgcn-amd-amdhsa',
    ]);
    expect(codes('intel_gpu_pvc,spir64')).toEqual([]);
  });

  it('rejects an unknown name with the driver message and a suggestion', () => {
    const result = parseSyclTargets(config, 'intel_gpu_pvcc');
    expect(result.targets).toEqual([]);
    expect(result.diagnostics).toEqual([
      { severity: 'error', code: 'invalid-target', message: "SYCL target is invalid: 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'?", notes: [], fatal: false },
    ]);
  });

  it('rejects empty pieces of the list', () => {
    expect(codes('spir64,,intel_gpu_pvc')).toEqual(['error:invalid-target']);
    expect(parseSyclTargets(config, 'spir64,').diagnostics[0]?.message).toBe("empty target name in '-fsycl-targets=spir64,'");
  });

  it('warns about an empty value and returns no targets', () => {
    expect(parseSyclTargets(config, '')).toEqual({
      targets: [],
      diagnostics: [{ severity: 'warning', code: 'empty-target-list', message: "joined argument expects additional value: '-fsycl-targets='", notes: [], fatal: false }],
    });
  });

  it('drops a repeated triple, also when spelled differently, with the driver warning', () => {
    const result = parseSyclTargets(config, 'spir64,spir64-unknown-unknown');
    expect(result.targets.map((t) => t.spelling)).toEqual(['spir64']);
    expect(result.diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'duplicate-target',
        message: "SYCL offloading target 'spir64-unknown-unknown' is similar to target 'spir64' already specified; will be ignored",
        notes: [],
        fatal: false,
      },
    ]);
  });

  it('drops an alias of a device already listed', () => {
    expect(names('intel_gpu_tgllp,intel_gpu_12_0_0,intel_gpu_tgl')).toEqual(['intel_gpu_tgllp']);
    expect(codes('intel_gpu_tgllp,intel_gpu_12_0_0,intel_gpu_tgl')).toEqual(['warning:duplicate-target', 'warning:duplicate-target']);
  });

  it('keeps a device and the generic triple of another vendor apart', () => {
    expect(names('nvidia_gpu_sm_80,nvptx64-nvidia-cuda')).toEqual(['nvidia_gpu_sm_80', 'nvptx64-nvidia-cuda']);
  });

  it('rejects spir64_gen together with Intel GPU device names (DeviceIf.md)', () => {
    const result = parseSyclTargets(config, 'spir64_gen,intel_gpu_dg1');
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'spir64-gen-with-devices',
        message: "'spir64_gen' cannot be combined with Intel GPU device names ('intel_gpu_dg1') in '-fsycl-targets'; list the devices only",
        notes: [],
        fatal: false,
      },
    ]);
    expect(codes('spir64_gen,nvidia_gpu_sm_80')).toEqual([]);
  });

  it('names the option it parses in messages', () => {
    expect(parseSyclTargets(config, 'spir64_gen,intel_gpu_dg1', { option: '-fsycl-fixed-targets' }).diagnostics[0]?.message).toContain("in '-fsycl-fixed-targets'");
  });

  it('accepts names that only a configuration file defines', () => {
    const extended = config.withEntries([
      { name: 'my_fpga', aspects: [], maySupportOtherAspects: false, subGroupSizes: [], aotToolchain: '', aotToolchainOptions: [], source: { kind: 'builtin' } },
    ]);
    expect(parseSyclTargets(extended, 'my_fpga').targets.map((t) => t.kind)).toEqual(['custom']);
    expect(codes('my_fpga')).toEqual(['error:invalid-target']);
  });
});

describe('selectAotTargets', () => {
  const list = (value: string) => parseSyclTargets(config, value).targets;

  it('compiles everything when there are no fixed targets', () => {
    const selection = selectAotTargets(list('intel_gpu_pvc,intel_gpu_dg1'), undefined);
    expect(selection.compiled.map((t) => t.name)).toEqual(['intel_gpu_pvc', 'intel_gpu_dg1']);
    expect(selection.skipped).toEqual([]);
  });

  it('AOT-compiles only the intersection with the fixed targets, matching aliases', () => {
    const selection = selectAotTargets(list('intel_gpu_pvc,intel_gpu_dg1,nvidia_gpu_sm_80'), list('intel_gpu_12_60_7,nvidia_gpu_sm_80'));
    expect(selection.compiled.map((t) => t.name)).toEqual(['intel_gpu_pvc', 'nvidia_gpu_sm_80']);
    expect(selection.skipped.map((t) => t.name)).toEqual(['intel_gpu_dg1']);
    expect(selection.diagnostics.map((d) => d.code)).toEqual(['target-not-fixed']);
  });

  it('keeps JIT targets whatever the fixed targets are', () => {
    const selection = selectAotTargets(list('spir64,intel_gpu_dg1'), list('intel_gpu_pvc'));
    expect(selection.compiled.map((t) => t.name)).toEqual(['spir64']);
  });
});

describe('__SYCL_TARGET_<NAME>__ macros', () => {
  const macro = (value: string) => syclTargetMacroName(config, parseSyclTargets(config, value).targets[0]!);

  it('uses the current driver spelling', () => {
    expect(macro('intel_gpu_pvc')).toBe('__SYCL_TARGET_INTEL_GPU_PVC__');
    expect(macro('intel_gpu_12_60_7')).toBe('__SYCL_TARGET_INTEL_GPU_PVC__');
    expect(macro('intel_gpu_mtl_s')).toBe('__SYCL_TARGET_INTEL_GPU_MTL_U__');
    expect(macro('nvidia_gpu_sm_80')).toBe('__SYCL_TARGET_NVIDIA_GPU_SM_80__');
    expect(macro('nvidia_gpu_sm_90a')).toBe('__SYCL_TARGET_NVIDIA_GPU_SM_90A__');
    expect(macro('amd_gpu_gfx90a')).toBe('__SYCL_TARGET_AMD_GPU_GFX90A__');
    expect(macro('spir64_x86_64')).toBe('__SYCL_TARGET_INTEL_X86_64__');
  });

  it('defines none for JIT and generic triples', () => {
    expect(macro('spir64')).toBeUndefined();
    expect(macro('spir64_gen')).toBeUndefined();
    expect(macro('nvptx64-nvidia-cuda')).toBeUndefined();
  });

  it('lists each macro once, in target order, with value 1', () => {
    const targets = parseSyclTargets(config, 'amd_gpu_gfx90a,spir64,intel_gpu_pvc').targets;
    expect(formatMacroFlags(syclTargetMacros(config, targets))).toEqual(['-D__SYCL_TARGET_AMD_GPU_GFX90A__=1', '-D__SYCL_TARGET_INTEL_GPU_PVC__=1']);
  });
});

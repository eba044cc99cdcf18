import { describe, expect, it } from 'vitest';
import type { TargetConfigEntry } from './config-entry.js';
import { DeviceConfig } from './config.js';

const builtin = DeviceConfig.builtin();

function userEntry(name: string, aspects: string[] = [], subGroupSizes: number[] = [8]): TargetConfigEntry {
  return { name, aspects, maySupportOtherAspects: false, subGroupSizes, aotToolchain: '', aotToolchainOptions: [], source: { kind: 'builtin' } };
}

describe('DeviceConfig.resolve', () => {
  it('resolves device names and aliases to the canonical device', () => {
    for (const spelling of ['intel_gpu_tgllp', 'intel_gpu_tgl', 'intel_gpu_12_0_0']) {
      const target = builtin.resolve(spelling);
      expect(target?.name, spelling).toBe('intel_gpu_tgllp');
      expect(target?.spelling).toBe(spelling);
      expect(target?.triple).toBe('spir64_gen-unknown-unknown');
      expect(target?.offloadArch).toBe('tgllp');
    }
  });

  it('derives triple and offload arch for NVIDIA and AMD device names', () => {
    expect(builtin.resolve('nvidia_gpu_sm_90a')).toMatchObject({ kind: 'nvidia_gpu', triple: 'nvptx64-nvidia-cuda', offloadArch: 'sm_90a' });
    expect(builtin.resolve('amd_gpu_gfx90a')).toMatchObject({ kind: 'amd_gpu', triple: 'amdgcn-amd-amdhsa', offloadArch: 'gfx90a' });
  });

  it('resolves short and full triple spellings to the same generic target', () => {
    expect(builtin.resolve('spir64')).toMatchObject({ name: 'spir64', kind: 'generic', triple: 'spir64-unknown-unknown', aot: false });
    expect(builtin.resolve('spir64-unknown-unknown')).toMatchObject({ name: 'spir64', triple: 'spir64-unknown-unknown' });
    expect(builtin.resolve('spir64_gen')).toMatchObject({ name: 'spir64_gen', aot: true });
    expect(builtin.resolve('nvptx64')).toMatchObject({ name: 'nvptx64-nvidia-cuda', triple: 'nvptx64-nvidia-cuda' });
  });

  it('looks entries up by full triple before the architecture name, as the driver does', () => {
    expect(builtin.resolve('spir64_x86_64')?.configKeys).toEqual(['spir64_x86_64-unknown-unknown', 'spir64_x86_64']);
  });

  it('does not accept configuration-only keys or unknown names', () => {
    expect(builtin.resolve('x86_64')).toBeUndefined();
    expect(builtin.resolve('intel_gpu_foo')).toBeUndefined();
    expect(builtin.resolve('')).toBeUndefined();
    expect(builtin.resolve('spir64--unknown')).toBeUndefined();
  });

  it('accepts newer Intel devices that have no built-in entry', () => {
    const target = builtin.resolve('intel_gpu_bmg_g21')!;
    expect(target.name).toBe('intel_gpu_bmg_g21');
    expect(builtin.entryFor(target)).toBeUndefined();
  });
});

describe('DeviceConfig.describe', () => {
  it('combines the known target, its architecture, its entry and the simulated-device additions', () => {
    const pvc = builtin.describe('intel_gpu_12_60_7')!;
    expect(pvc.name).toBe('intel_gpu_pvc');
    expect(pvc.aliases).toEqual(['intel_gpu_12_60_7']);
    expect(pvc.architecture?.value).toBe(0x000000030f000700n);
    expect(pvc.entry?.subGroupSizes).toEqual([16, 32]);
    expect(pvc.simulated).toEqual({ deviceType: 'gpu', backend: 'ext_oneapi_level_zero', maxWorkGroupSize: 1024 });
    expect(pvc.selectable).toBe(true);
  });

  it('gives plausible work-group limits per hardware generation', () => {
    expect(builtin.describe('intel_gpu_skl')?.simulated?.maxWorkGroupSize).toBe(256);
    expect(builtin.describe('intel_gpu_tgllp')?.simulated?.maxWorkGroupSize).toBe(512);
    expect(builtin.describe('nvidia_gpu_sm_80')?.simulated).toEqual({ deviceType: 'gpu', backend: 'ext_oneapi_cuda', maxWorkGroupSize: 1024 });
    expect(builtin.describe('amd_gpu_gfx90a')?.simulated?.backend).toBe('ext_oneapi_hip');
    expect(builtin.describe('spir64_x86_64')?.simulated).toEqual({ deviceType: 'cpu', backend: 'opencl', maxWorkGroupSize: 8192 });
  });

  it('describes generic targets without an architecture or simulated device', () => {
    const spir = builtin.describe('spir64')!;
    expect(spir.architecture).toBeUndefined();
    expect(spir.simulated).toBeUndefined();
    expect(spir.entry?.maySupportOtherAspects).toBe(true);
  });

  it('describes configuration-only keys as not selectable', () => {
    const x86 = builtin.describe('x86_64')!;
    expect(x86.selectable).toBe(false);
    expect(x86.architecture?.name).toBe('x86_64');
  });

  it('lists every known target once, then configuration-only keys', () => {
    const all = builtin.describeAll();
    const names = all.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 3)).toEqual(['spir64', 'spir', 'spir64_gen']);
    expect(names.at(-1)).toBe('x86_64');
    expect(names).toContain('intel_gpu_nvl_p');
    expect(names).toContain('amd_gpu_gfx705');
  });
});

describe('DeviceConfig.withEntries', () => {
  it('returns a new configuration and leaves the original untouched', () => {
    const changed = builtin.withEntries([userEntry('intel_gpu_pvc', ['fp16'])]);
    expect(changed).not.toBe(builtin);
    expect(changed.entry('intel_gpu_pvc')?.aspects).toEqual(['fp16']);
    expect(builtin.entry('intel_gpu_pvc')?.aspects).toContain('fp64');
  });

  it('stores an entry given under an alias under the canonical name', () => {
    const changed = builtin.withEntries([userEntry('intel_gpu_12_10_0', ['fp64'])]);
    expect(changed.entry('intel_gpu_dg1')?.aspects).toEqual(['fp64']);
    expect(changed.entry('intel_gpu_12_10_0')).toBeUndefined();
  });

  it('makes a new name a selectable target, typed by its prefix', () => {
    const changed = builtin.withEntries([userEntry('intel_gpu_20_9_0'), userEntry('my_accelerator')]);
    expect(changed.resolve('intel_gpu_20_9_0')).toMatchObject({ kind: 'intel_gpu', offloadArch: '20_9_0', triple: 'spir64_gen-unknown-unknown' });
    expect(changed.resolve('my_accelerator')).toMatchObject({ kind: 'custom', triple: undefined });
    expect(builtin.resolve('my_accelerator')).toBeUndefined();
  });

  it('keeps entries in built-in order with replacements in place and additions last', () => {
    const changed = builtin.withEntries([userEntry('zzz'), userEntry('spir64_gen')]);
    const names = changed.entries().map((e) => e.name);
    expect(names.indexOf('spir64_gen')).toBe(1);
    expect(names.at(-1)).toBe('zzz');
  });

  it('freezes copies of the stored entries, not the caller objects', () => {
    const given = userEntry('zzz', ['fp16']);
    const changed = builtin.withEntries([given]);
    expect(Object.isFrozen(given.aspects)).toBe(false);
    expect(Object.isFrozen(changed.entry('zzz')?.aspects)).toBe(true);
    expect(Object.isFrozen(changed)).toBe(true);
  });

  it('builds a configuration from entries alone', () => {
    const only = DeviceConfig.fromEntries([userEntry('intel_gpu_pvc', ['fp64'])]);
    expect(only.entries().map((e) => e.name)).toEqual(['intel_gpu_pvc']);
    expect(only.entryFor(only.resolve('spir64')!)).toBeUndefined();
  });
});

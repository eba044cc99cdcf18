import { describe, expect, it } from 'vitest';
import { builtinAspectTable } from './aspects.js';
import { BUILTIN_TABLE_UPSTREAM_COMMIT, BUILTIN_TARGET_ENTRIES, oclocDeviceFor } from './builtin-targets.js';
import type { TargetConfigEntry } from './config-entry.js';

function entry(name: string): TargetConfigEntry {
  const found = BUILTIN_TARGET_ENTRIES.find((e) => e.name === name);
  if (found === undefined) throw new Error(`no built-in entry '${name}'`);
  return found;
}

/**
 * Known facts about intel/llvm DeviceConfigFile.td @89110f9e, stated independently of the table:
 * [target, aspects it must have, aspects it must lack, sub-group sizes, may_support_other_aspects].
 */
const FACTS: readonly (readonly [string, readonly string[], readonly string[], readonly number[], boolean])[] = [
  ['intel_gpu_pvc', ['fp64', 'fp16', 'atomic64', 'ext_intel_esimd'], [], [16, 32], false],
  ['intel_gpu_pvc_vg', ['fp64', 'fp16', 'atomic64'], [], [16, 32], false],
  ['intel_gpu_dg1', ['fp16', 'atomic64'], ['fp64'], [8, 16, 32], false],
  ['intel_gpu_tgllp', ['fp16', 'atomic64'], ['fp64'], [8, 16, 32], false],
  ['intel_gpu_acm_g10', ['fp16'], ['fp64'], [8, 16, 32], false],
  ['intel_gpu_icllp', ['atomic64'], ['fp64'], [8, 16, 32], false],
  ['intel_gpu_skl', ['fp64'], [], [8, 16, 32], false],
  ['intel_gpu_bdw', ['fp64'], [], [8, 16, 32], false],
  ['intel_gpu_mtl_u', ['fp64'], [], [8, 16, 32], false],
  ['intel_gpu_arl_h', ['fp64'], [], [8, 16, 32], false],
  ['nvidia_gpu_sm_50', ['gpu', 'fp64', 'usm_device_allocations'], ['fp16', 'atomic64'], [32], true],
  ['nvidia_gpu_sm_53', ['fp16'], ['atomic64'], [32], true],
  ['nvidia_gpu_sm_70', ['fp16', 'atomic64'], ['ext_oneapi_cuda_async_barrier'], [32], true],
  ['nvidia_gpu_sm_80', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier'], ['ext_oneapi_cuda_cluster_group'], [32], true],
  ['nvidia_gpu_sm_90', ['ext_oneapi_cuda_cluster_group', 'ext_oneapi_bindless_images'], [], [32], true],
  ['nvidia_gpu_sm_90a', ['ext_oneapi_cuda_cluster_group'], [], [32], true],
  ['amd_gpu_gfx90a', ['gpu', 'fp64', 'ext_oneapi_native_assert', 'usm_system_allocations'], ['fp16'], [64], false],
  ['amd_gpu_gfx908', ['ext_oneapi_graph'], ['ext_oneapi_native_assert'], [64], false],
  ['amd_gpu_gfx1030', ['ext_oneapi_graph'], [], [32, 64], false],
  ['amd_gpu_gfx1031', ['gpu', 'usm_device_allocations'], ['ext_intel_free_memory'], [32, 64], false],
  ['amd_gpu_gfx906', ['usm_shared_allocations'], ['ext_oneapi_graph'], [64], false],
  ['amd_gpu_gfx700', ['gpu', 'fp64'], ['usm_device_allocations'], [16], false],
  ['amd_gpu_gfx941', [], ['gpu'], [], false],
  ['amd_gpu_gfx1201', [], ['gpu'], [], false],
  ['spir64', [], ['cpu', 'gpu'], [], true],
  ['spir64_gen', [], ['gpu'], [], true],
  ['spir64_x86_64', [], ['cpu'], [], true],
  ['spir64_fpga', [], [], [], true],
  ['x86_64', [], [], [], true],
];

describe('built-in target table', () => {
  it('notes the upstream commit it matches', () => {
    expect(BUILTIN_TABLE_UPSTREAM_COMMIT).toMatch(/^89110f9e[0-9a-f]{32}$/);
  });

  it.each(FACTS)('%s: has, lacks, sub-group sizes and may_support_other_aspects as upstream', (name, has, lacks, sizes, mayOther) => {
    const e = entry(name);
    for (const aspect of has) expect(e.aspects, `${name} has ${aspect}`).toContain(aspect);
    for (const aspect of lacks) expect(e.aspects, `${name} lacks ${aspect}`).not.toContain(aspect);
    expect(e.subGroupSizes).toEqual(sizes);
    expect(e.maySupportOtherAspects).toBe(mayOther);
  });

  it('holds every target of the .td: 5 generic, 25 Intel GPU, 15 NVIDIA and 38 AMD entries', () => {
    const count = (prefix: string) => BUILTIN_TARGET_ENTRIES.filter((e) => e.name.startsWith(prefix)).length;
    expect(count('intel_gpu_')).toBe(25);
    expect(count('nvidia_gpu_')).toBe(15);
    expect(count('amd_gpu_')).toBe(38);
    expect(BUILTIN_TARGET_ENTRIES).toHaveLength(83);
  });

  it('leaves out the test-only records of the .td', () => {
    expect(BUILTIN_TARGET_ENTRIES.some((e) => e.name.startsWith('__Test'))).toBe(false);
  });

  it('lists Intel GPU aspects as ext_intel_esimd followed by fp16, [fp64,] atomic64', () => {
    for (const e of BUILTIN_TARGET_ENTRIES.filter((x) => x.name.startsWith('intel_gpu_'))) {
      expect([['ext_intel_esimd', 'fp16', 'fp64', 'atomic64'], ['ext_intel_esimd', 'fp16', 'atomic64']]).toContainEqual(e.aspects);
    }
  });

  it('gives every NVIDIA target the same 35 base aspects before its extras', () => {
    const base = entry('nvidia_gpu_sm_50').aspects;
    expect(base).toHaveLength(35);
    for (const e of BUILTIN_TARGET_ENTRIES.filter((x) => x.name.startsWith('nvidia_gpu_'))) expect(e.aspects.slice(0, 35)).toEqual(base);
  });

  it('names only aspects of the built-in table, by their current spelling', () => {
    for (const e of BUILTIN_TARGET_ENTRIES) {
      for (const aspect of e.aspects) expect(builtinAspectTable.definition(aspect)?.status, `${e.name}: ${aspect}`).toBe('current');
      expect(new Set(e.aspects).size, e.name).toBe(e.aspects.length);
    }
  });

  it('gives Intel GPUs the auto-detected ocloc toolchain with the driver device name', () => {
    expect(entry('intel_gpu_pvc').aotToolchain).toBe('ocloc');
    expect(entry('intel_gpu_pvc').aotToolchainOptions).toEqual([{ name: 'ocloc-device', value: 'pvc' }]);
    expect(entry('intel_gpu_pvc_vg').aotToolchainOptions).toEqual([{ name: 'ocloc-device', value: 'pvc_xt_c0_vg' }]);
    expect(entry('intel_gpu_mtl_h').aotToolchainOptions).toEqual([{ name: 'ocloc-device', value: 'mtl_p' }]);
    expect(entry('nvidia_gpu_sm_80').aotToolchain).toBe('');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(BUILTIN_TARGET_ENTRIES)).toBe(true);
    expect(Object.isFrozen(entry('intel_gpu_pvc').aspects)).toBe(true);
  });
});

describe('oclocDeviceFor', () => {
  it('uses the target suffix except where the driver renames the device', () => {
    expect(oclocDeviceFor('intel_gpu_dg1')).toBe('dg1');
    expect(oclocDeviceFor('intel_gpu_mtl_u')).toBe('mtl_s');
    expect(oclocDeviceFor('intel_gpu_arl_h')).toBe('xe_lpgplus_b0');
    expect(oclocDeviceFor('intel_gpu_20_2_0')).toBe('20_2_0');
  });
});

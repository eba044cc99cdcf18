/**
 * The built-in device configuration: the target table of intel/llvm
 * `llvm/include/llvm/SYCLLowerIR/DeviceConfigFile.td` @ 89110f9ef3217ff04ff722d21c0d470273ef14b8,
 * written from its facts (it is data, not a translation of the TableGen file).
 *
 * Differences from that file, all deliberate:
 * - The test-only records `__TestAspectList` and `__TestDeprecatedAspectList` are left out; they
 *   are not targets.
 * - Aspect names use today's spellings: the .td's `ext_oneapi_interop_memory_import` and
 *   `ext_oneapi_interop_semaphore_import` are written `ext_oneapi_external_memory_import` and
 *   `ext_oneapi_external_semaphore_import` (same numbers, 46 and 48).
 * - Intel GPU entries carry the auto-detected AOT toolchain (`ocloc` and its `-device` name) that
 *   DeviceConfigFile.md describes; upstream leaves both fields empty and lets the driver fill them.
 */

import { deepFreeze, type TargetConfigEntry } from './config-entry.js';

const ALL_USM = [
  'usm_device_allocations',
  'usm_host_allocations',
  'usm_shared_allocations',
  'usm_system_allocations',
  'usm_atomic_host_allocations',
  'usm_atomic_shared_allocations',
] as const;

const CUDA_MIN = [
  ...ALL_USM,
  'gpu',
  'fp64',
  'online_compiler',
  'online_linker',
  'queue_profiling',
  'ext_intel_pci_address',
  'ext_intel_max_mem_bandwidth',
  'ext_intel_memory_bus_width',
  'ext_intel_device_info_uuid',
  'ext_oneapi_native_assert',
  'ext_intel_free_memory',
  'ext_intel_device_id',
  'ext_intel_memory_clock_rate',
  'ext_oneapi_ballot_group',
  'ext_oneapi_fixed_size_group',
  'ext_oneapi_opportunistic_group',
  'ext_oneapi_graph',
  'ext_oneapi_limited_graph',
] as const;

const CUDA_BINDLESS = [
  'ext_oneapi_bindless_images',
  'ext_oneapi_bindless_images_shared_usm',
  'ext_oneapi_bindless_images_1d_usm',
  'ext_oneapi_bindless_images_2d_usm',
  'ext_oneapi_external_memory_import',
  'ext_oneapi_external_semaphore_import',
  'ext_oneapi_mipmap',
  'ext_oneapi_mipmap_anisotropy',
  'ext_oneapi_mipmap_level_reference',
  'ext_oneapi_cubemap',
  'ext_oneapi_cubemap_seamless_filtering',
] as const;

const HIP_MIN = [
  'gpu',
  'fp64',
  'online_compiler',
  'online_linker',
  'queue_profiling',
  'ext_intel_pci_address',
  'ext_intel_max_mem_bandwidth',
  'ext_intel_device_id',
  'ext_intel_memory_clock_rate',
  'ext_intel_memory_bus_width',
  'ext_intel_free_memory',
] as const;

const HIP_GRAPH_UUID = ['ext_intel_device_info_uuid', 'ext_oneapi_graph', 'ext_oneapi_limited_graph'] as const;

const INTEL_FP64 = ['ext_intel_esimd', 'fp16', 'fp64', 'atomic64'] as const;
const INTEL_NO_FP64 = ['ext_intel_esimd', 'fp16', 'atomic64'] as const;

/**
 * Names of the ocloc `-device` values the driver passes where they differ from the target-name
 * suffix (clang SYCL toolchain).
 */
export const OCLOC_DEVICE_RENAMES: Readonly<Record<string, string>> = Object.freeze({
  pvc_vg: 'pvc_xt_c0_vg',
  mtl_u: 'mtl_s',
  mtl_h: 'mtl_p',
  arl_h: 'xe_lpgplus_b0',
});

/** The ocloc `-device` value for an Intel GPU target name (`intel_gpu_<x>`). */
export function oclocDeviceFor(targetName: string): string {
  const suffix = targetName.slice('intel_gpu_'.length);
  return OCLOC_DEVICE_RENAMES[suffix] ?? suffix;
}

const builtin = { kind: 'builtin' } as const;

function generic(name: string): TargetConfigEntry {
  return { name, aspects: [], maySupportOtherAspects: true, subGroupSizes: [], aotToolchain: '', aotToolchainOptions: [], source: builtin };
}

function intel(name: string, aspects: readonly string[], subGroupSizes: readonly number[]): TargetConfigEntry {
  return {
    name,
    aspects,
    maySupportOtherAspects: false,
    subGroupSizes,
    aotToolchain: 'ocloc',
    aotToolchainOptions: [{ name: 'ocloc-device', value: oclocDeviceFor(name) }],
    source: builtin,
  };
}

function cuda(sm: string, extra: readonly string[]): TargetConfigEntry {
  return {
    name: `nvidia_gpu_sm_${sm}`,
    aspects: [...CUDA_MIN, ...CUDA_BINDLESS, ...extra],
    maySupportOtherAspects: true,
    subGroupSizes: [32],
    aotToolchain: '',
    aotToolchainOptions: [],
    source: builtin,
  };
}

function hip(gfx: string, aspects: readonly string[], subGroupSizes: readonly number[]): TargetConfigEntry {
  return { name: `amd_gpu_gfx${gfx}`, aspects, maySupportOtherAspects: false, subGroupSizes, aotToolchain: '', aotToolchainOptions: [], source: builtin };
}

const SG_8_16_32 = [8, 16, 32];
const SG_16_32 = [16, 32];
const HIP_GCN = [16];
const HIP_GCN5 = [64];
const HIP_CDNA = [64];
const HIP_RDNA = [32, 64];
const HIP_USM = [...HIP_MIN, ...ALL_USM];

/** The commit of intel/llvm whose DeviceConfigFile.td this table matches. */
export const BUILTIN_TABLE_UPSTREAM_COMMIT = '89110f9ef3217ff04ff722d21c0d470273ef14b8';

/** Built-in entries, in the order of the .td file. */
export const BUILTIN_TARGET_ENTRIES: readonly TargetConfigEntry[] = deepFreeze([
  generic('spir64'),
  generic('spir64_gen'),
  generic('spir64_x86_64'),
  generic('spir64_fpga'),
  generic('x86_64'),
  intel('intel_gpu_arl_h', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_mtl_h', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_mtl_u', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_pvc_vg', INTEL_FP64, SG_16_32),
  intel('intel_gpu_pvc', INTEL_FP64, SG_16_32),
  intel('intel_gpu_acm_g12', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_acm_g11', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_acm_g10', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_dg1', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_adl_n', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_adl_p', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_adl_s', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_rkl', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_tgllp', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_ehl', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_icllp', INTEL_NO_FP64, SG_8_16_32),
  intel('intel_gpu_cml', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_aml', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_whl', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_glk', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_apl', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_cfl', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_kbl', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_skl', INTEL_FP64, SG_8_16_32),
  intel('intel_gpu_bdw', INTEL_FP64, SG_8_16_32),
  cuda('50', []),
  cuda('52', []),
  cuda('53', ['fp16']),
  cuda('60', ['fp16', 'atomic64']),
  cuda('61', ['fp16', 'atomic64']),
  cuda('62', ['fp16', 'atomic64']),
  cuda('70', ['fp16', 'atomic64']),
  cuda('72', ['fp16', 'atomic64']),
  cuda('75', ['fp16', 'atomic64']),
  cuda('80', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier']),
  cuda('86', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier']),
  cuda('87', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier']),
  cuda('89', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier']),
  cuda('90', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier', 'ext_oneapi_cuda_cluster_group']),
  cuda('90a', ['fp16', 'atomic64', 'ext_oneapi_cuda_async_barrier', 'ext_oneapi_cuda_cluster_group']),
  hip('908', [...HIP_USM, ...HIP_GRAPH_UUID], HIP_CDNA),
  hip('90a', [...HIP_USM, ...HIP_GRAPH_UUID, 'ext_oneapi_native_assert'], HIP_CDNA),
  hip('940', [...HIP_USM, ...HIP_GRAPH_UUID], HIP_CDNA),
  hip('1030', [...HIP_USM, ...HIP_GRAPH_UUID], HIP_RDNA),
  hip('1100', [...HIP_USM, ...HIP_GRAPH_UUID], HIP_RDNA),
  hip('906', HIP_USM, HIP_GCN5),
  hip('700', HIP_MIN, HIP_GCN),
  hip('701', HIP_MIN, HIP_GCN),
  hip('702', HIP_MIN, HIP_GCN),
  hip('801', HIP_MIN, HIP_GCN),
  hip('802', HIP_MIN, HIP_GCN),
  hip('803', HIP_MIN, HIP_GCN),
  hip('805', HIP_MIN, HIP_GCN),
  hip('810', HIP_MIN, HIP_GCN),
  hip('900', HIP_MIN, HIP_GCN5),
  hip('902', HIP_MIN, HIP_GCN5),
  hip('904', HIP_MIN, HIP_GCN5),
  hip('909', HIP_MIN, HIP_GCN5),
  hip('90c', HIP_USM, HIP_GCN5),
  hip('1010', HIP_USM, HIP_RDNA),
  hip('1011', HIP_USM, HIP_RDNA),
  hip('1012', HIP_USM, HIP_RDNA),
  hip('1013', HIP_USM, HIP_RDNA),
  hip('1031', [...HIP_MIN.filter((aspect) => aspect !== 'ext_intel_free_memory'), ...ALL_USM], HIP_RDNA),
  hip('1032', HIP_USM, HIP_RDNA),
  hip('1033', HIP_USM, HIP_RDNA),
  hip('1034', HIP_USM, HIP_RDNA),
  hip('1035', HIP_USM, HIP_RDNA),
  hip('1036', HIP_USM, HIP_RDNA),
  hip('1101', HIP_USM, HIP_RDNA),
  hip('1102', HIP_USM, HIP_RDNA),
  hip('1103', HIP_USM, HIP_RDNA),
  hip('1150', HIP_USM, HIP_RDNA),
  hip('1151', HIP_USM, HIP_RDNA),
  // "TBA" upstream: no aspects and no sub-group sizes yet.
  hip('941', [], []),
  hip('942', [], []),
  hip('1200', [], []),
  hip('1201', [], []),
]);

import { describe, expect, it } from 'vitest';
import { DeviceConfig } from './config.js';
import { formatMacroFlags } from './sycl-targets.js';
import { deviceTraitMacros, deviceTraits, driverMacros } from './traits.js';

const config = DeviceConfig.builtin();
const flags = (targets: string[], semantics?: 'design' | 'intel-llvm') => formatMacroFlags(deviceTraitMacros(deviceTraits(config, targets, { semantics })));

describe('deviceTraits (design semantics)', () => {
  it('spir64 alone: any device may have any aspect, no aspect is guaranteed', () => {
    expect(flags(['spir64'])).toEqual(['-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1']);
  });

  it('intel_gpu_pvc: ANY and ALL are its four aspects', () => {
    expect(flags(['intel_gpu_pvc'])).toEqual([
      '-D__SYCL_ANY_DEVICE_HAS_atomic64__=1',
      '-D__SYCL_ANY_DEVICE_HAS_ext_intel_esimd__=1',
      '-D__SYCL_ANY_DEVICE_HAS_fp16__=1',
      '-D__SYCL_ANY_DEVICE_HAS_fp64__=1',
      '-D__SYCL_ALL_DEVICES_HAVE_atomic64__=1',
      '-D__SYCL_ALL_DEVICES_HAVE_ext_intel_esimd__=1',
      '-D__SYCL_ALL_DEVICES_HAVE_fp16__=1',
      '-D__SYCL_ALL_DEVICES_HAVE_fp64__=1',
    ]);
  });

  it('nvidia_gpu_sm_80: ANY_ASPECT, plus ALL for its list', () => {
    const traits = deviceTraits(config, ['nvidia_gpu_sm_80']);
    expect(traits.anyDeviceHasAnyAspect).toBe(true);
    expect(traits.allDevicesHaveAspects).toContain('ext_oneapi_cuda_async_barrier');
    expect(traits.allDevicesHaveAspects).toHaveLength(38);
    expect(flags(['nvidia_gpu_sm_80'])[0]).toBe('-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1');
  });

  it('amd_gpu_gfx90a: individual ANY and ALL macros', () => {
    const traits = deviceTraits(config, ['amd_gpu_gfx90a']);
    expect(traits.anyDeviceHasAnyAspect).toBe(false);
    expect(traits.anyDeviceHasAspects).toEqual(traits.allDevicesHaveAspects);
    expect(traits.anyDeviceHas('fp64')).toBe(true);
    expect(traits.anyDeviceHas('fp16')).toBe(false);
  });

  it('intersects ALL and unites ANY over the list', () => {
    const traits = deviceTraits(config, ['intel_gpu_pvc', 'intel_gpu_dg1']);
    expect(traits.allDevicesHave('fp64')).toBe(false);
    expect(traits.anyDeviceHas('fp64')).toBe(true);
    expect(traits.allDevicesHave('fp16')).toBe(true);
    expect(traits.anyDeviceHas('gpu')).toBe(false);
  });

  it('answers by aspect number as well as by name', () => {
    const traits = deviceTraits(config, ['intel_gpu_pvc']);
    expect(traits.allDevicesHave(6)).toBe(true);
    expect(traits.anyDeviceHas(2)).toBe(false);
    expect(traits.allDevicesHave(12345)).toBe(false);
  });

  it('treats a target without an entry as guaranteeing nothing and allowing anything', () => {
    const traits = deviceTraits(config, ['intel_gpu_pvc', 'intel_gpu_bmg_g21']);
    expect(traits.anyDeviceHasAnyAspect).toBe(true);
    expect(traits.allDevicesHaveAspects).toEqual([]);
  });

  it('compares aspects by number, so aliases and former names use the canonical macro', () => {
    const extended = config.withEntries([
      {
        name: 'x',
        aspects: ['usm_system_allocator', 'ext_oneapi_interop_memory_import'],
        maySupportOtherAspects: false,
        subGroupSizes: [],
        aotToolchain: '',
        aotToolchainOptions: [],
        source: { kind: 'builtin' },
      },
    ]);
    expect(deviceTraits(extended, ['x', 'nvidia_gpu_sm_80']).allDevicesHaveAspects).toEqual(['ext_oneapi_external_memory_import', 'usm_system_allocations']);
  });

  it('needs at least one target', () => {
    expect(() => deviceTraits(config, [])).toThrow(RangeError);
  });
});

describe('deviceTraits (intel-llvm semantics)', () => {
  it('ignores targets without an entry when another target has one', () => {
    expect(flags(['intel_gpu_pvc', 'intel_gpu_bmg_g21'], 'intel-llvm')).toEqual(flags(['intel_gpu_pvc'], 'intel-llvm'));
  });

  it('gives ANY_ASPECT when no target has an entry', () => {
    expect(flags(['intel_gpu_bmg_g21'], 'intel-llvm')).toEqual(['-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1']);
  });

  it('compares names as written, so an alias gets its own macro', () => {
    const extended = config.withEntries([
      { name: 'x', aspects: ['usm_system_allocator'], maySupportOtherAspects: false, subGroupSizes: [], aotToolchain: '', aotToolchainOptions: [], source: { kind: 'builtin' } },
    ]);
    expect(deviceTraits(extended, ['x'], { semantics: 'intel-llvm' }).allDevicesHaveAspects).toEqual(['usm_system_allocator']);
  });

  it('is not monotonic: adding a target with an entry can remove ANY_ASPECT (the design never does)', () => {
    expect(deviceTraits(config, ['intel_gpu_bmg_g21'], { semantics: 'intel-llvm' }).anyDeviceHas('gpu')).toBe(true);
    expect(deviceTraits(config, ['intel_gpu_bmg_g21', 'intel_gpu_dg1'], { semantics: 'intel-llvm' }).anyDeviceHas('gpu')).toBe(false);
    expect(deviceTraits(config, ['intel_gpu_bmg_g21', 'intel_gpu_dg1']).anyDeviceHas('gpu')).toBe(true);
  });
});

describe('driverMacros', () => {
  it('puts the __SYCL_TARGET_ macros before the trait macros', () => {
    expect(formatMacroFlags(driverMacros(config, ['spir64_x86_64', 'spir64']))).toEqual([
      '-D__SYCL_TARGET_INTEL_X86_64__=1',
      '-D__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__=1',
    ]);
  });

  it('is deterministic', () => {
    const targets = ['amd_gpu_gfx1030', 'intel_gpu_pvc', 'nvidia_gpu_sm_90'];
    expect(driverMacros(config, targets)).toEqual(driverMacros(config, targets));
  });
});

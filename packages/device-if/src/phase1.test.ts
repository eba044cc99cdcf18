import { DeviceConfig, parseSyclTargets, syclTargetMacros } from '@syclkit/device-config';
import { describe, expect, it } from 'vitest';
import { Phase1Error, phase1TargetView, selectPhase1Clause } from './phase1.js';

const config = DeviceConfig.builtin();
const targets = (value: string) => parseSyclTargets(config, value).targets;

describe('phase1TargetView', () => {
  it("uses device-config's __SYCL_TARGET_*__ macros unchanged", () => {
    const list = targets('intel_gpu_pvc');
    const view = phase1TargetView(config, list);
    expect(view.macros).toEqual(syclTargetMacros(config, list));
    expect(view.macros).toEqual([{ name: '__SYCL_TARGET_INTEL_GPU_PVC__', value: '1' }]);
    expect(view.allowableAotMode).toBe(true);
    expect(view.architectures).toEqual([0x000000030f000700n]);
  });

  it('answers device_architecture_is by full enum value: names, aliases and values, no truncation', () => {
    const view = phase1TargetView(config, targets('intel_gpu_tgllp'));
    expect(view.architectureIs(['intel_gpu_tgllp'])).toBe(true);
    expect(view.architectureIs(['intel_gpu_12_0_0'])).toBe(true);
    expect(view.architectureIs([0x0000000300000000n])).toBe(true);
    // x86_64 truncates to 0 like tgllp, but the macros tell them apart.
    expect(view.architectureIs(['x86_64'])).toBe(false);
    expect(view.architectureIs(['intel_gpu_pvc', 'x86_64'])).toBe(false);
    expect(() => view.architectureIs(['intel_gpu_nope'])).toThrow(/unknown architecture/);
  });

  it('maps spir64_x86_64 to __SYCL_TARGET_INTEL_X86_64__ and x86_64', () => {
    const view = phase1TargetView(config, targets('spir64_x86_64'));
    expect(view.macros.map((m) => m.name)).toEqual(['__SYCL_TARGET_INTEL_X86_64__']);
    expect(view.architectureIs(['x86_64'])).toBe(true);
  });

  it('is not an allowable AOT mode for JIT or generic targets', () => {
    const view = phase1TargetView(config, targets('spir64'));
    expect(view.allowableAotMode).toBe(false);
    expect(view.architectures).toEqual([]);
  });
});

describe('selectPhase1Clause', () => {
  it('picks the first clause whose architectures match, or otherwise', () => {
    const view = phase1TargetView(config, targets('intel_gpu_dg1'));
    expect(selectPhase1Clause(view, [['intel_gpu_pvc'], ['intel_gpu_acm_g10', 'intel_gpu_dg1'], ['intel_gpu_dg1']])).toBe(1);
    expect(selectPhase1Clause(view, [['intel_gpu_pvc']])).toBe(1);
  });

  it("fails like the header's static_assert outside an allowable AOT mode", () => {
    const view = phase1TargetView(config, targets('spir64'));
    expect(() => selectPhase1Clause(view, [['intel_gpu_pvc']])).toThrow(Phase1Error);
    try {
      selectPhase1Clause(view, [['intel_gpu_pvc']]);
    } catch (error) {
      expect((error as Phase1Error).render()).toMatch(/^error: static assertion failed: The if_architecture_is function may only be used when AOT compiling/);
    }
  });
});

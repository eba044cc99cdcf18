import { describe, expect, it } from 'vitest';
import { AspectTable } from './aspects.js';
import { DeviceConfig } from './config.js';
import {
  aspectSupport,
  checkTargetRequirements,
  resolveTarget,
  subGroupSizeSupport,
  targetArchitecture,
  targetAspectValues,
  targetEntry,
  targetHasAspect,
  targetIsArchitecture,
  targetMatchesArchitectureOperand,
  targetMayHaveAspect,
  UnknownTargetError,
  workGroupSizeSupport,
} from './queries.js';

const config = DeviceConfig.builtin();

describe('resolveTarget', () => {
  it('throws UnknownTargetError with a suggestion for unknown names', () => {
    expect(() => resolveTarget(config, 'intel_gpu_dg2')).toThrow(UnknownTargetError);
    let error: unknown;
    try {
      resolveTarget(config, 'nvidia_gpu_sm80');
    } catch (caught) {
      error = caught;
    }
    expect((error as UnknownTargetError).suggestion).toBe('nvidia_gpu_sm_80');
    expect((error as Error).message).toBe("unknown SYCL target 'nvidia_gpu_sm80'; did you mean 'nvidia_gpu_sm_80'?");
  });

  it('passes resolved targets through', () => {
    const resolved = config.resolve('intel_gpu_pvc')!;
    expect(resolveTarget(config, resolved)).toBe(resolved);
  });
});

describe('aspect queries', () => {
  it('answers by name or built-in number', () => {
    expect(targetHasAspect(config, 'intel_gpu_pvc', 'fp64')).toBe(true);
    expect(targetHasAspect(config, 'intel_gpu_pvc', 6)).toBe(true);
    expect(targetHasAspect(config, 'intel_gpu_dg1', 'fp64')).toBe(false);
    expect(targetHasAspect(config, 'intel_gpu_12_10_0', 6)).toBe(false);
  });

  it("reads numbers with the module's own aspect table", () => {
    // A module where fp64 is 99 and atomic64 is 27 (renumbered enum).
    const table = AspectTable.fromPairs([
      ['fp64', 99],
      ['atomic64', 27],
    ]);
    expect(targetHasAspect(config, 'intel_gpu_pvc', 99, { aspectTable: table })).toBe(true);
    expect(targetHasAspect(config, 'intel_gpu_pvc', 6, { aspectTable: table })).toBe(false);
    expect([...targetAspectValues(config, 'intel_gpu_pvc', { aspectTable: table })].sort()).toEqual([27, 99]);
  });

  it('matches aliases and former names by number', () => {
    const extended = config.withEntries([
      { name: 'x', aspects: ['usm_system_allocator'], maySupportOtherAspects: false, subGroupSizes: [], aotToolchain: '', aotToolchainOptions: [], source: { kind: 'builtin' } },
    ]);
    expect(targetHasAspect(extended, 'x', 'usm_system_allocations')).toBe(true);
    expect(targetHasAspect(extended, 'x', 17)).toBe(true);
  });

  it('tells yes, no and unknown apart', () => {
    expect(aspectSupport(config, 'intel_gpu_pvc', 'fp64')).toBe('yes');
    expect(aspectSupport(config, 'intel_gpu_dg1', 'fp64')).toBe('no');
    // NVIDIA targets may support other aspects; spir64 guarantees nothing; bmg_g21 has no entry.
    expect(aspectSupport(config, 'nvidia_gpu_sm_50', 'fp16')).toBe('unknown');
    expect(aspectSupport(config, 'spir64', 'fp64')).toBe('unknown');
    expect(aspectSupport(config, 'intel_gpu_bmg_g21', 'fp64')).toBe('unknown');
  });

  it('says a target may have an aspect unless its entry rules it out', () => {
    expect(targetMayHaveAspect(config, 'intel_gpu_dg1', 'fp64')).toBe(false);
    expect(targetMayHaveAspect(config, 'nvidia_gpu_sm_50', 'fp16')).toBe(true);
    expect(targetMayHaveAspect(config, 'amd_gpu_gfx90a', 'fp16')).toBe(false);
  });

  it('returns the built-in numbers of a target', () => {
    expect([...targetAspectValues(config, 'intel_gpu_pvc')].sort((a, b) => a - b)).toEqual([5, 6, 28, 53]);
    expect(targetAspectValues(config, 'spir64').size).toBe(0);
  });

  it('finds entries through aliases and triples', () => {
    expect(targetEntry(config, 'intel_gpu_icl')?.name).toBe('intel_gpu_icllp');
    expect(targetEntry(config, 'spir64-unknown-unknown')?.name).toBe('spir64');
    expect(targetEntry(config, 'intel_gpu_lnl_m')).toBeUndefined();
  });
});

describe('sub-group and work-group queries', () => {
  it('checks sub-group sizes against the entry', () => {
    expect(subGroupSizeSupport(config, 'intel_gpu_pvc', 16)).toBe('yes');
    expect(subGroupSizeSupport(config, 'intel_gpu_pvc', 8)).toBe('no');
    expect(subGroupSizeSupport(config, 'amd_gpu_gfx90a', 64)).toBe('yes');
    expect(subGroupSizeSupport(config, 'amd_gpu_gfx941', 64)).toBe('unknown');
    expect(subGroupSizeSupport(config, 'spir64', 8)).toBe('unknown');
  });

  it('checks the total work-group size against the simulated maximum', () => {
    expect(workGroupSizeSupport(config, 'intel_gpu_pvc', [32, 32])).toBe('yes');
    expect(workGroupSizeSupport(config, 'intel_gpu_pvc', [32, 33])).toBe('no');
    expect(workGroupSizeSupport(config, 'intel_gpu_skl', 512)).toBe('no');
    expect(workGroupSizeSupport(config, 'spir64', 1 << 20)).toBe('unknown');
  });
});

describe('checkTargetRequirements', () => {
  it('reports only what the target rules out, by default', () => {
    expect(checkTargetRequirements(config, 'intel_gpu_dg1', { aspects: ['fp64', 'fp16'], subGroupSize: 32, workGroupSize: [16, 16] })).toEqual([
      { kind: 'aspect', aspect: 'fp64', support: 'no' },
    ]);
    expect(checkTargetRequirements(config, 'intel_gpu_pvc', { subGroupSize: 8, workGroupSize: 2048 })).toEqual([
      { kind: 'sub-group-size', size: 8, supported: [16, 32], support: 'no' },
      { kind: 'work-group-size', size: 2048, support: 'no' },
    ]);
    expect(checkTargetRequirements(config, 'nvidia_gpu_sm_50', { aspects: ['fp16'] })).toEqual([]);
  });

  it('also reports what the target cannot promise in guaranteed mode', () => {
    expect(checkTargetRequirements(config, 'nvidia_gpu_sm_50', { aspects: ['fp16', 'fp64'] }, { mode: 'guaranteed' })).toEqual([
      { kind: 'aspect', aspect: 'fp16', support: 'unknown' },
    ]);
  });
});

describe('architecture queries (device_if leaves)', () => {
  it('gives the fixed architecture of device targets and spir64_x86_64', () => {
    expect(targetArchitecture(config, 'intel_gpu_12_60_7')?.name).toBe('intel_gpu_pvc');
    expect(targetArchitecture(config, 'spir64_x86_64')?.name).toBe('x86_64');
    expect(targetArchitecture(config, 'spir64')).toBeUndefined();
    expect(targetArchitecture(config, 'spir64_gen')).toBeUndefined();
  });

  it('compares with enumerator names, aliases and values', () => {
    expect(targetIsArchitecture(config, 'intel_gpu_tgllp', 'intel_gpu_tgl')).toBe(true);
    expect(targetIsArchitecture(config, 'intel_gpu_tgllp', 0x0000000300000000n)).toBe(true);
    expect(targetIsArchitecture(config, 'intel_gpu_tgllp', 'x86_64')).toBe(false);
    expect(targetIsArchitecture(config, 'spir64', 'unknown')).toBe(false);
  });

  it('compares condition operands by 32-bit truncation, collisions included', () => {
    expect(targetMatchesArchitectureOperand(config, 'intel_gpu_pvc', 251660032)).toBe(true);
    expect(targetMatchesArchitectureOperand(config, 'intel_gpu_pvc', 255854336)).toBe(false);
    // x86_64 and tgllp both truncate to 0.
    expect(targetMatchesArchitectureOperand(config, 'intel_gpu_tgllp', 0)).toBe(true);
    expect(targetMatchesArchitectureOperand(config, 'spir64_x86_64', 0)).toBe(true);
    expect(targetMatchesArchitectureOperand(config, 'spir64', 0)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ARCHITECTURES,
  architectureByName,
  architectureByValue,
  architectureForSyclTarget,
  architecturesForConditionOperand,
  decodeArchitecture,
  encodeArchitecture,
  encodeIntelGpuIpVersion,
  formatArchitectureValue,
  syclTargetForArchitecture,
  truncateArchitectureToInt32,
} from './architectures.js';

// Values copied by hand from device_architecture.def, and int32 truncations from the reference notes.
const KNOWN: readonly (readonly [string, bigint, number])[] = [
  ['unknown', 0x9900000000000000n, 0],
  ['x86_64', 0x0300000000000000n, 0],
  ['intel_cpu_spr', 0x0300000000000800n, 2048],
  ['intel_cpu_gnr', 0x0300000000000900n, 2304],
  ['intel_gpu_bdw', 0x0000000200000000n, 0],
  ['intel_gpu_skl', 0x0000000240000900n, 1073744128],
  ['intel_gpu_kbl', 0x0000000240400900n, 1077938432],
  ['intel_gpu_cfl', 0x0000000240800900n, 1082132736],
  ['intel_gpu_icllp', 0x00000002c0000000n, -1073741824],
  ['intel_gpu_ehl', 0x00000002c0800000n, -1065353216],
  ['intel_gpu_tgllp', 0x0000000300000000n, 0],
  ['intel_gpu_rkl', 0x0000000300400000n, 4194304],
  ['intel_gpu_adl_s', 0x0000000300800000n, 8388608],
  ['intel_gpu_adl_p', 0x0000000300c00000n, 12582912],
  ['intel_gpu_adl_n', 0x0000000301000000n, 16777216],
  ['intel_gpu_dg1', 0x0000000302800000n, 41943040],
  ['intel_gpu_acm_g10', 0x000000030dc00800n, 230688768],
  ['intel_gpu_acm_g11', 0x000000030e000500n, 234882304],
  ['intel_gpu_acm_g12', 0x000000030e400000n, 239075328],
  ['intel_gpu_pvc', 0x000000030f000700n, 251660032],
  ['intel_gpu_pvc_vg', 0x000000030f400700n, 255854336],
  ['intel_gpu_bmg_g21', 0x0000000500400400n, 4195328],
  ['intel_gpu_lnl_m', 0x0000000501000400n, 16778240],
  ['nvidia_gpu_sm_80', 0x0100000000008000n, 32768],
  ['nvidia_gpu_sm_86', 0x0100000000008600n, 34304],
  ['nvidia_gpu_sm_90', 0x0100000000009000n, 36864],
  ['nvidia_gpu_sm_90a', 0x01000000000090a0n, 37024],
  ['amd_gpu_gfx90a', 0x0200000000090a00n, 592384],
];

// device_architecture.def @055b860f gives nvl_s and nvl_u revision 4 in the value but 0 in the
// version alias (intel_gpu_30_4_0, intel_gpu_30_5_0). syclkit keeps both as upstream has them.
const UPSTREAM_REVISION_MISMATCHES: Readonly<Record<string, number>> = { intel_gpu_nvl_s: 4, intel_gpu_nvl_u: 4 };

describe('architecture table', () => {
  it.each(KNOWN)('gives %s its .def value and int32 truncation', (name, value, truncated) => {
    const info = architectureByName(name);
    expect(info?.value).toBe(value);
    expect(truncateArchitectureToInt32(value)).toBe(truncated);
  });

  it('makes ptl_h and ptl_u negative when truncated', () => {
    expect(truncateArchitectureToInt32(architectureByName('intel_gpu_ptl_h')!.value)).toBeLessThan(0);
    expect(truncateArchitectureToInt32(architectureByName('intel_gpu_ptl_u')!.value)).toBeLessThan(0);
  });

  it('reports every architecture whose truncation collides on an operand', () => {
    expect(architecturesForConditionOperand(0).map((a) => a.name)).toEqual(['unknown', 'x86_64', 'intel_gpu_bdw', 'intel_gpu_tgllp']);
    expect(architecturesForConditionOperand(251660032).map((a) => a.name)).toEqual(['intel_gpu_pvc']);
  });

  it('has unique names and values', () => {
    const names = ARCHITECTURES.flatMap((a) => [a.name, ...a.aliases]);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(ARCHITECTURES.map((a) => a.value)).size).toBe(ARCHITECTURES.length);
  });

  it('resolves aliases to the same enumerator', () => {
    expect(architectureByName('intel_gpu_12_60_7')?.name).toBe('intel_gpu_pvc');
    expect(architectureByName('intel_gpu_bxt')?.name).toBe('intel_gpu_apl');
    expect(architectureByName('intel_gpu_arl_s')?.name).toBe('intel_gpu_mtl_u');
    expect(architectureByName('intel_gpu_dg2_g10')?.name).toBe('intel_gpu_acm_g10');
  });

  it('puts every Intel GPU GMDID in the id field, matching its intel_gpu_<major>_<minor>_<revision> alias', () => {
    const intel = ARCHITECTURES.filter((a) => a.family === 'intel_gpu');
    expect(intel.length).toBeGreaterThan(30);
    for (const info of intel) {
      const versionAlias = info.aliases.find((alias) => /^intel_gpu_\d+_\d+_\d+$/.test(alias));
      expect(versionAlias, info.name).toBeDefined();
      const [major, minor, aliasRevision] = versionAlias!.slice('intel_gpu_'.length).split('_').map(Number) as [number, number, number];
      const revision = UPSTREAM_REVISION_MISMATCHES[info.name] ?? aliasRevision;
      expect(info.ipVersion).toEqual({ major, minor, revision });
      expect(decodeArchitecture(info.value).id).toBe(encodeIntelGpuIpVersion({ major, minor, revision }));
    }
  });

  it('encodes AMD gfx numbers as hex digits of the id field', () => {
    const amd = ARCHITECTURES.filter((a) => a.family === 'amd_gpu');
    expect(amd.length).toBe(41);
    for (const info of amd) {
      expect(decodeArchitecture(info.value), info.name).toEqual({ family: 'amd_gpu', reserved: 0, id: Number.parseInt(info.name.slice('amd_gpu_gfx'.length), 16), suffix: 0 });
    }
  });

  it('encodes NVIDIA SM numbers as hex digits of the id field, with an "a" variant in the low byte', () => {
    const nvidia = ARCHITECTURES.filter((a) => a.family === 'nvidia_gpu');
    expect(nvidia.length).toBe(15);
    for (const info of nvidia) {
      const [, digits, variant] = /^nvidia_gpu_sm_(\d+)(a?)$/.exec(info.name)!;
      expect(decodeArchitecture(info.value), info.name).toEqual({ family: 'nvidia_gpu', reserved: 0, id: Number.parseInt(digits!, 16), suffix: variant === 'a' ? 0xa0 : 0 });
    }
  });

  it('assigns families from the top byte', () => {
    expect(architectureByName('x86_64')?.family).toBe('intel_cpu');
    expect(architectureByName('unknown')?.family).toBe('unknown');
    expect(architectureByName('nvidia_gpu_sm_50')?.family).toBe('nvidia_gpu');
    expect(architectureByName('amd_gpu_gfx700')?.family).toBe('amd_gpu');
    expect(architectureByName('intel_gpu_nvl_p')?.family).toBe('intel_gpu');
  });

  it('exposes the GMDID of Intel GPUs only', () => {
    expect(architectureByName('intel_gpu_pvc')?.gmdid).toBe(0x030f0007);
    expect(architectureByName('intel_gpu_bdw')?.gmdid).toBe(0x02000000);
    expect(architectureByName('nvidia_gpu_sm_80')?.gmdid).toBeUndefined();
  });

  it('finds enumerators by value', () => {
    expect(architectureByValue(0x000000030f000700n)?.name).toBe('intel_gpu_pvc');
    expect(architectureByValue(0x1234n)).toBeUndefined();
  });

  it('formats values as 16 hex digits', () => {
    expect(formatArchitectureValue(0x000000030f000700n)).toBe('0x000000030f000700');
  });
});

describe('-fsycl-targets mapping', () => {
  it('maps GPU enumerators to target names of the same spelling and x86_64 to spir64_x86_64', () => {
    expect(syclTargetForArchitecture('intel_gpu_pvc')).toBe('intel_gpu_pvc');
    expect(syclTargetForArchitecture('intel_gpu_12_60_7')).toBe('intel_gpu_pvc');
    expect(syclTargetForArchitecture(0x0100000000008000n)).toBe('nvidia_gpu_sm_80');
    expect(syclTargetForArchitecture('x86_64')).toBe('spir64_x86_64');
    expect(syclTargetForArchitecture('unknown')).toBeUndefined();
    expect(syclTargetForArchitecture('intel_cpu_spr')).toBeUndefined();
  });

  it('maps target names back to enumerators', () => {
    expect(architectureForSyclTarget('spir64_x86_64')?.name).toBe('x86_64');
    expect(architectureForSyclTarget('intel_gpu_tgl')?.name).toBe('intel_gpu_tgllp');
    expect(architectureForSyclTarget('amd_gpu_gfx1030')?.name).toBe('amd_gpu_gfx1030');
    expect(architectureForSyclTarget('spir64')).toBeUndefined();
    expect(architectureForSyclTarget('x86_64')).toBeUndefined();
  });
});

describe('encodeArchitecture / decodeArchitecture', () => {
  it('lays fields out as 0xAA BBBB CCCCCCCC DD', () => {
    expect(encodeArchitecture({ family: 'amd_gpu', reserved: 0, id: 0x90a, suffix: 0 })).toBe(0x0200000000090a00n);
    // sm_90a is sm_90 with DD = 0xa0.
    expect(decodeArchitecture(0x01000000000090a0n)).toEqual({ family: 'nvidia_gpu', reserved: 0, id: 0x90, suffix: 0xa0 });
  });

  it('rejects unknown family codes and out-of-range fields', () => {
    expect(() => decodeArchitecture(0x0400000000000000n)).toThrow(/unknown architecture family code 0x04/);
    expect(() => encodeArchitecture({ family: 'intel_gpu', reserved: 0, id: 2 ** 32, suffix: 0 })).toThrow(RangeError);
    expect(() => decodeArchitecture(-1n)).toThrow(RangeError);
  });
});

/**
 * `enum class sycl::ext::oneapi::experimental::architecture : uint64_t`.
 *
 * Values follow intel/llvm `sycl/include/sycl/ext/oneapi/experimental/device_architecture.def`
 * @055b860f (a superset of the @2f2a758e table in the reference notes). A value is laid out as
 * `0xAA BBBB CCCCCCCC DD`: AA the family, BBBB reserved (0), CCCCCCCC the id inside the family
 * (Intel GPU: the GMDID / IP version; NVIDIA: the SM number as hex digits; AMD: the gfx number
 * as hex digits; Intel CPU: the CPU IP version), DD reserved (0, except 0xa0 for sm_90a).
 */

export type ArchitectureFamily = 'intel_gpu' | 'nvidia_gpu' | 'amd_gpu' | 'intel_cpu' | 'unknown';

const FAMILY_CODES: Readonly<Record<ArchitectureFamily, number>> = {
  intel_gpu: 0x00,
  nvidia_gpu: 0x01,
  amd_gpu: 0x02,
  intel_cpu: 0x03,
  unknown: 0x99,
};

export interface ArchitectureFields {
  readonly family: ArchitectureFamily;
  /** BBBB: 16 bits, 0 in every known value. */
  readonly reserved: number;
  /** CCCCCCCC: 32 bits. */
  readonly id: number;
  /** DD: 8 bits; 0 except in nvidia_gpu_sm_90a (0xa0, the "a" variant of sm_90). */
  readonly suffix: number;
}

/** Intel GPU IP version (GMDID) split into its fields. */
export interface IntelGpuIpVersion {
  readonly major: number;
  readonly minor: number;
  readonly revision: number;
}

export interface ArchitectureInfo {
  /** Enumerator name, e.g. `intel_gpu_pvc`. */
  readonly name: string;
  readonly value: bigint;
  readonly family: ArchitectureFamily;
  /** Other enumerator names with the same value (`__SYCL_ARCHITECTURE_ALIAS`). */
  readonly aliases: readonly string[];
  /** The `-fsycl-targets` value that compiles for exactly this architecture, if any. */
  readonly syclTarget: string | undefined;
  /** Intel GPUs only: the GMDID (IP version) held in CCCCCCCC, as Level Zero / OpenCL report it. */
  readonly gmdid: number | undefined;
  /** Intel GPUs only: the GMDID split into fields. */
  readonly ipVersion: IntelGpuIpVersion | undefined;
}

export function encodeArchitecture(fields: ArchitectureFields): bigint {
  const { family, reserved, id, suffix } = fields;
  if (!Number.isInteger(reserved) || reserved < 0 || reserved > 0xffff) throw new RangeError(`reserved field out of range: ${reserved}`);
  if (!Number.isInteger(id) || id < 0 || id > 0xffffffff) throw new RangeError(`architecture id out of range: ${id}`);
  if (!Number.isInteger(suffix) || suffix < 0 || suffix > 0xff) throw new RangeError(`suffix field out of range: ${suffix}`);
  return (BigInt(FAMILY_CODES[family]) << 56n) | (BigInt(reserved) << 40n) | (BigInt(id) << 8n) | BigInt(suffix);
}

export function decodeArchitecture(value: bigint): ArchitectureFields {
  if (value < 0n || value > 0xffffffffffffffffn) throw new RangeError(`architecture value is not a uint64: ${value}`);
  const code = Number(value >> 56n);
  const family = (Object.keys(FAMILY_CODES) as ArchitectureFamily[]).find((f) => FAMILY_CODES[f] === code);
  if (family === undefined) throw new RangeError(`unknown architecture family code 0x${code.toString(16).padStart(2, '0')}`);
  return {
    family,
    reserved: Number((value >> 40n) & 0xffffn),
    id: Number((value >> 8n) & 0xffffffffn),
    suffix: Number(value & 0xffn),
  };
}

/**
 * `static_cast<int>(architecture)`: what device_if condition expressions carry. Only the low 32
 * bits survive, so distinct architectures can collide (x86_64, unknown, bdw and tgllp are all 0)
 * and some become negative (icllp, ehl, ptl_h, ptl_u).
 */
export function truncateArchitectureToInt32(value: bigint): number {
  return Number(BigInt.asIntN(32, value));
}

/** GMDID layout: bits 31..22 major, 21..14 minor, 5..0 revision. */
export function encodeIntelGpuIpVersion(version: IntelGpuIpVersion): number {
  const { major, minor, revision } = version;
  if (major < 0 || major > 0x3ff || minor < 0 || minor > 0xff || revision < 0 || revision > 0x3f) {
    throw new RangeError(`IP version ${major}.${minor}.${revision} does not fit a GMDID`);
  }
  return ((major << 22) | (minor << 14) | revision) >>> 0;
}

export function decodeIntelGpuIpVersion(gmdid: number): IntelGpuIpVersion {
  return { major: gmdid >>> 22, minor: (gmdid >>> 14) & 0xff, revision: gmdid & 0x3f };
}

export function formatArchitectureValue(value: bigint): string {
  return `0x${value.toString(16).padStart(16, '0')}`;
}

// [name, value, aliases]. Order is that of the .def file.
type Row = readonly [string, bigint, readonly string[]];

const ROWS: readonly Row[] = [
  ['unknown', 0x9900000000000000n, []],
  ['x86_64', 0x0300000000000000n, []],
  ['intel_cpu_spr', 0x0300000000000800n, []],
  ['intel_cpu_gnr', 0x0300000000000900n, []],
  ['intel_cpu_dmr', 0x0300000000001000n, []],
  ['intel_gpu_bdw', 0x0000000200000000n, ['intel_gpu_8_0_0']],
  ['intel_gpu_skl', 0x0000000240000900n, ['intel_gpu_9_0_9']],
  ['intel_gpu_kbl', 0x0000000240400900n, ['intel_gpu_9_1_9']],
  ['intel_gpu_cfl', 0x0000000240800900n, ['intel_gpu_9_2_9']],
  ['intel_gpu_apl', 0x0000000240c00000n, ['intel_gpu_bxt', 'intel_gpu_9_3_0']],
  ['intel_gpu_glk', 0x0000000241000000n, ['intel_gpu_9_4_0']],
  ['intel_gpu_whl', 0x0000000241400000n, ['intel_gpu_9_5_0']],
  ['intel_gpu_aml', 0x0000000241800000n, ['intel_gpu_9_6_0']],
  ['intel_gpu_cml', 0x0000000241c00000n, ['intel_gpu_9_7_0']],
  ['intel_gpu_icllp', 0x00000002c0000000n, ['intel_gpu_icl', 'intel_gpu_11_0_0']],
  ['intel_gpu_ehl', 0x00000002c0800000n, ['intel_gpu_jsl', 'intel_gpu_11_2_0']],
  ['intel_gpu_tgllp', 0x0000000300000000n, ['intel_gpu_tgl', 'intel_gpu_12_0_0']],
  ['intel_gpu_rkl', 0x0000000300400000n, ['intel_gpu_12_1_0']],
  ['intel_gpu_adl_s', 0x0000000300800000n, ['intel_gpu_rpl_s', 'intel_gpu_12_2_0']],
  ['intel_gpu_adl_p', 0x0000000300c00000n, ['intel_gpu_12_3_0']],
  ['intel_gpu_adl_n', 0x0000000301000000n, ['intel_gpu_12_4_0']],
  ['intel_gpu_dg1', 0x0000000302800000n, ['intel_gpu_12_10_0']],
  ['intel_gpu_acm_g10', 0x000000030dc00800n, ['intel_gpu_dg2_g10', 'intel_gpu_12_55_8']],
  ['intel_gpu_acm_g11', 0x000000030e000500n, ['intel_gpu_dg2_g11', 'intel_gpu_12_56_5']],
  ['intel_gpu_acm_g12', 0x000000030e400000n, ['intel_gpu_dg2_g12', 'intel_gpu_12_57_0']],
  ['intel_gpu_pvc', 0x000000030f000700n, ['intel_gpu_12_60_7']],
  ['intel_gpu_pvc_vg', 0x000000030f400700n, ['intel_gpu_12_61_7']],
  ['intel_gpu_mtl_u', 0x0000000311800400n, ['intel_gpu_mtl_s', 'intel_gpu_arl_u', 'intel_gpu_arl_s', 'intel_gpu_12_70_4']],
  ['intel_gpu_mtl_h', 0x0000000311c00400n, ['intel_gpu_12_71_4']],
  ['intel_gpu_arl_h', 0x0000000312800400n, ['intel_gpu_12_74_4']],
  ['intel_gpu_bmg_g21', 0x0000000500400400n, ['intel_gpu_20_1_4']],
  ['intel_gpu_bmg_g31', 0x0000000500800000n, ['intel_gpu_20_2_0']],
  ['intel_gpu_lnl_m', 0x0000000501000400n, ['intel_gpu_20_4_4']],
  ['intel_gpu_ptl_h', 0x0000000780000400n, ['intel_gpu_30_0_4']],
  ['intel_gpu_ptl_u', 0x0000000780400100n, ['intel_gpu_30_1_1']],
  ['intel_gpu_wcl', 0x0000000780c00000n, ['intel_gpu_30_3_0']],
  // Upstream quirk: the values of nvl_s and nvl_u say revision 4, their version aliases say 0.
  ['intel_gpu_nvl_s', 0x0000000781000400n, ['intel_gpu_nvl_hx', 'intel_gpu_nvl_ul', 'intel_gpu_30_4_0']],
  ['intel_gpu_nvl_u', 0x0000000781400400n, ['intel_gpu_nvl_h', 'intel_gpu_30_5_0']],
  ['intel_gpu_nvl_p', 0x00000008c2800000n, ['intel_gpu_35_10_0']],
  ['nvidia_gpu_sm_50', 0x0100000000005000n, []],
  ['nvidia_gpu_sm_52', 0x0100000000005200n, []],
  ['nvidia_gpu_sm_53', 0x0100000000005300n, []],
  ['nvidia_gpu_sm_60', 0x0100000000006000n, []],
  ['nvidia_gpu_sm_61', 0x0100000000006100n, []],
  ['nvidia_gpu_sm_62', 0x0100000000006200n, []],
  ['nvidia_gpu_sm_70', 0x0100000000007000n, []],
  ['nvidia_gpu_sm_72', 0x0100000000007200n, []],
  ['nvidia_gpu_sm_75', 0x0100000000007500n, []],
  ['nvidia_gpu_sm_80', 0x0100000000008000n, []],
  ['nvidia_gpu_sm_86', 0x0100000000008600n, []],
  ['nvidia_gpu_sm_87', 0x0100000000008700n, []],
  ['nvidia_gpu_sm_89', 0x0100000000008900n, []],
  ['nvidia_gpu_sm_90', 0x0100000000009000n, []],
  ['nvidia_gpu_sm_90a', 0x01000000000090a0n, []],
  ['amd_gpu_gfx700', 0x0200000000070000n, []],
  ['amd_gpu_gfx701', 0x0200000000070100n, []],
  ['amd_gpu_gfx702', 0x0200000000070200n, []],
  ['amd_gpu_gfx703', 0x0200000000070300n, []],
  ['amd_gpu_gfx704', 0x0200000000070400n, []],
  ['amd_gpu_gfx705', 0x0200000000070500n, []],
  ['amd_gpu_gfx801', 0x0200000000080100n, []],
  ['amd_gpu_gfx802', 0x0200000000080200n, []],
  ['amd_gpu_gfx803', 0x0200000000080300n, []],
  ['amd_gpu_gfx805', 0x0200000000080500n, []],
  ['amd_gpu_gfx810', 0x0200000000081000n, []],
  ['amd_gpu_gfx900', 0x0200000000090000n, []],
  ['amd_gpu_gfx902', 0x0200000000090200n, []],
  ['amd_gpu_gfx904', 0x0200000000090400n, []],
  ['amd_gpu_gfx906', 0x0200000000090600n, []],
  ['amd_gpu_gfx908', 0x0200000000090800n, []],
  ['amd_gpu_gfx909', 0x0200000000090900n, []],
  ['amd_gpu_gfx90a', 0x0200000000090a00n, []],
  ['amd_gpu_gfx90c', 0x0200000000090c00n, []],
  ['amd_gpu_gfx940', 0x0200000000094000n, []],
  ['amd_gpu_gfx941', 0x0200000000094100n, []],
  ['amd_gpu_gfx942', 0x0200000000094200n, []],
  ['amd_gpu_gfx1010', 0x0200000000101000n, []],
  ['amd_gpu_gfx1011', 0x0200000000101100n, []],
  ['amd_gpu_gfx1012', 0x0200000000101200n, []],
  ['amd_gpu_gfx1013', 0x0200000000101300n, []],
  ['amd_gpu_gfx1030', 0x0200000000103000n, []],
  ['amd_gpu_gfx1031', 0x0200000000103100n, []],
  ['amd_gpu_gfx1032', 0x0200000000103200n, []],
  ['amd_gpu_gfx1033', 0x0200000000103300n, []],
  ['amd_gpu_gfx1034', 0x0200000000103400n, []],
  ['amd_gpu_gfx1035', 0x0200000000103500n, []],
  ['amd_gpu_gfx1036', 0x0200000000103600n, []],
  ['amd_gpu_gfx1100', 0x0200000000110000n, []],
  ['amd_gpu_gfx1101', 0x0200000000110100n, []],
  ['amd_gpu_gfx1102', 0x0200000000110200n, []],
  ['amd_gpu_gfx1103', 0x0200000000110300n, []],
  ['amd_gpu_gfx1150', 0x0200000000115000n, []],
  ['amd_gpu_gfx1151', 0x0200000000115100n, []],
  ['amd_gpu_gfx1200', 0x0200000000120000n, []],
  ['amd_gpu_gfx1201', 0x0200000000120100n, []],
];

function syclTargetOf(name: string, family: ArchitectureFamily): string | undefined {
  if (name === 'x86_64') return 'spir64_x86_64';
  // -fsycl-targets names for GPUs are the enumerator names themselves.
  return family === 'intel_gpu' || family === 'nvidia_gpu' || family === 'amd_gpu' ? name : undefined;
}

/** Every architecture enumerator with its value, in `.def` order. Aliases are listed on their target. */
export const ARCHITECTURES: readonly ArchitectureInfo[] = Object.freeze(
  ROWS.map(([name, value, aliases]): ArchitectureInfo => {
    const { family, id } = decodeArchitecture(value);
    return Object.freeze({
      name,
      value,
      family,
      aliases: Object.freeze([...aliases]),
      syclTarget: syclTargetOf(name, family),
      gmdid: family === 'intel_gpu' ? id : undefined,
      ipVersion: family === 'intel_gpu' ? Object.freeze(decodeIntelGpuIpVersion(id)) : undefined,
    });
  }),
);

const byName = new Map<string, ArchitectureInfo>();
for (const info of ARCHITECTURES) {
  byName.set(info.name, info);
  for (const alias of info.aliases) byName.set(alias, info);
}
const byValue = new Map<bigint, ArchitectureInfo>(ARCHITECTURES.map((info) => [info.value, info]));

/** Looks an enumerator up by name or alias (`intel_gpu_12_60_7` finds `intel_gpu_pvc`). */
export function architectureByName(name: string): ArchitectureInfo | undefined {
  return byName.get(name);
}

export function architectureByValue(value: bigint): ArchitectureInfo | undefined {
  return byValue.get(value);
}

/**
 * Architectures whose 32-bit truncation equals `operand` (a device_if condition operand). More
 * than one comes back when truncations collide.
 */
export function architecturesForConditionOperand(operand: number): readonly ArchitectureInfo[] {
  return ARCHITECTURES.filter((info) => truncateArchitectureToInt32(info.value) === operand);
}

/** The architecture a `-fsycl-targets` value compiles for, if it names exactly one. */
export function architectureForSyclTarget(target: string): ArchitectureInfo | undefined {
  if (target === 'spir64_x86_64') return byName.get('x86_64');
  const info = byName.get(target);
  // GPU target names (and their aliases) are spelled like the enumerators; other enumerators are not target names.
  return info !== undefined && info.syclTarget === info.name ? info : undefined;
}

/** The `-fsycl-targets` value for an architecture name, value or alias. */
export function syclTargetForArchitecture(architecture: string | bigint): string | undefined {
  const info = typeof architecture === 'bigint' ? byValue.get(architecture) : byName.get(architecture);
  return info?.syclTarget;
}

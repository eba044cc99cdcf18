/**
 * The names `-fsycl-targets` accepts without a user configuration file: device names (with their
 * aliases) from the architecture enum, and the generic triples. Each carries what the driver
 * derives from it (triple, offload arch) and, as syclkit's own addition, what a simulated device
 * of that target looks like.
 */

import { ARCHITECTURES, architectureByName, type ArchitectureInfo } from './architectures.js';
import { oclocDeviceFor } from './builtin-targets.js';
import { deepFreeze } from './config-entry.js';

/**
 * - `intel_gpu`, `nvidia_gpu`, `amd_gpu`: a device name (AOT for one architecture).
 * - `generic`: a triple such as `spir64` or `nvptx64-nvidia-cuda`.
 * - `custom`: a name defined only by a user configuration file.
 */
export type TargetKind = 'intel_gpu' | 'nvidia_gpu' | 'amd_gpu' | 'generic' | 'custom';

/** SYCL backend names (`sycl::backend` enumerators). */
export type Backend = 'ext_oneapi_level_zero' | 'ext_oneapi_cuda' | 'ext_oneapi_hip' | 'opencl';

/**
 * syclkit's addition, not part of intel/llvm's configuration: what a simulated device of the
 * target reports. The work-group limits are plausible values for the hardware generation, not
 * measurements.
 */
export interface SimulatedDeviceTraits {
  readonly deviceType: 'gpu' | 'cpu' | 'accelerator';
  readonly backend: Backend;
  readonly maxWorkGroupSize: number;
}

export interface KnownTarget {
  /** Canonical name, e.g. `intel_gpu_pvc`, `spir64`, `nvptx64-nvidia-cuda`. */
  readonly name: string;
  /** Other spellings that select the same target, e.g. `intel_gpu_12_60_7`. */
  readonly aliases: readonly string[];
  readonly kind: TargetKind;
  /** The device triple the driver compiles for (normalized), if one is known. */
  readonly triple: string | undefined;
  /** What the driver passes to the device toolchain: ocloc `-device`, `sm_XX` or `gfxNNN`. */
  readonly offloadArch: string | undefined;
  /** The `architecture` enumerator of every device of the target, when it is fixed. */
  readonly architecture: string | undefined;
  /** False only for JIT targets (`spir64`, `spir`). */
  readonly aot: boolean;
  readonly simulated: SimulatedDeviceTraits | undefined;
  readonly builtin: boolean;
}

export const SPIR64_GEN_TRIPLE = 'spir64_gen-unknown-unknown';
export const NVPTX_TRIPLE = 'nvptx64-nvidia-cuda';
export const AMDGCN_TRIPLE = 'amdgcn-amd-amdhsa';

function intelGpuWorkGroupLimit(info: ArchitectureInfo | undefined): number {
  const version = info?.ipVersion;
  if (version === undefined) return 512;
  // Gen9/Gen11 report 256, Xe-LP (12.0..12.10) 512, Xe-HPG/HPC/LPG and later 1024.
  if (version.major < 12) return 256;
  if (version.major === 12 && version.minor <= 10) return 512;
  return 1024;
}

/** syclkit's simulated-device traits for a target name of a given kind (undefined for generic triples). */
export function simulatedTraitsFor(name: string, kind: TargetKind): SimulatedDeviceTraits | undefined {
  switch (kind) {
    case 'intel_gpu':
      return { deviceType: 'gpu', backend: 'ext_oneapi_level_zero', maxWorkGroupSize: intelGpuWorkGroupLimit(architectureByName(name)) };
    case 'nvidia_gpu':
      return { deviceType: 'gpu', backend: 'ext_oneapi_cuda', maxWorkGroupSize: 1024 };
    case 'amd_gpu':
      return { deviceType: 'gpu', backend: 'ext_oneapi_hip', maxWorkGroupSize: 1024 };
    case 'generic':
    case 'custom':
      // Only the x86_64 CPU targets describe one kind of device; other generic targets stand for many.
      return name === 'spir64_x86_64' || name === 'x86_64' ? { deviceType: 'cpu', backend: 'opencl', maxWorkGroupSize: 8192 } : undefined;
  }
}

/** Kind, triple and offload arch the driver derives from a device-name prefix. */
export function deviceNameTraits(name: string): Pick<KnownTarget, 'kind' | 'triple' | 'offloadArch'> {
  if (name.startsWith('intel_gpu_')) return { kind: 'intel_gpu', triple: SPIR64_GEN_TRIPLE, offloadArch: oclocDeviceFor(name) };
  if (name.startsWith('nvidia_gpu_')) return { kind: 'nvidia_gpu', triple: NVPTX_TRIPLE, offloadArch: name.slice('nvidia_gpu_'.length) };
  if (name.startsWith('amd_gpu_')) return { kind: 'amd_gpu', triple: AMDGCN_TRIPLE, offloadArch: name.slice('amd_gpu_'.length) };
  return { kind: 'custom', triple: undefined, offloadArch: undefined };
}

function generic(name: string, triple: string, aot: boolean, architecture?: string): KnownTarget {
  return {
    name,
    aliases: [],
    kind: 'generic',
    triple,
    offloadArch: undefined,
    architecture,
    aot,
    simulated: simulatedTraitsFor(name, 'generic'),
    builtin: true,
  };
}

/** Built-in known targets: generic triples first, then device names in architecture-enum order. */
export const BUILTIN_KNOWN_TARGETS: readonly KnownTarget[] = deepFreeze([
  generic('spir64', 'spir64-unknown-unknown', false),
  generic('spir', 'spir-unknown-unknown', false),
  generic('spir64_gen', SPIR64_GEN_TRIPLE, true),
  generic('spir64_x86_64', 'spir64_x86_64-unknown-unknown', true, 'x86_64'),
  generic('spir64_fpga', 'spir64_fpga-unknown-unknown', true),
  generic(NVPTX_TRIPLE, NVPTX_TRIPLE, true),
  generic(AMDGCN_TRIPLE, AMDGCN_TRIPLE, true),
  ...ARCHITECTURES.filter((info) => info.syclTarget === info.name).map((info): KnownTarget => {
    const traits = deviceNameTraits(info.name);
    return {
      name: info.name,
      aliases: info.aliases,
      ...traits,
      architecture: info.name,
      aot: true,
      simulated: simulatedTraitsFor(info.name, traits.kind),
      builtin: true,
    };
  }),
]);

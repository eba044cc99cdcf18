/**
 * Which bundles of a fat binary can run on a device (OptionalDeviceFeatures.md, "Identifying a
 * compatible offload bundle", and intel/llvm's `is_compatible` for the generic triples).
 */
import { encodeIntelGpuIpVersion, type DeviceConfig } from '@syclkit/device-config';
import type { Device } from './device.js';

/**
 * How a bundle target fits a device, best first:
 * - `device`: AOT code for exactly this device (its target name, an alias, or its IP version);
 * - `family`: a generic AOT triple the device can run (`spir64_gen` on an Intel GPU through
 *   OpenCL or Level Zero, `spir64_x86_64` on a CPU, `spir64_fpga` on an accelerator, `nvptx64`
 *   on CUDA, `amdgcn` on HIP);
 * - `jit`: SPIR-V (`spir64`, `spir`) for an OpenCL or Level Zero device.
 */
export type BundleMatch = 'device' | 'family' | 'jit';

/** Order of preference. */
export const BUNDLE_MATCH_RANK: Readonly<Record<BundleMatch, number>> = { device: 0, family: 1, jit: 2 };

/** The GMDID an `intel_gpu_<major>_<minor>_<revision>` or `intel_gpu_<gmdid>` target names, if it is one. */
export function ipVersionOfTarget(target: string): number | undefined {
  if (!target.startsWith('intel_gpu_')) return undefined;
  const rest = target.slice('intel_gpu_'.length);
  const dotted = /^(\d+)_(\d+)_(\d+)$/.exec(rest);
  if (dotted !== null) {
    try {
      return encodeIntelGpuIpVersion({ major: Number(dotted[1]), minor: Number(dotted[2]), revision: Number(dotted[3]) });
    } catch {
      return undefined;
    }
  }
  if (/^0x[0-9a-f]{1,8}$/i.test(rest) || /^\d{1,10}$/.test(rest)) {
    const value = Number(rest);
    return value <= 0xffff_ffff ? value : undefined;
  }
  return undefined;
}

/** Whether `target` names the device itself (name, alias, triple spelling, or IP version). */
export function targetNamesDevice(target: string, device: Device, config: DeviceConfig): boolean {
  const names = device.targetNames();
  if (names.includes(target)) return true;
  const resolved = config.resolve(target);
  if (resolved !== undefined && names.includes(resolved.name)) return true;
  const ip = ipVersionOfTarget(target);
  return ip !== undefined && device.ipVersion !== undefined && ip === device.ipVersion;
}

/** The triple's first component: `spir64_gen-unknown-unknown` → `spir64_gen`. */
function arch(target: string): string {
  const dash = target.indexOf('-');
  return dash < 0 ? target : target.slice(0, dash);
}

const openclOrLevelZero = (device: Device): boolean => device.backend === 'opencl' || device.backend === 'ext_oneapi_level_zero';

/** The compute capability an NVIDIA target names (`nvidia_gpu_sm_80`, `sm_80`, `sm_90a`): 80, `'90a'`. */
export function smOfTarget(target: string): { readonly level: number; readonly specific: boolean } | undefined {
  const m = /^(?:nvidia_gpu_)?sm_(\d+)(a?)$/.exec(target);
  return m === null ? undefined : { level: Number(m[1]), specific: m[2] === 'a' };
}

/**
 * Whether PTX made for `imageTarget` (an sm level) runs on `device`: the CUDA driver JIT-compiles
 * PTX for its own GPU, so PTX of a lower sm runs on a higher one, never the reverse; `sm_90a` PTX
 * (architecture-specific features) runs on sm_90 only. Undefined when either side names no sm.
 */
export function ptxRunsOn(imageTarget: string, device: Device): boolean | undefined {
  const image = smOfTarget(imageTarget);
  const own = device.architecture === undefined ? undefined : smOfTarget(device.architecture.name);
  if (image === undefined || own === undefined) return undefined;
  return image.specific ? image.level === own.level : image.level <= own.level;
}

/** How `target` fits `device`, or undefined when the device cannot run its images. */
export function matchBundle(target: string, device: Device, config: DeviceConfig): BundleMatch | undefined {
  if (targetNamesDevice(target, device, config)) return 'device';
  // nvidia_gpu_sm_NN bundles hold PTX, which the driver also compiles for newer GPUs
  if (smOfTarget(target) !== undefined) return device.backend === 'ext_oneapi_cuda' && ptxRunsOn(target, device) === true ? 'family' : undefined;
  switch (arch(target)) {
    case 'spir64':
    case 'spir':
      return openclOrLevelZero(device) ? 'jit' : undefined;
    case 'spir64_gen':
      return device.deviceType === 'gpu' && openclOrLevelZero(device) && (device.architecture === undefined || device.architecture.family === 'intel_gpu') ? 'family' : undefined;
    case 'spir64_x86_64':
      return device.deviceType === 'cpu' ? 'family' : undefined;
    case 'spir64_fpga':
      return device.deviceType === 'accelerator' ? 'family' : undefined;
    case 'nvptx64':
    case 'nvptx':
      return device.backend === 'ext_oneapi_cuda' ? 'family' : undefined;
    case 'amdgcn':
      return device.backend === 'ext_oneapi_hip' ? 'family' : undefined;
    default:
      return undefined;
  }
}

/**
 * Devices: what `sycl::device` reports about itself (aspects, sub-group sizes, work-group limits,
 * backend, architecture, IP version), made from a device-config target or described by hand.
 */
import {
  ARCHITECTURES,
  DeviceConfig,
  architectureByName,
  builtinAspectTable,
  decodeIntelGpuIpVersion,
  resolveTarget,
  type ArchitectureInfo,
  type AspectRef,
  type AspectTable,
  type Backend,
  type SimulatedDeviceTraits,
} from '@syclkit/device-config';
import { deviceFacts, type DeviceFacts } from '@syclkit/device-if';
import type { ProgramBackend } from './backend.js';

export type DeviceType = SimulatedDeviceTraits['deviceType'];
export type { Backend };

/**
 * One entry of `info::device::matrix_combinations` (sycl_ext_oneapi_matrix): element types and
 * sizes; a size of 0 means "any size up to the max".
 */
export interface MatrixCombination {
  readonly atype: string;
  readonly btype: string;
  readonly ctype: string;
  readonly dtype: string;
  readonly msize: number;
  readonly nsize: number;
  readonly ksize: number;
  readonly maxMsize: number;
  readonly maxNsize: number;
  readonly maxKsize: number;
}

/** Everything a device is made from. */
export interface DeviceInit {
  /** Shown in messages and reports, e.g. `intel_gpu_pvc` or `my-gpu`. */
  readonly name: string;
  /** The device-config target the device is an instance of (canonical name), if any. */
  readonly target?: string;
  /** Other spellings of `target` (e.g. `intel_gpu_12_60_7`). */
  readonly targetAliases?: readonly string[];
  /** The `architecture` enumerator, if known. */
  readonly architecture?: ArchitectureInfo;
  /** Intel GPUs: the GMDID the driver reports (`ze_device_ip_version_ext_t`, `CL_DEVICE_IP_VERSION_INTEL`). */
  readonly ipVersion?: number;
  /** Aspect values (`enum class aspect`). */
  readonly aspects: Iterable<number>;
  /** `info::device::sub_group_sizes`. */
  readonly subGroupSizes: readonly number[];
  /** `info::device::max_work_group_size`. */
  readonly maxWorkGroupSize: number;
  /** `info::device::max_work_item_sizes<3>` (default: `maxWorkGroupSize` in every dimension). */
  readonly maxWorkItemSizes?: readonly [number, number, number];
  readonly backend: Backend;
  readonly deviceType: DeviceType;
  /** `matrix_combinations` (default none: joint_matrix kernels are not supported). */
  readonly matrixCombinations?: readonly MatrixCombination[];
  /**
   * The backend that builds and runs this device's programs, for a real device (the CUDA
   * platform's devices carry theirs). Default: the runtime's backend.
   */
  readonly programBackend?: ProgramBackend;
}

let nextDeviceId = 1;

/** The aspect every device of a type has (`aspect::gpu`, `cpu`, `accelerator`). */
const DEVICE_TYPE_ASPECT: Readonly<Record<DeviceType, number>> = { cpu: 1, gpu: 2, accelerator: 3 };

/**
 * A device. Immutable; `id` is unique in the process (the program cache keys on it, as SYCL
 * programs belong to one device).
 */
export class Device {
  readonly id: number;
  readonly name: string;
  readonly target: string | undefined;
  readonly targetAliases: readonly string[];
  readonly architecture: ArchitectureInfo | undefined;
  readonly ipVersion: number | undefined;
  /** Aspect values, ascending (the device-type aspect included). */
  readonly aspects: readonly number[];
  readonly subGroupSizes: readonly number[];
  readonly maxWorkGroupSize: number;
  readonly maxWorkItemSizes: readonly [number, number, number];
  readonly backend: Backend;
  readonly deviceType: DeviceType;
  readonly matrixCombinations: readonly MatrixCombination[];
  /** The backend bound to this device, if any (see DeviceInit). */
  readonly programBackend: ProgramBackend | undefined;
  readonly #aspects: ReadonlySet<number>;
  readonly #facts: DeviceFacts;

  constructor(init: DeviceInit) {
    const positive = (value: number, what: string): number => {
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`device '${init.name}': ${what} must be a positive integer, got ${value}`);
      return value;
    };
    this.id = nextDeviceId++;
    this.name = init.name;
    this.target = init.target;
    this.targetAliases = Object.freeze([...(init.targetAliases ?? [])]);
    this.architecture = init.architecture;
    this.ipVersion = init.ipVersion ?? init.architecture?.gmdid;
    const aspects = new Set(init.aspects);
    aspects.add(DEVICE_TYPE_ASPECT[init.deviceType]);
    this.#aspects = aspects;
    this.aspects = Object.freeze([...aspects].sort((a, b) => a - b));
    this.subGroupSizes = Object.freeze([...new Set(init.subGroupSizes.map((s) => positive(s, 'a sub-group size')))].sort((a, b) => a - b));
    this.maxWorkGroupSize = positive(init.maxWorkGroupSize, 'max_work_group_size');
    const items = init.maxWorkItemSizes ?? [this.maxWorkGroupSize, this.maxWorkGroupSize, this.maxWorkGroupSize];
    this.maxWorkItemSizes = Object.freeze([positive(items[0], 'max_work_item_sizes'), positive(items[1], 'max_work_item_sizes'), positive(items[2], 'max_work_item_sizes')]) as readonly [
      number,
      number,
      number,
    ];
    this.backend = init.backend;
    this.deviceType = init.deviceType;
    this.matrixCombinations = Object.freeze([...(init.matrixCombinations ?? [])]);
    this.programBackend = init.programBackend;
    this.#facts = deviceFacts(this.aspects, this.architecture?.value);
    Object.freeze(this);
  }

  /** `device::has(aspect)`; names are read with `table` (default: the built-in aspect table). */
  has(aspect: AspectRef, table: AspectTable = builtinAspectTable): boolean {
    const value = typeof aspect === 'number' ? aspect : table.valueOf(aspect);
    return value !== undefined && this.#aspects.has(value);
  }

  /** Whether `info::device::sub_group_sizes` contains `size`. */
  supportsSubGroupSize(size: number): boolean {
    return this.subGroupSizes.includes(size);
  }

  /** What device_if conditions are evaluated against. */
  get facts(): DeviceFacts {
    return this.#facts;
  }

  /** Every spelling that names this device's target: canonical name, aliases, architecture names. */
  targetNames(): readonly string[] {
    const names = new Set<string>();
    if (this.target !== undefined) names.add(this.target);
    for (const alias of this.targetAliases) names.add(alias);
    if (this.architecture !== undefined) {
      names.add(this.architecture.name);
      for (const alias of this.architecture.aliases) names.add(alias);
    }
    return [...names];
  }

  /** `intel_gpu_pvc (gpu, ext_oneapi_level_zero)`. */
  toString(): string {
    return `${this.name} (${this.deviceType}, ${this.backend})`;
  }
}

/** Why a device could not be made (a target that describes no single device, a bad description file). */
export class DeviceError extends Error {
  override readonly name = 'DeviceError';
  constructor(
    message: string,
    /** Where in a description file, when the problem has a place. */
    readonly location?: { readonly file: string; readonly line: number; readonly column: number },
  ) {
    super(message);
  }

  /** `file:line:col: error: message`, or `error: message`. */
  render(): string {
    const where = this.location === undefined ? '' : `${this.location.file}:${this.location.line}:${this.location.column}: `;
    return `${where}error: ${this.message}`;
  }
}

/** The backend a device of an architecture family talks to by default. */
export function defaultBackend(deviceType: DeviceType, architecture: ArchitectureInfo | undefined): Backend {
  switch (architecture?.family) {
    case 'nvidia_gpu':
      return 'ext_oneapi_cuda';
    case 'amd_gpu':
      return 'ext_oneapi_hip';
    case 'intel_gpu':
      return 'ext_oneapi_level_zero';
    default:
      return deviceType === 'gpu' ? 'ext_oneapi_level_zero' : 'opencl';
  }
}

/**
 * A device that is an instance of a device-config target (name, alias or triple): the aspects and
 * sub-group sizes of the target's configuration entry, syclkit's simulated traits (device type,
 * backend, max work-group size), the target's architecture and IP version. A device has exactly
 * the aspects its entry lists (also when the entry says `may_support_other_aspects`), plus the
 * aspect of its device type.
 *
 * Throws device-config's `UnknownTargetError` for unknown names and a DeviceError for targets that
 * stand for many kinds of device (`spir64`, `spir64_gen`) or have no configuration entry.
 */
export function deviceFromTarget(spelling: string, config: DeviceConfig = DeviceConfig.builtin()): Device {
  const resolved = resolveTarget(config, spelling);
  const description = config.describe(resolved.name);
  const entry = description === undefined ? undefined : config.entryFor(resolved);
  if (description === undefined || description.simulated === undefined) {
    throw new DeviceError(`target '${spelling}' stands for many kinds of device; name a device target (e.g. intel_gpu_pvc) or give a device description file`);
  }
  if (entry === undefined) {
    throw new DeviceError(`target '${spelling}' has no configuration entry, so its aspects are not known; give a device description file or a -fsycl-device-config-file entry`);
  }
  const aspects: number[] = [];
  for (const name of entry.aspects) {
    const value = config.aspectTable.valueOf(name);
    if (value !== undefined) aspects.push(value);
  }
  const architecture = description.architecture ?? architectureByName(resolved.name);
  return new Device({
    name: description.name,
    target: description.name,
    targetAliases: description.aliases,
    ...(architecture === undefined ? {} : { architecture }),
    aspects,
    subGroupSizes: entry.subGroupSizes,
    maxWorkGroupSize: description.simulated.maxWorkGroupSize,
    backend: description.simulated.backend,
    deviceType: description.simulated.deviceType,
  });
}

/** The architecture whose Intel GPU IP version (GMDID) is `gmdid`, if the enum has one. */
export function architectureForIpVersion(gmdid: number): ArchitectureInfo | undefined {
  return ARCHITECTURES.find((info) => info.gmdid === gmdid);
}

/** `12.60.7` for a GMDID. */
export function formatIpVersion(gmdid: number): string {
  const { major, minor, revision } = decodeIntelGpuIpVersion(gmdid);
  return `${major}.${minor}.${revision}`;
}

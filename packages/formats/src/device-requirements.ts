import { FormatError } from './errors.js';
import { DeviceRequirementName, PropertySetName } from './names.js';
import type { PropertySetRegistry } from './property-sets.js';
import {
  decodeInt32Array,
  decodeString,
  decodeUint32,
  decodeUint32Array,
  decodeUint64Array,
  stringValue,
  uint32ArrayValue,
  uint32Value,
  uint64ArrayValue,
  type PropertyValue,
} from './property-value.js';

/** The typed content of `SYCL/device requirements`. Absent properties are `undefined`. */
export interface DeviceRequirements {
  /** Aspect enum values as uint32 (sycl-post-link writes them sorted, deduplicated, non-negative). */
  readonly aspects?: readonly number[];
  /** Aspect values of `-fsycl-fixed-targets` (not checked by the runtime). */
  readonly fixedTarget?: readonly number[];
  /** `type,use,rows,cols` items separated by `;`. */
  readonly jointMatrix?: string;
  /** `typeA,typeB,typeC,typeD,M,K,N` items separated by `;`. */
  readonly jointMatrixMad?: string;
  readonly reqdSubGroupSize?: number;
  /** Legacy `reqd_work_group_size` (uint32 elements); the runtime prefers `reqdWorkGroupSize`. */
  readonly legacyReqdWorkGroupSize?: readonly number[];
  /** `reqd_work_group_size_uint64_t` (uint64 elements, no dimension count). */
  readonly reqdWorkGroupSize?: readonly bigint[];
  readonly workGroupNumDim?: number;
  /** e.g. `intel_gpu_pvc`; added by sycl-post-link for `-o <target>,<table>`. */
  readonly compileTarget?: string;
}

/** What the reader returns: the requirements plus `aspects` read as signed int32. */
export interface DeviceRequirementsRead extends DeviceRequirements {
  /** The same elements as `aspects`, as int32: internal aspects are negative. */
  readonly aspectsAsInt32?: readonly number[];
}

/**
 * Reads `SYCL/device requirements` from a registry; `undefined` when the set is absent. A property
 * of the wrong type or shape is a `FormatError` located at its line when the registry was read from
 * a file. Unknown properties are ignored, as the runtime does.
 */
export function readDeviceRequirements(registry: PropertySetRegistry): DeviceRequirementsRead | undefined {
  const set = registry.getSet(PropertySetName.DEVICE_REQUIREMENTS);
  if (set === undefined) return undefined;
  const read = <T>(name: string, decode: (value: PropertyValue) => T): T | undefined => {
    const value = set.get(name);
    return value === undefined ? undefined : decode(value);
  };
  const result: { -readonly [K in keyof DeviceRequirementsRead]: DeviceRequirementsRead[K] } = {};
  result.aspects = read(DeviceRequirementName.ASPECTS, decodeUint32Array);
  result.aspectsAsInt32 = read(DeviceRequirementName.ASPECTS, decodeInt32Array);
  result.fixedTarget = read(DeviceRequirementName.FIXED_TARGET, decodeUint32Array);
  result.jointMatrix = read(DeviceRequirementName.JOINT_MATRIX, decodeString);
  result.jointMatrixMad = read(DeviceRequirementName.JOINT_MATRIX_MAD, decodeString);
  result.reqdSubGroupSize = read(DeviceRequirementName.REQD_SUB_GROUP_SIZE, decodeUint32);
  result.legacyReqdWorkGroupSize = read(DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE, decodeUint32Array);
  result.reqdWorkGroupSize = read(DeviceRequirementName.REQD_WORK_GROUP_SIZE, decodeUint64Array);
  result.workGroupNumDim = read(DeviceRequirementName.WORK_GROUP_NUM_DIM, decodeUint32);
  result.compileTarget = read(DeviceRequirementName.COMPILE_TARGET, decodeString);
  for (const key of Object.keys(result) as (keyof DeviceRequirementsRead)[]) {
    if (result[key] === undefined) delete result[key];
  }
  return result;
}

/**
 * Adds `SYCL/device requirements` the way sycl-post-link does: properties in alphabetical order
 * (upstream builds them in a `std::map`), then `compile_target`. `aspects` is always written (empty
 * when not given); `fixed_target`, `joint_matrix` and `joint_matrix_mad` are omitted when empty, as
 * upstream never writes them empty. Throws if the set already exists (upstream asserts).
 */
export function addDeviceRequirements(registry: PropertySetRegistry, requirements: DeviceRequirements): void {
  const properties: [string, PropertyValue][] = [];
  const put = (name: string, value: PropertyValue | undefined): void => {
    if (value !== undefined) properties.push([name, value]);
  };
  const nonEmpty = <T extends { length: number }>(value: T | undefined): T | undefined =>
    value !== undefined && value.length > 0 ? value : undefined;
  const map = <T, R>(value: T | undefined, encode: (value: T) => R): R | undefined =>
    value === undefined ? undefined : encode(value);

  put(DeviceRequirementName.ASPECTS, uint32ArrayValue(requirements.aspects ?? []));
  put(DeviceRequirementName.FIXED_TARGET, map(nonEmpty(requirements.fixedTarget), uint32ArrayValue));
  put(DeviceRequirementName.JOINT_MATRIX, map(nonEmpty(requirements.jointMatrix), stringValue));
  put(DeviceRequirementName.JOINT_MATRIX_MAD, map(nonEmpty(requirements.jointMatrixMad), stringValue));
  put(DeviceRequirementName.REQD_SUB_GROUP_SIZE, map(requirements.reqdSubGroupSize, uint32Value));
  put(DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE, map(requirements.legacyReqdWorkGroupSize, uint32ArrayValue));
  put(DeviceRequirementName.REQD_WORK_GROUP_SIZE, map(requirements.reqdWorkGroupSize, uint64ArrayValue));
  put(DeviceRequirementName.WORK_GROUP_NUM_DIM, map(requirements.workGroupNumDim, uint32Value));
  if (registry.hasSet(PropertySetName.DEVICE_REQUIREMENTS)) {
    throw new FormatError(`property set [${PropertySetName.DEVICE_REQUIREMENTS}] already exists`);
  }
  registry.addSet(PropertySetName.DEVICE_REQUIREMENTS, properties);
  if (requirements.compileTarget !== undefined) {
    registry.add(PropertySetName.DEVICE_REQUIREMENTS, DeviceRequirementName.COMPILE_TARGET, stringValue(requirements.compileTarget));
  }
}

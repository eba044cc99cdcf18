/**
 * What an image requires of a device, read from its property sets:
 *
 * - `SYCL/device requirements` (OptionalDeviceFeatures.md, as intel/llvm writes it: `aspects`,
 *   `fixed_target`, `joint_matrix`, `joint_matrix_mad`, `reqd_work_group_size_uint64_t` or the
 *   legacy `reqd_work_group_size`, `reqd_sub_group_size`), plus the `condition-N` /
 *   `conditional-aspects-N` pairs of DeviceIf.md's specialization-constant alternative;
 * - `SYCL/requirements` (OptionalDeviceFeatures-spec-constant-variant.md): one entry per kernel
 *   or exported function, each requirement with the SpecId of its specialization constant.
 */
import { decodeCondition, evaluateCondition, type DeviceFacts } from '@syclkit/device-if';
import {
  DeviceRequirementName,
  FormatError,
  PropertySetName,
  PropertyType,
  byteArrayValue,
  decodeInt32Array,
  decodeString,
  decodeUint32,
  decodeUint32Array,
  decodeUint64Array,
  type ByteArrayPropertyValue,
  type PropertySet,
  type PropertySetRegistry,
  type PropertyValue,
} from '@syclkit/formats';
import { SyclError, errc } from './errors.js';

/** The per-kernel requirements set of the specialization-constant design. */
export const REQUIREMENTS_SET = 'SYCL/requirements';
/** DeviceIf.md's alternative: SpecIds of the aspect and architecture leaves of conditions. */
export const SPECIAL_SPEC_CONSTANTS_SET = 'SYCL/special specialization constants';
const CONDITION_PREFIX = 'condition-';
const CONDITIONAL_ASPECTS_PREFIX = 'conditional-aspects-';

/** Entry types of a `SYCL/requirements` property (`enum { aspect, reqd_work_group_size, reqd_sub_group_size }`). */
export const RequirementEntryType = { ASPECT: 0, REQD_WORK_GROUP_SIZE: 1, REQD_SUB_GROUP_SIZE: 2 } as const;

/** One requirement of a kernel in `SYCL/requirements`, with the SpecId that stands for it. */
export type RequirementEntry =
  | { readonly kind: 'aspect'; readonly aspect: number; readonly specId: number }
  | { readonly kind: 'reqd_work_group_size'; readonly sizes: readonly number[]; readonly specId: number }
  | { readonly kind: 'reqd_sub_group_size'; readonly size: number; readonly specId: number };

/**
 * Encodes the value of a `SYCL/requirements` property: `entry_count`, then per entry its type and
 * parameters (`aspect_id spec_id`, `dim_count dim0.. spec_id`, `dim spec_id`), all uint32.
 */
export function encodeRequirementEntries(entries: readonly RequirementEntry[]): ByteArrayPropertyValue {
  const words: number[] = [entries.length];
  for (const entry of entries) {
    switch (entry.kind) {
      case 'aspect':
        words.push(RequirementEntryType.ASPECT, entry.aspect, entry.specId);
        break;
      case 'reqd_work_group_size':
        words.push(RequirementEntryType.REQD_WORK_GROUP_SIZE, entry.sizes.length, ...entry.sizes, entry.specId);
        break;
      case 'reqd_sub_group_size':
        words.push(RequirementEntryType.REQD_SUB_GROUP_SIZE, entry.size, entry.specId);
        break;
    }
  }
  const payload = new Uint8Array(words.length * 4);
  const view = new DataView(payload.buffer);
  words.forEach((word, i) => view.setUint32(i * 4, word >>> 0, true));
  return byteArrayValue(payload);
}

/** Decodes a `SYCL/requirements` property; throws a FormatError for a value of another shape. */
export function decodeRequirementEntries(value: PropertyValue): RequirementEntry[] {
  const words = decodeUint32Array(value);
  let at = 0;
  const next = (what: string): number => {
    if (at >= words.length) throw new FormatError(`requirements entry ends early: expected ${what} at word ${at}`);
    return words[at++]!;
  };
  const count = next('the entry count');
  const entries: RequirementEntry[] = [];
  for (let i = 0; i < count; i++) {
    const type = next(`the type of entry ${i}`);
    if (type === RequirementEntryType.ASPECT) {
      entries.push({ kind: 'aspect', aspect: next('an aspect'), specId: next('a SpecId') });
    } else if (type === RequirementEntryType.REQD_WORK_GROUP_SIZE) {
      const dims = next('a dimension count');
      if (dims < 1 || dims > 3) throw new FormatError(`requirements entry ${i}: a work-group size has 1 to 3 dimensions, not ${dims}`);
      const sizes: number[] = [];
      for (let d = 0; d < dims; d++) sizes.push(next('a work-group size'));
      entries.push({ kind: 'reqd_work_group_size', sizes, specId: next('a SpecId') });
    } else if (type === RequirementEntryType.REQD_SUB_GROUP_SIZE) {
      entries.push({ kind: 'reqd_sub_group_size', size: next('a sub-group size'), specId: next('a SpecId') });
    } else {
      throw new FormatError(`requirements entry ${i} has unknown type ${type}`);
    }
  }
  if (at !== words.length) throw new FormatError(`requirements value has ${words.length - at} words after its ${count} entries`);
  return entries;
}

/** A required work-group size: the dimensions as written, and which property gave it. */
export interface WorkGroupRequirement {
  readonly sizes: readonly bigint[];
}

/**
 * The requirements of a kernel on a device: the union over every image involved (main image,
 * add-on images), with device_if conditions already evaluated for the device.
 */
export interface KernelRequirements {
  /**
   * Aspect values in ascending order without repeats, as one image's `aspects` property holds them
   * (so the first missing aspect is the same whether the kernel's code is in one image or in
   * several images linked together).
   */
  readonly aspects: readonly number[];
  /** One target list per image that has `fixed_target` (the device must be in each). */
  readonly fixedTargets: readonly (readonly number[])[];
  readonly jointMatrix: readonly string[];
  readonly jointMatrixMad: readonly string[];
  /** Required work-group sizes, without repeats. */
  readonly workGroupSizes: readonly WorkGroupRequirement[];
  /** Required sub-group sizes of non-ESIMD images, without repeats (ESIMD images are exempt, as upstream). */
  readonly subGroupSizes: readonly number[];
}

/** A mutable accumulator for KernelRequirements. */
export class RequirementsBuilder {
  readonly #aspects = new Set<number>();
  readonly #fixed: number[][] = [];
  readonly #jointMatrix: string[] = [];
  readonly #jointMatrixMad: string[] = [];
  readonly #workGroups = new Map<string, WorkGroupRequirement>();
  readonly #subGroups = new Set<number>();

  addAspects(values: Iterable<number>): this {
    for (const value of values) this.#aspects.add(value);
    return this;
  }
  addFixedTargets(values: readonly number[]): this {
    this.#fixed.push([...values]);
    return this;
  }
  addJointMatrix(text: string): this {
    if (text !== '' && !this.#jointMatrix.includes(text)) this.#jointMatrix.push(text);
    return this;
  }
  addJointMatrixMad(text: string): this {
    if (text !== '' && !this.#jointMatrixMad.includes(text)) this.#jointMatrixMad.push(text);
    return this;
  }
  addWorkGroupSize(sizes: readonly bigint[]): this {
    const key = sizes.join(',');
    if (!this.#workGroups.has(key)) this.#workGroups.set(key, { sizes: [...sizes] });
    return this;
  }
  addSubGroupSize(size: number): this {
    this.#subGroups.add(size);
    return this;
  }
  build(): KernelRequirements {
    return {
      aspects: [...this.#aspects].sort((a, b) => a - b),
      fixedTargets: this.#fixed.map((list) => [...list]),
      jointMatrix: [...this.#jointMatrix],
      jointMatrixMad: [...this.#jointMatrixMad],
      workGroupSizes: [...this.#workGroups.values()],
      subGroupSizes: [...this.#subGroups],
    };
  }
}

/** What requirement reading needs to know about an image. */
export interface RequirementSource {
  readonly name: string;
  readonly properties: PropertySetRegistry;
}

/** A property that does not have the layout it should: an errc.runtime naming the image. */
function malformed(image: RequirementSource, set: string, property: string, error: unknown): SyclError {
  const reason = error instanceof Error ? error.message : String(error);
  return new SyclError(errc.runtime, `device image '${image.name}': property '${property}' of [${set}] is malformed: ${reason}`);
}

function read<T>(image: RequirementSource, set: string, properties: PropertySet, name: string, decode: (value: PropertyValue) => T): T | undefined {
  const value = properties.get(name);
  if (value === undefined) return undefined;
  try {
    return decode(value);
  } catch (error) {
    throw malformed(image, set, name, error);
  }
}

/** Whether the image's `SYCL/misc properties` say `isEsimdImage=1`. */
export function isEsimdImage(image: RequirementSource): boolean {
  const value = image.properties.get(PropertySetName.MISC_PROP, 'isEsimdImage');
  return value !== undefined && value.type === PropertyType.UINT32 && value.value !== 0;
}

/**
 * Adds what `image` requires of `device` to `into`. In an image with `SYCL/requirements`, the
 * requirements of `kernel` come from its entry there (the specialization-constant design bundles
 * kernels with different requirements, so the image-wide aspects would be wrong) — when `kernel`
 * is undefined (an add-on image), from every entry; `fixed_target` and the joint-matrix properties
 * still come from `SYCL/device requirements`. Conditional aspects are added when their condition
 * holds for `device`.
 */
export function addImageRequirements(into: RequirementsBuilder, image: RequirementSource, kernel: string | undefined, device: DeviceFacts): void {
  const setName = PropertySetName.DEVICE_REQUIREMENTS;
  const set = image.properties.getSet(setName);
  const perKernel = image.properties.getSet(REQUIREMENTS_SET);
  const esimd = isEsimdImage(image);

  if (perKernel !== undefined) {
    const names = kernel === undefined ? [...perKernel.keys()] : [kernel];
    for (const name of names) {
      for (const entry of read(image, REQUIREMENTS_SET, perKernel, name, decodeRequirementEntries) ?? []) {
        if (entry.kind === 'aspect') into.addAspects([entry.aspect]);
        else if (entry.kind === 'reqd_work_group_size') into.addWorkGroupSize(entry.sizes.map(BigInt));
        else if (!esimd) into.addSubGroupSize(entry.size);
      }
    }
  }
  if (set === undefined) return;

  if (perKernel === undefined) {
    into.addAspects(read(image, setName, set, DeviceRequirementName.ASPECTS, decodeUint32Array) ?? []);
    const wide = read(image, setName, set, DeviceRequirementName.REQD_WORK_GROUP_SIZE, decodeUint64Array);
    const legacy = wide === undefined ? read(image, setName, set, DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE, decodeUint32Array) : undefined;
    const workGroup = wide ?? legacy?.map(BigInt);
    if (workGroup !== undefined && workGroup.length > 0) into.addWorkGroupSize(workGroup);
    // UINT32 as intel/llvm writes it; a uint32 array as the design describes it.
    const subGroups = read(image, setName, set, DeviceRequirementName.REQD_SUB_GROUP_SIZE, (value) =>
      value.type === PropertyType.UINT32 ? [decodeUint32(value)] : decodeUint32Array(value),
    );
    if (!esimd) for (const size of subGroups ?? []) into.addSubGroupSize(size);
  }
  const fixed = read(image, setName, set, DeviceRequirementName.FIXED_TARGET, decodeUint32Array);
  if (fixed !== undefined) into.addFixedTargets(fixed);
  const jointMatrix = read(image, setName, set, DeviceRequirementName.JOINT_MATRIX, decodeString);
  if (jointMatrix !== undefined) into.addJointMatrix(jointMatrix);
  const jointMatrixMad = read(image, setName, set, DeviceRequirementName.JOINT_MATRIX_MAD, decodeString);
  if (jointMatrixMad !== undefined) into.addJointMatrixMad(jointMatrixMad);

  // DeviceIf.md alternative: condition-N gates conditional-aspects-N.
  for (const name of set.keys()) {
    if (!name.startsWith(CONDITION_PREFIX)) continue;
    const suffix = name.slice(CONDITION_PREFIX.length);
    const sequence = read(image, setName, set, name, decodeInt32Array)!;
    let holds: boolean;
    try {
      holds = evaluateCondition(decodeCondition(sequence), device);
    } catch (error) {
      throw malformed(image, setName, name, error);
    }
    if (holds) into.addAspects(read(image, setName, set, CONDITIONAL_ASPECTS_PREFIX + suffix, decodeUint32Array) ?? []);
  }
}

/** The requirement entries of every kernel and exported function of an image (spec-constant design). */
export function requirementEntries(image: RequirementSource): Map<string, RequirementEntry[]> {
  const out = new Map<string, RequirementEntry[]>();
  const set = image.properties.getSet(REQUIREMENTS_SET);
  if (set === undefined) return out;
  for (const name of set.keys()) out.set(name, read(image, REQUIREMENTS_SET, set, name, decodeRequirementEntries)!);
  return out;
}

/**
 * Specialization constants the runtime sets per device before building an image:
 *
 * - OptionalDeviceFeatures-spec-constant-variant.md: every requirement in `SYCL/requirements`
 *   has a SpecId; it is set to whether the device meets that requirement (aspect present,
 *   work-group size within the limits, sub-group size supported), so the JIT compiler discards
 *   the functions that need what the device lacks;
 * - DeviceIf.md's alternative: `SYCL/special specialization constants` pairs (SpecId, aspect) and
 *   (SpecId, architecture); a SpecId is set when the device has the aspect or architecture.
 */
import { truncateArchitectureToInt32 } from '@syclkit/device-config';
import { decodeUint32Array, type PropertySetRegistry } from '@syclkit/formats';
import type { Device } from './device.js';
import { SyclError, errc } from './errors.js';
import { SPECIAL_SPEC_CONSTANTS_SET, requirementEntries, type RequirementEntry, type RequirementSource } from './requirements.js';

/** Whether the device meets one `SYCL/requirements` entry. */
export function deviceMeetsRequirement(device: Device, entry: RequirementEntry): boolean {
  switch (entry.kind) {
    case 'aspect':
      return device.has(entry.aspect);
    case 'reqd_sub_group_size':
      return device.supportsSubGroupSize(entry.size);
    case 'reqd_work_group_size': {
      const total = entry.sizes.reduce((product, size) => product * size, 1);
      const limits = device.maxWorkItemSizes.slice(3 - entry.sizes.length);
      return total <= device.maxWorkGroupSize && entry.sizes.every((size, i) => size <= limits[entry.sizes.length - 1 - i]!);
    }
  }
}

function pairs(registry: PropertySetRegistry, name: string, image: string): [number, number][] {
  const value = registry.get(SPECIAL_SPEC_CONSTANTS_SET, name);
  if (value === undefined) return [];
  let words: number[];
  try {
    words = decodeUint32Array(value);
  } catch (error) {
    throw new SyclError(errc.runtime, `device image '${image}': property '${name}' of [${SPECIAL_SPEC_CONSTANTS_SET}] is malformed: ${(error as Error).message}`);
  }
  if (words.length % 2 !== 0) throw new SyclError(errc.runtime, `device image '${image}': property '${name}' of [${SPECIAL_SPEC_CONSTANTS_SET}] must hold (SpecId, value) pairs`);
  const out: [number, number][] = [];
  for (let i = 0; i < words.length; i += 2) out.push([words[i]!, words[i + 1]!]);
  return out;
}

/**
 * The boolean specialization constants of an image for a device, by SpecId, ascending. A SpecId
 * that several requirements share is true only when the device meets all of them.
 */
export function imageSpecConstants(image: RequirementSource, device: Device): ReadonlyMap<number, boolean> {
  const values = new Map<number, boolean>();
  const set = (id: number, value: boolean): void => void values.set(id, (values.get(id) ?? true) && value);
  for (const entries of requirementEntries(image).values()) {
    for (const entry of entries) set(entry.specId, deviceMeetsRequirement(device, entry));
  }
  for (const [id, aspect] of pairs(image.properties, 'aspects', image.name)) set(id, device.has(aspect));
  const architecture = device.architecture === undefined ? undefined : truncateArchitectureToInt32(device.architecture.value) >>> 0;
  for (const [id, arch] of pairs(image.properties, 'architectures', image.name)) set(id, architecture === arch);
  return new Map([...values].sort((a, b) => a[0] - b[0]));
}

/** `1=1,2=0`: the part of a program-cache key the constants make. */
export function specConstantsKey(values: ReadonlyMap<number, boolean>): string {
  let key = '';
  for (const [id, value] of values) key += `${key === '' ? '' : ','}${id}=${value ? 1 : 0}`;
  return key;
}

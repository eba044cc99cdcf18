/**
 * Properties of `withCompileTarget` on generated registries (sets in any order, the device
 * requirements set present or not, a `compile_target` already in it or not, at any position):
 *
 * 1. it writes exactly what rebuilding every set with the name checks and `compile_target`
 *    appended (or overwritten in place) to `SYCL/device requirements` writes;
 * 2. the registry it copies is left as it was, and changing the copy does not change it.
 */
import { fc, test } from '@fast-check/vitest';
import { DeviceRequirementName, PropertySetName, PropertySetRegistry, stringValue, uint32Value, writePropertySetRegistry, type PropertyValue } from '@syclkit/formats';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { withCompileTarget } from './properties.js';

/** withCompileTarget before clone(): every set rebuilt through addSet. */
function reference(registry: PropertySetRegistry, target: string): PropertySetRegistry {
  const out = new PropertySetRegistry();
  for (const [name, set] of registry) {
    if (name === PropertySetName.DEVICE_REQUIREMENTS) out.addSet(name, [...set, [DeviceRequirementName.COMPILE_TARGET, stringValue(target)]]);
    else out.addSet(name, set);
  }
  return out;
}

const SET_NAMES = [PropertySetName.DEVICE_REQUIREMENTS, PropertySetName.MISC_PROP, PropertySetName.DEVICELIB_REQ_MASK, 'syclkit/explain', PropertySetName.VIRTUAL_FUNCTIONS];
const PROPERTY_NAMES = [DeviceRequirementName.ASPECTS, DeviceRequirementName.COMPILE_TARGET, DeviceRequirementName.REQD_SUB_GROUP_SIZE, 'isEsimdImage', 'DeviceLibReqMask', 'facts-json'];

const genRegistry = fc.uniqueArray(
  fc.record({
    set: fc.constantFrom(...SET_NAMES),
    properties: fc.uniqueArray(fc.tuple(fc.constantFrom(...PROPERTY_NAMES), fc.nat(1000)), { selector: ([name]) => name, maxLength: 4 }),
  }),
  { selector: (s) => s.set, maxLength: 5 },
);

function build(sets: readonly { set: string; properties: readonly (readonly [string, number])[] }[]): PropertySetRegistry {
  const registry = new PropertySetRegistry();
  for (const { set, properties } of sets) registry.addSet(set, properties.map(([name, value]): [string, PropertyValue] => [name, uint32Value(value)]));
  return registry;
}

describe('withCompileTarget', () => {
  test.prop([genRegistry, fc.constantFrom('intel_gpu_pvc', 'nvidia_gpu_sm_80', 'spir64_x86_64')], fcOptions())(
    'writes what rebuilding every set writes, leaving the original as it was (1, 2)',
    (sets, target) => {
      const registry = build(sets);
      const before = writePropertySetRegistry(registry);
      const copy = withCompileTarget(registry, target);
      expect(writePropertySetRegistry(copy)).toBe(writePropertySetRegistry(reference(registry, target)));
      expect(writePropertySetRegistry(registry)).toBe(before);
      copy.replace(PropertySetName.DEVICE_REQUIREMENTS, DeviceRequirementName.ASPECTS, uint32Value(7));
      copy.add('syclkit/explain', 'facts-json', uint32Value(1));
      expect(writePropertySetRegistry(registry)).toBe(before);
    },
  );
});

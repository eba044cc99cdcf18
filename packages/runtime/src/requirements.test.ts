import { aspectCondition, deviceFacts, encodeCondition, notCondition } from '@syclkit/device-if';
import {
  PropertySetName,
  PropertySetRegistry,
  addDeviceRequirements,
  boolValue,
  readPropertySetRegistry,
  uint32ArrayValue,
  uint32Value,
  writePropertySetRegistry,
} from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { int32ArrayValue } from '../test/program-model.js';
import {
  REQUIREMENTS_SET,
  RequirementsBuilder,
  SyclError,
  addImageRequirements,
  decodeRequirementEntries,
  encodeRequirementEntries,
  errc,
  type RequirementEntry,
} from './index.js';

const facts = deviceFacts([5, 6]);

function read(properties: PropertySetRegistry, kernel?: string) {
  const builder = new RequirementsBuilder();
  addImageRequirements(builder, { name: 'img', properties }, kernel, facts);
  return builder.build();
}

describe('SYCL/device requirements', () => {
  it('reads aspects, fixed targets, joint matrix, the uint64 work-group size and the sub-group size', () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, {
      aspects: [6, 28],
      fixedTarget: [1000],
      jointMatrix: 'matrix_type::fp32,use::a,8,16',
      reqdSubGroupSize: 16,
      reqdWorkGroupSize: [8n, 4n],
      legacyReqdWorkGroupSize: [1, 1],
    });
    expect(read(registry)).toEqual({
      aspects: [6, 28],
      fixedTargets: [[1000]],
      jointMatrix: ['matrix_type::fp32,use::a,8,16'],
      jointMatrixMad: [],
      workGroupSizes: [{ sizes: [8n, 4n] }],
      subGroupSizes: [16],
    });
  });

  it('falls back to the legacy uint32 reqd_work_group_size when there is no uint64 one', () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, { legacyReqdWorkGroupSize: [16, 2, 1] });
    expect(read(registry).workGroupSizes).toEqual([{ sizes: [16n, 2n, 1n] }]);
  });

  it('accepts the design form of reqd_sub_group_size (a uint32 array) as well as a UINT32', () => {
    const registry = new PropertySetRegistry();
    registry.addSet(PropertySetName.DEVICE_REQUIREMENTS, [['reqd_sub_group_size', uint32ArrayValue([8, 32])]]);
    expect(read(registry).subGroupSizes).toEqual([8, 32]);
  });

  it('exempts ESIMD images from the sub-group size, as intel/llvm does', () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, { reqdSubGroupSize: 1 });
    registry.add(PropertySetName.MISC_PROP, 'isEsimdImage', boolValue(true));
    expect(read(registry).subGroupSizes).toEqual([]);
  });

  it('adds conditional-aspects-N when condition-N holds for the device', () => {
    const registry = new PropertySetRegistry();
    registry.addSet(PropertySetName.DEVICE_REQUIREMENTS, [
      ['aspects', uint32ArrayValue([])],
      ['condition-0', int32ArrayValue(encodeCondition(aspectCondition(6)))],
      ['conditional-aspects-0', uint32ArrayValue([28])],
      ['condition-1', int32ArrayValue(encodeCondition(notCondition(aspectCondition(5))))],
      ['conditional-aspects-1', uint32ArrayValue([9])],
    ]);
    expect(read(registry).aspects).toEqual([28]);
  });

  it('reads a registry written to and read from a .prop file the same way', () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, { aspects: [5], reqdWorkGroupSize: [32n] });
    expect(read(readPropertySetRegistry(writePropertySetRegistry(registry)))).toEqual(read(registry));
  });

  it('turns a malformed property into an errc.runtime naming the image and property', () => {
    const registry = new PropertySetRegistry();
    registry.addSet(PropertySetName.DEVICE_REQUIREMENTS, [['aspects', uint32Value(3)]]);
    expect(() => read(registry)).toThrow(SyclError);
    try {
      read(registry);
    } catch (error) {
      expect((error as SyclError).code).toBe(errc.runtime);
      expect((error as SyclError).message).toMatch(/^device image 'img': property 'aspects' of \[SYCL\/device requirements\] is malformed: /);
    }
  });
});

describe('SYCL/requirements (specialization-constant design)', () => {
  const entries: RequirementEntry[] = [
    { kind: 'aspect', aspect: 6, specId: 1 },
    { kind: 'reqd_work_group_size', sizes: [8, 8], specId: 2 },
    { kind: 'reqd_sub_group_size', size: 16, specId: 3 },
  ];

  it('encodes entry_count then type, parameters and SpecId per entry, and decodes back', () => {
    const value = encodeRequirementEntries(entries);
    const words = [...new Uint32Array(value.payload.buffer.slice(value.payload.byteOffset, value.payload.byteOffset + value.payload.byteLength))];
    expect(words).toEqual([3, 0, 6, 1, 1, 2, 8, 8, 2, 2, 16, 3]);
    expect(decodeRequirementEntries(value)).toEqual(entries);
  });

  it('rejects values of another shape', () => {
    expect(() => decodeRequirementEntries(uint32ArrayValue([2, 0, 6, 1]))).toThrow(/ends early/);
    expect(() => decodeRequirementEntries(uint32ArrayValue([1, 7, 0, 0]))).toThrow(/unknown type 7/);
    expect(() => decodeRequirementEntries(uint32ArrayValue([0, 5]))).toThrow(/1 words after/);
  });

  it("takes the kernel's own entry, not the image-wide aspects", () => {
    const registry = new PropertySetRegistry();
    addDeviceRequirements(registry, { aspects: [6, 28], fixedTarget: [1000] });
    registry.add(REQUIREMENTS_SET, 'K1', encodeRequirementEntries([]));
    registry.add(REQUIREMENTS_SET, 'K2', encodeRequirementEntries(entries));
    expect(read(registry, 'K1')).toMatchObject({ aspects: [], workGroupSizes: [], subGroupSizes: [], fixedTargets: [[1000]] });
    expect(read(registry, 'K2')).toMatchObject({ aspects: [6], workGroupSizes: [{ sizes: [8n, 8n] }], subGroupSizes: [16] });
    expect(read(registry).aspects).toEqual([6]);
  });
});

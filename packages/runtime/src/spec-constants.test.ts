import { architectureByName, truncateArchitectureToInt32 } from '@syclkit/device-config';
import { PropertySetRegistry, uint32ArrayValue } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS_SET, SPECIAL_SPEC_CONSTANTS_SET, deviceFromTarget, encodeRequirementEntries, imageSpecConstants, specConstantsKey } from './index.js';

const dg1 = deviceFromTarget('intel_gpu_dg1'); // no fp64, sub-groups 8 16 32, 512 work-items
const pvc = deviceFromTarget('intel_gpu_pvc');

describe('imageSpecConstants', () => {
  it('sets each SYCL/requirements SpecId to whether the device meets that requirement', () => {
    const properties = new PropertySetRegistry();
    properties.add(
      REQUIREMENTS_SET,
      'K1',
      encodeRequirementEntries([
        { kind: 'aspect', aspect: 5, specId: 1 },
        { kind: 'reqd_sub_group_size', size: 64, specId: 2 },
      ]),
    );
    properties.add(
      REQUIREMENTS_SET,
      'K2',
      encodeRequirementEntries([
        { kind: 'aspect', aspect: 6, specId: 4 },
        { kind: 'reqd_work_group_size', sizes: [16, 16], specId: 3 },
        { kind: 'reqd_work_group_size', sizes: [32, 32], specId: 5 },
      ]),
    );
    const values = imageSpecConstants({ name: 'img', properties }, dg1);
    expect([...values]).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
      [5, false],
    ]);
    expect(specConstantsKey(values)).toBe('1=1,2=0,3=1,4=0,5=0');
  });

  it('ANDs the requirements that share a SpecId', () => {
    const properties = new PropertySetRegistry();
    properties.add(REQUIREMENTS_SET, 'K1', encodeRequirementEntries([{ kind: 'aspect', aspect: 5, specId: 7 }]));
    properties.add(REQUIREMENTS_SET, 'K2', encodeRequirementEntries([{ kind: 'aspect', aspect: 6, specId: 7 }]));
    expect([...imageSpecConstants({ name: 'img', properties }, dg1)]).toEqual([[7, false]]);
    expect([...imageSpecConstants({ name: 'img', properties }, pvc)]).toEqual([[7, true]]);
  });

  it('sets the special specialization constants of device_if leaves from aspects and the architecture', () => {
    const properties = new PropertySetRegistry();
    const pvcArch = truncateArchitectureToInt32(architectureByName('intel_gpu_pvc')!.value) >>> 0;
    properties.addSet(SPECIAL_SPEC_CONSTANTS_SET, [
      ['aspects', uint32ArrayValue([10, 6, 11, 5])],
      ['architectures', uint32ArrayValue([12, pvcArch])],
    ]);
    expect([...imageSpecConstants({ name: 'img', properties }, pvc)]).toEqual([
      [10, true],
      [11, true],
      [12, true],
    ]);
    expect([...imageSpecConstants({ name: 'img', properties }, dg1)]).toEqual([
      [10, false],
      [11, true],
      [12, false],
    ]);
  });

  it('rejects an odd number of words in a pair list', () => {
    const properties = new PropertySetRegistry();
    properties.addSet(SPECIAL_SPEC_CONSTANTS_SET, [['aspects', uint32ArrayValue([1, 2, 3])]]);
    expect(() => imageSpecConstants({ name: 'img', properties }, dg1)).toThrow("device image 'img': property 'aspects' of [SYCL/special specialization constants] must hold (SpecId, value) pairs");
  });
});

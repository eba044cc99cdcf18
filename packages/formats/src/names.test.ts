import { describe, expect, it } from 'vitest';
import { DeviceRequirementName, PropertySetName } from './names.js';

describe('property-set names (§2.1)', () => {
  it('spells every set name sycl-post-link and the runtime use', () => {
    expect(Object.values(PropertySetName)).toEqual([
      'SYCL/specialization constants',
      'SYCL/specialization constants default values',
      'SYCL/devicelib req mask',
      'SYCL/devicelib metadata',
      'SYCL/kernel param opt',
      'SYCL/program metadata',
      'SYCL/misc properties',
      'SYCL/assert used',
      'SYCL/exported symbols',
      'SYCL/imported symbols',
      'SYCL/device globals',
      'SYCL/device requirements',
      'SYCL/host pipes',
      'SYCL/virtual functions',
      'SYCL/implicit local arg',
      'SYCL/registered kernels',
      'SYCL/kernel names',
      'SYCLBIN/global metadata',
      'SYCLBIN/ir module metadata',
      'SYCLBIN/native device code image metadata',
    ]);
  });

  it('names the uint64 work-group size property reqd_work_group_size_uint64_t (PROPERTY_REQD_WORK_GROUP_SIZE)', () => {
    expect(DeviceRequirementName.REQD_WORK_GROUP_SIZE).toBe('reqd_work_group_size_uint64_t');
    expect(DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE).toBe('reqd_work_group_size');
  });

  it('spells every device-requirement property of §2.3 (plural aspects, not the design doc’s aspect)', () => {
    expect(Object.values(DeviceRequirementName).sort()).toEqual([
      'aspects',
      'compile_target',
      'fixed_target',
      'joint_matrix',
      'joint_matrix_mad',
      'reqd_sub_group_size',
      'reqd_work_group_size',
      'reqd_work_group_size_uint64_t',
      'work_group_num_dim',
    ]);
  });
});

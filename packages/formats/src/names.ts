/** Property-set names (`PropertySetRegistry::SYCL_*` in intel/llvm's PropertySetIO.h). */
export const PropertySetName = {
  SPECIALIZATION_CONSTANTS: 'SYCL/specialization constants',
  SPEC_CONSTANTS_DEFAULT_VALUES: 'SYCL/specialization constants default values',
  DEVICELIB_REQ_MASK: 'SYCL/devicelib req mask',
  DEVICELIB_METADATA: 'SYCL/devicelib metadata',
  KERNEL_PARAM_OPT_INFO: 'SYCL/kernel param opt',
  PROGRAM_METADATA: 'SYCL/program metadata',
  MISC_PROP: 'SYCL/misc properties',
  ASSERT_USED: 'SYCL/assert used',
  EXPORTED_SYMBOLS: 'SYCL/exported symbols',
  IMPORTED_SYMBOLS: 'SYCL/imported symbols',
  DEVICE_GLOBALS: 'SYCL/device globals',
  DEVICE_REQUIREMENTS: 'SYCL/device requirements',
  HOST_PIPES: 'SYCL/host pipes',
  VIRTUAL_FUNCTIONS: 'SYCL/virtual functions',
  IMPLICIT_LOCAL_ARG: 'SYCL/implicit local arg',
  REGISTERED_KERNELS: 'SYCL/registered kernels',
  /** Newest tools only, with `-emit-kernel-names`. */
  KERNEL_NAMES: 'SYCL/kernel names',
  /** SYCLBIN files only; sycl-post-link never writes these. */
  SYCLBIN_GLOBAL_METADATA: 'SYCLBIN/global metadata',
  SYCLBIN_IR_MODULE_METADATA: 'SYCLBIN/ir module metadata',
  SYCLBIN_NATIVE_DEVICE_CODE_IMAGE_METADATA: 'SYCLBIN/native device code image metadata',
} as const;
export type PropertySetName = (typeof PropertySetName)[keyof typeof PropertySetName];

/** Property names inside `SYCL/device requirements`. */
export const DeviceRequirementName = {
  ASPECTS: 'aspects',
  COMPILE_TARGET: 'compile_target',
  FIXED_TARGET: 'fixed_target',
  JOINT_MATRIX: 'joint_matrix',
  JOINT_MATRIX_MAD: 'joint_matrix_mad',
  REQD_SUB_GROUP_SIZE: 'reqd_sub_group_size',
  /** Legacy uint32 form: no longer written by sycl-post-link, still read by the runtime. */
  LEGACY_REQD_WORK_GROUP_SIZE: 'reqd_work_group_size',
  /** `PropertySetRegistry::PROPERTY_REQD_WORK_GROUP_SIZE`. */
  REQD_WORK_GROUP_SIZE: 'reqd_work_group_size_uint64_t',
  WORK_GROUP_NUM_DIM: 'work_group_num_dim',
} as const;
export type DeviceRequirementName = (typeof DeviceRequirementName)[keyof typeof DeviceRequirementName];

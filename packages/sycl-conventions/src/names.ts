/**
 * The names DPC++ gives its SYCL metadata and function attributes in device IR (clang's SYCL
 * code generation, intel/llvm's SYCLLowerIR passes and sycl-post-link). Interop: spelled exactly
 * as intel/llvm spells them.
 */

/** Metadata: named module metadata and function/instruction attachments. */
export const SyclMetadata = Object.freeze({
  /** Module: `!{!"name", i32 value}` per `enum class aspect` enumerator (RecordSYCLAspectNamesPass). */
  aspects: 'sycl_aspects',
  /** Module: `!{!"<struct name>", i32 a, ...}` per type marked `[[__sycl_detail__::__uses_aspects__]]`. */
  typesThatUseAspects: 'sycl_types_that_use_aspects',
  /** Function or instruction: aspects used (`i32 N` or `!{!"name", i32 N}` operands). */
  usedAspects: 'sycl_used_aspects',
  /** Function: aspects of `[[sycl::device_has()]]`. */
  declaredAspects: 'sycl_declared_aspects',
  /** Function: `(condition, aspects)` pairs of device_if (DeviceIf.md). */
  conditionallyUsedAspects: 'sycl_conditionally_used_aspects',
  /** Function: the aspects named by `-fsycl-fixed-targets`. */
  fixedTargets: 'sycl_fixed_targets',
  /** Function: an ESIMD function. */
  explicitSimd: 'sycl_explicit_simd',
  jointMatrix: 'sycl_joint_matrix',
  jointMatrixMad: 'sycl_joint_matrix_mad',
  reqdSubGroupSize: 'intel_reqd_sub_group_size',
  reqdWorkGroupSize: 'reqd_work_group_size',
  workGroupNumDim: 'work_group_num_dim',
  kernelOmitArgs: 'sycl_kernel_omit_args',
  /** Module: `!{!"name", !"mangled"}` per registered kernel (free-function kernels). */
  registeredKernels: 'sycl_registered_kernels',
  /** Function: the spec-constant variant's requirement condition (OptionalDeviceFeatures-spec-constant-variant.md). */
  requirementCondition: 'sycl_requirement_condition',
  /** Module: the spec-constant variant's requirement spec constants. */
  requirementSpecConstants: 'sycl_requirement_spec_constants',
} as const);

/** String function attributes. */
export const SyclAttribute = Object.freeze({
  /** The translation unit of a SYCL_EXTERNAL function or kernel; makes a function an entry point. */
  moduleId: 'sycl-module-id',
  /** A virtual function (its value names its set). */
  indirectlyCallable: 'indirectly-callable',
  /** A function that makes virtual calls (its value names the sets). */
  callsIndirectly: 'calls-indirectly',
  /** A function that may be called through a pointer of its type. */
  referencedIndirectly: 'referenced-indirectly',
  /** The `call_if_on_device_conditionally` helper of the device_if headers (a _Conditional Caller_). */
  conditionalCaller: 'sycl-call-if-on-device-conditionally',
  registerAllocMode: 'sycl-register-alloc-mode',
  grfSize: 'sycl-grf-size',
  optLevel: 'sycl-optlevel',
  /** Global variables: device globals. */
  uniqueId: 'sycl-unique-id',
  deviceGlobalSize: 'sycl-device-global-size',
  deviceImageScope: 'sycl-device-image-scope',
  hostPipe: 'sycl-host-pipe',
  hostPipeSize: 'sycl-host-pipe-size',
} as const);

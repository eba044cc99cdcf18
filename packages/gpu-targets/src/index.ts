export { gpuTripleOf, annotationsName, kernelCallingConv } from './target.js';
export type { GpuArch, GpuTriple } from './target.js';
export { findKernels, annotateKernel } from './kernels.js';
export type { Kernel } from './kernels.js';
export { addImplicitGlobalOffset, GLOBAL_OFFSET_BUILTIN, IMPLICIT_OFFSET_INTRINSICS } from './global-offset.js';
export type { GlobalOffsetOptions, GlobalOffsetProblem, GlobalOffsetResult } from './global-offset.js';
export { lowerLocalAccessors, SHARED_ADDRESS_SPACE } from './local-accessor.js';
export type { LocalAccessorResult } from './local-accessor.js';
export { globalOffsetPass, localAccessorToSharedMemoryPass } from './passes.js';

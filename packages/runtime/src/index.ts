export { SyclError, errc, isSyclError } from './errors.js';
export type { Errc } from './errors.js';
export { formatSizes, isNdRange, isRange, ndRange, parseRange, range, rangeSize } from './ranges.js';
export type { Dimensions, NdRange, Range } from './ranges.js';
export { Device, DeviceError, deviceFromTarget, formatIpVersion } from './device.js';
export type { Backend, DeviceInit, DeviceType, MatrixCombination } from './device.js';
export { loadDeviceDescriptionFile, parseDeviceDescription, parseIpVersion } from './device-file.js';
export type { DeviceFileOptions } from './device-file.js';
export { binaryFromContainer, binaryFromDescriptor } from './binary.js';
export type { BinaryBundleSource, BinaryImageIndex, BinaryImageSource, BinarySource } from './binary.js';
export { ipVersionOfTarget, matchBundle, targetNamesDevice } from './bundles.js';
export type { BundleMatch } from './bundles.js';
export {
  REQUIREMENTS_SET,
  RequirementEntryType,
  SPECIAL_SPEC_CONSTANTS_SET,
  RequirementsBuilder,
  addImageRequirements,
  decodeRequirementEntries,
  encodeRequirementEntries,
  isEsimdImage,
  requirementEntries,
} from './requirements.js';
export type { KernelRequirements, RequirementEntry, RequirementSource, WorkGroupRequirement } from './requirements.js';
export { ADD_ON_IMAGES_SET, ADD_ON_IMAGE_SET, indexAddOnImages, resolveAddOnImages } from './add-on-images.js';
export type { AddOnChoice, AddOnPair } from './add-on-images.js';
export { checkJointMatrix, checkJointMatrixMad, checkKernelRequirements, deviceInFixedTargets } from './check.js';
export type { CheckOptions, SubmissionShape } from './check.js';
export { deviceMeetsRequirement, imageSpecConstants, specConstantsKey } from './spec-constants.js';
export { SPIRV_CAPABILITY_ASPECTS, discardedFunctions, simulatedJitBackend } from './backend.js';
export type { BuildRequest, Program, ProgramBackend, ProgramImage, SimulatedJitOptions } from './backend.js';
export { ProgramCache } from './program-cache.js';
export type { ProgramCacheStats, ProgramKeyPart } from './program-cache.js';
export { Runtime, checkNdRangeForDevice } from './runtime.js';
export type { AddOnImageUse, ImportedImageUse, KernelLaunch, KernelResolution, RegisteredBinary, RuntimeOptions } from './runtime.js';
export { EXPORTED_SYMBOLS_SET, IMPORTED_SYMBOLS_SET, exportedSymbols, importedSymbols, kernelEntries } from './symbols.js';
export { Handler, Queue } from './queue.js';
export type { Event, RangeArgument } from './queue.js';
export { encodeScalar, keptArguments, kernelArg, omittedParams, scalarSize } from './kernel-args.js';
export type { BufferAccess, BufferArg, BytesArg, KernelArg, ScalarArg, ScalarType } from './kernel-args.js';
export type { ExecuteRequest, Execution } from './backend.js';
export { CU_JIT_INPUT_PTX, CUdeviceAttribute, CUfunctionAttribute, CUjitOption, CUresult, CudaDriverError } from './cuda/driver.js';
export type { CudaDevicePointer, CudaDriver, CudaHandle, LinkInput, ModuleBuildResult } from './cuda/driver.js';
export { CudaUnavailableError, loadCudaDriver } from './cuda/koffi-driver.js';
export type { LoadCudaDriverOptions } from './cuda/koffi-driver.js';
export { FakeCudaDriver } from './cuda/fake-driver.js';
export type { FakeCall, FakeCudaDeviceSpec, FakeCudaDriverOptions, FakeLaunch } from './cuda/fake-driver.js';
export { PtxError, isPtxText, readPtx } from './cuda/ptx.js';
export type { PtxEntry, PtxModuleInfo, PtxParam } from './cuda/ptx.js';
export { cudaBackend, launchGeometry } from './cuda/backend.js';
export type { CudaBackend, CudaBackendOptions } from './cuda/backend.js';
export { ATTRIBUTE_ASPECTS, cudaAttributeAspects, cudaDeviceFromAttributes, cudaTargetName, readCudaDeviceAttributes } from './cuda/device.js';
export type { CudaDeviceAttributes } from './cuda/device.js';
export { findCudaPlatform, openCudaPlatform } from './cuda/platform.js';
export type { CudaPlatform, CudaPlatformOptions } from './cuda/platform.js';

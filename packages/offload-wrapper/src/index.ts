export { WrapperError, ContainerError, AotToolError } from './errors.js';
export {
  OffloadKind,
  ImageFormat,
  DEVICE_IMAGE_VERSION,
  BINARY_DESCRIPTOR_VERSION,
  imageFormatName,
  offloadKindName,
  detectImageFormat,
  deviceImage,
  checkDeviceImage,
  descriptorImages,
  type DeviceImage,
  type DeviceImageInit,
  type Bundle,
  type BinaryDescriptor,
} from './descriptor.js';
export {
  CONTAINER_MAGIC,
  CONTAINER_VERSION,
  CONTAINER_LAYOUT,
  ContainerWriter,
  ContainerReader,
  writeContainer,
  writeContainerFile,
  readContainer,
  readContainerFile,
  type ContainerSummary,
  type ContainerImage,
  type ContainerBundle,
  type ReadContainerOptions,
} from './container.js';
export { emitWrapperIR, wrapperModuleText, WRAPPER_MODULE_ID, type WrapperIROptions } from './wrapper-ir.js';
export {
  TABLE_TRANSFORM_OPS,
  parseTableTransform,
  formatTableTransform,
  runTableTransforms,
  type TableTransform,
  type TableTransformOp,
  type TableTransformIO,
  type TableTransformResult,
} from './table-transform.js';
export {
  AOT_BACKENDS,
  aotCompilerFor,
  keepIrCompiler,
  llvmSpirvCompiler,
  llcCompiler,
  findTool,
  defaultToolDirs,
  type AotBackend,
  type AotCompiler,
  type AotRequest,
  type AotResult,
  type AotCompilerForOptions,
  type LlvmSpirvOptions,
  type LlcOptions,
  type ToolSearch,
} from './aot.js';
export { classifyDeviceCode, type DeviceCodeKind } from './empty-module.js';
export { GENERIC_TARGET, packTables, type PackInput, type PackOptions, type PackedTable } from './pack.js';
export {
  ADD_ON_IMAGES_SET,
  ADD_ON_IMAGE_SET,
  displayPropertyValue,
  displayProperties,
  inspectContainer,
  imageRequirements,
  formatAspect,
  formatInspectReport,
  type DisplayValue,
  type ImageReport,
  type BundleReport,
  type InspectReport,
  type ImageRequirements,
  type FormatReportOptions,
} from './inspect.js';
export { diffReports, formatDiff, type ContainerDiff, type BundleDiff, type ImageChange, type KernelChange } from './diff.js';

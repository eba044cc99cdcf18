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

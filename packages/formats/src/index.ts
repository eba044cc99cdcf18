export { FormatError, Base64DecodeError, type SourceLocation } from './errors.js';
export type { TextInput, ReadOptions } from './lines.js';
export { encodeLsbBase64, decodeLsbBase64, lsbBase64EncodedLength } from './base64.js';
export {
  PropertyType,
  type PropertyValue,
  type Uint32PropertyValue,
  type ByteArrayPropertyValue,
  type PropertyOrigin,
  propertyOrigin,
  uint32Value,
  boolValue,
  byteArrayValue,
  uint32ArrayValue,
  uint64ArrayValue,
  stringValue,
  bitVectorValue,
  decodeUint32,
  decodeUint32Array,
  decodeInt32Array,
  decodeUint64Array,
  decodeString,
  decodeBitVector,
  rawByteArray,
  byteArrayFromRaw,
  propertyValuesEqual,
} from './property-value.js';
export {
  PropertySetRegistry,
  type PropertySet,
  formatPropertyValue,
  writePropertySetRegistry,
  readPropertySetRegistry,
} from './property-sets.js';
export { PropertySetName, DeviceRequirementName } from './names.js';
export {
  type DeviceRequirements,
  type DeviceRequirementsRead,
  readDeviceRequirements,
  addDeviceRequirements,
} from './device-requirements.js';
export {
  BinaryPropertyType,
  type BinaryPropertyValue,
  DEVICE_BINARY_PROPERTY_LAYOUT,
  DEVICE_BINARY_PROPERTY_SET_LAYOUT,
  toBinaryProperty,
  fromBinaryProperty,
} from './binary-layout.js';
export { FileTable, type WriteFileTableOptions, writeFileTable, readFileTable } from './file-table.js';
export {
  FileTableColumn,
  type PostLinkImageFiles,
  type PostLinkColumns,
  type WrapperImageFiles,
  postLinkColumns,
  createPostLinkTable,
  readSplitModulesTable,
  readWrapperBatchTable,
} from './post-link-table.js';
export { writeSymbolFile, readSymbolFile, writeFileList, readFileList } from './line-lists.js';
export {
  AtomicFile,
  type AtomicFileOptions,
  type TextEncoding,
  writeFileAtomic,
  writeFileAtomicWith,
} from './atomic-file.js';
export {
  SPIRV_MAGIC,
  SpirvOp,
  SpirvFormatError,
  readSpirvModule,
  spirvWords,
  spirvInstructions,
  spirvStringWords,
  encodeSpirvInstruction,
  isSpirv,
  type SpirvModule,
  type SpirvEntryPoint,
  type SpirvExecutionMode,
  type SpirvFunction,
  type SpirvLinkage,
  type SpirvEnumerant,
  type SpirvInstruction,
  type SpirvReadOptions,
} from './spirv.js';
export {
  SPIRV_CAPABILITIES,
  SPIRV_EXECUTION_MODELS,
  SPIRV_EXECUTION_MODES,
  SPIRV_ADDRESSING_MODELS,
  SPIRV_MEMORY_MODELS,
  SPIRV_GENERATORS,
  spirvEnumName,
} from './spirv-names.js';

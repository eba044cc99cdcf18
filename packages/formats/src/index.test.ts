import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@syclkit/formats public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'AtomicFile',
      'Base64DecodeError',
      'BinaryPropertyType',
      'DEVICE_BINARY_PROPERTY_LAYOUT',
      'DEVICE_BINARY_PROPERTY_SET_LAYOUT',
      'DeviceRequirementName',
      'FileTable',
      'FileTableColumn',
      'FormatError',
      'PropertySetName',
      'PropertySetRegistry',
      'PropertyType',
      'addDeviceRequirements',
      'bitVectorValue',
      'boolValue',
      'byteArrayFromRaw',
      'byteArrayValue',
      'createPostLinkTable',
      'decodeBitVector',
      'decodeInt32Array',
      'decodeLsbBase64',
      'decodeString',
      'decodeUint32',
      'decodeUint32Array',
      'decodeUint64Array',
      'encodeLsbBase64',
      'formatPropertyValue',
      'fromBinaryProperty',
      'lsbBase64EncodedLength',
      'postLinkColumns',
      'propertyOrigin',
      'propertyValuesEqual',
      'rawByteArray',
      'readDeviceRequirements',
      'readFileList',
      'readFileTable',
      'readPropertySetRegistry',
      'readSplitModulesTable',
      'readSymbolFile',
      'readWrapperBatchTable',
      'stringValue',
      'toBinaryProperty',
      'uint32ArrayValue',
      'uint32Value',
      'uint64ArrayValue',
      'writeFileAtomic',
      'writeFileAtomicWith',
      'writeFileList',
      'writeFileTable',
      'writePropertySetRegistry',
      'writeSymbolFile',
    ]);
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  BinaryPropertyType,
  DEVICE_BINARY_PROPERTY_LAYOUT,
  DEVICE_BINARY_PROPERTY_SET_LAYOUT,
  fromBinaryProperty,
  toBinaryProperty,
} from './binary-layout.js';
import { FormatError } from './errors.js';
import { bitVectorValue, stringValue, uint32ArrayValue, uint32Value } from './property-value.js';

describe('binary property layout (§6.1)', () => {
  it('lays out UINT32 with a null address and the value in ValSize', () => {
    expect(toBinaryProperty(uint32Value(16))).toEqual({ type: BinaryPropertyType.UINT32, bytes: null, valSize: 16n });
  });

  it('lays out BYTE_ARRAY as the raw bytes including the bit-count prefix, ValSize = 8 + payload', () => {
    const binary = toBinaryProperty(uint32ArrayValue([1]));
    expect(binary.type).toBe(BinaryPropertyType.BYTE_ARRAY);
    expect(Buffer.from(binary.bytes!).toString('hex')).toBe('2000000000000000' + '01000000');
    expect(binary.valSize).toBe(12n);
  });

  it('counts a partial last byte in ValSize (11-bit vector → 8 + 2)', () => {
    expect(toBinaryProperty(bitVectorValue(new Array<boolean>(11).fill(true))).valSize).toBe(10n);
  });

  it('reads back what it lays out', () => {
    for (const value of [uint32Value(0xffff_ffff), stringValue('intel_gpu_pvc'), bitVectorValue([true])]) {
      expect(fromBinaryProperty(toBinaryProperty(value))).toEqual(value);
    }
  });

  it('rejects inconsistent binary fields', () => {
    const bytes = toBinaryProperty(uint32ArrayValue([1])).bytes!;
    expect(() => fromBinaryProperty({ type: BinaryPropertyType.UINT32, bytes, valSize: 1n })).toThrow(/null value address/);
    expect(() => fromBinaryProperty({ type: BinaryPropertyType.UINT32, bytes: null, valSize: 1n << 32n })).toThrow(/out of range/);
    expect(() => fromBinaryProperty({ type: BinaryPropertyType.BYTE_ARRAY, bytes: null, valSize: 8n })).toThrow(/null value address/);
    expect(() => fromBinaryProperty({ type: BinaryPropertyType.BYTE_ARRAY, bytes, valSize: 13n })).toThrow(
      'BYTE_ARRAY ValSize 13 differs from its 12 bytes',
    );
    expect(() => fromBinaryProperty({ type: BinaryPropertyType.STRING, bytes: null, valSize: 0n })).toThrow(FormatError);
    expect(() => fromBinaryProperty({ type: BinaryPropertyType.UNKNOWN, bytes: null, valSize: 0n })).toThrow(
      'unsupported binary property type 0',
    );
  });

  it('matches the LP64 struct offsets of the runtime headers', () => {
    expect(DEVICE_BINARY_PROPERTY_LAYOUT).toEqual({ size: 32, name: 0, valAddr: 8, type: 16, valSize: 24 });
    expect(DEVICE_BINARY_PROPERTY_SET_LAYOUT).toEqual({ size: 24, name: 0, propertiesBegin: 8, propertiesEnd: 16 });
  });

  it('numbers the runtime property types UNKNOWN 0, UINT32 1, BYTE_ARRAY 2, STRING 3', () => {
    expect(BinaryPropertyType).toEqual({ UNKNOWN: 0, UINT32: 1, BYTE_ARRAY: 2, STRING: 3 });
  });
});

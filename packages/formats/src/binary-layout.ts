import { FormatError } from './errors.js';
import { byteArrayFromRaw, PropertyType, rawByteArray, type PropertyValue } from './property-value.js';

/** `sycl_property_type` in the runtime: adds UNKNOWN and STRING (never produced by the wrapper). */
export const BinaryPropertyType = { UNKNOWN: 0, UINT32: 1, BYTE_ARRAY: 2, STRING: 3 } as const;
export type BinaryPropertyType = (typeof BinaryPropertyType)[keyof typeof BinaryPropertyType];

/**
 * The three fields of `_pi_device_binary_property_struct` that describe a value:
 * UINT32 has no bytes (ValAddr = null) and ValSize = the value; BYTE_ARRAY has ValAddr pointing at
 * the raw bytes *including* the 8-byte bit-count prefix and ValSize = 8 + payload bytes.
 */
export interface BinaryPropertyValue {
  readonly type: BinaryPropertyType;
  readonly bytes: Uint8Array | null;
  readonly valSize: bigint;
}

/** LP64 layout of `_pi_device_binary_property_struct` (byte offsets). */
export const DEVICE_BINARY_PROPERTY_LAYOUT = { size: 32, name: 0, valAddr: 8, type: 16, valSize: 24 } as const;

/** LP64 layout of `_pi_device_binary_property_set_struct` (byte offsets). */
export const DEVICE_BINARY_PROPERTY_SET_LAYOUT = { size: 24, name: 0, propertiesBegin: 8, propertiesEnd: 16 } as const;

/** How the offload wrapper lays out a property value in the binary. */
export function toBinaryProperty(value: PropertyValue): BinaryPropertyValue {
  if (value.type === PropertyType.UINT32) {
    return { type: BinaryPropertyType.UINT32, bytes: null, valSize: BigInt(value.value) };
  }
  const bytes = rawByteArray(value);
  return { type: BinaryPropertyType.BYTE_ARRAY, bytes, valSize: BigInt(bytes.length) };
}

/** The inverse of `toBinaryProperty`, for the runtime side; inconsistent fields are errors. */
export function fromBinaryProperty(binary: BinaryPropertyValue): PropertyValue {
  switch (binary.type) {
    case BinaryPropertyType.UINT32:
      if (binary.bytes !== null) throw new FormatError('UINT32 property must have a null value address');
      if (binary.valSize < 0n || binary.valSize > 0xffff_ffffn) {
        throw new FormatError(`UINT32 property value out of range: ${binary.valSize}`);
      }
      return { type: PropertyType.UINT32, value: Number(binary.valSize) };
    case BinaryPropertyType.BYTE_ARRAY:
      if (binary.bytes === null) throw new FormatError('BYTE_ARRAY property has a null value address');
      if (BigInt(binary.bytes.length) !== binary.valSize) {
        throw new FormatError(`BYTE_ARRAY ValSize ${binary.valSize} differs from its ${binary.bytes.length} bytes`);
      }
      return byteArrayFromRaw(binary.bytes);
    default:
      throw new FormatError(`unsupported binary property type ${binary.type}`);
  }
}

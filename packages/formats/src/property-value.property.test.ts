// Properties checked:
// 1. Builders and decoders are inverse: uint32[] (including negative int32), uint64[] (bigint),
//    strings (no NUL) and bit vectors come back unchanged, with the documented bit counts.
// 2. byteArrayFromRaw(rawByteArray(v)) = v, and the raw form is 8 + ceil(bitCount/8) bytes whose
//    first 8 bytes are bitCount little-endian.
// 3. fromBinaryProperty(toBinaryProperty(v)) = v; ValSize is the value (UINT32) or the raw length.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { byteArrayProperty, propertyValue } from '../test/arbitraries.js';
import { fromBinaryProperty, toBinaryProperty } from './binary-layout.js';
import {
  bitVectorValue,
  byteArrayFromRaw,
  decodeBitVector,
  decodeInt32Array,
  decodeString,
  decodeUint32Array,
  decodeUint64Array,
  PropertyType,
  rawByteArray,
  stringValue,
  uint32ArrayValue,
  uint64ArrayValue,
  type ByteArrayPropertyValue,
} from './property-value.js';
import { fcOptions } from '@syclkit/testing';

describe('property value properties', () => {
  test.prop([fc.array(fc.nat({ max: 0xffff_ffff }))], fcOptions())('uint32[] round-trips, 32 bits per element', (values) => {
    const value = uint32ArrayValue(values);
    expect(value.bitCount).toBe(32 * values.length);
    expect(decodeUint32Array(value)).toEqual(values);
  });

  test.prop([fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }))], fcOptions())('int32[] round-trips', (values) => {
    expect(decodeInt32Array(uint32ArrayValue(values))).toEqual(values);
  });

  test.prop([fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { maxLength: 3 })], fcOptions())(
    'uint64[] round-trips exactly',
    (values) => {
      expect(decodeUint64Array(uint64ArrayValue(values))).toEqual(values);
    },
  );

  test.prop([fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\0'))], fcOptions())(
    'strings round-trip as UTF-8 without terminator',
    (text) => {
      const value = stringValue(text);
      expect(value.bitCount).toBe(Buffer.byteLength(text) * 8);
      expect(decodeString(value)).toBe(text);
    },
  );

  test.prop([fc.array(fc.boolean(), { maxLength: 70 })], fcOptions())('bit vectors round-trip with bitCount = length', (bits) => {
    const value = bitVectorValue(bits);
    expect(value.bitCount).toBe(bits.length);
    expect(value.payload).toHaveLength(Math.ceil(bits.length / 8));
    expect(decodeBitVector(value)).toEqual(bits);
  });

  test.prop([byteArrayProperty], fcOptions())('raw bytes carry the bit count and round-trip', (value) => {
    const array = value as ByteArrayPropertyValue;
    const raw = rawByteArray(array);
    expect(raw).toHaveLength(8 + Math.ceil(array.bitCount / 8));
    expect(new DataView(raw.buffer).getBigUint64(0, true)).toBe(BigInt(array.bitCount));
    expect(byteArrayFromRaw(raw)).toEqual(value);
  });

  test.prop([propertyValue], fcOptions())('binary layout round-trips', (value) => {
    const binary = toBinaryProperty(value);
    if (value.type === PropertyType.UINT32) expect(binary.valSize).toBe(BigInt(value.value));
    else expect(binary.valSize).toBe(BigInt(binary.bytes!.length));
    expect(fromBinaryProperty(binary)).toEqual(value);
  });
});

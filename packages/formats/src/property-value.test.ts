import { describe, expect, it } from 'vitest';
import { FormatError } from './errors.js';
import {
  bitVectorValue,
  boolValue,
  byteArrayFromRaw,
  byteArrayValue,
  decodeBitVector,
  decodeInt32Array,
  decodeString,
  decodeUint32,
  decodeUint32Array,
  decodeUint64Array,
  propertyValuesEqual,
  PropertyType,
  rawByteArray,
  stringValue,
  uint32ArrayValue,
  uint32Value,
  uint64ArrayValue,
} from './property-value.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('UINT32 values', () => {
  it('accepts 0 and 2^32-1', () => {
    expect(uint32Value(0)).toEqual({ type: PropertyType.UINT32, value: 0 });
    expect(uint32Value(0xffff_ffff).value).toBe(0xffff_ffff);
  });

  it.each([-1, 2 ** 32, 1.5, Number.NaN])('rejects %s', (value) => {
    expect(() => uint32Value(value)).toThrow(FormatError);
  });

  it('stores a C++ bool as UINT32 1 or 0', () => {
    expect(boolValue(true)).toEqual(uint32Value(1));
    expect(boolValue(false)).toEqual(uint32Value(0));
  });
});

describe('BYTE_ARRAY builders', () => {
  it('packs uint32 arrays little-endian with a 64-bit bit count (aspects [1, 6] → 64 bits)', () => {
    const value = uint32ArrayValue([1, 6]);
    expect(value.bitCount).toBe(64);
    expect(hex(rawByteArray(value))).toBe('4000000000000000' + '01000000' + '06000000');
  });

  it('stores negative (internal) aspects as two’s complement and reads them back as int32', () => {
    const value = uint32ArrayValue([-1, 5]);
    expect(hex(value.payload)).toBe('ffffffff05000000');
    expect(decodeUint32Array(value)).toEqual([0xffff_ffff, 5]);
    expect(decodeInt32Array(value)).toEqual([-1, 5]);
  });

  it('rejects uint32 array elements outside -2^31..2^32-1', () => {
    expect(() => uint32ArrayValue([2 ** 32])).toThrow(/element 0 out of range/);
    expect(() => uint32ArrayValue([1, -(2 ** 31) - 1])).toThrow(/element 1 out of range/);
  });

  it('packs uint64 arrays (reqd_work_group_size_uint64_t) and keeps values above 2^53 exact', () => {
    const big = (1n << 64n) - 1n;
    const value = uint64ArrayValue([64n, big]);
    expect(value.bitCount).toBe(128);
    expect(hex(value.payload)).toBe('4000000000000000ffffffffffffffff');
    expect(decodeUint64Array(value)).toEqual([64n, big]);
  });

  it('rejects uint64 elements outside 0..2^64-1', () => {
    expect(() => uint64ArrayValue([-1n])).toThrow(FormatError);
    expect(() => uint64ArrayValue([1n << 64n])).toThrow(FormatError);
  });

  it('stores strings as UTF-8 without a NUL terminator', () => {
    const value = stringValue('intel_gpu_pvc');
    expect(value.bitCount).toBe(13 * 8);
    expect(Buffer.from(value.payload).toString('utf8')).toBe('intel_gpu_pvc');
    expect(decodeString(stringValue('µ-arch'))).toBe('µ-arch');
  });

  it('rejects strings with an embedded NUL or an unpaired surrogate', () => {
    expect(() => stringValue('a\0b')).toThrow(/NUL/);
    expect(() => stringValue('a\ud800')).toThrow(/surrogate/);
  });

  it('packs bit vectors LSB first with the bit count equal to the argument count', () => {
    // Kernel param opt: 11 arguments, bytes 7e 06 (the §1.3 example `LAAAAAAAAAgfGA`).
    const bits = [false, true, true, true, true, true, true, false, false, true, true];
    const value = bitVectorValue(bits);
    expect(value.bitCount).toBe(11);
    expect(hex(value.payload)).toBe('7e06');
    expect(decodeBitVector(value)).toEqual(bits);
  });

  it('gives an empty bit vector zero bits and no payload', () => {
    expect(bitVectorValue([])).toEqual({ type: PropertyType.BYTE_ARRAY, bitCount: 0, payload: new Uint8Array(0) });
  });

  it('requires the payload length to be ceil(bitCount/8)', () => {
    expect(byteArrayValue(new Uint8Array(2), 9).bitCount).toBe(9);
    expect(() => byteArrayValue(new Uint8Array(2), 17)).toThrow(/cannot hold 17 bits/);
    expect(() => byteArrayValue(new Uint8Array(2), 8)).toThrow(/cannot hold 8 bits/);
  });
});

describe('decoders', () => {
  it('refuse a UINT32 where a byte array is expected, and the reverse', () => {
    expect(() => decodeUint32Array(uint32Value(1))).toThrow('expected a BYTE_ARRAY (2) holding uint32, found UINT32 (1)');
    expect(() => decodeUint32(stringValue('x'))).toThrow('expected a UINT32 (1), found BYTE_ARRAY (2)');
  });

  it('refuse a byte array that is not a whole number of elements', () => {
    expect(() => decodeUint32Array(byteArrayValue(new Uint8Array(6)))).toThrow(/48-bit byte array is not a whole number of uint32/);
    expect(() => decodeUint64Array(byteArrayValue(new Uint8Array(4)))).toThrow(/uint64/);
    expect(() => decodeString(byteArrayValue(new Uint8Array(1), 7))).toThrow(/7-bit/);
  });

  it('refuse a string that is not UTF-8', () => {
    expect(() => decodeString(byteArrayValue(Uint8Array.of(0xff)))).toThrow('string value is not valid UTF-8');
  });
});

describe('raw byte arrays (size prefix included)', () => {
  it('round-trip through rawByteArray and byteArrayFromRaw, keeping a partial last byte', () => {
    const value = byteArrayValue(Uint8Array.of(0x7e, 0x06), 11);
    expect(byteArrayFromRaw(rawByteArray(value))).toEqual(value);
  });

  it('reject fewer than 8 bytes', () => {
    expect(() => byteArrayFromRaw(new Uint8Array(7))).toThrow('byte array of 7 bytes is shorter than its 8-byte size prefix');
  });

  it('reject a size prefix that disagrees with the payload length', () => {
    const raw = rawByteArray(uint32ArrayValue([1]));
    raw[0] = 40; // 40 bits would need 5 bytes; 4 follow
    expect(() => byteArrayFromRaw(raw)).toThrow('size prefix says 40 bits but 4 payload bytes follow');
    const huge = new Uint8Array(8).fill(0xff);
    expect(() => byteArrayFromRaw(huge)).toThrow(/size prefix says 18446744073709551615 bits/);
  });
});

describe('propertyValuesEqual', () => {
  it('compares type, bit count and bytes', () => {
    expect(propertyValuesEqual(uint32Value(3), uint32Value(3))).toBe(true);
    expect(propertyValuesEqual(uint32Value(3), uint32Value(4))).toBe(false);
    expect(propertyValuesEqual(stringValue('ab'), stringValue('ab'))).toBe(true);
    expect(propertyValuesEqual(stringValue('ab'), stringValue('ac'))).toBe(false);
    expect(propertyValuesEqual(byteArrayValue(Uint8Array.of(1), 1), byteArrayValue(Uint8Array.of(1), 2))).toBe(false);
    expect(propertyValuesEqual(uint32Value(0), byteArrayValue(new Uint8Array(0)))).toBe(false);
  });
});

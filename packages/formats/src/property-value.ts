import { FormatError, type SourceLocation } from './errors.js';

/** Property type codes as written in `.prop` files (`PropertyValue::Type`); 0 (NONE) is never valid. */
export const PropertyType = { UINT32: 1, BYTE_ARRAY: 2 } as const;
export type PropertyType = (typeof PropertyType)[keyof typeof PropertyType];

/** `name=1|<decimal>`. */
export interface Uint32PropertyValue {
  readonly type: typeof PropertyType.UINT32;
  readonly value: number;
}

/**
 * `name=2|<base64>`: a payload of `ceil(bitCount/8)` bytes. On disk and in binaries it is preceded by
 * `bitCount` as a 64-bit little-endian integer (see `rawByteArray`).
 */
export interface ByteArrayPropertyValue {
  readonly type: typeof PropertyType.BYTE_ARRAY;
  readonly bitCount: number;
  readonly payload: Uint8Array;
}

export type PropertyValue = Uint32PropertyValue | ByteArrayPropertyValue;

/** Where a value read from a `.prop` file came from; used to locate errors found later. */
export interface PropertyOrigin {
  readonly location: SourceLocation;
  readonly setName: string;
  readonly propertyName: string;
}

const origins = new WeakMap<PropertyValue, PropertyOrigin>();

/** The file position and names of a value produced by `readPropertySetRegistry`, if any. */
export function propertyOrigin(value: PropertyValue): PropertyOrigin | undefined {
  return origins.get(value);
}

/** @internal Records where the reader found `value`. */
export function recordPropertyOrigin(value: PropertyValue, origin: PropertyOrigin): void {
  origins.set(value, origin);
}

/** A FormatError about `value`, located at its line in the `.prop` file when it was read from one. */
export function propertyValueError(value: PropertyValue, reason: string): FormatError {
  const origin = origins.get(value);
  if (origin === undefined) return new FormatError(reason);
  return new FormatError(`property '${origin.propertyName}' in [${origin.setName}]: ${reason}`, origin.location);
}

const UINT32_MAX = 0xffff_ffff;
const UINT64_MAX = (1n << 64n) - 1n;
const SIZE_PREFIX_BYTES = 8;

/** A UINT32 value; `value` must be an integer in 0..2^32-1. */
export function uint32Value(value: number): Uint32PropertyValue {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
    throw new FormatError(`UINT32 property value out of range: ${value}`);
  }
  return { type: PropertyType.UINT32, value };
}

/** A C++ `bool` property: UINT32 1 or 0. */
export function boolValue(value: boolean): Uint32PropertyValue {
  return { type: PropertyType.UINT32, value: value ? 1 : 0 };
}

/**
 * A BYTE_ARRAY of `payload` holding `bitCount` bits (default: all of them). The array is used as is,
 * not copied. `payload.length` must be `ceil(bitCount/8)`.
 */
export function byteArrayValue(payload: Uint8Array, bitCount: number = payload.length * 8): ByteArrayPropertyValue {
  if (!Number.isSafeInteger(bitCount) || bitCount < 0 || Math.ceil(bitCount / 8) !== payload.length) {
    throw new FormatError(`byte array of ${payload.length} bytes cannot hold ${bitCount} bits`);
  }
  return { type: PropertyType.BYTE_ARRAY, bitCount, payload };
}

/**
 * uint32 elements back to back, little-endian (aspects, fixed_target). Negative values down to
 * -2^31 are stored as two's complement, which is how internal aspects would appear.
 */
export function uint32ArrayValue(values: readonly number[]): ByteArrayPropertyValue {
  const payload = new Uint8Array(values.length * 4);
  const view = new DataView(payload.buffer);
  values.forEach((value, i) => {
    if (!Number.isInteger(value) || value < -0x8000_0000 || value > UINT32_MAX) {
      throw new FormatError(`uint32 array element ${i} out of range: ${value}`);
    }
    view.setUint32(i * 4, value >>> 0, true);
  });
  return byteArrayValue(payload);
}

/** uint64 elements back to back, little-endian (`reqd_work_group_size_uint64_t`). */
export function uint64ArrayValue(values: readonly bigint[]): ByteArrayPropertyValue {
  const payload = new Uint8Array(values.length * 8);
  const view = new DataView(payload.buffer);
  values.forEach((value, i) => {
    if (value < 0n || value > UINT64_MAX) throw new FormatError(`uint64 array element ${i} out of range: ${value}`);
    view.setBigUint64(i * 8, value, true);
  });
  return byteArrayValue(payload);
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A string as BYTE_ARRAY: its UTF-8 bytes with no NUL terminator, as upstream stores `StringRef`s.
 * An embedded NUL is rejected because the runtime compares some of these values as C strings.
 */
export function stringValue(text: string): ByteArrayPropertyValue {
  if (text.includes('\0')) throw new FormatError('string property value must not contain NUL');
  if (/\p{Cs}/u.test(text)) throw new FormatError('string property value contains an unpaired surrogate');
  return byteArrayValue(utf8Encoder.encode(text));
}

/** A bit vector (kernel param opt): bit i is bit (i mod 8) of byte floor(i/8), LSB first. */
export function bitVectorValue(bits: readonly boolean[]): ByteArrayPropertyValue {
  const payload = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit) payload[i >> 3]! |= 1 << (i & 7);
  });
  return byteArrayValue(payload, bits.length);
}

function expectByteArray(value: PropertyValue, what: string): ByteArrayPropertyValue {
  if (value.type !== PropertyType.BYTE_ARRAY) {
    throw propertyValueError(value, `expected a BYTE_ARRAY (2) holding ${what}, found UINT32 (1)`);
  }
  return value;
}

function wholeElements(value: PropertyValue, elementBytes: number, what: string): ByteArrayPropertyValue {
  const array = expectByteArray(value, what);
  if (array.bitCount !== array.payload.length * 8 || array.payload.length % elementBytes !== 0) {
    throw propertyValueError(value, `a ${array.bitCount}-bit byte array is not a whole number of ${what} values`);
  }
  return array;
}

/** The number of a UINT32 value. */
export function decodeUint32(value: PropertyValue): number {
  if (value.type !== PropertyType.UINT32) throw propertyValueError(value, 'expected a UINT32 (1), found BYTE_ARRAY (2)');
  return value.value;
}

/** Reads a BYTE_ARRAY as little-endian uint32 elements. */
export function decodeUint32Array(value: PropertyValue): number[] {
  const { payload } = wholeElements(value, 4, 'uint32');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const out = new Array<number>(payload.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

/** Reads a BYTE_ARRAY as little-endian int32 elements (internal aspects are negative). */
export function decodeInt32Array(value: PropertyValue): number[] {
  const { payload } = wholeElements(value, 4, 'int32');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const out = new Array<number>(payload.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, true);
  return out;
}

/** Reads a BYTE_ARRAY as little-endian uint64 elements. */
export function decodeUint64Array(value: PropertyValue): bigint[] {
  const { payload } = wholeElements(value, 8, 'uint64');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const out = new Array<bigint>(payload.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getBigUint64(i * 8, true);
  return out;
}

/** Reads a BYTE_ARRAY as a UTF-8 string (no terminator). */
export function decodeString(value: PropertyValue): string {
  const { payload } = wholeElements(value, 1, 'byte');
  try {
    return utf8Decoder.decode(payload);
  } catch {
    throw propertyValueError(value, 'string value is not valid UTF-8');
  }
}

/** Reads a BYTE_ARRAY as a bit vector of `bitCount` bits, LSB first. */
export function decodeBitVector(value: PropertyValue): boolean[] {
  const { bitCount, payload } = expectByteArray(value, 'a bit vector');
  const out = new Array<boolean>(bitCount);
  for (let i = 0; i < bitCount; i++) out[i] = ((payload[i >> 3]! >> (i & 7)) & 1) === 1;
  return out;
}

/** The bytes upstream stores for a BYTE_ARRAY: 8-byte little-endian bit count, then the payload. */
export function rawByteArray(value: ByteArrayPropertyValue): Uint8Array {
  const raw = new Uint8Array(SIZE_PREFIX_BYTES + value.payload.length);
  // Plain arithmetic instead of DataView/BigInt: this runs for every byte array post-link writes.
  const bits = value.bitCount;
  const low = bits % 0x1_0000_0000;
  const high = (bits - low) / 0x1_0000_0000;
  for (let i = 0; i < 4; i++) {
    raw[i] = low >>> (8 * i);
    raw[4 + i] = high >>> (8 * i);
  }
  raw.set(value.payload, SIZE_PREFIX_BYTES);
  return raw;
}

/**
 * Parses raw BYTE_ARRAY bytes (size prefix included); the payload is copied. The prefix must agree
 * with the payload length exactly; upstream would read past the end of a short buffer instead.
 */
export function byteArrayFromRaw(raw: Uint8Array): ByteArrayPropertyValue {
  return parseRawByteArray(raw, true);
}

/** @internal `byteArrayFromRaw`, optionally sharing `raw`'s memory (for freshly decoded bytes). */
export function parseRawByteArray(raw: Uint8Array, copy: boolean): ByteArrayPropertyValue {
  if (raw.length < SIZE_PREFIX_BYTES) {
    throw new FormatError(`byte array of ${raw.length} bytes is shorter than its 8-byte size prefix`);
  }
  const low = (raw[0]! | (raw[1]! << 8) | (raw[2]! << 16) | (raw[3]! << 24)) >>> 0;
  const high = (raw[4]! | (raw[5]! << 8) | (raw[6]! << 16) | (raw[7]! << 24)) >>> 0;
  const payloadBytes = raw.length - SIZE_PREFIX_BYTES;
  // Exact while high < 2^21; anything larger cannot match a payload that fits in memory.
  const bits = high * 0x1_0000_0000 + low;
  if (high >= 1 << 21 || Math.ceil(bits / 8) !== payloadBytes) {
    const exactBits = (BigInt(high) << 32n) | BigInt(low);
    throw new FormatError(`size prefix says ${exactBits} bits but ${payloadBytes} payload bytes follow`);
  }
  const payload = copy ? raw.slice(SIZE_PREFIX_BYTES) : raw.subarray(SIZE_PREFIX_BYTES);
  return { type: PropertyType.BYTE_ARRAY, bitCount: bits, payload };
}

/** Whether two values are the same type and hold the same bits. */
export function propertyValuesEqual(a: PropertyValue, b: PropertyValue): boolean {
  if (a.type === PropertyType.UINT32 || b.type === PropertyType.UINT32) {
    return a.type === b.type && (a as Uint32PropertyValue).value === (b as Uint32PropertyValue).value;
  }
  if (a.bitCount !== b.bitCount || a.payload.length !== b.payload.length) return false;
  return a.payload.every((byte, i) => byte === b.payload[i]);
}

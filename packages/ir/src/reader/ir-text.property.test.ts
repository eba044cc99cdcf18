/**
 * Properties of decodeIRText:
 * 1. It gives the characters `Buffer.toString('latin1')` gives, for any bytes (every byte value).
 * 2. The same holds for inputs of several of its 512 KiB slices, wherever the boundaries fall.
 * 3. A Uint8Array view over a larger buffer decodes only its own bytes.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { decodeIRText } from './ir-text.js';

const SLICE = 512 * 1024;

describe('decodeIRText', () => {
  test.prop([fc.uint8Array({ maxLength: 4096 })], fcOptions(200))('agrees with Buffer latin1 decoding on any bytes', (bytes) => {
    expect(decodeIRText(bytes)).toBe(Buffer.from(bytes).toString('latin1'));
  });

  const multiSlice = fc.record({ pattern: fc.uint8Array({ minLength: 1, maxLength: 64 }), length: fc.integer({ min: SLICE - 100, max: 3 * SLICE + 100 }) });
  test.prop([multiSlice], fcOptions(12))('agrees across slice boundaries', ({ pattern, length }) => {
    const bytes = Buffer.alloc(length);
    for (let i = 0; i < length; i++) bytes[i] = pattern[i % pattern.length]! ^ (i >> 10);
    expect(decodeIRText(bytes) === bytes.toString('latin1')).toBe(true);
  });

  const view = fc.uint8Array({ minLength: 1, maxLength: 256 }).chain((bytes) =>
    fc.record({ bytes: fc.constant(bytes), start: fc.nat({ max: bytes.length }) }).chain(({ bytes, start }) => fc.record({ bytes: fc.constant(bytes), start: fc.constant(start), end: fc.integer({ min: start, max: bytes.length }) })),
  );
  test.prop([view], fcOptions(200))('decodes only the bytes of a view', ({ bytes, start, end }) => {
    const sub = new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start);
    expect(decodeIRText(sub)).toBe(Buffer.from(bytes.subarray(start, end)).toString('latin1'));
  });
});

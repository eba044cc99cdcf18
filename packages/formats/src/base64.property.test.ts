// Properties checked:
// 1. decodeLsbBase64(encodeLsbBase64(b)) = b for random bytes.
// 2. encodeLsbBase64(b) has ceil(8N/6) characters, all from the alphabet, and never '='.
// 3. The encoding equals an independent oracle: the bytes as one little-endian bit stream, cut
//    into 6-bit groups from the least significant end.
// 4. Replacing any character of an encoding with one outside the alphabet is a Base64DecodeError
//    at that index, never a wrong value.
// 5. A string of alphabet characters decodes iff its length mod 4 is not 1.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { decodeLsbBase64, encodeLsbBase64, lsbBase64EncodedLength } from './base64.js';
import { Base64DecodeError } from './errors.js';
import { fcOptions } from '@syclkit/testing';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const bytes = fc.uint8Array({ maxLength: 200 });
const outsideAlphabet = fc
  .oneof(fc.constantFrom('=', '-', '_', ' ', '|', '.', '\0', '\n', 'é', '😀'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }))
  // One code point: a grapheme such as 'A' + U+0301 starts with an alphabet character.
  .filter((char) => [...char].length === 1 && !ALPHABET.includes(char));

function oracleEncode(input: Uint8Array): string {
  let stream = 0n;
  input.forEach((byte, i) => {
    stream |= BigInt(byte) << BigInt(8 * i);
  });
  let out = '';
  for (let i = 0; i < lsbBase64EncodedLength(input.length); i++) out += ALPHABET[Number((stream >> BigInt(6 * i)) & 63n)];
  return out;
}

describe('LSB-first base64 properties', () => {
  test.prop([bytes], fcOptions())('decode(encode(b)) = b', (input) => {
    expect(decodeLsbBase64(encodeLsbBase64(input))).toEqual(input);
  });

  test.prop([bytes], fcOptions())('encode length is ceil(8N/6), alphabet only, no padding', (input) => {
    const encoded = encodeLsbBase64(input);
    expect(encoded).toHaveLength(Math.ceil((8 * input.length) / 6));
    expect([...encoded].every((char) => ALPHABET.includes(char))).toBe(true);
  });

  test.prop([bytes], fcOptions())('encoding matches the little-endian bit-stream oracle', (input) => {
    expect(encodeLsbBase64(input)).toBe(oracleEncode(input));
  });

  test.prop([bytes.filter((b) => b.length > 0), fc.nat(), outsideAlphabet], fcOptions())(
    'a character outside the alphabet is an error at its index, not a wrong value',
    (input, position, bad) => {
      const encoded = encodeLsbBase64(input);
      const index = position % encoded.length;
      const corrupted = encoded.slice(0, index) + bad + encoded.slice(index + 1);
      let error: unknown;
      try {
        decodeLsbBase64(corrupted);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(Base64DecodeError);
      expect((error as Base64DecodeError).index).toBe(index);
    },
  );

  test.prop([fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 64 })], fcOptions())(
    'alphabet strings decode exactly when length mod 4 is not 1',
    (text) => {
      if (text.length % 4 === 1) expect(() => decodeLsbBase64(text)).toThrow(Base64DecodeError);
      else expect(decodeLsbBase64(text)).toHaveLength(Math.floor((text.length * 6) / 8));
    },
  );
});

import { Buffer } from 'node:buffer';
import { Base64DecodeError, describeCharacter } from './errors.js';

// intel/llvm's Base64 (llvm/lib/Support/Base64.cpp): the standard alphabet, but bits are packed
// least-significant first and there is no `=` padding. RFC 4648 decoders give wrong bytes.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Characters produced for `byteCount` bytes: ceil(8·N/6). */
export function lsbBase64EncodedLength(byteCount: number): number {
  return Math.ceil((byteCount * 8) / 6);
}

/** Encodes bytes with intel/llvm's LSB-first base64 (no padding). */
export function encodeLsbBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(lsbBase64EncodedLength(n));
  let o = 0;
  let i = 0;
  for (; i + 3 <= n; i += 3) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1]!;
    const b2 = bytes[i + 2]!;
    out[o++] = ENCODE[b0 & 0x3f]!;
    out[o++] = ENCODE[((b1 << 2) | (b0 >> 6)) & 0x3f]!;
    out[o++] = ENCODE[((b2 << 4) | (b1 >> 4)) & 0x3f]!;
    out[o++] = ENCODE[b2 >> 2]!;
  }
  const remaining = n - i;
  if (remaining === 1) {
    const b0 = bytes[i]!;
    out[o++] = ENCODE[b0 & 0x3f]!;
    out[o++] = ENCODE[b0 >> 6]!;
  } else if (remaining === 2) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1]!;
    out[o++] = ENCODE[b0 & 0x3f]!;
    out[o++] = ENCODE[((b1 << 2) | (b0 >> 6)) & 0x3f]!;
    out[o++] = ENCODE[b1 >> 4]!;
  }
  return charCodesToString(out);
}

// Measured: fromCharCode is fastest for the short values .prop files hold; Buffer wins on long ones.
function charCodesToString(codes: Uint8Array): string {
  if (codes.length <= 1024) return String.fromCharCode.apply(null, codes as unknown as number[]);
  return Buffer.from(codes.buffer, codes.byteOffset, codes.length).toString('latin1');
}

/**
 * Decodes intel/llvm's LSB-first base64. Throws `Base64DecodeError` (with the character index) for a
 * character outside the alphabet (including `=`) and for a trailing group of one character.
 * Unused high bits of the last character are ignored, as upstream does.
 */
export function decodeLsbBase64(text: string): Uint8Array {
  const n = text.length;
  const remainder = n % 4;
  const out = new Uint8Array(((n - remainder) / 4) * 3 + (remainder === 0 ? 0 : remainder - 1));
  let o = 0;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const c0 = sextet(text, i);
    const c1 = sextet(text, i + 1);
    const c2 = sextet(text, i + 2);
    const c3 = sextet(text, i + 3);
    out[o++] = c0 | (c1 << 6);
    out[o++] = (c1 >> 2) | (c2 << 4);
    out[o++] = (c2 >> 4) | (c3 << 2);
  }
  if (remainder === 1) {
    sextet(text, i); // a bad character is reported before the length
    throw new Base64DecodeError(`invalid encoded sequence length ${n}: a trailing group of one character`, n - 1);
  }
  if (remainder >= 2) {
    const c0 = sextet(text, i);
    const c1 = sextet(text, i + 1);
    out[o++] = c0 | (c1 << 6);
    if (remainder === 3) out[o++] = (c1 >> 2) | (sextet(text, i + 2) << 4);
  }
  return out;
}

function sextet(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? DECODE[code]! : -1;
  if (value < 0) {
    const char = String.fromCodePoint(text.codePointAt(index)!);
    throw new Base64DecodeError(`invalid character ${describeCharacter(char)} in base64 value`, index);
  }
  return value;
}

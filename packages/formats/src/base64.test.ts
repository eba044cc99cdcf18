import { describe, expect, it } from 'vitest';
import { decodeLsbBase64, encodeLsbBase64, lsbBase64EncodedLength } from './base64.js';
import { Base64DecodeError } from './errors.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));

// Every worked example of post-link-and-wrapper.md §1.3, plus the two from intel/llvm's
// PropertySetIOTest.cpp. The raw bytes include the 8-byte little-endian bit-count prefix.
const workedExamples: [encoded: string, rawHex: string][] = [
  [
    'gCAAAAAAAAAAAAAABAAAAYAAAAQCAAAAMAAAAA',
    'a000000000000000 00000000 01000000 06000000 09000000 0c000000',
  ],
  ['gBAAAAAAAAAAAAAAJAAAAwAAAAA', '6000000000000000 00000000 09000000 0c000000'],
  ['ABAAAAAAAAQAAAAAGAAAAA', '4000000000000000 01000000 06000000'],
  ['AAAAAAAAAAA', '0000000000000000'],
  ['gAAAAAAAAAQAAAAA', '2000000000000000 01000000'],
  ['ABAAAAAAAAAQAAAAAAAAAA', '4000000000000000 4000000000000000'],
  ['ABAAAAAAAAAIAAAAAAAAAA', '4000000000000000 2000000000000000'],
  [
    'wDAAAAAAAAQbhRncph3X0lHclpjOmBnN0wSdzVmO6EGLxYDLxYD',
    'f000000000000000' + Buffer.from('matrix_type::fp64,use::a,16,16').toString('hex'),
  ],
  ['gAAAAAAAAAQbzFmb', '2000000000000000' + Buffer.from('msan').toString('hex')],
  ['gAAAAAAAAAQYzFmb', '2000000000000000' + Buffer.from('asan').toString('hex')],
  ['CAAAAAAAAAQA', '0200000000000000 01'],
  ['LAAAAAAAAAgfGA', '0b00000000000000 7e06'],
  ['IAAAAAAAAAQA', '0800000000000000 01'],
  ['oAAAAAAAAAw///3/wB', '2800000000000000 ffff7fff70'],
];

describe('LSB-first base64 (intel/llvm Base64.cpp)', () => {
  it.each(workedExamples)('decodes the worked example %s to the documented bytes', (encoded, rawHex) => {
    expect(hex(decodeLsbBase64(encoded))).toBe(rawHex.replace(/\s+/g, ''));
  });

  it.each(workedExamples)('re-encodes the worked example %s byte-exactly', (encoded, rawHex) => {
    expect(encodeLsbBase64(fromHex(rawHex))).toBe(encoded);
  });

  it('packs the low bits of each byte first, unlike RFC 4648', () => {
    // 0x01 0x00 0x00: RFC 4648 gives "AQAA"; LSB-first puts bit 0 into the first character.
    expect(encodeLsbBase64(Uint8Array.of(1, 0, 0))).toBe('BAAA');
    expect(encodeLsbBase64(Uint8Array.of(0xff, 0, 0))).toBe('/DAA');
  });

  it('encodes one leftover byte as two characters and two leftover bytes as three, without padding', () => {
    expect(encodeLsbBase64(Uint8Array.of(0xc1))).toBe('BD');
    expect(encodeLsbBase64(Uint8Array.of(0xc1, 0xab))).toBe('BvK');
    expect(decodeLsbBase64('BD')).toEqual(Uint8Array.of(0xc1));
    expect(decodeLsbBase64('BvK')).toEqual(Uint8Array.of(0xc1, 0xab));
  });

  it('encodes the empty byte string as the empty string and back', () => {
    expect(encodeLsbBase64(new Uint8Array(0))).toBe('');
    expect(decodeLsbBase64('')).toEqual(new Uint8Array(0));
  });

  it('gives ceil(8N/6) characters: 11 for the bare 8-byte prefix, 22 for 16 bytes', () => {
    expect(lsbBase64EncodedLength(8)).toBe(11);
    expect(lsbBase64EncodedLength(16)).toBe(22);
    expect(encodeLsbBase64(new Uint8Array(16))).toHaveLength(22);
  });

  it('uses the whole alphabet in order: value v encodes as the v-th character', () => {
    // Bytes whose sextets are 0, 1, …, 63 in LSB-first order.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const bytes = decodeLsbBase64(alphabet);
    expect(bytes).toHaveLength(48);
    expect(encodeLsbBase64(bytes)).toBe(alphabet);
  });

  it('ignores the unused high bits of a final character, as upstream does', () => {
    // 'D' = 3: only its low 2 bits belong to the byte; 'H' = 7 sets a third, unused bit.
    expect(decodeLsbBase64('BH')).toEqual(decodeLsbBase64('BD'));
  });

  it('rejects a character outside the alphabet and reports its index', () => {
    const error = captureError(() => decodeLsbBase64('gAAA!AAA'));
    expect(error).toBeInstanceOf(Base64DecodeError);
    expect(error.index).toBe(4);
    expect(error.reason).toBe("invalid character '!' (0x21) in base64 value");
  });

  it('rejects RFC 4648 padding', () => {
    expect(captureError(() => decodeLsbBase64('BD==')).index).toBe(2);
  });

  it('rejects whitespace and non-ASCII characters, naming the code point', () => {
    expect(captureError(() => decodeLsbBase64('AB C')).reason).toBe('invalid character U+0020 in base64 value');
    expect(captureError(() => decodeLsbBase64('ABé')).reason).toBe('invalid character U+00E9 in base64 value');
    expect(captureError(() => decodeLsbBase64('AB\u{1F600}')).reason).toBe('invalid character U+1F600 in base64 value');
  });

  it('reports the first bad character even when the length is also wrong', () => {
    expect(captureError(() => decodeLsbBase64('AAAA!')).index).toBe(4);
    expect(captureError(() => decodeLsbBase64('!AAAA')).index).toBe(0);
  });

  it('rejects a trailing group of one character (invalid encoded sequence length)', () => {
    const error = captureError(() => decodeLsbBase64('AAAAA'));
    expect(error.reason).toMatch(/^invalid encoded sequence length 5/);
    expect(error.index).toBe(4);
  });
});

function captureError(run: () => unknown): Base64DecodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof Base64DecodeError) return error;
    throw error;
  }
  throw new Error('expected a Base64DecodeError');
}

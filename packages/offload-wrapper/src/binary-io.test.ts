import { describe, expect, it } from 'vitest';
import { ByteBuilder } from './binary-io.js';

describe('ByteBuilder.string', () => {
  it('writes the UTF-8 bytes after their u32 length, ASCII or not, as TextEncoder encodes them', () => {
    for (const text of ['', 'abc', 'abcé€😀x', 'é', `${'x'.repeat(300)}ü`, '\u0080', 'SYCL/device requirements']) {
      const utf8 = new TextEncoder().encode(text);
      const bytes = new ByteBuilder().u8(9).string(text).u8(7).finish();
      const expected = new Uint8Array(1 + 4 + utf8.length + 1);
      expected[0] = 9;
      new DataView(expected.buffer).setUint32(1, utf8.length, true);
      expected.set(utf8, 5);
      expected[5 + utf8.length] = 7;
      expect(Buffer.from(bytes).equals(Buffer.from(expected)), text).toBe(true);
    }
  });
});

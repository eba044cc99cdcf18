import { describe, expect, it } from 'vitest';
import { decodeIRText } from './ir-text.js';
import { parseModule } from './parser.js';
import { printModule } from '../printer/printer.js';

describe('decodeIRText', () => {
  it('maps every byte value to the character with that code, across slice boundaries', () => {
    const bytes = Buffer.alloc(1_300_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 9)) & 0xff;
    const text = decodeIRText(bytes);
    expect(text.length).toBe(bytes.length);
    expect(text === bytes.toString('latin1')).toBe(true);
  });

  it('reads a Uint8Array view without copying the bytes around it', () => {
    const backing = Buffer.from('xx; a\ndefine void @f() {\n  ret void\n}\nyy', 'latin1');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 2, backing.length - 4);
    expect(decodeIRText(view)).toBe('; a\ndefine void @f() {\n  ret void\n}\n');
  });

  it('gives the parser the same module as the plain latin1 string of a large input', () => {
    const body = Array.from({ length: 16_000 }, (_, i) => `define void @f${i}() {\n  ret void\n}\n`).join('\n');
    const bytes = Buffer.from(`@s = constant [3 x i8] c"\\C3\\A9\\FF"\n${body}`, 'latin1');
    expect(bytes.length).toBeGreaterThan(512 * 1024);
    expect(printModule(parseModule(decodeIRText(bytes)))).toBe(printModule(parseModule(bytes.toString('latin1'))));
  });
});

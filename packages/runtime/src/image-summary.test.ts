import { describe, expect, it } from 'vitest';
import { isBitcode, isElf, isSpirv } from './image-summary.js';

describe('binary image kinds', () => {
  const bytes = (...b: number[]): Uint8Array => new Uint8Array([...b, 0, 0, 0, 0]);

  it('knows LLVM bitcode (plain and wrapped), ELF objects (AMDGPU code objects, cubins) and SPIR-V apart', () => {
    expect(isBitcode(bytes(0x42, 0x43, 0xc0, 0xde))).toBe(true);
    expect(isBitcode(bytes(0xde, 0xc0, 0x17, 0x0b))).toBe(true);
    expect(isElf(bytes(0x7f, 0x45, 0x4c, 0x46))).toBe(true);
    expect(isElf(bytes(0x42, 0x43, 0xc0, 0xde))).toBe(false);
    expect(isBitcode(bytes(0x7f, 0x45, 0x4c, 0x46))).toBe(false);
    expect(isSpirv(bytes(0x03, 0x02, 0x23, 0x07))).toBe(true);
    expect(isElf(bytes(0x03, 0x02, 0x23, 0x07))).toBe(false);
  });

  it('leaves text (IR, PTX) and short inputs to the other readers', () => {
    for (const text of ['; ModuleID', '//\n.version 7.0']) {
      const encoded = new TextEncoder().encode(text);
      expect(isBitcode(encoded) || isElf(encoded)).toBe(false);
    }
    expect(isElf(new Uint8Array([0x7f, 0x45]))).toBe(false);
  });
});

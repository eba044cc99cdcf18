import { describe, expect, it } from 'vitest';
import { isBinaryCode } from './image-summary.js';

describe('isBinaryCode', () => {
  it('knows SPIR-V, LLVM bitcode (plain and wrapped) and ELF objects (AMDGPU code objects, cubins)', () => {
    const bytes = (...b: number[]): Uint8Array => new Uint8Array([...b, 0, 0, 0, 0]);
    expect(isBinaryCode(bytes(0x03, 0x02, 0x23, 0x07))).toBe(true);
    expect(isBinaryCode(bytes(0x42, 0x43, 0xc0, 0xde))).toBe(true);
    expect(isBinaryCode(bytes(0xde, 0xc0, 0x17, 0x0b))).toBe(true);
    expect(isBinaryCode(bytes(0x7f, 0x45, 0x4c, 0x46))).toBe(true);
  });

  it('leaves text (IR, PTX) and short inputs to the other readers', () => {
    expect(isBinaryCode(new TextEncoder().encode('; ModuleID'))).toBe(false);
    expect(isBinaryCode(new TextEncoder().encode('//\n.version 7.0'))).toBe(false);
    expect(isBinaryCode(new Uint8Array([0x7f, 0x45]))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { doubleToBits, formatFP, fpLiteralBits, floatToBits } from './fp.js';

describe('floating-point constants print like LLVM 16', () => {
  // expectations recorded from `opt -S` (LLVM 16)
  const doubles: [number, string][] = [
    [1, '1.000000e+00'],
    [2.5, '2.500000e+00'],
    [3.14, '3.140000e+00'],
    [0.1, '1.000000e-01'],
    [1e100, '1.000000e+100'],
    [-0, '-0.000000e+00'],
    [0, '0.000000e+00'],
    [1.234567e-5, '0x3EE9E407F6F7473A'],
    [123456.7, '0x40FE240B33333333'],
    [Infinity, '0x7FF0000000000000'],
  ];
  for (const [value, text] of doubles) {
    it(`prints double ${Object.is(value, -0) ? '-0' : value} as ${text}`, () => {
      expect(formatFP('double', doubleToBits(value))).toBe(text);
    });
  }

  it('prints a float that is not exact in 6 digits as the hex of its double', () => {
    expect(formatFP('float', floatToBits(Math.fround(3.14)))).toBe('0x40091EB860000000');
    expect(formatFP('float', floatToBits(1e10))).toBe('1.000000e+10');
  });

  it('prints half and bfloat as raw hex with their letter', () => {
    expect(formatFP('half', 0x3c00n)).toBe('0xH3C00');
    expect(formatFP('bfloat', 0x3f80n)).toBe('0xR3F80');
  });
});

describe('floating-point literals are read like LLParser', () => {
  it('accepts a decimal float literal only when exact in float', () => {
    expect(fpLiteralBits('float', '2.5', false)).toBe(floatToBits(2.5));
    expect(fpLiteralBits('float', '3.14', false)).toBe('floating point constant invalid for type');
  });

  it('reads a plain 0x literal as the bits of a double, converted to the type', () => {
    expect(fpLiteralBits('float', '0x40091EB860000000', true)).toBe(floatToBits(Math.fround(3.14)));
    expect(fpLiteralBits('double', '0x3FF0000000000000', true)).toBe(doubleToBits(1));
  });

  it('reads 0xH as half bits and converts exact decimals to half', () => {
    expect(fpLiteralBits('half', '0xH3C00', true)).toBe(0x3c00n);
    expect(fpLiteralBits('half', '1.0', false)).toBe(0x3c00n);
    expect(fpLiteralBits('half', '0.1', false)).toBe('floating point constant invalid for type');
  });

  it('converts decimals to x86_fp80 with an explicit integer bit', () => {
    expect(formatFP('x86_fp80', fpLiteralBits('x86_fp80', '1.0', false) as bigint)).toBe('0xK3FFF8000000000000000');
  });
});

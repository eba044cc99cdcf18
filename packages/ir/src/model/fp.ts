/**
 * Floating-point constants: conversion between literals and raw bits, and LLVM's printing rule
 * (6 significant digits in `%e` form when that reparses to the same double, else hex).
 */
import type { FloatKind } from './types.js';

const buf = new DataView(new ArrayBuffer(8));

export function doubleToBits(v: number): bigint {
  buf.setFloat64(0, v);
  return buf.getBigUint64(0);
}
export function bitsToDouble(bits: bigint): number {
  buf.setBigUint64(0, BigInt.asUintN(64, bits));
  return buf.getFloat64(0);
}
export function floatToBits(v: number): bigint {
  buf.setFloat32(0, v);
  return BigInt(buf.getUint32(0));
}
export function bitsToFloat(bits: bigint): number {
  buf.setUint32(0, Number(BigInt.asUintN(32, bits)));
  return buf.getFloat32(0);
}

/** float bits → double bits, keeping NaN payloads (shifted into place) as APFloat does. */
export function floatBitsToDoubleBits(bits: bigint): bigint {
  const b = Number(bits);
  const sign = BigInt(b >>> 31);
  const exp = (b >>> 23) & 0xff;
  const mant = BigInt(b & 0x7fffff);
  if (exp === 0xff) return (sign << 63n) | (0x7ffn << 52n) | (mant << 29n);
  return doubleToBits(bitsToFloat(bits));
}

/** Half (IEEE binary16) bits → double value. */
export function halfToDouble(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** Double → half bits when exactly representable, else undefined. */
export function doubleToHalfExact(v: number): number | undefined {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  for (let exp = 1; exp < 0x1f; exp++) {
    const m = (a / 2 ** (exp - 15) - 1) * 1024;
    if (m >= 0 && m < 1024 && Number.isInteger(m)) return sign | (exp << 10) | m;
  }
  const sub = a / 2 ** -24;
  if (Number.isInteger(sub) && sub < 1024) return sign | sub;
  return undefined;
}

/** bfloat bits → double. */
export function bfloatToDouble(bits: number): number {
  return bitsToFloat(BigInt(bits) << 16n);
}

/** Double → bfloat bits when exactly representable. */
export function doubleToBFloatExact(v: number): number | undefined {
  const f = Math.fround(v);
  if (f !== v && !Number.isNaN(v)) return undefined;
  const bits = Number(floatToBits(f));
  if ((bits & 0xffff) !== 0 && !Number.isNaN(v)) return undefined;
  return bits >>> 16;
}

/** Double → x86_fp80 raw bits (sign+exp 16 bits, explicit-integer-bit mantissa 64 bits). */
export function doubleToFp80(v: number): bigint {
  const bits = doubleToBits(v);
  const sign = bits >> 63n;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const mant = bits & ((1n << 52n) - 1n);
  if (exp === 0 && mant === 0n) return sign << 79n;
  if (exp === 0x7ff) return (sign << 79n) | (0x7fffn << 64n) | (1n << 63n) | (mant << 11n);
  if (exp === 0) {
    // subnormal double: normalize
    let m = mant;
    let e = -1022;
    while ((m & (1n << 52n)) === 0n) {
      m <<= 1n;
      e--;
    }
    return (sign << 79n) | (BigInt(e + 16383) << 64n) | (m << 11n);
  }
  return (sign << 79n) | (BigInt(exp - 1023 + 16383) << 64n) | (1n << 63n) | (mant << 11n);
}

/** Double → IEEE binary128 raw bits. */
export function doubleToFp128(v: number): bigint {
  const bits = doubleToBits(v);
  const sign = bits >> 63n;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const mant = bits & ((1n << 52n) - 1n);
  if (exp === 0 && mant === 0n) return sign << 127n;
  if (exp === 0x7ff) return (sign << 127n) | (0x7fffn << 112n) | (mant << 60n);
  if (exp === 0) {
    let m = mant;
    let e = -1022;
    while ((m & (1n << 52n)) === 0n) {
      m <<= 1n;
      e--;
    }
    return (sign << 127n) | (BigInt(e + 16383) << 112n) | ((m & ((1n << 52n) - 1n)) << 60n);
  }
  return (sign << 127n) | (BigInt(exp - 1023 + 16383) << 112n) | (mant << 60n);
}

/** 128-bit value → the order LLVM writes `0xL`/`0xM` literals (low 64 bits first). */
export function swap64Halves(v: bigint): bigint {
  const lo = v & ((1n << 64n) - 1n);
  const hi = v >> 64n;
  return (lo << 64n) | hi;
}

/**
 * Raw bits for a literal of type `kind`, or an error message. Decimal literals and plain `0x`
 * hex (a double's bits) are converted to the type and must be exact for half/bfloat/float, as in
 * LLParser; `0xH`/`0xR`/`0xK`/`0xL`/`0xM` give raw bits of their format.
 */
export function fpLiteralBits(kind: FloatKind, text: string, isHex: boolean): bigint | string {
  let value: number;
  if (isHex) {
    const letter = text[2]!;
    if (/[KLMHR]/.test(letter)) {
      const raw = BigInt('0x' + text.slice(3));
      const expected = { H: 'half', R: 'bfloat', K: 'x86_fp80', L: 'fp128', M: 'ppc_fp128' }[letter];
      if (expected !== kind) return 'floating point constant invalid for type';
      return raw;
    }
    value = bitsToDouble(BigInt(text));
  } else {
    value = Number(text);
  }
  switch (kind) {
    case 'double':
      return doubleToBits(value);
    case 'float': {
      if (!Number.isNaN(value) && Math.fround(value) !== value) return 'floating point constant invalid for type';
      if (Number.isNaN(value)) {
        // keep the payload: double NaN → float NaN (mantissa >> 29)
        const d = doubleToBits(value);
        const sign = (d >> 63n) << 31n;
        return sign | (0xffn << 23n) | ((d >> 29n) & 0x7fffffn);
      }
      return floatToBits(value);
    }
    case 'half': {
      const h = doubleToHalfExact(value);
      return h === undefined ? 'floating point constant invalid for type' : BigInt(h);
    }
    case 'bfloat': {
      const b = doubleToBFloatExact(value);
      return b === undefined ? 'floating point constant invalid for type' : BigInt(b);
    }
    case 'x86_fp80':
      return doubleToFp80(value);
    case 'fp128':
      return swap64Halves(doubleToFp128(value));
    case 'ppc_fp128':
      return swap64Halves(doubleToBits(value));
  }
}

/** LLVM's `%e`-with-6-digits rendering, used when it reparses exactly. */
function formatScientific(v: number): string {
  if (v === 0) return Object.is(v, -0) ? '-0.000000e+00' : '0.000000e+00';
  const [mantissa, exponent] = v.toExponential(5).split('e') as [string, string];
  const expNum = Number(exponent);
  const expText = (expNum < 0 ? '-' : '+') + String(Math.abs(expNum)).padStart(2, '0');
  return `${mantissa}0e${expText}`;
}

/** Prints a double the way AsmWriter does for float and double constants. */
export function formatDouble(v: number, doubleBits: bigint): string {
  if (Number.isFinite(v)) {
    const text = formatScientific(v);
    if (Number(text) === v && (v !== 0 || Object.is(Number(text), v))) return text;
  }
  return '0x' + doubleBits.toString(16).toUpperCase();
}

/** Prints a constant of type `kind` with raw `bits` exactly as LLVM 16's AsmWriter. */
export function formatFP(kind: FloatKind, bits: bigint): string {
  switch (kind) {
    case 'double':
      return formatDouble(bitsToDouble(bits), bits);
    case 'float': {
      const dbits = floatBitsToDoubleBits(bits);
      return formatDouble(bitsToDouble(dbits), dbits);
    }
    case 'half':
      return '0xH' + bits.toString(16).toUpperCase().padStart(4, '0');
    case 'bfloat':
      return '0xR' + bits.toString(16).toUpperCase().padStart(4, '0');
    case 'x86_fp80':
      return '0xK' + bits.toString(16).toUpperCase().padStart(20, '0');
    case 'fp128':
      return '0xL' + bits.toString(16).toUpperCase().padStart(32, '0');
    case 'ppc_fp128':
      return '0xM' + bits.toString(16).toUpperCase().padStart(32, '0');
  }
}

/** The numeric value of a half/bfloat/float/double constant (NaN for other kinds). */
export function fpValue(kind: FloatKind, bits: bigint): number {
  switch (kind) {
    case 'double':
      return bitsToDouble(bits);
    case 'float':
      return bitsToFloat(bits);
    case 'half':
      return halfToDouble(Number(bits));
    case 'bfloat':
      return bfloatToDouble(Number(bits));
    default:
      return NaN;
  }
}

/**
 * A context owns types, metadata kinds, interned metadata and interned simple constants, like an
 * LLVMContext. Modules that are linked together must share one context.
 */
import { MetadataContext } from './metadata.js';
import { TypeContext, type FloatType, type IntegerType, type PointerType, type Type } from './types.js';
import {
  ConstantAggregateZero,
  ConstantFP,
  ConstantInt,
  ConstantNone,
  ConstantPointerNull,
  PoisonValue,
  UndefValue,
} from './values.js';

const SMALL_CONSTANTS = 256;

export class Context extends TypeContext {
  readonly md = new MetadataContext();
  private readonly ints = new Map<IntegerType, Map<number | bigint, ConstantInt>>();
  private readonly fps = new Map<Type, Map<bigint, ConstantFP>>();
  private readonly nulls = new Map<PointerType, ConstantPointerNull>();
  private readonly zeros = new Map<Type, ConstantAggregateZero>();
  private readonly undefs = new Map<Type, UndefValue>();
  private readonly poisons = new Map<Type, PoisonValue>();
  private readonly nones = new Map<Type, ConstantNone>();
  /** The constants 0 .. SMALL_CONSTANTS-1 of i32 and i64, made on first use (the same objects as `ints` holds). */
  private readonly smallI32: (ConstantInt | undefined)[] = new Array<ConstantInt | undefined>(SMALL_CONSTANTS).fill(undefined);
  private readonly smallI64: (ConstantInt | undefined)[] = new Array<ConstantInt | undefined>(SMALL_CONSTANTS).fill(undefined);

  /** Integer constant; `value` is wrapped to the type's width and stored signed. */
  constInt(type: IntegerType, value: number | bigint): ConstantInt {
    // the small i32 and i64 constants IR is full of (indices, sizes, alignments), without a map
    if (typeof value === 'number' && value >= 0 && value < SMALL_CONSTANTS && (value | 0) === value) {
      const small = type === this.i64 ? this.smallI64 : type === this.i32 ? this.smallI32 : undefined;
      if (small !== undefined) return (small[value] ??= this.constIntSlow(type, value));
    }
    return this.constIntSlow(type, value);
  }

  private constIntSlow(type: IntegerType, value: number | bigint): ConstantInt {
    const v = normalizeInt(type.bits, value);
    let byValue = this.ints.get(type);
    if (byValue === undefined) {
      byValue = new Map();
      this.ints.set(type, byValue);
    }
    let c = byValue.get(v);
    if (c === undefined) {
      c = new ConstantInt(type, v);
      byValue.set(v, c);
    }
    return c;
  }

  constI32(value: number): ConstantInt {
    return this.constInt(this.i32, value);
  }
  constI64(value: number | bigint): ConstantInt {
    return this.constInt(this.i64, value);
  }
  bool(value: boolean): ConstantInt {
    return this.constInt(this.i1, value ? 1 : 0);
  }

  /** Floating-point constant from raw bits of the type's format. */
  constFP(type: FloatType | Type, bits: bigint): ConstantFP {
    let byBits = this.fps.get(type);
    if (byBits === undefined) {
      byBits = new Map();
      this.fps.set(type, byBits);
    }
    let c = byBits.get(bits);
    if (c === undefined) {
      c = new ConstantFP(type, bits);
      byBits.set(bits, c);
    }
    return c;
  }

  nullPtr(type: PointerType): ConstantPointerNull {
    let c = this.nulls.get(type);
    if (c === undefined) {
      c = new ConstantPointerNull(type);
      this.nulls.set(type, c);
    }
    return c;
  }
  zero(type: Type): ConstantAggregateZero {
    let c = this.zeros.get(type);
    if (c === undefined) {
      c = new ConstantAggregateZero(type);
      this.zeros.set(type, c);
    }
    return c;
  }
  undef(type: Type): UndefValue {
    let c = this.undefs.get(type);
    if (c === undefined) {
      c = new UndefValue(type);
      this.undefs.set(type, c);
    }
    return c;
  }
  poison(type: Type): PoisonValue {
    let c = this.poisons.get(type);
    if (c === undefined) {
      c = new PoisonValue(type);
      this.poisons.set(type, c);
    }
    return c;
  }
  none(type: Type): ConstantNone {
    let c = this.nones.get(type);
    if (c === undefined) {
      c = new ConstantNone(type);
      this.nones.set(type, c);
    }
    return c;
  }
}

/** Wraps `value` to `bits` and returns it in signed form, as a number when it is safe. */
export function normalizeInt(bits: number, value: number | bigint): number | bigint {
  if (typeof value === 'number' && bits <= 32 && Number.isInteger(value)) {
    if (bits === 32) return value | 0;
    if (bits === 1) return value & 1 ? -1 : 0;
    const shift = 32 - bits;
    return (value << shift) >> shift;
  }
  let big = BigInt.asIntN(bits, typeof value === 'bigint' ? value : BigInt(value));
  if (bits === 1) big = big === 0n ? 0n : -1n;
  return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
}

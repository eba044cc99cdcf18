/**
 * The constant folding LLParser applies while building constants (through `ConstantExpr::get*`
 * and the `Constant*::get` factories), limited to what changes printed IR in practice:
 * aggregates of one repeated null/undef/poison become `zeroinitializer`/`undef`/`poison`, i8
 * arrays of integers become strings, identity casts and all-zero GEPs fold to their operand,
 * casts of null / undef and integer casts of integer constants fold to constants.
 */
import type { Context } from './context.js';
import type { Type } from './types.js';
import {
  ConstantArray,
  ConstantExpr,
  ConstantString,
  ConstantStruct,
  ConstantVector,
  isNullValue,
  type Constant,
  type ConstantExprExtra,
  type ConstantExprOpcode,
} from './values.js';

function allSame(elements: readonly Constant[], test: (c: Constant) => boolean): boolean {
  const first = elements[0];
  if (first === undefined || !test(first)) return false;
  return elements.every((e) => e === first);
}

/** `ConstantArray::get`: folds uniform null/undef/poison arrays and i8 integer arrays to strings. */
export function makeArray(ctx: Context, type: Type, elements: readonly Constant[]): Constant {
  if (elements.length === 0) return ctx.zero(type);
  if (allSame(elements, (c) => c.vk === 'poison')) return ctx.poison(type);
  if (allSame(elements, (c) => c.vk === 'undef')) return ctx.undef(type);
  if (allSame(elements, isNullValue)) return ctx.zero(type);
  if (type.kind === 'array' && type.element.kind === 'integer' && type.element.bits === 8 && elements.every((e) => e.vk === 'int')) {
    let bytes = '';
    for (const e of elements) bytes += String.fromCharCode(Number(e.vk === 'int' ? e.value : 0) & 0xff);
    return makeString(ctx, type, bytes);
  }
  return new ConstantArray(type, elements);
}

/** A `c"..."` constant; all-zero bytes fold to `zeroinitializer` like ConstantDataSequential. */
export function makeString(ctx: Context, type: Type, bytes: string): Constant {
  if (/^\0*$/.test(bytes)) return ctx.zero(type);
  return new ConstantString(type, bytes);
}

/** `ConstantStruct::get`. */
export function makeStruct(ctx: Context, type: Type, fields: readonly Constant[]): Constant {
  if (fields.length === 0) return ctx.zero(type);
  if (fields.every(isNullValue)) return ctx.zero(type);
  if (fields.every((c) => c.vk === 'poison')) return ctx.poison(type);
  if (fields.every((c) => c.vk === 'undef' || c.vk === 'poison') && fields.some((c) => c.vk === 'undef')) {
    if (fields.every((c) => c.vk === 'undef')) return ctx.undef(type);
  }
  return new ConstantStruct(type, fields);
}

/** `ConstantVector::get`. */
export function makeVector(ctx: Context, type: Type, elements: readonly Constant[]): Constant {
  if (allSame(elements, (c) => c.vk === 'poison')) return ctx.poison(type);
  if (allSame(elements, (c) => c.vk === 'undef')) return ctx.undef(type);
  if (allSame(elements, isNullValue)) return ctx.zero(type);
  return new ConstantVector(type, elements);
}

const INT_CASTS = new Set(['trunc', 'zext', 'sext']);

/** Builds a constant expression, folding the cases LLVM folds at construction. */
export function makeConstantExpr(
  ctx: Context,
  opcode: ConstantExprOpcode,
  type: Type,
  operands: readonly Constant[],
  extra: ConstantExprExtra = {},
): Constant {
  const op0 = operands[0]!;
  if (opcode === 'bitcast' || opcode === 'addrspacecast' || INT_CASTS.has(opcode) || opcode === 'ptrtoint' || opcode === 'inttoptr') {
    if (opcode === 'bitcast' && op0.type === type) return op0;
    if (op0.vk === 'poison') return ctx.poison(type);
    if (op0.vk === 'undef') {
      // zext/sext of undef fold to 0 (the high bits are known), others stay undef
      if (opcode === 'zext' || opcode === 'sext') return nullValue(ctx, type);
      return ctx.undef(type);
    }
    if (opcode !== 'addrspacecast' && isNullValue(op0)) {
      const n = nullValue(ctx, type);
      if (n !== undefined) return n;
    }
    if (op0.vk === 'int' && type.kind === 'integer') {
      const v = op0.big;
      if (opcode === 'trunc' || opcode === 'sext') return ctx.constInt(type, v);
      if (opcode === 'zext') return ctx.constInt(type, BigInt.asUintN(op0.type.bits, v));
    }
  }
  if (opcode === 'getelementptr') {
    if (operands.length === 1) return op0;
    if (op0.vk === 'poison') return ctx.poison(type);
    if (op0.vk === 'undef') return extra.flags?.includes('inbounds') ? ctx.poison(type) : ctx.undef(type);
    const indices = operands.slice(1);
    const inRange = extra.inRangeOperand !== undefined || extra.inRange !== undefined;
    if (!inRange && indices.every((i) => isNullValue(i) || i.vk === 'undef') && type === op0.type) return op0;
  }
  return new ConstantExpr(opcode, type, operands, extra);
}

/** `Constant::getNullValue` for first-class types (undefined for types without one). */
export function nullValue(ctx: Context, type: Type): Constant {
  switch (type.kind) {
    case 'integer':
      return ctx.constInt(type, 0);
    case 'float':
      return ctx.constFP(type, 0n);
    case 'pointer':
      return ctx.nullPtr(type);
    case 'token':
      return ctx.none(type);
    case 'target':
      return ctx.none(type);
    default:
      return ctx.zero(type);
  }
}

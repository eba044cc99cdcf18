/**
 * The constant folding LLParser applies while building constants (through `ConstantExpr::get*`
 * and the `Constant*::get` factories), limited to what changes printed IR in practice:
 * aggregates of one repeated null/undef/poison become `zeroinitializer`/`undef`/`poison`, i8
 * arrays of integers become strings, identity casts and all-zero GEPs fold to their operand,
 * casts of null / undef and integer casts of integer constants fold to constants.
 *
 * Typed pointers (`T*`, only in modules read with `pointers: 'preserve-typed'`) fold as LLVM 14's
 * ConstantFold.cpp does instead: a bitcast between different pointer types stays unless it casts
 * a pointer to an aggregate to a pointer to its first element (`getelementptr inbounds (T, T* p,
 * i32 0, i32 0...)`); casts of pointer casts combine (`CastInst::isEliminableCastPair`); an
 * addrspacecast that changes the pointee is a bitcast then an addrspacecast; a bitcast or
 * ptrtoint of an all-zero GEP casts the GEP's base; an all-zero GEP folds only with a single
 * index; a GEP of `null` with zero indices is `null`; a GEP of a GEP is merged; a GEP through a
 * bitcast between arrays of one element type indexes the original array; out-of-range array
 * indices are factored into the index before them; a GEP of a global variable whose indices are
 * in bounds gets `inbounds`. (With opaque pointers LLVM 16 also merges GEPs of GEPs, factors
 * indices and infers `inbounds`; opaque mode here does not, no corpus input has needed it.)
 */
import type { Context } from './context.js';
import type { PointerType, Type } from './types.js';
import { isSized } from './types.js';
import {
  ConstantArray,
  type ConstantInt,
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
    if (opcode === 'addrspacecast' && isTypedPointer(type)) {
      // `ConstantExpr::getAddrSpaceCast` with typed pointers: change the pointee type first (a
      // bitcast in the source address space), then the address space
      const from = scalarPointer(op0.type);
      const to = scalarPointer(type)!;
      if (from !== undefined && from.pointee !== undefined && from.pointee !== to.pointee) {
        const midScalar = ctx.typedPtr(to.pointee!, from.addressSpace);
        const mid = type.kind === 'vector' ? ctx.vector(midScalar, type.length, type.scalable) : midScalar;
        return makeConstantExpr(ctx, 'addrspacecast', type, [makeConstantExpr(ctx, 'bitcast', mid, [op0])]);
      }
    }
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
    if (isTypedPointer(type) || isTypedPointer(op0.type)) {
      const folded = foldTypedPointerCast(ctx, opcode, type, op0);
      if (folded !== undefined) return folded;
    }
  }
  if (opcode === 'getelementptr') {
    if (operands.length === 1) return op0;
    if (isTypedPointer(type)) return typedGEP(ctx, type, operands, extra);
    if (op0.vk === 'poison') return ctx.poison(type);
    if (op0.vk === 'undef') return extra.flags?.includes('inbounds') ? ctx.poison(type) : ctx.undef(type);
    const indices = operands.slice(1);
    const inRange = extra.inRangeOperand !== undefined || extra.inRange !== undefined;
    if (!inRange && indices.every((i) => isNullValue(i) || i.vk === 'undef') && type === op0.type) return op0;
  }
  return new ConstantExpr(opcode, type, operands, extra);
}

/** A typed pointer, or a vector of them. */
function isTypedPointer(t: Type): boolean {
  const s = t.kind === 'vector' ? t.element : t;
  return s.kind === 'pointer' && s.pointee !== undefined;
}

const POINTER_CASTS = ['ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast'] as const;
type PointerCast = (typeof POINTER_CASTS)[number];

function scalarPointer(t: Type): PointerType | undefined {
  const s = t.kind === 'vector' ? t.element : t;
  return s.kind === 'pointer' ? s : undefined;
}

/**
 * `CastInst::isEliminableCastPair` (as `foldConstantCastPair` calls it, with a 64-bit
 * intermediate integer) for pairs of pointer casts: the opcode of the single cast from `src` to
 * `dst` that replaces `first` (src → mid) followed by `second` (mid → dst), or undefined.
 */
function eliminableCastPair(first: PointerCast, second: PointerCast, src: Type, mid: Type, dst: Type): ConstantExprOpcode | undefined {
  switch (`${first},${second}`) {
    case 'bitcast,bitcast':
    case 'addrspacecast,bitcast': // 13
    case 'inttoptr,bitcast': // 15
      return first;
    case 'bitcast,ptrtoint': // 16
      return second;
    case 'bitcast,addrspacecast': {
      // 14: when the bitcast's source points to what the addrspacecast's destination points to
      const a = scalarPointer(src);
      const b = scalarPointer(dst);
      return a !== undefined && b !== undefined && a.pointee === b.pointee ? 'addrspacecast' : undefined;
    }
    case 'addrspacecast,addrspacecast': {
      // 12
      const a = scalarPointer(src);
      const b = scalarPointer(dst);
      if (a === undefined || b === undefined) return undefined;
      return a.addressSpace !== b.addressSpace ? 'addrspacecast' : 'bitcast';
    }
    case 'ptrtoint,bitcast': // 3: an integer result that is not a vector
      return src.kind !== 'vector' && dst.kind === 'integer' ? first : undefined;
    case 'ptrtoint,inttoptr': {
      // 7: the intermediate integer is 64 bits wide (as wide as any pointer)
      const a = scalarPointer(src);
      const b = scalarPointer(dst);
      if (a === undefined || b === undefined || a.addressSpace !== b.addressSpace) return undefined;
      const m = mid.kind === 'vector' ? mid.element : mid;
      return m.kind === 'integer' && m.bits === 64 ? 'bitcast' : undefined;
    }
    case 'inttoptr,ptrtoint': {
      // 11: the integer fits the (64-bit) intermediate pointer and keeps its width
      const a = src.kind === 'vector' ? src.element : src;
      const b = dst.kind === 'vector' ? dst.element : dst;
      return a.kind === 'integer' && b.kind === 'integer' && a.bits <= 64 && a.bits === b.bits ? 'bitcast' : undefined;
    }
    default:
      return undefined;
  }
}

/** `GetElementPtrInst::getTypeAtIndex(T, 0)`: the first field or the element. */
function firstElementType(t: Type): Type | undefined {
  if (t.kind === 'struct') return t.elements !== undefined && t.elements.length > 0 ? t.elements[0] : undefined;
  if (t.kind === 'array' || t.kind === 'vector') return t.element;
  return undefined;
}

/** LLVM 14's `ConstantFoldCastInstruction` steps that involve typed pointers (after null/undef). */
function foldTypedPointerCast(ctx: Context, opcode: ConstantExprOpcode, type: Type, op0: Constant): Constant | undefined {
  if (op0.vk === 'expr') {
    if ((POINTER_CASTS as readonly string[]).includes(op0.opcode) && (POINTER_CASTS as readonly string[]).includes(opcode)) {
      const inner = op0.operands[0]!;
      const combined = eliminableCastPair(op0.opcode as PointerCast, opcode as PointerCast, inner.type, op0.type, type);
      if (combined !== undefined) return makeConstantExpr(ctx, combined, type, [inner]);
    } else if (
      op0.opcode === 'getelementptr' &&
      opcode !== 'addrspacecast' &&
      op0.extra.inRangeOperand === undefined &&
      op0.extra.inRange === undefined &&
      op0.type.kind !== 'vector' &&
      op0.operands.every((o, i) => i === 0 || isNullValue(o))
    ) {
      // no pointer adjustment: cast the GEP's base instead (`ConstantExpr::getPointerCast`)
      const base = op0.operands[0]!;
      if (type.kind === 'integer') return makeConstantExpr(ctx, 'ptrtoint', type, [base]);
      const from = scalarPointer(base.type);
      const to = scalarPointer(type);
      const cast = from !== undefined && to !== undefined && from.addressSpace !== to.addressSpace ? 'addrspacecast' : 'bitcast';
      return makeConstantExpr(ctx, cast, type, [base]);
    }
  }
  if (opcode === 'bitcast') {
    // FoldBitCast: a pointer to an aggregate cast to a pointer to its first element is a GEP
    const from = op0.type;
    if (from.kind === 'pointer' && type.kind === 'pointer' && from.pointee !== undefined && type.pointee !== undefined && from.addressSpace === type.addressSpace && isSized(from.pointee)) {
      const zero = ctx.constI32(0);
      const indices: Constant[] = [zero];
      let el: Type | undefined = from.pointee;
      while (el !== undefined && el !== type.pointee) {
        el = firstElementType(el);
        indices.push(zero);
      }
      if (el === type.pointee) return makeConstantExpr(ctx, 'getelementptr', type, [op0, ...indices], { flags: ['inbounds'], sourceElementType: from.pointee });
    }
  }
  return undefined;
}

/** LLVM 14's `ConstantFoldGetElementPtr` for typed pointers (see the file comment for what is left out). */
function typedGEP(ctx: Context, type: Type, operands: readonly Constant[], extra: ConstantExprExtra): Constant {
  const op0 = operands[0]!;
  const inBounds = extra.flags?.includes('inbounds') ?? false;
  if (op0.vk === 'poison') return ctx.poison(type);
  if (op0.vk === 'undef') return inBounds ? ctx.poison(type) : ctx.undef(type);
  const indices = operands.slice(1);
  const zeroOrUndef = (c: Constant): boolean => isNullValue(c) || c.vk === 'undef';
  if (indices.length === 1 && zeroOrUndef(indices[0]!) && type === op0.type) return op0;
  if (isNullValue(op0) && indices.every(zeroOrUndef)) return nullValue(ctx, type);
  const source = extra.sourceElementType;
  if (op0.vk === 'expr' && op0.opcode === 'getelementptr') {
    const merged = mergeGEPs(ctx, type, op0, indices, inBounds);
    if (merged !== undefined) return merged;
  }
  if (op0.vk === 'expr' && CAST_OPCODES.has(op0.opcode) && indices.length > 1 && isNullValue(indices[0]!)) {
    // getelementptr ([2 x i32], bitcast ([3 x i32]* @x to [2 x i32]*), 0, 0) indexes @x directly
    const from = scalarPointer(op0.operands[0]!.type);
    const to = scalarPointer(op0.type);
    if (from?.pointee?.kind === 'array' && to?.pointee?.kind === 'array' && from.pointee.element === to.pointee.element && from.addressSpace === to.addressSpace)
      return makeConstantExpr(ctx, 'getelementptr', type, [op0.operands[0]!, ...indices], { ...extra, sourceElementType: from.pointee });
  }
  if (source === undefined) return new ConstantExpr('getelementptr', type, operands, extra);
  const { unknown, factored } = normalizeIndices(ctx, source, indices, extra.inRangeOperand);
  if (factored !== undefined) return makeConstantExpr(ctx, 'getelementptr', type, [op0, ...factored], extra);
  if (!unknown && !inBounds && op0.vk === 'global' && op0.linkage !== 'extern_weak' && op0.valueType === source && inBoundsIndices(indices))
    return new ConstantExpr('getelementptr', type, operands, { ...extra, flags: ['inbounds', ...(extra.flags ?? [])] });
  return new ConstantExpr('getelementptr', type, operands, extra);
}

/**
 * LLVM 14's "combine indices" step: a GEP whose base is a GEP indexes the inner GEP's base
 * directly when its first index is 0, or when it is an integer that stays inside the array (or
 * unbounded pointer step) the inner GEP's last index walks: the two indices are added.
 */
function mergeGEPs(ctx: Context, type: Type, inner: ConstantExpr, indices: readonly Constant[], inBounds: boolean): Constant | undefined {
  const idx0 = indices[0]!;
  const innerIndices = inner.operands.slice(1);
  const last = innerIndices[innerIndices.length - 1];
  const innerSource = inner.extra.sourceElementType;
  if (last === undefined || innerSource === undefined) return undefined;
  let combined: Constant = last;
  if (!isNullValue(idx0)) {
    // the inner GEP's last index must step through a pointer, array or vector (not a struct)
    if (innerIndices.length > 1) {
      let walked: Type | undefined = innerSource;
      for (let i = 1; i < innerIndices.length - 1 && walked !== undefined; i++) walked = indexedBy(walked, innerIndices[i]!);
      if (walked === undefined || walked.kind === 'struct') return undefined;
    }
    if (idx0.vk !== 'int' || last.vk !== 'int') return undefined;
    const t = idx0.type === last.type ? idx0.type : ctx.int(Math.max(64, idx0.type.bits, last.type.bits));
    combined = ctx.constInt(t, BigInt.asIntN(t.bits, idx0.big + last.big));
  }
  let inRangeOperand = inner.extra.inRangeOperand;
  if (inRangeOperand !== undefined && inRangeOperand === innerIndices.length && !isNullValue(idx0)) inRangeOperand = undefined;
  const flags = inBounds && (inner.extra.flags?.includes('inbounds') ?? false) ? ['inbounds'] : [];
  return makeConstantExpr(ctx, 'getelementptr', type, [inner.operands[0]!, ...innerIndices.slice(0, -1), combined, ...indices.slice(1)], {
    flags,
    sourceElementType: innerSource,
    ...(inRangeOperand !== undefined ? { inRangeOperand } : {}),
  });
}

/** The type a GEP index selects inside `t` (a struct field for a constant, else the element). */
function indexedBy(t: Type, idx: Constant): Type | undefined {
  if (t.kind === 'struct') return idx.vk === 'int' ? t.elements?.[idx.num] : undefined;
  return t.kind === 'array' || t.kind === 'vector' ? t.element : undefined;
}

/**
 * LLVM 14's index normalization for a GEP of `source` with `indices` (the first steps over the
 * pointer): an integer index past the end of an array is factored into the index before it
 * (`[2 x i32]`, 0, 5 → 2, 1). Returns the factored indices (when any index moved) and whether some
 * index is not a known in-range integer (which rules out inferring `inbounds`).
 */
function normalizeIndices(ctx: Context, source: Type, indices: readonly Constant[], inRangeOperand: number | undefined): { unknown: boolean; factored: Constant[] | undefined } {
  let unknown = indices[0]!.vk !== 'int';
  let factored: Constant[] | undefined;
  let prev: Type | undefined; // the pointer for the first step
  let cur: Type | undefined = source;
  for (let i = 1; i < indices.length; i++, prev = cur, cur = cur === undefined ? undefined : indexedBy(cur, indices[i - 1]!)) {
    const idx = indices[i]!;
    if (idx.vk !== 'int') {
      unknown = true;
      continue;
    }
    if (indices[i - 1]!.vk !== 'int') continue;
    if (inRangeOperand !== undefined && i === inRangeOperand) continue;
    if (cur === undefined || cur.kind === 'struct') continue;
    if (cur.kind !== 'array') {
      unknown = true;
      continue;
    }
    const v = idx.big;
    if (v >= 0n && (cur.length === 0 || v < BigInt(cur.length))) continue;
    if (v < 0n || prev?.kind === 'struct') {
      unknown = true;
      continue;
    }
    factored ??= [...indices];
    const n = BigInt(cur.length);
    const before = factored[i - 1] as ConstantInt;
    const width = Math.max(64, before.type.bits, idx.type.bits);
    const wide = before.type.bits === width ? before.type : ctx.int(width);
    factored[i] = ctx.constInt(idx.type, v % n);
    factored[i - 1] = ctx.constInt(wide, BigInt.asIntN(width, before.big + v / n));
  }
  return { unknown, factored };
}

/** LLVM's `isInBoundsIndices` for normalized integer indices: the first is 0, or 1 with all others 0. */
function inBoundsIndices(indices: readonly Constant[]): boolean {
  const first = indices[0]!;
  if (isNullValue(first)) return true;
  if (first.vk !== 'int' || first.big !== 1n) return false;
  return indices.every((c, i) => i === 0 || isNullValue(c));
}

const CAST_OPCODES: ReadonlySet<string> = new Set(['trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);

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

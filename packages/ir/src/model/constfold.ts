/**
 * The constant folding LLParser applies while building constants (through `ConstantExpr::get*`
 * and the `Constant*::get` factories), limited to what changes printed IR in practice:
 * aggregates of one repeated null/undef/poison become `zeroinitializer`/`undef`/`poison`, i8
 * arrays of integers become strings, identity casts and all-zero GEPs fold to their operand,
 * casts of null / undef and integer casts of integer constants fold to constants.
 *
 * Casts of casts combine as `CastInst::isEliminableCastPair` allows (`castPairOpcode`: e.g.
 * `addrspacecast` of `addrspacecast`, `inttoptr` of a 64-bit `ptrtoint`, `trunc` of `ptrtoint`).
 *
 * Opaque pointers (`ptr`) fold GEPs as LLVM 16's ConstantFold.cpp does (`opaqueGEP`): a GEP of a
 * GEP whose result element type is the outer source type is merged (indices meeting in the middle
 * are added, as an `add` expression when one is not an integer); out-of-range array indices are
 * factored into the index before them (`[4 x i32]`, 0, 9 → 2, 1; for a `[0 x T]` only an index
 * past int64 is, and dividing by zero makes both indices poison); a GEP of a global variable that
 * is not `extern_weak`, with known in-range indices, gets `inbounds` (whatever its source type:
 * LLVM 16 does not compare it with the global's value type). Vector GEPs, and GEPs in LLVM 19
 * syntax (`inrange(a, b)`, `nusw`, `nuw`), are kept as written.
 *
 * Typed pointers (`T*`, only in modules read with `pointers: 'preserve-typed'`) fold as LLVM 14's
 * ConstantFold.cpp does instead: a bitcast between different pointer types stays unless it casts
 * a pointer to an aggregate to a pointer to its first element (`getelementptr inbounds (T, T* p,
 * i32 0, i32 0...)`); an addrspacecast that changes the pointee is a bitcast then an
 * addrspacecast; a bitcast or ptrtoint of an all-zero GEP casts the GEP's base; an all-zero GEP
 * folds only with a single index; a GEP of `null` with zero indices is `null`; a GEP of a GEP is
 * merged; a GEP through a bitcast between arrays of one element type indexes the original array;
 * out-of-range array indices are factored into the index before them; a GEP of a global variable
 * whose indices are in bounds gets `inbounds`.
 */
import type { Context } from './context.js';
import type { IntegerType, PointerType, Type } from './types.js';
import { isSized } from './types.js';
import {
  ConstantArray,
  type ConstantInt,
  type PoisonValue,
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
    if (op0.vk === 'expr') {
      const folded = foldCastOfExpr(ctx, opcode as FoldedCast, type, op0);
      if (folded !== undefined) return folded;
    }
    if (opcode === 'bitcast' && isTypedPointer(type)) {
      const folded = typedBitCastToFirstElement(ctx, type, op0);
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
    if (!inRange && indices.every(isZeroOrUndef) && type === op0.type) return op0;
    return opaqueGEP(ctx, type, operands, extra);
  }
  return new ConstantExpr(opcode, type, operands, extra);
}

/** A GEP index that selects nothing: zero, or undef/poison (LLVM's `isa<UndefValue>`). */
function isZeroOrUndef(c: Constant): boolean {
  return isNullValue(c) || c.vk === 'undef' || c.vk === 'poison';
}

/** A typed pointer, or a vector of them. */
function isTypedPointer(t: Type): boolean {
  const s = t.kind === 'vector' ? t.element : t;
  return s.kind === 'pointer' && s.pointee !== undefined;
}

/** The casts `makeConstantExpr` folds (LLVM also folds floating-point casts; this package does not). */
type FoldedCast = 'trunc' | 'zext' | 'sext' | 'ptrtoint' | 'inttoptr' | 'bitcast' | 'addrspacecast';
const FOLDED_CASTS: ReadonlySet<string> = new Set<FoldedCast>(['trunc', 'zext', 'sext', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);

function scalarPointer(t: Type): PointerType | undefined {
  const s = t.kind === 'vector' ? t.element : t;
  return s.kind === 'pointer' ? s : undefined;
}

/** Bit width of an integer type or of a vector of integers (0 for anything else). */
function scalarIntBits(t: Type): number {
  const s = t.kind === 'vector' ? t.element : t;
  return s.kind === 'integer' ? s.bits : 0;
}

/**
 * `CastInst::isEliminableCastPair` as `foldConstantCastPair` calls it (the intermediate type of
 * an int → pointer → int pair counts as a 64-bit integer, no other integer pointer types are
 * known): the single cast from `src` to `dst` that replaces `first` (src → mid) followed by
 * `second` (mid → dst), or undefined when the pair stays. Only pairs of the casts this package
 * folds; with a floating-point cast first, none of them combines into anything but a no-op.
 */
function castPairOpcode(first: FoldedCast, second: FoldedCast, src: Type, mid: Type, dst: Type): FoldedCast | undefined {
  // a bitcast between a scalar and a vector only combines with another bitcast
  const scalarVector = (a: Type, b: Type): boolean => (a.kind === 'vector') !== (b.kind === 'vector');
  if (first !== second && ((first === 'bitcast' && scalarVector(src, mid)) || (second === 'bitcast' && scalarVector(mid, dst)))) return undefined;
  switch (second) {
    case 'trunc':
      if (first === 'trunc' || first === 'ptrtoint') return first;
      if (first === 'zext' || first === 'sext') {
        // ext then trunc: whichever way the total width moves (nothing when it comes back)
        if (src === dst) return 'bitcast';
        const from = scalarIntBits(src);
        const to = scalarIntBits(dst);
        return from < to ? first : from > to ? second : undefined;
      }
      return first === 'bitcast' && src.kind === 'integer' ? second : undefined;
    case 'zext':
      if (first === 'zext') return first;
      return first === 'bitcast' && src.kind === 'integer' ? second : undefined;
    case 'sext':
      if (first === 'sext') return first;
      if (first === 'zext') return 'zext'; // the sign bit of a zext is 0
      return first === 'bitcast' && src.kind === 'integer' ? second : undefined;
    case 'inttoptr':
      if (first === 'zext') return second;
      if (first === 'ptrtoint') {
        // back to a pointer in the same address space through an integer as wide as any pointer
        const a = scalarPointer(src);
        const b = scalarPointer(dst);
        return a !== undefined && b !== undefined && a.addressSpace === b.addressSpace && scalarIntBits(mid) === 64 ? 'bitcast' : undefined;
      }
      return first === 'bitcast' && src.kind === 'integer' ? second : undefined;
    case 'ptrtoint':
      if (first === 'bitcast') return second;
      if (first === 'inttoptr') {
        // an integer that fits the (64-bit) intermediate pointer, back to its own width
        const from = scalarIntBits(src);
        return from <= 64 && from === scalarIntBits(dst) ? 'bitcast' : undefined;
      }
      return undefined;
    case 'bitcast':
      if (first === 'bitcast' || first === 'inttoptr' || first === 'addrspacecast') return first;
      // trunc/zext/sext/ptrtoint then a no-op bitcast: the first cast, for a scalar integer result
      return src.kind !== 'vector' && dst.kind === 'integer' ? first : undefined;
    case 'addrspacecast':
      if (first === 'addrspacecast') {
        const a = scalarPointer(src);
        const b = scalarPointer(dst);
        if (a === undefined || b === undefined) return undefined;
        return a.addressSpace !== b.addressSpace ? 'addrspacecast' : 'bitcast';
      }
      if (first === 'bitcast') {
        // when the bitcast's source points to what the addrspacecast's result points to (always
        // with opaque pointers)
        const a = scalarPointer(src);
        const b = scalarPointer(dst);
        return a !== undefined && b !== undefined && a.pointee === b.pointee ? 'addrspacecast' : undefined;
      }
      return undefined;
  }
}

/** `GetElementPtrInst::getTypeAtIndex(T, 0)`: the first field or the element. */
function firstElementType(t: Type): Type | undefined {
  if (t.kind === 'struct') return t.elements !== undefined && t.elements.length > 0 ? t.elements[0] : undefined;
  if (t.kind === 'array' || t.kind === 'vector') return t.element;
  return undefined;
}

/**
 * `ConstantFoldCastInstruction`'s steps for a cast of a constant expression: a cast of a cast
 * combines (`castPairOpcode`); a cast other than addrspacecast of a GEP whose indices are all zero
 * (without `inrange`, not a vector) casts the GEP's base instead (`ConstantExpr::getPointerCast`).
 */
function foldCastOfExpr(ctx: Context, opcode: FoldedCast, type: Type, op0: ConstantExpr): Constant | undefined {
  if (FOLDED_CASTS.has(op0.opcode)) {
    const inner = op0.operands[0]!;
    const combined = castPairOpcode(op0.opcode as FoldedCast, opcode, inner.type, op0.type, type);
    return combined === undefined ? undefined : makeConstantExpr(ctx, combined, type, [inner]);
  }
  if (
    op0.opcode === 'getelementptr' &&
    opcode !== 'addrspacecast' &&
    op0.extra.inRangeOperand === undefined &&
    op0.extra.inRange === undefined &&
    op0.type.kind !== 'vector' &&
    op0.operands.every((o, i) => i === 0 || isNullValue(o))
  ) {
    const base = op0.operands[0]!;
    if (type.kind === 'integer') return makeConstantExpr(ctx, 'ptrtoint', type, [base]);
    const from = scalarPointer(base.type);
    const to = scalarPointer(type);
    const cast = from !== undefined && to !== undefined && from.addressSpace !== to.addressSpace ? 'addrspacecast' : 'bitcast';
    return makeConstantExpr(ctx, cast, type, [base]);
  }
  return undefined;
}

/**
 * LLVM 14's FoldBitCast for typed pointers: a pointer to an aggregate cast to a pointer to its
 * (first element's ...) first element is `getelementptr inbounds (T, T* p, i32 0, i32 0...)`.
 */
function typedBitCastToFirstElement(ctx: Context, type: Type, op0: Constant): Constant | undefined {
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
  return undefined;
}

/** LLVM 14's `ConstantFoldGetElementPtr` for typed pointers (see the file comment for what is left out). */
function typedGEP(ctx: Context, type: Type, operands: readonly Constant[], extra: ConstantExprExtra): Constant {
  const op0 = operands[0]!;
  const inBounds = extra.flags?.includes('inbounds') ?? false;
  if (op0.vk === 'poison') return ctx.poison(type);
  if (op0.vk === 'undef') return inBounds ? ctx.poison(type) : ctx.undef(type);
  const indices = operands.slice(1);
  if (indices.length === 1 && isZeroOrUndef(indices[0]!) && type === op0.type) return op0;
  if (isNullValue(op0) && indices.every(isZeroOrUndef)) return nullValue(ctx, type);
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

/**
 * LLVM 16's `ConstantFoldGetElementPtr` for opaque pointers, after the no-op, poison and undef
 * cases: a GEP of `null` with zero/undef indices is `null`; a GEP of a GEP whose result element
 * type is this GEP's source type is merged (`mergeOpaqueGEPs`); out-of-range array indices are
 * factored into the index before them; a GEP of a global variable (not `extern_weak`, of the
 * GEP's source type) with known in-range indices gets `inbounds`. GEPs written in LLVM 19 syntax
 * (`inrange(a, b)`, `nusw`, `nuw`) and vector GEPs are kept as written.
 */
function opaqueGEP(ctx: Context, type: Type, operands: readonly Constant[], extra: ConstantExprExtra): Constant {
  const source = extra.sourceElementType;
  if (source === undefined || type.kind === 'vector' || !isLLVM16GEP(extra)) return new ConstantExpr('getelementptr', type, operands, extra);
  const op0 = operands[0]!;
  const indices = operands.slice(1);
  if (indices.some((i) => i.type.kind === 'vector')) return new ConstantExpr('getelementptr', type, operands, extra);
  if (isNullValue(op0) && indices.every(isZeroOrUndef)) return nullValue(ctx, type);
  const inBounds = extra.flags?.includes('inbounds') ?? false;
  if (op0.vk === 'expr' && op0.opcode === 'getelementptr') {
    const merged = mergeOpaqueGEPs(ctx, type, op0, source, indices, inBounds);
    if (merged !== undefined) return merged;
  }
  const { unknown, factored } = normalizeIndices(ctx, source, indices, extra.inRangeOperand);
  if (factored !== undefined) return makeConstantExpr(ctx, 'getelementptr', type, [op0, ...factored], extra);
  if (!unknown && !inBounds && op0.vk === 'global' && op0.linkage !== 'extern_weak' && inBoundsIndices(indices))
    return new ConstantExpr('getelementptr', type, operands, { ...extra, flags: ['inbounds'] });
  return new ConstantExpr('getelementptr', type, operands, extra);
}

/** A GEP in the syntax LLVM 16 reads: no LLVM 19 `inrange(a, b)`, no flags but `inbounds`. */
function isLLVM16GEP(extra: ConstantExprExtra): boolean {
  return extra.inRange === undefined && (extra.flags === undefined || extra.flags.every((f) => f === 'inbounds'));
}

/**
 * LLVM 16's `foldGEPOfGEP`: when the outer GEP's source type is the inner GEP's result element
 * type, index the inner GEP's base directly. A zero first index appends the outer indices (the
 * outer `inrange` is dropped, the inner one kept). A constant integer first index is added to
 * the inner GEP's last index, when that one steps through a pointer, array or vector (not a
 * struct) and is not a vector; the sum is a new index constant (an `add` expression when the
 * last index is not an integer), and an inner `inrange` on that index is dropped. `inbounds` only
 * when both GEPs have it.
 */
function mergeOpaqueGEPs(ctx: Context, type: Type, inner: ConstantExpr, source: Type, indices: readonly Constant[], inBounds: boolean): Constant | undefined {
  const innerSource = inner.extra.sourceElementType;
  if (innerSource === undefined || !isLLVM16GEP(inner.extra)) return undefined;
  const innerIndices = inner.operands.slice(1);
  const n = innerIndices.length;
  // the type the inner GEP's last index steps through (the pointer when it has one index)
  let stepped: Type | undefined = n > 1 ? innerSource : undefined;
  for (let i = 1; i < n - 1 && stepped !== undefined; i++) stepped = indexedBy(stepped, innerIndices[i]!);
  const result = n > 1 ? (stepped === undefined ? undefined : indexedBy(stepped, innerIndices[n - 1]!)) : innerSource;
  if (result !== source) return undefined;
  const idx0 = indices[0]!;
  const flags = inBounds && (inner.extra.flags?.includes('inbounds') ?? false) ? ['inbounds'] : [];
  let inRangeOperand = inner.extra.inRangeOperand;
  let merged: Constant[];
  if (isNullValue(idx0)) merged = [...innerIndices, ...indices.slice(1)];
  else {
    const last = innerIndices[n - 1]!;
    if (stepped?.kind === 'struct' || idx0.vk !== 'int' || last.type.kind === 'vector') return undefined;
    merged = [...innerIndices.slice(0, -1), addIndices(ctx, idx0, last), ...indices.slice(1)];
    if (inRangeOperand === n) inRangeOperand = undefined;
  }
  return makeConstantExpr(ctx, 'getelementptr', type, [inner.operands[0]!, ...merged], {
    flags,
    sourceElementType: innerSource,
    ...(inRangeOperand !== undefined ? { inRangeOperand } : {}),
  });
}

/**
 * The sum of an outer GEP's first index and an inner GEP's last index: both sign-extended to the
 * wider of their types and i64 first when their types differ.
 */
function addIndices(ctx: Context, idx0: ConstantInt, last: Constant): Constant {
  if (last.type === idx0.type) return foldAdd(ctx, idx0, last);
  const wide = ctx.int(Math.max(64, idx0.type.bits, scalarIntBits(last.type)));
  const extend = (c: Constant): Constant => (c.type === wide ? c : makeConstantExpr(ctx, 'sext', wide, [c]));
  return foldAdd(ctx, extend(idx0), extend(last));
}

/**
 * `ConstantExpr::get(Add, a, b)` on integer scalars as LLVM 16 folds it: `x + 0` is `x`, poison
 * and undef propagate, integers add (wrapping), a constant integer moves to the right, and
 * `(x + c1) + c2` becomes `x + (c1 + c2)` when `c1 + c2` folds to something other than an add.
 */
function foldAdd(ctx: Context, a: Constant, b: Constant): Constant {
  if (isNullValue(a)) return b;
  if (isNullValue(b)) return a;
  if (a.vk === 'poison' || b.vk === 'poison') return ctx.poison(a.type);
  if (a.vk === 'undef' || b.vk === 'undef') return ctx.undef(a.type);
  if (a.vk === 'int' && b.vk === 'int') return ctx.constInt(a.type, a.big + b.big);
  if (a.vk === 'int') return foldAdd(ctx, b, a);
  if (a.vk === 'expr' && a.opcode === 'add') {
    const sum = foldAdd(ctx, a.operands[1]!, b);
    if (sum.vk !== 'expr' || sum.opcode !== 'add') return foldAdd(ctx, a.operands[0]!, sum);
  }
  return new ConstantExpr('add', a.type, [a, b]);
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
    // in range: fits an int64, not negative, below the length (any index of a `[0 x T]`)
    if (v >= 0n && v <= INT64_MAX && (cur.length === 0 || v < BigInt(cur.length))) continue;
    if (v < 0n || prev?.kind === 'struct') {
      unknown = true;
      continue;
    }
    factored ??= [...indices];
    const n = BigInt(cur.length);
    const before = factored[i - 1] as ConstantInt | PoisonValue;
    const beforeType = before.type as IntegerType;
    const width = Math.max(64, beforeType.bits, idx.type.bits);
    const wide = beforeType.bits === width ? beforeType : ctx.int(width);
    // only an index past int64 reaches here for a `[0 x T]`: srem/sdiv by 0 are poison, and so is
    // the sum with a poison index
    factored[i] = n === 0n ? ctx.poison(idx.type) : ctx.constInt(idx.type, v % n);
    factored[i - 1] = n === 0n || before.vk === 'poison' ? ctx.poison(wide) : ctx.constInt(wide, BigInt.asIntN(width, before.big + v / n));
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

const INT64_MAX = (1n << 63n) - 1n;

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

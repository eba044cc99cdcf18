/**
 * The operand type rules LLVM's IR reader enforces while it builds instructions and constant
 * expressions (`CastInst::castIsValid`, `SelectInst::areInvalidOperands`, and the element
 * checks of the vector instructions). The parser reports a broken rule at the operand, with
 * LLVM's message; nothing here throws.
 */
import type { Type, VectorType } from '../model/types.js';
import type { ConstantExprOpcode, Value } from '../model/values.js';

/** The cast opcodes (`trunc` ... `addrspacecast`), shared by instructions and constant expressions. */
export type CastOpcode = Extract<ConstantExprOpcode, 'trunc' | 'zext' | 'sext' | 'fptrunc' | 'fpext' | 'fptoui' | 'fptosi' | 'uitofp' | 'sitofp' | 'ptrtoint' | 'inttoptr' | 'bitcast' | 'addrspacecast'>;

const scalar = (t: Type): Type => (t.kind === 'vector' ? t.element : t);
export const isIntOrIntVector = (t: Type): boolean => scalar(t).kind === 'integer';
export const isFPOrFPVector = (t: Type): boolean => scalar(t).kind === 'float';
export const isPtrOrPtrVector = (t: Type): boolean => scalar(t).kind === 'pointer';

/** Bits of an integer or floating-point scalar; 0 for anything else (LLVM's `getScalarSizeInBits`). */
function scalarBits(t: Type): number {
  const s = scalar(t);
  return s.kind === 'integer' || s.kind === 'float' ? s.bits : 0;
}

/**
 * LLVM's `getPrimitiveSizeInBits` as text: scalars, `x86_mmx`, `x86_amx` and vectors of them
 * (`vscale x N` for scalable vectors, which differ from fixed ones of the same bits); `0` otherwise.
 */
function primitiveSize(t: Type): string {
  if (t.kind === 'vector') {
    const bits = t.length * Number(primitiveSize(t.element));
    return t.scalable ? `vscale x ${bits}` : String(bits);
  }
  if (t.kind === 'x86_mmx') return '64';
  if (t.kind === 'x86_amx') return '8192';
  return String(scalarBits(t));
}

/** `<n x T>` element count (scalable vectors differ from fixed ones of the same n); `''` for scalars. */
function elementCount(t: Type): string {
  return t.kind === 'vector' ? `${t.scalable ? 'vscale x ' : ''}${t.length}` : '';
}

/** Whether `op` may cast a value of type `from` to `to` (LLVM 16 `CastInst::castIsValid`). */
export function castIsValid(op: CastOpcode, from: Type, to: Type): boolean {
  for (const t of [from, to]) if (t.kind === 'function' || t.kind === 'void' || t.kind === 'struct' || t.kind === 'array') return false;
  const sameCount = elementCount(from) === elementCount(to);
  const fromBits = scalarBits(from);
  const toBits = scalarBits(to);
  switch (op) {
    case 'trunc':
      return isIntOrIntVector(from) && isIntOrIntVector(to) && sameCount && fromBits > toBits;
    case 'zext':
    case 'sext':
      return isIntOrIntVector(from) && isIntOrIntVector(to) && sameCount && fromBits < toBits;
    case 'fptrunc':
      return isFPOrFPVector(from) && isFPOrFPVector(to) && sameCount && fromBits > toBits;
    case 'fpext':
      return isFPOrFPVector(from) && isFPOrFPVector(to) && sameCount && fromBits < toBits;
    case 'uitofp':
    case 'sitofp':
      return isIntOrIntVector(from) && isFPOrFPVector(to) && sameCount;
    case 'fptoui':
    case 'fptosi':
      return isFPOrFPVector(from) && isIntOrIntVector(to) && sameCount;
    case 'ptrtoint':
      return sameCount && isPtrOrPtrVector(from) && isIntOrIntVector(to);
    case 'inttoptr':
      return sameCount && isIntOrIntVector(from) && isPtrOrPtrVector(to);
    case 'bitcast': {
      const a = scalar(from);
      const b = scalar(to);
      if ((a.kind === 'pointer') !== (b.kind === 'pointer')) return false;
      if (a.kind !== 'pointer' || b.kind !== 'pointer') return primitiveSize(from) === primitiveSize(to);
      if (a.addressSpace !== b.addressSpace) return false;
      if (from.kind === 'vector' && to.kind === 'vector') return sameCount;
      if (from.kind === 'vector') return elementCount(from) === '1';
      if (to.kind === 'vector') return elementCount(to) === '1';
      return true;
    }
    case 'addrspacecast': {
      const a = scalar(from);
      const b = scalar(to);
      if (a.kind !== 'pointer' || b.kind !== 'pointer') return false;
      return a.addressSpace !== b.addressSpace && sameCount;
    }
  }
}

/** Why `select cond, a, b` is invalid (LLVM 16 `SelectInst::areInvalidOperands`), or undefined. */
export function selectOperandsProblem(cond: Type, a: Type, b: Type): string | undefined {
  if (a !== b) return 'both values to select must have same type';
  if (a.kind === 'token') return 'select values cannot have token type';
  if (cond.kind === 'vector') {
    if (cond.element.kind !== 'integer' || cond.element.bits !== 1) return 'vector select condition element type must be i1';
    if (a.kind !== 'vector') return 'selected values for vector select must be vectors';
    if (elementCount(a) !== elementCount(cond)) return 'vector select requires selected vectors to have the same vector length as select condition';
  } else if (cond.kind !== 'integer' || cond.bits !== 1) {
    return 'select condition must be i1 or <n x i1>';
  }
  return undefined;
}

/** `extractelement`: a vector and an integer index. */
export function extractElementValid(vector: Type, index: Type): vector is VectorType {
  return vector.kind === 'vector' && index.kind === 'integer';
}

/** `insertelement`: a vector, a value of its element type, an integer index. */
export function insertElementValid(vector: Type, element: Type, index: Type): boolean {
  return vector.kind === 'vector' && vector.element === element && index.kind === 'integer';
}

/**
 * `shufflevector`: two vectors of one type and a mask that is a constant vector of i32 (undef,
 * poison, zeroinitializer, or integer and undef/poison lanes) selecting from the two inputs,
 * scalable exactly when the inputs are (LLVM's `ShuffleVectorInst::isValidOperands`).
 */
export function shuffleVectorValid(a: Type, b: Type, mask: Value): boolean {
  const m = mask.type;
  if (a.kind !== 'vector' || a !== b || m.kind !== 'vector' || m.element.kind !== 'integer' || m.element.bits !== 32 || m.scalable !== a.scalable) return false;
  const limit = BigInt(a.length * 2);
  switch (mask.vk) {
    case 'zero':
    case 'undef':
    case 'poison':
      return true;
    case 'vector':
      return mask.elements.every((e) => (e.vk === 'int' ? BigInt.asUintN(32, e.big) < limit : e.vk === 'undef' || e.vk === 'poison'));
    default:
      return false;
  }
}

/** Why `icmp`/`fcmp` cannot compare values of type `t` (LLVM words it differently for constant expressions). */
export function compareOperandsProblem(op: 'icmp' | 'fcmp', t: Type, inConstant: boolean): string | undefined {
  if (op === 'fcmp') return isFPOrFPVector(t) ? undefined : 'fcmp requires floating point operands';
  if (isIntOrIntVector(t) || isPtrOrPtrVector(t)) return undefined;
  return inConstant ? 'icmp requires pointer or integer operands' : 'icmp requires integer operands';
}

/**
 * The attribute checks of LLVM 16's verifier (`verifyFunctionAttrs` and `verifyParameterAttrs`)
 * for a function's or a call's return and parameter attributes: attributes that exclude each
 * other, attributes on types they do not apply to, `immarg`/`elementtype` outside intrinsics, and
 * the rules for `nest`, `returned`, `sret`, `swift*` and `inalloca` positions. Function attributes
 * are not checked here.
 *
 * Which attribute applies to which type was read off LLVM 16's `opt` (every parameter and return
 * attribute on integers, floating point, pointers, vectors and aggregates), as was each message.
 */
import type { Attribute, AttributeList, AttributeSet } from './attributes.js';
import { formatAttribute, formatType } from './printer.js';
import type { FunctionType, Type } from './types.js';

/** One bit per attribute keyword the rules below look at (a set is read once, into a mask). */
const BIT = {
  byval: 1 << 0, inalloca: 1 << 1, preallocated: 1 << 2, sret: 1 << 3, inreg: 1 << 4, nest: 1 << 5, byref: 1 << 6,
  readonly: 1 << 7, returned: 1 << 8, zeroext: 1 << 9, signext: 1 << 10, readnone: 1 << 11, writeonly: 1 << 12,
  noinline: 1 << 13, alwaysinline: 1 << 14, immarg: 1 << 15, elementtype: 1 << 16, swiftself: 1 << 17,
  swiftasync: 1 << 18, swifterror: 1 << 19,
} as const;
type Keyword = keyof typeof BIT;

/** Class bits: which types an attribute applies to, where LLVM 16 restricts it. */
const INTEGERS_ONLY = 1 << 24;
/** Pointers, not vectors of pointers. */
const POINTERS_ONLY = 1 << 25;
const POINTERS_OR_POINTER_VECTORS = 1 << 26;
const NON_VOID = 1 << 27;
const CLASS_OF = new Map<string, number>([
  ...['allocalign', 'signext', 'zeroext'].map((k) => [k, INTEGERS_ONLY] as const),
  ...[
    'allocptr', 'byref', 'byval', 'dereferenceable', 'dereferenceable_or_null', 'inalloca', 'nest', 'noalias', 'nocapture', 'nonnull',
    'preallocated', 'readnone', 'readonly', 'sret', 'swifterror',
  ].map((k) => [k, POINTERS_ONLY] as const),
  ['align', POINTERS_OR_POINTER_VECTORS],
  ['noundef', NON_VOID],
]);
/** Keyword -> its rule bit and class bit. */
const BIT_OF = new Map<string, number>([...Object.keys(BIT), ...CLASS_OF.keys()].map((k) => [k, (BIT[k as Keyword] ?? 0) | (CLASS_OF.get(k) ?? 0)]));

/** LLVM's `AttributeFuncs::typeIncompatible(ty)` (LLVM 16): the class bits of attributes that do not apply to `ty`. */
function classesIncompatibleWith(ty: Type): number {
  switch (ty.kind) {
    case 'integer':
      return POINTERS_ONLY | POINTERS_OR_POINTER_VECTORS;
    case 'pointer':
      return INTEGERS_ONLY;
    case 'vector':
      return INTEGERS_ONLY | POINTERS_ONLY | (ty.element.kind === 'pointer' ? 0 : POINTERS_OR_POINTER_VECTORS);
    case 'void':
      return INTEGERS_ONLY | POINTERS_ONLY | POINTERS_OR_POINTER_VECTORS | NON_VOID;
    default:
      return INTEGERS_ONLY | POINTERS_ONLY | POINTERS_OR_POINTER_VECTORS;
  }
}

/** The keywords of `set` the rules look at, as a mask of {@link BIT}s. */
function attributeMask(set: AttributeSet): number {
  let mask = 0;
  const attrs = set.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.kind !== 'string') mask |= BIT_OF.get(a.key) ?? 0;
  }
  return mask;
}

const has = (mask: number, key: Keyword): boolean => (mask & BIT[key]) !== 0;

/** Keywords that take part in an exclusion rule, and in a position rule: most sets have none. */
const EXCLUSIVE = BIT.byval | BIT.inalloca | BIT.preallocated | BIT.sret | BIT.inreg | BIT.nest | BIT.byref | BIT.readonly | BIT.returned | BIT.zeroext | BIT.signext | BIT.readnone | BIT.writeonly | BIT.noinline | BIT.alwaysinline;
const POSITIONAL = BIT.nest | BIT.returned | BIT.sret | BIT.swiftself | BIT.swiftasync | BIT.swifterror | BIT.inalloca;

/** Pairs LLVM refuses together, in the order it checks them. */
const EXCLUSIVE_PAIRS: readonly [Keyword, Keyword][] = [
  ['inalloca', 'readonly'],
  ['sret', 'returned'],
  ['zeroext', 'signext'],
  ['readnone', 'readonly'],
  ['readnone', 'writeonly'],
  ['readonly', 'writeonly'],
  ['noinline', 'alwaysinline'],
];

/** The message of the first attribute combination of a set that LLVM refuses, if any. */
function exclusionProblem(mask: number): string | undefined {
  if ((mask & EXCLUSIVE) === 0) return undefined;
  const count =
    Number(has(mask, 'byval')) +
    Number(has(mask, 'inalloca')) +
    Number(has(mask, 'preallocated')) +
    Number(has(mask, 'sret') || has(mask, 'inreg')) +
    Number(has(mask, 'nest')) +
    Number(has(mask, 'byref'));
  if (count > 1) return "Attributes 'byval', 'inalloca', 'preallocated', 'inreg', 'nest', 'byref', and 'sret' are incompatible!";
  for (const [a, b] of EXCLUSIVE_PAIRS) if (has(mask, a) && has(mask, b)) return `Attributes '${a} and ${b}' are incompatible!`;
  return undefined;
}

/** `verifyParameterAttrs`: at most one message (each of its checks ends it). */
function parameterAttributeProblem(set: AttributeSet, mask: number, ty: Type): string | undefined {
  if ((mask & BIT.immarg) !== 0 && set.size !== 1) return "Attribute 'immarg' is incompatible with other attributes";
  const excluded = exclusionProblem(mask);
  if (excluded !== undefined) return excluded;
  const incompatible = classesIncompatibleWith(ty);
  if ((mask & incompatible) === 0) return undefined;
  // the first one, in the set's order
  const attrs = set.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i]!;
    if (a.kind !== 'string' && ((CLASS_OF.get(a.key) ?? 0) & incompatible) !== 0) return `Attribute '${attributeText(a)}' applied to incompatible type!`;
  }
  return undefined;
}

/** `Attribute::getAsString()`, as the verifier quotes it. */
function attributeText(a: Attribute): string {
  return formatAttribute(a, (t) => formatType(t));
}

/** LLVM's `Type::canLosslesslyBitCastTo` (LLVM 16), for `returned`. */
function losslesslyBitCastable(from: Type, to: Type): boolean {
  if (from === to) return true;
  if (from.kind === 'vector' && to.kind === 'vector') return vectorBits(from) !== undefined && vectorBits(from) === vectorBits(to);
  if (from.kind === 'pointer' && to.kind === 'pointer') return from.addressSpace === to.addressSpace;
  return false;
}

function vectorBits(t: Type): number | undefined {
  if (t.kind !== 'vector' || t.scalable) return undefined;
  const e = t.element;
  const bits = e.kind === 'integer' ? e.bits : e.kind === 'float' ? FLOAT_BITS[e.fp] : undefined;
  return bits === undefined ? undefined : bits * t.length;
}

const FLOAT_BITS: Record<string, number> = { half: 16, bfloat: 16, float: 32, double: 64, x86_fp80: 80, fp128: 128, ppc_fp128: 128 };

/**
 * `verifyFunctionAttrs` without the function-attribute part: the messages LLVM 16's verifier
 * writes for the return and parameter attributes of a function (or of a call, with the call's
 * function type), in its order. Several parameters can each add a message; a failed position
 * rule (`immarg`, `elementtype`, `nest`, `returned`, `sret`, `swift*`, `inalloca`) ends the list.
 */
export function attributeListProblems(fnType: FunctionType, attrs: AttributeList, isIntrinsic: boolean, isInlineAsm: boolean): string[] {
  const problems: string[] = [];
  if (!attrs.ret.isEmpty) {
    const ret = parameterAttributeProblem(attrs.ret, attributeMask(attrs.ret), fnType.returnType);
    if (ret !== undefined) problems.push(ret);
  }
  let seen = 0;
  const params = fnType.params;
  const count = Math.min(params.length, attrs.params.length);
  for (let i = 0; i < count; i++) {
    const set = attrs.params[i]!;
    if (set.isEmpty) continue;
    const ty = params[i]!;
    const mask = attributeMask(set);
    if (!isIntrinsic && (mask & (BIT.immarg | BIT.elementtype)) !== 0) {
      if (has(mask, 'immarg')) return [...problems, 'immarg attribute only applies to intrinsics'];
      if (!isInlineAsm) return [...problems, "Attribute 'elementtype' can only be applied to intrinsics and inline asm."];
    }
    const problem = parameterAttributeProblem(set, mask, ty);
    if (problem !== undefined) problems.push(problem);
    if ((mask & POSITIONAL) === 0) continue;
    const positional = positionProblem(mask, i, params.length, ty, fnType.returnType, seen);
    if (typeof positional === 'string') return [...problems, positional];
    seen = positional;
  }
  return problems;
}

/**
 * The per-parameter position rules of `verifyFunctionAttrs`, in its order: a message, or the
 * keywords seen so far (`seen`, a mask, with this parameter's added).
 */
function positionProblem(mask: number, index: number, count: number, ty: Type, returnType: Type, seen: number): string | number {
  if (has(mask, 'nest') && has(seen, 'nest')) return 'More than one parameter has attribute nest!';
  if (has(mask, 'returned')) {
    if (has(seen, 'returned')) return 'More than one parameter has attribute returned!';
    if (!losslesslyBitCastable(ty, returnType)) return "Incompatible argument and return types for 'returned' attribute";
  }
  if (has(mask, 'sret')) {
    if (has(seen, 'sret')) return "Cannot have multiple 'sret' parameters!";
    if (index !== 0 && index !== 1) return "Attribute 'sret' is not on first or second parameter!";
  }
  for (const swift of ['swiftself', 'swiftasync', 'swifterror'] as const) {
    if (has(mask, swift) && has(seen, swift)) return `Cannot have multiple '${swift}' parameters!`;
  }
  if (has(mask, 'inalloca') && index !== count - 1) return "inalloca isn't on the last parameter!";
  return seen | mask;
}

/**
 * The attribute checks of LLVM 16's verifier (`verifyFunctionAttrs` and `verifyParameterAttrs`)
 * for a function's or a call's return and parameter attributes: attributes that exclude each
 * other, attributes on types they do not apply to, `immarg`/`elementtype` outside intrinsics, and
 * the rules for `nest`, `returned`, `sret`, `swift*` and `inalloca` positions; then the function
 * attributes: inlining and `optnone` combinations, `jumptable`, `allocsize`, `allockind`,
 * `vscale_range` and the string attributes whose values LLVM 16 checks.
 *
 * Which attribute applies to which type was read off LLVM 16's `opt` (every parameter and return
 * attribute on integers, floating point, pointers, vectors and aggregates), as was each message.
 */
import { ALLOC_KIND_FLAGS, type Attribute, type AttributeList, type AttributeSet } from '../model/attributes.js';
import { formatAttribute, formatType } from '../printer/printer.js';
import type { FunctionType, Type } from '../model/types.js';

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

/** A message of LLVM's verifier, and whether it names the function or call after it. */
export interface AttributeProblem {
  readonly message: string;
  /** False for the `allockind` messages, which LLVM writes without a value. */
  readonly namesValue: boolean;
}

const named = (message: string): AttributeProblem => ({ message, namesValue: true });

/** What the attribute rules need to know of the function or call an attribute list belongs to. */
export interface AttributeListSite {
  readonly isIntrinsic: boolean;
  readonly isInlineAsm: boolean;
  /** The function is `unnamed_addr` (false for a call, as LLVM 16 reads it). */
  readonly unnamedAddr: boolean;
  /** Apply the function-attribute rules (only once every `#N` group has been read). */
  readonly functionAttributes: boolean;
}

/**
 * `verifyFunctionAttrs`: the messages LLVM 16's verifier writes for the attributes of a function
 * (or of a call, with the call's function type), in its order. Several parameters can each add a
 * message; a failed position rule (`immarg`, `elementtype`, `nest`, `returned`, `sret`, `swift*`,
 * `inalloca`) ends the list before the function attributes are looked at.
 */
export function attributeListProblems(fnType: FunctionType, attrs: AttributeList, where: AttributeListSite): AttributeProblem[] {
  const { isIntrinsic, isInlineAsm } = where;
  const problems: AttributeProblem[] = [];
  if (!attrs.ret.isEmpty) {
    const ret = parameterAttributeProblem(attrs.ret, attributeMask(attrs.ret), fnType.returnType);
    if (ret !== undefined) problems.push(named(ret));
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
      if (has(mask, 'immarg')) return [...problems, named('immarg attribute only applies to intrinsics')];
      if (!isInlineAsm) return [...problems, named("Attribute 'elementtype' can only be applied to intrinsics and inline asm.")];
    }
    const problem = parameterAttributeProblem(set, mask, ty);
    if (problem !== undefined) problems.push(named(problem));
    if ((mask & POSITIONAL) === 0) continue;
    const positional = positionProblem(mask, i, params.length, ty, fnType.returnType, seen);
    if (typeof positional === 'string') return [...problems, named(positional)];
    seen = positional;
  }
  if (where.functionAttributes && functionAttributeRulesApply(attrs.fn)) functionAttributeProblems(attrs.fn, fnType, where.unnamedAddr, problems);
  return problems;
}

/**
 * Whether some function-attribute rule looks at `set` (hardly any set: it needs an inlining or
 * `optnone` keyword, `jumptable`, `allocsize`, `allockind`, `vscale_range`, `align` or a checked
 * string attribute). Cached per set, so ask only once the set is complete (after the parse).
 */
export function functionAttributeRulesApply(set: AttributeSet): boolean {
  return !set.isEmpty && functionRuleMask(set) !== 0;
}

/** The function-attribute messages for `set` on a function or call of type `fnType`. */
export function functionAttributeListProblems(set: AttributeSet, fnType: FunctionType, unnamedAddr: boolean): AttributeProblem[] {
  const problems: AttributeProblem[] = [];
  if (functionAttributeRulesApply(set)) functionAttributeProblems(set, fnType, unnamedAddr, problems);
  return problems;
}

/** Function attributes some rule looks at; `*_STRING` bits stand for string attribute keys. */
const FN_BIT = {
  noinline: 1 << 0, alwaysinline: 1 << 1, optnone: 1 << 2, optsize: 1 << 3, minsize: 1 << 4, jumptable: 1 << 5,
  allocsize: 1 << 6, allockind: 1 << 7, vscale_range: 1 << 8, align: 1 << 10,
} as const;
const STRING_RULE_KEYS = ['frame-pointer', 'patchable-function-prefix', 'patchable-function-entry', 'warn-stack-size'];
const STRING_RULE = 1 << 9;

const fnRuleMasks = new WeakMap<AttributeSet, number>();

/** Which of the function rules can apply to `set` (0 for nearly every set), cached per set. */
function functionRuleMask(set: AttributeSet): number {
  let mask = fnRuleMasks.get(set);
  if (mask === undefined) {
    mask = 0;
    for (const a of set.attributes) {
      if (a.kind === 'string') mask |= STRING_RULE_KEYS.includes(a.key) ? STRING_RULE : 0;
      else mask |= FN_BIT[a.key as keyof typeof FN_BIT] ?? 0;
    }
    fnRuleMasks.set(set, mask);
  }
  return mask;
}

/**
 * The function-attribute half of `verifyFunctionAttrs` (LLVM 16), appended to `problems`. The
 * inlining, `optnone`, `jumptable` and `allocsize` rules end it at their first failure; the others
 * each add a message and go on.
 */
function functionAttributeProblems(fn: AttributeSet, fnType: FunctionType, unnamedAddr: boolean, problems: AttributeProblem[]): void {
  const mask = functionRuleMask(fn);
  const on = (key: keyof typeof FN_BIT): boolean => (mask & FN_BIT[key]) !== 0;
  const stop = (message: string): void => void problems.push(named(message));
  // a function's `align` is its alignment, so only a call's set can still hold one
  if (on('align')) return stop(`Attribute '${attributeText(fn.get('align')!)}' does not apply to functions!`);
  if (on('noinline') && on('alwaysinline')) return stop("Attributes 'noinline and alwaysinline' are incompatible!");
  if (on('optnone')) {
    if (!on('noinline')) return stop("Attribute 'optnone' requires 'noinline'!");
    if (on('optsize')) return stop("Attributes 'optsize and optnone' are incompatible!");
    if (on('minsize')) return stop("Attributes 'minsize and optnone' are incompatible!");
  }
  if (on('jumptable') && !unnamedAddr) return stop("Attribute 'jumptable' requires 'unnamed_addr'");
  if (on('allocsize')) {
    const [elementSize, count] = pairValue(fn.get('allocsize')!);
    for (const [what, index] of [['element size', elementSize], ['number of elements', count]] as const) {
      if (index === undefined) continue;
      if (index >= fnType.params.length) return stop(`'allocsize' ${what} argument is out of bounds`);
      if (fnType.params[index]!.kind !== 'integer') return stop(`'allocsize' ${what} argument must refer to an integer parameter`);
    }
  }
  if (on('allockind')) {
    const kind = intValue(fn.get('allockind')!);
    const action = kind & ALLOC_ACTIONS;
    if (action !== ALLOC && action !== REALLOC && action !== FREE) problems.push({ message: "'allockind()' requires exactly one of alloc, realloc, and free", namesValue: false });
    if (action === FREE && (kind & ALLOC_MODIFIERS) !== 0) problems.push({ message: '\'allockind("free")\' doesn\'t allow uninitialized, zeroed, or aligned modifiers.', namesValue: false });
    if ((kind & (UNINITIALIZED | ZEROED)) === (UNINITIALIZED | ZEROED)) problems.push({ message: "'allockind()' can't be both zeroed and uninitialized", namesValue: false });
  }
  if (on('vscale_range')) {
    const [min, max] = pairValue(fn.get('vscale_range')!);
    // a maximum of 0 means unbounded
    if (min === 0) problems.push(named("'vscale_range' minimum must be greater than 0"));
    if (max !== undefined && max !== 0 && min > max) problems.push(named("'vscale_range' minimum cannot be greater than maximum"));
  }
  if ((mask & STRING_RULE) === 0) return;
  const framePointer = fn.getString('frame-pointer');
  if (framePointer !== undefined && framePointer !== 'all' && framePointer !== 'non-leaf' && framePointer !== 'none') {
    problems.push(named(`invalid value for 'frame-pointer' attribute: ${framePointer}`));
  }
  for (const key of ['patchable-function-prefix', 'patchable-function-entry', 'warn-stack-size']) {
    const value = fn.getString(key);
    if (value !== undefined && !isUnsigned32(value)) problems.push(named(`"${key}" takes an unsigned integer: ${value}`));
  }
}

/** `allockind` bits, as the parser packs them. */
const allocKindBit = (name: (typeof ALLOC_KIND_FLAGS)[number]): number => 1 << ALLOC_KIND_FLAGS.indexOf(name);
const ALLOC = allocKindBit('alloc');
const REALLOC = allocKindBit('realloc');
const FREE = allocKindBit('free');
const UNINITIALIZED = allocKindBit('uninitialized');
const ZEROED = allocKindBit('zeroed');
const ALIGNED = allocKindBit('aligned');
const ALLOC_ACTIONS = ALLOC | REALLOC | FREE;
const ALLOC_MODIFIERS = UNINITIALIZED | ZEROED | ALIGNED;

function pairValue(a: Attribute): readonly [number, number | undefined] {
  return a.kind === 'int' && typeof a.value !== 'number' ? a.value : [0, undefined];
}
function intValue(a: Attribute): number {
  return a.kind === 'int' && typeof a.value === 'number' ? a.value : 0;
}

/** `StringRef::getAsInteger(10, unsigned&)` succeeds: decimal digits only, at most 2^32 - 1. */
function isUnsigned32(text: string): boolean {
  return /^[0-9]+$/.test(text) && Number(text) <= 0xffffffff;
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

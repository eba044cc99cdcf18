/**
 * Attributes, attribute sets and attribute lists with LLVM 16's canonical order: enum attributes
 * by their `Attribute::AttrKind` value (from LLVM 16's generated Attributes.inc), then string
 * attributes sorted by key and value. Attribute sets are immutable; identical sets print with the
 * same `#N` group number.
 */
import type { Type } from './types.js';

/** Enum, type and integer attribute keywords in LLVM 16 `AttrKind` order (the sort order). */
export const ATTRIBUTE_KIND_ORDER: readonly string[] = [
  'allocalign', 'allocptr', 'alwaysinline', 'builtin', 'cold', 'convergent',
  'disable_sanitizer_instrumentation', 'fn_ret_thunk_extern', 'hot', 'immarg', 'inreg', 'inlinehint',
  'jumptable', 'minsize', 'mustprogress', 'naked', 'nest', 'noalias', 'nobuiltin', 'nocallback',
  'nocapture', 'nocf_check', 'noduplicate', 'nofree', 'noimplicitfloat', 'noinline', 'nomerge',
  'noprofile', 'norecurse', 'noredzone', 'noreturn', 'nosanitize_bounds', 'nosanitize_coverage',
  'nosync', 'noundef', 'nounwind', 'nonlazybind', 'nonnull', 'null_pointer_is_valid', 'optforfuzzing',
  'optsize', 'optnone', 'presplitcoroutine', 'readnone', 'readonly', 'returned', 'returns_twice',
  'signext', 'safestack', 'sanitize_address', 'sanitize_hwaddress', 'sanitize_memtag',
  'sanitize_memory', 'sanitize_thread', 'shadowcallstack', 'skipprofile', 'speculatable',
  'speculative_load_hardening', 'ssp', 'sspreq', 'sspstrong', 'strictfp', 'swiftasync', 'swifterror',
  'swiftself', 'willreturn', 'writeonly', 'zeroext',
  // type attributes
  'byref', 'byval', 'elementtype', 'inalloca', 'preallocated', 'sret',
  // integer attributes
  'align', 'allockind', 'allocsize', 'dereferenceable', 'dereferenceable_or_null', 'memory',
  'alignstack', 'uwtable', 'vscale_range',
];

/** Keywords newer than LLVM 16 that we accept and order after LLVM 16's, in their upstream order. */
const LATER_ATTRIBUTES: readonly string[] = [
  'coro_only_destroy_when_complete', 'dead_on_unwind', 'hybrid_patchable', 'no_sanitize_address',
  'no_sanitize_hwaddress', 'nofpclass', 'optdebug', 'range', 'initializes', 'sanitize_numerical_stability',
  'sanitize_realtime', 'sanitize_realtime_blocking', 'writable', 'captures', 'dead_on_return',
  'sanitize_alloc_token', 'sanitize_type', 'nocreateundeforpoison',
];

const KIND_RANK = new Map<string, number>([...ATTRIBUTE_KIND_ORDER, ...LATER_ATTRIBUTES].map((k, i) => [k, i]));

export const TYPE_ATTRIBUTES = new Set(['byref', 'byval', 'elementtype', 'inalloca', 'preallocated', 'sret']);
export const INT_ATTRIBUTES = new Set([
  'align', 'allockind', 'allocsize', 'dereferenceable', 'dereferenceable_or_null', 'memory', 'alignstack',
  'uwtable', 'vscale_range', 'nofpclass',
]);

const FN = 1;
const PARAM = 2;
const RET = 4;
/**
 * Where LLVM 16 accepts each of its attribute keywords (Attributes.td's FnAttr, ParamAttr,
 * RetAttr). `readnone`/`readonly`/`writeonly` on functions are upgraded to `memory(...)` before
 * this applies. Keywords newer than LLVM 16 are not listed and not checked.
 */
const POSITIONS = new Map<string, number>([
  ...['allocalign', 'allocptr', 'immarg', 'nest', 'nocapture', 'returned', 'swiftasync', 'swifterror', 'swiftself', 'byref', 'byval', 'elementtype', 'inalloca', 'sret'].map((k) => [k, PARAM] as const),
  ...['alwaysinline', 'cold', 'convergent', 'disable_sanitizer_instrumentation', 'fn_ret_thunk_extern', 'hot', 'inlinehint', 'jumptable', 'minsize',
    'mustprogress', 'naked', 'nobuiltin', 'nocallback', 'nocf_check', 'noduplicate', 'noimplicitfloat', 'noinline', 'nomerge', 'noprofile', 'norecurse',
    'noredzone', 'noreturn', 'nosanitize_bounds', 'nosanitize_coverage', 'nosync', 'nounwind', 'nonlazybind', 'null_pointer_is_valid', 'optforfuzzing',
    'optsize', 'optnone', 'presplitcoroutine', 'returns_twice', 'safestack', 'sanitize_address', 'sanitize_hwaddress', 'sanitize_memtag', 'sanitize_memory',
    'sanitize_thread', 'shadowcallstack', 'skipprofile', 'speculatable', 'speculative_load_hardening', 'ssp', 'sspreq', 'sspstrong', 'strictfp', 'willreturn',
    'allockind', 'allocsize', 'memory', 'uwtable', 'vscale_range', 'builtin'].map((k) => [k, FN] as const),
  ...['inreg', 'noalias', 'noundef', 'nonnull', 'signext', 'zeroext', 'dereferenceable', 'dereferenceable_or_null'].map((k) => [k, PARAM | RET] as const),
  ...['nofree', 'readnone', 'readonly', 'writeonly', 'preallocated', 'alignstack'].map((k) => [k, FN | PARAM] as const),
  // on a function, `align` is its alignment, which LLVM reads in the attribute position
  ['align', FN | PARAM | RET],
]);

export type AttributePosition = 'function' | 'parameter' | 'return value';

/** Whether LLVM 16 accepts `keyword` on a function (or call site), a parameter or a return value; true for keywords it does not know. */
export function attributeAppliesTo(keyword: string, position: AttributePosition): boolean {
  const where = POSITIONS.get(keyword);
  if (where === undefined) return true;
  return (where & (position === 'function' ? FN : position === 'parameter' ? PARAM : RET)) !== 0;
}

/** Whether `keyword` is an attribute keyword this library knows (enum, integer or type). */
export function isAttributeKeyword(keyword: string): boolean {
  return KIND_RANK.has(keyword);
}

/**
 * One attribute. `value` depends on the kind:
 * - enum attributes (`nounwind`): undefined;
 * - integer attributes: the number (`align 8`, `dereferenceable(16)`), `uwtable` 1 = sync, 2 = async,
 *   `memory` the packed effects (see {@link formatMemoryEffects}), `allocsize` / `vscale_range` a pair,
 *   `allockind` its bit mask;
 * - type attributes (`byval(%T)`): the type (or undefined for a bare `byval` in old IR);
 * - string attributes (`"key"="value"`): the value string (may be empty).
 */
export type Attribute =
  | { readonly kind: 'enum'; readonly key: string }
  | { readonly kind: 'int'; readonly key: string; readonly value: number | readonly [number, number | undefined] }
  | { readonly kind: 'type'; readonly key: string; readonly type: Type | undefined }
  | { readonly kind: 'string'; readonly key: string; readonly value: string }
  /** Attributes this library carries without interpreting (e.g. `range(i32 0, 10)`), printed as written. */
  | { readonly kind: 'raw'; readonly key: string; readonly text: string };

export function enumAttr(key: string): Attribute {
  return { kind: 'enum', key };
}
export function intAttr(key: string, value: number | readonly [number, number | undefined]): Attribute {
  return { kind: 'int', key, value };
}
export function typeAttr(key: string, type: Type | undefined): Attribute {
  return { kind: 'type', key, type };
}
export function stringAttr(key: string, value = ''): Attribute {
  return { kind: 'string', key, value };
}

function compareAttributes(a: Attribute, b: Attribute): number {
  const aString = a.kind === 'string';
  const bString = b.kind === 'string';
  if (aString !== bString) return aString ? 1 : -1;
  if (aString && bString) {
    if (a.key !== b.key) return a.key < b.key ? -1 : 1;
    const av = (a as { value: string }).value;
    const bv = (b as { value: string }).value;
    return av === bv ? 0 : av < bv ? -1 : 1;
  }
  const ra = KIND_RANK.get(a.key) ?? Number.MAX_SAFE_INTEGER;
  const rb = KIND_RANK.get(b.key) ?? Number.MAX_SAFE_INTEGER;
  if (ra !== rb) return ra - rb;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * An immutable, canonically ordered set of attributes; adding an attribute with a key already
 * present replaces it (as `AttrBuilder::addAttribute` does).
 */
export class AttributeSet {
  static readonly empty = new AttributeSet([]);
  readonly attributes: readonly Attribute[];
  private cachedKey: string | undefined = undefined;

  private constructor(sorted: readonly Attribute[]) {
    this.attributes = sorted;
  }

  /**
   * An empty set whose attributes are supplied later with {@link fill} (the parser's `#N`
   * references, which precede `attributes #N = {...}`). Not for general use.
   * @internal
   */
  static placeholder(): AttributeSet {
    return new AttributeSet([]);
  }

  /** @internal Completes a {@link placeholder}. */
  fill(attributes: Iterable<Attribute>): void {
    (this as { attributes: readonly Attribute[] }).attributes = AttributeSet.of(attributes).attributes;
    this.cachedKey = undefined;
  }

  static of(attributes: Iterable<Attribute>): AttributeSet {
    if (Array.isArray(attributes)) {
      const list = attributes as readonly Attribute[];
      if (list.length === 0) return AttributeSet.empty;
      if (list.length === 1) return new AttributeSet(list.slice());
    }
    const byKey = new Map<string, Attribute>();
    for (const a of attributes) byKey.set(a.kind === 'string' ? `"${a.key}` : a.key, a);
    if (byKey.size === 0) return AttributeSet.empty;
    return new AttributeSet([...byKey.values()].sort(compareAttributes));
  }

  get size(): number {
    return this.attributes.length;
  }
  get isEmpty(): boolean {
    return this.attributes.length === 0;
  }

  // Plain loops over the canonical order (string attributes last, sorted by key): these are asked
  // once per function or call by many passes, and a closure per call showed in profiles.
  get(key: string): Attribute | undefined {
    const list = this.attributes;
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      if (a.kind === 'string') return undefined;
      if (a.key === key) return a;
    }
    return undefined;
  }
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  getString(key: string): string | undefined {
    const list = this.attributes;
    for (let i = list.length - 1; i >= 0; i--) {
      const a = list[i]!;
      if (a.kind !== 'string' || a.key < key) return undefined;
      if (a.key === key) return a.value;
    }
    return undefined;
  }
  hasString(key: string): boolean {
    return this.getString(key) !== undefined;
  }

  with(...attributes: Attribute[]): AttributeSet {
    return AttributeSet.of([...this.attributes, ...attributes]);
  }
  withString(key: string, value = ''): AttributeSet {
    return this.with(stringAttr(key, value));
  }
  without(key: string): AttributeSet {
    return AttributeSet.of(this.attributes.filter((a) => a.key !== key || a.kind === 'string'));
  }
  withoutString(key: string): AttributeSet {
    return AttributeSet.of(this.attributes.filter((a) => a.kind !== 'string' || a.key !== key));
  }
  /** Union, attributes of `other` winning on clashes. */
  merge(other: AttributeSet): AttributeSet {
    if (other.isEmpty) return this;
    if (this.isEmpty) return other;
    return AttributeSet.of([...this.attributes, ...other.attributes]);
  }

  /** A key that is equal for equal sets (types compared by identity through `typeKey`). */
  key(typeKey: (t: Type) => string): string {
    if (this.cachedKey === undefined) {
      this.cachedKey = this.attributes
        .map((a) => {
          switch (a.kind) {
            case 'enum':
              return a.key;
            case 'int':
              return `${a.key}(${String(a.value)})`;
            case 'type':
              return `${a.key}<${a.type === undefined ? '' : typeKey(a.type)}>`;
            case 'string':
              return `${JSON.stringify(a.key)}=${JSON.stringify(a.value)}`;
            case 'raw':
              return `${a.key}{${a.text}}`;
          }
        })
        .join(' ');
    }
    return this.cachedKey;
  }
}

/** Function, return and per-parameter attribute sets of a function or call. */
export class AttributeList {
  static readonly empty = new AttributeList(AttributeSet.empty, AttributeSet.empty, []);
  constructor(
    readonly fn: AttributeSet,
    readonly ret: AttributeSet,
    readonly params: readonly AttributeSet[],
  ) {}
  param(index: number): AttributeSet {
    return this.params[index] ?? AttributeSet.empty;
  }
  withFn(fn: AttributeSet): AttributeList {
    return new AttributeList(fn, this.ret, this.params);
  }
  withRet(ret: AttributeSet): AttributeList {
    return new AttributeList(this.fn, ret, this.params);
  }
  withParams(params: readonly AttributeSet[]): AttributeList {
    return new AttributeList(this.fn, this.ret, params);
  }
}

// --- memory(...) effects -----------------------------------------------------------------------

/** Access kinds: 0 none, 1 read, 2 write, 3 readwrite. Locations: argmem, inaccessiblemem, other. */
export const MEMORY_LOCATIONS = ['argmem', 'inaccessiblemem', 'other'] as const;
export type MemoryLocation = (typeof MEMORY_LOCATIONS)[number];
const MOD_REF = ['none', 'read', 'write', 'readwrite'] as const;

/** Packs per-location access kinds into the `memory` attribute value (2 bits per location). */
export function packMemoryEffects(effects: Record<MemoryLocation, number>): number {
  return effects.argmem | (effects.inaccessiblemem << 2) | (effects.other << 4);
}

export function unpackMemoryEffects(value: number): Record<MemoryLocation, number> {
  return { argmem: value & 3, inaccessiblemem: (value >> 2) & 3, other: (value >> 4) & 3 };
}

/** Formats like LLVM 16: the "other" kind as default, then locations that differ from it. */
export function formatMemoryEffects(value: number): string {
  const e = unpackMemoryEffects(value);
  const parts: string[] = [];
  const allSame = e.argmem === e.other && e.inaccessiblemem === e.other;
  if (e.other !== 0 || allSame) parts.push(MOD_REF[e.other]!);
  for (const loc of ['argmem', 'inaccessiblemem'] as const) {
    if (e[loc] === e.other) continue;
    parts.push(`${loc}: ${MOD_REF[e[loc]]}`);
  }
  return `memory(${parts.join(', ')})`;
}

export function parseModRef(word: string): number | undefined {
  const i = (MOD_REF as readonly string[]).indexOf(word);
  return i < 0 ? undefined : i;
}

/** `allockind("...")` bits in LLVM's order. */
export const ALLOC_KIND_FLAGS = ['alloc', 'realloc', 'free', 'uninitialized', 'zeroed', 'aligned'] as const;

export function formatAllocKind(bits: number): string {
  const names = ALLOC_KIND_FLAGS.filter((_, i) => (bits & (1 << i)) !== 0);
  return `allockind("${names.join(',')}")`;
}

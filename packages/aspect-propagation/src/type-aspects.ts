/**
 * Which aspects a type stands for (OptionalDeviceFeatures.md, "New LLVM IR pass to propagate
 * aspect usage"; the rules of intel/llvm's SYCLPropagateAspectsUsage):
 *
 * 1. Structs listed in `!sycl_types_that_use_aspects` have their listed aspects; `double` has
 *    `fp64` (its value read from `!sycl_aspects`).
 * 2. An *identified* struct (named or numbered) also has the aspects of each field whose type,
 *    after stripping arrays and vectors (`[4 x <2 x %A>]` → `%A`), is `double` or an identified
 *    struct. Fields of any other type add nothing: pointers (there is no pointee with opaque
 *    pointers) and literal structs (`%S = type { { %A } }` does not inherit A's aspects — intel/llvm
 *    only links `double` and identified structs when it propagates through containment).
 * 3. Any other type has the union of the aspects of its subtypes: literal structs, arrays,
 *    vectors, function types (return type, then parameters), target extension types.
 * 4. Pointers have none, typed pointers included (the pass works in the opaque-pointer world).
 *
 * Types are compared by identity (types are interned per context) and each is resolved once.
 */
import { subtypes, type StructType, type Type } from '@syclkit/ir';
import { AspectSet } from './aspect-set.js';

const NONE = null;

export class TypeAspects {
  private readonly memo = new Map<Type, AspectSet | null>();
  private readonly doubleMemo = new Map<Type, boolean>();

  /**
   * @param listed aspects of the structs of `!sycl_types_that_use_aspects`
   * @param doubleType the context's `double`
   * @param fp64 the value of the `fp64` aspect
   */
  constructor(
    private readonly listed: ReadonlyMap<StructType, AspectSet>,
    private readonly doubleType: Type,
    private readonly fp64: number,
  ) {
    this.memo.set(doubleType, new AspectSet([fp64]));
  }

  /**
   * Whether every type has, under `other`, only aspects it has here: the same `double` and `fp64`,
   * and `other` lists no struct (or aspect of it) this does not. Then a type with no aspect here
   * has none under `other` either (each rule only adds the aspects of what a type contains).
   */
  covers(other: TypeAspects): boolean {
    if (other.doubleType !== this.doubleType || other.fp64 !== this.fp64) return false;
    for (const [type, aspects] of other.listed) {
      const own = this.listed.get(type);
      if (aspects.size === 0) continue;
      if (own === undefined) return false;
      for (const aspect of aspects) if (!own.has(aspect)) return false;
    }
    return true;
  }

  /** The aspects of `type` (undefined when none). Do not mutate the result. */
  of(type: Type): AspectSet | undefined {
    switch (type.kind) {
      case 'pointer':
      case 'integer':
      case 'void':
      case 'label':
      case 'metadata':
      case 'token':
      case 'x86_mmx':
      case 'x86_amx':
        return undefined;
      default:
        break;
    }
    if (type.kind === 'float' && type !== this.doubleType) return undefined;
    const known = this.memo.get(type);
    if (known !== undefined) return known ?? undefined;
    // An empty entry first, so that a (malformed) recursive type cannot loop.
    this.memo.set(type, NONE);
    const result = type.kind === 'struct' && !type.literal ? this.ofIdentified(type) : this.ofComposite(type);
    this.memo.set(type, result === undefined || result.size === 0 ? NONE : result);
    return result === undefined || result.size === 0 ? undefined : result;
  }

  /** Whether `type` is or contains `double` (through any subtype but pointers). */
  containsDouble(type: Type): boolean {
    if (type === this.doubleType) return true;
    if (type.kind === 'pointer') return false;
    const known = this.doubleMemo.get(type);
    if (known !== undefined) return known;
    this.doubleMemo.set(type, false);
    let found = false;
    for (const sub of subtypes(type)) {
      if (this.containsDouble(sub)) {
        found = true;
        break;
      }
    }
    this.doubleMemo.set(type, found);
    return found;
  }

  private ofIdentified(type: StructType): AspectSet | undefined {
    let result: AspectSet | undefined;
    const own = this.listed.get(type);
    if (own !== undefined && own.size > 0) result = own.clone();
    for (const field of type.elements ?? []) {
      let inner: Type = field;
      while (inner.kind === 'array' || inner.kind === 'vector') inner = inner.element;
      const linked = inner === this.doubleType || (inner.kind === 'struct' && !inner.literal);
      if (!linked) continue;
      const aspects = this.of(inner);
      if (aspects === undefined) continue;
      result ??= new AspectSet();
      result.addAll(aspects);
    }
    return result;
  }

  private ofComposite(type: Type): AspectSet | undefined {
    let result: AspectSet | undefined;
    let single: AspectSet | undefined;
    for (const sub of subtypes(type)) {
      const aspects = this.of(sub);
      if (aspects === undefined || aspects === single) continue;
      if (single === undefined && result === undefined) {
        single = aspects;
        continue;
      }
      result ??= single!.clone();
      single = undefined;
      result.addAll(aspects);
    }
    return result ?? single;
  }
}

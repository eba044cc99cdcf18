/**
 * LLVM types. Types are interned per {@link TypeContext}: two structurally equal literal types are
 * the same object, so identity comparison (`===`) is type equality. Identified (named or numbered)
 * struct types are unique objects owned by the context, like in an LLVMContext.
 */

export type FloatKind = 'half' | 'bfloat' | 'float' | 'double' | 'x86_fp80' | 'fp128' | 'ppc_fp128';
export type SimpleKind = 'void' | 'label' | 'metadata' | 'token' | 'x86_mmx' | 'x86_amx';

export class SimpleType {
  readonly kind: SimpleKind;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct = false;
  /** @internal */ constructor(kind: SimpleKind) {
    this.kind = kind;
  }
}

export class IntegerType {
  readonly kind = 'integer' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct = false;
  /** @internal */ constructor(readonly bits: number) {}
}

export class FloatType {
  readonly kind = 'float' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct = false;
  /** @internal */ constructor(readonly fp: FloatKind) {}
  get bits(): number {
    return FLOAT_BITS[this.fp];
  }
}

const FLOAT_BITS: Record<FloatKind, number> = {
  half: 16,
  bfloat: 16,
  float: 32,
  double: 64,
  x86_fp80: 80,
  fp128: 128,
  ppc_fp128: 128,
};

/** `ptr addrspace(N)` when `pointee` is undefined (opaque), else the typed pointer `T addrspace(N)*`. */
export class PointerType {
  readonly kind = 'pointer' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct: boolean;
  /** @internal */ constructor(
    readonly addressSpace: number,
    readonly pointee: Type | undefined,
  ) {
    this.reachesStruct = pointee !== undefined && pointee.reachesStruct;
  }
  get isOpaque(): boolean {
    return this.pointee === undefined;
  }
}

export class ArrayType {
  readonly kind = 'array' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct: boolean;
  /** @internal */ constructor(
    readonly length: number,
    readonly element: Type,
  ) {
    this.reachesStruct = element.reachesStruct;
  }
}

export class VectorType {
  readonly kind = 'vector' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct: boolean;
  /** @internal */ constructor(
    readonly length: number,
    readonly element: Type,
    readonly scalable: boolean,
  ) {
    this.reachesStruct = element.reachesStruct;
  }
}

export class FunctionType {
  readonly kind = 'function' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct: boolean;
  /** @internal */ constructor(
    readonly returnType: Type,
    readonly params: readonly Type[],
    readonly varArgs: boolean,
  ) {
    this.reachesStruct = returnType.reachesStruct || params.some((p) => p.reachesStruct);
  }
}

/**
 * A struct type. Literal structs (`{ i32, i8 }`) are interned by structure; identified structs
 * (`%name = type ...` or numbered `%0`) are unique and may be opaque (no body) until defined.
 */
export class StructType {
  readonly kind = 'struct' as const;
  /** Empty string for literal and numbered structs. */
  name: string;
  readonly literal: boolean;
  elements: readonly Type[] | undefined;
  packed: boolean;
  /**
   * @internal Whether the type is or holds an identified struct: always for an identified
   * struct (whose body may come later), for a literal one when an element does (its elements
   * never change).
   */
  readonly reachesStruct: boolean;
  /** @internal */ constructor(name: string, literal: boolean, elements: readonly Type[] | undefined, packed: boolean) {
    this.name = name;
    this.literal = literal;
    this.elements = elements;
    this.packed = packed;
    this.reachesStruct = !literal || (elements !== undefined && elements.some((e) => e.reachesStruct));
  }
  get isOpaque(): boolean {
    return this.elements === undefined;
  }
  /** Sets the body of an identified struct (LLVM `StructType::setBody`). */
  setBody(elements: readonly Type[], packed = false): void {
    if (this.literal) throw new Error('cannot set the body of a literal struct');
    this.elements = elements;
    this.packed = packed;
  }
}

/** `target("name", types..., ints...)` (LLVM 16+). */
export class TargetExtType {
  readonly kind = 'target' as const;
  /** @internal Whether the type is or holds an identified struct (fixed at creation: only identified structs get a body later, and they always count). */
  readonly reachesStruct: boolean;
  /** @internal */ constructor(
    readonly name: string,
    readonly typeParams: readonly Type[],
    readonly intParams: readonly number[],
  ) {
    this.reachesStruct = typeParams.some((p) => p.reachesStruct);
  }
}

export type Type =
  | SimpleType
  | IntegerType
  | FloatType
  | PointerType
  | ArrayType
  | VectorType
  | FunctionType
  | StructType
  | TargetExtType;

/** Owns and interns types. Modules that are linked together must share one context. */
export class TypeContext {
  readonly void = new SimpleType('void');
  readonly label = new SimpleType('label');
  readonly metadata = new SimpleType('metadata');
  readonly token = new SimpleType('token');
  readonly x86_mmx = new SimpleType('x86_mmx');
  readonly x86_amx = new SimpleType('x86_amx');
  readonly half = new FloatType('half');
  readonly bfloat = new FloatType('bfloat');
  readonly float = new FloatType('float');
  readonly double = new FloatType('double');
  readonly x86_fp80 = new FloatType('x86_fp80');
  readonly fp128 = new FloatType('fp128');
  readonly ppc_fp128 = new FloatType('ppc_fp128');
  readonly i1: IntegerType;
  readonly i8: IntegerType;
  readonly i32: IntegerType;
  readonly i64: IntegerType;

  private readonly integers = new Map<number, IntegerType>();
  private readonly opaquePointers = new Map<number, PointerType>();
  private readonly typedPointers = new Map<Type, Map<number, PointerType>>();
  private readonly arrays = new Map<Type, Map<number, ArrayType>>();
  private readonly vectors = new Map<Type, Map<number, VectorType>>();
  private readonly derived = new Map<string, StructType | TargetExtType>();
  /**
   * Function types by a hash of their types' ids (a list where hashes collide): a lookup builds
   * no key string, and every function header and call type asks for one.
   */
  private readonly functionTypes = new Map<number, FunctionType | FunctionType[]>();
  private readonly typeIds = new Map<Type, number>();
  private readonly namedStructs = new Map<string, StructType>();
  private renameCounter = 0;

  /** `ptr` (address space 0), the most asked-for type. */
  private readonly ptr0 = new PointerType(0, undefined);

  constructor() {
    this.opaquePointers.set(0, this.ptr0);
    this.i1 = this.int(1);
    this.i8 = this.int(8);
    this.i32 = this.int(32);
    this.i64 = this.int(64);
  }

  int(bits: number): IntegerType {
    let t = this.integers.get(bits);
    if (t === undefined) {
      t = new IntegerType(bits);
      this.integers.set(bits, t);
    }
    return t;
  }

  floatType(kind: FloatKind): FloatType {
    switch (kind) {
      case 'half':
        return this.half;
      case 'bfloat':
        return this.bfloat;
      case 'float':
        return this.float;
      case 'double':
        return this.double;
      case 'x86_fp80':
        return this.x86_fp80;
      case 'fp128':
        return this.fp128;
      case 'ppc_fp128':
        return this.ppc_fp128;
    }
  }

  /** Opaque `ptr` in `addressSpace`. */
  ptr(addressSpace = 0): PointerType {
    if (addressSpace === 0) return this.ptr0;
    let t = this.opaquePointers.get(addressSpace);
    if (t === undefined) {
      t = new PointerType(addressSpace, undefined);
      this.opaquePointers.set(addressSpace, t);
    }
    return t;
  }

  /** Typed pointer `pointee addrspace(N)*` (typed-pointer IR, LLVM <= 16). */
  typedPtr(pointee: Type, addressSpace = 0): PointerType {
    let bySpace = this.typedPointers.get(pointee);
    if (bySpace === undefined) {
      bySpace = new Map();
      this.typedPointers.set(pointee, bySpace);
    }
    let t = bySpace.get(addressSpace);
    if (t === undefined) {
      t = new PointerType(addressSpace, pointee);
      bySpace.set(addressSpace, t);
    }
    return t;
  }

  array(element: Type, length: number): ArrayType {
    let byLength = this.arrays.get(element);
    if (byLength === undefined) {
      byLength = new Map();
      this.arrays.set(element, byLength);
    }
    let t = byLength.get(length);
    if (t === undefined) {
      t = new ArrayType(length, element);
      byLength.set(length, t);
    }
    return t;
  }

  vector(element: Type, length: number, scalable = false): VectorType {
    let byLength = this.vectors.get(element);
    if (byLength === undefined) {
      byLength = new Map();
      this.vectors.set(element, byLength);
    }
    const key = scalable ? -length - 1 : length;
    let t = byLength.get(key);
    if (t === undefined) {
      t = new VectorType(length, element, scalable);
      byLength.set(key, t);
    }
    return t;
  }

  fn(returnType: Type, params: readonly Type[], varArgs = false): FunctionType {
    let hash = this.id(returnType) * 2 + (varArgs ? 1 : 0);
    for (let i = 0; i < params.length; i++) hash = (Math.imul(hash, 0x9e3779b1) + this.id(params[i]!)) | 0;
    const found = this.functionTypes.get(hash);
    if (found !== undefined) {
      if (!Array.isArray(found)) {
        if (sameSignature(found, returnType, params, varArgs)) return found;
      } else for (const t of found) if (sameSignature(t, returnType, params, varArgs)) return t;
    }
    const t = new FunctionType(returnType, params, varArgs);
    if (found === undefined) this.functionTypes.set(hash, t);
    else if (Array.isArray(found)) found.push(t);
    else this.functionTypes.set(hash, [found, t]);
    return t;
  }

  /** The function type `ret (types of args)` (call sites written without a function type). */
  fnOfArgs(returnType: Type, args: readonly { readonly type: Type }[]): FunctionType {
    return this.fn(returnType, args.map((a) => a.type), false);
  }

  /** Literal struct `{ ... }` or packed `<{ ... }>`. */
  literalStruct(elements: readonly Type[], packed = false): StructType {
    const key = `${packed ? 'p' : 's'}{${elements.map((e) => this.id(e)).join(',')}}`;
    let t = this.derived.get(key) as StructType | undefined;
    if (t === undefined) {
      t = new StructType('', true, elements, packed);
      this.derived.set(key, t);
    }
    return t;
  }

  targetExt(name: string, typeParams: readonly Type[], intParams: readonly number[]): TargetExtType {
    const key = `t${JSON.stringify(name)}(${typeParams.map((p) => this.id(p)).join(',')};${intParams.join(',')})`;
    let t = this.derived.get(key) as TargetExtType | undefined;
    if (t === undefined) {
      t = new TargetExtType(name, typeParams, intParams);
      this.derived.set(key, t);
    }
    return t;
  }

  /**
   * Creates an identified struct. A name already taken in this context gets a `.N` suffix, like
   * LLVM does when several modules are read into one context (the linker merges them back).
   * An empty name makes a numbered struct.
   */
  createStruct(name: string, elements?: readonly Type[], packed = false): StructType {
    const t = new StructType('', false, elements, packed);
    if (name !== '') this.setStructName(t, name);
    return t;
  }

  /** Looks up an identified struct by its exact name. */
  getStruct(name: string): StructType | undefined {
    return this.namedStructs.get(name);
  }

  /** Renames (or names) an identified struct, keeping names unique in the context. */
  setStructName(t: StructType, name: string): void {
    if (t.literal) throw new Error('literal structs have no name');
    if (t.name === name) return;
    if (t.name !== '') this.namedStructs.delete(t.name);
    if (name === '') {
      t.name = '';
      return;
    }
    let unique = name;
    while (this.namedStructs.has(unique)) unique = `${name}.${this.renameCounter++}`;
    t.name = unique;
    this.namedStructs.set(unique, t);
  }

  /** Identified structs of this context that have a name. */
  namedStructTypes(): IterableIterator<StructType> {
    return this.namedStructs.values();
  }

  private id(t: Type): number {
    let id = this.typeIds.get(t);
    if (id === undefined) {
      id = this.typeIds.size;
      this.typeIds.set(t, id);
    }
    return id;
  }
}

function sameSignature(t: FunctionType, returnType: Type, params: readonly Type[], varArgs: boolean): boolean {
  if (t.returnType !== returnType || t.varArgs !== varArgs || t.params.length !== params.length) return false;
  for (let i = 0; i < params.length; i++) if (t.params[i] !== params[i]) return false;
  return true;
}

/** Direct subtypes in LLVM's `Type::subtypes()` order (used by the type finder and aspect rules). */
export function subtypes(t: Type): readonly Type[] {
  switch (t.kind) {
    case 'pointer':
      return t.pointee === undefined ? [] : [t.pointee];
    case 'array':
    case 'vector':
      return [t.element];
    case 'function':
      return [t.returnType, ...t.params];
    case 'struct':
      return t.elements ?? [];
    case 'target':
      return t.typeParams;
    default:
      return [];
  }
}

export function isIntegerType(t: Type, bits?: number): t is IntegerType {
  return t.kind === 'integer' && (bits === undefined || t.bits === bits);
}

export function isFloatingType(t: Type): t is FloatType {
  return t.kind === 'float';
}

export function isVoidType(t: Type): boolean {
  return t.kind === 'void';
}

/** Scalar element type for vectors, the type itself otherwise. */
export function scalarType(t: Type): Type {
  return t.kind === 'vector' ? t.element : t;
}

/** LLVM "first class" types: those an instruction can produce or a value can have. */
export function isFirstClassType(t: Type): boolean {
  return t.kind !== 'function' && t.kind !== 'void';
}

/** Whether a type has a size (LLVM `Type::isSized`). Opaque structs and functions do not. */
export function isSized(t: Type): boolean {
  return sizedWithin(t, undefined);
}

/**
 * Structs known to be sized. As in LLVM (which keeps the same bit in the struct), only "sized"
 * is remembered: a body is only ever given to an opaque struct, so a sized struct stays sized,
 * while an unsized one may become sized when a struct it holds gets its body.
 */
const SIZED_STRUCTS = new WeakSet<StructType>();

/** State of one isSized query, made only once a struct is reached (most queries are of scalars). */
interface SizedQuery {
  readonly visiting: Set<Type>;
  readonly known: Map<Type, boolean>;
}

function sizedWithin(t: Type, query: SizedQuery | undefined): boolean {
  switch (t.kind) {
    case 'integer':
    case 'float':
    case 'pointer':
      return true;
    case 'void':
    case 'label':
    case 'metadata':
    case 'token':
    case 'function':
      return false;
    case 'x86_mmx':
    case 'x86_amx':
      return true;
    case 'array':
    case 'vector':
      return sizedWithin(t.element, query);
    case 'struct': {
      if (t.elements === undefined) return false;
      if (SIZED_STRUCTS.has(t)) return true;
      const q = query ?? { visiting: new Set<Type>(), known: new Map<Type, boolean>() };
      const cached = q.known.get(t);
      if (cached !== undefined) return cached;
      // a struct containing itself by value has no size (LLVM's visited set gives the same answer)
      if (q.visiting.has(t)) return false;
      q.visiting.add(t);
      const sized = t.elements.every((e) => sizedWithin(e, q));
      q.visiting.delete(t);
      q.known.set(t, sized);
      if (sized) SIZED_STRUCTS.add(t);
      return sized;
    }
    case 'target':
      return true;
  }
}

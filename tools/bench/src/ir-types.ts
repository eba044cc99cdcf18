/**
 * The little type model the generator needs to print the same module with opaque pointers
 * (`ptr addrspace(1)`) or typed pointers (`float addrspace(1)*`). Pointers always remember their
 * pointee, so typed mode can print it and insert the bitcasts LLVM 16 requires; opaque mode
 * simply does not print it. Types are interned, so identity comparison is type equality.
 */

export type PointerMode = 'opaque' | 'typed';

export abstract class IrType {
  private opaqueText: string | undefined;
  private typedText: string | undefined;
  private pointers: Map<number, PointerType> | undefined;
  private arrays: Map<number, ArrayType> | undefined;
  private vectors: Map<number, VectorType> | undefined;

  abstract readonly size: number;
  abstract readonly align: number;

  render(mode: PointerMode): string {
    if (mode === 'opaque') return (this.opaqueText ??= this.compute('opaque'));
    return (this.typedText ??= this.compute('typed'));
  }

  protected abstract compute(mode: PointerMode): string;

  pointer(addrSpace = 0): PointerType {
    this.pointers ??= new Map();
    let p = this.pointers.get(addrSpace);
    if (p === undefined) {
      p = new PointerType(this, addrSpace);
      this.pointers.set(addrSpace, p);
    }
    return p;
  }

  array(count: number): ArrayType {
    this.arrays ??= new Map();
    let a = this.arrays.get(count);
    if (a === undefined) {
      a = new ArrayType(this, count);
      this.arrays.set(count, a);
    }
    return a;
  }

  vector(count: number): VectorType {
    this.vectors ??= new Map();
    let v = this.vectors.get(count);
    if (v === undefined) {
      v = new VectorType(this, count);
      this.vectors.set(count, v);
    }
    return v;
  }
}

export class PrimitiveType extends IrType {
  constructor(
    readonly text: string,
    readonly size: number,
    readonly align: number,
  ) {
    super();
  }
  protected compute(): string {
    return this.text;
  }
}

export class PointerType extends IrType {
  readonly size = 8;
  readonly align = 8;
  constructor(
    readonly pointee: IrType,
    readonly addrSpace: number,
  ) {
    super();
  }
  protected compute(mode: PointerMode): string {
    const as = this.addrSpace === 0 ? '' : ` addrspace(${this.addrSpace})`;
    return mode === 'opaque' ? `ptr${as}` : `${this.pointee.render(mode)}${as}*`;
  }
}

export class ArrayType extends IrType {
  constructor(
    readonly element: IrType,
    readonly count: number,
  ) {
    super();
  }
  get size(): number {
    return this.element.size * this.count;
  }
  get align(): number {
    return this.element.align;
  }
  protected compute(mode: PointerMode): string {
    return `[${this.count} x ${this.element.render(mode)}]`;
  }
}

export class VectorType extends IrType {
  constructor(
    readonly element: IrType,
    readonly count: number,
  ) {
    super();
  }
  /** Matches the SPIR datalayout: 3-element vectors are padded to 4. */
  get size(): number {
    return this.element.size * (this.count === 3 ? 4 : this.count);
  }
  get align(): number {
    return this.size;
  }
  protected compute(mode: PointerMode): string {
    return `<${this.count} x ${this.element.render(mode)}>`;
  }
}

const plainIdentifier = /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/;

/** `%name` or `%"name"`, the way LLVM prints local identifiers. */
export function localName(name: string): string {
  return plainIdentifier.test(name) ? `%${name}` : `%"${name}"`;
}

/** `@name` or `@"name"`. */
export function globalName(name: string): string {
  return plainIdentifier.test(name) ? `@${name}` : `@"${name}"`;
}

export class StructType extends IrType {
  fields: IrType[] = [];
  constructor(readonly name: string) {
    super();
  }
  get size(): number {
    let offset = 0;
    for (const f of this.fields) offset = alignTo(offset, f.align) + f.size;
    return alignTo(offset, this.align);
  }
  get align(): number {
    let a = 1;
    for (const f of this.fields) a = Math.max(a, f.align);
    return a;
  }
  protected compute(): string {
    return localName(this.name);
  }
  definition(mode: PointerMode): string {
    return `${this.render(mode)} = type { ${this.fields.map((f) => f.render(mode)).join(', ')} }`;
  }
}

function alignTo(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

export const voidType = new PrimitiveType('void', 0, 1);
export const i1 = new PrimitiveType('i1', 1, 1);
export const i8 = new PrimitiveType('i8', 1, 1);
export const i32 = new PrimitiveType('i32', 4, 4);
export const i64 = new PrimitiveType('i64', 8, 8);
export const halfType = new PrimitiveType('half', 2, 2);
export const floatType = new PrimitiveType('float', 4, 4);
export const doubleType = new PrimitiveType('double', 8, 8);

/** A typed operand: its type and how it is referenced (`%x`, `@g`, `42`, a constant expression). */
export interface Value {
  readonly type: IrType;
  readonly ref: string;
}

export function operand(v: Value, mode: PointerMode): string {
  return `${v.type.render(mode)} ${v.ref}`;
}

export function constant(type: IrType, ref: string | number): Value {
  return { type, ref: String(ref) };
}

/**
 * The named struct types of a generated module: the SYCL runtime classes DPC++ device code
 * carries (accessor, id, range, half), kernel lambda closures, and a few application types.
 * Each is created on first use so only types the module really uses get defined.
 */
import type { ModuleEmitter } from './emitter.js';
import { halfType, i32, i64, floatType, doubleType, type IrType, type StructType } from './ir-types.js';
import { kindInfo, type ElemKind } from './kinds.js';
import { featureStructs, type PlannedFunction } from './plan.js';

export class TypeFactory {
  private readonly accessorSuffix = new Map<ElemKind, string>();
  private lambdaCount = 0;
  private readonly lambdas = new Map<number, StructType>();

  constructor(private readonly m: ModuleEmitter) {}

  array(): StructType {
    return this.m.struct('class.sycl::_V1::detail::array', () => [i64.array(1)]);
  }

  id(): StructType {
    return this.m.struct('class.sycl::_V1::id', () => [this.array()]);
  }

  range(): StructType {
    return this.m.struct('class.sycl::_V1::range', () => [this.array()]);
  }

  accessorImpl(): StructType {
    return this.m.struct('class.sycl::_V1::detail::AccessorImplDevice', () => [this.id(), this.range(), this.range()]);
  }

  halfClass(): StructType {
    return this.m.struct('class.sycl::_V1::detail::half_impl::half', () => [halfType]);
  }

  /** How an element of `kind` is stored in memory (`sycl::half` is a class around `half`). */
  storage(kind: ElemKind): IrType {
    return kind === 'half' ? this.halfClass() : kindInfo[kind].value;
  }

  /**
   * `sycl::accessor<T, 1, ...>`. With opaque pointers all element types share one struct (as
   * after llvm-link, which merges isomorphic types); with typed pointers each gets its own,
   * suffixed like clang's `.0`, `.1` renames.
   */
  accessor(kind: ElemKind): StructType {
    const mode = this.m.mode;
    let suffix = mode === 'opaque' ? '' : this.accessorSuffix.get(kind);
    if (suffix === undefined) {
      suffix = this.accessorSuffix.size === 0 ? '' : `.${this.accessorSuffix.size - 1}`;
      this.accessorSuffix.set(kind, suffix);
    }
    const union = this.m.struct(`union.anon${suffix}`, () => [this.storage(kind).pointer(1)]);
    return this.m.struct(`class.sycl::_V1::accessor${suffix}`, () => [this.accessorImpl(), union]);
  }

  /** The closure type of a kernel's lambda: accessors, then the captured scalars. */
  lambda(kernel: PlannedFunction): StructType {
    let t = this.lambdas.get(kernel.id);
    if (t === undefined) {
      const k = kernel.kernel!;
      const name = this.lambdaCount === 0 ? 'class.anon' : `class.anon.${this.lambdaCount - 1}`;
      this.lambdaCount++;
      t = this.m.struct(name, () => {
        const fields: IrType[] = k.accessors.map((a) => this.accessor(a));
        if (k.capturesCount) fields.push(i32);
        if (k.capturesScale) fields.push(kindInfo[kernel.kind].value);
        return fields;
      });
      this.lambdas.set(kernel.id, t);
    }
    return t;
  }

  /** A plain aggregate each TU passes around by value. */
  params(tu: number): StructType {
    return this.m.struct(`struct.tu${tu}::Params`, () => [i32, i64, floatType, floatType.array(4)]);
  }

  /** A type listed in `!sycl_types_that_use_aspects`. */
  featureStruct(index: number): StructType {
    const f = featureStructs[index]!;
    switch (index) {
      case 0:
        return this.m.struct(f.name, () => [floatType.array(4), i32]);
      case 1:
        return this.m.struct(f.name, () => [i32.array(8)]);
      default:
        return this.m.struct(f.name, () => [doubleType, i64]);
    }
  }

  /** An unlisted type containing a listed one (its aspects come through containment). */
  featureContainer(index: number): StructType {
    const f = featureStructs[index]!;
    return this.m.struct(f.container, () => [this.featureStruct(index), index === 2 ? i32.array(2) : i32]);
  }

  deviceGlobal(): StructType {
    return this.m.struct('class.sycl::_V1::ext::oneapi::experimental::device_global', () => [i32]);
  }
}

import { aspectValue } from './aspects.js';
import { doubleType, floatType, halfType, i32, i64, type IrType } from './ir-types.js';

/** The element type a generated function computes with; `double` and `half` are optional features. */
export type ElemKind = 'i32' | 'i64' | 'float' | 'double' | 'half';

export interface KindInfo {
  readonly kind: ElemKind;
  /** The SSA type values of this kind have. */
  readonly value: IrType;
  readonly isFloat: boolean;
  /** Itanium mangling of the value type and of the element type stored in memory. */
  readonly mangledValue: string;
  readonly mangledStorage: string;
  /** Name of the scalar in clang's TBAA type tree. */
  readonly tbaaName: string;
  /** Aspects using this kind implies by itself (double -> fp64; half comes from its class type). */
  readonly aspects: readonly number[];
}

const halfClassMangled = 'N4sycl3_V16detail9half_impl4halfE';

export const kindInfo: Readonly<Record<ElemKind, KindInfo>> = {
  i32: { kind: 'i32', value: i32, isFloat: false, mangledValue: 'i', mangledStorage: 'i', tbaaName: 'int', aspects: [] },
  i64: { kind: 'i64', value: i64, isFloat: false, mangledValue: 'l', mangledStorage: 'l', tbaaName: 'long', aspects: [] },
  float: { kind: 'float', value: floatType, isFloat: true, mangledValue: 'f', mangledStorage: 'f', tbaaName: 'float', aspects: [] },
  double: {
    kind: 'double',
    value: doubleType,
    isFloat: true,
    mangledValue: 'd',
    mangledStorage: 'd',
    tbaaName: 'double',
    aspects: [aspectValue.fp64],
  },
  half: {
    kind: 'half',
    value: halfType,
    isFloat: true,
    mangledValue: 'DF16_',
    mangledStorage: halfClassMangled,
    tbaaName: '_Float16',
    aspects: [aspectValue.fp16],
  },
};

const halfConstants = ['0xH0000', '0xH3C00', '0xH4000', '0xH4200', '0xH4400', '0xH4500', '0xH4600', '0xH4700', '0xH4800', '0xH4880'];

/** The constant `n` (0..9) of a kind, spelled the way LLVM prints it. */
export function smallConstant(kind: ElemKind, n: number): string {
  const k = Math.max(0, Math.min(9, Math.trunc(n)));
  switch (kind) {
    case 'i32':
    case 'i64':
      return String(k);
    case 'half':
      return halfConstants[k]!;
    default:
      return `${k}.000000e+00`;
  }
}

/** Clang-like weights: most kernels compute in float or int; double and half are the optional ones. */
export const kindWeights: readonly (readonly [ElemKind, number])[] = [
  ['float', 45],
  ['i32', 25],
  ['i64', 10],
  ['double', 12],
  ['half', 8],
];

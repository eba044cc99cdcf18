/**
 * Kernel arguments of a submission that runs on a device: buffers (host arrays copied to device
 * memory before the launch and, unless read-only, back after it), scalars, and structs passed by
 * value (`sycl::range` / `sycl::id`). A submission lists them in the order of the kernel's
 * parameters as DPC++'s front end made them — an accessor is four: its pointer, access range,
 * memory range and offset —, including those `sycl_kernel_omit_args` marks as dropped; the
 * runtime leaves those out (`SYCL/kernel param opt`) before the backend packs the rest.
 *
 * This is a USM-style model: one device allocation per buffer argument, for one launch.
 */
import { PropertySetName, PropertyType, type PropertySetRegistry } from '@syclkit/formats';
import { SyclError, errc } from './errors.js';

export type BufferAccess = 'read' | 'write' | 'read_write';

/** Scalar types, by their PTX names. */
export type ScalarType = 's8' | 'u8' | 's16' | 'u16' | 's32' | 'u32' | 's64' | 'u64' | 'f32' | 'f64';

/** A host array copied to a device allocation whose address is the argument. */
export interface BufferArg {
  readonly kind: 'buffer';
  readonly data: ArrayBufferView;
  /** `read`: copied in only; `write`: copied back only; `read_write`: both. */
  readonly access: BufferAccess;
}

export interface ScalarArg {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  readonly value: number | bigint;
}

/** Bytes passed by value (a struct such as `sycl::range<N>`). */
export interface BytesArg {
  readonly kind: 'bytes';
  readonly bytes: Uint8Array;
  /** What the value stands for, for messages (`range`, `id`, `struct`). */
  readonly what: string;
}

export type KernelArg = BufferArg | ScalarArg | BytesArg;

const SCALAR_BYTES: Readonly<Record<ScalarType, number>> = { s8: 1, u8: 1, s16: 2, u16: 2, s32: 4, u32: 4, s64: 8, u64: 8, f32: 4, f64: 8 };

/** Bytes of a scalar type. */
export function scalarSize(type: ScalarType): number {
  return SCALAR_BYTES[type];
}

/** A scalar's bytes, little-endian (what every device this runtime runs on expects). */
export function encodeScalar(arg: ScalarArg): Uint8Array {
  const bytes = new Uint8Array(SCALAR_BYTES[arg.type]);
  const view = new DataView(bytes.buffer);
  const { type, value } = arg;
  const integer = (min: bigint, max: bigint): bigint => {
    const v = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : Number.NaN;
    if (typeof v !== 'bigint' || v < min || v > max) throw new SyclError(errc.invalid, `kernel argument ${String(value)} is not a ${type} value`);
    return v;
  };
  switch (type) {
    case 's8': view.setInt8(0, Number(integer(-128n, 127n))); break;
    case 'u8': view.setUint8(0, Number(integer(0n, 255n))); break;
    case 's16': view.setInt16(0, Number(integer(-32768n, 32767n)), true); break;
    case 'u16': view.setUint16(0, Number(integer(0n, 65535n)), true); break;
    case 's32': view.setInt32(0, Number(integer(-(2n ** 31n), 2n ** 31n - 1n)), true); break;
    case 'u32': view.setUint32(0, Number(integer(0n, 2n ** 32n - 1n)), true); break;
    case 's64': view.setBigInt64(0, integer(-(2n ** 63n), 2n ** 63n - 1n), true); break;
    case 'u64': view.setBigUint64(0, integer(0n, 2n ** 64n - 1n), true); break;
    case 'f32': view.setFloat32(0, Number(value), true); break;
    case 'f64': view.setFloat64(0, Number(value), true); break;
  }
  return bytes;
}

function sizeTuple(what: string, values: readonly number[]): BytesArg {
  if (values.length < 1 || values.length > 3 || values.some((v) => !Number.isSafeInteger(v) || v < 0)) {
    throw new SyclError(errc.invalid, `a ${what} argument needs 1 to 3 non-negative integers, got {${values.join(', ')}}`);
  }
  const bytes = new Uint8Array(8 * values.length);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setBigUint64(i * 8, BigInt(v), true));
  return { kind: 'bytes', bytes, what };
}

function elementsOf(data: ArrayBufferView): number {
  const perElement = 'BYTES_PER_ELEMENT' in data ? (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
  return data.byteLength / perElement;
}

/** Constructors of kernel arguments. */
export const kernelArg = {
  /** A buffer copied in and back (`read_write`), or only one way. */
  buffer: (data: ArrayBufferView, access: BufferAccess = 'read_write'): BufferArg => ({ kind: 'buffer', data, access }),
  scalar: (type: ScalarType, value: number | bigint): ScalarArg => ({ kind: 'scalar', type, value }),
  i32: (value: number): ScalarArg => ({ kind: 'scalar', type: 's32', value }),
  u32: (value: number): ScalarArg => ({ kind: 'scalar', type: 'u32', value }),
  i64: (value: number | bigint): ScalarArg => ({ kind: 'scalar', type: 's64', value }),
  u64: (value: number | bigint): ScalarArg => ({ kind: 'scalar', type: 'u64', value }),
  f32: (value: number): ScalarArg => ({ kind: 'scalar', type: 'f32', value }),
  f64: (value: number): ScalarArg => ({ kind: 'scalar', type: 'f64', value }),
  /** `sycl::range<N>` by value: N `size_t`s. */
  range: (...sizes: number[]): BytesArg => sizeTuple('range', sizes),
  /** `sycl::id<N>` by value. */
  id: (...values: number[]): BytesArg => sizeTuple('id', values),
  /** Any struct by value, as bytes. */
  bytes: (bytes: Uint8Array, what = 'struct'): BytesArg => ({ kind: 'bytes', bytes, what }),
  /**
   * The four parameters of a DPC++ accessor over a whole 1-D buffer: pointer, access range,
   * memory range (both the element count) and offset 0.
   */
  accessor: (data: ArrayBufferView, access: BufferAccess = 'read_write'): KernelArg[] => {
    const count = elementsOf(data);
    return [kernelArg.buffer(data, access), kernelArg.range(count), kernelArg.range(count), kernelArg.id(0)];
  },
};

/**
 * `SYCL/kernel param opt` of `kernel` in an image: which of the kernel's parameters the front end
 * dropped (bit i set: parameter i is not passed). Undefined when the image has no entry.
 */
export function omittedParams(properties: PropertySetRegistry, kernel: string): boolean[] | undefined {
  const value = properties.get(PropertySetName.KERNEL_PARAM_OPT_INFO, kernel);
  if (value === undefined || value.type !== PropertyType.BYTE_ARRAY) return undefined;
  const bits: boolean[] = [];
  for (let i = 0; i < value.bitCount; i++) bits.push((value.payload[i >> 3]! & (1 << (i & 7))) !== 0);
  return bits;
}

/**
 * The arguments the kernel function takes: the submission's list without the omitted ones. A
 * list whose length is not the kernel's parameter count is an error (`errc.invalid`).
 */
export function keptArguments(kernel: string, args: readonly KernelArg[], omitted: readonly boolean[] | undefined): KernelArg[] {
  if (omitted === undefined) return [...args];
  if (args.length !== omitted.length) {
    throw new SyclError(
      errc.invalid,
      `Kernel ${kernel} has ${omitted.length} parameters (${omitted.filter((o) => o).length} of them omitted by sycl_kernel_omit_args), but the submission passes ${args.length} arguments`,
    );
  }
  return args.filter((_, i) => !omitted[i]);
}

/**
 * `sycl::range<N>` and `sycl::nd_range<N>` (N = 1, 2, 3) as plain values.
 */
import { SyclError, errc } from './errors.js';

export type Dimensions = 1 | 2 | 3;

/** `sycl::range<N>`: sizes in the order the user wrote them (`range<2>{rows, cols}`). */
export interface Range {
  readonly dims: Dimensions;
  readonly sizes: readonly number[];
}

/** `sycl::nd_range<N>`: a global range and a work-group (local) range of the same dimensions. */
export interface NdRange {
  readonly global: Range;
  readonly local: Range;
}

function checkSizes(sizes: readonly number[], what: string, minimum: number): Dimensions {
  if (sizes.length < 1 || sizes.length > 3) throw new SyclError(errc.invalid, `${what} must have 1, 2 or 3 dimensions, got ${sizes.length}`);
  for (const size of sizes) {
    if (!Number.isSafeInteger(size) || size < minimum) {
      throw new SyclError(errc.invalid, `${what} sizes must be integers >= ${minimum}, got ${formatSizes(sizes)}`);
    }
  }
  return sizes.length as Dimensions;
}

/** `range<N>(sizes...)`; sizes are non-negative integers. Throws `errc.invalid` otherwise. */
export function range(...sizes: number[]): Range {
  const dims = checkSizes(sizes, 'a range', 0);
  return Object.freeze({ dims, sizes: Object.freeze([...sizes]) });
}

/**
 * `nd_range<N>(global, local)`; local sizes are at least 1 and both ranges have the same number
 * of dimensions. Throws `errc.invalid` otherwise (C++ rejects these at compile time).
 */
export function ndRange(global: Range | readonly number[], local: Range | readonly number[]): NdRange {
  const g = isRange(global) ? global : range(...global);
  const localSizes = isRange(local) ? local.sizes : local;
  checkSizes(localSizes, 'a local range', 1);
  const l = range(...localSizes);
  if (g.dims !== l.dims) {
    throw new SyclError(errc.invalid, `an nd_range needs global and local ranges of the same dimensions, got ${g.dims} and ${l.dims}`);
  }
  return Object.freeze({ global: g, local: l });
}

export function isRange(value: unknown): value is Range {
  return typeof value === 'object' && value !== null && 'dims' in value && 'sizes' in value;
}

export function isNdRange(value: unknown): value is NdRange {
  return typeof value === 'object' && value !== null && 'global' in value && 'local' in value;
}

/** `{8, 8, 8}`, the way the runtime's messages print sizes. */
export function formatSizes(sizes: readonly (number | bigint)[]): string {
  return `{${sizes.join(', ')}}`;
}

/** Total number of work-items of a range. */
export function rangeSize(r: Range): number {
  return r.sizes.reduce((product, size) => product * size, 1);
}

/**
 * Parses `1024`, `64x64`, `8,8,8` (either separator) into a range; `what` names the value in the
 * error (`errc.invalid`).
 */
export function parseRange(text: string, what = 'range'): Range {
  const parts = text.trim().split(/[x,]/);
  const sizes = parts.map((part) => (/^\d+$/.test(part.trim()) ? Number(part.trim()) : Number.NaN));
  if (sizes.some((size) => Number.isNaN(size))) {
    throw new SyclError(errc.invalid, `${what} '${text}' is not a list of 1 to 3 non-negative integers (e.g. 1024, 64x64, 8,8,8)`);
  }
  return range(...sizes);
}

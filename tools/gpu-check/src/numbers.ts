/**
 * Host-side arithmetic for the references: IEEE half precision (round to nearest even, as
 * `fptrunc float to half` does), a seeded generator for inputs, and result comparison in units in
 * the last place.
 */

/** The binary16 bits nearest to `value` (ties to even), as `fptrunc` rounds. */
export function toHalfBits(value: number): number {
  const f = new Float32Array([value]);
  const x = new Uint32Array(f.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    let half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    if (rest > midpoint || (rest === midpoint && (half & 1) === 1)) half++;
    return sign | half;
  }
  // A carry out of the mantissa rounds up into the exponent (to infinity at the top): still right.
  let half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half++;
  return sign | half;
}

/** The value of binary16 bits. */
export function fromHalfBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : Number.NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** A small seeded generator (mulberry32): the same inputs on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Distance in float32 units in the last place (0: the same float). */
export function ulpDistance32(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  const bits = new Int32Array(new Float32Array([a, b]).buffer);
  const order = (i: number): number => (bits[i]! < 0 ? -0x80000000 - bits[i]! : bits[i]!);
  return Math.abs(order(0) - order(1));
}

/** How a device result compares with the host's. */
export interface Comparison {
  readonly elements: number;
  /** Elements equal bit for bit. */
  readonly exact: number;
  /** The largest difference, in the unit the check uses (ulps, counts). */
  readonly maxDifference: number;
  /** The first element outside the tolerance: index, device value, host value. */
  readonly firstMismatch?: { readonly index: number; readonly device: number | bigint; readonly host: number | bigint };
  readonly ok: boolean;
}

/** Compares element by element; `distance` measures a difference, `tolerance` is the most allowed. */
export function compare<T extends number | bigint>(device: ArrayLike<T>, host: ArrayLike<T>, tolerance = 0, distance: (a: T, b: T) => number = (a, b) => (a === b ? 0 : Infinity)): Comparison {
  let exact = 0;
  let maxDifference = 0;
  let firstMismatch: Comparison['firstMismatch'];
  const n = Math.max(device.length, host.length);
  for (let i = 0; i < n; i++) {
    if (i >= device.length || i >= host.length) {
      firstMismatch ??= { index: i, device: device[i] ?? Number.NaN, host: host[i] ?? Number.NaN };
      maxDifference = Infinity;
      continue;
    }
    const d = Object.is(device[i], host[i]) || device[i] === host[i] ? 0 : distance(device[i]!, host[i]!);
    if (d === 0) exact++;
    maxDifference = Math.max(maxDifference, d);
    if (d > tolerance) firstMismatch ??= { index: i, device: device[i]!, host: host[i]! };
  }
  return { elements: n, exact, maxDifference, ...(firstMismatch === undefined ? {} : { firstMismatch }), ok: firstMismatch === undefined };
}

/** Statistics the harness reports; kept free of I/O so they can be checked with made-up timings. */
import type { CommandResult } from './harness.js';

/** The median; the mean of the two middle values for an even count; NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Per-round ratios candidate[i] / baseline[i]. The harness runs the commands alternately, so
 * round i of each was measured under the same machine conditions; pairing them cancels drift.
 */
export function pairedRatios(candidate: readonly number[], baseline: readonly number[]): number[] {
  const n = Math.min(candidate.length, baseline.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(candidate[i]! / baseline[i]!);
  return out;
}

/** The median of the paired ratios (not the ratio of medians). */
export function medianRatio(candidate: readonly number[], baseline: readonly number[]): number {
  return median(pairedRatios(candidate, baseline));
}

export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, mean: Number.NaN };
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  return { median: median(values), min, max, mean: sum / values.length };
}

/**
 * The exponent k in time ~ size^k, by least squares on log-log points. 1 means linear growth,
 * 2 quadratic. Needs at least two distinct sizes and positive times.
 */
export function growthExponent(points: readonly { size: number; time: number }[]): number {
  const usable = points.filter((p) => p.size > 0 && p.time > 0 && Number.isFinite(p.time));
  const sizes = new Set(usable.map((p) => p.size));
  if (sizes.size < 2) return Number.NaN;
  const xs = usable.map((p) => Math.log(p.size));
  const ys = usable.map((p) => Math.log(p.time));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

/** Up to this exponent growth is reported as linear (timings of a few runs are noisy). */
export const linearExponentLimit = 1.15;

export function describeGrowth(exponent: number): string {
  if (!Number.isFinite(exponent)) return 'n/a';
  const k = exponent.toFixed(2);
  return exponent <= linearExponentLimit ? `linear (time ~ size^${k})` : `superlinear (time ~ size^${k})`;
}

/** The median of the per-round ratios of `a` to the sum of `b` and `c`; null when one failed. */
export function ratioToSum(a: CommandResult, b: CommandResult, c: CommandResult): number | null {
  if ([a, b, c].some((r) => r.failure !== undefined || r.timesMs.length === 0)) return null;
  const n = Math.min(a.timesMs.length, b.timesMs.length, c.timesMs.length);
  const sums = Array.from({ length: n }, (_, i) => b.timesMs[i]! + c.timesMs[i]!);
  return median(pairedRatios(a.timesMs.slice(0, n), sums));
}

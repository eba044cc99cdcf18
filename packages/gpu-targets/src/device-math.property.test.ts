/**
 * Properties of the device math library, run for real by LLVM 16's `lli` (the IR the GPUs get,
 * executed on the host) against JavaScript's Math on generated arguments:
 * 1. exp, log, exp2, log2 and log10 are within a relative 1e-14 of Math's (exp10 within
 *    1e-14·(1 + |x·ln 10|)), over normal and subnormal inputs and the whole exponent range.
 * 2. pow is within a relative error of 1e-15·(1 + |y·ln x|) of Math.pow for positive x, and follows
 *    IEEE's special cases (negative x with integer y keeps the sign of odd powers, negative x with
 *    a non-integer y is NaN, y = 0 and x = 1 give 1, zeros and infinities).
 * 3. The float versions round the double result to float (equal to Math.fround of Math's value
 *    within one float ulp).
 */
import { spawnSync } from 'node:child_process';
import { fc } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { describe, expect, it } from 'vitest';
import { llvm16 } from '../test/ir.js';
import { deviceMathText } from './device-math.js';

const lli = llvm16('lli');

function hex(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return `0x${view.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0')}`;
}

/** Runs `fn` of the library on each argument list in lli; returns the results (as doubles). */
function run(calls: readonly { fn: string; args: readonly number[]; float?: boolean }[]): number[] {
  const lines: string[] = [deviceMathText().replaceAll('define internal', 'define'), 'declare i32 @printf(ptr, ...)', '@fmt = private constant [6 x i8] c"%.17g\\0A"', 'define i32 @main() {'];
  calls.forEach((c, i) => {
    const t = c.float ? 'float' : 'double';
    const args = c.args.map((a) => (c.fn.startsWith('pown') && a === c.args[1] && c.args.length === 2 ? `i32 ${a}` : `${t} ${c.float ? hex(Math.fround(a)) : hex(a)}`));
    lines.push(`  %r${i} = call ${t} @__syclkit_${c.fn}_${c.float ? 'f32' : 'f64'}(${args.join(', ')})`);
    const wide = c.float ? `%w${i}` : `%r${i}`;
    if (c.float) lines.push(`  %w${i} = fpext float %r${i} to double`);
    lines.push(`  call i32 (ptr, ...) @printf(ptr @fmt, double ${wide})`);
  });
  lines.push('  ret i32 0', '}');
  const r = spawnSync(lli!, ['-'], { input: lines.join('\n'), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`lli failed: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((s) => (s === 'nan' || s === '-nan' ? NaN : s === 'inf' ? Infinity : s === '-inf' ? -Infinity : Number(s)));
}

function close(actual: number, expected: number, relative: number): boolean {
  if (Number.isNaN(expected)) return Number.isNaN(actual);
  if (!Number.isFinite(expected) || expected === 0) return Object.is(actual, expected) || (expected === 0 && Math.abs(actual) < 1e-300);
  return Math.abs(actual - expected) <= relative * Math.abs(expected);
}

const UNARY: Readonly<Record<string, (x: number) => number>> = {
  exp: Math.exp,
  exp2: (x) => 2 ** x,
  exp10: (x) => 10 ** x,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
};

describe.skipIf(lli === undefined)('device math under lli (needs /usr/lib/llvm-16/bin/lli)', () => {
  it('1: exp and log families agree with Math over their ranges', () => {
    const { seed, numRuns } = fcOptions(300);
    const logArgs = fc.sample(fc.oneof(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), fc.double({ min: 4.9e-324, max: 2.2e-308, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true })), { numRuns, ...(seed === undefined ? {} : { seed }) });
    const expArgs = fc.sample(fc.double({ min: -740, max: 709, noNaN: true }), { numRuns, ...(seed === undefined ? {} : { seed }) });
    const calls: { fn: string; args: number[] }[] = [];
    for (const x of logArgs) for (const fn of ['log', 'log2', 'log10']) calls.push({ fn, args: [x] });
    for (const x of expArgs) {
      calls.push({ fn: 'exp', args: [x] });
      calls.push({ fn: 'exp2', args: [x / 1.5] });
      calls.push({ fn: 'exp10', args: [x / 3] });
    }
    const results = run(calls);
    calls.forEach((c, i) => {
      const expected = UNARY[c.fn]!(c.args[0]!);
      // results near the subnormal range keep fewer digits
      // exp10 goes through exp(x·ln 10): its error grows with |x|; results near the subnormal range keep fewer digits
      const scale = c.fn === 'exp10' ? 1 + Math.abs(c.args[0]! * Math.LN10) : 1;
      const tolerance = Math.abs(expected) < 1e-300 ? 1e-6 : 1e-14 * scale;
      expect(close(results[i]!, expected, tolerance), `${c.fn}(${c.args[0]}) = ${results[i]} vs ${expected}`).toBe(true);
    });
  });

  it('1: special values of exp and log', () => {
    const calls = [
      { fn: 'log', args: [0] },
      { fn: 'log', args: [-1] },
      { fn: 'log', args: [Infinity] },
      { fn: 'log', args: [NaN] },
      { fn: 'exp', args: [Infinity] },
      { fn: 'exp', args: [-Infinity] },
      { fn: 'exp', args: [NaN] },
      { fn: 'exp', args: [710] },
      { fn: 'exp', args: [-746] },
    ];
    expect(run(calls)).toEqual([-Infinity, NaN, Infinity, NaN, Infinity, 0, NaN, Infinity, 0]);
  });

  it('2: pow agrees with Math.pow, special cases included', () => {
    const { seed, numRuns } = fcOptions(300);
    const pairs = fc.sample(fc.tuple(fc.double({ min: 1e-5, max: 1e5, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true })), { numRuns, ...(seed === undefined ? {} : { seed }) });
    const special: [number, number][] = [
      [-2, 3],
      [-2, 2],
      [-2, 0.5],
      [0, 2],
      [0, -2],
      [-0, 3],
      [NaN, 0],
      [1, NaN],
      [Infinity, -1],
      [Infinity, 2],
      [2, 0.5],
      [10, -3],
    ];
    const all = [...pairs, ...special];
    const results = run(all.map(([x, y]) => ({ fn: 'pow', args: [x, y] })));
    all.forEach(([x, y], i) => {
      // C and OpenCL: pow(1, y) = 1 and pow(x, 0) = 1 even for NaN (JavaScript gives NaN for pow(1, NaN))
      const expected = x === 1 || y === 0 ? 1 : Math.pow(x, y);
      const tolerance = 1e-15 * (1 + (Math.abs(y * Math.log(Math.abs(x))) || 0)) * 4;
      expect(close(results[i]!, expected, tolerance), `pow(${x}, ${y}) = ${results[i]} vs ${expected}`).toBe(true);
      if (expected === 0 || !Number.isFinite(expected)) expect(Object.is(results[i], expected), `pow(${x}, ${y}) sign`).toBe(true);
    });
  });

  it('3: float versions round the double result', () => {
    const { seed, numRuns } = fcOptions(100);
    const xs = fc.sample(fc.float({ min: Math.fround(0.01), max: Math.fround(100), noNaN: true }), { numRuns, ...(seed === undefined ? {} : { seed }) });
    const calls = xs.flatMap((x) => [
      { fn: 'log', args: [x], float: true },
      { fn: 'pow', args: [x, 1.5], float: true },
    ]);
    const results = run(calls);
    calls.forEach((c, i) => {
      const x = Math.fround(c.args[0]!);
      const expected = Math.fround(c.fn === 'log' ? Math.log(x) : Math.pow(x, 1.5));
      const ulp = Math.abs(expected) * 2 ** -23;
      expect(Math.abs(results[i]! - expected) <= ulp, `${c.fn}f(${x}) = ${results[i]} vs ${expected}`).toBe(true);
    });
  });
});

/**
 * Properties of the CUDA back end's launch arithmetic and argument handling:
 * 1. launchGeometry of a plain range covers it exactly: grid × block = the global size in every
 *    dimension (CUDA order: x is the last SYCL dimension), with no remainder work-items.
 * 2. its block stays within the kernel's thread limit and the per-dimension block limits.
 * 3. encodeScalar writes little-endian bytes that read back as the value, for every scalar type.
 * 4. keptArguments keeps the arguments whose bit is clear, in order, and nothing else.
 */
import { fc, test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { expect } from 'vitest';
import { encodeScalar, keptArguments, kernelArg, type ScalarType } from '../kernel-args.js';
import { range } from '../ranges.js';
import { launchGeometry } from './backend.js';

const sizes = fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 3 });
const limits = fc.record({
  maxThreads: fc.constantFrom(64, 256, 1024),
  maxBlock: fc.tuple(fc.constantFrom(64, 1024), fc.constantFrom(64, 1024), fc.constantFrom(8, 64)),
});

test.prop([sizes, limits], fcOptions(200))('a plain range is covered exactly by grid × block (1) within the limits (2)', (global, limit) => {
  const { grid, block } = launchGeometry(range(...global), { name: 'k', params: [] }, limit, 'k');
  const cuda = [...global].reverse();
  for (let d = 0; d < 3; d++) expect(grid[d]! * block[d]!).toBe(cuda[d] ?? 1);
  expect(block[0] * block[1] * block[2]).toBeLessThanOrEqual(limit.maxThreads);
  for (let d = 0; d < 3; d++) expect(block[d]).toBeLessThanOrEqual(limit.maxBlock[d]!);
});

const scalar = fc.oneof(
  fc.record({ type: fc.constant<ScalarType>('s8'), value: fc.integer({ min: -128, max: 127 }) }),
  fc.record({ type: fc.constant<ScalarType>('u16'), value: fc.integer({ min: 0, max: 65535 }) }),
  fc.record({ type: fc.constant<ScalarType>('s32'), value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }),
  fc.record({ type: fc.constant<ScalarType>('u32'), value: fc.integer({ min: 0, max: 2 ** 32 - 1 }) }),
  fc.record({ type: fc.constant<ScalarType>('s64'), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) }),
  fc.record({ type: fc.constant<ScalarType>('u64'), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
  fc.record({ type: fc.constant<ScalarType>('f32'), value: fc.float({ noNaN: true }) }),
  fc.record({ type: fc.constant<ScalarType>('f64'), value: fc.double({ noNaN: true }) }),
);

test.prop([scalar], fcOptions(200))('scalars are encoded little-endian and read back (3)', ({ type, value }) => {
  const bytes = encodeScalar(kernelArg.scalar(type, value));
  const view = new DataView(bytes.buffer);
  const read: Record<string, () => number | bigint> = {
    s8: () => view.getInt8(0),
    u16: () => view.getUint16(0, true),
    s32: () => view.getInt32(0, true),
    u32: () => view.getUint32(0, true),
    s64: () => view.getBigInt64(0, true),
    u64: () => view.getBigUint64(0, true),
    f32: () => view.getFloat32(0, true),
    f64: () => view.getFloat64(0, true),
  };
  expect(read[type]!()).toBe(type === 'f32' ? Math.fround(value as number) : value);
});

test.prop([fc.array(fc.boolean(), { maxLength: 40 })], fcOptions(200))('keptArguments drops exactly the omitted parameters, in order (4)', (omitted) => {
  const args = omitted.map((_, i) => kernelArg.u32(i));
  const kept = keptArguments('k', args, omitted);
  expect(kept.map((a) => (a.kind === 'scalar' ? a.value : -1))).toEqual(omitted.flatMap((o, i) => (o ? [] : [i])));
});

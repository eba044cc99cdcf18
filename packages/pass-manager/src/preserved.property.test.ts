/**
 * Properties of PreservedAnalyses, against a reference model (a predicate over analyses):
 * 1. isPreserved agrees with the model for values built from all/none/preserve/preserveSet/abandon.
 * 2. intersect is sound: whatever a ∩ b keeps, both a and b keep.
 * 3. intersect is exact when no sets are involved.
 * 4. intersect with all() is the identity, from either side.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { PreservedAnalyses } from './index.js';
import { fcOptions } from '@syclkit/testing';

const KEYS = ['a', 'b', 'c', 'd'] as const;
const SETS = ['s', 't'] as const;
/** Each analysis key belongs to some sets. */
const SETS_OF: Record<string, readonly string[]> = { a: ['s'], b: ['s', 't'], c: [], d: ['t'] };
const ANALYSES = KEYS.map((key) => ({ key, sets: SETS_OF[key]! }));

type Op = { op: 'preserve'; key: string } | { op: 'preserveSet'; set: string } | { op: 'abandon'; key: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom(...KEYS).map((key) => ({ op: 'preserve' as const, key })),
  fc.constantFrom(...SETS).map((set) => ({ op: 'preserveSet' as const, set })),
  fc.constantFrom(...KEYS).map((key) => ({ op: 'abandon' as const, key })),
);
const buildArb = fc.record({ start: fc.boolean(), ops: fc.array(opArb, { maxLength: 6 }) });

function build({ start, ops }: { start: boolean; ops: Op[] }): PreservedAnalyses {
  let pa = start ? PreservedAnalyses.all() : PreservedAnalyses.none();
  for (const o of ops) pa = o.op === 'preserve' ? pa.preserve(o.key) : o.op === 'abandon' ? pa.abandon(o.key) : pa.preserveSet(o.set);
  return pa;
}

/** The model: replay the operations on a predicate. */
function model({ start, ops }: { start: boolean; ops: Op[] }): (key: string, sets: readonly string[]) => boolean {
  const all = start;
  const keys = new Set<string>();
  const sets = new Set<string>();
  const abandoned = new Set<string>();
  for (const o of ops) {
    if (o.op === 'preserve') {
      keys.add(o.key);
      abandoned.delete(o.key);
    } else if (o.op === 'abandon') {
      keys.delete(o.key);
      abandoned.add(o.key);
    } else sets.add(o.set);
  }
  return (key, ofSets) => !abandoned.has(key) && (all || keys.has(key) || ofSets.some((s) => sets.has(s)));
}

describe('PreservedAnalyses properties', () => {
  test.prop([buildArb], fcOptions())('isPreserved agrees with the model', (spec) => {
    const pa = build(spec);
    const expected = model(spec);
    for (const { key, sets } of ANALYSES) expect(pa.isPreserved(key, sets)).toBe(expected(key, sets));
  });

  test.prop([buildArb, buildArb], fcOptions())('intersect is sound', (a, b) => {
    const pa = build(a);
    const pb = build(b);
    const both = pa.intersect(pb);
    for (const { key, sets } of ANALYSES) {
      if (both.isPreserved(key, sets)) expect(pa.isPreserved(key, sets) && pb.isPreserved(key, sets)).toBe(true);
    }
  });

  const noSets = fc.record({ start: fc.boolean(), ops: fc.array(opArb.filter((o) => o.op !== 'preserveSet'), { maxLength: 6 }) });
  test.prop([noSets, noSets], fcOptions())('intersect is exact without sets', (a, b) => {
    const pa = build(a);
    const pb = build(b);
    const both = pa.intersect(pb);
    for (const { key, sets } of ANALYSES) expect(both.isPreserved(key, sets)).toBe(pa.isPreserved(key, sets) && pb.isPreserved(key, sets));
  });

  test.prop([buildArb], fcOptions())('all() is the identity of intersect', (spec) => {
    const pa = build(spec);
    for (const both of [pa.intersect(PreservedAnalyses.all()), PreservedAnalyses.all().intersect(pa)]) {
      for (const { key, sets } of ANALYSES) expect(both.isPreserved(key, sets)).toBe(pa.isPreserved(key, sets));
    }
  });
});

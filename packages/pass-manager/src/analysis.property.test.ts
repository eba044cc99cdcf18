/**
 * Invalidation properties, against a model of the cache, over random sequences of function
 * passes that each read some analyses and return a random PreservedAnalyses:
 * 1. An analysis is recomputed iff it was not cached: after a pass that did not preserve it (by
 *    key, set or all, and not abandoned), or after an analysis it was computed from was dropped.
 * 2. A preserved analysis whose inputs survived is never recomputed (run counts match exactly).
 * 3. The same holds through a module adaptor for every function independently.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { AnalysisManager, createAdaptor, createPipeline, defineAnalysis, PreservedAnalyses, type Pass } from './index.js';
import { fcOptions } from '@syclkit/testing';
import { functionKind, moduleKind, toyModule, type ToyFunction } from '../test/toy.js';

const SETS_OF: Record<string, readonly string[]> = { a: ['s'], b: ['s', 't'], c: [], d: ['t'], e: [] };
const KEYS = Object.keys(SETS_OF);
/** `e` is computed from `a`. */
const DEPENDS_ON: Record<string, string | undefined> = { e: 'a' };

type Op = { op: 'preserve'; key: string } | { op: 'preserveSet'; set: string } | { op: 'abandon'; key: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom(...KEYS).map((key) => ({ op: 'preserve' as const, key })),
  fc.constantFrom('s', 't').map((set) => ({ op: 'preserveSet' as const, set })),
  fc.constantFrom(...KEYS).map((key) => ({ op: 'abandon' as const, key })),
);
const passArb = fc.record({
  reads: fc.array(fc.constantFrom(...KEYS), { maxLength: 4 }),
  start: fc.boolean(),
  ops: fc.array(opArb, { maxLength: 4 }),
});
type PassSpec = { reads: string[]; start: boolean; ops: Op[] };

function preservedOf({ start, ops }: PassSpec): PreservedAnalyses {
  let pa = start ? PreservedAnalyses.all() : PreservedAnalyses.none();
  for (const o of ops) pa = o.op === 'preserve' ? pa.preserve(o.key) : o.op === 'abandon' ? pa.abandon(o.key) : pa.preserveSet(o.set);
  return pa;
}

function keptByModel({ start, ops }: PassSpec, key: string): boolean {
  const all = start;
  let kept = false;
  let abandoned = false;
  for (const o of ops) {
    if (o.op === 'preserve' && o.key === key) [kept, abandoned] = [true, false];
    else if (o.op === 'abandon' && o.key === key) [kept, abandoned] = [false, true];
    else if (o.op === 'preserveSet' && SETS_OF[key]!.includes(o.set)) kept = true;
  }
  return !abandoned && (all || kept);
}

/** Expected run counts per analysis for one unit going through the passes. */
function modelRuns(passes: readonly PassSpec[]): Record<string, number> {
  const runs: Record<string, number> = Object.fromEntries(KEYS.map((k) => [k, 0]));
  const cached = new Set<string>();
  const read = (key: string): void => {
    if (cached.has(key)) return;
    const dep = DEPENDS_ON[key];
    if (dep !== undefined) read(dep);
    runs[key]!++;
    cached.add(key);
  };
  for (const pass of passes) {
    pass.reads.forEach(read);
    const dropped = new Set([...cached].filter((key) => !keptByModel(pass, key)));
    for (const key of cached) if (DEPENDS_ON[key] !== undefined && dropped.has(DEPENDS_ON[key]!)) dropped.add(key);
    for (const key of dropped) cached.delete(key);
  }
  return runs;
}

function setup() {
  const runs: Record<string, number> = Object.fromEntries(KEYS.map((k) => [k, 0]));
  const analyses: Record<string, ReturnType<typeof defineAnalysis<ToyFunction, string>>> = {};
  for (const key of KEYS) {
    analyses[key] = defineAnalysis({
      name: key,
      unit: functionKind,
      sets: [...SETS_OF[key]!],
      run: (f, am) => {
        runs[key]!++;
        const dep = DEPENDS_ON[key];
        return dep === undefined ? `${key}:${f.name}` : `${key}(${am.getResult(analyses[dep]!, f)})`;
      },
    });
  }
  const toPass = (spec: PassSpec, i: number): Pass<ToyFunction> => ({
    name: `p${i}`,
    unit: functionKind,
    run: (f, ctx) => {
      for (const key of spec.reads) ctx.analyses.getResult(analyses[key]!, f);
      return preservedOf(spec);
    },
  });
  return { runs, toPass };
}

describe('invalidation properties', () => {
  test.prop([fc.array(passArb, { maxLength: 8 })], fcOptions())('an analysis is recomputed iff it was not preserved', (specs) => {
    const { runs, toPass } = setup();
    createPipeline(functionKind, specs.map(toPass)).run({ name: 'f', lines: [] });
    expect(runs).toEqual(modelRuns(specs));
  });

  test.prop([fc.array(passArb, { maxLength: 6 }), fc.integer({ min: 1, max: 4 })], fcOptions(50))(
    'every function of a module follows the model independently through an adaptor',
    (specs, functions) => {
      const { runs, toPass } = setup();
      const module = toyModule('m', Object.fromEntries(Array.from({ length: functions }, (_, i) => [`f${i}`, []])));
      createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, specs.map(toPass))]).run(module, { analyses: new AnalysisManager() });
      const one = modelRuns(specs);
      expect(runs).toEqual(Object.fromEntries(KEYS.map((k) => [k, one[k]! * functions])));
    },
  );
});

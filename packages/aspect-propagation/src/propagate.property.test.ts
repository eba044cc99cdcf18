/**
 * Properties of the pass on generated modules (random call graphs with cycles, self-calls, repeated
 * calls and functions no kernel reaches; aspects from types, from existing `!sycl_used_aspects`
 * and from `!sycl_declared_aspects`; negative aspects included):
 * 1. Closure: each function's `!sycl_used_aspects` holds exactly its own aspects (types it uses,
 *    its existing list, its declared list) plus those of every function it reaches through calls
 *    — the true closure, also inside cycles and for functions no kernel reaches (we document that
 *    we do not reproduce intel/llvm's shared-Visited-set walk, see call-graph.ts). Checked against
 *    a naive reference that walks the graph from each function.
 * 2. Order: on acyclic graphs the list is in intel/llvm's order: a naive recursive reference with
 *    its own SmallSet<int,4> model (used aspects, then declared ones, then the old list).
 * 3. Idempotence: a second run changes nothing (`changed` is false, the printed module is equal).
 *    With excluded aspects a second run saves the same *sets*; the order may change, as it would
 *    in intel/llvm: its order rules (pinned by exclude-aspect.ll) let excluded aspects decide
 *    whether a list reaches five entries and comes out sorted, and a second run reads the first
 *    run's declared aspects back as used ones. See README, "Determinism".
 * 4. Exclusion: an excluded aspect is in a function's list afterwards only if it was in that
 *    function's list before or the function declares it (itself or through calls); every
 *    aspect that is not excluded is still there.
 * The same closure property is also checked directly on closeOverCallGraph with larger graphs,
 * with the components given beforehand (the same sets in the same order), and with no aspect at
 * all (every node keeps its own set, which the pass relies on to skip the closure of declared
 * aspects when nothing declares one).
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { printModule } from '@syclkit/ir';
import { inspect, parse, runPass } from '../test/helpers.js';
import { AspectSet } from './aspect-set.js';
import { closeOverCallGraph, stronglyConnectedComponents } from './call-graph.js';
import { propagateAspectsUsage } from './propagate.js';
import { fcOptions } from '@syclkit/testing';

/** Types %T0..%T5 and the aspect each one uses. */
const TYPE_ASPECTS = [1, 2, 3, -1, 28, 5];
const MD_POOL = [7, 9, -2, 2];
const DECLARED_POOL = [11, 12, 3];

interface GenFunction {
  readonly kernel: boolean;
  readonly types: readonly number[]; // indices into TYPE_ASPECTS, in alloca order
  readonly calls: readonly number[]; // callee indices, in call order
  readonly usedMd: readonly number[] | undefined;
  readonly declaredMd: readonly number[] | undefined;
}

const genModule = (options: { acyclic: boolean }) =>
  fc.integer({ min: 1, max: 9 }).chain((n) =>
    fc.array(
      fc.record({
        kernel: fc.boolean(),
        types: fc.array(fc.integer({ min: 0, max: TYPE_ASPECTS.length - 1 }), { maxLength: 3 }),
        calls: fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 4 }),
        usedMd: fc.option(fc.uniqueArray(fc.constantFrom(...MD_POOL), { minLength: 1, maxLength: 3 }), { nil: undefined }),
        declaredMd: fc.option(fc.uniqueArray(fc.constantFrom(...DECLARED_POOL), { maxLength: 2 }), { nil: undefined, freq: 4 }),
      }),
      { minLength: n, maxLength: n },
    ).map((fns): GenFunction[] =>
      // Acyclic graphs: a function only calls functions after it.
      options.acyclic ? fns.map((f, i) => ({ ...f, calls: f.calls.filter((c) => c > i) })) : fns,
    ),
  );

function moduleText(fns: readonly GenFunction[]): string {
  const lines: string[] = TYPE_ASPECTS.map((_, i) => `%T${i} = type { i32 }`);
  const md: string[] = [];
  let next = 100;
  const node = (values: readonly number[]): string => {
    const id = next++;
    md.push(`!${id} = !{${values.map((v) => `i32 ${v}`).join(', ')}}`);
    return `!${id}`;
  };
  fns.forEach((f, i) => {
    const attachments = [
      ...(f.usedMd === undefined ? [] : [`!sycl_used_aspects ${node(f.usedMd)}`]),
      ...(f.declaredMd === undefined ? [] : [`!sycl_declared_aspects ${node(f.declaredMd)}`]),
    ].join(' ');
    lines.push(`define ${f.kernel ? 'spir_kernel ' : ''}void @f${i}() ${attachments} {`);
    f.types.forEach((t, j) => lines.push(`  %a${j} = alloca %T${t}`));
    for (const c of f.calls) lines.push(`  call void @f${c}()`);
    lines.push('  ret void', '}');
  });
  lines.push(`!sycl_types_that_use_aspects = !{${TYPE_ASPECTS.map((_, i) => `!${10 + i}`).join(', ')}}`);
  TYPE_ASPECTS.forEach((a, i) => lines.push(`!${10 + i} = !{!"T${i}", i32 ${a}}`));
  lines.push('!sycl_aspects = !{!1}', '!1 = !{!"fp64", i32 6}');
  return [...lines, ...md, ''].join('\n');
}

/** Everything reachable from `start` (itself included), walking the calls naively. */
function reach(fns: readonly GenFunction[], start: number): Set<number> {
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length > 0) {
    for (const c of fns[stack.pop()!]!.calls) {
      if (seen.has(c)) continue;
      seen.add(c);
      stack.push(c);
    }
  }
  return seen;
}

const ownAspects = (f: GenFunction): number[] => [...f.types.map((t) => TYPE_ASPECTS[t]!), ...(f.usedMd ?? [])];

/** A second, independent model of LLVM SmallSet<int, 4>. */
class RefSmallSet {
  list: number[] = [];
  big = false;
  add(v: number): void {
    if (this.list.includes(v)) return;
    this.list.push(v);
    if (this.big || this.list.length > 4) {
      this.big = true;
      this.list.sort((a, b) => a - b);
    }
  }
}

/** intel/llvm's list for each function of an acyclic graph, computed by plain recursion. */
function referenceOrder(fns: readonly GenFunction[]): (number[] | undefined)[] {
  const used = new Map<number, RefSmallSet>();
  const declared = new Map<number, RefSmallSet>();
  const closure = (i: number, memo: Map<number, RefSmallSet>, own: (f: GenFunction) => readonly number[]): RefSmallSet => {
    const known = memo.get(i);
    if (known !== undefined) return known;
    const set = new RefSmallSet();
    for (const v of own(fns[i]!)) set.add(v);
    const local = new RefSmallSet();
    for (const c of fns[i]!.calls) for (const v of closure(c, memo, own).list) local.add(v);
    for (const v of local.list) set.add(v);
    memo.set(i, set);
    return set;
  };
  return fns.map((f, i) => {
    const out = new RefSmallSet();
    for (const v of closure(i, used, ownAspects).list) out.add(v);
    for (const v of closure(i, declared, (g) => g.declaredMd ?? []).list) out.add(v);
    if (out.list.length === 0) return undefined;
    for (const v of f.usedMd ?? []) out.add(v);
    return out.list;
  });
}

describe('sycl-propagate-aspects-usage properties', { timeout: 120_000 }, () => {
  test.prop([genModule({ acyclic: false })], fcOptions(150))('each function lists its own aspects and those of everything it reaches', (fns) => {
    const r = runPass(moduleText(fns), { validate: false });
    fns.forEach((_, i) => {
      const expected = new Set<number>();
      for (const j of reach(fns, i)) for (const v of [...ownAspects(fns[j]!), ...(fns[j]!.declaredMd ?? [])]) expected.add(v);
      const actual = r.used(`f${i}`);
      if (expected.size === 0) expect(actual).toBeUndefined();
      else expect(new Set(actual)).toEqual(expected);
      if (actual !== undefined) expect(new Set(actual).size).toBe(actual.length);
    });
  });

  test.prop([genModule({ acyclic: true })], fcOptions(150))("lists aspects in intel/llvm's order on acyclic graphs", (fns) => {
    const r = runPass(moduleText(fns), { validate: false });
    const expected = referenceOrder(fns);
    fns.forEach((f, i) => expect(r.used(`f${i}`)).toEqual(expected[i] ?? f.usedMd));
  });

  test.prop([genModule({ acyclic: false }), fc.constantFrom('validate', 'no-validate')], fcOptions(150))(
    'running the pass twice is running it once',
    (fns, mode) => {
      const options = { validate: mode === 'validate' };
      const module = parse(moduleText(fns));
      propagateAspectsUsage(module, options);
      const once = printModule(module);
      const second = propagateAspectsUsage(module, options);
      expect(second.changed).toBe(false);
      expect(printModule(module)).toBe(once);
    },
  );

  test.prop([genModule({ acyclic: false }), fc.uniqueArray(fc.constantFrom<number>(1, 2, 3, -1, 28, 7, 11), { minLength: 1, maxLength: 3 })], fcOptions(150))(
    'with exclusions, running the pass twice saves the same aspects as running it once',
    (fns, excluded) => {
      const options = { validate: false, excludeAspects: excluded.map(String) };
      const module = parse(moduleText(fns));
      propagateAspectsUsage(module, options);
      const once = inspect(module);
      const lists = fns.map((_, i) => once.used(`f${i}`));
      propagateAspectsUsage(module, options);
      const twice = inspect(module);
      fns.forEach((_, i) => {
        const list = lists[i];
        expect(list === undefined ? undefined : new Set(list)).toEqual(list === undefined ? undefined : new Set(twice.used(`f${i}`)));
      });
    },
  );

  test.prop([genModule({ acyclic: false }), fc.uniqueArray(fc.constantFrom<number>(1, 2, 3, -1, 28, 7, 11), { minLength: 1, maxLength: 3 })], fcOptions(150))(
    'an excluded aspect appears only where it was before or is declared',
    (fns, excluded) => {
      const r = runPass(moduleText(fns), { validate: false, excludeAspects: excluded.map(String) });
      fns.forEach((f, i) => {
        const after = r.used(`f${i}`) ?? [];
        const reached = [...reach(fns, i)];
        const declared = new Set(reached.flatMap((j) => fns[j]!.declaredMd ?? []));
        for (const a of excluded) {
          if (after.includes(a)) expect((f.usedMd ?? []).includes(a) || declared.has(a)).toBe(true);
        }
        const kept = new Set(reached.flatMap((j) => ownAspects(fns[j]!)).filter((a) => !excluded.includes(a)));
        for (const a of kept) expect(after).toContain(a);
      });
    },
  );
});

describe('closeOverCallGraph properties', () => {
  const graph = fc.integer({ min: 1, max: 60 }).chain((n) =>
    fc.tuple(
      fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 5 }), { minLength: n, maxLength: n }),
      fc.array(fc.option(fc.uniqueArray(fc.integer({ min: -3, max: 12 }), { maxLength: 3 }), { nil: undefined }), { minLength: n, maxLength: n }),
    ),
  );

  test.prop([graph], fcOptions(300))('gives every node the union of the own sets of all nodes it reaches', ([succ, own]) => {
    const result = closeOverCallGraph(succ, own.map((o) => (o === undefined ? undefined : new AspectSet(o))));
    succ.forEach((_, i) => {
      const seen = new Set([i]);
      const stack = [i];
      while (stack.length > 0) {
        for (const c of succ[stack.pop()!]!) {
          if (seen.has(c)) continue;
          seen.add(c);
          stack.push(c);
        }
      }
      const expected = new Set([...seen].flatMap((j) => own[j] ?? []));
      expect(new Set(result[i] ?? [])).toEqual(expected);
    });
  });

  test.prop([graph, fc.boolean()], fcOptions(300))('gives the same sets, in the same order, with the components computed beforehand', ([succ, own], closing) => {
    const sets = own.map((o) => (o === undefined ? undefined : new AspectSet(o)));
    const closed = closing ? (node: number): boolean => node % 3 !== 0 : undefined;
    const order = (r: (AspectSet | undefined)[]): (number[] | undefined)[] => r.map((s) => (s === undefined ? undefined : [...s]));
    expect(order(closeOverCallGraph(succ, sets, closed, stronglyConnectedComponents(succ)))).toEqual(order(closeOverCallGraph(succ, sets, closed)));
  });

  // propagateAspectsUsage skips the closure of declared aspects when no function declares one
  test.prop([graph, fc.boolean()], fcOptions(300))('leaves every node its own set when no node has an aspect', ([succ, own], closing) => {
    const empty = own.map((o) => (o === undefined ? undefined : new AspectSet()));
    const result = closeOverCallGraph(succ, empty, closing ? (node: number): boolean => node % 2 === 0 : undefined);
    result.forEach((set, i) => expect(set).toBe(empty[i]));
  });
});

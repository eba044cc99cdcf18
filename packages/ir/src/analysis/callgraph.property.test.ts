/**
 * Properties of the call graph, over generated modules with random direct, cast and indirect
 * calls and address-taken functions:
 * 1. Reachability from any set of roots equals a breadth-first search over a naive adjacency
 *    computed from the generator's data (not from the IR), in the same order.
 * 2. Address-taken functions are exactly the stored or initializer-referenced ones.
 * 3. Callers are the reverse of callees.
 * 4. The strongly connected components partition the functions, come in reverse topological
 *    order (no edge leads to a later component), and members of a component reach each other.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { buildCallGraph } from './callgraph.js';
import { parseModule } from '../reader/parser.js';
import { generatedModule, moduleText, referenceCallEdges } from '../../test/arbitraries.js';
import { fcOptions } from '@syclkit/testing';
import type { IRFunction } from '../model/values.js';

const withRoots = generatedModule({ maxFunctions: 12, maxActions: 6 }).chain((module) =>
  fc.record({ module: fc.constant(module), roots: fc.uniqueArray(fc.nat({ max: module.functions.length - 1 }), { maxLength: 3 }) }),
);

/** Naive BFS in the generator's index space, deduplicating each edge list in first-seen order. */
function naiveReachable(edges: readonly (readonly number[])[], roots: readonly number[]): number[] {
  const seen = new Set<number>();
  const order: number[] = [];
  const visit = (i: number): void => {
    if (seen.has(i)) return;
    seen.add(i);
    order.push(i);
  };
  for (const r of roots) visit(r);
  for (let i = 0; i < order.length; i++) for (const next of edges[order[i]!]!) visit(next);
  return order;
}

describe('call graph', () => {
  test.prop([withRoots], fcOptions(150))('reachability agrees with a naive reference', ({ module, roots }) => {
    const m = parseModule(moduleText(module), { filename: 'gen.ll' });
    const cg = buildCallGraph(m);
    const { edges } = referenceCallEdges(module);
    const byName = (i: number): IRFunction => m.getFunction(module.functions[i]!.name)!;
    // the generator's function order is the module's, and both list callees in first-call order
    const expected = naiveReachable(edges, roots).map((i) => module.functions[i]!.name);
    expect(cg.reachableFrom(roots.map(byName)).map((f) => f.name)).toEqual(expected);
  }, 120_000);

  test.prop([generatedModule({ maxFunctions: 12 })], fcOptions(150))('address-taken functions and reverse edges match the reference', (module) => {
    const m = parseModule(moduleText(module), { filename: 'gen.ll' });
    const cg = buildCallGraph(m);
    const { addressTaken, edges } = referenceCallEdges(module);
    expect(new Set(cg.addressTakenFunctions().map((f) => f.name))).toEqual(new Set([...addressTaken].map((i) => module.functions[i]!.name)));
    module.functions.forEach((f, i) => {
      const expected = new Set(edges[i]!.map((j) => module.functions[j]!.name));
      expect(new Set(cg.callees(m.getFunction(f.name)!).map((g) => g.name))).toEqual(expected);
    });
    for (const f of m.functions) {
      for (const callee of cg.callees(f)) expect(cg.callers(callee)).toContain(f);
      for (const caller of cg.callers(f)) expect(cg.callees(caller)).toContain(f);
    }
  }, 120_000);

  test.prop([generatedModule({ maxFunctions: 14, maxActions: 6 })], fcOptions(150))('components partition the graph in reverse topological order', (module) => {
    const m = parseModule(moduleText(module), { filename: 'gen.ll' });
    const cg = buildCallGraph(m);
    const sccs = cg.stronglyConnectedComponents();
    const component = new Map<IRFunction, number>();
    sccs.forEach((members, i) => members.forEach((f) => component.set(f, i)));
    expect(component.size).toBe(m.functions.length);
    expect(sccs.reduce((n, s) => n + s.length, 0)).toBe(m.functions.length);
    for (const f of m.functions) {
      for (const callee of cg.callees(f)) expect(component.get(callee)!).toBeLessThanOrEqual(component.get(f)!);
    }
    for (const members of sccs) {
      const reach = new Set(cg.reachableFrom([members[0]!]));
      for (const other of members) {
        expect(reach.has(other)).toBe(true);
        expect(new Set(cg.reachableFrom([other])).has(members[0]!)).toBe(true);
      }
    }
  }, 120_000);
});

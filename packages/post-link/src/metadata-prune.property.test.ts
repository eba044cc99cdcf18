/**
 * Properties of GlobalRefIndex (which metadata nodes reach a global), on random graphs of
 * metadata tuples with cycles:
 * 1. Every node's answer is what a plain walk over its operands finds, whichever nodes are asked
 *    first and in whatever order (cycles entered at any node).
 * 2. Asking again gives the same answers (what is remembered is final).
 */
import { describe, expect, it } from 'vitest';
import { fc } from '@fast-check/vitest';
import { parseModule, type Metadata } from '@syclkit/ir';
import { GlobalRefIndex } from './metadata-prune.js';

/** The oracle: a walk over every operand, each node once. */
function reachesGlobal(md: Metadata, seen = new Set<Metadata>()): boolean {
  if (seen.has(md)) return false;
  seen.add(md);
  if (md.mk === 'value') return md.value.vk === 'global';
  if (md.mk === 'tuple') return md.operands.some((op) => op !== null && reachesGlobal(op, seen));
  return false;
}

const graph = fc.integer({ min: 1, max: 10 }).chain((n) =>
  fc.record({
    edges: fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n }),
    globals: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
  }),
);

function moduleText(edges: number[][], globals: boolean[]): string {
  const lines = ['@g = global i32 0', `!named = !{${edges.map((_, i) => `!${i}`).join(', ')}}`];
  edges.forEach((to, i) => {
    const ops = to.map((j) => `!${j}`);
    if (globals[i]) ops.push('ptr @g');
    ops.push(`!"node ${i}"`);
    lines.push(`!${i} = distinct !{${ops.join(', ')}}`);
  });
  return lines.join('\n') + '\n';
}

describe('GlobalRefIndex properties', () => {
  it('answers every node as a plain walk does, in any order of questions, and again the same', () => {
    fc.assert(
      fc.property(graph, ({ edges, globals, order }) => {
        const m = parseModule(moduleText(edges, globals), { filename: 'graph.ll' });
        const nodes = m.getNamedMetadata('named')!;
        const index = new GlobalRefIndex();
        const first = order.map((i) => index.refersToGlobals(nodes[i]!));
        expect(first).toEqual(order.map((i) => reachesGlobal(nodes[i]!)));
        expect(order.map((i) => index.refersToGlobals(nodes[i]!))).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });
});

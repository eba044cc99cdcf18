/**
 * Properties of the verifier's dominator tree (`DominatorTree` in `llvm-verifier.ts`, kept in flat
 * typed arrays), over random control flow of up to 40 blocks (loops, irreducible cycles, repeated
 * edges, unreachable blocks):
 * 1. `isReachable` is reachability from the entry block.
 * 2. `dominates(a, b)` follows the naive reference: true when `b` is unreachable; else false when
 *    `a` is unreachable; else `a === b`, or `b` is unreachable from the entry once `a` is removed.
 * 3. `edgeDominates(start, end, use)` is LLVM's dominance of a block edge, over the reference's
 *    block dominance: `end` dominates `use`, and either `end` has one predecessor edge, or
 *    start→end is taken once and `end` dominates each of its other predecessors.
 */
import { describe, expect } from "vitest";
import fc from "fast-check";
import { test } from "@fast-check/vitest";
import { fcOptions } from "@syclkit/testing";
import { DominatorTree } from "./llvm-verifier.js";
import { parseModule } from "../reader/parser.js";
import { predecessorEdges } from "../model/values.js";

/** Per block, its successors (a `switch` lists them; none: `ret`). */
const graph = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.array(fc.array(fc.nat(n - 1), { maxLength: 3 }), {
      minLength: n,
      maxLength: n,
    })
  );

function functionText(succs: readonly (readonly number[])[]): string {
  const body = succs.map((out, i) => {
    const term =
      out.length === 0
        ? "ret void"
        : `switch i32 %x, label %b${out[0]} [ ${out
            .slice(1)
            .map((s, k) => `i32 ${k + 1}, label %b${s}`)
            .join(" ")} ]`;
    return `b${i}:\n  ${term}`;
  });
  return `define void @f(i32 %x) {\n${body.join("\n")}\n}\n`;
}

/** Blocks reachable from the entry without passing through block `removed` or the edge `cut`. */
function reachable(
  succs: readonly (readonly number[])[],
  removed?: number,
  cut?: readonly [number, number]
): Set<number> {
  if (removed === 0) return new Set();
  const seen = new Set([0]);
  const stack = [0];
  while (stack.length > 0) {
    const from = stack.pop()!;
    for (const to of succs[from]!) {
      if (
        seen.has(to) ||
        to === removed ||
        (cut !== undefined && from === cut[0] && to === cut[1])
      )
        continue;
      seen.add(to);
      stack.push(to);
    }
  }
  return seen;
}

describe("the verifier dominator tree on random control flow", () => {
  test.prop([graph], fcOptions(150))(
    "1-3: reachability, block and edge dominance follow the naive reference",
    (succs) => {
      // the entry block may not have predecessors in valid IR, but the tree does not mind
      const fn = parseModule(functionText(succs), {
        filename: "d.ll",
      }).getFunction("f")!;
      const tree = new DominatorTree(fn, predecessorEdges(fn));
      const blocks = fn.blocks;
      const n = blocks.length;
      const live = reachable(succs);
      for (let b = 0; b < n; b++)
        expect(tree.isReachable(blocks[b]!)).toBe(live.has(b));
      const without = blocks.map((_, a) => reachable(succs, a));
      const dominates = (a: number, b: number): boolean =>
        !live.has(b) || (live.has(a) && (a === b || !without[a]!.has(b)));
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++)
          expect({
            a,
            b,
            dominates: tree.dominates(blocks[a]!, blocks[b]!),
          }).toEqual({ a, b, dominates: dominates(a, b) });
      }
      for (let start = 0; start < n; start++) {
        for (const end of new Set(succs[start]!)) {
          // the predecessor edges of `end`, a block once per edge
          const preds = succs.flatMap((out, p) =>
            out.filter((s) => s === end).map(() => p)
          );
          const fromStart = preds.filter((p) => p === start).length;
          for (let use = 0; use < n; use++) {
            const expected =
              dominates(end, use) &&
              (preds.length === 1 ||
                (fromStart === 1 &&
                  preds.every((p) => p === start || dominates(end, p))));
            expect({
              start,
              end,
              use,
              edge: tree.edgeDominates(
                blocks[start]!,
                blocks[end]!,
                blocks[use]!
              ),
            }).toEqual({ start, end, use, edge: expected });
          }
        }
      }
    },
    30_000
  );
});

/**
 * Properties of `dataLayoutProblem` (LLVM 16's datalayout string checks):
 * 1. Total: any string gets a verdict (a message or undefined), never an exception.
 * 2. Every module whose datalayout it accepts also gets a DataLayout that answers size queries.
 * 3. When LLVM 16's opt is installed: random strings built from datalayout pieces (specifiers,
 *    numbers at the edges of the rules, separators in odd places) get the same verdict as opt's,
 *    with the same message.
 */
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { DataLayout, dataLayoutProblem } from './datalayout.js';
import { Context } from './context.js';
import { llvmTool, runTool } from '../../test/llvm.js';

const number = fc.constantFrom('0', '1', '7', '8', '16', '24', '32', '48', '64', '128', '65536', '16777216', '4294967296', '', 'x');
const specifier = fc.constantFrom('e', 'E', 's', 'p', 'p1', 'p3', 'i', 'i1', 'i64', 'f', 'f80', 'v', 'v128', 'a', 'n', 'S', 'Fi', 'Fn', 'P', 'A', 'G', 'm', 'ni', 'q');
const piece = fc.tuple(specifier, fc.array(number, { maxLength: 4 })).map(([s, nums]) => (s === 'm' ? `m:${nums[0] === 'x' ? 'q' : 'e'}` : [s, ...nums].join(':')));
const layout = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join('-'));

describe('datalayout checks', () => {
  test.prop([fc.string()], fcOptions(300))('1: total on any string', (spec) => {
    const verdict = dataLayoutProblem(spec);
    expect(verdict === undefined || typeof verdict === 'string').toBe(true);
  });

  test.prop([layout], fcOptions(200))('2: an accepted layout answers size queries', (spec) => {
    fc.pre(dataLayoutProblem(spec) === undefined);
    const ctx = new Context();
    const dl = DataLayout.parse(spec);
    expect(dl.abiAlign(ctx.int(64))).toBeGreaterThan(0);
    expect(dl.pointerSizeBits(0)).toBeGreaterThan(0);
  });

  const opt16 = llvmTool('opt');
  // without LLVM 16 there is nothing to compare with (describe.skipIf: test.skipIf has no typed .prop)
  describe.skipIf(opt16 === undefined)('against LLVM 16 opt', () => {
      test.prop([fc.array(layout, { minLength: 1, maxLength: 10 })], fcOptions(30))(
        '3: the same verdict as LLVM 16 opt',
        (specs) => {
          for (const spec of specs) {
            const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], `target datalayout = "${spec}"\n`);
            const theirs = r.status === 0 ? undefined : /error: (.*)/.exec(r.stderr)?.[1];
            expect({ spec, verdict: dataLayoutProblem(spec) }).toEqual({ spec, verdict: theirs });
          }
        },
        120_000,
      );
  });
});

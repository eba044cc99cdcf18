/**
 * Properties of cloning and deletion, over generated modules:
 * 1. A clone of everything prints exactly like the original.
 * 2. Deleting any set of functions with `deleteFunctions` (each mode), then cloning, leaves a
 *    module the verifier accepts, without the deleted functions, whose clone prints the same.
 * 3. Cloning the part reachable from one function (as a module splitter does) gives a module the
 *    verifier accepts, with every kept function defined and nothing unreachable defined.
 * 4. `eraseUnused` leaves a verifiable module that keeps every non-discardable definition.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { buildCallGraph } from '../analysis/callgraph.js';
import { cloneModule } from './clone.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { deleteFunctions, eraseUnused } from './replace.js';
import { generatedModule, moduleText } from '../../test/arbitraries.js';
import { fcOptions } from '@syclkit/testing';
import { verifyModule } from '../verifier/verifier.js';
import type { GlobalValue } from '../model/values.js';

const moduleAndSubset = generatedModule({ maxFunctions: 10 }).chain((module) =>
  fc.record({
    module: fc.constant(module),
    subset: fc.subarray(module.functions.map((f) => f.name)),
    mode: fc.constantFrom('declare' as const, 'poison' as const),
  }),
);

describe('cloning', () => {
  test.prop([generatedModule()], fcOptions(150))('a full clone prints like the original', (module) => {
    const m = parseModule(moduleText(module), { filename: 'gen.ll' });
    expect(printModule(cloneModule(m))).toBe(printModule(m));
  }, 120_000);

  test.prop([moduleAndSubset], fcOptions(150))('deleteFunctions then clone leaves a module the verifier accepts', ({ module, subset, mode }) => {
    const m = parseModule(moduleText(module), { filename: 'gen.ll' });
    const { deleted, declared } = deleteFunctions(m, subset.map((name) => m.getFunction(name)!), { remainingUses: mode });
    const clone = cloneModule(m);
    expect(verifyModule(m)).toEqual([]);
    expect(verifyModule(clone)).toEqual([]);
    expect(printModule(clone)).toBe(printModule(m));
    for (const f of deleted) expect(clone.getFunction(f.name)).toBeUndefined();
    for (const f of declared) expect(clone.getFunction(f.name)?.isDeclaration).toBe(true);
    expect(deleted.length + declared.length).toBe(subset.length);
  }, 120_000);

  test.prop([generatedModule({ maxFunctions: 10 }).chain((module) => fc.record({ module: fc.constant(module), root: fc.nat({ max: module.functions.length - 1 }) }))], fcOptions(150))(
    'a clone of the part reachable from one function is well formed',
    ({ module, root }) => {
      const m = parseModule(moduleText(module), { filename: 'gen.ll' });
      const cg = buildCallGraph(m);
      const reachable = new Set<GlobalValue>(cg.reachableFrom([m.getFunction(module.functions[root]!.name)!]));
      const part = cloneModule(m, { keep: (gv) => reachable.has(gv) || gv.vk === 'global' });
      expect(verifyModule(part)).toEqual([]);
      for (const f of m.functions) {
        const copy = part.getFunction(f.name);
        if (reachable.has(f)) expect(copy?.isDeclaration).toBe(f.isDeclaration);
        else expect(copy === undefined || copy.isDeclaration).toBe(true);
      }
    },
    120_000,
  );

  test.prop([generatedModule()], fcOptions(150))('eraseUnused keeps every root and leaves a verifiable module', (module) => {
    const m = parseModule(moduleText(module), { filename: 'gen.ll' });
    const roots = m.functions.filter((f) => !f.isDeclaration && !f.isDiscardableIfUnused()).map((f) => f.name);
    eraseUnused(m);
    expect(verifyModule(m)).toEqual([]);
    for (const name of roots) expect(m.getFunction(name)?.isDeclaration).toBe(false);
  }, 120_000);
});

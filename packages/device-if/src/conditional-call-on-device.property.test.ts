/**
 * Properties of `rewriteConditionalCallers` on generated modules (see test/conditional-modules.ts):
 * 1. No conditional caller definition is left; each caller became `<name>_<prefix>_<N>` with
 *    N = 1, 2, … in module order, a declaration with the marker attribute.
 * 2. Every call site survives in place as a call `(@action, %callable, condition…)` with the
 *    condition as written; the number of calls per function is unchanged.
 * 3. The printed result parses back and prints the same (the IR stays well formed).
 * 4. With `normalize`, every rewritten condition is in normal form (always-true and always-false
 *    ones in their canonical encodings) and holds on exactly the same devices as the original.
 */
import { fc, test } from '@fast-check/vitest';
import type { CallInst } from '@syclkit/ir';
import { describe, expect } from 'vitest';
import { device } from '../test/arbitraries.js';
import { callerName, generatedModule, holds, markedFunctions, moduleText, sitesOf } from '../test/conditional-modules.js';
import { parse, print } from '../test/ir.js';
import { conditionsEqual, constantConditionSequence, decodeCondition } from './condition.js';
import { rewriteConditionalCallers } from './conditional-call-on-device.js';
import { int32Value } from './ir-utils.js';
import { normalizeCondition } from './normalize.js';
import { fcOptions } from '@syclkit/testing';

/** Generous, so that FC_NUM_RUNS can scale the run count. */
const PROPERTY_TIMEOUT = 120_000;

/** Calls in the module whose first argument is an action, with the callable's site number. */
function rewrittenCalls(text: string, normalize: boolean) {
  const module = parse(text);
  const result = rewriteConditionalCallers(module, { uniquePrefix: 'P', normalize });
  const calls: { in: string; callee: string; action: string; k: number; condition: number[] }[] = [];
  for (const fn of module.functions) {
    for (const inst of fn.instructions()) {
      const call = inst as CallInst;
      if (inst.opcode !== 'call' || !call.calledFunction?.name.startsWith('cc_')) continue;
      const [action, callable, ...condition] = call.args;
      calls.push({
        in: fn.name,
        callee: call.calledFunction.name,
        action: action!.vk === 'function' ? action!.name : '?',
        k: callable!.vk === 'instruction' ? Number(callable!.name.slice(1)) : -1,
        condition: condition.map((value) => int32Value(value)!),
      });
    }
  }
  return { module, result, calls };
}

describe('rewriteConditionalCallers properties', () => {
  test.prop([generatedModule], fcOptions(150))('1, 2, 3: rewrites every caller and call site, numbered in module order', (gen) => {
    const text = moduleText(gen);
    const callerOrder = parse(text)
      .functions.filter((fn) => fn.name.startsWith('cc_'))
      .map((fn) => fn.name);
    const { module, result, calls } = rewrittenCalls(text, false);
    expect(result.diagnostics).toEqual([]);
    expect(result.callers.map((c) => c.declarations)).toEqual(callerOrder.map((name, i) => [`${name}_P_${i + 1}`]));
    expect(markedFunctions(module).every((fn) => fn.isDeclaration)).toBe(true);
    expect(markedFunctions(module).map((fn) => fn.name)).toEqual(callerOrder.map((name, i) => `${name}_P_${i + 1}`));

    const sites = sitesOf(gen);
    expect(calls.map((c) => c.k).sort((a, b) => a - b)).toEqual(sites.map((site) => site.k));
    for (const call of calls) {
      const site = sites[call.k]!;
      expect(call).toEqual({
        in: site.in,
        callee: `${callerName(site.action, site.condition.length)}_P_${callerOrder.indexOf(callerName(site.action, site.condition.length)) + 1}`,
        action: `action${site.action}`,
        k: site.k,
        condition: [...site.condition],
      });
    }
    const printed = print(module);
    expect(print(parse(printed))).toBe(printed);
  }, PROPERTY_TIMEOUT);

  test.prop([generatedModule, fc.array(device, { minLength: 1, maxLength: 4 })], fcOptions(100))(
    '4: normalize writes normal forms that hold on the same devices',
    (gen, devices) => {
      const { calls, result } = rewrittenCalls(moduleText(gen), true);
      expect(result.diagnostics).toEqual([]);
      const sites = sitesOf(gen);
      for (const call of calls) {
        const normal = normalizeCondition(decodeCondition(call.condition));
        // A constant has no encoding of its own; it is written in its canonical six-value form.
        if (normal.kind === 'constant') expect(call.condition).toEqual(constantConditionSequence(normal.value));
        else expect(conditionsEqual(normal, decodeCondition(call.condition))).toBe(true);
        for (const dev of devices) {
          expect(holds(call.condition, dev.aspects, dev.architecture)).toBe(holds(sites[call.k]!.condition, dev.aspects, dev.architecture));
        }
      }
    },
    PROPERTY_TIMEOUT,
  );
});

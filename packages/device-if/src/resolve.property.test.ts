/**
 * Properties of AOT resolution (`resolveConditionalCallsForTarget`) on generated modules with
 * conditional calls (nested ones included) and random targets:
 * 1. Exactly the action calls whose condition holds on the target stay, as direct calls with their
 *    own callable object; no call to a conditional caller and no conditional caller is left.
 * 2. Every kernel and action ends up with its own aspects plus those of every action it now
 *    reaches, which for nested calls means ExpA AND ExpB must hold (oracle: the description).
 * 3. The result does not depend on the order of the module's functions (callers included).
 * 4. Resolving the headers' IR directly and resolving it after `sycl-conditional-call-on-device`
 *    (with or without normalized conditions) give the same result.
 * 5. Resolving twice changes nothing the second time.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { device } from '../test/arbitraries.js';
import { expected, generatedModule, moduleText, observe } from '../test/conditional-modules.js';
import { parse, print } from '../test/ir.js';
import { rewriteConditionalCallers } from './conditional-call-on-device.js';
import { resolveConditionalCallsForTarget } from './resolve.js';
import { fcOptions } from '@syclkit/testing';

/** Generous, so that FC_NUM_RUNS can scale the run count. */
const PROPERTY_TIMEOUT = 120_000;

describe('resolveConditionalCallsForTarget properties', () => {
  test.prop([generatedModule, device], fcOptions(150))(
    '1, 2: keeps exactly the calls whose condition holds and propagates the reached actions\' aspects',
    (gen, dev) => {
      const module = parse(moduleText(gen));
      const result = resolveConditionalCallsForTarget(module, dev.facts);
      // Devices know everything, so nothing is left undecided; arch(0) may warn on x86_64 or tgllp.
      expect(result.diagnostics.filter((p) => p.code !== 'condition-ambiguous-architecture')).toEqual([]);
      expect(observe(module)).toEqual(expected(gen, dev.aspects, dev.architecture));
      expect(module.functions.filter((fn) => fn.name.startsWith('cc_'))).toEqual([]);
    },
    PROPERTY_TIMEOUT,
  );

  test.prop([generatedModule, device, fc.func(fc.integer())], fcOptions(100))(
    '3: does not depend on the order of functions',
    (gen, dev, rank) => {
      const shuffled = parse(moduleText(gen, (names) => [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))));
      const reversed = parse(moduleText(gen, (names) => [...names].reverse()));
      resolveConditionalCallsForTarget(shuffled, dev.facts);
      resolveConditionalCallsForTarget(reversed, dev.facts);
      expect(observe(shuffled)).toEqual(observe(reversed));
    },
    PROPERTY_TIMEOUT,
  );

  test.prop([generatedModule, device, fc.boolean()], fcOptions(100))(
    '4: gives the same result before and after sycl-conditional-call-on-device',
    (gen, dev, normalize) => {
      const text = moduleText(gen);
      const direct = parse(text);
      const rewritten = parse(text);
      rewriteConditionalCallers(rewritten, { uniquePrefix: 'P', normalize });
      const a = resolveConditionalCallsForTarget(direct, dev.facts);
      const b = resolveConditionalCallsForTarget(rewritten, dev.facts);
      expect(observe(rewritten)).toEqual(observe(direct));
      expect(b.calls.map((call) => [call.function, call.action, call.outcome])).toEqual(
        a.calls.map((call) => [call.function, call.action, call.outcome]),
      );
    },
    PROPERTY_TIMEOUT,
  );

  test.prop([generatedModule, device], fcOptions(100))('5: is idempotent', (gen, dev) => {
    const module = parse(moduleText(gen));
    resolveConditionalCallsForTarget(module, dev.facts);
    const once = print(module);
    const again = resolveConditionalCallsForTarget(module, dev.facts);
    expect(again.changed).toBe(false);
    expect(print(module)).toBe(once);
  }, PROPERTY_TIMEOUT);
});

/*
 * Properties of device traits over random target lists (built-in targets, aliases, triples,
 * targets without an entry, and random user entries):
 * 1. A_all ⊆ A_any: whenever all_devices_have<A>, any_device_has<A> (both semantics).
 * 2. The macros agree with the traits API: reading them as the generated header does gives the
 *    same answer for every aspect.
 * 3. Adding a target never adds an __SYCL_ALL_DEVICES_HAVE_ macro and never removes an ANY
 *    macro (design semantics; ANY_ASPECT stands for every __SYCL_ANY_DEVICE_HAS_ macro).
 * 4. The traits equal a direct evaluation of DeviceAspectTraitDesign.md's set definitions over
 *    aspect numbers (reference oracle).
 * 5. The order of targets and repeats do not change the traits.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { builtinAspectTable } from './aspects.js';
import type { TargetConfigEntry } from './config-entry.js';
import { DeviceConfig } from './config.js';
import type { MacroDefinition } from './sycl-targets.js';
import { fcOptions } from '@syclkit/testing';
import { deviceTraitMacros, deviceTraits, type TraitSemantics } from './traits.js';

const builtin = DeviceConfig.builtin();
const aspectNames = builtinAspectTable.names();

const userEntry = fc.record({
  name: fc.constantFrom('user_a', 'user_b', 'intel_gpu_pvc', 'nvidia_gpu_sm_80', 'spir64', 'intel_gpu_bmg_g21'),
  aspects: fc.uniqueArray(fc.constantFrom(...aspectNames), { maxLength: 8 }),
  maySupportOtherAspects: fc.boolean(),
});

/** A configuration (built-in plus random user entries) and a non-empty list of its target spellings. */
const scenario = fc
  .array(userEntry, { maxLength: 3 })
  .map((entries) =>
    builtin.withEntries(
      entries.map((e): TargetConfigEntry => ({ ...e, subGroupSizes: [], aotToolchain: '', aotToolchainOptions: [], source: { kind: 'builtin' } })),
    ),
  )
  .chain((config) => {
    const spellings = [...config.selectableNames(), 'spir64-unknown-unknown'];
    return fc.record({
      config: fc.constant(config),
      targets: fc.array(fc.constantFrom(...spellings), { minLength: 1, maxLength: 5 }),
      extra: fc.constantFrom(...spellings),
    });
  });

const semantics = fc.constantFrom<TraitSemantics>('design', 'intel-llvm');
const probe = fc.oneof(fc.constantFrom(...aspectNames), fc.constantFrom(...builtinAspectTable.values()));

/** How the generated header reads the macros: a defined macro is 1, an undefined one 0. */
function headerView(macros: readonly MacroDefinition[]) {
  const defined = new Set(macros.map((m) => m.name));
  return {
    all: (name: string) => defined.has(`__SYCL_ALL_DEVICES_HAVE_${name}__`),
    any: (name: string) => defined.has('__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__') || defined.has(`__SYCL_ANY_DEVICE_HAS_${name}__`),
  };
}

describe('device trait properties', () => {
  test.prop([scenario, semantics, probe], fcOptions())('all_devices_have implies any_device_has', ({ config, targets }, mode, aspect) => {
    const traits = deviceTraits(config, targets, { semantics: mode });
    if (traits.allDevicesHave(aspect)) expect(traits.anyDeviceHas(aspect)).toBe(true);
    for (const name of traits.allDevicesHaveAspects) expect(traits.anyDeviceHas(name)).toBe(true);
  });

  test.prop([scenario, semantics], fcOptions())('the macros, read as the header reads them, agree with the traits API', ({ config, targets }, mode) => {
    const traits = deviceTraits(config, targets, { semantics: mode });
    const view = headerView(deviceTraitMacros(traits));
    const names = mode === 'design' ? builtinAspectTable.enumerators().map((e) => e.name) : aspectNames;
    for (const name of names) {
      expect(view.all(name), `all ${name}`).toBe(traits.allDevicesHave(name));
      expect(view.any(name), `any ${name}`).toBe(traits.anyDeviceHas(name));
    }
  });

  test.prop([scenario], fcOptions())('adding a target never adds an ALL macro and never removes an ANY macro', ({ config, targets, extra }) => {
    const before = deviceTraitMacros(deviceTraits(config, targets)).map((m) => m.name);
    const after = deviceTraitMacros(deviceTraits(config, [...targets, extra])).map((m) => m.name);
    const all = (names: string[]) => names.filter((n) => n.startsWith('__SYCL_ALL_DEVICES_HAVE_'));
    const anyAspect = '__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__';
    for (const name of all(after)) expect(all(before)).toContain(name);
    if (before.includes(anyAspect)) expect(after).toContain(anyAspect);
    else if (!after.includes(anyAspect)) for (const name of before.filter((n) => n.startsWith('__SYCL_ANY_DEVICE_HAS_'))) expect(after).toContain(name);
  });

  test.prop([scenario, probe], fcOptions())('design semantics equal the set definitions evaluated over aspect numbers', ({ config, targets }, aspect) => {
    const value = builtinAspectTable.resolve(aspect)!;
    // A_all(t) and A_any(t) per DeviceAspectTraitDesign.md, with "every aspect" as null.
    const perTarget = targets.map((spelling) => {
      const entry = config.entryFor(config.resolve(spelling)!);
      const listed = new Set((entry?.aspects ?? []).map((name) => builtinAspectTable.valueOf(name)!));
      return { all: listed, any: entry !== undefined && !entry.maySupportOtherAspects ? listed : null };
    });
    const inAll = perTarget.every((t) => t.all.has(value));
    const inAny = perTarget.some((t) => t.any === null || t.any.has(value));
    const traits = deviceTraits(config, targets);
    expect(traits.allDevicesHave(value)).toBe(inAll);
    expect(traits.anyDeviceHas(value)).toBe(inAny);
    expect(traits.anyDeviceHasAnyAspect).toBe(perTarget.some((t) => t.any === null));
  });

  test.prop([scenario, semantics], fcOptions())('target order and repeats do not change the traits', ({ config, targets }, mode) => {
    const traits = deviceTraits(config, targets, { semantics: mode });
    const shuffled = deviceTraits(config, [...targets].reverse().concat(targets), { semantics: mode });
    expect(deviceTraitMacros(shuffled)).toEqual(deviceTraitMacros(traits));
  });
});

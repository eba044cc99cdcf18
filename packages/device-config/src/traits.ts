/**
 * `sycl::any_device_has` / `sycl::all_devices_have` for a target list, and the driver macros
 * that carry them (DeviceAspectTraitDesign.md).
 *
 * For each target t: A_all(t) is its entry's aspects, or nothing without an entry; A_any(t) is its
 * entry's aspects when may_support_other_aspects is false, otherwise every aspect. Over the
 * list, ALL = the intersection of the A_all and ANY = the union of the A_any.
 */

import { builtinAspectTable, type AspectRef, type AspectTable } from './aspects.js';
import type { DeviceConfig } from './config.js';
import { resolveTarget, type TargetRef } from './queries.js';
import { syclTargetMacros, type MacroDefinition } from './sycl-targets.js';

/**
 * - `design` (default): DeviceAspectTraitDesign.md. Aspects are compared by number, so aliases
 *   and former names count as the enumerator they stand for, and macros use canonical names. A
 *   target without a configuration entry makes ALL empty and ANY everything.
 * - `intel-llvm`: what intel/llvm's driver does (`populateSYCLDeviceTraitsMacrosArgs`). Aspects
 *   are compared by the names written in the entries, and targets without an entry are ignored
 *   (unless no target has one: then ANY is everything and ALL is empty).
 */
export type TraitSemantics = 'design' | 'intel-llvm';

export interface DeviceTraitsOptions {
  readonly semantics?: TraitSemantics;
  /** Table used to compare aspects by number (default: the built-in table). */
  readonly aspectTable?: AspectTable;
}

export interface DeviceTraits {
  readonly semantics: TraitSemantics;
  /** Canonical names of the targets, in order. */
  readonly targets: readonly string[];
  /** `__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__`: some device may have any aspect at all. */
  readonly anyDeviceHasAnyAspect: boolean;
  /** Aspect names in ANY, sorted (meaningful when anyDeviceHasAnyAspect is false). */
  readonly anyDeviceHasAspects: readonly string[];
  /** Aspect names in ALL, sorted. */
  readonly allDevicesHaveAspects: readonly string[];
  /** `any_device_has<aspect>`. */
  anyDeviceHas(aspect: AspectRef): boolean;
  /** `all_devices_have<aspect>`. */
  allDevicesHave(aspect: AspectRef): boolean;
}

/** Computes the traits for a list of targets (at least one; the driver's default list is `spir64`). */
export function deviceTraits(config: DeviceConfig, targets: readonly TargetRef[], options: DeviceTraitsOptions = {}): DeviceTraits {
  if (targets.length === 0) throw new RangeError("device traits need at least one target (the driver's default is spir64)");
  const semantics = options.semantics ?? 'design';
  const table = options.aspectTable ?? builtinAspectTable;
  // Design: compare by number, name by the canonical spelling; intel-llvm: names as written.
  const key = (name: string): string => (semantics === 'design' ? (table.canonicalName(name) ?? name) : name);
  const resolved = targets.map((target) => resolveTarget(config, target));
  const entries = resolved.map((target) => config.entryFor(target));

  let anyDeviceHasAnyAspect = false;
  const any = new Set<string>();
  let all: Set<string> | undefined;
  let counted = 0;
  for (const entry of entries) {
    if (entry === undefined) {
      if (semantics === 'intel-llvm') continue;
      anyDeviceHasAnyAspect = true;
      all = new Set();
      continue;
    }
    counted++;
    const names = new Set(entry.aspects.map(key));
    if (entry.maySupportOtherAspects) anyDeviceHasAnyAspect = true;
    for (const name of names) any.add(name);
    all = all === undefined ? names : new Set([...all].filter((name) => names.has(name)));
  }
  if (semantics === 'intel-llvm' && counted === 0) anyDeviceHasAnyAspect = true;
  const allSet = all ?? new Set<string>();

  const lookup = (aspect: AspectRef): string | undefined => {
    if (typeof aspect === 'number') return table.nameOf(aspect);
    return key(aspect);
  };
  return Object.freeze({
    semantics,
    targets: Object.freeze(resolved.map((t) => t.name)),
    anyDeviceHasAnyAspect,
    anyDeviceHasAspects: Object.freeze([...any].sort()),
    allDevicesHaveAspects: Object.freeze([...allSet].sort()),
    anyDeviceHas(aspect: AspectRef): boolean {
      if (anyDeviceHasAnyAspect) return true;
      const name = lookup(aspect);
      return name !== undefined && any.has(name);
    },
    allDevicesHave(aspect: AspectRef): boolean {
      const name = lookup(aspect);
      return name !== undefined && allSet.has(name);
    },
  });
}

/**
 * The trait macros, in the driver's order: `__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__` or one
 * `__SYCL_ANY_DEVICE_HAS_<aspect>__` per aspect in ANY, then one `__SYCL_ALL_DEVICES_HAVE_<aspect>__`
 * per aspect in ALL; aspects sorted by name; every value 1.
 */
export function deviceTraitMacros(traits: DeviceTraits): readonly MacroDefinition[] {
  const macros: MacroDefinition[] = [];
  if (traits.anyDeviceHasAnyAspect) macros.push({ name: '__SYCL_ANY_DEVICE_HAS_ANY_ASPECT__', value: '1' });
  else for (const name of traits.anyDeviceHasAspects) macros.push({ name: `__SYCL_ANY_DEVICE_HAS_${name}__`, value: '1' });
  for (const name of traits.allDevicesHaveAspects) macros.push({ name: `__SYCL_ALL_DEVICES_HAVE_${name}__`, value: '1' });
  return macros;
}

/**
 * Every macro a driver defines for a target list: the `__SYCL_TARGET_<NAME>__` macros, then the
 * trait macros.
 */
export function driverMacros(config: DeviceConfig, targets: readonly TargetRef[], options: DeviceTraitsOptions = {}): readonly MacroDefinition[] {
  const resolved = targets.map((target) => resolveTarget(config, target));
  return [...syclTargetMacros(config, resolved), ...deviceTraitMacros(deviceTraits(config, resolved, options))];
}

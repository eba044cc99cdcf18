/**
 * Per-target filtering for `-o <target>,<table>` (reference §4, OptionalDeviceFeatures.md "New
 * filtering pass"): an image is compatible with a target when the target's configuration lists
 * every aspect the image requires and the image's required sub-group size (ESIMD images are
 * exempt from the sub-group check). A target the configuration does not know filters nothing, as
 * upstream does.
 */
import { resolveTarget, targetEntry, type DeviceConfig, type TargetConfigEntry } from '@syclkit/device-config';
import type { NamedAspect } from './requirements.js';

/** Why an image is not compatible with a target. */
export type Incompatibility =
  | { readonly kind: 'aspect'; readonly aspect: NamedAspect }
  | { readonly kind: 'sub-group-size'; readonly size: number };

/** What the filter needs to know about an image. */
export interface ImageTargetFacts {
  readonly aspects: readonly NamedAspect[];
  readonly reqdSubGroupSize?: number;
  readonly esimd: boolean;
}

/** The configuration entry of a target, or undefined when the configuration does not know it. */
export function knownTargetEntry(config: DeviceConfig, target: string): TargetConfigEntry | undefined {
  try {
    return targetEntry(config, resolveTarget(config, target));
  } catch {
    return undefined;
  }
}

/** What filtering needs of a target, looked up once per configuration and target (a split asks per image). */
const targetFacts = new WeakMap<DeviceConfig, Map<string, { readonly entry: TargetConfigEntry; readonly aspects: ReadonlySet<string> } | null>>();

function filterFacts(config: DeviceConfig, target: string): { readonly entry: TargetConfigEntry; readonly aspects: ReadonlySet<string> } | undefined {
  let byTarget = targetFacts.get(config);
  if (byTarget === undefined) targetFacts.set(config, (byTarget = new Map()));
  let facts = byTarget.get(target);
  if (facts === undefined) {
    const entry = knownTargetEntry(config, target);
    facts = entry === undefined ? null : { entry, aspects: new Set(entry.aspects) };
    byTarget.set(target, facts);
  }
  return facts ?? undefined;
}

/** The first reason the image cannot run on the target, or undefined when it can (or the target is unknown). */
export function targetIncompatibility(config: DeviceConfig, target: string, facts: ImageTargetFacts): Incompatibility | undefined {
  const known = filterFacts(config, target);
  if (known === undefined) return undefined;
  const { entry, aspects: names } = known;
  for (const aspect of facts.aspects) {
    if (aspect.name === undefined || !names.has(aspect.name)) return { kind: 'aspect', aspect };
  }
  if (!facts.esimd && facts.reqdSubGroupSize !== undefined && !entry.subGroupSizes.includes(facts.reqdSubGroupSize)) {
    return { kind: 'sub-group-size', size: facts.reqdSubGroupSize };
  }
  return undefined;
}

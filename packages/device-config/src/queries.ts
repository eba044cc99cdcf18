/**
 * Questions other packages ask about one target: does it support these aspects, this sub-group
 * size, this work-group size; what is its architecture (device_if leaves).
 *
 * Aspect numbers are interpreted in an AspectTable (pass the module's own `!sycl_aspects` table
 * when answering for IR; the built-in table is the default). Names in configuration entries are
 * mapped through the same table.
 */

import { architectureByName, truncateArchitectureToInt32, type ArchitectureInfo } from './architectures.js';
import { builtinAspectTable, type AspectRef, type AspectTable } from './aspects.js';
import type { TargetConfigEntry } from './config-entry.js';
import type { DeviceConfig, ResolvedTarget } from './config.js';
import { suggest } from '@syclkit/pass-manager';

/** A target given by name, alias or triple, or already resolved. */
export type TargetRef = string | ResolvedTarget;

/**
 * - `yes`: every device of the target supports it.
 * - `no`: no device of the target supports it.
 * - `unknown`: the configuration cannot tell (no entry, may_support_other_aspects, or no data).
 */
export type Support = 'yes' | 'no' | 'unknown';

export interface AspectQueryOptions {
  /** Table that numbers (and entry names) are read with; default: the built-in table. */
  readonly aspectTable?: AspectTable;
}

/** Thrown when a query names a target the configuration does not know. */
export class UnknownTargetError extends Error {
  override readonly name = 'UnknownTargetError';
  constructor(
    readonly target: string,
    readonly suggestion: string | undefined,
  ) {
    super(`unknown SYCL target '${target}'${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`);
  }
}

/** Resolves a target reference, throwing UnknownTargetError (with a suggestion) when it names nothing. */
export function resolveTarget(config: DeviceConfig, target: TargetRef): ResolvedTarget {
  if (typeof target !== 'string') return target;
  const resolved = config.resolve(target);
  if (resolved !== undefined) return resolved;
  throw new UnknownTargetError(target, suggest(target, config.selectableNames()));
}

/** The configuration entry of a target, or undefined when it has none. */
export function targetEntry(config: DeviceConfig, target: TargetRef): TargetConfigEntry | undefined {
  return config.entryFor(resolveTarget(config, target));
}

/** The architecture every device of the target has, or undefined when it is not fixed (e.g. `spir64`). */
export function targetArchitecture(config: DeviceConfig, target: TargetRef): ArchitectureInfo | undefined {
  const name = config.describe(resolveTarget(config, target).name)?.architecture?.name;
  return name === undefined ? undefined : architectureByName(name);
}

/** Is the target's architecture this enumerator (name, alias or 64-bit value)? */
export function targetIsArchitecture(config: DeviceConfig, target: TargetRef, architecture: string | bigint): boolean {
  const own = targetArchitecture(config, target);
  if (own === undefined) return false;
  return typeof architecture === 'bigint' ? own.value === architecture : architectureByName(architecture)?.value === own.value;
}

/**
 * The device_if leaf `-2 <operand>`: compares 32-bit truncations, as the condition encoding
 * does (so the answer inherits its collisions, e.g. x86_64 and intel_gpu_tgllp both give 0).
 */
export function targetMatchesArchitectureOperand(config: DeviceConfig, target: TargetRef, operand: number): boolean {
  const own = targetArchitecture(config, target);
  return own !== undefined && truncateArchitectureToInt32(own.value) === operand;
}

/** Comparable key of an aspect: its number in the table, or its name when the table lacks it. */
function aspectKey(table: AspectTable, aspect: AspectRef): string | undefined {
  if (typeof aspect === 'number') return table.hasValue(aspect) ? `#${aspect}` : undefined;
  const value = table.valueOf(aspect);
  return value === undefined ? `name:${aspect}` : `#${value}`;
}

/** Whether the target supports an aspect (see Support). */
export function aspectSupport(config: DeviceConfig, target: TargetRef, aspect: AspectRef, options: AspectQueryOptions = {}): Support {
  const table = options.aspectTable ?? builtinAspectTable;
  const entry = targetEntry(config, target);
  const key = aspectKey(table, aspect);
  if (entry !== undefined && key !== undefined && entry.aspects.some((name) => aspectKey(table, name) === key)) return 'yes';
  return entry !== undefined && !entry.maySupportOtherAspects ? 'no' : 'unknown';
}

/** The device_if leaf `-1 <aspect>`: is the aspect in the target's aspects list (all its devices have it)? */
export function targetHasAspect(config: DeviceConfig, target: TargetRef, aspect: AspectRef, options: AspectQueryOptions = {}): boolean {
  return aspectSupport(config, target, aspect, options) === 'yes';
}

/** Could some device of the target have the aspect? False only when the entry rules it out. */
export function targetMayHaveAspect(config: DeviceConfig, target: TargetRef, aspect: AspectRef, options: AspectQueryOptions = {}): boolean {
  return aspectSupport(config, target, aspect, options) !== 'no';
}

/** The aspect numbers (in `aspectTable`) every device of the target has; names the table lacks are left out. */
export function targetAspectValues(config: DeviceConfig, target: TargetRef, options: AspectQueryOptions = {}): ReadonlySet<number> {
  const table = options.aspectTable ?? builtinAspectTable;
  const values = new Set<number>();
  for (const name of targetEntry(config, target)?.aspects ?? []) {
    const value = table.valueOf(name);
    if (value !== undefined) values.add(value);
  }
  return values;
}

/** Sub-group size support; an entry without sizes (or no entry) gives `unknown`. */
export function subGroupSizeSupport(config: DeviceConfig, target: TargetRef, size: number): Support {
  const sizes = targetEntry(config, target)?.subGroupSizes ?? [];
  if (sizes.length === 0) return 'unknown';
  return sizes.includes(size) ? 'yes' : 'no';
}

/**
 * Work-group size support, by the portable rule of OptionalDeviceFeatures.md: the total number
 * of work-items must not exceed the device's max_work_group_size (syclkit's simulated value).
 */
export function workGroupSizeSupport(config: DeviceConfig, target: TargetRef, size: number | readonly number[]): Support {
  const max = config.describe(resolveTarget(config, target).name)?.simulated?.maxWorkGroupSize;
  if (max === undefined) return 'unknown';
  const total = typeof size === 'number' ? size : size.reduce((product, dim) => product * dim, 1);
  return total <= max ? 'yes' : 'no';
}

export interface TargetRequirements {
  readonly aspects?: readonly AspectRef[];
  readonly subGroupSize?: number;
  readonly workGroupSize?: number | readonly number[];
}

export type UnmetRequirement =
  | { readonly kind: 'aspect'; readonly aspect: AspectRef; readonly support: Support }
  | { readonly kind: 'sub-group-size'; readonly size: number; readonly supported: readonly number[]; readonly support: Support }
  | { readonly kind: 'work-group-size'; readonly size: number | readonly number[]; readonly support: Support };

export interface RequirementCheckOptions extends AspectQueryOptions {
  /**
   * `possible` (default): report only what the target rules out (`no`) — what AOT filtering
   * needs, since a device of the target might support the rest.
   * `guaranteed`: also report what the target cannot promise (`unknown`).
   */
  readonly mode?: 'possible' | 'guaranteed';
}

/** The requirements a target does not meet (empty when it meets them all). */
export function checkTargetRequirements(
  config: DeviceConfig,
  target: TargetRef,
  requirements: TargetRequirements,
  options: RequirementCheckOptions = {},
): readonly UnmetRequirement[] {
  const resolved = resolveTarget(config, target);
  const fails = (support: Support): boolean => support === 'no' || (support === 'unknown' && options.mode === 'guaranteed');
  const unmet: UnmetRequirement[] = [];
  for (const aspect of requirements.aspects ?? []) {
    const support = aspectSupport(config, resolved, aspect, options);
    if (fails(support)) unmet.push({ kind: 'aspect', aspect, support });
  }
  if (requirements.subGroupSize !== undefined) {
    const support = subGroupSizeSupport(config, resolved, requirements.subGroupSize);
    if (fails(support)) unmet.push({ kind: 'sub-group-size', size: requirements.subGroupSize, supported: config.entryFor(resolved)?.subGroupSizes ?? [], support });
  }
  if (requirements.workGroupSize !== undefined) {
    const support = workGroupSizeSupport(config, resolved, requirements.workGroupSize);
    if (fails(support)) unmet.push({ kind: 'work-group-size', size: requirements.workGroupSize, support });
  }
  return unmet;
}

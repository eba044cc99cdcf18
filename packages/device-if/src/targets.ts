/**
 * Adapters from `@syclkit/device-config` to this package's small interfaces: a configured target as
 * {@link DeviceFacts} (AOT resolution), the configuration as {@link ArchitectureAspects} (the
 * OR-of-architectures simplification), names for printing conditions, and the aspect numbering of
 * a module (its `!sycl_aspects` first).
 */
import {
  ARCHITECTURES,
  AspectTable,
  architecturesForConditionOperand,
  aspectSupport,
  builtinAspectTable,
  resolveTarget,
  targetArchitecture,
  targetAspectValues,
  targetEntry,
  type ArchitectureInfo,
  type DeviceConfig,
  type TargetRef,
} from '@syclkit/device-config';
import type { ArchitectureAspects } from './conditional-aspects.js';
import type { DeviceFacts } from './evaluate.js';
import { createConditionNames, type ConditionNames } from './format.js';

export interface TargetFactsOptions {
  /**
   * The table aspect numbers are read with: pass the module's (`@syclkit/sycl-conventions`' `aspectTableOf`).
   * (default: device-config's built-in table)
   */
  readonly aspectTable?: AspectTable;
}

/** {@link DeviceFacts} of a configured target, with the target's canonical name. */
export interface TargetDeviceFacts extends DeviceFacts {
  /** Canonical target name, e.g. `intel_gpu_pvc`. */
  readonly target: string;
  /** The target's architecture, when it has a fixed one. */
  readonly architectureInfo: ArchitectureInfo | undefined;
}

/**
 * What the device configuration says about every device of one target:
 * - `hasAspect`: the aspect is in the entry's list (device-config's `targetHasAspect`);
 * - `knowsAspect`: false when the entry does not list it but may support other aspects, or when
 *   the target has no entry;
 * - `architecture`: the target's fixed architecture (undefined for e.g. `spir64_gen`), and then
 *   `knowsArchitecture` is false: such a target cannot decide architecture leaves.
 *
 * Throws device-config's `UnknownTargetError` for names the configuration does not know.
 */
export function targetDeviceFacts(config: DeviceConfig, target: TargetRef, options: TargetFactsOptions = {}): TargetDeviceFacts {
  const resolved = resolveTarget(config, target);
  const queryOptions = options.aspectTable === undefined ? {} : { aspectTable: options.aspectTable };
  const support = new Map<number, ReturnType<typeof aspectSupport>>();
  const supportOf = (aspect: number): ReturnType<typeof aspectSupport> => {
    let answer = support.get(aspect);
    if (answer === undefined) {
      answer = aspectSupport(config, resolved, aspect, queryOptions);
      support.set(aspect, answer);
    }
    return answer;
  };
  const info = targetArchitecture(config, resolved);
  return {
    target: resolved.name,
    architectureInfo: info,
    architecture: info?.value,
    knowsArchitecture: info !== undefined,
    hasAspect: (aspect) => supportOf(aspect) === 'yes',
    knowsAspect: (aspect) => supportOf(aspect) !== 'unknown',
  };
}

/**
 * {@link ArchitectureAspects} from the device configuration: the aspects every target whose
 * architecture truncates to the operand surely has. Colliding architectures are intersected (operand
 * 0 stands for x86_64, intel_gpu_bdw and intel_gpu_tgllp; the `unknown` enumerator is not a device
 * architecture and is left out). When one of them has no configuration entry, or may support aspects
 * it does not list, nothing is guaranteed for the operand.
 */
export function targetArchitectureAspects(config: DeviceConfig, options: TargetFactsOptions = {}): ArchitectureAspects {
  const queryOptions = options.aspectTable === undefined ? {} : { aspectTable: options.aspectTable };
  const cache = new Map<number, ReadonlySet<number> | undefined>();
  const compute = (operand: number): ReadonlySet<number> | undefined => {
    const architectures = architecturesForConditionOperand(operand).filter((info) => info.family !== 'unknown');
    if (architectures.length === 0) return undefined;
    let common: Set<number> | undefined;
    for (const info of architectures) {
      const target = info.syclTarget === undefined ? undefined : config.resolve(info.syclTarget);
      const entry = target === undefined ? undefined : targetEntry(config, target);
      if (target === undefined || entry === undefined || entry.maySupportOtherAspects) return undefined;
      const aspects = targetAspectValues(config, target, queryOptions);
      common = common === undefined ? new Set(aspects) : new Set([...common].filter((aspect) => aspects.has(aspect)));
    }
    return common;
  };
  return {
    guaranteedAspects: (operand) => {
      if (!cache.has(operand)) cache.set(operand, compute(operand));
      return cache.get(operand);
    },
  };
}

/**
 * {@link ConditionNames} from an aspect table and the `enum architecture` of device-config (without
 * `unknown`), for messages such as `fp16 && !arch(intel_gpu_pvc)`.
 */
export function deviceConfigConditionNames(aspectTable: AspectTable = builtinAspectTable): ConditionNames {
  return createConditionNames({
    aspects: aspectTable.values().map((value) => [aspectTable.nameOf(value)!, value] as const),
    architectures: ARCHITECTURES.filter((info) => info.family !== 'unknown').map((info) => [info.name, info.value] as const),
  });
}

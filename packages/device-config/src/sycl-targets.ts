/**
 * `-fsycl-targets` and `-fsycl-fixed-targets`: parsing, validation, the AOT target set, and the
 * `__SYCL_TARGET_<NAME>__` macros of DeviceIf.md phase 1.
 */

import type { DeviceConfig, ResolvedTarget } from './config.js';
import type { Diagnostic } from '@syclkit/pass-manager';
import { configDiagnostic } from './diagnostics.js';
import { didYouMean } from '@syclkit/pass-manager';

export interface SyclTargetList {
  /** Targets in command-line order, duplicates dropped. */
  readonly targets: readonly ResolvedTarget[];
  /** Errors make the list unusable; warnings (duplicates) do not. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface ParseSyclTargetsOptions {
  /** Option spelling used in messages (default `-fsycl-targets`). */
  readonly option?: string;
}

/** A preprocessor definition as the driver passes it (`-D<name>=<value>`). */
export interface MacroDefinition {
  readonly name: string;
  readonly value: string;
}

/**
 * Parses a comma-separated `-fsycl-targets` value. Accepts device names and their aliases (from
 * the architecture enum and any configuration file), and the SYCL triples. Applies the driver's
 * rules: an unknown value is an error (with a suggestion); a value that names an
 * already-listed target is dropped with a warning; `spir64_gen` cannot be combined with Intel
 * GPU device names (DeviceIf.md).
 */
export function parseSyclTargets(config: DeviceConfig, value: string, options: ParseSyclTargetsOptions = {}): SyclTargetList {
  const option = options.option ?? '-fsycl-targets';
  const diagnostics: Diagnostic[] = [];
  if (value === '') {
    diagnostics.push(configDiagnostic('empty-target-list', `joined argument expects additional value: '${option}='`));
    return { targets: [], diagnostics };
  }
  const targets: ResolvedTarget[] = [];
  const firstSpellingByKey = new Map<string, string>();
  for (const spelling of value.split(',')) {
    const resolved = config.resolve(spelling);
    if (resolved === undefined) {
      const what = spelling === '' ? `empty target name in '${option}=${value}'` : `SYCL target is invalid: '${spelling}'`;
      diagnostics.push(configDiagnostic('invalid-target', `${what}${spelling === '' ? '' : didYouMean(spelling, config.selectableNames())}`));
      continue;
    }
    // The driver keys duplicates on the normalized triple of the value; a device name keys on the
    // device it selects, so an alias of a listed device is a duplicate too.
    const key = resolved.kind === 'generic' ? `triple:${resolved.triple ?? resolved.name}` : `device:${resolved.name}`;
    const first = firstSpellingByKey.get(key);
    if (first !== undefined) {
      diagnostics.push(configDiagnostic('duplicate-target', `SYCL offloading target '${spelling}' is similar to target '${first}' already specified; will be ignored`));
      continue;
    }
    firstSpellingByKey.set(key, spelling);
    targets.push(resolved);
  }
  const gen = targets.find((t) => t.kind === 'generic' && t.name === 'spir64_gen');
  const intelDevices = targets.filter((t) => t.kind === 'intel_gpu');
  if (gen !== undefined && intelDevices.length > 0) {
    diagnostics.push(
      configDiagnostic(
        'spir64-gen-with-devices',
        `'${gen.spelling}' cannot be combined with Intel GPU device names (${intelDevices.map((t) => `'${t.spelling}'`).join(', ')}) in '${option}'; list the devices only`,
      ),
    );
  }
  return { targets, diagnostics };
}

export interface AotTargetSelection {
  /** Targets that are compiled: JIT targets, and AOT targets also listed in the fixed targets. */
  readonly compiled: readonly ResolvedTarget[];
  /** AOT targets left out because the fixed targets do not list them. */
  readonly skipped: readonly ResolvedTarget[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * `-fsycl-fixed-targets` (OptionalDeviceFeatures.md): with both switches, AOT compilation only
 * happens for targets present in both lists. JIT targets are unaffected; without fixed targets
 * every listed target is compiled. Targets match by canonical name, so aliases match.
 */
export function selectAotTargets(targets: readonly ResolvedTarget[], fixedTargets: readonly ResolvedTarget[] | undefined): AotTargetSelection {
  if (fixedTargets === undefined) return { compiled: targets, skipped: [], diagnostics: [] };
  const fixed = new Set(fixedTargets.map((t) => t.name));
  const compiled = targets.filter((t) => !t.aot || fixed.has(t.name));
  const skipped = targets.filter((t) => t.aot && !fixed.has(t.name));
  const diagnostics: Diagnostic[] = skipped.map((t) =>
    configDiagnostic('target-not-fixed', `'-fsycl-targets' lists '${t.spelling}' but '-fsycl-fixed-targets' does not; device code is not compiled ahead of time for it`),
  );
  return { compiled, skipped, diagnostics };
}

/**
 * The `__SYCL_TARGET_<NAME>__` macro of a target, or undefined for targets without a fixed
 * architecture (JIT and generic triples). Current driver spelling: the canonical name in upper
 * case (`__SYCL_TARGET_NVIDIA_GPU_SM_80__`, `__SYCL_TARGET_AMD_GPU_GFX90A__`), and
 * `__SYCL_TARGET_INTEL_X86_64__` for `spir64_x86_64`.
 */
export function syclTargetMacroName(config: DeviceConfig, target: ResolvedTarget): string | undefined {
  if (target.kind === 'generic') return target.name === 'spir64_x86_64' ? '__SYCL_TARGET_INTEL_X86_64__' : undefined;
  const description = config.describe(target.name);
  if (description?.architecture === undefined) return undefined;
  return `__SYCL_TARGET_${target.name.toUpperCase()}__`;
}

/** `__SYCL_TARGET_<NAME>__=1` for every target that has one, in list order, without repeats. */
export function syclTargetMacros(config: DeviceConfig, targets: readonly ResolvedTarget[]): readonly MacroDefinition[] {
  const names = new Set<string>();
  for (const target of targets) {
    const name = syclTargetMacroName(config, target);
    if (name !== undefined) names.add(name);
  }
  return [...names].map((name) => ({ name, value: '1' }));
}

/** `-D<name>=<value>` flags, one per macro, in order. */
export function formatMacroFlags(macros: readonly MacroDefinition[]): readonly string[] {
  return macros.map((macro) => `-D${macro.name}=${macro.value}`);
}

/**
 * Phase 1 of DeviceIf.md: `if_architecture_is` resolved in the headers from the
 * `__SYCL_TARGET_*__` macros the driver predefines. The macro list itself belongs to
 * `@syclkit/device-config` (`syclTargetMacros`); this module only reads it the way the header's
 * `is_allowable_aot_mode` and `is_aot_for_architecture[]` do.
 */
import {
  architectureByName,
  architectureForSyclTarget,
  syclTargetMacroName,
  syclTargetMacros,
  targetArchitecture,
  type DeviceConfig,
  type MacroDefinition,
  type ResolvedTarget,
} from '@syclkit/device-config';

/** The header's view of one device compilation's targets. */
export interface Phase1TargetView {
  /** The `__SYCL_TARGET_*__=1` macros, exactly device-config's `syclTargetMacros`. */
  readonly macros: readonly MacroDefinition[];
  /** `is_allowable_aot_mode`: some target macro is defined, so `if_architecture_is` may be used. */
  readonly allowableAotMode: boolean;
  /** 64-bit values of the architectures whose macro is defined, in target order. */
  readonly architectures: readonly bigint[];
  /**
   * `device_architecture_is<Archs...>()`: one of the architectures (names, aliases or 64-bit
   * values) has its macro defined. Compares full enum values: macros name architectures, so phase 1
   * does not suffer the 32-bit truncation of phase 2's Condition Expressions.
   */
  architectureIs(architectures: readonly (string | bigint)[]): boolean;
}

/** Thrown where the header's `static_assert` would fire. */
export class Phase1Error extends Error {
  override readonly name = 'Phase1Error';
  render(): string {
    return `error: static assertion failed: ${this.message}`;
  }
}

/** The phase-1 view of the targets of one device compilation (normally one AOT target). */
export function phase1TargetView(config: DeviceConfig, targets: readonly ResolvedTarget[]): Phase1TargetView {
  const macros = syclTargetMacros(config, targets);
  const architectures: bigint[] = [];
  for (const target of targets) {
    if (syclTargetMacroName(config, target) === undefined) continue;
    const info = targetArchitecture(config, target) ?? architectureForSyclTarget(target.name);
    if (info !== undefined && !architectures.includes(info.value)) architectures.push(info.value);
  }
  const defined = new Set(architectures);
  return {
    macros,
    allowableAotMode: macros.length > 0,
    architectures,
    architectureIs: (wanted) =>
      wanted.some((architecture) => {
        if (typeof architecture === 'bigint') return defined.has(architecture);
        const info = architectureByName(architecture);
        if (info === undefined) throw new RangeError(`unknown architecture '${architecture}'`);
        return defined.has(info.value);
      }),
  };
}

/**
 * Which clause of `if_architecture_is<…>(f0).else_if_architecture_is<…>(f1)….otherwise(fn)` runs:
 * the index of the first clause whose architectures match, or `clauses.length` for `otherwise`.
 * Throws {@link Phase1Error} with the header's message when the compilation is not in an allowable
 * AOT mode.
 */
export function selectPhase1Clause(view: Phase1TargetView, clauses: readonly (readonly (string | bigint)[])[]): number {
  if (!view.allowableAotMode) {
    throw new Phase1Error(
      "The if_architecture_is function may only be used when AOT compiling with '-fsycl-targets=spir64_x86_64' or '-fsycl-targets=intel_gpu_*'",
    );
  }
  const index = clauses.findIndex((clause) => view.architectureIs(clause));
  return index < 0 ? clauses.length : index;
}

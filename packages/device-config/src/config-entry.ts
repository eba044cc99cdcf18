import type { FileLocation } from './diagnostics.js';

/** One `aot-toolchain-<option>: <value>` line of a configuration entry. */
export interface AotToolchainOption {
  /** The part after `aot-toolchain-`, e.g. `ocloc-device`. */
  readonly name: string;
  readonly value: string;
}

/** Where an entry came from: the built-in table, or a user file (location of its key). */
export type EntrySource = { readonly kind: 'builtin' } | { readonly kind: 'file'; readonly location: FileLocation };

/**
 * One target of the device configuration (DeviceConfigFile.md): what every device of the target
 * supports. Field meanings follow intel/llvm's `DeviceConfigFile::TargetInfo`.
 */
export interface TargetConfigEntry {
  /** The key: a name as spelled in `-fsycl-targets` (canonical, never an alias). */
  readonly name: string;
  /** Aspect names every device of the target supports, in file order. */
  readonly aspects: readonly string[];
  /** True when some device of the target may support aspects not in `aspects`. */
  readonly maySupportOtherAspects: boolean;
  /** Supported sub-group sizes; empty means "not known". */
  readonly subGroupSizes: readonly number[];
  /** AOT compiler, e.g. `ocloc`; empty when none is known. */
  readonly aotToolchain: string;
  readonly aotToolchainOptions: readonly AotToolchainOption[];
  readonly source: EntrySource;
}

/** Freezes an object graph in place (data tables and config objects are immutable). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

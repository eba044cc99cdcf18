import type { PointerMode } from './ir-types.js';

export interface GeneratorOptions {
  /** PRNG seed; the same options give the same bytes. */
  readonly seed: number;
  /** Number of `spir_kernel` definitions. */
  readonly kernels: number;
  /** Number of translation units the module pretends to be linked from. */
  readonly tus: number;
  /** Total number of function definitions, kernels included. */
  readonly functions: number;
  /** Average number of code segments (loops, branches, switches, ...) per function body. */
  readonly segments: number;
  readonly pointers: PointerMode;
  readonly debugInfo: boolean;
}

export const defaultGeneratorOptions: GeneratorOptions = {
  seed: 1,
  kernels: 32,
  tus: 8,
  functions: 192,
  segments: 2,
  pointers: 'opaque',
  debugInfo: false,
};

export class OptionError extends Error {
  override readonly name = 'OptionError';
}

/**
 * Fills defaults and checks ranges. When `functions` is not given it follows `kernels`
 * (six definitions per kernel), so `--kernels 4000` alone gives a proportionate module.
 */
export function resolveGeneratorOptions(partial: Partial<GeneratorOptions> = {}): GeneratorOptions {
  const kernels = partial.kernels ?? defaultGeneratorOptions.kernels;
  const functions = partial.functions ?? Math.max(kernels, kernels * 6);
  const options: GeneratorOptions = {
    seed: partial.seed ?? defaultGeneratorOptions.seed,
    kernels,
    tus: partial.tus ?? defaultGeneratorOptions.tus,
    functions,
    segments: partial.segments ?? defaultGeneratorOptions.segments,
    pointers: partial.pointers ?? defaultGeneratorOptions.pointers,
    debugInfo: partial.debugInfo ?? defaultGeneratorOptions.debugInfo,
  };
  checkInteger('seed', options.seed, 0, 0xffffffff);
  checkInteger('kernels', options.kernels, 0, 10_000_000);
  checkInteger('tus', options.tus, 1, 100_000);
  checkInteger('functions', options.functions, 0, 50_000_000);
  checkInteger('segments', options.segments, 0, 64);
  if (options.functions < options.kernels) {
    throw new OptionError(`functions (${options.functions}) must be at least kernels (${options.kernels}): kernels are function definitions too`);
  }
  if (options.pointers !== 'opaque' && options.pointers !== 'typed') {
    throw new OptionError(`pointers must be 'opaque' or 'typed', not '${String(options.pointers)}'`);
  }
  return options;
}

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new OptionError(`${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
}

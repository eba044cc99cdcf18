import { createRegistry, type PassEntry, type PassRegistry } from '@syclkit/pass-manager';
import { functionKind, moduleKind } from '@syclkit/ir';

/**
 * Every pass `syclkit` knows, one line each. Contributors add theirs with
 * `registry.extend({ passes: [...] })` (see `--load-pass`).
 */
export const builtinPasses: readonly PassEntry[] = [];

let registry: PassRegistry | undefined;

export function passRegistry(): PassRegistry {
  registry ??= createRegistry({
    unitKinds: [moduleKind, functionKind],
    passes: [...builtinPasses],
  });
  return registry;
}

import type { PassRegistry } from '@syclkit/pass-manager';
import { builtinRegistry } from '@syclkit/passes';

/**
 * The registry `syclkit` parses pipeline text against: `@syclkit/passes`' built-in passes,
 * analyses and presets. Contributors add theirs with `registry.extend({ passes: [...] })` (see
 * `--load-pass`).
 */
export function passRegistry(): PassRegistry {
  return builtinRegistry();
}

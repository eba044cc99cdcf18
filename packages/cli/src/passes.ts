import { createRegistry, type PassRegistry, type RegistryConfig } from '@syclkit/pass-manager';
import { functionKind, moduleKind } from '@syclkit/ir';
import { syclPropagateAspectsUsage } from '@syclkit/aspect-propagation';
import { conditionalCallOnDevicePass, resolveDeviceIfPass } from '@syclkit/device-if';
import { globalDcePass } from './driver/globaldce.js';
import { globalOffsetPass, gpuRetargetPass, localAccessorToSharedMemoryPass, lowerSpirvBuiltinsPass } from '@syclkit/gpu-targets';

/**
 * Every pass `syclkit` knows, one line each. Contributors add theirs with
 * `registry.extend({ passes: [...] })` (see `--load-pass`).
 */
export const builtinPasses: NonNullable<RegistryConfig['passes']> = [
  conditionalCallOnDevicePass,
  resolveDeviceIfPass,
  syclPropagateAspectsUsage,
  globalDcePass,
  globalOffsetPass,
  localAccessorToSharedMemoryPass,
  gpuRetargetPass,
  lowerSpirvBuiltinsPass,
];

let registry: PassRegistry | undefined;

export function passRegistry(): PassRegistry {
  registry ??= createRegistry({
    unitKinds: [moduleKind, functionKind],
    passes: [...builtinPasses],
  });
  return registry;
}

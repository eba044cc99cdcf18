/**
 * Images made the way `@syclkit/post-link`'s library API makes them: the program's linked module
 * split by `splitModule` (design or upstream policy), each image's `SYCL/device requirements` from
 * `computeImageRequirements` / `computeImageProperties`, and AOT rows filtered by
 * `targetIncompatibility` (kept as empty images with their entries and properties, as the
 * `-o <target>,<table>` output does). Only for programs without device_if calls: post-link does not
 * make add-on images yet (see program-model.ts for the test-only builders that do).
 */
import { type DeviceConfig } from '@syclkit/device-config';
import { parseModule, printModule } from '@syclkit/ir';
import { deviceImage, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { computeImageProperties, computeImageRequirements, splitModule, targetIncompatibility, type RequirementPolicy } from '@syclkit/post-link';
import { programModuleText, type ModelProgram, type SplitMode } from './program-model.js';

const encoder = new TextEncoder();

function images(program: ModelProgram, mode: SplitMode, policy: RequirementPolicy, target: string, aot: { config: DeviceConfig; target: string } | undefined): DeviceImage[] {
  if (program.kernels.length === 0) return [];
  const module = parseModule(programModuleText(program), { filename: 'program.ll' });
  const out: DeviceImage[] = [];
  for (const image of splitModule(module, { mode, policy })) {
    const requirements = computeImageRequirements(image.module, image.entryPoints);
    const properties = computeImageProperties({
      module: image.module,
      entryPoints: image.entryPoints,
      esimd: image.esimd,
      requirements,
      ...(aot === undefined ? {} : { compileTarget: aot.target }),
    });
    const entries = image.entryPoints.map((fn) => fn.name);
    const name = `${target}_${image.id}`;
    const filtered =
      aot !== undefined &&
      targetIncompatibility(aot.config, aot.target, { aspects: requirements.aspects, esimd: image.esimd, ...(requirements.reqdSubGroupSize === undefined ? {} : { reqdSubGroupSize: requirements.reqdSubGroupSize }) }) !== undefined;
    out.push(
      filtered
        ? deviceImage({ name, target, image: new Uint8Array(), entries, properties, empty: true })
        : deviceImage({ name, target, image: encoder.encode(printModule(image.module)), entries, properties }),
    );
  }
  return out;
}

/**
 * A `spir64` bundle from post-link's split of the whole program, and an AOT bundle per
 * `aotTargets` entry ([bundle target spelling, configuration target]) holding the kernels compiled
 * for it (fixed-target translation units only for their targets).
 */
export function postLinkBinary(
  program: ModelProgram,
  mode: SplitMode,
  aotTargets: readonly (readonly [string, string])[],
  config: DeviceConfig,
  policy: RequirementPolicy = 'design',
): BinaryDescriptor {
  const bundles = [{ target: 'spir64', images: images(program, mode, policy, 'spir64', undefined) }];
  for (const [spelling, target] of aotTargets) {
    const kept: ModelProgram = {
      fixedTargets: program.fixedTargets,
      kernels: program.kernels.filter((k) => {
        const fixed = program.fixedTargets.get(k.tu);
        return fixed === undefined || fixed.includes(target);
      }),
    };
    bundles.push({ target: spelling, images: images(kept, mode, policy, spelling, { config, target }) });
  }
  return { bundles };
}

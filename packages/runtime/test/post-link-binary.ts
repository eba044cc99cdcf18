/**
 * Binaries made with `@syclkit/post-link`'s library API, as the driver runs it: the program's
 * linked module goes through `runPostLink` (in memory), once for the generic `spir64` table and
 * once per AOT target with `-o <target>,<table>` (device_if decided for the target, rows the target
 * cannot run kept as empty modules with their properties). The tables are then read back the way
 * `syclkit wrap` reads them: code, `.prop` and `.sym` of each row.
 *
 * - `bundling` (design policy by default): OptionalDeviceFeatures.md's split, with DeviceIf.md's
 *   add-on images for device_if calls;
 * - `spec-constants`: the specialization-constant design. post-link refuses it together with
 *   add-on images, and bundles fixed-target translation units with the rest (their image-wide
 *   `fixed_target` then holds for every kernel of the image), so only for programs with neither.
 *
 * The required work-group size is kept in every split mode (`dropReqdWorkGroupSize: false`):
 * post-link drops it without `-split`, as upstream does, but the design's check needs it.
 */
import { type DeviceConfig } from '@syclkit/device-config';
import { readPropertySetRegistry, readSymbolFile, readWrapperBatchTable } from '@syclkit/formats';
import { parseModule } from '@syclkit/ir';
import { classifyDeviceCode, deviceImage, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { runPostLink, type PostLinkOptions, type RequirementPolicy } from '@syclkit/post-link';
import { programModuleText, type ModelProgram, type SplitMode } from './program-model.js';

export type PostLinkStrategy = 'bundling' | 'spec-constants';

/** A text file post-link wrote (latin1, as its IO contract says) as bytes. */
function bytesOf(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? Uint8Array.from(data, (c) => c.charCodeAt(0)) : data;
}

async function images(
  program: ModelProgram,
  bundle: string,
  options: Omit<PostLinkOptions, 'outputs'>,
  target: string | undefined,
): Promise<DeviceImage[]> {
  if (program.kernels.length === 0) return [];
  return imagesOfText(programModuleText(program), bundle, options, target);
}

/** The images post-link makes of a linked module's text for one bundle (`target`: `-o <target>,<table>`). */
export async function imagesOfText(
  text: string,
  bundle: string,
  options: Omit<PostLinkOptions, 'outputs'>,
  target: string | undefined,
  prefix = bundle,
): Promise<DeviceImage[]> {
  const files = new Map<string, string | Uint8Array>();
  const module = parseModule(text, { filename: 'program.ll' });
  const table = `/mem/${bundle}.table`;
  const result = await runPostLink(
    module,
    { ...options, outputs: [target === undefined ? { path: table } : { path: table, target }], symbols: true, properties: true, textIR: true, incompatibleImages: 'empty-module' },
    { writeFile: (path, data) => void files.set(path, data), removeFile: (path) => void files.delete(path) },
  );
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`post-link: ${errors.map((d) => d.message).join('; ')}`);
  const read = (path: string): Uint8Array => {
    const data = files.get(path);
    if (data === undefined) throw new Error(`post-link wrote no file '${path}'`);
    return bytesOf(data);
  };
  return readWrapperBatchTable(result.tables[0]!.table).map((row, i) => {
    const code = read(row.code);
    const empty = classifyDeviceCode(code, row.code).empty;
    return deviceImage({
      name: `${prefix}_${i}`,
      target: bundle,
      image: empty ? new Uint8Array() : code,
      entries: readSymbolFile(read(row.symbols)),
      properties: readPropertySetRegistry(read(row.properties)),
      empty,
    });
  });
}

/**
 * A `spir64` bundle and an AOT bundle per `aotTargets` entry ([bundle target spelling,
 * configuration target]) holding the kernels compiled for it (fixed-target translation units only
 * for their targets).
 */
export async function postLinkBinary(
  program: ModelProgram,
  mode: SplitMode,
  aotTargets: readonly (readonly [string, string])[],
  config: DeviceConfig,
  strategy: PostLinkStrategy = 'bundling',
  policy: RequirementPolicy = 'design',
): Promise<BinaryDescriptor> {
  // post-link drops the required work-group size without -split (upstream's behaviour); the
  // design needs it in the image, or the runtime cannot check it and the JIT fails instead.
  const common = { mode, policy, deviceConfig: config, requirementStrategy: strategy, dropReqdWorkGroupSize: false } as const;
  const bundles = [{ target: 'spir64', images: await images(program, 'spir64', common, undefined) }];
  for (const [spelling, target] of aotTargets) {
    const kept: ModelProgram = {
      fixedTargets: program.fixedTargets,
      kernels: program.kernels.filter((k) => {
        const fixed = program.fixedTargets.get(k.tu);
        return fixed === undefined || fixed.includes(target);
      }),
    };
    bundles.push({ target: spelling, images: await images(kept, spelling, { ...common, deviceIf: { aotTarget: target } }, target) });
  }
  return { bundles };
}

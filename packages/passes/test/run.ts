/** Running the offload pipeline in memory, for tests. */
import { DeviceConfig } from '@syclkit/device-config';
import type { Module } from '@syclkit/ir';
import { ContainerReader, ContainerWriter, type AotCompiler, type ContainerImage } from '@syclkit/offload-wrapper';
import type { Instrumentation, RunResult } from '@syclkit/pass-manager';
import { ImageSet, imageSetKind, type ImageOutput } from '@syclkit/post-link';
import { AOT_COMPILERS, AOT_JOBS, CONTAINER, IMAGE_PREFIXES, builtinRegistry } from '../src/index.js';

export interface OffloadRun {
  readonly result: RunResult;
  readonly set: ImageSet;
  /** Images per bundle target, in container order (empty when the run stopped). */
  readonly bundles: Map<string, ContainerImage[]>;
  readonly bytes: Uint8Array | undefined;
}

export async function runOffload(
  module: Module,
  outputs: readonly ImageOutput[],
  options: { pipeline?: string; compilers?: readonly (AotCompiler | undefined)[]; aotJobs?: number; shard?: { index: number; count: number }; instrumentations?: Instrumentation[] } = {},
): Promise<OffloadRun> {
  const set = new ImageSet(module, { outputs, deviceConfig: DeviceConfig.builtin(), ...(options.shard === undefined ? {} : { shard: options.shard }) });
  const writer = ContainerWriter.toMemory();
  for (const o of outputs) writer.addBundle(o.target ?? o.name);
  set.set(CONTAINER, writer);
  set.set(IMAGE_PREFIXES, outputs.map((o) => `app_${o.target ?? o.name}`));
  if (options.compilers !== undefined) set.set(AOT_COMPILERS, options.compilers);
  if (options.aotJobs !== undefined) set.set(AOT_JOBS, options.aotJobs);
  const result = await builtinRegistry().build(options.pipeline ?? 'offload', { unit: imageSetKind }).runAsync(set, { instrumentations: options.instrumentations ?? [] });
  if (result.stopped) {
    writer.abort();
    return { result, set, bundles: new Map(), bytes: undefined };
  }
  writer.finish();
  const bytes = writer.bytes();
  const reader = ContainerReader.fromBytes(bytes, { fileName: 'app.fatbin' });
  const bundles = new Map<string, ContainerImage[]>();
  for (const image of reader.images) {
    const list = bundles.get(image.target) ?? [];
    list.push(image);
    bundles.set(image.target, list);
  }
  reader.close();
  return { result, set, bundles, bytes };
}

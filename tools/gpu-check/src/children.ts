/**
 * The measurements gpu-check makes in child processes, so that each starts with a fresh driver,
 * a fresh runtime and the driver cache settings of its environment (`CUDA_CACHE_DISABLE`,
 * `CUDA_CACHE_PATH`). Each prints one JSON object.
 */
import { readFileSync } from 'node:fs';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, kernelArg, openCudaPlatform, type KernelArg } from '@syclkit/runtime';
import { DEMO_CASES } from './demo-cases.js';
import type { ParamKind } from './kernel-params.js';
import type { Comparison } from './numbers.js';

export interface JitTimesResult {
  readonly images: readonly {
    readonly image: string;
    readonly kernels: number;
    readonly bytes: number;
    /** The build (cuModuleLoadDataEx) as the back end timed it. */
    readonly buildMs: number;
    /** The same submission again: the runtime's program cache. */
    readonly cachedMs: number;
    readonly driverMs?: number;
    readonly error?: string;
  }[];
}

/** Builds every image of the `target` bundle once (submitting its first kernel), then again from the program cache. */
export function jitTimes(fatbin: string, target: string): JitTimesResult {
  const cuda = openCudaPlatform();
  const device = cuda.devices[0]!;
  const runtime = new Runtime();
  const reader = ContainerReader.open(fatbin);
  runtime.registerFatBinary(reader);
  const bundle = reader.bundles.find((b) => b.target === target);
  const images: JitTimesResult['images'][number][] = [];
  for (const image of bundle?.images ?? []) {
    if (image.empty || image.entries.length === 0) continue;
    const kernel = image.entries[0]!;
    try {
      // A range of the required work-group size, where the kernel has one (the check compares dimensions).
      const required = runtime.resolveKernel(kernel, device).requirements.workGroupSizes[0]?.sizes.map(Number);
      const range = required ?? [1];
      const launch = runtime.queue(device).parallelFor(kernel, range);
      const start = performance.now();
      const again = runtime.queue(device).parallelFor(kernel, range);
      const cachedMs = performance.now() - start;
      if (!again.programCacheHit) throw new Error('the second submission missed the program cache');
      images.push({
        image: image.name,
        kernels: image.entries.length,
        bytes: image.dataLength,
        buildMs: launch.program.buildMilliseconds ?? Number.NaN,
        cachedMs,
        ...(launch.program.compilerMilliseconds === undefined ? {} : { driverMs: launch.program.compilerMilliseconds }),
      });
    } catch (error) {
      images.push({ image: image.name, kernels: image.entries.length, bytes: image.dataLength, buildMs: Number.NaN, cachedMs: Number.NaN, error: error instanceof SyclError ? error.render() : String(error) });
    }
  }
  reader.close();
  cuda.close();
  return { images };
}

export interface FirstLaunchResult {
  readonly image: string;
  readonly imageBytes: number;
  readonly imageKernels: number;
  readonly imagesInBundle: number;
  readonly platformMs: number;
  readonly buildMs: number;
  readonly runMs: number;
  /** From registering the fat binary to the kernel's completion. */
  readonly firstLaunchMs: number;
  /** From the process's start to the kernel's completion. */
  readonly sinceProcessStartMs: number;
}

/** Work-items of the first-launch submission (a 1-D range). */
export const FIRST_LAUNCH_ITEMS = 1024;

/** Arguments for a kernel whose parameters are `params`: buffers of `items` × 64 bytes, ranges of `items`, ids 0, scalars 1. */
export function argumentsFor(params: readonly ParamKind[], items: number): KernelArg[] {
  return params.map((param): KernelArg => {
    switch (param.kind) {
      case 'buffer':
        return kernelArg.buffer(new Uint8Array(items * 64));
      case 'struct': {
        const bytes = new Uint8Array(param.bytes);
        if (/::range\b/.test(param.name)) {
          const view = new DataView(bytes.buffer);
          for (let at = 0; at + 8 <= bytes.length; at += 8) view.setBigUint64(at, BigInt(items), true);
        }
        return kernelArg.bytes(bytes, param.name);
      }
      case 'scalar':
        return kernelArg.scalar(param.type, 1);
    }
  });
}

/** Registers the fat binary and runs `kernel` once with generated arguments, timing each step. */
export function firstLaunch(fatbin: string, target: string, kernel: string, paramsFile: string): FirstLaunchResult {
  const start = performance.now();
  const cuda = openCudaPlatform();
  const device = cuda.devices[0]!;
  const platformMs = performance.now() - start;
  const params = (JSON.parse(readFileSync(paramsFile, 'utf8')) as Record<string, ParamKind[]>)[kernel];
  if (params === undefined) throw new Error(`${paramsFile} has no parameters for ${kernel}`);
  const items = FIRST_LAUNCH_ITEMS;
  const args = argumentsFor(params, items);
  const registered = performance.now();
  const runtime = new Runtime();
  const reader = ContainerReader.open(fatbin);
  runtime.registerFatBinary(reader);
  const launch = runtime.queue(device).parallelFor(kernel, [items], args);
  const done = performance.now();
  const bundle = reader.bundles.find((b) => b.target === target);
  const image = bundle?.images.find((i) => i.name === launch.image);
  reader.close();
  cuda.close();
  return {
    image: launch.image,
    imageBytes: image?.dataLength ?? 0,
    imageKernels: image?.entries.length ?? 0,
    imagesInBundle: bundle?.images.filter((i) => !i.empty).length ?? 0,
    platformMs,
    buildMs: launch.program.buildMilliseconds ?? Number.NaN,
    runMs: launch.execution?.milliseconds ?? Number.NaN,
    firstLaunchMs: done - registered,
    sinceProcessStartMs: done,
  };
}

export interface DemoCaseResult {
  readonly kernel: string;
  readonly image: string;
  readonly comparison: Comparison;
}

/** Runs one demo kernel (by its label) from `fatbin` and compares it with the host: what memcheck reruns when a demo launch faults. */
export function demoCase(fatbin: string, label: string): DemoCaseResult {
  const c = DEMO_CASES.find((d) => d.label === label || d.kernel === label);
  if (c === undefined) throw new Error(`no demo kernel ${label} (${DEMO_CASES.map((d) => d.label).join(', ')})`);
  const cuda = openCudaPlatform();
  const runtime = new Runtime();
  const reader = ContainerReader.open(fatbin);
  try {
    runtime.registerFatBinary(reader);
    const run = c.make(1);
    const launch = runtime.queue(cuda.devices[0]!).parallelFor(c.kernel, [...c.range], run.args);
    return { kernel: c.label, image: launch.image, comparison: run.check() };
  } finally {
    reader.close();
    cuda.close();
  }
}

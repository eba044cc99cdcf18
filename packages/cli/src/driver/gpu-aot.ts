/**
 * The GPU back end in `syclkit compile`: bundles of `nvidia_gpu_sm_*`, `amd_gpu_gfx*`,
 * `nvptx64-nvidia-cuda` and `amdgcn-amd-amdhsa` get native images (PTX, AMDGPU code objects) from
 * `@syclkit/gpu-targets`, as DPC++ makes them. When LLVM 16's llc (and ld.lld for AMD) are not
 * installed, a bundle whose back end was not asked for (`-aot=gpu`) keeps its device IR, with the
 * `gpu-aot-unavailable` warning saying why; an explicit `-aot=gpu` is an error then.
 *
 * `-Xsycl-target-backend=<target> "<args>"` (and `-Xsycl-target-backend "<args>"` for every
 * target) reach the back end: `--offload-arch=`/`--cuda-gpu-arch=` choose the GPU, `-Wl,...` go to
 * ld.lld, the rest to llc.
 */
import type { DeviceConfig, ResolvedTarget } from '@syclkit/device-config';
import { GpuCodegenError, LlvmToolError, RetargetError, findLlvmTool, gpuAotCompilerFor, gpuTripleOf, parseBackendArgs } from '@syclkit/gpu-targets';
import { AotToolError, WrapperError, type AotCompiler } from '@syclkit/offload-wrapper';
import { UsageError } from '../args.js';

/** The back end names that select the GPU back end for a GPU target (`llc` was the naive one). */
export const GPU_BACKEND_NAMES: ReadonlySet<string> = new Set(['gpu', 'llc']);

/** `-Xsycl-target-backend[=<target>] <args>` pairs taken out of argv (`*` for the unscoped form). */
export function extractBackendArgs(argv: readonly string[]): { rest: string[]; backendArgs: Map<string, string[]> } {
  const rest: string[] = [];
  const backendArgs = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?Xsycl-target-backend(?:=(.*))?$/.exec(argv[i]!);
    if (m === null) {
      rest.push(argv[i]!);
      continue;
    }
    const target = m[1] ?? '*';
    if (target === '') throw new UsageError('-Xsycl-target-backend= needs a target: -Xsycl-target-backend=<target> "<args>"');
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`${argv[i - 1]} needs the arguments that follow it`);
    const list = backendArgs.get(target) ?? [];
    list.push(value);
    backendArgs.set(target, list);
  }
  return { rest, backendArgs };
}

/** Whether a target compiles natively through the GPU back end. */
export function isGpuTarget(triple: string | undefined): boolean {
  return triple !== undefined && gpuTripleOf(triple)?.runtime !== undefined;
}

/** LLVM 16 tools a GPU target needs that are not installed (empty: the back end can run). */
export function missingGpuTools(triple: string, find: (tool: 'llc' | 'ld.lld') => string | undefined = findLlvmTool): string[] {
  const needed = gpuTripleOf(triple)?.arch === 'amdgcn' ? (['llc', 'ld.lld'] as const) : (['llc'] as const);
  return needed.filter((t) => find(t) === undefined).map((t) => `${t}-16`);
}

/** The backend arguments of a target: unscoped ones, then those for its spelling (and name). */
export function backendArgsOf(target: ResolvedTarget, all: ReadonlyMap<string, readonly string[]> | undefined): string[] {
  return [...(all?.get('*') ?? []), ...(all?.get(target.spelling) ?? []), ...(target.spelling === target.name ? [] : (all?.get(target.name) ?? []))];
}

/**
 * The device a GPU triple target compiles for when its backend arguments name one
 * (`nvptx64-nvidia-cuda` with `--offload-arch=sm_70` → `nvidia_gpu_sm_70`), so that device_if is
 * decided for it: AMDGPU code objects cannot link device_if add-on images at run time (the CUDA
 * runtime links PTX ones). Undefined for other targets and when no GPU is named.
 */
export function gpuDeviceOf(target: ResolvedTarget, all: ReadonlyMap<string, readonly string[]> | undefined, config: DeviceConfig): string | undefined {
  if (!isGpuTarget(target.triple)) return undefined;
  const nvidia = gpuTripleOf(target.triple!)?.arch === 'nvptx';
  const cpu = parseBackendArgs(backendArgsOf(target, all)).cpu;
  if (cpu === undefined) return undefined;
  return config.resolve(`${nvidia ? 'nvidia_gpu' : 'amd_gpu'}_${cpu}`)?.name;
}

function asWrapperError(error: unknown): unknown {
  if (error instanceof LlvmToolError || error instanceof GpuCodegenError || error instanceof RetargetError) return new AotToolError(error.message);
  return error;
}

/** The GPU back end for a target, its errors reported as the offload wrapper's (diagnostics, not crashes). */
export function gpuCompilerFor(target: string, backendArgs: readonly string[], config: DeviceConfig): AotCompiler {
  let backend;
  try {
    backend = gpuAotCompilerFor(target, { config, backendArgs });
  } catch (error) {
    const converted = asWrapperError(error);
    throw converted instanceof WrapperError ? converted : error;
  }
  return {
    name: 'gpu',
    compile: async (request) => {
      try {
        return await backend.compile(request);
      } catch (error) {
        throw asWrapperError(error);
      }
    },
  };
}

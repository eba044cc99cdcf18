/**
 * The GPU back end of the AOT step: what `syclkit compile` (and `wrap -aot=`) run for
 * `nvidia_gpu_sm_*`, `amd_gpu_gfx*`, `nvptx64-nvidia-cuda` and `amdgcn-amd-amdhsa` bundles. It has
 * the shape of `@syclkit/offload-wrapper`'s `AotCompiler` (a name and `compile(request)`), so the
 * wrapper and the driver take it as one. Images are recorded as native (`ImageFormat.NATIVE`).
 */
import { DeviceConfig } from '@syclkit/device-config';
import { decodeIRText, parseModule } from '@syclkit/ir';
import { DEFAULT_SM, GpuCodegenError, compileGpuImage, parseBackendArgs, type GpuImage } from './codegen.js';
import { LlvmToolError, describeFailure, requireLlvmTool, runToolSync } from './llvm-tools.js';
import { gpuTripleOf } from './target.js';

/** `ImageFormat.NATIVE` of the offload wrapper's descriptors. */
export const NATIVE_IMAGE_FORMAT = 1;

export interface GpuAotRequest {
  /** Device IR of the image (LLVM text or bitcode), for spir64. */
  readonly input: Uint8Array;
  readonly inputPath: string;
  readonly target: string;
  readonly name: string;
}

export interface GpuAotResult {
  readonly image: Uint8Array;
  readonly format: number;
}

export interface GpuAotCompiler {
  readonly name: 'gpu';
  /** The triple and GPU images are made for. */
  readonly triple: string;
  readonly cpu: string;
  compile(request: GpuAotRequest): Promise<GpuAotResult>;
  /** Like `compile`, with what the image holds (kernels, format) for reports. */
  compileImage(request: GpuAotRequest): Promise<GpuImage>;
}

export interface GpuAotOptions {
  /** Resolves target names (default: the built-in configuration). */
  readonly config?: DeviceConfig;
  /** `-Xsycl-target-backend=<target>` arguments for this target. */
  readonly backendArgs?: readonly string[];
  readonly localAccessor?: boolean;
  readonly globalOffset?: boolean;
  readonly env?: NodeJS.ProcessEnv;
}

/** Whether a target (name, alias or triple) is one this back end compiles for. */
export function isGpuAotTarget(target: string, config: DeviceConfig = DeviceConfig.builtin()): boolean {
  const triple = config.describe(target)?.triple ?? target;
  return gpuTripleOf(triple)?.runtime !== undefined;
}

const BITCODE_MAGIC = [0x42, 0x43, 0xc0, 0xde];
const WRAPPER_MAGIC = [0xde, 0xc0, 0x17, 0x0b];

function irText(request: GpuAotRequest, env: NodeJS.ProcessEnv): string {
  const bytes = request.input;
  const starts = (magic: number[]): boolean => magic.every((b, i) => bytes[i] === b);
  if (!starts(BITCODE_MAGIC) && !starts(WRAPPER_MAGIC)) return decodeIRText(Buffer.from(bytes));
  const dis = requireLlvmTool('llvm-dis', `reading the bitcode of ${request.inputPath}`, env);
  const run = runToolSync(dis, ['-o', '-', '-'], bytes);
  if (run.status !== 0) throw new LlvmToolError(`${request.inputPath}: ${describeFailure('llvm-dis', run)}`);
  return decodeIRText(run.stdout);
}

/**
 * The GPU back end for a target: `nvidia_gpu_sm_80` → PTX for sm_80, `amd_gpu_gfx90a` → a gfx90a
 * code object, `nvptx64-nvidia-cuda` → PTX for DPC++'s default (sm_50) unless the backend
 * arguments choose (`--offload-arch=sm_70`), `amdgcn-amd-amdhsa` → needs `--offload-arch=gfxNNN`.
 */
export function gpuAotCompilerFor(target: string, options: GpuAotOptions = {}): GpuAotCompiler {
  const config = options.config ?? DeviceConfig.builtin();
  const description = config.describe(target);
  const triple = description?.triple ?? target;
  const gpu = gpuTripleOf(triple);
  if (gpu?.runtime === undefined) throw new GpuCodegenError(`'${target}' is not an NVIDIA (CUDA) or AMD (HSA) GPU target`);
  const backend = parseBackendArgs(options.backendArgs ?? []);
  const cpu = backend.cpu ?? description?.offloadArch ?? (gpu.arch === 'nvptx' ? DEFAULT_SM : undefined);
  if (cpu === undefined) throw new GpuCodegenError(`'${target}' needs a GPU architecture: use a device name such as amd_gpu_gfx90a, or -Xsycl-target-backend=${target} --offload-arch=gfx90a`);
  const env = options.env ?? process.env;
  const compileImage = async (request: GpuAotRequest): Promise<GpuImage> => {
    const module = parseModule(irText(request, env), { filename: request.inputPath });
    return compileGpuImage(module, {
      target: triple,
      cpu,
      backendArgs: options.backendArgs ?? [],
      ...(options.localAccessor === undefined ? {} : { localAccessor: options.localAccessor }),
      ...(options.globalOffset === undefined ? {} : { globalOffset: options.globalOffset }),
      env,
    });
  };
  return {
    name: 'gpu',
    triple,
    cpu,
    compileImage,
    compile: async (request) => ({ image: (await compileImage(request)).bytes, format: NATIVE_IMAGE_FORMAT }),
  };
}

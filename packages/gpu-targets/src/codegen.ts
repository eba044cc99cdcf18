/**
 * Native GPU images from SPIR device IR, through LLVM 16:
 *
 *   spir64 module ─ retargetModule ─ lowerSpirvBuiltins ─ localaccessortosharedmemory ─ globaloffset
 *     ─ llc -march=nvptx64 -mcpu=sm_XX                      → PTX text (what DPC++ ships for CUDA)
 *     ─ llc -march=amdgcn -mcpu=gfxXXX -filetype=obj
 *         ─ ld.lld -shared                                   → an HSA code object (ELF)
 *
 * Extra arguments reach the tools as `-Xsycl-target-backend` gives them: `llc` options go to llc,
 * `-Wl,<opt>` / `--lld=<opt>` to lld; `--offload-arch=` / `--cuda-gpu-arch=` choose the GPU.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printModule, type Module } from '@syclkit/ir';
import { lowerSpirvBuiltins, type BuiltinProblem } from './builtins.js';
import { addImplicitGlobalOffset } from './global-offset.js';
import { lowerLocalAccessors } from './local-accessor.js';
import { LlvmToolError, describeFailure, requireLlvmTool, runTool } from './llvm-tools.js';
import { GPU_TRIPLES, retargetArch, retargetModule } from './retarget.js';
import type { GpuArch } from './target.js';

export interface GpuImageOptions {
  /** `nvptx64-nvidia-cuda` or `amdgcn-amd-amdhsa` (or `nvptx` / `amdgcn`). */
  readonly target: string;
  /** The GPU: `sm_80`, `gfx90a`, ... (NVPTX default: `sm_50`, DPC++'s; AMDGPU needs one). */
  readonly cpu?: string;
  /** `-Xsycl-target-backend` arguments (see the module comment). */
  readonly backendArgs?: readonly string[];
  /** Lower local accessors (DPC++'s driver asks for it; default `true`). */
  readonly localAccessor?: boolean;
  /** Add the global offset parameter (`-enable-global-offset`, default `true`). */
  readonly globalOffset?: boolean;
  /** Environment for finding LLVM 16's tools (default: `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface GpuImage {
  readonly arch: GpuArch;
  readonly cpu: string;
  /** PTX text (NVPTX) or an ELF shared object (AMDGPU). */
  readonly bytes: Uint8Array;
  readonly format: 'ptx' | 'hsaco';
  /** Kernel entry points of the image, `_with_offset` clones included, in module order. */
  readonly kernels: readonly string[];
}

/** The device IR could not be made into an image (a builtin not lowered, a tool failure). */
export class GpuCodegenError extends Error {
  override readonly name = 'GpuCodegenError';
  constructor(
    message: string,
    readonly problems: readonly BuiltinProblem[] = [],
  ) {
    super(message);
  }
}

/** The default NVIDIA GPU of DPC++'s `nvptx64-nvidia-cuda` target. */
export const DEFAULT_SM = 'sm_50';

interface BackendArgs {
  readonly cpu?: string;
  readonly llc: string[];
  readonly lld: string[];
}

/** Splits `-Xsycl-target-backend` arguments into the GPU choice, llc options and lld options. */
export function parseBackendArgs(args: readonly string[]): BackendArgs {
  let cpu: string | undefined;
  const llc: string[] = [];
  const lld: string[] = [];
  for (const raw of args.flatMap((a) => a.split(/\s+/)).filter((a) => a !== '')) {
    const arch = /^--?(?:offload-arch|cuda-gpu-arch|mcpu)=(.+)$/.exec(raw);
    if (arch !== null) cpu = arch[1]!;
    else if (raw.startsWith('-Wl,')) lld.push(...raw.slice(4).split(','));
    else if (raw.startsWith('--lld=')) lld.push(raw.slice(6));
    else llc.push(raw);
  }
  return { ...(cpu === undefined ? {} : { cpu }), llc, lld };
}

/**
 * The PTX ISA version floor: sub-group collectives use `shfl.sync` and `bar.warp.sync` (PTX 6.0),
 * and LLVM 16 writes debug sections with label differences, which ptxas takes from PTX 7.5 on.
 * LLVM picks the oldest version an sm supports (sm_50: 3.2, sm_80: 7.0), so unless the arguments
 * choose one, a module with debug info gets 7.5 and other modules for sm_50..sm_62 get 6.0.
 */
function ptxFloor(cpu: string, llcArgs: readonly string[], debugInfo: boolean): string[] {
  if (llcArgs.some((a) => /ptx\d+/.test(a))) return [];
  if (debugInfo) return ['-mattr=+ptx75'];
  const sm = Number(/^sm_(\d+)/.exec(cpu)?.[1] ?? '0');
  return sm >= 70 ? [] : ['-mattr=+ptx60'];
}

/**
 * LDS (local memory) that functions reach is laid out by LLVM 16's AMDGPU back end as one module
 * struct allocated in every kernel: an image of many kernels with local arrays (split=off, auto)
 * exceeds the 64 KiB of a work-group. The hybrid strategy (LLVM 17's default) gives each kernel
 * only what it reaches. Unless the arguments choose a strategy.
 */
function ldsStrategy(llcArgs: readonly string[]): string[] {
  return llcArgs.some((a) => a.includes('amdgpu-lower-module-lds-strategy')) ? [] : ['-amdgpu-lower-module-lds-strategy=hybrid'];
}

/** Names of a module's kernels for `arch` (after retargeting: by calling convention). */
function kernelNames(module: Module, arch: GpuArch): string[] {
  const cc = arch === 'nvptx' ? 'ptx_kernel' : 'amdgpu_kernel';
  return module.functions.filter((f) => f.callingConv === cc && !f.isDeclaration).map((f) => f.name);
}

/**
 * Prepares SPIR device IR for a GPU: retargets it, lowers builtins, then runs the SYCL passes its
 * code generator would. Throws a {@link GpuCodegenError} listing every builtin not lowered.
 */
export function prepareGpuModule(spir: Module, options: Pick<GpuImageOptions, 'target' | 'localAccessor' | 'globalOffset'>): Module {
  const { module } = retargetModule(spir, options.target);
  const builtins = lowerSpirvBuiltins(module);
  if (builtins.problems.length > 0) {
    const lines = builtins.problems.map((p) => `  ${p.message}`);
    throw new GpuCodegenError(`${spir.id}: device code uses builtins that are not lowered for ${module.triple}:\n${lines.join('\n')}`, builtins.problems);
  }
  if (module.triple === GPU_TRIPLES.nvptx) dropPubnames(module);
  if (options.localAccessor ?? true) lowerLocalAccessors(module);
  const offset = addImplicitGlobalOffset(module, { enabled: options.globalOffset ?? true });
  if (offset.problems.length > 0) throw new GpuCodegenError(`${spir.id}: ${offset.problems.map((p) => p.message).join('; ')}`);
  return module;
}

/**
 * LLVM 16 writes a `.debug_pubnames` section per compile unit, and ptxas refuses a linked module's
 * several ("overlapping non-identical data"): compile units get `nameTableKind: None`, as clang's
 * DPC++ output has. The retargeted module's context is its own, so its nodes can change in place.
 */
function dropPubnames(module: Module): void {
  for (const cu of module.getNamedMetadata('llvm.dbg.cu') ?? []) {
    if (cu.mk !== 'di' || cu.className !== 'DICompileUnit') continue;
    const kind = cu.fields.get('nameTableKind');
    if (kind === undefined || (kind.k === 'enum' && kind.v === 'Default')) cu.fields.set('nameTableKind', { k: 'enum', v: 'None' });
  }
}

async function withTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'syclkit-gpu-'));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs LLVM 16's llc (and for AMDGPU ld.lld) on a prepared module. */
export async function emitGpuImage(module: Module, options: { readonly cpu?: string; readonly backendArgs?: readonly string[]; readonly env?: NodeJS.ProcessEnv }): Promise<GpuImage> {
  const arch = retargetArch(module.triple);
  const backend = parseBackendArgs(options.backendArgs ?? []);
  const cpu = backend.cpu ?? options.cpu ?? (arch === 'nvptx' ? DEFAULT_SM : undefined);
  if (cpu === undefined) throw new GpuCodegenError(`${module.id}: AMDGPU code needs a GPU architecture (e.g. --offload-arch=gfx90a)`);
  const env = options.env ?? process.env;
  const llc = requireLlvmTool('llc', `compiling ${arch === 'nvptx' ? 'PTX' : 'AMDGPU code objects'}`, env);
  const text = printModule(module);
  const kernels = kernelNames(module, arch);
  if (arch === 'nvptx') {
    const run = await runTool(llc, [`-mtriple=${GPU_TRIPLES.nvptx}`, `-mcpu=${cpu}`, ...ptxFloor(cpu, backend.llc, module.getNamedMetadata('llvm.dbg.cu') !== undefined), ...backend.llc, '-o', '-', '-'], text);
    if (run.status !== 0) throw new LlvmToolError(`${module.id}: ${describeFailure('llc', run)}`, run.status ?? run.signal ?? undefined);
    return { arch, cpu, bytes: new Uint8Array(run.stdout), format: 'ptx', kernels };
  }
  const lld = requireLlvmTool('ld.lld', 'linking AMDGPU code objects', env);
  return withTempDir(async (dir) => {
    const object = join(dir, 'image.o');
    const shared = join(dir, 'image.hsaco');
    const compiled = await runTool(llc, [`-mtriple=${GPU_TRIPLES.amdgcn}`, `-mcpu=${cpu}`, '-filetype=obj', ...ldsStrategy(backend.llc), ...backend.llc, '-o', object, '-'], text);
    if (compiled.status !== 0) throw new LlvmToolError(`${module.id}: ${describeFailure('llc', compiled)}`, compiled.status ?? compiled.signal ?? undefined);
    const linked = await runTool(lld, ['-shared', ...backend.lld, object, '-o', shared]);
    if (linked.status !== 0) throw new LlvmToolError(`${module.id}: ${describeFailure('ld.lld', linked)}`, linked.status ?? linked.signal ?? undefined);
    return { arch, cpu, bytes: new Uint8Array(readFileSync(shared)), format: 'hsaco', kernels };
  });
}

/** {@link prepareGpuModule} then {@link emitGpuImage}. `spir` is left unchanged. */
export async function compileGpuImage(spir: Module, options: GpuImageOptions): Promise<GpuImage> {
  const module = prepareGpuModule(spir, options);
  return emitGpuImage(module, options);
}

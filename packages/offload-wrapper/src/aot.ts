import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DeviceConfig } from '@syclkit/device-config';
import { detectImageFormat, ImageFormat } from './descriptor.js';
import { AotToolError, WrapperError } from './errors.js';
import { llvmSpirvCompiler } from './spirv-translator.js';

/** One image for the AOT step (the "llvm-foreach + ocloc/opencl-aot" step of the driver). */
export interface AotRequest {
  /** The device IR (LLVM bitcode or text) sycl-post-link wrote for this row. */
  readonly input: Uint8Array;
  /** Where it came from, for messages. */
  readonly inputPath: string;
  /** The bundle's target, e.g. `spir64`, `intel_gpu_pvc`, `nvidia_gpu_sm_80`. */
  readonly target: string;
  /** The image name, for messages. */
  readonly name: string;
}

export interface AotResult {
  readonly image: Uint8Array;
  /** Recorded in the descriptor (`ImageFormat`). */
  readonly format: number;
}

/**
 * A pluggable AOT backend. `compile` is never called for empty (filtered) rows. Implementations
 * must be deterministic: same input, same bytes.
 *
 * A backend that works in-process can also offer `compileSync`: the driver's `aot` pass then
 * compiles without waiting on a promise per image (and with `-j N`, on worker threads). Tools
 * that run another process implement `compile` only; the pass awaits them.
 */
export interface AotCompiler {
  /** `ir`, `llvm-spirv`, `llc`, or a custom name. */
  readonly name: string;
  compile(request: AotRequest): Promise<AotResult>;
  /** The same as `compile`, synchronously (optional; same bytes). */
  compileSync?(request: AotRequest): AotResult;
}

/** Where tools are looked for. */
export interface ToolSearch {
  /** Directories to search, in order (default: `defaultToolDirs()`). */
  readonly dirs?: readonly string[];
}

/**
 * `$SYCLKIT_LLVM_BIN`, Debian's `/usr/lib/llvm-16/bin` (the version the IR printer matches) and
 * `/usr/lib/llvm-19/bin`, then the `PATH`.
 */
export function defaultToolDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return [env['SYCLKIT_LLVM_BIN'], '/usr/lib/llvm-16/bin', '/usr/lib/llvm-19/bin', ...(env['PATH'] ?? '').split(delimiter)].filter(
    (dir): dir is string => dir !== undefined && dir !== '',
  );
}

/** The first executable file named one of `names` in the search directories (names first, then dirs). */
export function findTool(names: readonly string[], search: ToolSearch = {}): string | undefined {
  const dirs = search.dirs ?? defaultToolDirs();
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
  }
  return undefined;
}

function requireTool(backend: string, names: readonly string[], search: ToolSearch, hint: string): string {
  const tool = findTool(names, search);
  if (tool !== undefined) return tool;
  const dirs = search.dirs ?? defaultToolDirs();
  throw new AotToolError(
    `the '${backend}' AOT backend needs '${names[0]!}', which is not installed (looked for ${names.join(', ')} in ${dirs.length === 0 ? 'no directories' : dirs.join(', ')}); ${hint}`,
  );
}

/** Runs a tool; a failure is an AotToolError with its exit status and stderr. */
function run(tool: string, args: readonly string[], what: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 1 << 26, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (error === null) {
        resolve();
        return;
      }
      const status = typeof error.code === 'number' ? `exit status ${error.code}` : error.message;
      const detail = stderr.trim().split('\n').slice(0, 6).join('\n');
      reject(new AotToolError(`${what} failed (${status})${detail === '' ? '' : `:\n${detail}`}`, file));
    });
  });
}

/** Runs `body` with a fresh temporary directory, removed afterwards. */
async function withTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'syclkit-aot-'));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The default: the device IR itself is the image, its format detected from its first bytes. */
export function keepIrCompiler(): AotCompiler {
  const compileSync = (request: AotRequest): AotResult => ({ image: request.input, format: detectImageFormat(request.input) });
  return {
    name: 'ir',
    compile: async (request) => compileSync(request),
    compileSync,
  };
}

export interface LlcOptions extends ToolSearch {
  /** `-mtriple`, e.g. `nvptx64-nvidia-cuda` or `amdgcn-amd-amdhsa`. */
  readonly triple: string;
  /** `-mcpu`, e.g. `sm_80` or `gfx90a`. */
  readonly cpu?: string;
  /** `asm` (PTX for NVPTX) or `obj` (an ELF object for AMDGCN). */
  readonly fileType: 'asm' | 'obj';
  /** Path of `llc` (default: searched). */
  readonly tool?: string;
  /** Extra arguments, e.g. `-O3`. */
  readonly args?: readonly string[];
}

/**
 * Native code through LLVM's `llc`: PTX text for NVPTX, an (unlinked) ELF object for AMDGCN. The
 * image format is recorded as `native`.
 */
export function llcCompiler(options: LlcOptions): AotCompiler {
  const tool = options.tool ?? requireTool('llc', ['llc', 'llc-16', 'llc-19'], options, 'install LLVM (e.g. apt-get install llvm-16) or use -aot=ir');
  const args = [`-mtriple=${options.triple}`, ...(options.cpu === undefined ? [] : [`-mcpu=${options.cpu}`]), `-filetype=${options.fileType}`, ...(options.args ?? [])];
  return {
    name: 'llc',
    compile: (request) =>
      withTempDir(async (dir) => {
        const input = join(dir, detectImageFormat(request.input) === ImageFormat.LLVMIR_BITCODE ? 'in.bc' : 'in.ll');
        const output = join(dir, options.fileType === 'asm' ? 'out.s' : 'out.o');
        writeFileSync(input, request.input);
        await run(tool, [...args, input, '-o', output], `llc on ${request.inputPath}`, request.inputPath);
        return { image: new Uint8Array(readFileSync(output)), format: ImageFormat.NATIVE };
      }),
  };
}

/** The backends `aotCompilerFor` (and `syclkit wrap -aot=`) knows. */
export const AOT_BACKENDS = ['ir', 'llvm-spirv', 'llc'] as const;
export type AotBackend = (typeof AOT_BACKENDS)[number];

export interface AotCompilerForOptions extends ToolSearch {
  /** Used to find a target's triple and architecture (default: the built-in configuration). */
  readonly config?: DeviceConfig;
}

/**
 * The backend for a bundle: `ir` for any target; `llvm-spirv` for SPIR-V based targets (`spir64`,
 * Intel GPUs and CPUs); `llc` for NVIDIA (PTX, `-mcpu=sm_NN`) and AMD (`-mcpu=gfxNNN`) targets,
 * taking the triple and architecture from the device configuration. Throws a WrapperError for a
 * backend that cannot serve the target and an AotToolError when its tool is missing.
 */
export function aotCompilerFor(backend: string, target: string, options: AotCompilerForOptions = {}): AotCompiler {
  if (!(AOT_BACKENDS as readonly string[]).includes(backend)) {
    throw new WrapperError(`unknown AOT backend '${backend}'; expected one of ${AOT_BACKENDS.join(', ')}`);
  }
  if (backend === 'ir') return keepIrCompiler();
  const description = (options.config ?? DeviceConfig.builtin()).describe(target);
  const triple = description?.triple ?? target;
  const arch = triple.split('-')[0] ?? '';
  if (backend === 'llvm-spirv') {
    if (!arch.startsWith('spir')) throw new WrapperError(`-aot=llvm-spirv makes SPIR-V, which target '${target}' (${triple}) does not run; use -aot=llc or -aot=ir`);
    return llvmSpirvCompiler(options.dirs === undefined ? {} : { dirs: options.dirs });
  }
  if (arch === 'nvptx64' || arch === 'nvptx') {
    return llcCompiler({ ...options, triple, fileType: 'asm', ...(description?.offloadArch === undefined ? {} : { cpu: description.offloadArch }) });
  }
  if (arch === 'amdgcn') {
    if (description?.offloadArch === undefined) {
      throw new WrapperError(`-aot=llc for '${target}' needs a GPU architecture; use a device name such as amd_gpu_gfx90a`);
    }
    return llcCompiler({ ...options, triple, fileType: 'obj', cpu: description.offloadArch });
  }
  throw new WrapperError(`-aot=llc compiles for NVIDIA and AMD GPUs; target '${target}' (${triple}) is not one (use -aot=llvm-spirv or -aot=ir)`);
}

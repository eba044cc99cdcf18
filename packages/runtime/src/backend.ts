/**
 * Program building. A backend turns the images of one kernel launch (main image and add-on
 * images) into a program for a device, or fails with errc.build_program_failure.
 *
 * The default, `simulatedJitBackend`, behaves like a real JIT compiler in the one way that
 * matters here: it compiles *every* function of the images it is given, and fails when any of
 * them uses a feature the device lacks (an aspect, a sub-group size, a work-group size) — the
 * failure speculative compilation causes in real drivers when kernels with different
 * requirements share an image. Functions whose specialization-constant condition is false are
 * discarded first (SPV_INTEL_spec_conditional's `ConditionalINTEL`), so they cannot fail.
 *
 * It reads LLVM IR text and SPIR-V. In SPIR-V, what a driver checks first is the module's
 * capabilities: a module declaring `Float64` does not build on a device without fp64, whichever
 * function needs it (`SPIRV_CAPABILITY_ASPECTS`), so one unused double anywhere in an image is
 * enough to fail it. LLVM bitcode is not read (`inspected: false`).
 */
import { builtinAspectTable, type AspectTable } from '@syclkit/device-config';
import type { PropertySetRegistry } from '@syclkit/formats';
import type { Device } from './device.js';
import { SyclError, errc } from './errors.js';
import type { KernelArg } from './kernel-args.js';
import type { NdRange, Range } from './ranges.js';
import { isPtxText } from './cuda/ptx.js';
import { isBitcode, isElf, isSpirv, summarizeIrText, summarizeSpirv, type FunctionSummary, type ImageSummary } from './image-summary.js';
import { formatSizes } from './ranges.js';
import { requirementEntries } from './requirements.js';

/** One image handed to a backend. */
export interface ProgramImage {
  readonly name: string;
  /** Target of the image's bundle. */
  readonly target: string;
  readonly format: number;
  /**
   * `main`: the image that defines the kernel; `add-on`: a DeviceIf add-on image linked with it;
   * `import`: an image that exports device functions the others import (dynamic linking).
   */
  readonly role: 'main' | 'add-on' | 'import';
  readonly entries: readonly string[];
  readonly properties: PropertySetRegistry;
  readonly bytes: Uint8Array;
  /** Boolean specialization constants by SpecId, set for the device (see imageSpecConstants). */
  readonly specConstants: ReadonlyMap<number, boolean>;
}

export interface BuildRequest {
  readonly device: Device;
  /** The kernel being launched (the program must define it). */
  readonly kernel: string;
  /** The main image first, then add-on and imported images in the order they were resolved. */
  readonly images: readonly ProgramImage[];
}

/** A built program. */
export interface Program {
  /** The backend's name. */
  readonly backend: string;
  readonly device: string;
  readonly images: readonly string[];
  /** Kernels the program defines (after discarding). */
  readonly kernels: readonly string[];
  /**
   * Functions compiled (defined and not discarded), in image order. A local (internal) function
   * whose name another image of the program also defines or declares is listed as `<image>:<name>`.
   */
  readonly functions: readonly string[];
  /** The image each compiled function (as listed in `functions`) comes from. */
  readonly sources: ReadonlyMap<string, string>;
  /** Functions discarded because their specialization-constant condition is false. */
  readonly discarded: readonly string[];
  /** Functions the compiled code refers to that no image defines (builtins and intrinsics left out). */
  readonly unresolved: readonly string[];
  /** False when some image was a binary format the backend could not look into. */
  readonly inspected: boolean;
  /** What the device compiler said while building (a real driver's JIT log), when there is anything. */
  readonly buildLog?: string;
  /** Wall time of the build in milliseconds, when the backend measures it. */
  readonly buildMilliseconds?: number;
  /** The device compiler's own time for the build (the CUDA JIT's `CU_JIT_WALL_TIME`), when it reports one. */
  readonly compilerMilliseconds?: number;
}

/** A kernel to run on the device, with its arguments. */
export interface ExecuteRequest {
  readonly device: Device;
  readonly kernel: string;
  /** The program the runtime built (or took from its cache) for this launch. */
  readonly program: Program;
  /** The range, nd_range, or undefined for single_task. */
  readonly range: Range | NdRange | undefined;
  /** The arguments the kernel function takes (those `sycl_kernel_omit_args` dropped are left out). */
  readonly args: readonly KernelArg[];
}

/** What running a kernel did. */
export interface Execution {
  readonly backend: string;
  /** Work-groups per dimension and work-items per work-group, in the device API's order (x first). */
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  /** Host wall time from the launch call to the device finishing, in milliseconds. */
  readonly milliseconds: number;
  /** Bytes copied to the device before the launch and back after it. */
  readonly bytesIn: number;
  readonly bytesOut: number;
}

export interface ProgramBackend {
  readonly name: string;
  /** Builds a program; throws a SyclError (errc.build_program_failure) when it cannot. */
  build(request: BuildRequest): Program;
  /**
   * Runs a kernel of a program this backend built, with arguments (buffers copied in and back).
   * Backends that only model building (the simulated JIT) have none.
   */
  execute?(request: ExecuteRequest): Execution;
  /** Frees what the backend holds for a program the runtime dropped from its cache. */
  release?(program: Program): void;
}

export interface SimulatedJitOptions {
  /**
   * Fail on a function whose `!reqd_work_group_size` exceeds the device's limits (default true).
   * Intel's compiler does not, but other backends may (OptionalDeviceFeatures.md), so the default
   * is the strict one.
   */
  readonly checkWorkGroupSize?: boolean;
  /** Aspect names for messages (default: the built-in table). */
  readonly aspectTable?: AspectTable;
}

/**
 * SPIR-V capabilities a device has only with an optional aspect, as OpenCL and Level Zero drivers
 * refuse modules declaring them: `Float64` (cl_khr_fp64), `Float16` (cl_khr_fp16; `Float16Buffer`,
 * half as a storage format only, is core and needs nothing), `Int64Atomics`
 * (cl_khr_int64_base_atomics / extended_atomics: aspect `atomic64`), `ImageBasic` (images).
 */
export const SPIRV_CAPABILITY_ASPECTS: Readonly<Record<string, string>> = {
  Float64: 'fp64',
  Float16: 'fp16',
  Int64Atomics: 'atomic64',
  ImageBasic: 'image',
};

const BUILTIN_PREFIXES = ['llvm.', '__spirv', '__devicelib_', '__builtin_', '__esimd_', '__assert_fail', '__sycl'];

function isBuiltin(name: string): boolean {
  if (BUILTIN_PREFIXES.some((prefix) => name.startsWith(prefix))) return true;
  // Itanium-mangled builtins: _Z<len>__spirv_..., _Z<len>__sycl_...
  return /^_Z\d+__(spirv|sycl|esimd)/.test(name);
}

/**
 * The functions discarded by specialization constants. Where the IR carries conditions
 * (`!sycl_requirement_condition`, an OR of AND-terms of SpecIds, as post-link's spec-constant
 * strategy writes them), a function is discarded when no term has every SpecId true; a SpecId the
 * runtime did not set counts as false (`OpSpecConstantFalse`). In an image without them, the
 * conditions are derived as the design defines them: a kernel or exported function listed in
 * `SYCL/requirements` is discarded when one of its SpecIds is false; any other function when some
 * listed function reaches it and no kept one does (the OR of its callers' conditions).
 */
export function discardedFunctions(
  images: readonly ProgramImage[],
  functions: ReadonlyMap<string, FunctionSummary>,
  owner: ReadonlyMap<string, string> = new Map(),
): Set<string> {
  const discarded = new Set<string>();
  const explicit = new Set<string>();
  const imageOf = new Map(images.map((image) => [image.name, image]));
  for (const [name, fn] of functions) {
    if (!fn.defined || fn.condition === undefined) continue;
    const image = imageOf.get(owner.get(name) ?? '');
    if (image === undefined) continue;
    explicit.add(image.name);
    if (!fn.condition.some((term) => term.every((id) => image.specConstants.get(id) === true))) discarded.add(name);
  }
  const roots: string[] = [];
  const keptRoots: string[] = [];
  for (const image of images) {
    if (explicit.has(image.name)) continue;
    for (const [name, entries] of requirementEntries(image)) {
      if (functions.get(name)?.defined !== true) continue;
      roots.push(name);
      if (entries.every((entry) => image.specConstants.get(entry.specId) !== false)) keptRoots.push(name);
    }
  }
  if (roots.length === keptRoots.length) return discarded;
  const reach = (from: readonly string[]): Set<string> => {
    const seen = new Set<string>(from);
    const stack = [...from];
    while (stack.length > 0) {
      for (const callee of functions.get(stack.pop()!)?.references ?? []) {
        if (!seen.has(callee) && functions.get(callee)?.defined === true) {
          seen.add(callee);
          stack.push(callee);
        }
      }
    }
    return seen;
  };
  const kept = reach(keptRoots);
  for (const name of reach(roots)) if (!kept.has(name)) discarded.add(name);
  return discarded;
}

/**
 * Links the images of a program as a device linker does: a function defined outside its image
 * (strong or weak) is one symbol program-wide — a second strong definition is an error, weak
 * (linkonce, ODR) duplicates merge and the first stays —, a local (internal) function belongs to
 * its image, and each image's references go to its own local functions first. The result is keyed
 * by symbol: the function's name, or `<image>:<name>` for a local function whose name another
 * image also defines or declares; references are rewritten to those keys.
 */
function linkImages(summaries: readonly { image: ProgramImage; summary: ImageSummary }[]): {
  functions: Map<string, FunctionSummary>;
  owner: Map<string, string>;
  order: string[];
} {
  const global = new Map<string, { fn: FunctionSummary; image: string }>();
  // How many images name each function (define or declare it): a local function keeps its plain
  // name as key only when no other image names it.
  const mentions = new Map<string, number>();
  for (const { image, summary } of summaries) {
    for (const fn of summary.functions) {
      mentions.set(fn.name, (mentions.get(fn.name) ?? 0) + 1);
      if (!fn.defined || fn.binding === 'local') continue;
      const existing = global.get(fn.name);
      if (existing === undefined) {
        global.set(fn.name, { fn, image: image.name });
      } else if (fn.binding === 'strong' && existing.fn.binding === 'strong') {
        throw new SyclError(errc.build_program_failure, `Build failed: function '${fn.name}' is defined in both '${existing.image}' and '${image.name}'`);
      } else if (fn.binding === 'strong') {
        global.set(fn.name, { fn, image: image.name });
      }
    }
  }
  const functions = new Map<string, FunctionSummary>();
  const owner = new Map<string, string>();
  const order: string[] = [];
  for (const { image, summary } of summaries) {
    const localKey = new Map<string, string>();
    for (const fn of summary.functions) {
      if (fn.defined && fn.binding === 'local') localKey.set(fn.name, (mentions.get(fn.name) ?? 0) > 1 ? `${image.name}:${fn.name}` : fn.name);
    }
    const relink = (fn: FunctionSummary): FunctionSummary =>
      fn.references.some((ref) => localKey.has(ref)) ? { ...fn, references: fn.references.map((ref) => localKey.get(ref) ?? ref) } : fn;
    for (const fn of summary.functions) {
      if (fn.defined && fn.binding === 'local') {
        const key = localKey.get(fn.name)!;
        functions.set(key, relink(fn));
        owner.set(key, image.name);
        order.push(key);
      } else if (fn.defined) {
        if (global.get(fn.name)?.image !== image.name || owner.has(fn.name)) continue;
        functions.set(fn.name, relink(fn));
        owner.set(fn.name, image.name);
        order.push(fn.name);
      } else if (!functions.has(fn.name) && !global.has(fn.name)) {
        functions.set(fn.name, fn);
      }
    }
  }
  return { functions, owner, order };
}

/** The simulated JIT compiler (see the module comment). */
export function simulatedJitBackend(options: SimulatedJitOptions = {}): ProgramBackend {
  const table = options.aspectTable ?? builtinAspectTable;
  const checkWorkGroup = options.checkWorkGroupSize ?? true;
  const summaries = new WeakMap<Uint8Array, ImageSummary | 'opaque'>();

  const summaryOf = (image: ProgramImage): ImageSummary | 'opaque' => {
    let summary = summaries.get(image.bytes);
    if (summary === undefined) {
      // Bitcode, PTX and ELF code objects are device code the simulation does not read.
      if (isBitcode(image.bytes) || isPtxText(image.bytes) || isElf(image.bytes)) summary = 'opaque';
      else if (isSpirv(image.bytes)) {
        try {
          summary = summarizeSpirv(image.bytes, image.name);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new SyclError(errc.build_program_failure, `Build of device image '${image.name}' failed: the image is not a valid SPIR-V module: ${reason}`);
        }
      } else {
        try {
          summary = summarizeIrText(image.bytes, image.name);
        } catch (error) {
          const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
          throw new SyclError(errc.build_program_failure, `Build of device image '${image.name}' failed: the image is not valid LLVM IR: ${reason}`);
        }
      }
      summaries.set(image.bytes, summary);
    }
    return summary;
  };

  return {
    name: 'simulated-jit',
    build(request) {
      const { device } = request;
      let inspected = true;
      const summaries: { image: ProgramImage; summary: ImageSummary }[] = [];
      for (const image of request.images) {
        const summary = summaryOf(image);
        if (summary === 'opaque') inspected = false;
        else summaries.push({ image, summary });
      }
      for (const { image, summary } of summaries) {
        for (const capability of summary.capabilities ?? []) {
          const aspect = SPIRV_CAPABILITY_ASPECTS[capability];
          const value = aspect === undefined ? undefined : table.valueOf(aspect);
          if (value !== undefined && !device.has(value)) {
            throw new SyclError(
              errc.build_program_failure,
              `Build of device image '${image.name}' for device ${device.name} failed: the SPIR-V module declares capability ${capability}, which needs aspect ${aspect}; the device does not support it`,
            );
          }
        }
      }
      const { functions, owner, order } = linkImages(summaries);
      const discarded = discardedFunctions(request.images, functions, owner);
      const compiled = order.filter((name) => !discarded.has(name));
      const fail = (key: string, what: string): never => {
        throw new SyclError(errc.build_program_failure, `Build of device image '${owner.get(key)}' for device ${device.name} failed: function '${functions.get(key)!.name}' ${what}`);
      };
      for (const name of compiled) {
        const fn = functions.get(name)!;
        for (const aspect of fn.aspects) {
          if (!device.has(aspect)) fail(name, `uses aspect ${table.nameOf(aspect) ?? aspect}, which the device does not support`);
        }
        if (fn.subGroupSize !== undefined && !device.supportsSubGroupSize(fn.subGroupSize)) {
          fail(name, `requires sub-group size ${fn.subGroupSize}, which the device does not support`);
        }
        if (checkWorkGroup && fn.workGroupSize !== undefined) {
          const total = fn.workGroupSize.reduce((product, size) => product * size, 1);
          if (total > device.maxWorkGroupSize) fail(name, `requires work-group size ${formatSizes(fn.workGroupSize)}, more than the device's ${device.maxWorkGroupSize} work-items`);
        }
      }
      const kernels = compiled.filter((key) => functions.get(key)!.kernel).map((key) => functions.get(key)!.name);
      if (inspected && !kernels.includes(request.kernel)) {
        throw new SyclError(errc.runtime, `No kernel named ${request.kernel} was found`);
      }
      const unresolved = new Set<string>();
      for (const name of compiled) {
        for (const callee of functions.get(name)!.references) {
          if (functions.get(callee)?.defined !== true && !isBuiltin(callee)) unresolved.add(callee);
        }
      }
      return {
        backend: 'simulated-jit',
        device: device.name,
        images: request.images.map((image) => image.name),
        kernels,
        functions: compiled,
        sources: new Map(compiled.map((name) => [name, owner.get(name)!])),
        discarded: order.filter((name) => discarded.has(name)),
        unresolved: [...unresolved],
        inspected,
      };
    },
  };
}

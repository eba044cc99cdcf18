/**
 * The CUDA back end: builds programs from PTX images with the driver's JIT and runs kernels.
 *
 * Build: one image is loaded with `cuModuleLoadDataEx`; several (main, add-on and imported
 * images) are linked with `cuLinkCreate` / `cuLinkAddData` / `cuLinkComplete` and the result
 * loaded. Both capture the JIT's info and error logs: a failed build is an
 * `errc.build_program_failure` whose message carries the driver's error and log, as
 * `sycl::exception::what()` carries the build log in DPC++. The runtime caches programs; this
 * back end keeps the loaded module per program and unloads it when the runtime drops one.
 *
 * Execute: the arguments are checked against the kernel's PTX parameters (count and size) and
 * packed — a buffer becomes a device allocation whose address is the parameter, a scalar or a
 * struct its bytes —, buffers are copied in, the kernel is launched with `cuLaunchKernel` and
 * awaited with `cuCtxSynchronize`, buffers are copied back and freed. SYCL's dimensions are
 * reversed into CUDA's (the last SYCL dimension is x), as DPC++ does.
 */
import { SyclError, errc } from '../errors.js';
import type { Device } from '../device.js';
import type { BuildRequest, Execution, ExecuteRequest, Program, ProgramBackend } from '../backend.js';
import { encodeScalar, scalarSize, type KernelArg } from '../kernel-args.js';
import { isNdRange, type NdRange, type Range } from '../ranges.js';
import { CUfunctionAttribute, CudaDriverError, type CudaDevicePointer, type CudaDriver, type CudaHandle, type ModuleBuildResult } from './driver.js';
import { isPtxText, readPtx, PtxError, type PtxEntry, type PtxModuleInfo, type PtxParam } from './ptx.js';

export interface CudaBackendOptions {
  /** Bytes of each JIT log buffer (default 64 KiB). */
  readonly logBytes?: number;
  /** Clock for build and launch times (default `performance.now`). */
  readonly now?: () => number;
}

/** What the back end holds for a built program. */
interface Built {
  readonly device: Device;
  readonly module: CudaHandle;
  readonly entries: ReadonlyMap<string, PtxEntry>;
  readonly functions: Map<string, { fn: CudaHandle; maxThreads: number }>;
  released: boolean;
}

/** A CUDA back end for the devices of one driver (see the module comment). */
export interface CudaBackend extends ProgramBackend {
  readonly driver: CudaDriver;
  /** Binds a runtime device to a driver device (its primary context). */
  attach(device: Device, ordinal: number): void;
  /** Unloads every module it loaded. */
  close(): void;
}

function deviceError(device: Device, call: string, error: unknown): SyclError {
  if (error instanceof SyclError) return error;
  const what = error instanceof CudaDriverError ? error.message : `${call} failed: ${error instanceof Error ? error.message : String(error)}`;
  return new SyclError(errc.runtime, `CUDA device ${device.name}: ${what}`);
}

/** The sizes of a launch in CUDA's order (x = the last SYCL dimension). */
function cudaOrder(sizes: readonly number[]): [number, number, number] {
  const reversed = [...sizes].reverse();
  return [reversed[0] ?? 1, reversed[1] ?? 1, reversed[2] ?? 1];
}

/** The largest divisor of `n` not above `limit` (at least 1). */
function largestDivisor(n: number, limit: number): number {
  for (let d = Math.min(n, limit); d > 1; d--) if (n % d === 0) return d;
  return 1;
}

/**
 * Block and grid for a launch. An nd_range gives the block; a plain range uses the kernel's
 * `.reqntid` when it has one, else per dimension (x first) the largest divisor of the global
 * size within what is left of the kernel's thread limit — SYCL ranges have no remainder threads.
 */
export function launchGeometry(
  range: Range | NdRange | undefined,
  entry: PtxEntry,
  limits: { readonly maxThreads: number; readonly maxBlock: readonly [number, number, number] },
  kernel: string,
): { grid: [number, number, number]; block: [number, number, number] } {
  if (range === undefined) return { grid: [1, 1, 1], block: [1, 1, 1] };
  const global = cudaOrder(isNdRange(range) ? range.global.sizes : range.sizes);
  let block: [number, number, number];
  if (isNdRange(range)) {
    block = cudaOrder(range.local.sizes);
  } else if (entry.reqntid !== undefined) {
    block = [...entry.reqntid];
  } else {
    let left = limits.maxThreads;
    block = [1, 1, 1];
    for (let d = 0; d < 3; d++) {
      block[d] = global[d] === 0 ? 1 : largestDivisor(global[d]!, Math.min(left, limits.maxBlock[d]!));
      left = Math.max(1, Math.floor(left / block[d]!));
    }
  }
  if (entry.reqntid !== undefined && block.some((size, d) => size !== entry.reqntid![d])) {
    throw new SyclError(errc.nd_range, `Kernel ${kernel} requires work-groups of {${[...entry.reqntid].reverse().join(', ')}} (.reqntid), the submission asks for {${[...block].reverse().join(', ')}}`);
  }
  if (global.some((size, d) => size % block[d]! !== 0)) {
    throw new SyclError(errc.nd_range, 'Non-uniform work-groups are not supported by the target device');
  }
  const grid: [number, number, number] = [global[0] / block[0], global[1] / block[1], global[2] / block[2]];
  return { grid, block };
}

/** The bytes of one parameter, checked against its PTX declaration. */
function packArgument(kernel: string, index: number, arg: KernelArg, param: PtxParam, pointer: CudaDevicePointer): Uint8Array {
  const where = `argument ${index} of kernel ${kernel} (PTX parameter ${param.name}, ${param.size} bytes)`;
  switch (arg.kind) {
    case 'buffer': {
      if (param.size !== 8 || param.arrayLength !== undefined) throw new SyclError(errc.invalid, `${where}: a buffer is passed as a 64-bit pointer, the parameter is not one`);
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setBigUint64(0, pointer, true);
      return bytes;
    }
    case 'scalar': {
      if (scalarSize(arg.type) !== param.size) throw new SyclError(errc.invalid, `${where}: a ${arg.type} scalar has ${scalarSize(arg.type)} bytes`);
      return encodeScalar(arg);
    }
    case 'bytes': {
      if (arg.bytes.length !== param.size) throw new SyclError(errc.invalid, `${where}: the ${arg.what} value has ${arg.bytes.length} bytes`);
      return arg.bytes;
    }
  }
}

function asBytes(data: ArrayBufferView): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The CUDA back end over `driver` (which must be initialized: see `openCudaPlatform`). */
export function cudaBackend(driver: CudaDriver, options: CudaBackendOptions = {}): CudaBackend {
  const logBytes = options.logBytes ?? 64 * 1024;
  const now = options.now ?? (() => performance.now());
  const contexts = new Map<Device, CudaHandle>();
  const built = new WeakMap<Program, Built>();
  const live = new Set<Built>();
  const ptxInfo = new WeakMap<Uint8Array, PtxModuleInfo>();

  const activate = (device: Device): void => {
    const context = contexts.get(device);
    if (context === undefined) throw new SyclError(errc.runtime, `device ${device.name} is not a device of this CUDA back end`);
    driver.contextSetCurrent(context);
  };

  const infoOf = (name: string, bytes: Uint8Array): PtxModuleInfo => {
    let info = ptxInfo.get(bytes);
    if (info === undefined) {
      try {
        info = readPtx(Buffer.from(bytes).toString('utf8'));
      } catch (error) {
        if (!(error instanceof PtxError)) throw error;
        throw new SyclError(errc.build_program_failure, `Build of device image '${name}' failed: ${error.message}`);
      }
      ptxInfo.set(bytes, info);
    }
    return info;
  };

  const release = (record: Built): void => {
    if (record.released) return;
    record.released = true;
    live.delete(record);
    try {
      activate(record.device);
      driver.moduleUnload(record.module);
    } catch {
      // Nothing to do: the module goes with the context.
    }
  };

  return {
    name: 'cuda',
    driver,
    attach(device, ordinal) {
      contexts.set(device, driver.primaryContextRetain(driver.device(ordinal)));
    },
    build(request: BuildRequest): Program {
      const { device } = request;
      for (const image of request.images) {
        if (!isPtxText(image.bytes)) {
          throw new SyclError(
            errc.build_program_failure,
            `Build of device image '${image.name}' for device ${device.name} failed: the image (bundle '${image.target}') is not PTX; the CUDA back end builds PTX images (compile for nvidia_gpu_sm_* or nvptx64)`,
          );
        }
      }
      const infos = request.images.map((image) => infoOf(image.name, image.bytes));
      const names = request.images.map((image) => image.name).join("', '");
      let result: ModuleBuildResult;
      const start = now();
      try {
        activate(device);
        result =
          request.images.length === 1
            ? driver.moduleLoadData(request.images[0]!.bytes, logBytes)
            : driver.linkModule(request.images.map((image) => ({ name: image.name, ptx: image.bytes })), logBytes);
      } catch (error) {
        throw deviceError(device, 'cuModuleLoadDataEx', error);
      }
      const milliseconds = now() - start;
      if (result.status !== 0 || result.module === undefined) {
        const call = request.images.length === 1 ? 'cuModuleLoadDataEx' : 'cuLinkComplete';
        const code = driver.errorName(result.status) ?? `CUresult ${result.status}`;
        const log = [result.errorLog, result.infoLog].filter((text) => text !== '').join('\n');
        throw new SyclError(
          errc.build_program_failure,
          `Build of device image '${names}' for device ${device.name} failed: ${call} returned ${code}${driver.errorString(result.status) === undefined ? '' : ` (${driver.errorString(result.status)})`}\nBuild log:\n${log === '' ? '(empty)' : log}`,
        );
      }
      const entries = new Map<string, PtxEntry>();
      const functions: string[] = [];
      const sources = new Map<string, string>();
      const defined = new Set<string>();
      infos.forEach((info, i) => {
        for (const entry of info.entries) entries.set(entry.name, entry);
        for (const name of info.defined) {
          defined.add(name);
          if (!sources.has(name)) {
            functions.push(name);
            sources.set(name, request.images[i]!.name);
          }
        }
      });
      const program: Program = {
        backend: 'cuda',
        device: device.name,
        images: request.images.map((image) => image.name),
        kernels: [...entries.keys()],
        functions,
        sources,
        discarded: [],
        unresolved: [...new Set(infos.flatMap((info) => info.externs))].filter((name) => !defined.has(name)),
        inspected: true,
        ...(result.infoLog === '' ? {} : { buildLog: result.infoLog }),
        buildMilliseconds: milliseconds,
        ...(result.jitMilliseconds === undefined ? {} : { compilerMilliseconds: result.jitMilliseconds }),
      };
      const record: Built = { device, module: result.module, entries, functions: new Map(), released: false };
      built.set(program, record);
      live.add(record);
      if (!entries.has(request.kernel)) {
        release(record);
        throw new SyclError(errc.runtime, `No kernel named ${request.kernel} was found`);
      }
      return program;
    },
    execute(request: ExecuteRequest): Execution {
      const { device, kernel, program } = request;
      const record = built.get(program);
      if (record === undefined || record.released) throw new SyclError(errc.runtime, `the program of kernel ${kernel} was not built by this CUDA back end, or was released`);
      const entry = record.entries.get(kernel);
      if (entry === undefined) throw new SyclError(errc.runtime, `No kernel named ${kernel} was found`);
      if (request.args.length !== entry.params.length) {
        throw new SyclError(errc.invalid, `Kernel ${kernel} takes ${entry.params.length} arguments (after sycl_kernel_omit_args), the submission passes ${request.args.length}`);
      }
      const pointers: (CudaDevicePointer | undefined)[] = [];
      let bytesIn = 0;
      let bytesOut = 0;
      try {
        activate(device);
        let fn = record.functions.get(kernel);
        if (fn === undefined) {
          const handle = driver.moduleFunction(record.module, kernel);
          fn = { fn: handle, maxThreads: driver.functionAttribute(CUfunctionAttribute.MAX_THREADS_PER_BLOCK, handle) };
          record.functions.set(kernel, fn);
        }
        const maxBlock: [number, number, number] = [device.maxWorkItemSizes[2], device.maxWorkItemSizes[1], device.maxWorkItemSizes[0]];
        const { grid, block } = launchGeometry(request.range, entry, { maxThreads: Math.min(fn.maxThreads, device.maxWorkGroupSize), maxBlock }, kernel);
        // Check every argument before the first allocation.
        request.args.forEach((arg, i) => packArgument(kernel, i, arg, entry.params[i]!, 0n));
        request.args.forEach((arg, i) => {
          if (arg.kind !== 'buffer') return;
          const pointer = driver.memAlloc(Math.max(1, arg.data.byteLength));
          pointers[i] = pointer;
          if (arg.access !== 'write' && arg.data.byteLength > 0) {
            driver.memcpyHtoD(pointer, asBytes(arg.data));
            bytesIn += arg.data.byteLength;
          }
        });
        const params = request.args.map((arg, i) => packArgument(kernel, i, arg, entry.params[i]!, pointers[i] ?? 0n));
        const start = now();
        driver.launchKernel(fn.fn, grid, block, 0, params);
        driver.contextSynchronize();
        const milliseconds = now() - start;
        request.args.forEach((arg, i) => {
          if (arg.kind !== 'buffer' || arg.access === 'read' || arg.data.byteLength === 0) return;
          driver.memcpyDtoH(asBytes(arg.data), pointers[i]!);
          bytesOut += arg.data.byteLength;
        });
        return { backend: 'cuda', grid, block, milliseconds, bytesIn, bytesOut };
      } catch (error) {
        throw deviceError(device, 'cuLaunchKernel', error);
      } finally {
        for (const pointer of pointers) {
          if (pointer === undefined) continue;
          try {
            driver.memFree(pointer);
          } catch {
            // A failed kernel can leave the context unusable; the memory goes with it.
          }
        }
      }
    },
    release(program) {
      const record = built.get(program);
      if (record !== undefined) release(record);
    },
    close() {
      for (const record of [...live]) release(record);
    },
  };
}

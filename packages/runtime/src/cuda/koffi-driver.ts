/**
 * The CUDA driver (libcuda) through koffi, a foreign function interface for Node.js. koffi is
 * loaded on first use only, so the runtime works where it is not installed or has no native
 * binary; libcuda is opened by name (`libcuda.so.1`, as the CUDA runtime does) or from a path.
 *
 * Pointer-valued JIT options are passed as the raw addresses of Node buffers (`koffi.address`);
 * the buffers stay referenced for the whole call, and Node never moves a buffer's memory.
 */
import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';
import {
  CU_JIT_INPUT_PTX,
  CUjitOption,
  CudaDriverError,
  knownResultName,
  type CudaDevicePointer,
  type CudaDriver,
  type CudaHandle,
  type LinkInput,
  type ModuleBuildResult,
} from './driver.js';

/** Why the driver could not be opened (no koffi, no libcuda). */
export class CudaUnavailableError extends Error {
  override readonly name = 'CudaUnavailableError';
}

export interface LoadCudaDriverOptions {
  /** The shared library to open (default `libcuda.so.1`; `SYCLKIT_CUDA_DRIVER` overrides it). */
  readonly library?: string;
}

type KoffiModule = typeof Koffi;
type Fn = (...args: unknown[]) => number;

function loadKoffi(): KoffiModule {
  try {
    const required = createRequire(import.meta.url)('koffi') as KoffiModule & { default?: KoffiModule };
    return required.default ?? required;
  } catch (error) {
    throw new CudaUnavailableError(`the koffi package (the FFI the CUDA back end calls the driver through) cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The C declarations, by the names libcuda exports (the `_v2` ones where cuda.h maps to them). */
const DECLARATIONS = {
  cuInit: 'int cuInit(unsigned int flags)',
  cuDriverGetVersion: 'int cuDriverGetVersion(_Out_ int *version)',
  cuDeviceGetCount: 'int cuDeviceGetCount(_Out_ int *count)',
  cuDeviceGet: 'int cuDeviceGet(_Out_ int *device, int ordinal)',
  cuDeviceGetName: 'int cuDeviceGetName(_Out_ uint8_t *name, int len, int device)',
  cuDeviceGetAttribute: 'int cuDeviceGetAttribute(_Out_ int *value, int attribute, int device)',
  cuDeviceTotalMem_v2: 'int cuDeviceTotalMem_v2(_Out_ size_t *bytes, int device)',
  cuDevicePrimaryCtxRetain: 'int cuDevicePrimaryCtxRetain(_Out_ void **context, int device)',
  cuCtxSetCurrent: 'int cuCtxSetCurrent(void *context)',
  cuCtxSynchronize: 'int cuCtxSynchronize()',
  cuModuleLoadDataEx: 'int cuModuleLoadDataEx(_Out_ void **module, const void *image, unsigned int numOptions, int *options, void *optionValues)',
  cuModuleUnload: 'int cuModuleUnload(void *module)',
  cuModuleGetFunction: 'int cuModuleGetFunction(_Out_ void **fn, void *module, const char *name)',
  cuFuncGetAttribute: 'int cuFuncGetAttribute(_Out_ int *value, int attribute, void *fn)',
  cuLinkCreate_v2: 'int cuLinkCreate_v2(unsigned int numOptions, int *options, void *optionValues, _Out_ void **state)',
  cuLinkAddData_v2:
    'int cuLinkAddData_v2(void *state, int type, const void *data, size_t size, const char *name, unsigned int numOptions, int *options, void *optionValues)',
  cuLinkComplete: 'int cuLinkComplete(void *state, _Out_ void **cubin, _Out_ size_t *size)',
  cuLinkDestroy: 'int cuLinkDestroy(void *state)',
  cuMemAlloc_v2: 'int cuMemAlloc_v2(_Out_ uint64_t *pointer, size_t bytes)',
  cuMemFree_v2: 'int cuMemFree_v2(uint64_t pointer)',
  cuMemcpyHtoD_v2: 'int cuMemcpyHtoD_v2(uint64_t destination, const void *source, size_t bytes)',
  cuMemcpyDtoH_v2: 'int cuMemcpyDtoH_v2(void *destination, uint64_t source, size_t bytes)',
  cuLaunchKernel:
    'int cuLaunchKernel(void *fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared, void *stream, void **params, void **extra)',
  cuGetErrorName: 'int cuGetErrorName(int error, _Out_ const char **name)',
  cuGetErrorString: 'int cuGetErrorString(int error, _Out_ const char **text)',
} as const;

type Functions = { readonly [K in keyof typeof DECLARATIONS]: Fn };

/** The text of a NUL-terminated log buffer. */
function logText(buffer: Uint8Array): string {
  const end = buffer.indexOf(0);
  return Buffer.from(buffer.buffer, buffer.byteOffset, end < 0 ? buffer.length : end)
    .toString('utf8')
    .trim();
}

/** The JIT options of a build: wall time, both logs, verbose. */
function jitOptions(koffi: KoffiModule, logBytes: number) {
  const info = Buffer.alloc(logBytes);
  const error = Buffer.alloc(logBytes);
  const options = new Int32Array([
    CUjitOption.WALL_TIME,
    CUjitOption.INFO_LOG_BUFFER,
    CUjitOption.INFO_LOG_BUFFER_SIZE_BYTES,
    CUjitOption.ERROR_LOG_BUFFER,
    CUjitOption.ERROR_LOG_BUFFER_SIZE_BYTES,
    CUjitOption.LOG_VERBOSE,
  ]);
  // One pointer-sized slot per option: addresses for buffers, integers for sizes and flags.
  const values = new BigUint64Array([0n, koffi.address(info), BigInt(logBytes), koffi.address(error), BigInt(logBytes), 1n]);
  const wallTime = (): number | undefined => {
    const ms = new Float32Array(values.buffer, 0, 1)[0]!;
    return Number.isFinite(ms) && ms > 0 ? ms : undefined;
  };
  return { info, error, options, values, wallTime };
}

/**
 * Opens libcuda. Throws `CudaUnavailableError` when koffi or the library cannot be loaded (a
 * machine without the NVIDIA driver); `cuInit` is not called here.
 */
export function loadCudaDriver(options: LoadCudaDriverOptions = {}): CudaDriver {
  const koffi = loadKoffi();
  const library = options.library ?? process.env['SYCLKIT_CUDA_DRIVER'] ?? 'libcuda.so.1';
  let lib: Koffi.LibraryHandle;
  try {
    lib = koffi.load(library);
  } catch (error) {
    throw new CudaUnavailableError(`the CUDA driver library '${library}' cannot be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
  const fns = {} as Record<string, Fn>;
  for (const [name, declaration] of Object.entries(DECLARATIONS)) {
    try {
      fns[name] = lib.func(declaration) as Fn;
    } catch (error) {
      throw new CudaUnavailableError(`the CUDA driver library '${library}' has no usable ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const f = fns as Functions;

  const errorName = (code: number): string | undefined => {
    const out: [string | null] = [null];
    return f.cuGetErrorName(code, out) === 0 && out[0] !== null ? out[0] : knownResultName(code);
  };
  const errorString = (code: number): string | undefined => {
    const out: [string | null] = [null];
    return f.cuGetErrorString(code, out) === 0 && out[0] !== null ? out[0] : undefined;
  };
  const check = (call: string, status: number): void => {
    if (status !== 0) throw new CudaDriverError(call, status, errorName(status), errorString(status));
  };
  const outInt = (call: keyof Functions, ...args: unknown[]): number => {
    const out = [0];
    check(call, f[call](out, ...args));
    return Number(out[0]);
  };
  const outHandle = (call: keyof Functions, ...args: unknown[]): CudaHandle => {
    const out: unknown[] = [null];
    check(call, f[call](out, ...args));
    return out[0];
  };

  const loadImage = (image: unknown, logBytes: number): ModuleBuildResult => {
    const jit = jitOptions(koffi, logBytes);
    const module: unknown[] = [null];
    const status = f.cuModuleLoadDataEx(module, image, jit.options.length, jit.options, jit.values);
    const ms = jit.wallTime();
    return {
      status,
      ...(status === 0 ? { module: module[0] } : {}),
      infoLog: logText(jit.info),
      errorLog: logText(jit.error),
      ...(ms === undefined ? {} : { jitMilliseconds: ms }),
    };
  };

  return {
    source: library,
    init: () => check('cuInit', f.cuInit(0)),
    driverVersion: () => outInt('cuDriverGetVersion'),
    deviceCount: () => outInt('cuDeviceGetCount'),
    device: (ordinal) => outInt('cuDeviceGet', ordinal),
    deviceName(device) {
      const name = Buffer.alloc(256);
      check('cuDeviceGetName', f.cuDeviceGetName(name, name.length, device));
      return logText(name);
    },
    deviceAttribute: (attribute, device) => outInt('cuDeviceGetAttribute', attribute, device),
    deviceTotalMemory: (device) => outInt('cuDeviceTotalMem_v2', device),
    primaryContextRetain: (device) => outHandle('cuDevicePrimaryCtxRetain', device),
    contextSetCurrent: (context) => check('cuCtxSetCurrent', f.cuCtxSetCurrent(context)),
    contextSynchronize: () => check('cuCtxSynchronize', f.cuCtxSynchronize()),
    moduleLoadData(image, logBytes) {
      // The driver reads PTX up to its NUL: pass a terminated copy.
      const text = Buffer.alloc(image.length + 1);
      text.set(image);
      return loadImage(text, logBytes);
    },
    linkModule(inputs: readonly LinkInput[], logBytes) {
      const jit = jitOptions(koffi, logBytes);
      const state: unknown[] = [null];
      const fail = (status: number): ModuleBuildResult => ({ status, infoLog: logText(jit.info), errorLog: logText(jit.error) });
      let status = f.cuLinkCreate_v2(jit.options.length, jit.options, jit.values, state);
      if (status !== 0) return fail(status);
      try {
        for (const input of inputs) {
          const text = Buffer.alloc(input.ptx.length + 1);
          text.set(input.ptx);
          status = f.cuLinkAddData_v2(state[0], CU_JIT_INPUT_PTX, text, text.length, input.name, 0, null, null);
          if (status !== 0) return fail(status);
        }
        const cubin: unknown[] = [null];
        const size = [0];
        status = f.cuLinkComplete(state[0], cubin, size);
        if (status !== 0) return fail(status);
        const linkMs = jit.wallTime();
        const loaded = loadImage(cubin[0], logBytes);
        const join = (a: string, b: string): string => [a, b].filter((s) => s !== '').join('\n');
        const total = (linkMs ?? 0) + (loaded.jitMilliseconds ?? 0);
        return {
          ...loaded,
          infoLog: join(logText(jit.info), loaded.infoLog),
          errorLog: join(logText(jit.error), loaded.errorLog),
          ...(total > 0 ? { jitMilliseconds: total } : {}),
        };
      } finally {
        f.cuLinkDestroy(state[0]);
      }
    },
    moduleUnload: (module) => check('cuModuleUnload', f.cuModuleUnload(module)),
    moduleFunction: (module, name) => outHandle('cuModuleGetFunction', module, name),
    functionAttribute: (attribute, fn) => outInt('cuFuncGetAttribute', attribute, fn),
    memAlloc(bytes): CudaDevicePointer {
      const out = [0];
      check('cuMemAlloc_v2', f.cuMemAlloc_v2(out, bytes));
      return BigInt(out[0]!);
    },
    memFree: (pointer) => check('cuMemFree_v2', f.cuMemFree_v2(pointer)),
    memcpyHtoD: (destination, source) => check('cuMemcpyHtoD_v2', f.cuMemcpyHtoD_v2(destination, source, source.byteLength)),
    memcpyDtoH: (destination, source) => check('cuMemcpyDtoH_v2', f.cuMemcpyDtoH_v2(destination, source, destination.byteLength)),
    launchKernel(fn, grid, block, sharedMemBytes, params) {
      check('cuLaunchKernel', f.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], sharedMemBytes, null, params.length === 0 ? null : [...params], null));
    },
    errorName,
    errorString,
  };
}

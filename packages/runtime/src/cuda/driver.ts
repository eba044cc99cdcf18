/**
 * The part of the CUDA driver API the CUDA back end calls, as a small typed interface. Two things
 * implement it: `loadCudaDriver()` (libcuda through koffi) and `FakeCudaDriver` (a test double for
 * machines without a GPU). Everything above this interface — device discovery, program building,
 * argument packing, launches — is the same code for both.
 *
 * Calls that fail throw a `CudaDriverError` carrying the `CUresult`, except the two that build
 * modules: they return the status with the JIT's info and error logs, which a failed build needs.
 * The numbers below are those of CUDA 13's `cuda.h`.
 */

/** `CUresult` values the back end names. */
export const CUresult = {
  CUDA_SUCCESS: 0,
  CUDA_ERROR_INVALID_VALUE: 1,
  CUDA_ERROR_OUT_OF_MEMORY: 2,
  CUDA_ERROR_NOT_INITIALIZED: 3,
  CUDA_ERROR_NO_DEVICE: 100,
  CUDA_ERROR_INVALID_DEVICE: 101,
  CUDA_ERROR_INVALID_IMAGE: 200,
  CUDA_ERROR_INVALID_CONTEXT: 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU: 209,
  CUDA_ERROR_INVALID_PTX: 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION: 222,
  CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND: 302,
  CUDA_ERROR_INVALID_HANDLE: 400,
  CUDA_ERROR_NOT_FOUND: 500,
  CUDA_ERROR_ILLEGAL_ADDRESS: 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: 701,
  CUDA_ERROR_LAUNCH_FAILED: 719,
} as const;

/** `CUdevice_attribute` values the back end reads. */
export const CUdeviceAttribute = {
  MAX_THREADS_PER_BLOCK: 1,
  MAX_BLOCK_DIM_X: 2,
  MAX_BLOCK_DIM_Y: 3,
  MAX_BLOCK_DIM_Z: 4,
  MAX_GRID_DIM_X: 5,
  MAX_GRID_DIM_Y: 6,
  MAX_GRID_DIM_Z: 7,
  MAX_SHARED_MEMORY_PER_BLOCK: 8,
  WARP_SIZE: 10,
  MULTIPROCESSOR_COUNT: 16,
  UNIFIED_ADDRESSING: 41,
  COMPUTE_CAPABILITY_MAJOR: 75,
  COMPUTE_CAPABILITY_MINOR: 76,
  MANAGED_MEMORY: 83,
  HOST_NATIVE_ATOMIC_SUPPORTED: 86,
  PAGEABLE_MEMORY_ACCESS: 88,
  CONCURRENT_MANAGED_ACCESS: 89,
  CLUSTER_LAUNCH: 120,
} as const;

/** `CUfunction_attribute` values the back end reads. */
export const CUfunctionAttribute = {
  MAX_THREADS_PER_BLOCK: 0,
  NUM_REGS: 4,
} as const;

/** `CUjit_option` values the back end passes to the JIT. */
export const CUjitOption = {
  WALL_TIME: 2,
  INFO_LOG_BUFFER: 3,
  INFO_LOG_BUFFER_SIZE_BYTES: 4,
  ERROR_LOG_BUFFER: 5,
  ERROR_LOG_BUFFER_SIZE_BYTES: 6,
  LOG_VERBOSE: 12,
} as const;

/** `CUjitInputType`: the one input kind the back end links. */
export const CU_JIT_INPUT_PTX = 1;

/** Opaque driver handles (`CUcontext`, `CUmodule`, `CUfunction`): whatever the implementation uses. */
export type CudaHandle = unknown;

/** A device address (`CUdeviceptr`). */
export type CudaDevicePointer = bigint;

/** What building a module gave: the module on success, and the JIT's logs either way. */
export interface ModuleBuildResult {
  /** `CUresult` of the build (0: success). */
  readonly status: number;
  readonly module?: CudaHandle;
  /** `CU_JIT_INFO_LOG_BUFFER`, trimmed. */
  readonly infoLog: string;
  /** `CU_JIT_ERROR_LOG_BUFFER`, trimmed. */
  readonly errorLog: string;
  /** `CU_JIT_WALL_TIME`: the JIT's own time in milliseconds, when the driver reports it. */
  readonly jitMilliseconds?: number;
}

/** One PTX input of a link. */
export interface LinkInput {
  readonly name: string;
  readonly ptx: Uint8Array;
}

/** The CUDA driver API surface the back end calls (see the module comment). */
export interface CudaDriver {
  /** Where the driver came from (`libcuda.so.1`, `fake`). */
  readonly source: string;
  /** `cuInit(0)`. */
  init(): void;
  /** `cuDriverGetVersion` (1000 × major + 10 × minor). */
  driverVersion(): number;
  /** `cuDeviceGetCount`. */
  deviceCount(): number;
  /** `cuDeviceGet`: the device of an ordinal. */
  device(ordinal: number): number;
  /** `cuDeviceGetName`. */
  deviceName(device: number): string;
  /** `cuDeviceGetAttribute`. */
  deviceAttribute(attribute: number, device: number): number;
  /** `cuDeviceTotalMem_v2`, in bytes. */
  deviceTotalMemory(device: number): number;
  /** `cuDevicePrimaryCtxRetain`. */
  primaryContextRetain(device: number): CudaHandle;
  /** `cuCtxSetCurrent`. */
  contextSetCurrent(context: CudaHandle): void;
  /** `cuCtxSynchronize`: waits for the launches; a kernel's fault is reported here. */
  contextSynchronize(): void;
  /** `cuModuleLoadDataEx` of one PTX image, with info and error log buffers of `logBytes` each. */
  moduleLoadData(image: Uint8Array, logBytes: number): ModuleBuildResult;
  /**
   * `cuLinkCreate_v2` / `cuLinkAddData_v2` (PTX) / `cuLinkComplete`, then `cuModuleLoadData` of
   * the linked cubin and `cuLinkDestroy`: several images linked into one module.
   */
  linkModule(inputs: readonly LinkInput[], logBytes: number): ModuleBuildResult;
  /** `cuModuleUnload`. */
  moduleUnload(module: CudaHandle): void;
  /** `cuModuleGetFunction`. */
  moduleFunction(module: CudaHandle, name: string): CudaHandle;
  /** `cuFuncGetAttribute`. */
  functionAttribute(attribute: number, fn: CudaHandle): number;
  /** `cuMemAlloc_v2`. */
  memAlloc(bytes: number): CudaDevicePointer;
  /** `cuMemFree_v2`. */
  memFree(pointer: CudaDevicePointer): void;
  /** `cuMemcpyHtoD_v2`. */
  memcpyHtoD(destination: CudaDevicePointer, source: Uint8Array): void;
  /** `cuMemcpyDtoH_v2`. */
  memcpyDtoH(destination: Uint8Array, source: CudaDevicePointer): void;
  /**
   * `cuLaunchKernel` on the default stream, `kernelParams` = one pointer per parameter to its
   * bytes (`params[i]`).
   */
  launchKernel(fn: CudaHandle, grid: readonly [number, number, number], block: readonly [number, number, number], sharedMemBytes: number, params: readonly Uint8Array[]): void;
  /** `cuGetErrorName` (undefined for a code the driver does not know). */
  errorName(code: number): string | undefined;
  /** `cuGetErrorString`. */
  errorString(code: number): string | undefined;
}

/** A driver call that returned an error. */
export class CudaDriverError extends Error {
  override readonly name = 'CudaDriverError';
  constructor(
    /** The driver function, e.g. `cuMemAlloc_v2`. */
    readonly call: string,
    /** The `CUresult`. */
    readonly code: number,
    /** `CUDA_ERROR_…`, when known. */
    readonly codeName: string | undefined,
    /** The driver's description of the code, when known. */
    readonly description: string | undefined,
  ) {
    super(`${call} failed: ${codeName ?? `CUresult ${code}`}${description === undefined ? '' : ` (${description})`}`);
  }
}

/** The name of a `CUresult` this module knows, for drivers that cannot tell. */
export function knownResultName(code: number): string | undefined {
  for (const [name, value] of Object.entries(CUresult)) if (value === code) return name;
  return undefined;
}

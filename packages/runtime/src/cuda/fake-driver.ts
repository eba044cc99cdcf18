/**
 * A test double of the CUDA driver: the `CudaDriver` surface with devices described by their
 * attributes, device memory in JavaScript, and a record of every call. It cannot run PTX. A
 * module "builds" when the image is PTX text (a `.version` directive) unless `failBuild` says it
 * fails, and its functions are the image's `.entry` names. A launch runs the JavaScript function
 * registered for the kernel's name, if any, with the parameter bytes exactly as the back end
 * packed them — so tests can check argument packing and computed results together.
 */
import {
  CUdeviceAttribute,
  CUfunctionAttribute,
  CUresult,
  CudaDriverError,
  knownResultName,
  type CudaDevicePointer,
  type CudaDriver,
  type CudaHandle,
  type LinkInput,
  type ModuleBuildResult,
} from './driver.js';

/** A fake device, by the attributes the back end reads. */
export interface FakeCudaDeviceSpec {
  readonly name?: string;
  /** Compute capability `[major, minor]` (default `[9, 0]`, an H100). */
  readonly computeCapability?: readonly [number, number];
  /** Other attributes by `CUdevice_attribute` value; defaults are an H100's. */
  readonly attributes?: Readonly<Record<number, number>>;
  readonly totalMemory?: number;
}

/** What a registered kernel function sees of one launch. */
export interface FakeLaunch {
  readonly kernel: string;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  /** One entry per kernel parameter: the bytes the back end passed. */
  readonly params: readonly Uint8Array[];
  /** Device memory at `pointer` (a view: writes change device memory). */
  memory(pointer: CudaDevicePointer, bytes: number): Uint8Array;
}

/** One call the fake received (name as in the C API). */
export interface FakeCall {
  readonly call: string;
  readonly detail?: string;
}

export interface FakeCudaDriverOptions {
  readonly devices?: readonly FakeCudaDeviceSpec[];
  /** JavaScript stand-ins for kernels, by entry name. */
  readonly kernels?: Readonly<Record<string, (launch: FakeLaunch) => void>>;
  /**
   * Decides whether a PTX image fails to build: return the error log for a failure. Default: an
   * image containing `FAKE_BUILD_ERROR` fails with a ptxas-style log naming its line.
   */
  readonly failBuild?: (ptx: string) => string | undefined;
  /** What `cuInit` returns (default 0). */
  readonly initStatus?: number;
  /** Milliseconds reported as the JIT's wall time (default 0.5). */
  readonly jitMilliseconds?: number;
}

const H100_ATTRIBUTES: Readonly<Record<number, number>> = {
  [CUdeviceAttribute.MAX_THREADS_PER_BLOCK]: 1024,
  [CUdeviceAttribute.MAX_BLOCK_DIM_X]: 1024,
  [CUdeviceAttribute.MAX_BLOCK_DIM_Y]: 1024,
  [CUdeviceAttribute.MAX_BLOCK_DIM_Z]: 64,
  [CUdeviceAttribute.MAX_GRID_DIM_X]: 2147483647,
  [CUdeviceAttribute.MAX_GRID_DIM_Y]: 65535,
  [CUdeviceAttribute.MAX_GRID_DIM_Z]: 65535,
  [CUdeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK]: 49152,
  [CUdeviceAttribute.WARP_SIZE]: 32,
  [CUdeviceAttribute.MULTIPROCESSOR_COUNT]: 132,
  [CUdeviceAttribute.UNIFIED_ADDRESSING]: 1,
  [CUdeviceAttribute.MANAGED_MEMORY]: 1,
  [CUdeviceAttribute.HOST_NATIVE_ATOMIC_SUPPORTED]: 0,
  [CUdeviceAttribute.PAGEABLE_MEMORY_ACCESS]: 0,
  [CUdeviceAttribute.CONCURRENT_MANAGED_ACCESS]: 1,
  [CUdeviceAttribute.CLUSTER_LAUNCH]: 1,
};

const ERROR_STRINGS: Readonly<Record<number, string>> = {
  [CUresult.CUDA_ERROR_INVALID_VALUE]: 'invalid argument',
  [CUresult.CUDA_ERROR_NOT_INITIALIZED]: 'initialization error',
  [CUresult.CUDA_ERROR_NO_DEVICE]: 'no CUDA-capable device is detected',
  [CUresult.CUDA_ERROR_INVALID_PTX]: 'a PTX JIT compilation failed',
  [CUresult.CUDA_ERROR_NOT_FOUND]: 'named symbol not found',
  [CUresult.CUDA_ERROR_INVALID_HANDLE]: 'invalid resource handle',
};

interface FakeModule {
  readonly id: number;
  readonly ptx: string;
  readonly entries: ReadonlySet<string>;
  unloaded: boolean;
}

interface FakeFunction {
  readonly module: FakeModule;
  readonly name: string;
}

function defaultFailBuild(ptx: string): string | undefined {
  const lines = ptx.split('\n');
  const at = lines.findIndex((line) => line.includes('FAKE_BUILD_ERROR'));
  return at < 0 ? undefined : `ptxas application ptx input, line ${at + 1}; error   : Unknown symbol 'FAKE_BUILD_ERROR'\nptxas fatal   : Ptx assembly aborted due to errors`;
}

/** The fake driver (see the module comment). */
export class FakeCudaDriver implements CudaDriver {
  readonly source = 'fake';
  /** Every call, in order. */
  readonly calls: FakeCall[] = [];
  readonly #devices: readonly FakeCudaDeviceSpec[];
  readonly #options: FakeCudaDriverOptions;
  readonly #memory = new Map<bigint, Uint8Array>();
  #nextPointer = 0x7f00_0000_0000n;
  #nextModule = 1;
  #initialized = false;
  #current: number | undefined;

  constructor(options: FakeCudaDriverOptions = {}) {
    this.#options = options;
    this.#devices = options.devices ?? [{}];
  }

  /** How many calls of `name` the fake received. */
  count(name: string): number {
    return this.calls.filter((c) => c.call === name).length;
  }

  /** Device allocations not freed yet. */
  get liveAllocations(): number {
    return this.#memory.size;
  }

  #record(call: string, detail?: string): void {
    this.calls.push(detail === undefined ? { call } : { call, detail });
  }

  #fail(call: string, code: number): never {
    throw new CudaDriverError(call, code, knownResultName(code), ERROR_STRINGS[code]);
  }

  #ready(call: string): void {
    if (!this.#initialized) this.#fail(call, CUresult.CUDA_ERROR_NOT_INITIALIZED);
  }

  #spec(call: string, device: number): FakeCudaDeviceSpec {
    this.#ready(call);
    const spec = this.#devices[device];
    if (spec === undefined) this.#fail(call, CUresult.CUDA_ERROR_INVALID_DEVICE);
    return spec;
  }

  #contextual(call: string): void {
    this.#ready(call);
    if (this.#current === undefined) this.#fail(call, CUresult.CUDA_ERROR_INVALID_CONTEXT);
  }

  init(): void {
    this.#record('cuInit');
    const status = this.#options.initStatus ?? 0;
    if (status !== 0) this.#fail('cuInit', status);
    this.#initialized = true;
  }

  driverVersion(): number {
    this.#record('cuDriverGetVersion');
    return 13000;
  }

  deviceCount(): number {
    this.#record('cuDeviceGetCount');
    this.#ready('cuDeviceGetCount');
    return this.#devices.length;
  }

  device(ordinal: number): number {
    this.#record('cuDeviceGet');
    this.#spec('cuDeviceGet', ordinal);
    return ordinal;
  }

  deviceName(device: number): string {
    this.#record('cuDeviceGetName');
    return this.#spec('cuDeviceGetName', device).name ?? 'NVIDIA H100 80GB HBM3 (fake)';
  }

  deviceAttribute(attribute: number, device: number): number {
    this.#record('cuDeviceGetAttribute', String(attribute));
    const spec = this.#spec('cuDeviceGetAttribute', device);
    const [major, minor] = spec.computeCapability ?? [9, 0];
    if (attribute === CUdeviceAttribute.COMPUTE_CAPABILITY_MAJOR) return major;
    if (attribute === CUdeviceAttribute.COMPUTE_CAPABILITY_MINOR) return minor;
    const value = spec.attributes?.[attribute] ?? H100_ATTRIBUTES[attribute];
    if (value === undefined) this.#fail('cuDeviceGetAttribute', CUresult.CUDA_ERROR_INVALID_VALUE);
    return value;
  }

  deviceTotalMemory(device: number): number {
    this.#record('cuDeviceTotalMem_v2');
    return this.#spec('cuDeviceTotalMem_v2', device).totalMemory ?? 80 * 2 ** 30;
  }

  primaryContextRetain(device: number): CudaHandle {
    this.#record('cuDevicePrimaryCtxRetain');
    this.#spec('cuDevicePrimaryCtxRetain', device);
    return { context: device };
  }

  contextSetCurrent(context: CudaHandle): void {
    this.#record('cuCtxSetCurrent');
    this.#ready('cuCtxSetCurrent');
    const device = (context as { context?: number } | null)?.context;
    if (device === undefined) this.#fail('cuCtxSetCurrent', CUresult.CUDA_ERROR_INVALID_CONTEXT);
    this.#current = device;
  }

  contextSynchronize(): void {
    this.#record('cuCtxSynchronize');
    this.#contextual('cuCtxSynchronize');
  }

  #build(call: string, ptx: string): ModuleBuildResult {
    this.#contextual(call);
    const jitMilliseconds = this.#options.jitMilliseconds ?? 0.5;
    if (!/^\s*\.version\s/m.test(ptx)) {
      return { status: CUresult.CUDA_ERROR_INVALID_IMAGE, infoLog: '', errorLog: 'device kernel image is invalid', jitMilliseconds };
    }
    const error = (this.#options.failBuild ?? defaultFailBuild)(ptx);
    if (error !== undefined) return { status: CUresult.CUDA_ERROR_INVALID_PTX, infoLog: '', errorLog: error, jitMilliseconds };
    const entries = new Set([...ptx.matchAll(/\.entry\s+([A-Za-z_$%][\w$]*)/g)].map((m) => m[1]!));
    const module: FakeModule = { id: this.#nextModule++, ptx, entries, unloaded: false };
    return { status: 0, module, infoLog: `ptxas info    : fake JIT compiled ${entries.size} entries`, errorLog: '', jitMilliseconds };
  }

  moduleLoadData(image: Uint8Array, logBytes: number): ModuleBuildResult {
    this.#record('cuModuleLoadDataEx', `log ${logBytes}`);
    return this.#build('cuModuleLoadDataEx', Buffer.from(image).toString('utf8'));
  }

  linkModule(inputs: readonly LinkInput[], logBytes: number): ModuleBuildResult {
    this.#record('cuLinkCreate_v2', `log ${logBytes}`);
    for (const input of inputs) this.#record('cuLinkAddData_v2', input.name);
    this.#record('cuLinkComplete');
    const result = this.#build('cuLinkComplete', inputs.map((input) => Buffer.from(input.ptx).toString('utf8')).join('\n'));
    this.#record('cuLinkDestroy');
    return result;
  }

  moduleUnload(module: CudaHandle): void {
    this.#record('cuModuleUnload');
    const m = module as FakeModule;
    if (m.unloaded) this.#fail('cuModuleUnload', CUresult.CUDA_ERROR_INVALID_HANDLE);
    m.unloaded = true;
  }

  moduleFunction(module: CudaHandle, name: string): CudaHandle {
    this.#record('cuModuleGetFunction', name);
    const m = module as FakeModule;
    if (m.unloaded) this.#fail('cuModuleGetFunction', CUresult.CUDA_ERROR_INVALID_HANDLE);
    if (!m.entries.has(name)) this.#fail('cuModuleGetFunction', CUresult.CUDA_ERROR_NOT_FOUND);
    const fn: FakeFunction = { module: m, name };
    return fn;
  }

  functionAttribute(attribute: number, fn: CudaHandle): number {
    this.#record('cuFuncGetAttribute', String(attribute));
    void fn;
    if (attribute === CUfunctionAttribute.MAX_THREADS_PER_BLOCK) return 1024;
    if (attribute === CUfunctionAttribute.NUM_REGS) return 16;
    return this.#fail('cuFuncGetAttribute', CUresult.CUDA_ERROR_INVALID_VALUE);
  }

  memAlloc(bytes: number): CudaDevicePointer {
    this.#record('cuMemAlloc_v2', String(bytes));
    this.#contextual('cuMemAlloc_v2');
    const pointer = this.#nextPointer;
    this.#nextPointer += BigInt(Math.max(256, Math.ceil(bytes / 256) * 256));
    this.#memory.set(pointer, new Uint8Array(bytes));
    return pointer;
  }

  memFree(pointer: CudaDevicePointer): void {
    this.#record('cuMemFree_v2');
    if (!this.#memory.delete(pointer)) this.#fail('cuMemFree_v2', CUresult.CUDA_ERROR_INVALID_VALUE);
  }

  /** The allocation holding `[pointer, pointer + bytes)`, as a view. */
  view(pointer: CudaDevicePointer, bytes: number, call = 'memory access'): Uint8Array {
    for (const [base, block] of this.#memory) {
      if (pointer >= base && pointer + BigInt(bytes) <= base + BigInt(block.length)) {
        const offset = Number(pointer - base);
        return block.subarray(offset, offset + bytes);
      }
    }
    return this.#fail(call, CUresult.CUDA_ERROR_INVALID_VALUE);
  }

  memcpyHtoD(destination: CudaDevicePointer, source: Uint8Array): void {
    this.#record('cuMemcpyHtoD_v2', String(source.byteLength));
    this.view(destination, source.byteLength, 'cuMemcpyHtoD_v2').set(source);
  }

  memcpyDtoH(destination: Uint8Array, source: CudaDevicePointer): void {
    this.#record('cuMemcpyDtoH_v2', String(destination.byteLength));
    destination.set(this.view(source, destination.byteLength, 'cuMemcpyDtoH_v2'));
  }

  launchKernel(fn: CudaHandle, grid: readonly [number, number, number], block: readonly [number, number, number], sharedMemBytes: number, params: readonly Uint8Array[]): void {
    const f = fn as FakeFunction;
    this.#record('cuLaunchKernel', `${f.name} grid ${grid.join('x')} block ${block.join('x')} shared ${sharedMemBytes} params ${params.length}`);
    this.#contextual('cuLaunchKernel');
    if (f.module.unloaded) this.#fail('cuLaunchKernel', CUresult.CUDA_ERROR_INVALID_HANDLE);
    const run = this.#options.kernels?.[f.name];
    if (run !== undefined) {
      run({ kernel: f.name, grid, block, params: params.map((p) => Uint8Array.from(p)), memory: (pointer, bytes) => this.view(pointer, bytes, 'kernel access') });
    }
  }

  errorName(code: number): string | undefined {
    return knownResultName(code);
  }

  errorString(code: number): string | undefined {
    return ERROR_STRINGS[code];
  }
}

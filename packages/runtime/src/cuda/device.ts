/**
 * A CUDA device as the runtime sees it: its `nvidia_gpu_sm_<XY>` target, aspects and limits, read
 * from the driver's attributes.
 *
 * Aspects follow the facts of intel/llvm's CUDA adapter (unified-runtime `urDeviceGetInfo`):
 *
 * | aspect | when |
 * |---|---|
 * | `gpu`, `fp64`, `online_compiler`, `online_linker`, `queue_profiling`, `usm_device_allocations` | always |
 * | `fp16` | compute capability ≥ 5.3 (`cl_khr_fp16`) |
 * | `atomic64` | major ≥ 6 |
 * | `usm_host_allocations` | `UNIFIED_ADDRESSING` |
 * | `usm_atomic_host_allocations` | `UNIFIED_ADDRESSING` and major ≥ 6 |
 * | `usm_shared_allocations` | `MANAGED_MEMORY` |
 * | `usm_atomic_shared_allocations` | `MANAGED_MEMORY`, `CONCURRENT_MANAGED_ACCESS` and major ≥ 6 |
 * | `usm_system_allocations` | `PAGEABLE_MEMORY_ACCESS` |
 * | `ext_oneapi_cuda_async_barrier` | major ≥ 8 |
 * | `ext_oneapi_cuda_cluster_group` | `CLUSTER_LAUNCH` |
 *
 * Every other aspect the device-config entry of the device's target lists (the backend-wide ones:
 * bindless images, graphs, `ext_intel_*` queries…) is taken from that entry: it is what DPC++'s
 * CUDA backend reports for every device. Sub-group sizes are `[WARP_SIZE]`; the work-group limits
 * are `MAX_THREADS_PER_BLOCK` and `MAX_BLOCK_DIM_Z/Y/X` (SYCL's order, slowest dimension first).
 */
import { DeviceConfig, architectureByName } from '@syclkit/device-config';
import type { ProgramBackend } from '../backend.js';
import { Device } from '../device.js';
import { CUdeviceAttribute, type CudaDriver } from './driver.js';

/** What the runtime reads of a CUDA device. */
export interface CudaDeviceAttributes {
  readonly name: string;
  readonly computeCapability: readonly [number, number];
  readonly warpSize: number;
  readonly maxThreadsPerBlock: number;
  readonly maxBlockDim: readonly [number, number, number];
  readonly maxGridDim: readonly [number, number, number];
  readonly multiprocessors: number;
  readonly unifiedAddressing: boolean;
  readonly managedMemory: boolean;
  readonly concurrentManagedAccess: boolean;
  readonly pageableMemoryAccess: boolean;
  readonly clusterLaunch: boolean;
  readonly totalMemory: number;
}

/** Reads the attributes of device `device` (a `CUdevice`). */
export function readCudaDeviceAttributes(driver: CudaDriver, device: number): CudaDeviceAttributes {
  const get = (attribute: number): number => driver.deviceAttribute(attribute, device);
  const A = CUdeviceAttribute;
  return {
    name: driver.deviceName(device),
    computeCapability: [get(A.COMPUTE_CAPABILITY_MAJOR), get(A.COMPUTE_CAPABILITY_MINOR)],
    warpSize: get(A.WARP_SIZE),
    maxThreadsPerBlock: get(A.MAX_THREADS_PER_BLOCK),
    maxBlockDim: [get(A.MAX_BLOCK_DIM_X), get(A.MAX_BLOCK_DIM_Y), get(A.MAX_BLOCK_DIM_Z)],
    maxGridDim: [get(A.MAX_GRID_DIM_X), get(A.MAX_GRID_DIM_Y), get(A.MAX_GRID_DIM_Z)],
    multiprocessors: get(A.MULTIPROCESSOR_COUNT),
    unifiedAddressing: get(A.UNIFIED_ADDRESSING) !== 0,
    managedMemory: get(A.MANAGED_MEMORY) !== 0,
    concurrentManagedAccess: get(A.CONCURRENT_MANAGED_ACCESS) !== 0,
    pageableMemoryAccess: get(A.PAGEABLE_MEMORY_ACCESS) !== 0,
    clusterLaunch: get(A.CLUSTER_LAUNCH) !== 0,
    totalMemory: driver.deviceTotalMemory(device),
  };
}

/** The aspects the attributes decide (see the module comment), by name. */
export const ATTRIBUTE_ASPECTS = [
  'gpu',
  'fp16',
  'fp64',
  'atomic64',
  'online_compiler',
  'online_linker',
  'queue_profiling',
  'usm_device_allocations',
  'usm_host_allocations',
  'usm_atomic_host_allocations',
  'usm_shared_allocations',
  'usm_atomic_shared_allocations',
  'usm_system_allocations',
  'ext_oneapi_cuda_async_barrier',
  'ext_oneapi_cuda_cluster_group',
] as const;

/** The aspects of `ATTRIBUTE_ASPECTS` a device with these attributes has. */
export function cudaAttributeAspects(attributes: CudaDeviceAttributes): string[] {
  const [major, minor] = attributes.computeCapability;
  const has: Record<(typeof ATTRIBUTE_ASPECTS)[number], boolean> = {
    gpu: true,
    fp16: major > 5 || (major === 5 && minor >= 3),
    fp64: true,
    atomic64: major >= 6,
    online_compiler: true,
    online_linker: true,
    queue_profiling: true,
    usm_device_allocations: true,
    usm_host_allocations: attributes.unifiedAddressing,
    usm_atomic_host_allocations: attributes.unifiedAddressing && major >= 6,
    usm_shared_allocations: attributes.managedMemory,
    usm_atomic_shared_allocations: attributes.managedMemory && attributes.concurrentManagedAccess && major >= 6,
    usm_system_allocations: attributes.pageableMemoryAccess,
    ext_oneapi_cuda_async_barrier: major >= 8,
    ext_oneapi_cuda_cluster_group: attributes.clusterLaunch,
  };
  return ATTRIBUTE_ASPECTS.filter((name) => has[name]);
}

/** `nvidia_gpu_sm_90` for compute capability 9.0. */
export function cudaTargetName(computeCapability: readonly [number, number]): string {
  return `nvidia_gpu_sm_${computeCapability[0]}${computeCapability[1]}`;
}

/**
 * The runtime device for a CUDA device's attributes: target `nvidia_gpu_sm_<XY>` (with the
 * architecture-specific `…a` variant as an alias where the configuration knows one: a device of
 * that compute capability runs its code), aspects as in the module comment, backend
 * `ext_oneapi_cuda`. With `programBackend`, the runtime builds and runs the device's kernels there.
 */
export function cudaDeviceFromAttributes(attributes: CudaDeviceAttributes, config: DeviceConfig = DeviceConfig.builtin(), programBackend?: ProgramBackend): Device {
  const target = cudaTargetName(attributes.computeCapability);
  const known = config.resolve(target);
  const entry = known === undefined ? undefined : config.entryFor(known);
  const gated = new Set<string>(ATTRIBUTE_ASPECTS);
  const names = new Set(cudaAttributeAspects(attributes));
  for (const name of entry?.aspects ?? []) if (!gated.has(name)) names.add(name);
  const aspects: number[] = [];
  for (const name of names) {
    const value = config.aspectTable.valueOf(name);
    if (value !== undefined) aspects.push(value);
  }
  const variant = `${target}a`;
  const architecture = architectureByName(target);
  return new Device({
    name: attributes.name,
    ...(known === undefined ? {} : { target: known.name }),
    ...(config.resolve(variant) === undefined ? {} : { targetAliases: [variant] }),
    ...(architecture === undefined ? {} : { architecture }),
    aspects,
    subGroupSizes: [attributes.warpSize],
    maxWorkGroupSize: attributes.maxThreadsPerBlock,
    // SYCL's max_work_item_sizes<3> lists the slowest dimension first: {z, y, x}.
    maxWorkItemSizes: [attributes.maxBlockDim[2], attributes.maxBlockDim[1], attributes.maxBlockDim[0]],
    backend: 'ext_oneapi_cuda',
    deviceType: 'gpu',
    ...(programBackend === undefined ? {} : { programBackend }),
  });
}

import { DeviceConfig, builtinAspectTable } from '@syclkit/device-config';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_ASPECTS, cudaAttributeAspects, cudaDeviceFromAttributes, readCudaDeviceAttributes, type CudaDeviceAttributes } from './device.js';
import { FakeCudaDriver } from './fake-driver.js';
import { CUdeviceAttribute } from './driver.js';

function attributes(major: number, minor: number, extra: Partial<CudaDeviceAttributes> = {}): CudaDeviceAttributes {
  const driver = new FakeCudaDriver({ devices: [{ computeCapability: [major, minor] }] });
  driver.init();
  return { ...readCudaDeviceAttributes(driver, 0), ...extra };
}

const names = (values: readonly number[]): string[] => values.map((v) => builtinAspectTable.nameOf(v) ?? String(v));

describe('CUDA devices from driver attributes', () => {
  it('maps an H100 (9.0) to nvidia_gpu_sm_90 with sub-group size 32 and the sm_90a alias', () => {
    const device = cudaDeviceFromAttributes(attributes(9, 0));
    expect(device.target).toBe('nvidia_gpu_sm_90');
    expect(device.targetAliases).toEqual(['nvidia_gpu_sm_90a']);
    expect(device.architecture?.name).toBe('nvidia_gpu_sm_90');
    expect(device.backend).toBe('ext_oneapi_cuda');
    expect(device.subGroupSizes).toEqual([32]);
    expect(device.maxWorkGroupSize).toBe(1024);
    expect(device.maxWorkItemSizes).toEqual([64, 1024, 1024]);
    for (const aspect of ['gpu', 'fp16', 'fp64', 'atomic64', 'ext_oneapi_cuda_async_barrier', 'ext_oneapi_cuda_cluster_group', 'usm_shared_allocations']) {
      expect(device.has(aspect), aspect).toBe(true);
    }
    expect(device.has('usm_system_allocations')).toBe(false); // PAGEABLE_MEMORY_ACCESS is 0
  });

  it('takes the warp size and limits from the driver, not from a table', () => {
    const driver = new FakeCudaDriver({
      devices: [{ computeCapability: [8, 6], attributes: { [CUdeviceAttribute.WARP_SIZE]: 64, [CUdeviceAttribute.MAX_THREADS_PER_BLOCK]: 512, [CUdeviceAttribute.MAX_BLOCK_DIM_Z]: 8 } }],
    });
    driver.init();
    const device = cudaDeviceFromAttributes(readCudaDeviceAttributes(driver, 0));
    expect(device.subGroupSizes).toEqual([64]);
    expect(device.maxWorkGroupSize).toBe(512);
    expect(device.maxWorkItemSizes[0]).toBe(8);
  });

  it('gates fp16 at 5.3 and atomic64 at 6.0, as the CUDA adapter reports them', () => {
    expect(cudaAttributeAspects(attributes(5, 2))).not.toContain('fp16');
    expect(cudaAttributeAspects(attributes(5, 3))).toContain('fp16');
    expect(cudaAttributeAspects(attributes(5, 3))).not.toContain('atomic64');
    expect(cudaAttributeAspects(attributes(6, 0))).toContain('atomic64');
    expect(cudaAttributeAspects(attributes(7, 5))).not.toContain('ext_oneapi_cuda_async_barrier');
    expect(cudaAttributeAspects(attributes(8, 0))).toContain('ext_oneapi_cuda_async_barrier');
    expect(cudaAttributeAspects(attributes(9, 0, { clusterLaunch: false }))).not.toContain('ext_oneapi_cuda_cluster_group');
  });

  it('agrees with device-config on every nvidia_gpu_sm_* entry for the aspects the attributes decide', () => {
    const config = DeviceConfig.builtin();
    const targets = config.entries().map((entry) => entry.name).filter((name) => /^nvidia_gpu_sm_\d+$/.test(name));
    expect(targets.length).toBeGreaterThan(10);
    for (const target of targets) {
      const digits = target.slice('nvidia_gpu_sm_'.length);
      const [major, minor] = [Number(digits.slice(0, -1)), Number(digits.slice(-1))];
      const device = cudaDeviceFromAttributes(attributes(major, minor, { clusterLaunch: major >= 9 }), config);
      const entry = config.entryFor(config.resolve(target)!)!;
      for (const aspect of ['fp16', 'fp64', 'atomic64', 'ext_oneapi_cuda_async_barrier', 'ext_oneapi_cuda_cluster_group']) {
        expect(device.has(aspect), `${target} ${aspect}`).toBe(entry.aspects.includes(aspect));
      }
      expect(device.target).toBe(target);
    }
  });

  it('keeps the backend-wide aspects of the target entry that no attribute decides', () => {
    const device = cudaDeviceFromAttributes(attributes(9, 0));
    const gated = new Set<string>(ATTRIBUTE_ASPECTS);
    const entry = DeviceConfig.builtin().entryFor(DeviceConfig.builtin().resolve('nvidia_gpu_sm_90')!)!;
    const expected = entry.aspects.filter((a) => !gated.has(a));
    expect(expected).toContain('ext_oneapi_bindless_images');
    for (const aspect of expected) expect(device.has(aspect), aspect).toBe(true);
  });

  it('makes a device without a target for a compute capability the configuration does not know', () => {
    const device = cudaDeviceFromAttributes(attributes(12, 7));
    expect(device.target).toBeUndefined();
    expect(names(device.aspects)).toEqual(expect.arrayContaining(['gpu', 'fp16', 'fp64', 'atomic64']));
  });
});

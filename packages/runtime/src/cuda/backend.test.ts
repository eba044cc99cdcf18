import { readFileSync } from 'node:fs';
import { PropertySetName, PropertySetRegistry, addDeviceRequirements, bitVectorValue, type DeviceRequirements } from '@syclkit/formats';
import { deviceImage, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../test/thrown.js';
import { CudaDriverError, Runtime, deviceFromTarget, errc, kernelArg, openCudaPlatform, range, type KernelArg } from '../index.js';
import { FakeCudaDriver, type FakeLaunch } from './fake-driver.js';

const SCALE_PTX = readFileSync(new URL('../../test/fixtures/cuda/scale.ptx', import.meta.url), 'utf8');
const SCALE = '_ZTS5Scale';
const FIXED = '_ZTS5Fixed';

interface ImageSpec {
  readonly name: string;
  readonly ptx: string;
  readonly kernels: readonly string[];
  readonly requirements?: DeviceRequirements;
  /** `SYCL/kernel param opt` per kernel. */
  readonly omitted?: Readonly<Record<string, readonly boolean[]>>;
  readonly target?: string;
}

function image(spec: ImageSpec): DeviceImage {
  const properties = new PropertySetRegistry();
  addDeviceRequirements(properties, spec.requirements ?? {});
  for (const [kernel, bits] of Object.entries(spec.omitted ?? {})) {
    properties.ensureSet(PropertySetName.KERNEL_PARAM_OPT_INFO);
    properties.add(PropertySetName.KERNEL_PARAM_OPT_INFO, kernel, bitVectorValue(bits));
  }
  return deviceImage({ name: spec.name, target: spec.target ?? 'nvidia_gpu_sm_90', image: Buffer.from(spec.ptx), entries: spec.kernels, properties });
}

function binary(...images: DeviceImage[]): BinaryDescriptor {
  const bundles = new Map<string, DeviceImage[]>();
  for (const i of images) bundles.set(i.target, [...(bundles.get(i.target) ?? []), i]);
  return { bundles: [...bundles].map(([target, list]) => ({ target, images: list })) };
}

/** `_ZTS5Scale`: data[i + offset] *= factor, reading the parameters as the PTX declares them. */
function scaleKernel(launch: FakeLaunch): void {
  const [pointer, access, memory, offset, factor] = launch.params.map((p) => new DataView(p.buffer, p.byteOffset, p.byteLength));
  const count = Number(memory!.getBigUint64(0, true));
  expect(Number(access!.getBigUint64(0, true))).toBe(count);
  const threads = launch.grid[0] * launch.block[0];
  const data = launch.memory(pointer!.getBigUint64(0, true), count * 4);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const start = Number(offset!.getBigUint64(0, true));
  for (let i = 0; i < threads; i++) view.setFloat32((start + i) * 4, view.getFloat32((start + i) * 4, true) * factor!.getFloat32(0, true), true);
}

function platform(options: { kernels?: Record<string, (launch: FakeLaunch) => void>; failBuild?: (ptx: string) => string | undefined } = {}) {
  const driver = new FakeCudaDriver({ kernels: { [SCALE]: scaleKernel, ...options.kernels }, ...(options.failBuild === undefined ? {} : { failBuild: options.failBuild }) });
  const cuda = openCudaPlatform({ driver });
  return { driver, cuda, device: cuda.devices[0]! };
}

describe('CUDA back end: building programs', () => {
  it('JIT-compiles the PTX image once and takes later submissions from the program cache', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE, FIXED] })));
    const first = runtime.queue(device).parallelFor(SCALE, [64]);
    const second = runtime.queue(device).parallelFor(SCALE, [64]);
    expect(first.program.backend).toBe('cuda');
    expect(first.program.kernels).toEqual([SCALE, FIXED]);
    expect(first.program.functions).toEqual([SCALE, 'scale', FIXED]);
    expect(first.program.unresolved).toEqual(['external_helper']);
    expect(first.program.buildLog).toMatch(/fake JIT compiled 2 entries/);
    expect([first.programCacheHit, second.programCacheHit]).toEqual([false, true]);
    expect(driver.count('cuModuleLoadDataEx')).toBe(1);
    expect(driver.count('cuLaunchKernel')).toBe(0); // no arguments: built, not run
  });

  it('reports a failed build as build_program_failure with the driver error and its log, and does not cache it', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'broken_0', ptx: `${SCALE_PTX}\n// FAKE_BUILD_ERROR\n`, kernels: [SCALE] })));
    const error = thrown(() => runtime.queue(device).parallelFor(SCALE, [64]));
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toContain(`Build of device image 'broken_0' for device ${device.name} failed: cuModuleLoadDataEx returned CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)`);
    expect(error.message).toMatch(/Build log:\nptxas application ptx input, line \d+; error {3}: Unknown symbol 'FAKE_BUILD_ERROR'/);
    thrown(() => runtime.queue(device).parallelFor(SCALE, [64]));
    expect(driver.count('cuModuleLoadDataEx')).toBe(2);
    expect(runtime.programCache.size).toBe(0);
  });

  it('refuses an image that is not PTX before calling the driver', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'ir_0', ptx: 'target triple = "nvptx64-nvidia-cuda"\n', kernels: [SCALE] })));
    const error = thrown(() => runtime.queue(device).parallelFor(SCALE, [64]));
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toContain("the image (bundle 'nvidia_gpu_sm_90') is not PTX");
    expect(driver.count('cuModuleLoadDataEx')).toBe(0);
  });

  it('unloads the module when the binary is unregistered', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    const app = runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE] })));
    runtime.queue(device).parallelFor(SCALE, [64]);
    app.unregister();
    expect(driver.count('cuModuleUnload')).toBe(1);
  });

  it('links several images with cuLink* into one module', () => {
    const { driver, cuda, device } = platform();
    const helper = '.version 7.8\n.target sm_90\n.address_size 64\n.visible .func (.param .b64 r) external_helper(.param .b64 p)\n{\n ret;\n}\n';
    const program = cuda.backend.build({
      device,
      kernel: FIXED,
      images: [
        { name: 'main', target: 'nvidia_gpu_sm_90', format: 0, role: 'main', entries: [FIXED], properties: new PropertySetRegistry(), bytes: Buffer.from(SCALE_PTX), specConstants: new Map() },
        { name: 'lib', target: 'nvidia_gpu_sm_90', format: 0, role: 'import', entries: [], properties: new PropertySetRegistry(), bytes: Buffer.from(helper), specConstants: new Map() },
      ],
    });
    expect(driver.calls.filter((c) => c.call.startsWith('cuLink')).map((c) => c.call + (c.detail === undefined ? '' : ` ${c.detail}`))).toEqual([
      'cuLinkCreate_v2 log 65536',
      'cuLinkAddData_v2 main',
      'cuLinkAddData_v2 lib',
      'cuLinkComplete',
      'cuLinkDestroy',
    ]);
    expect(program.unresolved).toEqual([]);
    expect(program.sources.get('external_helper')).toBe('lib');
  });
});

describe('CUDA back end: running kernels', () => {
  const scaleArgs = (data: Float32Array, factor: number): KernelArg[] => [...kernelArg.accessor(data), kernelArg.f32(factor)];

  it('packs accessor pointers, by-value ranges and scalars, copies the buffer in and back, and frees it', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE] })));
    const data = Float32Array.from({ length: 256 }, (_, i) => i);
    const launch = runtime.queue(device).parallelFor(SCALE, [256], scaleArgs(data, 0.5));
    expect([...data.slice(0, 4)]).toEqual([0, 0.5, 1, 1.5]);
    expect(data[255]).toBe(127.5);
    expect(launch.execution).toMatchObject({ backend: 'cuda', grid: [1, 1, 1], block: [256, 1, 1], bytesIn: 1024, bytesOut: 1024 });
    expect(driver.liveAllocations).toBe(0);
    expect(driver.calls.find((c) => c.call === 'cuLaunchKernel')?.detail).toBe(`${SCALE} grid 1x1x1 block 256x1x1 shared 0 params 5`);
  });

  it('leaves out the parameters sycl_kernel_omit_args dropped (SYCL/kernel param opt)', () => {
    const { device } = platform();
    const runtime = new Runtime();
    // The front end's kernel had a sixth parameter (an unused int) that dead-argument elimination removed.
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE], omitted: { [SCALE]: [false, false, false, false, false, true] } })));
    const data = new Float32Array([2, 4]);
    runtime.queue(device).parallelFor(SCALE, [2], [...scaleArgs(data, 3), kernelArg.i32(7)]);
    expect([...data]).toEqual([6, 12]);
    const error = thrown(() => runtime.queue(device).parallelFor(SCALE, [2], scaleArgs(data, 3)));
    expect(error.code).toBe(errc.invalid);
    expect(error.message).toBe(`Kernel ${SCALE} has 6 parameters (1 of them omitted by sycl_kernel_omit_args), but the submission passes 5 arguments`);
  });

  it('refuses an argument whose size is not the parameter size before allocating anything', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE] })));
    const data = new Float32Array(4);
    const error = thrown(() => runtime.queue(device).parallelFor(SCALE, [4], [...kernelArg.accessor(data), kernelArg.f64(1)]));
    expect(error.code).toBe(errc.invalid);
    expect(error.message).toBe(`argument 4 of kernel ${SCALE} (PTX parameter _ZTS5Scale_param_4, 4 bytes): a f64 scalar has 8 bytes`);
    const count = thrown(() => runtime.queue(device).parallelFor(SCALE, [4], [kernelArg.buffer(data)]));
    expect(count.message).toBe(`Kernel ${SCALE} takes 5 arguments (after sycl_kernel_omit_args), the submission passes 1`);
    expect(driver.count('cuMemAlloc_v2')).toBe(0);
  });

  it('checks the requirements before building or launching: a required sub-group size of 8 is kernel_not_supported', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE], requirements: { reqdSubGroupSize: 8 } })));
    const error = thrown(() => runtime.queue(device).parallelFor(SCALE, [64], scaleArgs(new Float32Array(64), 2)));
    expect(error.render()).toBe('kernel_not_supported: Sub-group size 8 is not supported on the device');
    expect(driver.count('cuModuleLoadDataEx') + driver.count('cuLaunchKernel') + driver.count('cuMemAlloc_v2')).toBe(0);
  });

  it('reverses SYCL dimensions into CUDA order and uses .reqntid for a plain range', () => {
    const seen: FakeLaunch[] = [];
    const { device } = platform({ kernels: { [FIXED]: (launch) => seen.push(launch) } });
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE, FIXED] })));
    const out = new BigInt64Array(4 * 64);
    runtime.queue(device).parallelFor(FIXED, [4, 64], [kernelArg.buffer(out, 'write'), kernelArg.i64(5)]);
    expect(seen[0]).toMatchObject({ grid: [2, 2, 1], block: [32, 2, 1] });
    const mismatch = thrown(() => runtime.queue(device).submit((h) => h.parallelForNd(FIXED, [4, 64], [1, 64], [kernelArg.buffer(out), kernelArg.i64(5)])));
    expect(mismatch.code).toBe(errc.nd_range);
    expect(mismatch.message).toBe(`Kernel ${FIXED} requires work-groups of {1, 2, 32} (.reqntid), the submission asks for {1, 1, 64}`);
  });

  it('runs nd_range submissions with the given work-group size', () => {
    const { driver, device } = platform();
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE] })));
    const data = new Float32Array(128).fill(1);
    runtime.queue(device).submit((h) => h.parallelForNd(SCALE, range(128), [32], scaleArgs(data, 2)));
    expect(data.every((v) => v === 2)).toBe(true);
    expect(driver.calls.find((c) => c.call === 'cuLaunchKernel')?.detail).toContain('grid 4x1x1 block 32x1x1');
    expect(thrown(() => runtime.queue(device).submit((h) => h.parallelForNd(SCALE, range(100), [32], scaleArgs(data, 2)))).code).toBe(errc.nd_range);
  });

  it('frees device memory when the kernel faults, and reports the fault as a runtime error', () => {
    const { driver, device } = platform();
    // A fault surfaces at synchronization, as on a real device.
    driver.contextSynchronize = () => {
      throw new CudaDriverError('cuCtxSynchronize', 700, 'CUDA_ERROR_ILLEGAL_ADDRESS', 'an illegal memory access was encountered');
    };
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE] })));
    const error = thrown(() => runtime.queue(device).parallelFor(SCALE, [8], scaleArgs(new Float32Array(8), 2)));
    expect(error.render()).toBe(`runtime: CUDA device ${device.name}: cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)`);
    expect(driver.liveAllocations).toBe(0);
  });

  it('runs kernels only on a backend that executes: arguments for a simulated device are feature_not_supported', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(image({ name: 'app_0', ptx: SCALE_PTX, kernels: [SCALE], target: 'nvptx64' })));
    const error = thrown(() => runtime.queue(deviceFromTarget('nvidia_gpu_sm_90')).parallelFor(SCALE, [8], scaleArgs(new Float32Array(8), 2)));
    expect(error.render()).toBe('feature_not_supported: the simulated-jit backend builds programs but does not run kernels; kernel arguments need a device that executes (a CUDA device)');
  });
});

describe('finding a CUDA platform', () => {
  it('finds none when the driver does not initialize or has no device, and throws for nothing else', async () => {
    const { findCudaPlatform } = await import('./platform.js');
    expect(findCudaPlatform({ driver: new FakeCudaDriver({ initStatus: 100 }) })).toBeUndefined();
    expect(findCudaPlatform({ driver: new FakeCudaDriver({ devices: [] }) })).toBeUndefined();
    expect(findCudaPlatform({ driver: new FakeCudaDriver() })?.devices).toHaveLength(1);
  });
});

/**
 * The CUDA platform: the driver, its devices as runtime devices, and the back end they use. A
 * device from here carries its back end, so a `Runtime` builds and runs its kernels on the GPU
 * while simulated devices in the same runtime keep the simulated JIT.
 */
import { DeviceConfig } from '@syclkit/device-config';
import type { Device } from '../device.js';
import { cudaBackend, type CudaBackend, type CudaBackendOptions } from './backend.js';
import { cudaDeviceFromAttributes, readCudaDeviceAttributes, type CudaDeviceAttributes } from './device.js';
import { CUresult, CudaDriverError, type CudaDriver } from './driver.js';
import { CudaUnavailableError, loadCudaDriver, type LoadCudaDriverOptions } from './koffi-driver.js';

export interface CudaPlatformOptions extends LoadCudaDriverOptions, CudaBackendOptions {
  /** A driver to use instead of loading libcuda (a `FakeCudaDriver` in tests). */
  readonly driver?: CudaDriver;
  /** Targets and aspect names (default: the built-in configuration). */
  readonly config?: DeviceConfig;
}

export interface CudaPlatform {
  readonly driver: CudaDriver;
  /** `cuDriverGetVersion`: 13000 is CUDA 13.0. */
  readonly driverVersion: number;
  readonly backend: CudaBackend;
  /** One runtime device per CUDA device, bound to `backend`. */
  readonly devices: readonly Device[];
  /** What the driver reported for each device (same order). */
  readonly attributes: readonly CudaDeviceAttributes[];
  /** Unloads every module the back end loaded. */
  close(): void;
}

/**
 * Opens the CUDA driver and lists its devices. Throws `CudaUnavailableError` when there is no
 * driver, it does not initialize, or it has no device.
 */
export function openCudaPlatform(options: CudaPlatformOptions = {}): CudaPlatform {
  const driver = options.driver ?? loadCudaDriver(options);
  try {
    driver.init();
  } catch (error) {
    if (error instanceof CudaDriverError) throw new CudaUnavailableError(`the CUDA driver (${driver.source}) did not initialize: ${error.message}`);
    throw error;
  }
  const count = driver.deviceCount();
  if (count === 0) throw new CudaUnavailableError(`the CUDA driver (${driver.source}) reports no device (${CUresult.CUDA_ERROR_NO_DEVICE})`);
  const backend = cudaBackend(driver, options);
  const config = options.config ?? DeviceConfig.builtin();
  const devices: Device[] = [];
  const attributes: CudaDeviceAttributes[] = [];
  for (let ordinal = 0; ordinal < count; ordinal++) {
    const read = readCudaDeviceAttributes(driver, driver.device(ordinal));
    const device = cudaDeviceFromAttributes(read, config, backend);
    backend.attach(device, ordinal);
    devices.push(device);
    attributes.push(read);
  }
  return { driver, driverVersion: driver.driverVersion(), backend, devices, attributes, close: () => backend.close() };
}

/**
 * The CUDA devices of this machine, or none when there is no usable driver (no koffi, no
 * libcuda, no device): what "use the GPU when one is present" needs.
 */
export function findCudaPlatform(options: CudaPlatformOptions = {}): CudaPlatform | undefined {
  try {
    return openCudaPlatform(options);
  } catch (error) {
    if (error instanceof CudaUnavailableError) return undefined;
    throw error;
  }
}

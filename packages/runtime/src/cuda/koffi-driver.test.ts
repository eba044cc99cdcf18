import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { thrown } from '../../test/thrown.js';
import { errc, kernelArg, openCudaPlatform, range } from '../index.js';
import { CudaUnavailableError, loadCudaDriver } from './koffi-driver.js';

// The koffi binding against a C stand-in for libcuda (test/fake-libcuda): the real FFI path —
// declarations, out-parameters, JIT option arrays, kernel parameter arrays — without a GPU.
const source = fileURLToPath(new URL('../../test/fake-libcuda/fake_libcuda.c', import.meta.url));
const hasCc = spawnSync('cc', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'syclkit-fake-libcuda-'));
const library = join(dir, 'libcuda.so.1');
if (hasCc) execFileSync('cc', ['-shared', '-fPIC', '-o', library, source]);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AXPY = `.version 7.8\n.target sm_90\n.address_size 64\n.visible .entry fake_axpy(\n\t.param .u64 fake_axpy_param_0,\n\t.param .u64 fake_axpy_param_1,\n\t.param .f32 fake_axpy_param_2\n)\n{\n\tret;\n}\n`;

describe.skipIf(!hasCc)('koffi binding of the CUDA driver (fake libcuda built with cc)', () => {
  it('reads the device through out-parameters and maps it to nvidia_gpu_sm_90', () => {
    const cuda = openCudaPlatform({ library });
    expect(cuda.driverVersion).toBe(13000);
    expect(cuda.devices.map((d) => [d.name, d.target, d.subGroupSizes])).toEqual([['Fake H100 (syclkit fake libcuda)', 'nvidia_gpu_sm_90', [32]]]);
    expect(cuda.attributes[0]!.totalMemory).toBe(80 * 2 ** 30);
  });

  it('builds with cuModuleLoadDataEx, passes pointers and a float through kernelParams, copies back', () => {
    const cuda = openCudaPlatform({ library });
    const device = cuda.devices[0]!;
    const image = { name: 'axpy', target: 'nvidia_gpu_sm_90', format: 0, role: 'main' as const, entries: ['fake_axpy'], properties: undefined as never, bytes: Buffer.from(AXPY), specConstants: new Map() };
    const program = cuda.backend.build({ device, kernel: 'fake_axpy', images: [image] });
    expect(program.buildLog).toBe('ptxas info    : fake JIT compiled the module');
    const y = new Float32Array([1, 2, 3, 4]);
    const x = new Float32Array([10, 20, 30, 40]);
    const run = cuda.backend.execute!({ device, kernel: 'fake_axpy', program, range: range(4), args: [kernelArg.buffer(y), kernelArg.buffer(x, 'read'), kernelArg.f32(0.5)] });
    expect([...y]).toEqual([6, 12, 18, 24]);
    expect(run).toMatchObject({ grid: [1, 1, 1], block: [4, 1, 1], bytesIn: 32, bytesOut: 16 });
    cuda.close();
  });

  it('returns the error log of a failed build through the JIT option buffers', () => {
    const cuda = openCudaPlatform({ library });
    const device = cuda.devices[0]!;
    const image = { name: 'bad', target: 'nvidia_gpu_sm_90', format: 0, role: 'main' as const, entries: [], properties: undefined as never, bytes: Buffer.from(`${AXPY}// FAKE_BUILD_ERROR\n`), specConstants: new Map() };
    const error = thrown(() => cuda.backend.build({ device, kernel: 'fake_axpy', images: [image] }));
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toContain('cuModuleLoadDataEx returned CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)\nBuild log:\nptxas application ptx input, line 1; error   : FAKE_BUILD_ERROR found');
  });

  it('links two PTX images through cuLinkCreate/AddData/Complete', () => {
    const cuda = openCudaPlatform({ library });
    const device = cuda.devices[0]!;
    const base = { target: 'nvidia_gpu_sm_90', format: 0, entries: [], properties: undefined as never, specConstants: new Map() };
    const program = cuda.backend.build({
      device,
      kernel: 'fake_axpy',
      images: [
        { ...base, name: 'main', role: 'main', bytes: Buffer.from(AXPY) },
        { ...base, name: 'lib', role: 'import', bytes: Buffer.from('.version 7.8\n.target sm_90\n.visible .func helper()\n{\n\tret;\n}\n') },
      ],
    });
    expect(program.functions).toEqual(['fake_axpy', 'helper']);
  });
});

describe('loading the driver where there is none', () => {
  it('throws CudaUnavailableError naming the library', () => {
    expect(() => loadCudaDriver({ library: join(dir, 'missing', 'libcuda.so.1') })).toThrow(CudaUnavailableError);
    expect(() => loadCudaDriver({ library: join(dir, 'missing', 'libcuda.so.1') })).toThrow(/the CUDA driver library '.*missing\/libcuda\.so\.1' cannot be loaded/);
  });
});

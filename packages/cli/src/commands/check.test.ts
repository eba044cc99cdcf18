import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, deviceFromTarget } from '@syclkit/runtime';
import { SAMPLE_KERNELS, scratch, syclkit, writeSample } from '../../test/harness.js';
import { builtinDevices } from '../driver/check.js';

const s = scratch('check');
let app = '';
beforeAll(async () => {
  const units = writeSample(s.dir);
  app = s.path('app.fatbin');
  const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,intel_gpu_pvc,intel_gpu_dg1', '-o', app);
  if (r.code !== 0) throw new Error(r.err);
});
afterAll(() => s.cleanup());

const DEVICES = 'intel_gpu_pvc,intel_gpu_dg1,intel_gpu_tgllp,amd_gpu_gfx90a';

/** What the runtime itself says for a pair (the oracle). */
function runtimeSays(kernel: string, device: string): string {
  const reader = ContainerReader.open(app);
  try {
    const runtime = new Runtime();
    runtime.registerFatBinary(reader);
    runtime.checkKernel(kernel, deviceFromTarget(device));
    return 'ok';
  } catch (error) {
    if (error instanceof SyclError) return `${error.code}: ${error.message}`;
    throw error;
  } finally {
    reader.close();
  }
}

describe('syclkit check', () => {
  it("gives every kernel x device pair, and each refusal with the runtime's own message", async () => {
    const r = await syclkit('check', app, '--devices', DEVICES, '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.kernels).toHaveLength(6);
    expect(json.devices.map((d: { name: string }) => d.name)).toEqual(DEVICES.split(','));
    expect(json.results).toHaveLength(24);
    for (const cell of json.results) {
      const oracle = runtimeSays(cell.kernel, cell.device);
      if (cell.stage === 'build') continue; // refused by the JIT build after the check passed
      expect(cell.ok ? 'ok' : `${cell.errc}: ${cell.message}`).toBe(oracle);
    }
    const cell = (k: string, d: string) => json.results.find((c: { kernel: string; device: string }) => c.kernel === k && c.device === d);
    expect(cell(SAMPLE_KERNELS.scaleVelocity, 'intel_gpu_dg1')).toMatchObject({ ok: false, errc: 'kernel_not_supported', message: 'Required aspect fp64 is not supported on the device', bundle: 'intel_gpu_dg1' });
    expect(cell(SAMPLE_KERNELS.subgroupReduce, 'intel_gpu_pvc')).toMatchObject({ ok: false, message: 'Sub-group size 8 is not supported on the device' });
    expect(cell(SAMPLE_KERNELS.integrate, 'amd_gpu_gfx90a')).toMatchObject({ ok: false, errc: 'runtime' }); // no HIP bundle, HIP cannot JIT SPIR-V
    expect(cell(SAMPLE_KERNELS.energyCounters, 'intel_gpu_tgllp')).toMatchObject({ ok: true, bundle: 'spir64', match: 'jit' });
  });

  it('prints the matrix with numbered refusal reasons', async () => {
    const r = await syclkit('check', app, '--devices', 'intel_gpu_pvc,intel_gpu_dg1');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${app}: 6 kernels x 2 devices`);
    expect(r.out).toMatch(/^device {9}K1 +K2 +K3 +K4 +K5 +K6$/m);
    expect(r.out).toContain('  [1] kernel_not_supported: ');
    expect(r.out).toMatch(/^intel_gpu_dg1 +\[\d\] +\[\d\] +ok +ok +\[\d\] +ok$/m);
  });

  it('marks pairs for which no image fits the device with --, and quotes the runtime once', async () => {
    const r = await syclkit('check', app, '--devices', 'intel_gpu_pvc,nvidia_gpu_sm_80,amd_gpu_gfx90a');
    expect(r.out).toMatch(/^nvidia_gpu_sm_80 +-- +-- +-- +-- +-- +--$/m);
    expect(r.out).toContain('  --  no image of the binary can run on the device (it has no bundle the device takes); the runtime says, e.g.:\n');
    expect(r.out).toContain(`      runtime: No device image of kernel ${SAMPLE_KERNELS.shadePixels} is compatible with device nvidia_gpu_sm_80; the registered binaries have images of it for targets: spir64, intel_gpu_pvc, intel_gpu_dg1\n`);
    expect(r.out.match(/No device image/g)).toHaveLength(1);
  });

  it('exits 1 when a --require pair cannot run, naming the reason; 0 when all can', async () => {
    const fail = await syclkit('check', app, '--devices', 'intel_gpu_pvc', '--require', 'ScaleVelocity@intel_gpu_dg1', '--require', `${SAMPLE_KERNELS.integrate}@intel_gpu_dg1`);
    expect(fail.code).toBe(1);
    expect(fail.err).toBe(`syclkit check: error: required ${SAMPLE_KERNELS.scaleVelocity} on intel_gpu_dg1, which refuses it: kernel_not_supported: Required aspect fp64 is not supported on the device\n`);
    const pass = await syclkit('check', app, '--devices', 'intel_gpu_pvc', '--require', 'ScaleVelocity@intel_gpu_pvc', '--json');
    expect(pass.code).toBe(0);
    expect(JSON.parse(pass.out).required).toEqual([{ kernel: SAMPLE_KERNELS.scaleVelocity, device: 'intel_gpu_pvc', ok: true }]);
  });

  it('reads devices from description files', async () => {
    const file = s.file('gpu.yaml', 'name: my-gpu\ndevice-type: gpu\nbackend: opencl\naspects: [fp16]\nsub-group-sizes: [8, 16]\nmax-work-group-size: 256\n');
    const r = await syclkit('check', app, '--device-file', file, '--json');
    const json = JSON.parse(r.out);
    expect(json.devices.map((d: { name: string }) => d.name)).toEqual(['my-gpu']);
    expect(json.results.find((c: { kernel: string }) => c.kernel === SAMPLE_KERNELS.subgroupReduce).ok).toBe(true);
    expect(json.results.find((c: { kernel: string }) => c.kernel === SAMPLE_KERNELS.energyCounters).message).toBe('Required aspect atomic64 is not supported on the device');
  });

  it('checks every built-in device by default', async () => {
    const r = await syclkit('check', app, '--json', '--no-build');
    expect(JSON.parse(r.out).devices).toHaveLength(builtinDevices().length);
    expect(builtinDevices().length).toBeGreaterThan(50);
  });

  it('refuses bad input clearly', async () => {
    expect((await syclkit('check', app, '--require', 'Nope@intel_gpu_pvc')).err).toContain("--require: the binary has no kernel 'Nope'");
    expect((await syclkit('check', app, '--require', 'Integrate')).err).toContain("--require needs <kernel>@<device>, got 'Integrate'");
    expect((await syclkit('check', app, '--devices', 'intel_gpu_pvx')).err).toContain("did you mean 'intel_gpu_pvc'");
    const notContainer = s.file('not.fatbin', 'hello');
    const r = await syclkit('check', notContainer);
    expect(r.code).toBe(1);
    expect(r.err).toContain('not a syclkit fat-binary container');
  });
});

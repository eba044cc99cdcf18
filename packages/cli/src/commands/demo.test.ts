import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseModule } from '@syclkit/ir';
import { findLlvmTool } from '@syclkit/gpu-targets';
import { scratch, syclkit } from '../../test/harness.js';
import { demoDeviceObj } from './demo.js';

const s = scratch('demo');
afterAll(() => s.cleanup());

describe('syclkit demo', () => {
  it('compiles the sample, shows images, the matrix, an explanation and submissions, including a refusal and the speculative-compilation case', async () => {
    const r = await syclkit('demo');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const out = r.out;
    expect(out).toContain('1. Compile: link, device_if, aspect propagation, split, AOT filtering, wrap');
    expect(out).toContain("[-Wsycl-aspect-mismatch]");
    expect(out).toMatch(/bundle intel_gpu_dg1: 5 images\n(?:.*\n)*?.*_ZTS13ScaleVelocity {2}needs: fp64 {2}empty/);
    expect(out).toContain('2. Which kernel runs where, and why not');
    expect(out).toContain('[2] kernel_not_supported: Required aspect fp64 is not supported on the device');
    expect(out).toContain("nbody.cpp:6:37: 'damp(float)' (nbody.ll) uses 'fp64' here:\n       %conv = fpext float %v to double");
    expect(out).toContain('queue(intel_gpu_dg1).parallel_for<ScaleVelocity>(1024)\n     threw sycl::exception kernel_not_supported: Required aspect fp64 is not supported on the device');
    expect(out).toContain('queue(intel_gpu_pvc).parallel_for<ScaleVelocity>(1024)\n     ran: bundle intel_gpu_pvc');
    // device_if on JIT: the add-on pair's definitions where the device has fp16, its stubs elsewhere.
    expect(out).toMatch(/queue\(intel_gpu_skl\)\.parallel_for<ShadePixels>\(1024\)\n {5}ran: bundle spir64, image \S+ with device_if add-on image \S+ \(definitions\)/);
    expect(out).toMatch(/queue\(fp64-only-gpu\)\.parallel_for<ShadePixels>\(1024\)\n {5}ran: bundle spir64, image \S+ with device_if add-on image \S+ \(stubs\)/);
    // Speculative compilation: design bundling succeeds, intel/llvm's grouping refuses a kernel that needs nothing.
    expect(out).toMatch(/syclkit \(design bundling\): \d+ images, kernels grouped by what they require \(and the device_if add-on pair\)\n {3}queue\(intel_gpu_tgllp\)\.parallel_for<Integrate>\(1024\)\n {5}ran: /);
    expect(out).toMatch(/--bundling=upstream\): 1 image for all kernels \(and the device_if add-on pair\)\n {3}queue\(intel_gpu_tgllp\)\.parallel_for<Integrate>\(1024\)\n {5}threw sycl::exception kernel_not_supported: /);
  });

  const native = findLlvmTool('llc') !== undefined && findLlvmTool('ld.lld') !== undefined;
  it('shows PTX and AMDGPU code objects for the NVIDIA and AMD targets when LLVM 16 is installed, and says why not otherwise', async () => {
    const out = (await syclkit('demo')).out;
    expect(out).toContain('-fsycl-targets=spir64,intel_gpu_pvc,intel_gpu_dg1,nvidia_gpu_sm_80,amd_gpu_gfx90a');
    if (native) {
      expect(out).toMatch(/app_nvidia_gpu_sm_80_\d+ {2}PTX \.target sm_80, \.entry _ZTS9Integrate, _ZTS9Integrate_with_offset\n/);
      expect(out).toMatch(/app_amd_gpu_gfx90a_\d+ {2}AMDGPU code object \(ELF\), kernels _ZTS13ScaleVelocity, _ZTS13ScaleVelocity_with_offset\n/);
      // check gives the GPUs real rows: ran or refused for a requirement, never "no image"
      expect(out).toMatch(/ {3}nvidia_gpu_sm_80 {2}ok {3}ok {3}ok {2}\[1\] {2}ok {3}ok\n/);
      expect(out).toMatch(/queue\(amd_gpu_gfx90a\)\.parallel_for<ShadePixels>\(1024\)\n {5}ran: bundle amd_gpu_gfx90a/);
    } else {
      expect(out).toContain("LLVM 16's llc and ld.lld are not installed here");
    }
  });

  it('says whether its images are SPIR-V or LLVM IR, and how to get the other', async () => {
    const { deviceObj } = demoDeviceObj();
    const out = (await syclkit('demo')).out;
    if (deviceObj === 'spirv') {
      expect(out).toContain('   Images of spir64 and the Intel targets are SPIR-V (llvm-spirv is installed): llvm-spirv translated\n');
      expect(out).toContain('For LLVM IR images: -fsycl-device-obj=llvmir.\n');
    } else {
      expect(out).toMatch(/ {3}Images are LLVM IR, as -fsycl-device-obj=llvmir makes them: .*\.\n {3}For SPIR-V images, as DPC\+\+ makes them: /);
      expect(out).toContain('-fsycl-device-obj=llvmir -o app.fatbin -v\n');
    }
    const saved = process.env['SYCLKIT_DEVICE_OBJ'];
    process.env['SYCLKIT_DEVICE_OBJ'] = 'llvmir';
    try {
      const ir = (await syclkit('demo')).out;
      expect(ir).toContain('   Images are LLVM IR, as -fsycl-device-obj=llvmir makes them: SYCLKIT_DEVICE_OBJ=llvmir.\n   For SPIR-V images, as DPC++ makes them: unset SYCLKIT_DEVICE_OBJ (llvm-spirv: apt-get install llvm-spirv-15 llvm-15 (Debian), or bash scripts/setup-llvm.sh).\n');
      process.env['SYCLKIT_DEVICE_OBJ'] = 'spir';
      expect(await syclkit('demo')).toMatchObject({ code: 1, err: 'syclkit demo: error: SYCLKIT_DEVICE_OBJ=spir: expected spirv or llvmir\n' });
    } finally {
      if (saved === undefined) delete process.env['SYCLKIT_DEVICE_OBJ'];
      else process.env['SYCLKIT_DEVICE_OBJ'] = saved;
    }
  });

  it('writes the same text every time', async () => {
    expect((await syclkit('demo')).out).toBe((await syclkit('demo')).out);
  });

  it('writes the sample translation units with --write-sample, as valid IR', async () => {
    const r = await syclkit('demo', '--write-sample', s.dir);
    expect(r.code).toBe(0);
    for (const name of ['nbody.ll', 'shade.ll', 'tonemap.ll']) {
      const module = parseModule(readFileSync(s.path(name), 'latin1'), { filename: name });
      expect(module.triple).toBe('spir64-unknown-unknown');
    }
  });
});

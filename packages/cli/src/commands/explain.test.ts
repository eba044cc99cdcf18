import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SAMPLE_KERNELS, scratch, syclkit, writeSample } from '../../test/harness.js';
import { runSyclkit } from '../../test/testing.js';

const s = scratch('explain');
let units: string[] = [];
let app = '';
beforeAll(async () => {
  units = writeSample(s.dir);
  app = s.path('app.fatbin');
  const r = await syclkit('compile', '-fsycl-device-obj=llvmir', ...units, '-fsycl-targets=spir64,amd_gpu_gfx90a', '-o', app);
  if (r.code !== 0) throw new Error(r.err);
});
afterAll(() => s.cleanup());

describe('syclkit explain', () => {
  it('shows the call chain from the kernel to the float promoted to double, from the fat binary alone', async () => {
    const r = await syclkit('explain', app, '--kernel', 'ScaleVelocity', '--aspect', 'fp64');
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        "kernel '_ZTS13ScaleVelocity' needs aspect 'fp64'; use is from this call chain:",
        '  _ZTS13ScaleVelocity',
        "  main::'lambda0'(sycl::_V1::id<1>)::operator()(sycl::_V1::id<1>) const  nbody.cpp:24:5",
        '  damp(float)                                                            nbody.cpp:25:16',
        `nbody.cpp:6:37: 'damp(float)' (${units[0]}) uses 'fp64' here:`,
        '    %conv = fpext float %v to double',
        "  its type is 'double': a float promoted to double (in float code, a double literal such as 0.99 does this; write 0.99f)",
        "  ('damp(float)' uses 'fp64' 2 more times)",
        "image 'app_spir64_4' of bundle spir64 requires 'fp64'",
        '',
      ].join('\n'),
    );
  });

  it('gives the same chain from the translation units, across files', async () => {
    const r = await syclkit('explain', ...units, '--kernel', SAMPLE_KERNELS.shadePixels, '--aspect', '6', '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.chain.map((c: { callee: string }) => c.callee)).toEqual(['_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_', '_Z7tonemapf']);
    expect(json.use).toMatchObject({ function: '_Z7tonemapf', unit: units[2], instruction: '%conv = fpext float %x to double', type: 'double', location: { file: 'tonemap.cpp', line: 3, column: 55 } });
    expect(json.image).toBeNull();
  });

  it('marks a use inside a device_if action with its condition, and says when a target decided it away', async () => {
    const r = await syclkit('explain', app, '--kernel', 'ShadePixels', '--aspect', 'fp16', '--target', 'amd_gpu_gfx90a');
    expect(r.code).toBe(0);
    expect(r.out).toContain("needs aspect 'fp16' only where a device_if condition holds");
    expect(r.out).toContain('[device_if: fp16]');
    expect(r.out).toContain("image 'app_amd_gpu_gfx90a_0' of bundle amd_gpu_gfx90a does not require 'fp16' (the device_if condition was decided at compile time for this target)");
    const jit = await syclkit('explain', app, '--kernel', 'ShadePixels', '--aspect', 'fp16');
    expect(jit.out).toContain("image 'app_spir64_0' of bundle spir64 does not require 'fp16': the device_if block is in an add-on image, linked (and required) only where its condition holds");
  });

  it("reads the fat binary, or a translation unit, from standard input for '-'", async () => {
    const fromFile = await syclkit('explain', app, '--kernel', 'ScaleVelocity', '--aspect', 'fp64');
    const binary = await runSyclkit(['explain', '-', '--kernel', 'ScaleVelocity', '--aspect', 'fp64'], readFileSync(app, 'latin1'));
    expect(binary.code).toBe(0);
    expect(binary.out).toBe(fromFile.out);
    const rest = units.slice(1);
    const fromUnits = await syclkit('explain', ...units, '--kernel', SAMPLE_KERNELS.shadePixels, '--aspect', '6', '--json');
    const unitOnStdin = await runSyclkit(['explain', '-', ...rest, '--kernel', SAMPLE_KERNELS.shadePixels, '--aspect', '6', '--json'], readFileSync(units[0]!, 'latin1'));
    expect(unitOnStdin.code).toBe(fromUnits.code);
    expect(JSON.parse(unitOnStdin.out).explanation).toEqual(JSON.parse(fromUnits.out).explanation);
  });

  it('exits 1 when the kernel does not use the aspect, listing what it does use', async () => {
    const r = await syclkit('explain', app, '--kernel', 'EnergyCounters', '--aspect', 'fp64');
    expect(r.code).toBe(1);
    expect(r.out).toBe("kernel '_ZTS14EnergyCounters' does not use aspect 'fp64' (it uses: atomic64); image 'app_spir64_5' of bundle spir64 does not require 'fp64'\n");
  });

  it('refuses unknown kernels and aspects with suggestions, and binaries without facts', async () => {
    expect((await syclkit('explain', app, '--kernel', 'ScaleVelocty', '--aspect', 'fp64')).err).toContain("no kernel 'ScaleVelocty'");
    expect((await syclkit('explain', app, '--kernel', 'ScaleVelocity', '--aspect', 'fp64x')).err).toContain("unknown aspect 'fp64x'; did you mean 'fp64'?");
    const bare = s.path('bare.fatbin');
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', units[0]!, '-o', bare, '--no-explain-info')).code).toBe(0);
    const r = await syclkit('explain', bare, '--kernel', 'ScaleVelocity', '--aspect', 'fp64');
    expect(r.code).toBe(1);
    expect(r.err).toContain('holds no explanation facts (property set syclkit/explain)');
    expect((await syclkit('explain', app, '--aspect', 'fp64')).err).toContain('--kernel <name> is required');
  });
});

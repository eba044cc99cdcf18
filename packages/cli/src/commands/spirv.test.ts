// The driver with SPIR-V images: compile stores SPIR-V for spir64 and the Intel targets by default
// (as DPC++), every image passes spirv-val (the tests set SYCLKIT_SPIRV_VAL=1, so the SPIR-V step
// validates each one, and the tests validate what they read back), inspect -extract writes them,
// and check, run and explain answer on a SPIR-V binary exactly as on the same program kept as IR.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpirvModule } from '@syclkit/formats';
import { AotToolError, ContainerReader, ImageFormat, canPrintForLlvm, findLlvmSpirvTools } from '@syclkit/offload-wrapper';
import { Runtime, deviceFromTarget } from '@syclkit/runtime';
import { SPIRV_TOOLS, SPIRV_TOOLS_MISSING, spirvValErrors } from '@syclkit/testing';
import { scratch, syclkit, writeSample } from '../../test/harness.js';
import { compileProgram, type CompileResult } from '../driver/compile.js';
import { compatibilityMatrix, formatMatrix } from '../driver/check.js';
import { answerExplain, factsFromContainer, formatAnswer } from '../driver/explain.js';
import { SAMPLE_UNITS } from '../driver/sample.js';
import { DEFAULT_DEVICE_OBJ } from '../driver/device-code.js';
import { DEMO_TARGETS } from './demo.js';

const ready = SPIRV_TOOLS !== undefined && canPrintForLlvm(findLlvmSpirvTools().llvmMajor) && (process.env['SYCLKIT_DEVICE_OBJ'] ?? '') === '';
const why = SPIRV_TOOLS === undefined ? SPIRV_TOOLS_MISSING : (process.env['SYCLKIT_DEVICE_OBJ'] ?? '') !== '' ? 'SYCLKIT_DEVICE_OBJ is set' : "syclkit cannot print IR for the installed translator's LLVM";

/** Every image of the SPIR-V based bundles, with its bytes: each must be SPIR-V that spirv-val accepts. */
function spirvImageProblems(container: Uint8Array): { images: number; problems: string[] } {
  const reader = ContainerReader.fromBytes(container);
  let images = 0;
  const problems: string[] = [];
  for (const bundle of reader.bundles) {
    if (bundle.target.startsWith('nvidia') || bundle.target.startsWith('amd')) continue;
    for (const image of bundle.images) {
      if (image.empty) continue;
      images++;
      if (image.format !== ImageFormat.SPIRV) problems.push(`${bundle.target} ${image.name}: format ${image.format}, not SPIR-V`);
      else {
        const errors = spirvValErrors(reader.readImageData(image));
        if (errors !== undefined) problems.push(`${bundle.target} ${image.name}: ${errors}`);
      }
    }
  }
  return { images, problems };
}

describe('the default of -fsycl-device-obj', () => {
  it('is spirv, as DPC++; without llvm-spirv compile fails naming the Debian packages, and does not fall back to IR', async () => {
    expect(DEFAULT_DEVICE_OBJ).toBe('spirv');
    const s = scratch('no-spirv');
    try {
      const failed = await compileProgram({ units: SAMPLE_UNITS, targets: 'spir64', name: 'app', spirv: { dirs: [s.dir] } }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(AotToolError);
      expect((failed as Error).message).toMatch(/^SPIR-V images need llvm-spirv, the Khronos LLVM\/SPIR-V translator, which is not installed \(looked for .*\); on Debian: apt-get install llvm-spirv-15 llvm-15; or keep LLVM IR \(compile -fsycl-device-obj=llvmir, wrap -aot=ir\)$/);
      // targets that are not SPIR-V based need no translator
      expect((await compileProgram({ units: SAMPLE_UNITS, targets: 'amd_gpu_gfx90a', name: 'app', spirv: { dirs: [s.dir] } })).ok).toBe(true);
      expect((await compileProgram({ units: SAMPLE_UNITS, targets: 'spir64', name: 'app', deviceObj: 'llvmir', spirv: { dirs: [s.dir] } })).ok).toBe(true);
    } finally {
      s.cleanup();
    }
  });
});
const TARGETS = 'spir64,intel_gpu_pvc,intel_gpu_dg1,amd_gpu_gfx90a';
const DEVICES = ['intel_gpu_pvc', 'intel_gpu_dg1', 'intel_gpu_tgllp', 'amd_gpu_gfx90a'].map((name) => deviceFromTarget(name));

describe.skipIf(!ready)(`SPIR-V images${ready ? '' : ` (skipped: ${why})`}`, () => {
  const s = scratch('spirv');
  afterAll(() => s.cleanup());
  let spirv: CompileResult;
  let ir: CompileResult;
  beforeAll(async () => {
    spirv = await compileProgram({ units: SAMPLE_UNITS, targets: TARGETS, name: 'app', deviceObj: 'spirv' });
    ir = await compileProgram({ units: SAMPLE_UNITS, targets: TARGETS, name: 'app', deviceObj: 'llvmir' });
  }, 120_000);

  it('stores SPIR-V for spir64 and the Intel targets, IR for AMD, and every SPIR-V image passes spirv-val', () => {
    expect(spirv.ok).toBe(true);
    const reader = ContainerReader.fromBytes(spirv.container!);
    for (const bundle of reader.bundles) {
      for (const image of bundle.images) {
        if (image.empty) continue;
        const bytes = reader.readImageData(image);
        if (bundle.target === 'amd_gpu_gfx90a') {
          expect(image.format, image.name).not.toBe(2);
          continue;
        }
        expect(image.format, image.name).toBe(2);
        expect(spirvValErrors(bytes), image.name).toBeUndefined();
        // The entry points are the image's kernels (add-on images have none of their own).
        const kernels = image.entries.filter((entry) => !entry.startsWith('_ZZ'));
        expect(readSpirvModule(bytes).entryPoints.map((e) => e.name).sort()).toEqual([...kernels].sort());
      }
    }
  });

  for (const split of ['per_kernel', 'auto'] as const) {
    it(`-fsycl-device-code-split=${split}, by default: every image of spir64 and the Intel targets is SPIR-V that spirv-val accepts`, async () => {
      const result = await compileProgram({ units: SAMPLE_UNITS, targets: DEMO_TARGETS, name: 'app', split });
      expect(result.ok).toBe(true);
      const { images, problems } = spirvImageProblems(result.container!);
      expect(problems).toEqual([]);
      expect(images).toBeGreaterThanOrEqual(12);
    }, 120_000);
  }

  it('syclkit compile stores SPIR-V without -fsycl-device-obj, and inspect -extract writes each image as .spv that spirv-val accepts', async () => {
    const units = writeSample(s.dir);
    const bin = s.path('default.fatbin');
    const compiled = await syclkit('compile', ...units, '-fsycl-targets=spir64,intel_gpu_dg1', '-Wno-sycl-aspect-mismatch', '-o', bin);
    expect(compiled).toMatchObject({ code: 0, err: '' });
    const { images, problems } = spirvImageProblems(readFileSync(bin));
    expect(problems).toEqual([]);
    const out = s.path('extracted');
    mkdirSync(out);
    expect((await syclkit('inspect', bin, '-extract', out)).code).toBe(0);
    const written = readdirSync(out).sort();
    expect(written.length).toBe(images);
    for (const file of written) {
      expect(file).toMatch(/\.spv$/);
      expect(spirvValErrors(readFileSync(join(out, file))), file).toBeUndefined();
    }
  }, 120_000);

  it('keeps the same images, entries and requirements as the IR build', () => {
    const shape = (result: CompileResult) => result.report!.bundles.map((b) => b.images.map((i) => [b.target, i.name, i.kernels, i.empty, i.properties['SYCL/device requirements']]));
    expect(shape(spirv)).toEqual(shape(ir));
  });

  it('check, run and explain give the same answers on the SPIR-V binary as on the IR one', () => {
    const matrix = (result: CompileResult) => formatMatrix(compatibilityMatrix(ContainerReader.fromBytes(result.container!), DEVICES), 'app.fatbin');
    expect(matrix(spirv)).toBe(matrix(ir));
    const explain = (result: CompileResult) => {
      const { source, kernel } = factsFromContainer(ContainerReader.fromBytes(result.container!), 'ScaleVelocity');
      return formatAnswer(answerExplain(source, kernel, 'fp64'));
    };
    expect(explain(spirv)).toBe(explain(ir));
  });

  it('runs kernels from SPIR-V images through the CLI, and refuses as with IR', async () => {
    const bin = s.path('app.fatbin');
    writeFileSync(bin, spirv.container!);
    const ran = await syclkit('run', bin, '-kernel', '_ZTS9Integrate', '-device', 'intel_gpu_tgllp', '-range', '64');
    expect(ran).toMatchObject({ code: 0, out: '_ZTS9Integrate ran on intel_gpu_tgllp from bundle spir64, image app_spir64_2: 64 work-items, program of 3 functions\n' });
    const refused = await syclkit('run', bin, '-kernel', '_ZTS13ScaleVelocity', '-device', 'intel_gpu_dg1', '-range', '64');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('kernel_not_supported: Required aspect fp64 is not supported on the device');
  });

  it('speculative compilation: with split=off, design bundling runs Integrate on a device without fp64; intel/llvm\'s grouping refuses it', async () => {
    const tgllp = deviceFromTarget('intel_gpu_tgllp');
    for (const bundling of ['design', 'upstream'] as const) {
      const off = await compileProgram({ units: SAMPLE_UNITS, targets: 'spir64', name: 'off', split: 'off', bundling, deviceObj: 'spirv' });
      const runtime = new Runtime();
      runtime.registerFatBinary(ContainerReader.fromBytes(off.container!), { name: `off-${bundling}.fatbin` });
      const submit = () => runtime.queue(tgllp).parallelFor('_ZTS9Integrate', [1024]);
      if (bundling === 'design') expect(submit().program.kernels).toContain('_ZTS9Integrate');
      else expect(submit).toThrow(/Required aspect fp64 is not supported on the device/);
    }
  }, 120_000);
});

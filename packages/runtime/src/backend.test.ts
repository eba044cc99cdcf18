import { PropertySetRegistry } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { moduleText, type FunctionText } from '../test/program-model.js';
import { Capability, spirvModule } from '../test/spirv-model.js';
import { REQUIREMENTS_SET, SyclError, deviceFromTarget, encodeRequirementEntries, errc, simulatedJitBackend, type ProgramImage, type RequirementEntry } from './index.js';

const dg1 = deviceFromTarget('intel_gpu_dg1'); // no fp64, sub-groups 8 16 32, 512 work-items
const encoder = new TextEncoder();

function image(name: string, functions: readonly FunctionText[], options: Partial<ProgramImage> & { requirements?: Record<string, RequirementEntry[]> } = {}): ProgramImage {
  const properties = new PropertySetRegistry();
  for (const [kernel, entries] of Object.entries(options.requirements ?? {})) properties.add(REQUIREMENTS_SET, kernel, encodeRequirementEntries(entries));
  return {
    name,
    target: 'spir64',
    format: 0,
    role: 'main',
    entries: functions.filter((f) => f.kind === 'kernel').map((f) => f.name),
    properties,
    bytes: encoder.encode(moduleText(functions)),
    specConstants: new Map(),
    ...options,
  };
}

function buildError(images: ProgramImage[], kernel = 'K1'): SyclError {
  try {
    simulatedJitBackend().build({ device: dg1, kernel, images });
  } catch (error) {
    if (error instanceof SyclError) return error;
    throw error;
  }
  throw new Error('the build succeeded');
}

describe('simulatedJitBackend', () => {
  it('compiles every function of the images and reports the kernels', () => {
    const program = simulatedJitBackend().build({
      device: dg1,
      kernel: 'K1',
      images: [image('img', [{ name: 'K1', kind: 'kernel', calls: ['h'] }, { name: 'K2', kind: 'kernel', aspects: [5] }, { name: 'h', kind: 'helper' }])],
    });
    expect(program).toEqual({
      backend: 'simulated-jit',
      device: 'intel_gpu_dg1',
      images: ['img'],
      kernels: ['K1', 'K2'],
      functions: ['K1', 'K2', 'h'],
      sources: new Map([
        ['K1', 'img'],
        ['K2', 'img'],
        ['h', 'img'],
      ]),
      discarded: [],
      unresolved: [],
      inspected: true,
    });
  });

  it('fails on any function that uses an aspect the device lacks, not only the launched kernel', () => {
    const error = buildError([image('img', [{ name: 'K1', kind: 'kernel' }, { name: 'unrelated', kind: 'helper', aspects: [6] }])]);
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toBe("Build of device image 'img' for device intel_gpu_dg1 failed: function 'unrelated' uses aspect fp64, which the device does not support");
  });

  it('fails on unsupported required sub-group and work-group sizes', () => {
    expect(buildError([image('img', [{ name: 'K1', kind: 'kernel' }, { name: 'K2', kind: 'kernel', subGroupSize: 64 }])]).message).toMatch(
      /function 'K2' requires sub-group size 64, which the device does not support$/,
    );
    const wide = image('img', [{ name: 'K1', kind: 'kernel' }, { name: 'K2', kind: 'kernel', workGroupSize: [32, 32] }]);
    expect(buildError([wide]).message).toMatch(/function 'K2' requires work-group size \{32, 32\}, more than the device's 512 work-items$/);
    expect(simulatedJitBackend({ checkWorkGroupSize: false }).build({ device: dg1, kernel: 'K1', images: [wide] }).kernels).toEqual(['K1', 'K2']);
  });

  it('discards kernels whose SpecIds are false and what only they reach, keeping what a kept kernel reaches', () => {
    const functions: FunctionText[] = [
      { name: 'K1', kind: 'kernel', calls: ['shared'] },
      { name: 'K2', kind: 'kernel', aspects: [6], calls: ['shared', 'double_math'] },
      { name: 'shared', kind: 'helper' },
      { name: 'double_math', kind: 'helper', aspects: [6] },
    ];
    const requirements = { K1: [], K2: [{ kind: 'aspect' as const, aspect: 6, specId: 1 }] };
    const off = image('img', functions, { requirements, specConstants: new Map([[1, false]]) });
    const program = simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [off] });
    expect(program.functions).toEqual(['K1', 'shared']);
    expect(program.discarded).toEqual(['K2', 'double_math']);
    // With the constant true (or not set), nothing is discarded and the JIT fails on K2's code.
    expect(buildError([image('img', functions, { requirements, specConstants: new Map([[1, true]]) })]).message).toMatch(/function 'K2' uses aspect fp64/);
  });

  it("follows the IR's own conditions (!sycl_requirement_condition) when post-link wrote them", () => {
    const functions: FunctionText[] = [
      { name: 'K1', kind: 'kernel', calls: ['shared'] },
      { name: 'K2', kind: 'kernel', aspects: [6], calls: ['shared', 'double_math'], requirementCondition: [[7]] },
      { name: 'shared', kind: 'helper' },
      // Reached from K2 (needs SpecId 7) or from a kernel needing SpecId 9: (7) OR (9).
      { name: 'double_math', kind: 'helper', aspects: [6], requirementCondition: [[7], [9]] },
    ];
    const build = (specConstants: Map<number, boolean>) => simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [image('img', functions, { specConstants })] });
    expect(build(new Map([[7, false], [9, false]])).discarded).toEqual(['K2', 'double_math']);
    // A SpecId the runtime did not set is false (OpSpecConstantFalse).
    expect(build(new Map()).discarded).toEqual(['K2', 'double_math']);
    // One true term keeps double_math, which then fails to compile for a device without fp64.
    expect(() => build(new Map([[7, false], [9, true]]))).toThrow(/function 'double_math' uses aspect fp64/);
  });

  it('does not look into LLVM bitcode bytes', () => {
    const bitcode = Uint8Array.of(0x42, 0x43, 0xc0, 0xde, 0x35, 0x14, 0, 0);
    const program = simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [{ ...image('img', []), bytes: bitcode }] });
    expect(program.inspected).toBe(false);
    expect(program.functions).toEqual([]);
  });

  it('fails on text that is not LLVM IR', () => {
    const error = buildError([{ ...image('img', []), bytes: encoder.encode('this is not IR') }]);
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toMatch(/^Build of device image 'img' failed: the image is not valid LLVM IR: /);
  });

  it('fails when two images define the same function, and when no image defines the kernel', () => {
    const a = image('a', [{ name: 'K1', kind: 'kernel' }]);
    const b = image('b', [{ name: 'K1', kind: 'kernel' }], { role: 'add-on' });
    expect(buildError([a, b]).message).toBe("Build failed: function 'K1' is defined in both 'a' and 'b'");
    const error = buildError([image('c', [{ name: 'K2', kind: 'kernel' }])]);
    expect(error.code).toBe(errc.runtime);
    expect(error.message).toBe('No kernel named K1 was found');
  });

  it('links images as a device linker: local functions stay in their image, weak duplicates merge, strong ones clash', () => {
    const main = image('main', [
      { name: 'K1', kind: 'kernel', calls: ['helper', 'inline_fn', 'libfn'] },
      { name: 'helper', kind: 'helper' },
      { name: 'inline_fn', kind: 'action', linkage: 'linkonce_odr' },
      { name: 'libfn', kind: 'declaration' },
    ]);
    const lib = image(
      'lib',
      [
        { name: 'libfn', kind: 'action', calls: ['helper', 'inline_fn'] },
        { name: 'helper', kind: 'helper', aspects: [5] },
        { name: 'inline_fn', kind: 'action', linkage: 'linkonce_odr' },
      ],
      { role: 'import' },
    );
    const program = simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [main, lib] });
    expect(program.functions).toEqual(['K1', 'main:helper', 'inline_fn', 'libfn', 'lib:helper']);
    expect(program.sources.get('lib:helper')).toBe('lib');
    expect(program.sources.get('inline_fn')).toBe('main');
    expect(program.unresolved).toEqual([]);
    // the library's own helper is compiled (dg1 has fp16), and its failure names the function as written
    const fp64Lib = image('lib', [{ name: 'libfn', kind: 'action', calls: ['helper'] }, { name: 'helper', kind: 'helper', aspects: [6] }], { role: 'import' });
    expect(buildError([main, fp64Lib]).message).toBe("Build of device image 'lib' for device intel_gpu_dg1 failed: function 'helper' uses aspect fp64, which the device does not support");
    const strongTwice = image('lib', [{ name: 'libfn', kind: 'action' }, { name: 'inline_fn', kind: 'action' }, { name: 'K1', kind: 'action' }], { role: 'import' });
    expect(buildError([main, strongTwice]).message).toBe("Build failed: function 'K1' is defined in both 'main' and 'lib'");
  });

  it('links declarations to definitions in other images and reports what stays unresolved', () => {
    const main = image('main', [
      { name: 'K1', kind: 'kernel', calls: ['action', 'missing', '__spirv_ControlBarrier'] },
      { name: 'action', kind: 'declaration' },
      { name: 'missing', kind: 'declaration' },
      { name: '__spirv_ControlBarrier', kind: 'declaration' },
    ]);
    const addOn = image('addon', [{ name: 'action', kind: 'action' }], { role: 'add-on' });
    const program = simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [main, addOn] });
    expect(program.functions).toEqual(['K1', 'action']);
    expect(program.sources.get('action')).toBe('addon');
    expect(program.unresolved).toEqual(['missing']);
  });
});

describe('simulatedJitBackend on SPIR-V', () => {
  const pvc = deviceFromTarget('intel_gpu_pvc'); // fp64, fp16, atomic64; sub-groups 16 32
  const spirvImage = (name: string, bytes: Uint8Array, options: Partial<ProgramImage> = {}): ProgramImage => ({ ...image(name, []), format: 2, bytes, ...options });

  it('compiles every function, names kernels by their entry points and leaves out the entry-point wrappers', () => {
    const bytes = spirvModule([
      { name: 'K1', kernel: true, linkage: 'export', calls: ['helper'] },
      { name: 'K2', kernel: true, linkage: 'export' },
      { name: 'helper', linkage: 'linkonce_odr', calls: ['ext'] },
      { name: 'ext', linkage: 'import', declaration: true },
    ]);
    const program = simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [spirvImage('img', bytes)] });
    expect(program.kernels).toEqual(['K1', 'K2']);
    expect(program.functions).toEqual(['K1', 'K2', 'helper']);
    expect(program.unresolved).toEqual(['ext']);
    expect(program.inspected).toBe(true);
  });

  it('fails on a declared capability the device lacks, though no kernel uses it', () => {
    const bytes = spirvModule([{ name: 'K1', kernel: true, linkage: 'export' }, { name: 'unused' }], [Capability.Int64, Capability.Float64]);
    const error = buildError([spirvImage('img', bytes)]);
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toBe("Build of device image 'img' for device intel_gpu_dg1 failed: the SPIR-V module declares capability Float64, which needs aspect fp64; the device does not support it");
    expect(simulatedJitBackend().build({ device: pvc, kernel: 'K1', images: [spirvImage('img', bytes)] }).kernels).toEqual(['K1']);
  });

  it('needs nothing for capabilities every device has (Int64, Float16Buffer)', () => {
    const bytes = spirvModule([{ name: 'K1', kernel: true, linkage: 'export' }], [Capability.Int64, Capability.Float16Buffer]);
    expect(simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [spirvImage('img', bytes)] }).kernels).toEqual(['K1']);
  });

  it('reads the required sub-group size and work-group size from the execution modes', () => {
    const sub = spirvModule([{ name: 'K1', kernel: true, linkage: 'export', subGroupSize: 64 }]);
    expect(buildError([spirvImage('img', sub)]).message).toBe("Build of device image 'img' for device intel_gpu_dg1 failed: function 'K1' requires sub-group size 64, which the device does not support");
    const wide = spirvModule([{ name: 'K1', kernel: true, linkage: 'export', localSize: [64, 16, 1] }]);
    expect(buildError([spirvImage('img', wide)]).message).toMatch(/function 'K1' requires work-group size \{64, 16, 1\}, more than the device's 512 work-items$/);
  });

  it('links SPIR-V images as a device linker: LinkOnceODR duplicates merge, Export ones clash', () => {
    const main = spirvModule([{ name: 'K1', kernel: true, linkage: 'export', calls: ['helper', 'lib'] }, { name: 'helper', linkage: 'linkonce_odr' }, { name: 'lib', linkage: 'import', declaration: true }]);
    const lib = spirvModule([{ name: 'lib', linkage: 'export', calls: ['helper'] }, { name: 'helper', linkage: 'linkonce_odr' }]);
    const program = simulatedJitBackend().build({ device: dg1, kernel: 'K1', images: [spirvImage('main', main), spirvImage('lib', lib, { role: 'import' })] });
    expect(program.functions).toEqual(['K1', 'helper', 'lib']);
    expect(program.sources.get('lib')).toBe('lib');
    expect(program.unresolved).toEqual([]);
    const clash = spirvModule([{ name: 'K1', kernel: true, linkage: 'export' }]);
    expect(buildError([spirvImage('a', clash), spirvImage('b', clash, { role: 'add-on' })]).message).toBe("Build failed: function 'K1' is defined in both 'a' and 'b'");
  });

  it('fails on bytes that start like SPIR-V but are not a module, naming the word', () => {
    const error = buildError([spirvImage('img', Uint8Array.of(0x03, 0x02, 0x23, 0x07, 0, 0, 0, 0))]);
    expect(error.code).toBe(errc.build_program_failure);
    expect(error.message).toBe("Build of device image 'img' failed: the image is not a valid SPIR-V module: img: word 2: the module is 8 bytes, shorter than the 5-word header");
  });
});

/**
 * The cases of OptionalDeviceFeatures.md, run end to end: images built by post-link's library
 * (the split design with add-on images, and the specialization-constant design), or by the
 * test-only builder where post-link refuses the combination (specialization constants with
 * device_if), loaded into the runtime, kernels submitted to devices of the built-in configuration.
 */
import { DeviceConfig } from '@syclkit/device-config';
import { aspectCondition, architectureCondition } from '@syclkit/device-if';
import { architectureByName, truncateArchitectureToInt32 } from '@syclkit/device-config';
import type { BinaryDescriptor } from '@syclkit/offload-wrapper';
import { describe, expect, it } from 'vitest';
import { postLinkBinary } from '../test/post-link-binary.js';
import {
  TEST_ASPECT_TABLE,
  testOnlySpecConstantBinary,
  type ModelHelper,
  type ModelKernel,
  type ModelProgram,
  type SplitMode,
} from '../test/program-model.js';
import { Device, Runtime, deviceFromTarget, errc, ndRange, range, simulatedJitBackend } from './index.js';
import { thrown } from '../test/thrown.js';

const config = DeviceConfig.builtin();
const FP16 = 5;
const FP64 = 6;
const pvc = deviceFromTarget('intel_gpu_pvc'); // fp16 fp64 atomic64, sub-groups 16 32, 1024 work-items
const dg1 = deviceFromTarget('intel_gpu_dg1'); // fp16 atomic64 (no fp64), sub-groups 8 16 32, 512 work-items
const skl = deviceFromTarget('intel_gpu_skl'); // fp16 fp64 atomic64, sub-groups 8 16 32, 256 work-items

const doubleMath: ModelHelper = { name: 'double_math', aspects: [FP64] };
const kernel = (name: string, rest: Partial<ModelKernel> = {}): ModelKernel => ({ name, tu: 0, aspects: [], helpers: [], declared: [], conditional: [], ...rest });

/** K1 uses nothing, K2 uses fp64 (through a helper): the design's example, one translation unit. */
const k1k2: ModelProgram = { kernels: [kernel('K1'), kernel('K2', { helpers: [doubleMath] })], fixedTargets: new Map() };

const MODES: readonly SplitMode[] = ['none', 'source', 'kernel'];

/** Every way of building the binary that the designs allow, labelled. */
async function strategies(program: ModelProgram): Promise<[string, BinaryDescriptor][]> {
  const out: [string, BinaryDescriptor][] = [];
  // post-link's spec-constant strategy takes neither device_if calls nor fixed targets.
  const postLinkSpecConstants = program.kernels.every((k) => k.conditional.length === 0) && program.fixedTargets.size === 0;
  for (const mode of MODES) {
    out.push([`post-link bundling split=${mode}`, await postLinkBinary(program, mode, [], config, 'bundling')]);
    if (postLinkSpecConstants) out.push([`post-link spec-constants split=${mode}`, await postLinkBinary(program, mode, [], config, 'spec-constants')]);
    else out.push([`test-only spec-constants split=${mode}`, testOnlySpecConstantBinary(program, mode, [], config)]);
  }
  return out;
}

function runtimeWith(binary: BinaryDescriptor, options: ConstructorParameters<typeof Runtime>[0] = {}): Runtime {
  const runtime = new Runtime({ aspectTable: TEST_ASPECT_TABLE, ...options });
  runtime.registerFatBinary(binary, { name: 'app' });
  return runtime;
}


const k1k2Binaries = await strategies(k1k2);

describe('K1 without features and K2 using aspect A in one translation unit', () => {
  it.each(k1k2Binaries)('%s: K1 runs on a device without A, and the program does not compile K2 for it', (_label, binary) => {
    const launch = runtimeWith(binary).queue(dg1).parallelFor('K1', range(64));
    expect(launch.kernel).toBe('K1');
    expect(launch.program.kernels).toContain('K1');
    expect(launch.program.functions).not.toContain('K2');
    expect(launch.program.functions).not.toContain('double_math');
  });

  it.each(k1k2Binaries)('%s: K2 throws kernel_not_supported naming fp64 on a device without it', (_label, binary) => {
    const error = thrown(() => runtimeWith(binary).queue(dg1).parallelFor('K2', range(64)));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Required aspect fp64 is not supported on the device');
  });

  it.each(k1k2Binaries)('%s: both kernels run on a device with fp64', (_label, binary) => {
    const queue = runtimeWith(binary).queue(pvc);
    expect(queue.parallelFor('K1', range(8)).program.kernels).toContain('K1');
    expect(queue.parallelFor('K2', range(8)).program.functions).toContain('double_math');
  });

  it('with intel/llvm bundling (-split=none, no requirement split) K1 cannot run on a device without fp64', async () => {
    const binary = await postLinkBinary(k1k2, 'none', [], config, 'bundling', 'upstream');
    const image = binary.bundles[0]!.images[0]!;
    expect(binary.bundles[0]!.images).toHaveLength(1);
    expect(image.entries).toEqual(['K1', 'K2']);
    // The image-wide requirements name K2's aspect, so K1 is rejected at submission...
    const error = thrown(() => runtimeWith(binary).queue(dg1).parallelFor('K1', range(64)));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Required aspect fp64 is not supported on the device');
    // ...and compiling the image for the device fails on K2's code: the speculative-compilation failure.
    const build = thrown(() =>
      simulatedJitBackend().build({
        device: dg1,
        kernel: 'K1',
        images: [{ name: image.name, target: 'spir64', format: 0, role: 'main', entries: image.entries, properties: image.properties, bytes: image.image, specConstants: new Map() }],
      }),
    );
    expect(build.code).toBe(errc.build_program_failure);
    expect(build.message).toBe("Build of device image 'spir64_0' for device intel_gpu_dg1 failed: function 'K2' uses aspect fp64, which the device does not support");
  });

  it('the specialization-constant design bundles K1 and K2 together and discards K2 for a device without fp64', async () => {
    const binary = await postLinkBinary(k1k2, 'source', [], config, 'spec-constants');
    expect(binary.bundles[0]!.images).toHaveLength(1);
    const launch = runtimeWith(binary).queue(dg1).parallelFor('K1', range(64));
    expect([...launch.program.discarded].sort()).toEqual(['K2', 'double_math']);
    const onPvc = runtimeWith(binary).queue(pvc).parallelFor('K1', range(64));
    expect(onPvc.program.discarded).toEqual([]);
  });
});

const deviceHas: ModelProgram = { kernels: [kernel('K1'), kernel('Declared', { declared: [FP64] })], fixedTargets: new Map() };
const deviceHasBinaries = await strategies(deviceHas);

describe('device_has', () => {
  it.each(deviceHasBinaries)('%s: a kernel declaring fp64 throws on a device without it even though it uses nothing', (_label, binary) => {
    const error = thrown(() => runtimeWith(binary).queue(dg1).singleTask('Declared'));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Required aspect fp64 is not supported on the device');
    expect(runtimeWith(binary).queue(pvc).singleTask('Declared').kernel).toBe('Declared');
  });
});

const sizes: ModelProgram = {
  kernels: [kernel('K1'), kernel('Sg8', { subGroupSize: 8 }), kernel('Wg32x32', { workGroupSize: [32, 32] })],
  fixedTargets: new Map(),
};
const sizesBinaries = await strategies(sizes);

describe('required sub-group and work-group sizes', () => {
  it.each(sizesBinaries)('%s: a required sub-group size the device lacks throws with the size', (_label, binary) => {
    const error = thrown(() => runtimeWith(binary).queue(pvc).singleTask('Sg8'));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Sub-group size 8 is not supported on the device');
    expect(runtimeWith(binary).queue(dg1).singleTask('Sg8').kernel).toBe('Sg8');
    expect(runtimeWith(binary).queue(pvc).singleTask('K1').kernel).toBe('K1');
  });

  it.each(sizesBinaries)('%s: a required work-group size over max_work_group_size throws with the total', (_label, binary) => {
    const error = thrown(() => runtimeWith(binary).queue(skl).parallelFor('Wg32x32', ndRange([64, 64], [32, 32])));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Required work-group size 1024 is not supported on the device');
    expect(runtimeWith(binary).queue(pvc).parallelFor('Wg32x32', ndRange([64, 64], [32, 32])).workItems).toBe(4096);
    expect(runtimeWith(binary).queue(skl).singleTask('K1').kernel).toBe('K1');
  });

  it.each(sizesBinaries)('%s: a local size other than the required one is an nd_range error', (_label, binary) => {
    const error = thrown(() => runtimeWith(binary).queue(pvc).parallelFor('Wg32x32', ndRange([64, 64], [16, 16])));
    expect(error.code).toBe(errc.nd_range);
    expect(error.message).toBe("The specified local size {16, 16} doesn't match the required work-group size specified in the program source {32, 32}");
  });
});

// tu 1 is compiled with -fsycl-fixed-targets=intel_gpu_pvc; FixedPlain uses nothing, FixedDouble fp64.
const fixed: ModelProgram = {
  kernels: [kernel('K1'), kernel('FixedPlain', { tu: 1 }), kernel('FixedDouble', { tu: 1, helpers: [doubleMath] })],
  fixedTargets: new Map([[1, ['intel_gpu_pvc']]]),
};
const fixedBinaries = await strategies(fixed);

describe('fixed targets', () => {
  it.each(fixedBinaries)('%s: a fixed-target kernel runs on its target and throws elsewhere', (_label, binary) => {
    expect(runtimeWith(binary).queue(pvc).singleTask('FixedPlain').kernel).toBe('FixedPlain');
    const error = thrown(() => runtimeWith(binary).queue(skl).singleTask('FixedPlain'));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe("Kernel was compiled with '-fsycl-fixed-targets=intel_gpu_pvc' but was submitted to a different device.");
    expect(runtimeWith(binary).queue(skl).singleTask('K1').kernel).toBe('K1');
  });

  it('the fixed-target check comes before the aspect check', async () => {
    const binary = await postLinkBinary(fixed, 'kernel', [], config);
    expect(thrown(() => runtimeWith(binary).queue(dg1).singleTask('FixedDouble')).message).toMatch(/^Kernel was compiled with '-fsycl-fixed-targets=intel_gpu_pvc'/);
  });

  it('intel-llvm semantics do not check fixed_target, as the real runtime', async () => {
    const binary = await postLinkBinary(fixed, 'kernel', [], config);
    expect(runtimeWith(binary, { semantics: 'intel-llvm' }).queue(skl).singleTask('FixedPlain').kernel).toBe('FixedPlain');
  });

  it('the design bundles a fixed-target translation unit by its targets, whatever its kernels use', async () => {
    const binary = await postLinkBinary(fixed, 'none', [], config);
    const fixedImages = binary.bundles[0]!.images.filter((image) => image.entries.includes('FixedPlain'));
    expect(fixedImages).toHaveLength(1);
    expect(fixedImages[0]!.entries).toEqual(['FixedPlain', 'FixedDouble']);
  });
});

const onFp64: ModelHelper = { name: 'fast_double_path', aspects: [FP64] };
const onPvc: ModelHelper = { name: 'pvc_path', aspects: [FP16] };
const pvcOperand = truncateArchitectureToInt32(architectureByName('intel_gpu_pvc')!.value);
const branchy: ModelProgram = {
  kernels: [
    kernel('K1'),
    kernel('Branchy', {
      conditional: [
        { condition: aspectCondition(FP64), action: onFp64 },
        { condition: architectureCondition(pvcOperand), action: onPvc },
      ],
    }),
  ],
  fixedTargets: new Map(),
};
const branchyBinaries = await strategies(branchy);

describe('device_if add-on images', () => {
  it.each(branchyBinaries)('%s: the real action is linked where the condition holds, the stub elsewhere', (_label, binary) => {
    const onPvcDevice = runtimeWith(binary).queue(pvc).singleTask('Branchy');
    expect(onPvcDevice.addOnImages.map((a) => [a.id, a.definitions])).toEqual([
      [expect.any(String), true],
      [expect.any(String), true],
    ]);
    expect(onPvcDevice.program.unresolved).toEqual([]);
    const onDg1 = runtimeWith(binary).queue(dg1).singleTask('Branchy');
    expect(onDg1.addOnImages.map((a) => a.definitions)).toEqual([false, false]);
    expect(onDg1.program.functions).toEqual(expect.arrayContaining(['Branchy', 'fast_double_path', 'pvc_path']));
    expect(onDg1.program.unresolved).toEqual([]);
    const onSkl = runtimeWith(binary).queue(skl).singleTask('Branchy');
    expect(onSkl.addOnImages.map((a) => a.definitions)).toEqual([true, false]);
  });
});

describe('device_if actions and -split', () => {
  // Actions reached only through conditional calls live in add-on images, whatever the split mode,
  // so the main image never requires their aspects.
  const program: ModelProgram = {
    kernels: [kernel('K0', { conditional: [{ condition: aspectCondition(FP16), action: { name: 'half_path', aspects: [FP16] } }] })],
    fixedTargets: new Map(),
  };
  const noFp16 = new Device({ name: 'no-fp16', aspects: [], subGroupSizes: [16], maxWorkGroupSize: 256, backend: 'opencl', deviceType: 'gpu' });

  it.each(['source', 'none'] as const)('-split=%s: the kernel runs on a device without fp16, linked with the stub', async (mode) => {
    const launch = runtimeWith(await postLinkBinary(program, mode, [], config)).queue(noFp16).singleTask('K0');
    expect(launch.addOnImages.map((a) => a.definitions)).toEqual([false]);
  });
});

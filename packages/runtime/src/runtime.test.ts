import { DeviceConfig } from '@syclkit/device-config';
import { PropertySetRegistry, addDeviceRequirements, type DeviceRequirements } from '@syclkit/formats';
import { ContainerReader, deviceImage, writeContainer, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { describe, expect, it } from 'vitest';
import { moduleText, type FunctionText } from '../test/program-model.js';
import {
  Runtime,
  binaryFromContainer,
  binaryFromDescriptor,
  checkNdRangeForDevice,
  deviceFromTarget,
  errc,
  ndRange,
  parseDeviceDescription,
  range,
  type BinarySource,
} from './index.js';
import { thrown } from '../test/thrown.js';

const encoder = new TextEncoder();
const pvc = deviceFromTarget('intel_gpu_pvc');
const dg1 = deviceFromTarget('intel_gpu_dg1');

interface ImageSpec {
  readonly name: string;
  readonly target?: string;
  readonly kernels: readonly string[];
  readonly functions?: readonly FunctionText[];
  readonly requirements?: DeviceRequirements;
  readonly empty?: boolean;
}

function img(spec: ImageSpec): DeviceImage {
  const properties = new PropertySetRegistry();
  addDeviceRequirements(properties, spec.requirements ?? {});
  const functions = spec.functions ?? spec.kernels.map((name): FunctionText => ({ name, kind: 'kernel', aspects: spec.requirements?.aspects ?? [] }));
  return deviceImage({
    name: spec.name,
    target: spec.target ?? 'spir64',
    image: spec.empty === true ? new Uint8Array() : encoder.encode(moduleText(functions)),
    entries: spec.kernels,
    properties,
    empty: spec.empty ?? false,
  });
}

function binary(...images: DeviceImage[]): BinaryDescriptor {
  const bundles = new Map<string, DeviceImage[]>();
  for (const image of images) bundles.set(image.target, [...(bundles.get(image.target) ?? []), image]);
  return { bundles: [...bundles].map(([target, list]) => ({ target, images: list })) };
}


/** A BinarySource that counts how often each image's bytes are read. */
function counting(descriptor: BinaryDescriptor): { source: BinarySource; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const base = binaryFromDescriptor(descriptor, 'counted');
  return {
    reads,
    source: {
      name: base.name,
      bundles: base.bundles.map((bundle) => ({
        target: bundle.target,
        images: bundle.images.map((image) => ({
          ...image,
          bytes: () => {
            reads.set(image.name, (reads.get(image.name) ?? 0) + 1);
            return image.bytes();
          },
        })),
      })),
    },
  };
}

describe('registration', () => {
  it('registers a descriptor, reports its targets and images, and unregisters it', () => {
    const runtime = new Runtime();
    const handle = runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K1'] }), img({ name: 'b', target: 'intel_gpu_pvc', kernels: ['K1'] })), { name: 'app' });
    expect(handle).toMatchObject({ name: 'app', targets: ['spir64', 'intel_gpu_pvc'], images: 2, registered: true });
    expect(runtime.queue(dg1).singleTask('K1').image).toBe('a');
    handle.unregister();
    expect(handle.registered).toBe(false);
    expect(runtime.binaries()).toEqual([]);
    expect(thrown(() => runtime.queue(dg1).singleTask('K1')).message).toBe('No kernel named K1 was found');
  });

  it('drops the programs of an unregistered binary from the cache', () => {
    const runtime = new Runtime();
    const first = runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K1'] })));
    runtime.registerFatBinary(binary(img({ name: 'b', kernels: ['K2'] })));
    runtime.queue(pvc).singleTask('K1');
    runtime.queue(pvc).singleTask('K2');
    expect(runtime.programCache.size).toBe(2);
    runtime.unregisterFatBinary(first);
    expect(runtime.programCache.size).toBe(1);
  });

  it('finds a kernel in any registered binary, the first registered winning', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(img({ name: 'one', kernels: ['K1'] })), { name: 'lib1' });
    runtime.registerFatBinary(binary(img({ name: 'two', kernels: ['K1', 'K2'] })), { name: 'lib2' });
    expect(runtime.resolveKernel('K1', pvc)).toMatchObject({ binary: 'lib1', image: 'one' });
    expect(runtime.resolveKernel('K2', pvc)).toMatchObject({ binary: 'lib2', image: 'two' });
  });

  it('reads a container lazily: only the images of the launched kernel', () => {
    const bytes = writeContainer(binary(img({ name: 'a', kernels: ['K1'] }), img({ name: 'b', kernels: ['K2'] })));
    // Corrupt the last byte of image b's code: nothing notices until b is built.
    const reader = ContainerReader.fromBytes(bytes, { fileName: 'app.fatbin' });
    const b = reader.images.find((image) => image.name === 'b')!;
    const damaged = bytes.slice();
    damaged[b.dataOffset + b.dataLength - 2]! ^= 0xff;
    const runtime = new Runtime();
    runtime.registerFatBinary(ContainerReader.fromBytes(damaged, { fileName: 'app.fatbin' }));
    expect(runtime.binaries()[0]!.name).toBe('app.fatbin');
    expect(runtime.queue(pvc).singleTask('K1').image).toBe('a');
    const error = thrown(() => runtime.queue(pvc).singleTask('K2'));
    expect(error.code).toBe(errc.runtime);
    expect(error.message).toMatch(/^cannot read device image 'b': .*corrupted data of image 1/);
  });

  it('reads only the records of the images a launch needs: registration reads none', () => {
    const images = [img({ name: 'a', kernels: ['K1'] }), img({ name: 'b', kernels: ['K2'] }), img({ name: 'c', target: 'intel_gpu_pvc', kernels: ['K2'] })];
    const bytes = writeContainer(binary(...images));
    const listed = ContainerReader.fromBytes(bytes).images;
    // Damage the metadata of every record but a's: a full listing would refuse the container.
    const damaged = bytes.slice();
    for (const image of listed.filter((i) => i.name !== 'a')) damaged[image.recordOffset + 30]! ^= 0xff;
    const reader = ContainerReader.fromBytes(damaged, { fileName: 'app.fatbin' });
    expect(() => reader.bundles).toThrow(/corrupted metadata/);
    const lazy = ContainerReader.fromBytes(damaged, { fileName: 'app.fatbin' });
    const runtime = new Runtime();
    expect(runtime.registerFatBinary(lazy)).toMatchObject({ targets: ['spir64', 'intel_gpu_pvc'], images: 3 });
    expect(runtime.queue(dg1).singleTask('K1').image).toBe('a');
    const error = thrown(() => runtime.queue(dg1).singleTask('K2'));
    expect(error.code).toBe(errc.runtime);
    expect(error.message).toMatch(/^cannot read device image 1 of app\.fatbin: app\.fatbin: offset \d+ \(0x[0-9a-f]+\): corrupted metadata of image record 1/);
  });

  it('reads one record when the best image for the device has code: other bundles are not read', () => {
    const bytes = writeContainer(binary(img({ name: 'a', kernels: ['K1'] }), img({ name: 'c', target: 'intel_gpu_pvc', kernels: ['K1'] }), img({ name: 'n', target: 'nvidia_gpu_sm_80', kernels: ['K1'] })));
    const damaged = bytes.slice();
    for (const image of ContainerReader.fromBytes(bytes).images.filter((i) => i.name !== 'c')) damaged[image.recordOffset + 30]! ^= 0xff;
    const runtime = new Runtime();
    runtime.registerFatBinary(ContainerReader.fromBytes(damaged, { fileName: 'app.fatbin' }));
    expect(runtime.queue(pvc).singleTask('K1')).toMatchObject({ bundle: 'intel_gpu_pvc', image: 'c' });
    // DG1 takes the spir64 bundle, whose record is damaged
    expect(thrown(() => runtime.queue(dg1).singleTask('K1')).message).toMatch(/^cannot read device image 0 of app\.fatbin: /);
  });

  it('registers binaryFromContainer without listing the container', () => {
    const bytes = writeContainer(binary(img({ name: 'a', kernels: ['K1'] }), img({ name: 'b', kernels: ['K2'] })));
    const damaged = bytes.slice();
    damaged[ContainerReader.fromBytes(bytes).images[1]!.recordOffset + 30]! ^= 0xff;
    const runtime = new Runtime();
    runtime.registerFatBinary(binaryFromContainer(ContainerReader.fromBytes(damaged)));
    expect(runtime.queue(pvc).singleTask('K1').image).toBe('a');
  });
});

describe('kernel and bundle choice', () => {
  const aot = binary(
    img({ name: 'jit', kernels: ['K'] }),
    img({ name: 'pvc', target: 'intel_gpu_pvc', kernels: ['K'] }),
    img({ name: 'dg1-by-ip', target: 'intel_gpu_12_10_0', kernels: ['K'] }),
  );

  it('prefers the AOT bundle of the device (by name or IP version) and uses SPIR-V otherwise', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(aot);
    expect(runtime.queue(pvc).singleTask('K')).toMatchObject({ bundle: 'intel_gpu_pvc', match: 'device', image: 'pvc' });
    expect(runtime.queue(dg1).singleTask('K')).toMatchObject({ bundle: 'intel_gpu_12_10_0', match: 'device', image: 'dg1-by-ip' });
    expect(runtime.queue(deviceFromTarget('intel_gpu_skl')).singleTask('K')).toMatchObject({ bundle: 'spir64', match: 'jit', image: 'jit' });
  });

  it('reports an unknown kernel as errc.runtime', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(aot);
    const error = thrown(() => runtime.queue(pvc).singleTask('Nope'));
    expect(error.code).toBe(errc.runtime);
    expect(error.message).toBe('No kernel named Nope was found');
  });

  it('lists the targets of the binary when no bundle fits the device', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(img({ name: 'cpu', target: 'spir64_x86_64', kernels: ['K'] }), img({ name: 'cuda', target: 'nvptx64-nvidia-cuda', kernels: ['K'] })));
    const error = thrown(() => runtime.queue(pvc).singleTask('K'));
    expect(error.code).toBe(errc.runtime);
    expect(error.message).toBe('No device image of kernel K is compatible with device intel_gpu_pvc; the registered binaries have images of it for targets: spir64_x86_64, nvptx64-nvidia-cuda');
  });

  it('skips images of a generic AOT bundle whose compile_target names another device', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(
      binary(
        img({ name: 'gen-dg1', target: 'spir64_gen', kernels: ['K'], requirements: { compileTarget: 'intel_gpu_dg1' } }),
        img({ name: 'gen-pvc', target: 'spir64_gen', kernels: ['K'], requirements: { compileTarget: 'intel_gpu_pvc' } }),
      ),
    );
    expect(runtime.queue(pvc).singleTask('K').image).toBe('gen-pvc');
    expect(runtime.queue(dg1).singleTask('K').image).toBe('gen-dg1');
  });

  it('diagnoses a kernel filtered out of the AOT image with the properties that image kept', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(
      binary(img({ name: 'jit', kernels: ['K'], requirements: { aspects: [6] } }), img({ name: 'dg1', target: 'intel_gpu_dg1', kernels: ['K'], requirements: { aspects: [6] }, empty: true })),
    );
    const error = thrown(() => runtime.queue(dg1).singleTask('K'));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Required aspect fp64 is not supported on the device');
    expect(runtime.resolveKernel('K', dg1)).toMatchObject({ image: 'dg1', empty: true });
  });

  it('falls back from an empty AOT image to SPIR-V for a device that does meet the requirements', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(
      binary(img({ name: 'jit', kernels: ['K'], requirements: { aspects: [6] } }), img({ name: 'dg1', target: 'intel_gpu_dg1', kernels: ['K'], requirements: { aspects: [6] }, empty: true })),
    );
    const dg1WithFp64 = parseDeviceDescription('target: intel_gpu_dg1\nname: dg1-fp64\naspects: [fp16, fp64, atomic64]\n');
    expect(runtime.queue(dg1WithFp64).singleTask('K')).toMatchObject({ image: 'jit', bundle: 'spir64', fellBackFrom: { bundle: 'intel_gpu_dg1', image: 'dg1' } });

    const aotOnly = new Runtime();
    aotOnly.registerFatBinary(binary(img({ name: 'dg1', target: 'intel_gpu_dg1', kernels: ['K'], requirements: { aspects: [6] }, empty: true })));
    const error = thrown(() => aotOnly.queue(dg1WithFp64).singleTask('K'));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe(
      "Kernel K was not compiled for device dg1-fp64: its image 'dg1' in bundle 'intel_gpu_dg1' is empty (filtered out at compile time) and no other bundle defines it",
    );
  });
});

describe('checks before building', () => {
  it('throws before reading any image bytes, and reads only the images it builds', () => {
    const { source, reads } = counting(
      binary(img({ name: 'plain', kernels: ['K1'] }), img({ name: 'double', kernels: ['K2'], requirements: { aspects: [6] } }), img({ name: 'other', kernels: ['K3'] })),
    );
    const runtime = new Runtime();
    runtime.registerFatBinary(source);
    expect(thrown(() => runtime.queue(dg1).singleTask('K2')).code).toBe(errc.kernel_not_supported);
    expect(reads.size).toBe(0);
    runtime.queue(dg1).singleTask('K1');
    runtime.queue(dg1).singleTask('K1');
    expect([...reads]).toEqual([['plain', 1]]);
  });

  it('checks the submitted nd_range against the device after the kernel requirements', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K'] })));
    expect(thrown(() => runtime.queue(dg1).parallelFor('K', ndRange([1024], [1024]))).message).toBe('Total number of work-items in a work-group cannot exceed 512');
    expect(thrown(() => runtime.queue(dg1).parallelFor('K', ndRange([100], [8]))).message).toBe('Non-uniform work-groups are not supported by the target device');
    expect(() => checkNdRangeForDevice(ndRange([64, 64], [8, 8]), dg1)).not.toThrow();
  });

  it('treats single_task as a one-dimensional launch, as intel/llvm does', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K'], requirements: { reqdWorkGroupSize: [1n, 1n] } })));
    const error = thrown(() => runtime.queue(pvc).singleTask('K'));
    expect(error.code).toBe(errc.nd_range);
    expect(runtime.queue(pvc).parallelFor('K', range(4, 4)).workItems).toBe(16);
  });
});

describe('program cache', () => {
  it('builds once per device and image set, then hits', () => {
    const runtime = new Runtime();
    runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K1', 'K2'] })));
    const first = runtime.queue(pvc).singleTask('K1');
    const second = runtime.queue(pvc).singleTask('K2');
    expect(first.programCacheHit).toBe(false);
    expect(second.programCacheHit).toBe(true);
    expect(second.program).toBe(first.program);
    expect(runtime.queue(dg1).singleTask('K1').programCacheHit).toBe(false);
    expect(runtime.programCache.stats()).toEqual({ hits: 1, misses: 2, size: 2 });
  });

  it('does not cache a failed build', () => {
    const runtime = new Runtime();
    const functions: FunctionText[] = [{ name: 'K1', kind: 'kernel' }, { name: 'bad', kind: 'helper', aspects: [6] }];
    runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K1'], functions })));
    expect(thrown(() => runtime.queue(dg1).singleTask('K1')).code).toBe(errc.build_program_failure);
    expect(thrown(() => runtime.queue(dg1).singleTask('K1')).code).toBe(errc.build_program_failure);
    expect(runtime.programCache.stats()).toMatchObject({ misses: 2, size: 0 });
  });
});

describe('queue and handler', () => {
  const runtime = new Runtime({ config: DeviceConfig.builtin() });
  runtime.registerFatBinary(binary(img({ name: 'a', kernels: ['K1', 'K2'] })));
  const queue = runtime.queue(pvc);

  it('submits the kernel a command group records', () => {
    const event = queue.submit((h) => h.parallelForNd('K1', [64], [16]));
    expect(event.launch).toMatchObject({ kernel: 'K1', workItems: 64, range: ndRange([64], [16]) });
    expect(queue.parallelFor('K2', [8, 8]).workItems).toBe(64);
  });

  it('rejects a second action in one command group', () => {
    const error = thrown(() =>
      queue.submit((h) => {
        h.singleTask('K1');
        h.singleTask('K2');
      }),
    );
    expect(error.code).toBe(errc.invalid);
    expect(error.message).toBe('Attempt to set multiple actions for the command group');
  });

  it('completes an empty command group without a launch', () => {
    expect(queue.submit(() => {}).launch).toBeUndefined();
  });
});

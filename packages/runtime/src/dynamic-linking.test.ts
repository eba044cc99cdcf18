/**
 * Device code dynamic linking (SharedLibraries.md) with OptionalDeviceFeatures.md's runtime
 * check: binaries made by post-link's library API — device libraries with
 * `allowDeviceImageDependencies` and exported/imported symbols, an application whose kernels
 * import from them — registered together; a kernel's imported functions are resolved to the
 * images that export them, and what those images require is checked before anything is built.
 */
import { DeviceConfig } from '@syclkit/device-config';
import type { BinaryDescriptor } from '@syclkit/offload-wrapper';
import type { PostLinkOptions } from '@syclkit/post-link';
import { describe, expect, it } from 'vitest';
import { imagesOfText } from '../test/post-link-binary.js';
import { Runtime, deviceFromTarget, errc, parseDeviceDescription } from './index.js';
import { thrown } from '../test/thrown.js';

const config = DeviceConfig.builtin();
const pvc = deviceFromTarget('intel_gpu_pvc'); // fp16 fp64
const dg1 = deviceFromTarget('intel_gpu_dg1'); // fp16, no fp64
/** A device the built-in table does not have: fp64 and nothing else optional. */
const fp64Only = parseDeviceDescription('name: fp64-only\ndevice-type: gpu\nbackend: opencl\naspects: [gpu, fp64]\nsub-group-sizes: [16]\nmax-work-group-size: 256\n', { file: 'fp64-only.yaml' });
/** intel_gpu_dg1 as a description file that also claims fp64 (its AOT rows without fp64 code are empty). */
const dg1WithFp64 = parseDeviceDescription('name: dg1-fp64\ntarget: intel_gpu_dg1\naspects: [gpu, fp16, fp64]\n', { file: 'dg1-fp64.yaml' });

const HEADER = 'target triple = "spir64-unknown-unknown"\n';
const ASPECTS = '!sycl_aspects = !{!0, !1}\n!0 = !{!"fp16", i32 5}\n!1 = !{!"fp64", i32 6}\n!2 = !{i32 6}\n!3 = !{i32 5}\n';

/** libm.cpp: `scale` uses double through an internal helper; `plain` uses nothing; `mixed` calls `halve` of libh. */
const LIBM = `${HEADER}
define dso_local spir_func float @scale(float %x) #0 !sycl_used_aspects !2 {
  %d = fpext float %x to double
  %r = call spir_func double @twice(double %d)
  %f = fptrunc double %r to float
  ret float %f
}

define dso_local spir_func double @twice(double %x) !sycl_used_aspects !2 {
  %r = fmul double %x, 2.0
  ret double %r
}

define dso_local spir_func float @plain(float %x) #0 {
  ret float %x
}

define dso_local spir_func float @mixed(float %x) #0 {
  %r = call spir_func float @halve(float %x)
  ret float %r
}

declare spir_func float @halve(float)

attributes #0 = { "sycl-module-id"="libm.cpp" }

${ASPECTS}`;

/** libh.cpp: `halve` uses sycl::half. */
const LIBH = `${HEADER}
define dso_local spir_func float @halve(float %x) #0 !sycl_used_aspects !3 {
  %h = fptrunc float %x to half
  %f = fpext half %h to float
  ret float %f
}

attributes #0 = { "sycl-module-id"="libh.cpp" }

${ASPECTS}`;

/** The application: Scale imports `scale`, Plain imports `plain`, Mixed imports `mixed`, Fill imports nothing. */
const APP = `${HEADER}
define weak_odr spir_kernel void @Scale(ptr addrspace(1) %p) #0 {
  %v = load float, ptr addrspace(1) %p, align 4
  %r = call spir_func float @scale(float %v)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

define weak_odr spir_kernel void @Plain(ptr addrspace(1) %p) #0 {
  %v = load float, ptr addrspace(1) %p, align 4
  %r = call spir_func float @plain(float %v)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

define weak_odr spir_kernel void @Mixed(ptr addrspace(1) %p) #0 {
  %v = load float, ptr addrspace(1) %p, align 4
  %r = call spir_func float @mixed(float %v)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

define weak_odr spir_kernel void @Fill(ptr addrspace(1) %p) #0 {
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

declare spir_func float @scale(float)
declare spir_func float @plain(float)
declare spir_func float @mixed(float)

attributes #0 = { "sycl-module-id"="app.cpp" }

${ASPECTS}`;

const LIBRARY: Omit<PostLinkOptions, 'outputs'> = {
  mode: 'source',
  policy: 'design',
  allowDeviceImageDependencies: true,
  emitExportedSymbols: true,
  emitImportedSymbols: true,
  deviceConfig: config,
};
const APPLICATION: Omit<PostLinkOptions, 'outputs'> = { mode: 'kernel', policy: 'design', emitOnlyKernelsAsEntryPoints: true, emitImportedSymbols: true, deviceConfig: config };

/** A binary with a spir64 bundle and, per AOT target, a bundle filtered for it (empty rows kept). */
async function binary(name: string, text: string, options: Omit<PostLinkOptions, 'outputs'>, targets: { spir64?: boolean; aot?: readonly string[] } = {}): Promise<BinaryDescriptor> {
  const bundles = [];
  if (targets.spir64 ?? true) bundles.push({ target: 'spir64', images: await imagesOfText(text, 'spir64', options, undefined, `${name}_spir64`) });
  for (const target of targets.aot ?? []) bundles.push({ target, images: await imagesOfText(text, target, options, target, `${name}_${target}`) });
  return { bundles };
}


async function setup(libraries: readonly [string, BinaryDescriptor][] = []): Promise<{ runtime: Runtime; app: BinaryDescriptor }> {
  const runtime = new Runtime();
  const app = await binary('app', APP, APPLICATION);
  runtime.registerFatBinary(app, { name: 'app.fatbin' });
  for (const [name, lib] of libraries) runtime.registerFatBinary(lib, { name });
  return { runtime, app };
}

describe('dynamic linking: imported device functions and the requirement check', () => {
  it('refuses a kernel whose imported function needs an aspect the device lacks, naming the aspect, and runs it where it can', async () => {
    const { runtime } = await setup([
      ['libm.fatbin', await binary('libm', LIBM, LIBRARY)],
      ['libh.fatbin', await binary('libh', LIBH, LIBRARY)],
    ]);
    const error = thrown(() => runtime.queue(dg1).parallelFor('Scale', [64]));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe('Required aspect fp64 is not supported on the device');
    // The check ran before any build: nothing is cached.
    expect(runtime.programCache.stats().size).toBe(0);

    const launch = runtime.queue(pvc).parallelFor('Scale', [64]);
    expect(launch.image).toBe('app_spir64_0');
    expect(launch.importedImages).toEqual([{ symbols: ['scale'], binary: 'libm.fatbin', bundle: 'spir64', match: 'jit', image: 'libm_spir64_2', addOnImages: [] }]);
    expect(launch.requirements.aspects).toEqual([6]);
    // The JIT linked the library's code: its functions are compiled, nothing stays unresolved.
    expect(launch.program.images).toEqual(['app_spir64_0', 'libm_spir64_2']);
    expect(launch.program.functions).toEqual(['Scale', 'scale', 'twice']);
    expect(launch.program.sources.get('twice')).toBe('libm_spir64_2');
    expect(launch.program.unresolved).toEqual([]);

    // A kernel that imports nothing runs on both; one importing a function without optional
    // features too. (`plain` and `mixed` need the same, but `mixed` reaches `halve`, which libm
    // does not define: post-link never bundles them, so linking `plain` needs no libh.)
    for (const device of [dg1, pvc]) {
      expect(runtime.queue(device).parallelFor('Fill', [64]).importedImages).toEqual([]);
      expect(runtime.queue(device).parallelFor('Plain', [64]).importedImages.map((use) => [use.symbols, use.image])).toEqual([[['plain'], 'libm_spir64_1']]);
    }
  });

  it('follows imports transitively into other binaries and unions every image’s requirements', async () => {
    const { runtime } = await setup([
      ['libm.fatbin', await binary('libm', LIBM, LIBRARY)],
      ['libh.fatbin', await binary('libh', LIBH, LIBRARY)],
    ]);
    // Mixed → mixed (libm, nothing optional) → halve (libh, fp16).
    const resolution = runtime.resolveKernel('Mixed', pvc);
    expect(resolution.importedImages.map((use) => [use.symbols, use.binary, use.image])).toEqual([
      [['mixed'], 'libm.fatbin', 'libm_spir64_0'],
      [['halve'], 'libh.fatbin', 'libh_spir64_0'],
    ]);
    expect(resolution.requirements.aspects).toEqual([5]);
    expect(thrown(() => runtime.checkKernel('Mixed', fp64Only)).message).toBe('Required aspect fp16 is not supported on the device');
    expect(runtime.queue(pvc).parallelFor('Mixed', [8]).program.functions).toEqual(['Mixed', 'mixed', 'halve']);
  });

  it('says which symbol is missing when no registered binary exports it, and unregistering a library takes its exports away', async () => {
    const { runtime } = await setup();
    const missing = thrown(() => runtime.queue(pvc).parallelFor('Scale', [64]));
    expect(missing.code).toBe(errc.build);
    expect(missing.message).toBe("No device image found for external symbol scale, which kernel Scale needs (imported by device image 'app_spir64_0'): no registered binary exports it");
    expect(runtime.queue(pvc).parallelFor('Fill', [64]).kernel).toBe('Fill');

    const libm = runtime.registerFatBinary(await binary('libm', LIBM, LIBRARY), { name: 'libm.fatbin' });
    // mixed is there now, but what it imports (halve) is not.
    expect(thrown(() => runtime.checkKernel('Mixed', pvc)).message).toBe(
      "No device image found for external symbol halve, which kernel Mixed needs (imported by device image 'libm_spir64_0'): no registered binary exports it",
    );
    runtime.queue(pvc).parallelFor('Scale', [64]);
    expect(runtime.programCache.stats().size).toBe(2);
    libm.unregister();
    expect(runtime.programCache.stats().size).toBe(1); // Fill's program stays, Scale's (built with libm) is gone
    expect(thrown(() => runtime.queue(pvc).parallelFor('Scale', [64])).message).toContain('external symbol scale');
  });

  it('does not take exported functions for kernels', async () => {
    const { runtime } = await setup([['libm.fatbin', await binary('libm', LIBM, LIBRARY)]]);
    expect(thrown(() => runtime.queue(pvc).parallelFor('scale', [64])).message).toBe('No kernel named scale was found');
  });

  it("takes an import from the binary's bundle for the device, checks an empty row's requirements, and falls back for code", async () => {
    const libm = await binary('libm', LIBM, LIBRARY, { aot: ['intel_gpu_dg1'] });
    const { runtime } = await setup([
      ['libm.fatbin', libm],
      ['libh.fatbin', await binary('libh', LIBH, LIBRARY, { aot: ['intel_gpu_dg1'] })],
    ]);
    // dg1's bundle of libm has scale's image as an empty row: its properties refuse the kernel.
    const onDg1 = runtime.resolveKernel('Scale', dg1);
    expect(onDg1.importedImages).toEqual([
      {
        symbols: ['scale'],
        binary: 'libm.fatbin',
        bundle: 'spir64',
        match: 'jit',
        image: 'libm_spir64_2',
        addOnImages: [],
        fellBackFrom: { bundle: 'intel_gpu_dg1', image: 'libm_intel_gpu_dg1_2' },
      },
    ]);
    expect(thrown(() => runtime.checkKernel('Scale', dg1)).message).toBe('Required aspect fp64 is not supported on the device');
    // Plain's function is compiled for dg1: the AOT image is taken.
    expect(runtime.resolveKernel('Plain', dg1).importedImages.map((use) => [use.bundle, use.match, use.image])).toEqual([['intel_gpu_dg1', 'device', 'libm_intel_gpu_dg1_1']]);
    // A dg1 that has fp64 passes the empty row's check and gets the code from the spir64 bundle.
    const launch = runtime.queue(dg1WithFp64).parallelFor('Scale', [64]);
    expect(launch.program.sources.get('scale')).toBe('libm_spir64_2');
  });

  it('refuses an import that only an empty row offers once the requirement check passes', async () => {
    const { runtime } = await setup([['libm.fatbin', await binary('libm', LIBM, LIBRARY, { spir64: false, aot: ['intel_gpu_dg1'] })]]);
    const error = thrown(() => runtime.queue(dg1WithFp64).parallelFor('Scale', [64]));
    expect(error.code).toBe(errc.kernel_not_supported);
    expect(error.message).toBe(
      "Kernel Scale imports scale, which device dg1-fp64 can only take from image 'libm_intel_gpu_dg1_2' in bundle 'intel_gpu_dg1' of libm.fatbin; that image is empty (filtered out at compile time) and no other bundle defines it",
    );
    // On pvc the library has no bundle at all.
    expect(thrown(() => runtime.checkKernel('Scale', pvc)).message).toBe(
      "No device image found for external symbol scale, which kernel Scale needs (imported by device image 'app_spir64_0'): the registered binaries export it only in bundles device intel_gpu_pvc cannot take (targets: intel_gpu_dg1)",
    );
  });
});

/**
 * Device code dynamic linking end to end: a device library (`syclkit compile --device-library`)
 * whose SYCL_EXTERNAL `scale` uses double, an application (`syclkit compile
 * -fsycl-allow-device-image-dependencies`) whose kernel Scale calls it, Shift calls the library's
 * `offset` (nothing optional) and Fill calls nothing — then the runtime API, `syclkit run` and
 * `syclkit check` with both binaries registered.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ContainerReader, inspectContainer } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, deviceFromTarget, errc } from '@syclkit/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratch, syclkit } from '../../test/harness.js';

const fixture = (name: string): string => readFileSync(fileURLToPath(new URL(`../../test/fixtures/dynamic-linking/${name}`, import.meta.url)), 'latin1');
const s = scratch('dynamic-linking');
const pvc = deviceFromTarget('intel_gpu_pvc'); // fp64
const dg1 = deviceFromTarget('intel_gpu_dg1'); // no fp64
let lib = '';
let app = '';

beforeAll(async () => {
  const libSource = s.file('mathlib.ll', fixture('mathlib.ll'));
  const appSource = s.file('app.ll', fixture('app.ll'));
  lib = s.path('lib.fatbin');
  app = s.path('app.fatbin');
  const builtLib = await syclkit('compile', '-fsycl-device-obj=llvmir', '--device-library', libSource, '-fsycl-targets=spir64,intel_gpu_dg1', '-o', lib);
  expect([builtLib.code, builtLib.err]).toEqual([0, '']);
  const builtApp = await syclkit('compile', '-fsycl-device-obj=llvmir', '-fsycl-allow-device-image-dependencies', appSource, '-fsycl-targets=spir64,intel_gpu_dg1', '-o', app);
  expect([builtApp.code, builtApp.err]).toEqual([0, '']);
});
afterAll(() => s.cleanup());

function thrown(action: () => unknown): SyclError {
  try {
    action();
  } catch (error) {
    if (error instanceof SyclError) return error;
    throw error;
  }
  throw new Error('no SyclError was thrown');
}

/** Per bundle: each image's entries, exported and imported symbols, and whether it is empty. */
function layout(path: string) {
  const reader = ContainerReader.open(path);
  try {
    return inspectContainer(reader).bundles.map((bundle) => ({
      target: bundle.target,
      images: bundle.images.map((image) => ({
        entries: image.kernels,
        exports: Object.keys(image.properties['SYCL/exported symbols'] ?? {}),
        imports: Object.keys(image.properties['SYCL/imported symbols'] ?? {}),
        empty: image.empty,
      })),
    }));
  } finally {
    reader.close();
  }
}

describe('device code dynamic linking through syclkit compile, the runtime and syclkit run', () => {
  it('compiles a device library that exports its SYCL_EXTERNAL functions and an application whose kernels import them', () => {
    const scale = { entries: ['_Z5scalef'], exports: ['_Z5scalef'], imports: [] };
    const offset = { entries: ['_Z6offsetf'], exports: ['_Z6offsetf'], imports: [], empty: false };
    expect(layout(lib)).toEqual([
      { target: 'spir64', images: [offset, { ...scale, empty: false }] },
      { target: 'intel_gpu_dg1', images: [offset, { ...scale, empty: true }] }, // dg1 has no fp64
    ]);
    // Kernels that import different functions never share an image (an image is linked whole).
    const images = [
      { entries: ['_ZTS5Shift'], exports: [], imports: ['_Z6offsetf'], empty: false },
      { entries: ['_ZTS5Scale'], exports: [], imports: ['_Z5scalef'], empty: false },
      { entries: ['_ZTS4Fill'], exports: [], imports: [], empty: false },
    ];
    expect(layout(app)).toEqual([
      { target: 'spir64', images },
      { target: 'intel_gpu_dg1', images },
    ]);
  });

  it('refuses Scale on a device without fp64 (naming the aspect), runs it with fp64, and runs Fill and Shift on both (runtime API)', () => {
    const readers = [ContainerReader.open(app), ContainerReader.open(lib)];
    try {
      const runtime = new Runtime();
      runtime.registerFatBinary(readers[0]!);
      const library = runtime.registerFatBinary(readers[1]!);
      const refused = thrown(() => runtime.queue(dg1).parallelFor('_ZTS5Scale', [64]));
      expect(refused.code).toBe(errc.kernel_not_supported);
      expect(refused.message).toContain('fp64');

      const launch = runtime.queue(pvc).parallelFor('_ZTS5Scale', [64]);
      expect(launch.importedImages.map((use) => [use.binary, use.bundle, use.image, use.symbols])).toEqual([[library.name, 'spir64', 'lib_spir64_1', ['_Z5scalef']]]);
      expect(launch.program.functions).toEqual(['_ZTS5Scale', '_Z5scalef', '_ZL4halfd']);
      expect(launch.program.unresolved).toEqual([]);

      for (const device of [dg1, pvc]) {
        expect(runtime.queue(device).parallelFor('_ZTS4Fill', [64]).importedImages).toEqual([]);
        expect(runtime.queue(device).parallelFor('_ZTS5Shift', [64]).importedImages.map((use) => use.symbols)).toEqual([['_Z6offsetf']]);
      }
      // dg1 takes the library's function from its own AOT bundle.
      expect(runtime.resolveKernel('_ZTS5Shift', dg1).importedImages.map((use) => use.bundle)).toEqual(['intel_gpu_dg1']);

      library.unregister();
      const missing = thrown(() => runtime.queue(pvc).parallelFor('_ZTS5Scale', [64]));
      expect(missing.code).toBe(errc.build);
      expect(missing.message).toContain('external symbol _Z5scalef');
      expect(runtime.queue(pvc).parallelFor('_ZTS4Fill', [64]).kernel).toBe('_ZTS4Fill');
    } finally {
      for (const reader of readers) reader.close();
    }
  });

  it('syclkit run registers every fat binary given: refusal with the aspect, a run with the imported image, the missing symbol named', async () => {
    const refused = await syclkit('run', app, lib, '-kernel', '_ZTS5Scale', '-device', 'intel_gpu_dg1', '-range', '64');
    expect(refused).toEqual({ code: 1, out: '', err: 'kernel_not_supported: Required aspect fp64 is not supported on the device\n' });

    const ran = await syclkit('run', app, lib, '-kernel', '_ZTS5Scale', '-device', 'intel_gpu_pvc', '-range', '64');
    expect(ran.code).toBe(0);
    expect(ran.out).toBe(`_ZTS5Scale ran on intel_gpu_pvc from bundle spir64, image app_spir64_1 with imported image lib_spir64_1 of ${lib} (_Z5scalef): 64 work-items, program of 3 functions\n`);

    for (const device of ['intel_gpu_dg1', 'intel_gpu_pvc']) {
      const fill = await syclkit('run', app, lib, '-kernel', '_ZTS4Fill', '-device', device, '-range', '64');
      expect([fill.code, fill.err]).toEqual([0, '']);
    }

    const json = await syclkit('run', app, lib, '-kernel', '_ZTS5Shift', '-device', 'intel_gpu_dg1', '-json');
    expect(JSON.parse(json.out).importedImages).toEqual([{ symbols: ['_Z6offsetf'], binary: lib, bundle: 'intel_gpu_dg1', match: 'device', image: 'lib_intel_gpu_dg1_0', addOnImages: [] }]);

    const alone = await syclkit('run', app, '-kernel', '_ZTS5Scale', '-device', 'intel_gpu_pvc');
    expect(alone.code).toBe(1);
    expect(alone.err).toBe("build: No device image found for external symbol _Z5scalef, which kernel _ZTS5Scale needs (imported by device image 'app_spir64_1'): no registered binary exports it\n");
  });

  it('syclkit check puts the libraries’ requirements in the matrix and gates on them', async () => {
    const r = await syclkit('check', app, lib, '--devices', 'intel_gpu_pvc,intel_gpu_dg1', '--require', 'Scale@intel_gpu_dg1');
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      [
        `${app}, ${lib}: 3 kernels x 2 devices`,
        '',
        '  K1  _ZTS5Shift',
        '  K2  _ZTS5Scale',
        '  K3  _ZTS4Fill',
        '',
        'device         K1  K2   K3',
        'intel_gpu_pvc  ok  ok   ok',
        'intel_gpu_dg1  ok  [1]  ok',
        '',
        '5 of 6 pairs can run; why the others cannot:',
        '  [1] kernel_not_supported: Required aspect fp64 is not supported on the device',
        '',
      ].join('\n'),
    );
    expect(r.err).toBe('syclkit check: error: required _ZTS5Scale on intel_gpu_dg1, which refuses it: kernel_not_supported: Required aspect fp64 is not supported on the device\n');
    const json = JSON.parse((await syclkit('check', app, lib, '--devices', 'intel_gpu_pvc', '--json')).out);
    expect(json.files).toEqual([app, lib]);
    const library = await syclkit('check', lib, '--devices', 'intel_gpu_pvc');
    expect(library.out).toContain('no kernels to check');
  });

  it('warns about calls nothing defines without dynamic linking, and reports exports and imports in --json', async () => {
    const plain = await syclkit('compile', '-fsycl-device-obj=llvmir', s.path('app.ll'), '-o', s.path('static.fatbin'));
    expect(plain.code).toBe(0);
    expect(plain.err).toBe(
      [
        "warning: function '_Z5scalef' is called but no translation unit defines it; compile with -fsycl-allow-device-image-dependencies to import it from a device library at run time [-Wundefined-function]",
        "warning: function '_Z6offsetf' is called but no translation unit defines it; compile with -fsycl-allow-device-image-dependencies to import it from a device library at run time [-Wundefined-function]",
        '2 warnings generated.',
        '',
      ].join('\n'),
    );
    expect((await syclkit('compile', '-fsycl-device-obj=llvmir', s.path('app.ll'), '-o', s.path('static.fatbin'), '-Wno-undefined-function')).err).toBe('');

    const report = JSON.parse((await syclkit('compile', '-fsycl-device-obj=llvmir', '--device-library', s.path('mathlib.ll'), '-o', s.path('lib2.fatbin'), '--json')).out);
    expect(report.exports).toEqual(['_Z5scalef', '_Z6offsetf']);
    expect(report.bundles[0].images.map((image: { exports?: string[]; kernels: string[] }) => [image.kernels, image.exports])).toEqual([
      [[], ['_Z6offsetf']],
      [[], ['_Z5scalef']],
    ]);
    const appReport = JSON.parse((await syclkit('compile', '-fsycl-device-obj=llvmir', '-fsycl-allow-device-image-dependencies', s.path('app.ll'), '-o', s.path('app2.fatbin'), '--json')).out);
    expect(appReport.imports).toEqual(['_Z5scalef', '_Z6offsetf']);
    const empty = await syclkit('compile', '-fsycl-device-obj=llvmir', '--device-library', s.file('nothing.ll', 'target triple = "spir64-unknown-unknown"\n'), '-o', s.path('nothing.fatbin'));
    expect(empty.err).toContain('the device library defines no SYCL_EXTERNAL function to export [-Wno-exports]');
  });
});

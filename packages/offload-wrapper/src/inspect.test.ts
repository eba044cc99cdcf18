import { fileURLToPath } from 'node:url';
import { AspectTable } from '@syclkit/device-config';
import {
  PropertySetRegistry,
  addDeviceRequirements,
  bitVectorValue,
  byteArrayValue,
  stringValue,
  uint32ArrayValue,
  uint32Value,
  uint64ArrayValue,
} from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { ContainerReader, ContainerWriter } from './container.js';
import { deviceImage } from './descriptor.js';
import { displayProperties, displayPropertyValue, formatAspect, formatInspectReport, imageRequirements, inspectContainer, inspectKernel } from './inspect.js';
import { packTables } from './pack.js';

const fixtures = fileURLToPath(new URL('../test/fixtures/two-targets/', import.meta.url));

async function fixtureReader() {
  const writer = ContainerWriter.toMemory();
  await packTables([{ table: 'spir64.table' }, { table: 'intel_gpu_dg1.table', target: 'intel_gpu_dg1' }], (image) => writer.addImage(image), {
    baseDir: fixtures,
  });
  writer.finish();
  return ContainerReader.fromBytes(writer.bytes(), { fileName: 'app.fatbin' });
}

async function fixtureReport() {
  return inspectContainer(await fixtureReader());
}

describe('displayPropertyValue', () => {
  it('decodes known properties to numbers and strings', () => {
    expect(displayPropertyValue('SYCL/device requirements', 'aspects', uint32ArrayValue([1, 6]))).toEqual([1, 6]);
    expect(displayPropertyValue('SYCL/device requirements', 'reqd_sub_group_size', uint32Value(16))).toBe(16);
    expect(displayPropertyValue('SYCL/device requirements', 'reqd_work_group_size_uint64_t', uint64ArrayValue([32n, 1n, 2n ** 60n]))).toEqual([32, 1, '1152921504606846976']);
    expect(displayPropertyValue('SYCL/device requirements', 'compile_target', stringValue('intel_gpu_pvc'))).toBe('intel_gpu_pvc');
    expect(displayPropertyValue('SYCL/kernel param opt', '_ZTS1K', bitVectorValue([true, false, true]))).toBe('101');
    expect(displayPropertyValue('SYCL/program metadata', '_ZTS1K@reqd_work_group_size', uint32ArrayValue([8, 4]))).toEqual([8, 4]);
    expect(displayPropertyValue('SYCL/program metadata', 'dg@global_id_mapping', stringValue('@dg'))).toBe('@dg');
    expect(displayPropertyValue('SYCL/add on images', '1', uint32ArrayValue([0xffff_ffff, 6]))).toEqual([-1, 6]);
    expect(displayPropertyValue('SYCL/misc properties', 'sanUsed', stringValue('asan'))).toBe('asan');
  });

  it('shows unknown byte arrays as text when they are text, else as bits and hex', () => {
    expect(displayPropertyValue('Vendor/x', 'name', stringValue('hello'))).toBe('hello');
    expect(displayPropertyValue('Vendor/x', 'blob', byteArrayValue(Uint8Array.of(0, 0xff, 7), 20))).toEqual({ bits: 20, hex: '00ff07' });
    // A known property whose value does not have the expected layout is shown raw, not thrown.
    expect(displayPropertyValue('SYCL/device requirements', 'aspects', byteArrayValue(Uint8Array.of(1, 2, 3)))).toEqual({ bits: 24, hex: '010203' });
  });

  it('keeps set and property order', () => {
    const registry = new PropertySetRegistry();
    registry.add('B', 'z', uint32Value(1));
    registry.add('A', 'y', uint32Value(2));
    registry.add('B', 'a', uint32Value(3));
    expect(JSON.stringify(displayProperties(registry))).toBe('{"B":{"z":1,"a":3},"A":{"y":2}}');
  });
});

describe('inspectContainer', () => {
  it('reports bundles, images, kernels, emptiness and decoded properties', async () => {
    const report = await fixtureReport();
    // version 3: a_1's code is the same for both targets, so the second record shares it
    expect(report).toMatchObject({ file: 'app.fatbin', containerVersion: 3 });
    expect(report.bundles.map((b) => b.target)).toEqual(['spir64', 'intel_gpu_dg1']);
    const [a0, a1] = report.bundles[0]!.images;
    expect(a0).toMatchObject({
      name: 'a_0',
      kernels: ['_ZTS7KernelA'],
      empty: false,
      kind: 'sycl',
      format: 'none',
      version: 2,
      properties: {
        'SYCL/devicelib req mask': { DeviceLibReqMask: 0 },
        'SYCL/device requirements': { aspects: [6] },
        'SYCL/kernel param opt': { _ZTS7KernelA: '0' },
      },
    });
    expect(a1!.properties['SYCL/device requirements']).toEqual({ aspects: [], reqd_sub_group_size: 32 });
    expect(a1!.properties['SYCL/add on images']).toEqual({ '1': [-1, 6] });
    const filtered = report.bundles[1]!.images[0]!;
    expect(filtered).toMatchObject({ name: 'a_0', empty: true, size: 0, kernels: ['_ZTS7KernelA'] });
    expect(filtered.properties['SYCL/device requirements']).toEqual({ aspects: [6], compile_target: 'intel_gpu_dg1' });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('reads requirements from the device requirements set', async () => {
    const report = await fixtureReport();
    expect(imageRequirements(report.bundles[0]!.images[1]!)).toEqual({ aspects: [], fixedTarget: [], reqdSubGroupSize: 32 });
    expect(imageRequirements(report.bundles[1]!.images[0]!)).toEqual({ aspects: [6], fixedTarget: [], compileTarget: 'intel_gpu_dg1' });
  });
});

describe('formatInspectReport', () => {
  it('prints a summary with aspect names, sub-group sizes, add-on images and empty images', async () => {
    const text = formatInspectReport(await fixtureReport());
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^app\.fatbin: container version 3, 2 bundles, 4 images \(1 empty\), \d+ bytes$/);
    expect(text).toContain('\nbundle spir64 (2 images)\n  image a_0: none, ');
    expect(text).toContain('    kernels: _ZTS7KernelA\n    requirements: aspects fp64 (6)\n');
    expect(text).toContain('    kernels: _ZTS7KernelB, _Z6helperv\n    requirements: sub-group size 32\n    add-on images: 1 if [-1, 6]\n');
    expect(text).toContain(
      '\nbundle intel_gpu_dg1 (2 images)\n  image a_0: empty: filtered out for this target, no code\n    kernels: _ZTS7KernelA\n    requirements: aspects fp64 (6); compile target intel_gpu_dg1\n',
    );
    expect(text).toContain('    property sets: SYCL/devicelib req mask (1), SYCL/device requirements (1), SYCL/kernel param opt (1)\n');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('prints the report of one kernel: the images that list it, and how many each bundle has', async () => {
    const reader = await fixtureReader();
    const report = inspectKernel(reader, '_Z6helperv');
    expect(report.bundles.map((b) => [b.target, b.imageCount, b.images.map((i) => i.name)])).toEqual([
      ['spir64', 2, ['a_1']],
      ['intel_gpu_dg1', 2, ['a_1']],
    ]);
    expect(report.bundles[0]!.images[0]).toEqual(inspectContainer(reader).bundles[0]!.images[1]);
    const text = formatInspectReport(report);
    expect(text.split('\n').slice(0, 4)).toEqual([
      expect.stringMatching(/^app\.fatbin: container version 3, 2 bundles, 4 images, \d+ bytes$/),
      'kernel _Z6helperv: 2 images in 2 bundles',
      '',
      'bundle spir64 (1 of 2 images)',
    ]);
    expect(formatInspectReport(inspectKernel(reader, '_ZTS7KernelZ'))).toContain('kernel _ZTS7KernelZ: 0 images in 0 bundles\n\nbundle spir64 (0 of 2 images)\n\nbundle intel_gpu_dg1 (0 of 2 images)\n');
  });

  it('lists property values on request and uses a given aspect table', async () => {
    const properties = new PropertySetRegistry();
    addDeviceRequirements(properties, { aspects: [6, 99], reqdWorkGroupSize: [8n, 4n], fixedTarget: [1] });
    properties.add('SYCL/add on image', '1', uint32Value(0));
    const writer = ContainerWriter.toMemory();
    writer.addImage(deviceImage({ name: 'k', target: 'spir64', image: Uint8Array.of(1), properties, compileOptions: '-g', manifest: Uint8Array.of(1) }));
    writer.finish();
    const report = inspectContainer(ContainerReader.fromBytes(writer.bytes(), { fileName: 'k.fatbin' }));
    const text = formatInspectReport(report, { properties: true, aspects: AspectTable.fromPairs([['my_fp64', 6]]) });
    expect(text).toContain('  image k: none, 1 byte, compile options "-g", manifest 1 byte\n');
    expect(text).toContain('requirements: aspects my_fp64 (6), aspect 99; fixed target aspect 1; work-group size 8x4\n');
    expect(text).toContain('    add-on image: 1 (stubs)\n');
    expect(text).toContain('      [SYCL/device requirements] aspects = [6, 99]\n');
    expect(text).toContain('      [SYCL/device requirements] reqd_work_group_size_uint64_t = [8, 4]\n');
  });

  it('names aspects with the built-in table by default', () => {
    expect(formatAspect(28)).toBe('atomic64 (28)');
    expect(formatAspect(1000)).toBe('aspect 1000');
  });
});

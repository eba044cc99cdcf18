import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PropertySetRegistry, stringValue, uint32ArrayValue, uint32Value, type PropertyValue } from '@syclkit/formats';
import { deviceImage, emitWrapperIR, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { tool } from '../test/elf-builder.js';
import { ObjectFormatError } from './errors.js';
import { mergeDescriptors, readProgramDescriptors } from './program-descriptor.js';

const llc = tool('llc-16', 'llc');
const cc = tool('cc');
const strip = tool('strip');
const work = mkdtempSync(join(tmpdir(), 'syclkit-descriptor-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function props(entries: [string, string, PropertyValue][]): PropertySetRegistry {
  const registry = new PropertySetRegistry();
  for (const [set, name, value] of entries) registry.add(set, name, value);
  return registry;
}

const descriptor: BinaryDescriptor = {
  bundles: [
    {
      target: 'spir64',
      images: [
        deviceImage({ name: 'spir64_0', target: 'spir64', image: new TextEncoder().encode('; device IR\n'), entries: ['_ZTS1A', '_ZTS1B'], properties: props([
          ['SYCL/devicelib req mask', 'DeviceLibReqMask', uint32Value(0)],
          ['SYCL/device requirements', 'aspects', uint32ArrayValue([1, 6])],
          ['SYCL/device requirements', 'reqd_sub_group_size', uint32Value(16)],
        ]) }),
        deviceImage({ name: 'spir64_1', target: 'spir64', image: Uint8Array.of(0x03, 0x02, 0x23, 0x07, 9), compileOptions: '-O2', linkOptions: '-x', manifest: Uint8Array.of(1, 2) }),
      ],
    },
    {
      target: 'intel_gpu_dg1',
      images: [
        deviceImage({ name: 'intel_gpu_dg1_0', target: 'intel_gpu_dg1', image: new Uint8Array(0), empty: true, entries: ['_ZTS1A'], properties: props([['SYCL/device requirements', 'compile_target', stringValue('intel_gpu_dg1')]]) }),
      ],
    },
  ],
};

/** The fields the runtime sees, for comparison. */
function fields(image: DeviceImage): unknown {
  return {
    name: image.name, version: image.version, kind: image.kind, format: image.format, target: image.target,
    compileOptions: image.compileOptions, linkOptions: image.linkOptions, manifest: image.manifest, image: image.image,
    entries: image.entries, empty: image.empty, properties: [...image.properties].map(([set, values]) => [set, [...values]]),
  };
}
const expected = descriptor.bundles.flatMap((b) => b.images.map(fields));

function wrapperObject(d: BinaryDescriptor): Uint8Array {
  return new Uint8Array(execFileSync(llc!, ['-filetype=obj', '-relocation-model=pic', '-o', '-'], { input: emitWrapperIR(d) }));
}

describe.skipIf(llc === undefined)('descriptors in a wrapper object (relocations applied; skipped without llc-16)', { timeout: 60_000 }, () => {
  it('reads back every field of every image', () => {
    const found = readProgramDescriptors(wrapperObject(descriptor), 'wrapper.o');
    expect(found.map((d) => [d.symbol, d.version, d.images.length])).toEqual([['.sycl_offloading.descriptor', 1, 3]]);
    expect(found[0]!.images.map(fields)).toEqual(expected);
    expect(mergeDescriptors(found).bundles.map((b) => [b.target, b.images.length])).toEqual([['spir64', 2], ['intel_gpu_dg1', 1]]);
  });

  it('fails with an ObjectFormatError, never another exception, on damaged wrapper objects', () => {
    const object = wrapperObject(descriptor);
    let failures = 0;
    for (let i = 0; i < 400; i++) {
      const damaged = object.slice();
      const at = (i * 7919) % damaged.length;
      damaged[at] = (damaged[at]! + 1 + i) & 0xff;
      try {
        readProgramDescriptors(damaged, 'damaged.o');
      } catch (error) {
        expect(error).toBeInstanceOf(ObjectFormatError);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(0);
  });
});

describe.skipIf(llc === undefined || cc === undefined)('descriptors in linked programs (skipped without llc-16 and cc)', { timeout: 60_000 }, () => {
  const stub = 'void __sycl_register_lib(void *d) { (void)d; }\nvoid __sycl_unregister_lib(void *d) { (void)d; }\nint main(void) { return 0; }\n';
  const link = (name: string, flags: string[]): Uint8Array => {
    writeFileSync(join(work, 'wrapper.o'), wrapperObject(descriptor));
    writeFileSync(join(work, 'stub.c'), stub);
    execFileSync(cc!, [...flags, '-o', join(work, name), join(work, 'wrapper.o'), join(work, 'stub.c')]);
    return new Uint8Array(readFileSync(join(work, name)));
  };

  it('reads a position-independent executable (pointers filled by dynamic relocations)', () => {
    const found = readProgramDescriptors(link('pie', ['-pie', '-fPIE']), 'pie');
    expect(found[0]!.images.map(fields)).toEqual(expected);
  });

  it('reads a non-PIE executable', () => {
    expect(readProgramDescriptors(link('nopie', ['-no-pie']), 'nopie')[0]!.images.map(fields)).toEqual(expected);
  });

  it.skipIf(strip === undefined)('finds the descriptor of a stripped executable through its .tgtimg records', () => {
    link('stripped', ['-pie']);
    execFileSync(strip!, [join(work, 'stripped')]);
    const found = readProgramDescriptors(new Uint8Array(readFileSync(join(work, 'stripped'))), 'stripped');
    expect(found.map((d) => d.symbol)).toEqual([undefined]);
    expect(found[0]!.images.map(fields)).toEqual(expected);
  });
});

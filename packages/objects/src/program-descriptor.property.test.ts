// Properties checked (needs LLVM 16's llc; skipped, naming it, without):
// 1. For random descriptors (bundles of images with random bytes, options, manifests, entries and
//    property sets of UINT32 and byte-array values, empty images), readProgramDescriptors of the
//    wrapper object llc makes from emitWrapperIR gives back every field of every image, in order.
// 2. Damaging that wrapper object anywhere (a byte changed, or the file cut) either still reads
//    or is an ObjectFormatError: never another exception.
import { execFileSync } from 'node:child_process';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { PropertySetRegistry, byteArrayValue, uint32Value, type PropertyValue } from '@syclkit/formats';
import { deviceImage, emitWrapperIR, type BinaryDescriptor, type DeviceImage } from '@syclkit/offload-wrapper';
import { tool } from '../test/elf-builder.js';
import { ObjectFormatError } from './errors.js';
import { readProgramDescriptors } from './program-descriptor.js';

const llc = tool('llc-16', 'llc');
const text = fc.stringMatching(/^[A-Za-z0-9_ .=\-/]{0,20}$/);
const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);
const value: fc.Arbitrary<PropertyValue> = fc.oneof(
  fc.nat({ max: 0xffff_ffff }).map(uint32Value),
  fc.uint8Array({ maxLength: 24 }).chain((payload) =>
    fc.integer({ min: payload.length === 0 ? 0 : payload.length * 8 - 7, max: payload.length * 8 }).map((bits) => byteArrayValue(payload, bits)),
  ),
);
const registry = fc.uniqueArray(fc.tuple(name, fc.uniqueArray(fc.tuple(name, value), { selector: (p) => p[0], maxLength: 3 })), { selector: (s) => s[0], maxLength: 3 }).map((sets) => {
  const out = new PropertySetRegistry();
  for (const [set, props] of sets) {
    out.ensureSet(set);
    for (const [prop, v] of props) out.add(set, prop, v);
  }
  return out;
});
const image = (target: string): fc.Arbitrary<DeviceImage> =>
  fc
    .record({
      bytes: fc.uint8Array({ maxLength: 64 }),
      format: fc.integer({ min: 0, max: 4 }),
      compileOptions: text,
      linkOptions: text,
      manifest: fc.option(fc.uint8Array({ minLength: 1, maxLength: 8 }), { nil: null }),
      entries: fc.array(name, { maxLength: 3 }),
      properties: registry,
    })
    .map((r) => deviceImage({ target, image: r.bytes, empty: r.bytes.length === 0, format: r.format, compileOptions: r.compileOptions, linkOptions: r.linkOptions, manifest: r.manifest, entries: r.entries, properties: r.properties }));
const descriptorArb: fc.Arbitrary<BinaryDescriptor> = fc
  .uniqueArray(fc.constantFrom('spir64', 'intel_gpu_pvc', 'nvidia_gpu_sm_80', 'spir64_x86_64'), { minLength: 1, maxLength: 3 })
  .chain((targets) => fc.tuple(...targets.map((t) => fc.array(image(t), { minLength: 1, maxLength: 3 }).map((images) => ({ target: t, images })))))
  .map((bundles) => ({ bundles }));

function fields(image: DeviceImage): unknown {
  return [image.version, image.kind, image.format, image.target, image.compileOptions, image.linkOptions, image.manifest, image.image, image.entries, image.empty, [...image.properties].map(([s, v]) => [s, [...v]])];
}

function wrapperObject(descriptor: BinaryDescriptor): Uint8Array {
  return new Uint8Array(execFileSync(llc!, ['-filetype=obj', '-relocation-model=pic', '-o', '-'], { input: emitWrapperIR(descriptor) }));
}

describe.skipIf(llc === undefined)('descriptors through llc (skipped without llc-16)', { timeout: 120_000 }, () => {
  test.prop([descriptorArb], fcOptions(15))('every field of every image reads back', (descriptor) => {
    const found = readProgramDescriptors(wrapperObject(descriptor), 'wrapper.o');
    expect(found).toHaveLength(1);
    expect(found[0]!.images.map(fields)).toEqual(descriptor.bundles.flatMap((b) => b.images.map(fields)));
  });

  test.prop([descriptorArb, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.option(fc.nat(), { nil: undefined })], fcOptions(15))(
    'damaged wrapper objects read or fail with an ObjectFormatError',
    (descriptor, flips, cut) => {
      let bytes = wrapperObject(descriptor);
      for (const [at, v] of flips) bytes[at % bytes.length] = v;
      if (cut !== undefined) bytes = bytes.slice(0, cut % (bytes.length + 1));
      try {
        readProgramDescriptors(bytes, 'damaged.o');
      } catch (error) {
        if (!(error instanceof ObjectFormatError)) throw error;
      }
    },
  );
});

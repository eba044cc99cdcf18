import { fc } from '@fast-check/vitest';
import { PropertySetRegistry, PropertyType, type PropertyValue } from '@syclkit/formats';
import type { BinaryDescriptor, DeviceImage } from '../src/descriptor.js';

// Text that stresses the container's strings: empty, separators, non-ASCII (no NUL, no lone surrogates).
const unit = fc.oneof(
  fc.constantFrom('a', 'Z', '_', '.', '-', '|', '=', ' ', '\n', '[', 'é', '😀', '0'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
export const text = fc.string({ unit, maxLength: 10 }).filter((s) => !s.includes('\0'));
const propertyName = text.filter((s) => s !== '' && !s.includes('=') && !s.includes('\n') && !s.startsWith('['));

const propertyValue: fc.Arbitrary<PropertyValue> = fc.oneof(
  fc.nat({ max: 0xffff_ffff }).map((value) => ({ type: PropertyType.UINT32, value })),
  fc
    .uint8Array({ maxLength: 24 })
    .chain((payload) =>
      fc
        .integer({ min: payload.length === 0 ? 0 : payload.length * 8 - 7, max: payload.length * 8 })
        .map((bitCount) => ({ type: PropertyType.BYTE_ARRAY, bitCount, payload })),
    ),
);

export type RegistryShape = [string, [string, PropertyValue][]][];

// The sets the container's lookup table indexes images by appear often, with names shared between images.
const setName = fc.oneof(text.filter((s) => !s.includes('\n')), fc.constantFrom('SYCL/exported symbols', 'SYCL/add on image'));
const sharedName = fc.oneof(propertyName, fc.constantFrom('_ZTS1K', '_ZTS1L', '1', '2'));

export const registryShape: fc.Arbitrary<RegistryShape> = fc.uniqueArray(
  fc.tuple(setName, fc.uniqueArray(fc.tuple(sharedName, propertyValue), { maxLength: 4, selector: ([name]) => name })),
  { maxLength: 3, selector: ([name]) => name },
);

export function buildRegistry(shape: RegistryShape): PropertySetRegistry {
  const registry = new PropertySetRegistry();
  for (const [name, properties] of shape) registry.addSet(name, properties);
  return registry;
}

export function registryShapeOf(registry: PropertySetRegistry): RegistryShape {
  return [...registry].map(([name, set]) => [name, [...set].map(([prop, value]) => [prop, value] as [string, PropertyValue])]);
}

/** Image bytes that recur (the same code for several targets), as the same array or as a copy. */
const RECURRING_CODE: readonly Uint8Array[] = [Uint8Array.from({ length: 24 }, (_, i) => i), Uint8Array.of(9, 8, 7, 6, 5, 4, 3, 2, 1), Uint8Array.of(1, 2, 3)];
const imageBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(...RECURRING_CODE),
  fc.constantFrom(...RECURRING_CODE).map((bytes) => bytes.slice()),
);

const imageFields = fc.record({
  name: text,
  version: fc.oneof(fc.constant(2), fc.nat({ max: 0xffff })),
  kind: fc.oneof(fc.constant(4), fc.nat({ max: 0xff })),
  format: fc.oneof(fc.constantFrom(0, 1, 2, 3, 4), fc.nat({ max: 0xff })),
  compileOptions: text,
  linkOptions: text,
  manifest: fc.option(fc.uint8Array({ maxLength: 16 }), { nil: null }),
  empty: fc.boolean(),
  image: imageBytes,
  entries: fc.array(fc.oneof(text, fc.constantFrom('_ZTS1K', '_ZTS1L')), { maxLength: 4 }),
  properties: registryShape,
});

export type ImageShape = Omit<DeviceImage, 'properties' | 'target' | 'entries'> & { readonly entries: string[]; readonly properties: RegistryShape };

export const imageShape: fc.Arbitrary<ImageShape> = imageFields.map((fields) => ({
  ...fields,
  image: fields.empty ? new Uint8Array(0) : fields.image,
}));

export type DescriptorShape = { readonly target: string; readonly images: ImageShape[] }[];

export const descriptorShape: fc.Arbitrary<DescriptorShape> = fc.uniqueArray(
  fc.record({ target: text, images: fc.array(imageShape, { maxLength: 3 }) }),
  { maxLength: 3, selector: (bundle) => bundle.target },
);

export function buildDescriptor(shape: DescriptorShape): BinaryDescriptor {
  return {
    bundles: shape.map((bundle) => ({
      target: bundle.target,
      images: bundle.images.map((image) => ({ ...image, target: bundle.target, properties: buildRegistry(image.properties) })),
    })),
  };
}

/** A descriptor as plain data (registries as arrays), for `toEqual`. */
export function descriptorShapeOf(descriptor: BinaryDescriptor): unknown {
  return descriptor.bundles.map((bundle) => ({
    target: bundle.target,
    images: bundle.images.map((image) => ({ ...image, entries: [...image.entries], properties: registryShapeOf(image.properties) })),
  }));
}

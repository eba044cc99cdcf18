import { fc } from '@fast-check/vitest';
import { PropertySetRegistry } from '../src/property-sets.js';
import { PropertyType, type PropertyValue } from '../src/property-value.js';

// Characters that stress the text formats: separators, brackets, '\r', non-ASCII.
const tricky = fc.constantFrom('[', ']', '|', '=', '\r', ' ', '/', ',', 'µ', '😀', 'A', '0');
const unit = fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));

/** Text without newlines or NUL (what every format here forbids). */
export const lineText = (constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> =>
  fc.string({ unit, maxLength: 12, ...constraints }).filter((text) => !text.includes('\n') && !text.includes('\0'));

export const setName = lineText();
export const propertyName = lineText({ minLength: 1 }).filter((name) => !name.includes('=') && !name.startsWith('['));

export const uint32Property: fc.Arbitrary<PropertyValue> = fc
  .nat({ max: 0xffff_ffff })
  .map((value) => ({ type: PropertyType.UINT32, value }));

export const byteArrayProperty: fc.Arbitrary<PropertyValue> = fc
  .uint8Array({ maxLength: 40 })
  .chain((payload) =>
    fc
      .integer({ min: payload.length === 0 ? 0 : payload.length * 8 - 7, max: payload.length * 8 })
      .map((bitCount) => ({ type: PropertyType.BYTE_ARRAY, bitCount, payload })),
  );

export const propertyValue = fc.oneof(uint32Property, byteArrayProperty);

export type RegistryShape = [string, [string, PropertyValue][]][];

export const registryShape: fc.Arbitrary<RegistryShape> = fc.uniqueArray(
  fc.tuple(setName, fc.uniqueArray(fc.tuple(propertyName, propertyValue), { maxLength: 6, selector: ([name]) => name })),
  { maxLength: 5, selector: ([name]) => name },
);

export function buildRegistry(shape: RegistryShape): PropertySetRegistry {
  const registry = new PropertySetRegistry();
  for (const [name, properties] of shape) registry.addSet(name, properties);
  return registry;
}

export function registryShapeOf(registry: PropertySetRegistry): RegistryShape {
  return [...registry].map(([name, set]) => [name, [...set]]);
}

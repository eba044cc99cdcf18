// Properties checked:
// 1. read(write(x)) = x for generated descriptors: bundles and targets in order, every image field
//    (name, version, kind, format, options, manifest, bytes, entries, property sets in order with
//    their exact values, empty flag).
// 2. Writing is deterministic and a fixed point: write(read(write(x))) = write(x), byte for byte.
// 3. Listing (ContainerReader without reading image bytes) gives the same metadata as a full read,
//    and each image's data length and CRC match its bytes.
// 4. Any single-byte corruption (every position, any non-zero XOR) is reported as a ContainerError
//    with an offset inside the file, never a wrong result and never another exception.
// 5. Any truncation (every shorter length) is reported as a ContainerError, never anything else.
// 6. Appending bytes after the trailer is a ContainerError too (the trailer must end the file).
// 7. The lookup table finds, for every offload entry, exported symbol and add-on image id, exactly
//    the images a scan of the full listing finds, in registration order; a name no image has
//    finds none.
// 8. Reading one key lazily (open, lookup, the records found, their bytes) of a container with any
//    single corrupted byte gives the uncorrupted answer or a ContainerError, never a wrong answer.
// 9. Shared bytes: an image whose bytes (9 or more) equal an earlier image's refers to the bytes of
//    the first image that had them instead of repeating them, every other image holds its own, and
//    the container is version 3 exactly when some image shares (version 2 otherwise).
// 10. addImages in any batches (rows of a batch sharing their entries, registries and byte arrays,
//     as the rows of one image do) writes exactly what addImage writes for each image, to memory
//     and to a file; an invalid image anywhere (a NUL in its name, target, an entry, a set or
//     property name, even one that an earlier image had without the NUL) fails with addImage's
//     message, and what was written before it is the same.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { PropertySetRegistry, PropertyType } from '@syclkit/formats';
import { buildDescriptor, descriptorShape, descriptorShapeOf } from '../test/arbitraries.js';
import { ContainerReader, ContainerWriter, readContainer, writeContainer, type ContainerImage, type ContainerKeyKind } from './container.js';
import type { DeviceImage } from './descriptor.js';
import { ContainerError } from './errors.js';
import { fcOptions } from '@syclkit/testing';

/** Reads fully; returns the error, or undefined when the bytes read as a container. */
function readError(bytes: Uint8Array): unknown {
  try {
    readContainer(bytes, { fileName: 'x.fatbin' });
    return undefined;
  } catch (error) {
    return error;
  }
}

/** -1 when equal, else the first offset where the bytes differ (or the shorter length). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length))) return -1;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

describe('container properties', () => {
  test.prop([descriptorShape], fcOptions())('read(write(x)) = x', (shape) => {
    const descriptor = buildDescriptor(shape);
    expect(descriptorShapeOf(readContainer(writeContainer(descriptor)))).toEqual(descriptorShapeOf(descriptor));
  });

  test.prop([descriptorShape], fcOptions())('write(read(write(x))) = write(x)', (shape) => {
    const bytes = writeContainer(buildDescriptor(shape));
    expect(firstDifference(writeContainer(readContainer(bytes)), bytes)).toBe(-1);
    expect(firstDifference(writeContainer(buildDescriptor(shape)), bytes)).toBe(-1);
  });

  test.prop([descriptorShape], fcOptions())('listing gives the metadata of a full read without the bytes', (shape) => {
    const descriptor = buildDescriptor(shape);
    const reader = ContainerReader.fromBytes(writeContainer(descriptor));
    const listed = reader.bundles.map((bundle) => ({
      target: bundle.target,
      images: bundle.images.map((image) => ({ name: image.name, entries: image.entries, empty: image.empty, format: image.format, dataLength: image.dataLength, dataCrc: image.dataCrc })),
    }));
    expect(listed).toEqual(
      descriptor.bundles.map((bundle) => ({
        target: bundle.target,
        images: bundle.images.map((image) => ({
          name: image.name,
          entries: image.entries,
          empty: image.empty,
          format: image.format,
          dataLength: image.image.length,
          dataCrc: crc32(image.image) >>> 0,
        })),
      })),
    );
  });

  test.prop([descriptorShape, fc.nat(), fc.integer({ min: 1, max: 255 })], fcOptions())(
    'any single-byte corruption is a ContainerError',
    (shape, position, xor) => {
      const bytes = writeContainer(buildDescriptor(shape));
      const corrupted = bytes.slice();
      const at = position % bytes.length;
      corrupted[at]! ^= xor;
      const error = readError(corrupted);
      expect(error).toBeInstanceOf(ContainerError);
      const offset = (error as ContainerError).offset;
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThanOrEqual(bytes.length);
    },
  );

  // Exhaustive over positions, so fewer containers (at most 200 even when FC_NUM_RUNS is larger).
  const exhaustive = fcOptions(20);
  test.prop([descriptorShape.filter((shape) => shape.length > 0)], { ...exhaustive, numRuns: Math.min(exhaustive.numRuns, 200) })('every byte of a container is protected', (shape) => {
    const bytes = writeContainer(buildDescriptor(shape));
    for (let at = 0; at < bytes.length; at++) {
      const corrupted = bytes.slice();
      corrupted[at]! ^= 0x01;
      expect(readError(corrupted), `flipping bit 0 of byte ${at}`).toBeInstanceOf(ContainerError);
    }
  }, 60_000);

  test.prop([descriptorShape, fc.nat()], fcOptions())('any truncation is a ContainerError', (shape, cut) => {
    const bytes = writeContainer(buildDescriptor(shape));
    const length = cut % bytes.length;
    expect(readError(bytes.subarray(0, length))).toBeInstanceOf(ContainerError);
  });

  test.prop([descriptorShape, fc.uint8Array({ minLength: 1, maxLength: 40 })], fcOptions())('trailing bytes are a ContainerError', (shape, extra) => {
    const bytes = writeContainer(buildDescriptor(shape));
    const longer = new Uint8Array(bytes.length + extra.length);
    longer.set(bytes);
    longer.set(extra, bytes.length);
    expect(readError(longer)).toBeInstanceOf(ContainerError);
  });

  /** Every key of a listing, with the images that have it, from a scan. */
  function scannedKeys(images: readonly ContainerImage[]): Map<string, [ContainerKeyKind, string, number[]]> {
    const keys = new Map<string, [ContainerKeyKind, string, number[]]>();
    const add = (kind: ContainerKeyKind, name: string, position: number): void => {
      const id = `${kind} ${name}`;
      const entry = keys.get(id) ?? [kind, name, []];
      if (!entry[2].includes(position)) entry[2].push(position);
      keys.set(id, entry);
    };
    for (const image of images) {
      for (const entry of image.entries) add('entry', entry, image.index);
      for (const symbol of image.properties.getSet('SYCL/exported symbols')?.keys() ?? []) add('exported-symbol', symbol, image.index);
      for (const id of image.properties.getSet('SYCL/add on image')?.keys() ?? []) add('add-on-image', id, image.index);
    }
    return keys;
  }

  test.prop([descriptorShape], fcOptions())('the lookup table finds what a scan finds', (shape) => {
    const bytes = writeContainer(buildDescriptor(shape));
    const keys = scannedKeys(ContainerReader.fromBytes(bytes).images);
    const reader = ContainerReader.fromBytes(bytes); // a fresh reader: lookups without the listing
    for (const [kind, name, positions] of keys.values()) {
      expect(reader.lookupPositions(kind, name), `${kind} ${name}`).toEqual(positions);
      expect(reader.lookup(kind, name).map((image) => image.index)).toEqual(positions);
    }
    for (const kind of ['entry', 'exported-symbol', 'add-on-image'] as const) {
      if (!keys.has(`${kind} _ZTS1M`)) expect(reader.lookup(kind, '_ZTS1M')).toEqual([]);
    }
  });

  test.prop([descriptorShape.filter((shape) => shape.some((bundle) => bundle.images.some((image) => image.entries.length > 0))), fc.nat(), fc.integer({ min: 1, max: 255 })], fcOptions())(
    'reading one key of a corrupted container is right or a ContainerError',
    (shape, position, xor) => {
      const bytes = writeContainer(buildDescriptor(shape));
      const name = ContainerReader.fromBytes(bytes).images.find((image) => image.entries.length > 0)!.entries[0]!;
      const answer = (input: Uint8Array) => {
        const reader = ContainerReader.fromBytes(input);
        return reader.lookup('entry', name).map((image) => ({ name: image.name, target: image.target, index: image.index, data: [...reader.readImageData(image)] }));
      };
      const expected = answer(bytes);
      const corrupted = bytes.slice();
      corrupted[position % bytes.length]! ^= xor;
      let got: unknown;
      try {
        got = answer(corrupted);
      } catch (error) {
        expect(error).toBeInstanceOf(ContainerError);
        return;
      }
      expect(got).toEqual(expected);
    },
  );

  test.prop([descriptorShape], fcOptions())('equal bytes are stored once, and only then is the container version 3', (shape) => {
    const descriptor = buildDescriptor(shape);
    const reader = ContainerReader.fromBytes(writeContainer(descriptor));
    const written = descriptor.bundles.flatMap((bundle) => bundle.images);
    const listed = reader.images;
    const firstWith = new Map<string, number>();
    let shares = false;
    listed.forEach((image, i) => {
      const key = Buffer.from(written[i]!.image).toString('hex');
      const first = firstWith.get(key);
      const shared = image.dataOffset < image.recordOffset;
      if (written[i]!.image.length >= 9 && first !== undefined) {
        expect(shared, `image ${i}`).toBe(true);
        expect(image.dataOffset).toBe(listed[first]!.dataOffset);
        shares = true;
      } else {
        expect(shared, `image ${i}`).toBe(false);
        expect(image.dataOffset + image.dataLength).toBe(image.recordOffset + image.recordLength);
        if (!firstWith.has(key)) firstWith.set(key, i);
      }
    });
    expect(reader.version).toBe(shares ? 3 : 2);
  });

  test.prop(
    [
      descriptorShape,
      fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 12 }),
      fc.array(fc.constantFrom('own', 'row', 'row with other bytes'), { maxLength: 12 }),
      fc.option(fc.tuple(fc.nat(), fc.constantFrom('name', 'target', 'entry', 'set', 'property')), { nil: undefined }),
    ],
    fcOptions(),
  )('addImages in any batches writes what addImage writes', (shape, batchSizes, rowOfPrevious, invalid) => {
    const images: DeviceImage[] = buildDescriptor(shape).bundles.flatMap((bundle) => bundle.images);
    // Rows of one image: the same entries array, registry and bytes as the image before it.
    // Or another array of the same length with other bytes (a CRC must not be taken from it).
    for (let i = 1; i < images.length; i++) {
      if (rowOfPrevious[i] === undefined || rowOfPrevious[i] === 'own') continue;
      const previous = images[i - 1]!;
      const bytes = rowOfPrevious[i] === 'row' ? previous.image : previous.image.map((byte) => byte ^ 0x5a);
      images[i] = { ...images[i]!, entries: previous.entries, properties: previous.properties, image: images[i]!.empty ? images[i]!.image : bytes };
    }
    if (invalid !== undefined && images.length > 0) {
      const [at, field] = invalid;
      const i = at % images.length;
      const image = images[i]!;
      const known = images.find((other) => other.entries.length > 0)?.entries[0] ?? 'k';
      const setName = [...image.properties][0]?.[0] ?? 'S';
      const withNul = (s: string): string => `${s}\0`;
      let bad: DeviceImage;
      if (field === 'name') bad = { ...image, name: withNul(image.name) };
      else if (field === 'target') bad = { ...image, target: withNul(image.target) };
      else if (field === 'entry') bad = { ...image, entries: [...image.entries, withNul(known)] };
      else {
        bad = { ...image, properties: field === 'set' ? withRawProperty(image.properties, withNul(setName), 'p') : withRawProperty(image.properties, setName, withNul(known)) };
      }
      images[i] = bad;
    }
    const outcome = (write: (writer: ContainerWriter) => void, writer: ContainerWriter): { error: string | undefined } => {
      try {
        write(writer);
        return { error: undefined };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    const batches: DeviceImage[][] = [];
    for (let at = 0, b = 0; at < images.length; b++) {
      const size = batchSizes[b] ?? images.length;
      batches.push(images.slice(at, at + size));
      at += size;
    }
    const one = ContainerWriter.toMemory();
    const expected = outcome((w) => images.forEach((image) => w.addImage(image)), one);
    const batched = ContainerWriter.toMemory();
    const got = outcome((w) => batches.forEach((batch) => w.addImages(batch)), batched);
    expect(got).toEqual(expected);
    if (invalid !== undefined && images.length > 0) expect(expected.error).toMatch(/contains NUL/);
    one.finish();
    batched.finish();
    expect(firstDifference(batched.bytes(), one.bytes())).toBe(-1);
    if (expected.error === undefined) {
      const path = join(fileDir, 'batched.fatbin');
      const file = ContainerWriter.toFile(path);
      for (const batch of batches) file.addImages(batch);
      file.finish();
      expect(firstDifference(readFileSync(path), one.bytes())).toBe(-1);
    }
  });
});

const fileDir = mkdtempSync(join(tmpdir(), 'syclkit-container-prop-'));
afterAll(() => rmSync(fileDir, { recursive: true, force: true }));

/** A registry plus one property (in a new or existing set) whose names the registry's own checks would refuse (the writer must catch them). */
function withRawProperty(registry: PropertySetRegistry, setName: string, propertyName: string): PropertySetRegistry {
  const sets = new Map([...registry].map(([name, set]) => [name, new Map(set)]));
  if (!sets.has(setName)) sets.set(setName, new Map());
  sets.get(setName)!.set(propertyName, { type: PropertyType.UINT32, value: 1 });
  return { get size() { return sets.size; }, [Symbol.iterator]: () => sets.entries(), getSet: (name: string) => sets.get(name) } as unknown as PropertySetRegistry;
}

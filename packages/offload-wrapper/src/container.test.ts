import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { PropertySetRegistry, addDeviceRequirements, uint32Value, writePropertySetRegistry } from '@syclkit/formats';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_LAYOUT,
  CONTAINER_MAGIC,
  ContainerReader,
  lookupKeyHash,
  ContainerWriter,
  readContainer,
  readContainerFile,
  writeContainer,
  writeContainerFile,
} from './container.js';
import { deviceImage, ImageFormat, type BinaryDescriptor } from './descriptor.js';
import { ContainerError, WrapperError } from './errors.js';

const dir = mkdtempSync(join(tmpdir(), 'syclkit-container-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sample(): BinaryDescriptor {
  const properties = new PropertySetRegistry();
  properties.add('SYCL/devicelib req mask', 'DeviceLibReqMask', uint32Value(0));
  addDeviceRequirements(properties, { aspects: [6], reqdSubGroupSize: 16 });
  return {
    bundles: [
      {
        target: 'spir64',
        images: [
          deviceImage({ name: 'a_0', target: 'spir64', image: Uint8Array.of(3, 2, 0x23, 7, 9, 9), entries: ['_ZTS1K'], properties }),
          deviceImage({ name: 'a_1', target: 'spir64', image: Uint8Array.of(1, 2, 3), manifest: Uint8Array.of(0xaa), compileOptions: '-g' }),
        ],
      },
      { target: 'intel_gpu_pvc', images: [deviceImage({ name: 'a_0', target: 'intel_gpu_pvc', image: new Uint8Array(0), empty: true, entries: ['_ZTS1K'], properties })] },
    ],
  };
}

function errorOf(action: () => unknown): ContainerError {
  try {
    action();
  } catch (error) {
    if (error instanceof ContainerError) return error;
    throw error;
  }
  throw new Error('expected a ContainerError');
}

const read = (bytes: Uint8Array) => errorOf(() => readContainer(bytes, { fileName: 'app.fatbin' }));

/** Records followed by `index` and a trailer for it. */
function withIndex(records: Uint8Array, index: Uint8Array): Uint8Array {
  const trailer = Buffer.alloc(32);
  trailer.write('SKFATEND', 0, 'latin1');
  trailer.writeBigUInt64LE(BigInt(records.length), 8);
  trailer.writeBigUInt64LE(BigInt(index.length), 16);
  trailer.writeUInt32LE(crc32(index) >>> 0, 24);
  trailer.writeUInt32LE(crc32(trailer.subarray(0, 28)) >>> 0, 28);
  return Buffer.concat([records, index, trailer]);
}

/** The index of a container (its bytes between the records and the trailer). */
function indexOf(bytes: Uint8Array): { records: Uint8Array; index: Buffer } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const at = Number(view.getBigUint64(bytes.length - 24, true));
  return { records: bytes.subarray(0, at), index: Buffer.from(bytes.subarray(at, bytes.length - 32)) };
}

describe('container layout', () => {
  it('starts with the 16-byte header: magic, version 2, flags 0, CRC-32 of bytes 0-11', () => {
    const bytes = writeContainer({ bundles: [] });
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x53, 0x4b, 0x46, 0x41, 0x54, 0x0d, 0x0a]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint16(8, true)).toBe(2);
    expect(view.getUint16(10, true)).toBe(0);
    expect(view.getUint32(12, true)).toBe(crc32(bytes.subarray(0, 12)) >>> 0);
  });

  it('writes an empty container as header, a 24-byte index (no bundle, an empty lookup table of one bucket) and the 32-byte trailer', () => {
    const bytes = writeContainer({ bundles: [] });
    expect(bytes.length).toBe(16 + 24 + 32);
    expect(Buffer.from(bytes.subarray(16, 20)).toString('latin1')).toBe('INDX');
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect([20, 24, 28, 32, 36].map((at) => view.getUint32(at, true))).toEqual([0, 0, 1, 0, 0]); // bundles, keys, buckets, bucket starts
    expect(Buffer.from(bytes.subarray(40, 48)).toString('latin1')).toBe('SKFATEND');
    expect(Number(view.getBigUint64(48, true))).toBe(16);
    expect(Number(view.getBigUint64(56, true))).toBe(24);
    expect(view.getUint32(64, true)).toBe(crc32(bytes.subarray(16, 40)) >>> 0);
    expect(view.getUint32(68, true)).toBe(crc32(bytes.subarray(40, 68)) >>> 0);
    expect(readContainer(bytes)).toEqual({ bundles: [] });
  });

  it('writes the index as bundles, all record offsets, then the lookup table with each key in the bucket of its FNV-1a hash', () => {
    const bytes = writeContainer(sample());
    const reader = ContainerReader.fromBytes(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const indexOffset = Number(view.getBigUint64(bytes.length - 24, true));
    let at = indexOffset + 8;
    const bundles: [string, number][] = [];
    for (let b = 0; b < 2; b++) {
      const length = view.getUint32(at, true);
      bundles.push([Buffer.from(bytes.subarray(at + 4, at + 4 + length)).toString('utf8'), view.getUint32(at + 4 + length, true)]);
      at += 8 + length;
    }
    expect(bundles).toEqual([['spir64', 2], ['intel_gpu_pvc', 1]]);
    expect([0, 1, 2].map((i) => Number(view.getBigUint64(at + 8 * i, true)))).toEqual(reader.images.map((image) => image.recordOffset));
    at += 24;
    // one key: the entry _ZTS1K of images 0 and 2; one bucket
    expect([view.getUint32(at, true), view.getUint32(at + 4, true), view.getUint32(at + 8, true), view.getUint32(at + 12, true)]).toEqual([1, 1, 0, 23]);
    expect(lookupKeyHash('entry', '_ZTS1K')).toBe(0x0bc12ad4); // FNV-1a 32 of 01 '_ZTS1K', computed independently
    const key = bytes.subarray(at + 16, at + 16 + 23);
    expect([...key]).toEqual([1, 6, 0, 0, 0, ...Buffer.from('_ZTS1K'), 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
    expect(at + 16 + 23).toBe(bytes.length - 32);
  });

  it('puts each image record right after the previous one, data last', () => {
    const bytes = writeContainer(sample());
    const reader = ContainerReader.fromBytes(bytes);
    const [first, second, third] = reader.images;
    expect(first!.recordOffset).toBe(CONTAINER_LAYOUT.headerSize);
    expect(second!.recordOffset).toBe(first!.dataOffset + first!.dataLength);
    expect(third!.recordOffset).toBe(second!.dataOffset + second!.dataLength);
    expect([...bytes.subarray(first!.dataOffset, first!.dataOffset + first!.dataLength)]).toEqual([3, 2, 0x23, 7, 9, 9]);
    expect(Buffer.from(bytes.subarray(first!.recordOffset, first!.recordOffset + 4)).toString('latin1')).toBe('IMAG');
  });

  it('exports the magic it writes', () => {
    expect([...writeContainer({ bundles: [] }).subarray(0, 8)]).toEqual([...CONTAINER_MAGIC]);
  });
});

describe('round trip', () => {
  it('gives back every field, the empty image and its properties', () => {
    const back = readContainer(writeContainer(sample()));
    expect(back.bundles.map((b) => b.target)).toEqual(['spir64', 'intel_gpu_pvc']);
    const [a0, a1] = back.bundles[0]!.images;
    expect(a0).toMatchObject({ name: 'a_0', version: 2, kind: 4, format: ImageFormat.SPIRV, target: 'spir64', entries: ['_ZTS1K'], empty: false, manifest: null });
    expect([...a0!.image]).toEqual([3, 2, 0x23, 7, 9, 9]);
    expect(writePropertySetRegistry(a0!.properties)).toBe(
      '[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n[SYCL/device requirements]\naspects=2|gAAAAAAAAAgBAAAA\nreqd_sub_group_size=1|16\n',
    );
    expect(a1).toMatchObject({ compileOptions: '-g', manifest: Uint8Array.of(0xaa) });
    const filtered = back.bundles[1]!.images[0]!;
    expect(filtered.empty).toBe(true);
    expect(filtered.image.length).toBe(0);
    expect(filtered.entries).toEqual(['_ZTS1K']);
  });

  it('is deterministic: the same descriptor gives the same bytes', () => {
    expect(Buffer.from(writeContainer(sample())).equals(Buffer.from(writeContainer(sample())))).toBe(true);
  });

  it('lists bundles and images from a file without reading image bytes, and checks bytes when read', () => {
    const path = join(dir, 'listed.fatbin');
    writeContainerFile(path, sample());
    const bytes = readFileSync(path);
    const reader0 = ContainerReader.fromBytes(bytes);
    const dataAt = reader0.images[0]!.dataOffset;
    bytes[dataAt + 1]! ^= 0xff; // damage image a_0's code only
    writeFileSync(path, bytes);
    const reader = ContainerReader.open(path);
    try {
      expect(reader.bundles.map((b) => [b.target, b.images.map((i) => i.name)])).toEqual([
        ['spir64', ['a_0', 'a_1']],
        ['intel_gpu_pvc', ['a_0']],
      ]);
      expect([...reader.readImageData(reader.images[1]!)]).toEqual([1, 2, 3]);
      const error = errorOf(() => reader.readImageData(reader.images[0]!));
      expect(error.offset).toBe(dataAt);
      expect(error.render()).toMatch(
        new RegExp(`^.*listed\\.fatbin: error: offset ${dataAt} \\(0x[0-9a-f]+\\): corrupted data of image 0 \\('a_0', bundle 'spir64'\\): the CRC-32 of bytes ${dataAt}–${dataAt + 6} is 0x[0-9a-f]{8}, the record says 0x[0-9a-f]{8}$`),
      );
    } finally {
      reader.close();
    }
  });

  it('writes records as images arrive (small ones gathered into writes of at most 1 MiB) and shows the file only when finished', () => {
    const path = join(dir, 'streamed.fatbin');
    const writer = ContainerWriter.toFile(path);
    writer.addImage(deviceImage({ target: 'spir64', image: new Uint8Array(1000) }));
    writer.addImage(deviceImage({ target: 'spir64', image: new Uint8Array(300_000) }));
    const temp = readdirSync(dir).find((name) => name.startsWith('.streamed.fatbin.'));
    expect(temp).toBeDefined();
    expect(readFileSync(join(dir, temp!)).length).toBeGreaterThanOrEqual(16 + 2 * 28 + 1000 + 300_000);
    expect(existsSync(path)).toBe(false);
    const summary = writer.finish();
    expect(summary).toEqual({ size: readFileSync(path).length, bundles: 1, images: 2 });
    expect(readdirSync(dir).some((name) => name.startsWith('.streamed.fatbin.'))).toBe(false);
    expect(readContainerFile(path).bundles[0]!.images.map((i) => i.image.length)).toEqual([1000, 300_000]);
  });

  it('leaves an existing file and no temporary file behind when writing fails', () => {
    const path = join(dir, 'kept.fatbin');
    writeFileSync(path, 'old');
    const bad = { bundles: [{ target: 'spir64', images: [{ ...deviceImage({ target: 'spir64', image: new Uint8Array(1) }), version: 70000 }] }] };
    expect(() => writeContainerFile(path, bad)).toThrow(/version must be an integer in 0\.\.65535, got 70000/);
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir).filter((name) => name.startsWith('.kept.fatbin.'))).toEqual([]);
  });

  it('groups images by target, in the order targets first appear', () => {
    const writer = ContainerWriter.toMemory();
    writer.addImage(deviceImage({ name: 'x', target: 'intel_gpu_pvc', image: Uint8Array.of(1) }));
    writer.addImage(deviceImage({ name: 'y', target: 'spir64', image: Uint8Array.of(2) }));
    writer.addImage(deviceImage({ name: 'z', target: 'intel_gpu_pvc', image: Uint8Array.of(3) }));
    writer.finish();
    expect(readContainer(writer.bytes()).bundles.map((b) => [b.target, b.images.map((i) => i.name)])).toEqual([
      ['intel_gpu_pvc', ['x', 'z']],
      ['spir64', ['y']],
    ]);
  });

  it('rejects a second bundle for the same target, an image in the wrong bundle, and use after finish', () => {
    const writer = ContainerWriter.toMemory();
    writer.addBundle('spir64');
    expect(() => writer.addBundle('spir64')).toThrow("bundle 'spir64' already exists");
    writer.finish();
    expect(() => writer.addImage(deviceImage({ target: 'spir64', image: new Uint8Array(0) }))).toThrow('the container writer is already finished');
    expect(() => writeContainer({ bundles: [{ target: 'spir64', images: [deviceImage({ name: 'k', target: 'x', image: new Uint8Array(0) })] }] })).toThrow(
      "image 'k' has target 'x' but is in bundle 'spir64'",
    );
  });

  it('rejects an empty image that has bytes', () => {
    expect(() => deviceImage({ name: 'e', target: 'spir64', image: Uint8Array.of(1), empty: true })).toThrow(WrapperError);
  });
});

describe('diagnostics', () => {
  const good = writeContainer(sample());
  const view = new DataView(good.buffer, good.byteOffset);

  it('says a file that is not a container is not one, at the first wrong byte', () => {
    const error = read(new TextEncoder().encode('[Code|Properties|Symbols]\n'));
    expect(error.offset).toBe(0);
    expect(error.message).toBe(
      'app.fatbin: offset 0 (0x0): not a syclkit fat-binary container: expected the magic bytes 89 53 4b 46 41 54 0d 0a at offset 0, found 5b 43 6f 64 65 7c 50 72',
    );
  });

  it('reports a file cut inside the header', () => {
    const error = read(good.subarray(0, 11));
    expect(error.offset).toBe(11);
    expect(error.reason).toContain('truncated: the file is 11 bytes long, shorter than the 16-byte container header');
  });

  it('reports a corrupted header by its CRC', () => {
    const bytes = good.slice();
    bytes[9]! ^= 1;
    expect(read(bytes).reason).toMatch(/^offset 12 \(0xc\): corrupted header: its CRC-32 is 0x[0-9a-f]{8}, the header says 0x[0-9a-f]{8}$/);
  });

  it('refuses a newer container version with a valid header', () => {
    const bytes = good.slice();
    new DataView(bytes.buffer).setUint16(8, 4, true);
    new DataView(bytes.buffer).setUint32(12, crc32(bytes.subarray(0, 12)) >>> 0, true);
    const error = read(bytes);
    expect(error.offset).toBe(8);
    expect(error.reason).toBe('offset 8 (0x8): unsupported container version 4: this reader reads versions 1 to 3');
  });

  it('says where the file was cut inside an image record', () => {
    const reader = ContainerReader.fromBytes(good);
    const second = reader.images[1]!;
    const cut = second.dataOffset + 1;
    const error = read(good.subarray(0, cut));
    expect(error.offset).toBe(cut);
    expect(error.reason).toBe(
      `offset ${cut} (0x${cut.toString(16)}): truncated: image record 1 at offset ${second.recordOffset} extends to offset ${second.dataOffset + 3}, but the file ends at offset ${cut}`,
    );
  });

  it('says when the file was cut inside a record header', () => {
    const cut = 16 + 10;
    expect(read(good.subarray(0, cut)).reason).toContain(
      `truncated: the file ends at offset ${cut} inside the 28-byte header of image record 0, which starts at offset 16`,
    );
  });

  it('says when only the index and trailer are missing', () => {
    const reader = ContainerReader.fromBytes(good);
    const last = reader.images[2]!;
    const end = last.dataOffset + last.dataLength;
    expect(read(good.subarray(0, end)).reason).toContain(`truncated: the file ends at offset ${end} after 3 complete image records; the index and trailer are missing`);
  });

  it('says when the file was cut inside the index or trailer', () => {
    const error = read(good.subarray(0, good.length - 5));
    expect(error.reason).toMatch(/truncated or corrupted: the index starts at offset \d+, but expected the trailer magic 53 4b 46 41 54 45 4e 44 \("SKFATEND"\) at offset \d+, found/);
  });

  it('reports a corrupted trailer, index, record header, metadata and data at their offsets', () => {
    const reader = ContainerReader.fromBytes(good);
    const image = reader.images[0]!;
    const indexOffset = Number(view.getBigUint64(good.length - 24, true));
    const cases: [number, RegExp][] = [
      [good.length - 10, /corrupted trailer: its CRC-32/],
      [indexOffset + 6, /corrupted index: its CRC-32/],
      [image.recordOffset + 5, /corrupted header of image record 0 \(offset 16\): its CRC-32/],
      [image.recordOffset + 30, /corrupted metadata of image record 0 \(offset 16\): its CRC-32/],
      [image.dataOffset, /corrupted data of image 0 \('a_0', bundle 'spir64'\)/],
    ];
    for (const [at, message] of cases) {
      const bytes = good.slice();
      bytes[at]! ^= 0x40;
      expect(read(bytes).reason, `byte ${at}`).toMatch(message);
    }
  });

  it('reports bytes that no record in the index covers', () => {
    // A container whose index lists only the second of two records: rebuild index and trailer.
    const reader = ContainerReader.fromBytes(good);
    const second = reader.images[1]!;
    const recordsEnd = reader.images[2]!.dataOffset + reader.images[2]!.dataLength;
    const index = Buffer.alloc(4 + 4 + 4 + 6 + 4 + 8 + 4 + 4 + 8);
    index.write('INDX', 0, 'latin1');
    index.writeUInt32LE(1, 4);
    index.writeUInt32LE(6, 8);
    index.write('spir64', 12, 'latin1');
    index.writeUInt32LE(1, 18);
    index.writeBigUInt64LE(BigInt(second.recordOffset), 22);
    index.writeUInt32LE(1, 34); // an empty lookup table of one bucket
    const bytes = withIndex(good.subarray(0, recordsEnd), index);
    // opening reads the index only; the full read finds the gap
    expect(ContainerReader.fromBytes(bytes).image(0).name).toBe('a_1');
    const error = read(bytes);
    expect(error.offset).toBe(16);
    expect(error.reason).toContain(`bytes 16–${second.recordOffset} belong to no image record listed in the index`);
  });
});

describe('reading one kernel', () => {
  function libraryDescriptor(): BinaryDescriptor {
    const exporting = new PropertySetRegistry();
    exporting.add('SYCL/exported symbols', '_Z3addii', uint32Value(1));
    const definitions = new PropertySetRegistry();
    definitions.add('SYCL/add on image', '1', uint32Value(1));
    const stubs = new PropertySetRegistry();
    stubs.add('SYCL/add on image', '1', uint32Value(0));
    return {
      bundles: [
        {
          target: 'spir64',
          images: [
            deviceImage({ name: 'k_0', target: 'spir64', image: Uint8Array.of(1), entries: ['_ZTS1K', '_Z3addii'], properties: exporting }),
            deviceImage({ name: 'k_1', target: 'spir64', image: Uint8Array.of(2), entries: ['_ZTS1L'] }),
            deviceImage({ name: 'k_2', target: 'spir64', image: Uint8Array.of(3), entries: ['act'], properties: definitions }),
            deviceImage({ name: 'k_3', target: 'spir64', image: Uint8Array.of(4), entries: ['act'], properties: stubs }),
          ],
        },
        { target: 'intel_gpu_pvc', images: [deviceImage({ name: 'k_0', target: 'intel_gpu_pvc', image: Uint8Array.of(5), entries: ['_ZTS1K'] })] },
      ],
    };
  }

  it('finds images by offload entry, exported function and add-on image id, in registration order', () => {
    const reader = ContainerReader.fromBytes(writeContainer(libraryDescriptor()));
    const names = (images: { name: string; target: string }[]) => images.map((image) => `${image.target}/${image.name}`);
    expect(reader.bundleRanges).toEqual([
      { target: 'spir64', first: 0, count: 4 },
      { target: 'intel_gpu_pvc', first: 4, count: 1 },
    ]);
    expect(reader.imageCount).toBe(5);
    expect(names(reader.lookup('entry', '_ZTS1K'))).toEqual(['spir64/k_0', 'intel_gpu_pvc/k_0']);
    expect(reader.lookupPositions('entry', '_ZTS1K')).toEqual([0, 4]);
    expect(names(reader.lookup('entry', 'act'))).toEqual(['spir64/k_2', 'spir64/k_3']);
    expect(names(reader.lookup('exported-symbol', '_Z3addii'))).toEqual(['spir64/k_0']);
    expect(names(reader.lookup('add-on-image', '1'))).toEqual(['spir64/k_2', 'spir64/k_3']);
    expect(reader.lookup('entry', '_ZTS1M')).toEqual([]);
    expect(reader.lookup('exported-symbol', '_ZTS1K')).toEqual([]);
    expect(reader.image(4)).toMatchObject({ name: 'k_0', target: 'intel_gpu_pvc', index: 4, entries: ['_ZTS1K'] });
    expect(reader.image(4)).toEqual(reader.images[4]);
    expect(() => reader.image(5)).toThrow('no image 5: <memory> has 5 images');
  });

  it('reads only the index and the records of the images it looks up', () => {
    const bytes = writeContainer(libraryDescriptor());
    const whole = ContainerReader.fromBytes(bytes);
    const damaged = bytes.slice();
    for (const image of whole.images.filter((i) => !i.entries.includes('_ZTS1L'))) damaged[image.recordOffset + 30]! ^= 0xff; // metadata of the others
    const path = join(dir, 'lazy.fatbin');
    writeFileSync(path, damaged);
    const reader = ContainerReader.open(path);
    try {
      const [image] = reader.lookup('entry', '_ZTS1L');
      expect(image).toMatchObject({ name: 'k_1', index: 1 });
      expect([...reader.readImageData(image!)]).toEqual([2]);
      expect(() => reader.lookup('entry', '_ZTS1K')).toThrow(/corrupted metadata of image record 0 \(offset 16\)/);
      expect(() => reader.bundles).toThrow(ContainerError);
    } finally {
      reader.close();
    }
  });

  it('reads version 1 containers (no lookup table) and finds their images the same way', () => {
    // The worked example of the README when it described version 1: bundle spir64, image 'a', entry K.
    const dump = `
      0000  89 53 4b 46 41 54 0d 0a 01 00 00 00 2c cd 0a d0
      0010  49 4d 41 47 35 00 00 00 04 00 00 00 00 00 00 00
      0020  03 27 5d 45 5e 46 b8 10 93 e2 70 c7 02 00 04 02
      0030  00 00 00 00 01 00 00 00 61 00 00 00 00 00 00 00
      0040  00 01 00 00 00 01 00 00 00 4b 01 00 00 00 01 00
      0050  00 00 53 01 00 00 00 01 00 00 00 6e 01 10 00 00
      0060  00 03 02 23 07 49 4e 44 58 01 00 00 00 06 00 00
      0070  00 73 70 69 72 36 34 01 00 00 00 10 00 00 00 00
      0080  00 00 00 53 4b 46 41 54 45 4e 44 65 00 00 00 00
      0090  00 00 00 1e 00 00 00 00 00 00 00 32 1d be eb e5
      00a0  fe cc 69`;
    const v1 = new Uint8Array(Buffer.from(dump.replace(/^\s*[0-9a-f]{4} {2}/gm, '').replace(/\s+/g, ''), 'hex'));
    const reader = ContainerReader.fromBytes(v1);
    expect(reader.version).toBe(1);
    expect(reader.bundleRanges).toEqual([{ target: 'spir64', first: 0, count: 1 }]);
    const [image] = reader.lookup('entry', 'K');
    expect(image).toMatchObject({ name: 'a', target: 'spir64', index: 0, format: ImageFormat.SPIRV });
    expect([...reader.readImageData(image!)]).toEqual([3, 2, 0x23, 7]);
    expect(reader.lookup('entry', 'L')).toEqual([]);
    // written again, it is a version 2 container with the same content
    const again = writeContainer(readContainer(v1));
    expect(ContainerReader.fromBytes(again).version).toBe(2);
    expect(readContainer(again)).toEqual(readContainer(v1));
  });

  it('finds a lookup table that disagrees with the records when reading the whole container', () => {
    const bytes = writeContainer(sample());
    const { records, index } = indexOf(bytes);
    // the one key (_ZTS1K: images 0 and 2) now names images 0 and 1
    index.writeUInt32LE(1, index.length - 4);
    const lying = withIndex(records, index);
    const reader = ContainerReader.fromBytes(lying, { fileName: 'app.fatbin' });
    expect(reader.lookupPositions('entry', '_ZTS1K')).toEqual([0, 1]);
    expect(read(lying).reason).toMatch(/index: the lookup table's entry key '_ZTS1K' lists images 0, 1, but the records give it to images 0, 2$/);
  });
});

describe('shared image bytes (version 3)', () => {
  const code = Uint8Array.from({ length: 40 }, (_, i) => (i * 7) & 0xff);
  const other = Uint8Array.from({ length: 40 }, (_, i) => (i * 11) & 0xff);
  /** spir64 and intel_gpu_pvc get the same code for kernel K (as IR or SPIR-V without an ocloc step). */
  function twoTargets(pvcCode: Uint8Array = code): BinaryDescriptor {
    return {
      bundles: [
        { target: 'spir64', images: [deviceImage({ name: 'a_0', target: 'spir64', image: code, entries: ['_ZTS1K'] })] },
        { target: 'intel_gpu_pvc', images: [deviceImage({ name: 'a_0', target: 'intel_gpu_pvc', image: pvcCode, entries: ['_ZTS1K'] })] },
      ],
    };
  }

  it('writes bytes equal to those of a record written just before once: an IMGS record refers to them, and the container is version 3', () => {
    const bytes = writeContainer(twoTargets());
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint16(8, true)).toBe(3);
    expect(view.getUint32(12, true)).toBe(crc32(bytes.subarray(0, 12)) >>> 0);
    const reader = ContainerReader.fromBytes(bytes);
    expect(reader.version).toBe(3);
    const [first, second] = reader.images;
    expect(Buffer.from(bytes.subarray(second!.recordOffset, second!.recordOffset + 4)).toString('latin1')).toBe('IMGS');
    const metadataLength = view.getUint32(second!.recordOffset + 4, true);
    // header: the plain header's fields, the u64 offset of the bytes, a CRC-32 of header bytes 0-31
    expect(Number(view.getBigUint64(second!.recordOffset + 8, true))).toBe(code.length);
    expect(Number(view.getBigUint64(second!.recordOffset + 24, true))).toBe(first!.dataOffset);
    expect(view.getUint32(second!.recordOffset + 32, true)).toBe(crc32(bytes.subarray(second!.recordOffset, second!.recordOffset + 32)) >>> 0);
    expect(second).toMatchObject({ dataOffset: first!.dataOffset, dataLength: code.length, dataCrc: first!.dataCrc, recordLength: CONTAINER_LAYOUT.sharedRecordHeaderSize + metadataLength });
    expect(first!.recordLength).toBe(second!.recordOffset - first!.recordOffset);
    // 8 more header bytes instead of the 40 code bytes
    const unshared = writeContainer(twoTargets(other));
    expect(bytes.length).toBe(unshared.length - code.length + 8);
    expect([...reader.readImageData(second!)]).toEqual([...code]);
    expect(descriptorOf(readContainer(bytes))).toEqual(descriptorOf(twoTargets()));
  });

  it('shares equal bytes held in different arrays, and not bytes the caller changed after handing them over', () => {
    expect(Buffer.from(writeContainer(twoTargets(code.slice()))).equals(Buffer.from(writeContainer(twoTargets())))).toBe(true);
    const reused = code.slice();
    const writer = ContainerWriter.toMemory();
    writer.addImage(deviceImage({ name: 'a_0', target: 'spir64', image: reused }));
    reused[3]! ^= 0xff; // the caller fills the same buffer with the next image's code
    writer.addImage(deviceImage({ name: 'a_0', target: 'intel_gpu_pvc', image: reused }));
    writer.finish();
    const reader = ContainerReader.fromBytes(writer.bytes());
    expect(reader.version).toBe(2);
    expect([...reader.readImageData(reader.images[0]!)]).toEqual([...code]);
    expect([...reader.readImageData(reader.images[1]!)]).toEqual([...reused]);
  });

  it('writes with addImages exactly what addImage writes for each image', () => {
    const images = [...twoTargets().bundles.flatMap((b) => b.images), deviceImage({ name: 'a_0', target: 'nvidia_gpu_sm_80', image: code }), ...sample().bundles.flatMap((b) => b.images)];
    const one = ContainerWriter.toMemory();
    for (const image of images) one.addImage(image);
    one.finish();
    const batch = ContainerWriter.toMemory();
    batch.addImages(images.slice(0, 3));
    batch.addImages(images.slice(3));
    batch.addImages([]);
    batch.finish();
    expect(Buffer.from(batch.bytes()).equals(Buffer.from(one.bytes()))).toBe(true);
    const reader = ContainerReader.fromBytes(batch.bytes());
    const withCode = reader.images.filter((image) => image.dataLength === code.length);
    expect(withCode.map((image) => [image.target, image.dataOffset])).toEqual(['spir64', 'intel_gpu_pvc', 'nvidia_gpu_sm_80'].map((target) => [target, withCode[0]!.dataOffset]));
  });

  it('keeps version 2 and plain records when no bytes repeat, and writes short bytes again (sharing would cost more)', () => {
    expect(ContainerReader.fromBytes(writeContainer(twoTargets(other))).version).toBe(2);
    const short = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
    const descriptor: BinaryDescriptor = {
      bundles: [
        { target: 'spir64', images: [deviceImage({ target: 'spir64', image: short })] },
        { target: 'intel_gpu_pvc', images: [deviceImage({ target: 'intel_gpu_pvc', image: short })] },
      ],
    };
    const reader = ContainerReader.fromBytes(writeContainer(descriptor));
    expect(reader.version).toBe(2);
    expect(reader.images.map((image) => image.dataOffset > image.recordOffset)).toEqual([true, true]);
  });

  it('marks a file as version 3 also when its header was written out before the first shared record', () => {
    const path = join(dir, 'shared-big.fatbin');
    const big = Uint8Array.from({ length: 1_500_000 }, (_, i) => (i * 31) & 0xff);
    const writer = ContainerWriter.toFile(path);
    writer.addImage(deviceImage({ name: 'a_0', target: 'spir64', image: big }));
    writer.addImage(deviceImage({ name: 'a_0', target: 'intel_gpu_pvc', image: big.slice() }));
    const summary = writer.finish();
    const bytes = readFileSync(path);
    expect(summary.size).toBe(bytes.length);
    expect(bytes.length).toBeLessThan(big.length + 1000);
    const reader = ContainerReader.open(path);
    try {
      expect(reader.version).toBe(3);
      expect(reader.images.map((image) => [image.target, image.dataLength])).toEqual([
        ['spir64', big.length],
        ['intel_gpu_pvc', big.length],
      ]);
      expect(Buffer.from(reader.readImageData(reader.images[1]!)).equals(Buffer.from(big))).toBe(true);
    } finally {
      reader.close();
    }
  });

  /** The container of `twoTargets()` with the shared record's header changed by `edit` (CRC-32 kept valid). */
  function withSharedHeader(edit: (view: DataView, at: number) => void, version = 3): Uint8Array {
    const bytes = writeContainer(twoTargets()).slice();
    const second = ContainerReader.fromBytes(bytes).images[1]!;
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    edit(view, second.recordOffset);
    view.setUint32(second.recordOffset + 32, crc32(bytes.subarray(second.recordOffset, second.recordOffset + 32)) >>> 0, true);
    view.setUint16(8, version, true);
    view.setUint32(12, crc32(bytes.subarray(0, 12)) >>> 0, true);
    return bytes;
  }

  it('refuses shared bytes that are not the bytes of an earlier record', () => {
    const first = ContainerReader.fromBytes(writeContainer(twoTargets())).images[0]!;
    // inside the first record's bytes, but not all of them: only a full read can tell
    const inside = withSharedHeader((view, at) => view.setBigUint64(at + 24, BigInt(first.dataOffset - 4), true));
    expect(read(inside).reason).toMatch(/shares bytes \d+–\d+, which are not the image bytes of an earlier record$/);
    // a lazy reader of that one image finds the wrong bytes by their CRC
    const lazy = ContainerReader.fromBytes(inside);
    expect(errorOf(() => lazy.readImageData(lazy.lookup('entry', '_ZTS1K')[1]!)).reason).toMatch(/corrupted data of image 1/);
    // at or after the record itself
    const later = withSharedHeader((view, at) => view.setBigUint64(at + 24, BigInt(at), true));
    expect(read(later).reason).toMatch(/shares 40 image bytes at offset \d+, but shared bytes must be the non-empty bytes of an earlier record/);
    const none = withSharedHeader((view, at) => view.setBigUint64(at + 8, 0n, true));
    expect(read(none).reason).toMatch(/shares 0 image bytes/);
  });

  it('reads IMGS records only in version 3 containers', () => {
    const asVersion2 = withSharedHeader(() => {}, 2);
    expect(read(asVersion2).reason).toMatch(/expected the image record tag 49 4d 41 47 \("IMAG"\), found 49 4d 47 53$/);
  });

  it('says where a version 3 file was cut, walking shared records too', () => {
    const bytes = writeContainer(twoTargets());
    const reader = ContainerReader.fromBytes(bytes);
    const second = reader.images[1]!;
    const end = second.recordOffset + second.recordLength;
    expect(read(bytes.subarray(0, end)).reason).toMatch(new RegExp(`the file ends at offset ${end} after 2 complete image records; the index and trailer are missing$`));
    expect(read(bytes.subarray(0, second.recordOffset + 30)).reason).toMatch(/inside the 36-byte header of image record 1/);
  });
});

/** A descriptor as plain data, for toEqual. */
function descriptorOf(descriptor: BinaryDescriptor): unknown {
  return descriptor.bundles.map((bundle) => ({
    target: bundle.target,
    images: bundle.images.map((image) => ({ ...image, image: [...image.image], properties: writePropertySetRegistry(image.properties) })),
  }));
}

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

describe('container layout', () => {
  it('starts with the 16-byte header: magic, version 1, flags 0, CRC-32 of bytes 0-11', () => {
    const bytes = writeContainer({ bundles: [] });
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x53, 0x4b, 0x46, 0x41, 0x54, 0x0d, 0x0a]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint16(8, true)).toBe(1);
    expect(view.getUint16(10, true)).toBe(0);
    expect(view.getUint32(12, true)).toBe(crc32(bytes.subarray(0, 12)) >>> 0);
  });

  it('writes an empty container as header, an 8-byte index and the 32-byte trailer', () => {
    const bytes = writeContainer({ bundles: [] });
    expect(bytes.length).toBe(16 + 8 + 32);
    expect(Buffer.from(bytes.subarray(16, 20)).toString('latin1')).toBe('INDX');
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(20, true)).toBe(0);
    expect(Buffer.from(bytes.subarray(24, 32)).toString('latin1')).toBe('SKFATEND');
    expect(Number(view.getBigUint64(32, true))).toBe(16);
    expect(Number(view.getBigUint64(40, true))).toBe(8);
    expect(view.getUint32(48, true)).toBe(crc32(bytes.subarray(16, 24)) >>> 0);
    expect(view.getUint32(52, true)).toBe(crc32(bytes.subarray(24, 52)) >>> 0);
    expect(readContainer(bytes)).toEqual({ bundles: [] });
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

  it('writes records as images arrive and shows the file only when finished', () => {
    const path = join(dir, 'streamed.fatbin');
    const writer = ContainerWriter.toFile(path);
    writer.addImage(deviceImage({ target: 'spir64', image: new Uint8Array(1000) }));
    const temp = readdirSync(dir).find((name) => name.startsWith('.streamed.fatbin.'));
    expect(temp).toBeDefined();
    expect(readFileSync(join(dir, temp!)).length).toBeGreaterThanOrEqual(16 + 28 + 1000);
    expect(existsSync(path)).toBe(false);
    const summary = writer.finish();
    expect(summary).toEqual({ size: readFileSync(path).length, bundles: 1, images: 1 });
    expect(readdirSync(dir).some((name) => name.startsWith('.streamed.fatbin.'))).toBe(false);
    expect(readContainerFile(path).bundles[0]!.images[0]!.image.length).toBe(1000);
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
    new DataView(bytes.buffer).setUint16(8, 2, true);
    new DataView(bytes.buffer).setUint32(12, crc32(bytes.subarray(0, 12)) >>> 0, true);
    const error = read(bytes);
    expect(error.offset).toBe(8);
    expect(error.reason).toBe('offset 8 (0x8): unsupported container version 2: this reader reads version 1');
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
    const index = Buffer.alloc(4 + 4 + 4 + 6 + 4 + 8);
    index.write('INDX', 0, 'latin1');
    index.writeUInt32LE(1, 4);
    index.writeUInt32LE(6, 8);
    index.write('spir64', 12, 'latin1');
    index.writeUInt32LE(1, 18);
    index.writeBigUInt64LE(BigInt(second.recordOffset), 22);
    const trailer = Buffer.alloc(32);
    trailer.write('SKFATEND', 0, 'latin1');
    trailer.writeBigUInt64LE(BigInt(recordsEnd), 8);
    trailer.writeBigUInt64LE(BigInt(index.length), 16);
    trailer.writeUInt32LE(crc32(index) >>> 0, 24);
    trailer.writeUInt32LE(crc32(trailer.subarray(0, 28)) >>> 0, 28);
    const bytes = Buffer.concat([good.subarray(0, recordsEnd), index, trailer]);
    const error = read(bytes);
    expect(error.offset).toBe(16);
    expect(error.reason).toContain(`bytes 16–${second.recordOffset} belong to no image record listed in the index`);
  });
});

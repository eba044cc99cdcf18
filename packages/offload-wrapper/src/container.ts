import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { AtomicFile, PropertySetRegistry, PropertyType, type PropertyValue } from '@syclkit/formats';
import { ByteBuilder, ByteCursor } from './binary-io.js';
import { checkDeviceImage, type BinaryDescriptor, type Bundle, type DeviceImage } from './descriptor.js';
import { ContainerError, WrapperError } from './errors.js';

/*
 * The fat-binary container (README "Container format" documents it byte by byte):
 *
 *   header (16) | image record* | index | trailer (32)
 *
 * Records are written as images are produced; the index (bundles, their targets and the offsets of
 * their records) and the trailer are written last. Every byte is covered by a CRC-32.
 */

/** `\x89SKFAT\r\n`: the high byte catches 7-bit transfers, CR LF catches newline conversion. */
export const CONTAINER_MAGIC: Uint8Array = Uint8Array.of(0x89, 0x53, 0x4b, 0x46, 0x41, 0x54, 0x0d, 0x0a);
/** The container format version this package writes and reads. */
export const CONTAINER_VERSION = 1;

const HEADER_SIZE = 16;
const RECORD_HEADER_SIZE = 28;
const TRAILER_SIZE = 32;
const RECORD_TAG = Uint8Array.of(0x49, 0x4d, 0x41, 0x47); // IMAG
const INDEX_TAG = Uint8Array.of(0x49, 0x4e, 0x44, 0x58); // INDX
const TRAILER_MAGIC = Uint8Array.of(0x53, 0x4b, 0x46, 0x41, 0x54, 0x45, 0x4e, 0x44); // SKFATEND

const FLAG_EMPTY = 1;
const FLAG_MANIFEST = 2;
const KNOWN_FLAGS = FLAG_EMPTY | FLAG_MANIFEST;
const MAX_IMAGES = 0xffff; // NumDeviceImages is a u16 in the runtime descriptor

/** Byte layout constants, for tools and tests. */
export const CONTAINER_LAYOUT = {
  headerSize: HEADER_SIZE,
  recordHeaderSize: RECORD_HEADER_SIZE,
  trailerSize: TRAILER_SIZE,
} as const;

function crc(bytes: Uint8Array): number {
  return crc32(bytes) >>> 0;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

function hex32(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

// --- writing ---------------------------------------------------------------------------------------

interface ByteSink {
  readonly position: number;
  write(bytes: Uint8Array): void;
}

class MemorySink implements ByteSink {
  readonly chunks: Uint8Array[] = [];
  position = 0;
  write(bytes: Uint8Array): void {
    this.chunks.push(bytes.slice());
    this.position += bytes.length;
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.position);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/** What `ContainerWriter.finish` reports. */
export interface ContainerSummary {
  readonly size: number;
  readonly bundles: number;
  readonly images: number;
}

function encodeImageMetadata(image: DeviceImage): Uint8Array {
  const out = new ByteBuilder();
  out.u16(image.version).u8(image.kind).u8(image.format);
  out.u32((image.empty ? FLAG_EMPTY : 0) | (image.manifest !== null ? FLAG_MANIFEST : 0));
  out.string(image.name).string(image.compileOptions).string(image.linkOptions);
  if (image.manifest !== null) out.blob(image.manifest);
  out.u32(image.entries.length);
  for (const entry of image.entries) out.string(entry);
  out.u32(image.properties.size);
  for (const [setName, set] of image.properties) {
    out.string(setName).u32(set.size);
    for (const [name, value] of set) {
      out.string(name).u8(value.type);
      if (value.type === PropertyType.UINT32) out.u32(value.value);
      else out.u64(value.bitCount).bytes(value.payload);
    }
  }
  return out.finish();
}

/**
 * Writes a container as images are produced: each `addImage` writes that image's record at once,
 * so memory holds only offsets, never earlier images. Bundles are keyed by target and listed in
 * the order they were first used (or added with `addBundle`). `finish` writes the index and
 * trailer; a file writer then renames its temporary file over the target (atomic: a reader never
 * sees a partial container, and a failure leaves the old file in place).
 */
export class ContainerWriter {
  readonly #sink: MemorySink | AtomicFile;
  readonly #bundles: { target: string; offsets: number[] }[] = [];
  readonly #byTarget = new Map<string, { target: string; offsets: number[] }>();
  #images = 0;
  #state: 'open' | 'finished' | 'aborted' = 'open';
  #bytes: Uint8Array | undefined;

  private constructor(sink: MemorySink | AtomicFile) {
    this.#sink = sink;
    const header = new ByteBuilder().bytes(CONTAINER_MAGIC).u16(CONTAINER_VERSION).u16(0);
    header.u32(crc(header.finish()));
    sink.write(header.finish());
  }

  /** A writer to `path` (through a temporary file in the same directory). */
  static toFile(path: string): ContainerWriter {
    return new ContainerWriter(new AtomicFile(path));
  }

  /** A writer to memory; `bytes()` gives the container after `finish()`. */
  static toMemory(): ContainerWriter {
    return new ContainerWriter(new MemorySink());
  }

  #open(): void {
    if (this.#state !== 'open') throw new WrapperError(`the container writer is already ${this.#state}`);
  }

  #bundle(target: string): { target: string; offsets: number[] } {
    let bundle = this.#byTarget.get(target);
    if (bundle === undefined) {
      if (target.includes('\0') || /\p{Cs}/u.test(target)) throw new WrapperError(`bundle target ${JSON.stringify(target)} contains NUL or an unpaired surrogate`);
      bundle = { target, offsets: [] };
      this.#bundles.push(bundle);
      this.#byTarget.set(target, bundle);
    }
    return bundle;
  }

  /** Declares a bundle (possibly with no images) at the current end of the bundle list. */
  addBundle(target: string): void {
    this.#open();
    if (this.#byTarget.has(target)) throw new WrapperError(`bundle '${target}' already exists`);
    this.#bundle(target);
  }

  /** Writes one image to the bundle of its target. */
  addImage(image: DeviceImage): void {
    this.#open();
    checkDeviceImage(image);
    if (this.#images >= MAX_IMAGES) throw new WrapperError(`too many images: the runtime descriptor holds at most ${MAX_IMAGES}`);
    const bundle = this.#bundle(image.target);
    const metadata = encodeImageMetadata(image);
    const header = new ByteBuilder()
      .bytes(RECORD_TAG)
      .u32(metadata.length)
      .u64(image.image.length)
      .u32(crc(metadata))
      .u32(crc(image.image));
    header.u32(crc(header.finish()));
    const offset = this.#sink.position;
    try {
      this.#sink.write(header.finish());
      this.#sink.write(metadata);
      this.#sink.write(image.image);
    } catch (error) {
      this.abort();
      throw error;
    }
    bundle.offsets.push(offset);
    this.#images++;
  }

  /** Writes the index and trailer and, for a file, puts it in place. */
  finish(): ContainerSummary {
    this.#open();
    try {
      const index = new ByteBuilder().bytes(INDEX_TAG).u32(this.#bundles.length);
      for (const bundle of this.#bundles) {
        index.string(bundle.target).u32(bundle.offsets.length);
        for (const offset of bundle.offsets) index.u64(offset);
      }
      const indexBytes = index.finish();
      const indexOffset = this.#sink.position;
      const trailer = new ByteBuilder().bytes(TRAILER_MAGIC).u64(indexOffset).u64(indexBytes.length).u32(crc(indexBytes));
      trailer.u32(crc(trailer.finish()));
      this.#sink.write(indexBytes);
      this.#sink.write(trailer.finish());
      if (this.#sink instanceof AtomicFile) this.#sink.commit();
      else this.#bytes = this.#sink.concat();
    } catch (error) {
      this.abort();
      throw error;
    }
    this.#state = 'finished';
    return { size: this.#sink.position, bundles: this.#bundles.length, images: this.#images };
  }

  /** Drops what was written (a file writer removes its temporary file). */
  abort(): void {
    if (this.#state !== 'open') return;
    this.#state = 'aborted';
    if (this.#sink instanceof AtomicFile) this.#sink.discard();
  }

  /** The container bytes of a memory writer, after `finish`. */
  bytes(): Uint8Array {
    if (this.#bytes === undefined) throw new WrapperError('bytes() needs a finished memory writer');
    return this.#bytes;
  }
}

/** The container for a descriptor, in memory. */
export function writeContainer(descriptor: BinaryDescriptor): Uint8Array {
  const writer = ContainerWriter.toMemory();
  writeBundles(writer, descriptor.bundles);
  writer.finish();
  return writer.bytes();
}

/** Writes a descriptor's container to `path` atomically. */
export function writeContainerFile(path: string, descriptor: BinaryDescriptor): ContainerSummary {
  const writer = ContainerWriter.toFile(path);
  try {
    writeBundles(writer, descriptor.bundles);
    return writer.finish();
  } catch (error) {
    writer.abort();
    throw error;
  }
}

function writeBundles(writer: ContainerWriter, bundles: readonly Bundle[]): void {
  for (const bundle of bundles) {
    writer.addBundle(bundle.target);
    for (const image of bundle.images) {
      if (image.target !== bundle.target) {
        throw new WrapperError(`image '${image.name}' has target '${image.target}' but is in bundle '${bundle.target}'`);
      }
      writer.addImage(image);
    }
  }
}

// --- reading ---------------------------------------------------------------------------------------

interface ByteSource {
  readonly size: number;
  /** Exactly `length` bytes at `offset` (the caller checked the bounds). */
  read(offset: number, length: number): Uint8Array;
  close(): void;
}

class MemorySource implements ByteSource {
  constructor(readonly bytes: Uint8Array) {}
  get size(): number {
    return this.bytes.length;
  }
  read(offset: number, length: number): Uint8Array {
    return this.bytes.subarray(offset, offset + length);
  }
  close(): void {}
}

class FileSource implements ByteSource {
  readonly size: number;
  #fd: number | undefined;
  constructor(path: string) {
    const fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      closeSync(fd);
      throw new WrapperError('not a regular file', path);
    }
    this.#fd = fd;
    this.size = stat.size;
  }
  read(offset: number, length: number): Uint8Array {
    if (this.#fd === undefined) throw new WrapperError('the container reader is closed');
    const out = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const got = readSync(this.#fd, out, done, length - done, offset + done);
      if (got === 0) throw new WrapperError(`the file shrank while being read (at offset ${offset + done})`);
      done += got;
    }
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** An image as listed by the reader: everything but the bytes, which `readImageData` loads. */
export interface ContainerImage extends Omit<DeviceImage, 'image'> {
  /** Position in the registration order (all bundles). */
  readonly index: number;
  /** File offset of the image's record. */
  readonly recordOffset: number;
  /** File offset and length of the image bytes. */
  readonly dataOffset: number;
  readonly dataLength: number;
  /** CRC-32 of the image bytes, as stored. */
  readonly dataCrc: number;
}

export interface ContainerBundle {
  readonly target: string;
  readonly images: readonly ContainerImage[];
}

/** `readContainer`/`ContainerReader.fromBytes` options. */
export interface ReadContainerOptions {
  /** Name used in error messages (default `<memory>`). */
  readonly fileName?: string;
}

/**
 * Reads a container without loading image bytes: opening checks the header, trailer, index and
 * every record's header and metadata (magic, version, bounds, CRC-32s, that the records tile the
 * file), so bundles and images can be listed; `readImageData` loads one image and checks its CRC.
 * Problems are ContainerErrors naming the file offset and what was expected there.
 */
export class ContainerReader {
  readonly fileName: string;
  readonly version: number;
  readonly size: number;
  readonly bundles: readonly ContainerBundle[];
  readonly #source: ByteSource;

  private constructor(source: ByteSource, fileName: string) {
    this.#source = source;
    this.fileName = fileName;
    this.size = source.size;
    try {
      this.version = this.#readHeader();
      const { indexOffset, indexLength, indexCrc } = this.#readTrailer();
      this.bundles = this.#readIndex(indexOffset, indexLength, indexCrc);
    } catch (error) {
      source.close();
      throw error;
    }
  }

  /** Opens a container file (read with positioned reads; image bytes stay on disk). */
  static open(path: string): ContainerReader {
    return new ContainerReader(new FileSource(path), path);
  }

  /** Reads a container held in memory. */
  static fromBytes(bytes: Uint8Array, options: ReadContainerOptions = {}): ContainerReader {
    return new ContainerReader(new MemorySource(bytes), options.fileName ?? '<memory>');
  }

  /** All images in registration order. */
  get images(): ContainerImage[] {
    return this.bundles.flatMap((bundle) => bundle.images);
  }

  #error(reason: string, offset: number): ContainerError {
    return new ContainerError(reason, this.fileName, offset);
  }

  #readHeader(): number {
    const size = this.size;
    const available = this.#source.read(0, Math.min(size, HEADER_SIZE));
    for (let i = 0; i < CONTAINER_MAGIC.length; i++) {
      if (i >= available.length) {
        throw this.#error(
          `truncated: the file is ${size} byte${size === 1 ? '' : 's'} long, shorter than the ${HEADER_SIZE}-byte container header`,
          size,
        );
      }
      if (available[i] !== CONTAINER_MAGIC[i]) {
        throw this.#error(
          `not a syclkit fat-binary container: expected the magic bytes ${hex(CONTAINER_MAGIC)} at offset 0, found ${hex(available.subarray(0, CONTAINER_MAGIC.length))}`,
          i,
        );
      }
    }
    if (available.length < HEADER_SIZE) {
      throw this.#error(`truncated: the file is ${size} bytes long, shorter than the ${HEADER_SIZE}-byte container header`, size);
    }
    const cursor = new ByteCursor(available, 0, this.fileName, 'header');
    cursor.bytes(CONTAINER_MAGIC.length, 'magic');
    const version = cursor.u16('the container version');
    const flags = cursor.u16('the header flags');
    const stored = cursor.u32('the header CRC-32');
    const computed = crc(available.subarray(0, 12));
    if (stored !== computed) {
      throw this.#error(`corrupted header: its CRC-32 is ${hex32(computed)}, the header says ${hex32(stored)}`, 12);
    }
    if (version !== CONTAINER_VERSION) {
      throw this.#error(`unsupported container version ${version}: this reader reads version ${CONTAINER_VERSION}`, 8);
    }
    if (flags !== 0) throw this.#error(`header flags must be 0, found ${flags}`, 10);
    return version;
  }

  #readTrailer(): { indexOffset: number; indexLength: number; indexCrc: number } {
    const size = this.size;
    const start = size - TRAILER_SIZE;
    if (size < HEADER_SIZE + TRAILER_SIZE) throw this.#diagnoseDamagedEnd(`the file is only ${size} bytes long, too short for a header and a ${TRAILER_SIZE}-byte trailer`);
    const bytes = this.#source.read(start, TRAILER_SIZE);
    if (!sameBytes(bytes.subarray(0, 8), TRAILER_MAGIC)) {
      throw this.#diagnoseDamagedEnd(`expected the trailer magic ${hex(TRAILER_MAGIC)} ("SKFATEND") at offset ${start}, found ${hex(bytes.subarray(0, 8))}`);
    }
    const cursor = new ByteCursor(bytes, start, this.fileName, 'trailer');
    cursor.bytes(8, 'magic');
    const stored = new DataView(bytes.buffer, bytes.byteOffset + 28, 4).getUint32(0, true);
    const computed = crc(bytes.subarray(0, 28));
    if (stored !== computed) {
      throw this.#error(`corrupted trailer: its CRC-32 is ${hex32(computed)}, the trailer says ${hex32(stored)}`, start + 28);
    }
    const indexOffset = cursor.u64('the index offset');
    const indexLength = cursor.u64('the index length');
    const indexCrc = cursor.u32('the index CRC-32');
    if (indexOffset < HEADER_SIZE || indexOffset + indexLength !== start) {
      throw this.#error(
        `the trailer says the index is at offsets ${indexOffset}–${indexOffset + indexLength}, but it must lie between the header (offset ${HEADER_SIZE}) and the trailer (offset ${start})`,
        start + 8,
      );
    }
    return { indexOffset, indexLength, indexCrc };
  }

  /**
   * The trailer is missing or damaged: walk the records from the start to say precisely where the
   * file was cut, falling back to `fallback` when the records are intact.
   */
  #diagnoseDamagedEnd(fallback: string): ContainerError {
    const size = this.size;
    let pos = HEADER_SIZE;
    let records = 0;
    while (pos < size) {
      const tag = this.#source.read(pos, Math.min(4, size - pos));
      if (sameBytes(tag, INDEX_TAG)) {
        return this.#error(`truncated or corrupted: the index starts at offset ${pos}, but ${fallback}`, Math.max(pos, size - TRAILER_SIZE));
      }
      if (!sameBytes(tag, RECORD_TAG)) {
        if (tag.length < 4 && sameBytes(tag, RECORD_TAG.subarray(0, tag.length))) {
          return this.#error(`truncated: the file ends at offset ${size} inside the header of image record ${records}, which starts at offset ${pos}`, size);
        }
        return this.#error(`expected an image record ("IMAG") or the index ("INDX") at offset ${pos}, found ${hex(tag)}`, pos);
      }
      if (size - pos < RECORD_HEADER_SIZE) {
        return this.#error(
          `truncated: the file ends at offset ${size} inside the ${RECORD_HEADER_SIZE}-byte header of image record ${records}, which starts at offset ${pos}`,
          size,
        );
      }
      const header = this.#source.read(pos, RECORD_HEADER_SIZE);
      const view = new DataView(header.buffer, header.byteOffset, RECORD_HEADER_SIZE);
      if (view.getUint32(24, true) !== crc(header.subarray(0, 24))) {
        return this.#error(`corrupted header of image record ${records} (its CRC-32 does not match)`, pos + 24);
      }
      const end = pos + RECORD_HEADER_SIZE + view.getUint32(4, true) + Number(view.getBigUint64(8, true));
      if (end > size) {
        return this.#error(
          `truncated: image record ${records} at offset ${pos} extends to offset ${end}, but the file ends at offset ${size}`,
          size,
        );
      }
      pos = end;
      records++;
    }
    return this.#error(
      `truncated: the file ends at offset ${size} after ${records} complete image record${records === 1 ? '' : 's'}; the index and trailer are missing`,
      size,
    );
  }

  #readIndex(indexOffset: number, indexLength: number, indexCrc: number): ContainerBundle[] {
    const bytes = this.#source.read(indexOffset, indexLength);
    const computed = crc(bytes);
    if (computed !== indexCrc) {
      throw this.#error(`corrupted index: its CRC-32 is ${hex32(computed)}, the trailer says ${hex32(indexCrc)}`, indexOffset);
    }
    const cursor = new ByteCursor(bytes, indexOffset, this.fileName, 'index');
    const tagAt = cursor.offset;
    const tag = cursor.bytes(4, 'the index tag "INDX"');
    if (!sameBytes(tag, INDEX_TAG)) throw this.#error(`expected the index tag ${hex(INDEX_TAG)} ("INDX"), found ${hex(tag)}`, tagAt);
    const bundleCount = cursor.u32('the bundle count');
    const listed: { target: string; offsets: number[] }[] = [];
    const targets = new Set<string>();
    const owner = new Map<number, string>();
    for (let b = 0; b < bundleCount; b++) {
      const targetAt = cursor.offset;
      const target = cursor.string(`the target of bundle ${b}`);
      if (targets.has(target)) throw this.#error(`index: bundle ${b} repeats the target '${target}'`, targetAt);
      targets.add(target);
      const count = cursor.u32(`the image count of bundle '${target}'`);
      if (count > cursor.remaining / 8) {
        throw cursor.error(`index: bundle '${target}' lists ${count} images, more than the index can hold`);
      }
      const offsets: number[] = [];
      for (let i = 0; i < count; i++) {
        const at = cursor.offset;
        const offset = cursor.u64(`the record offset of image ${i} of bundle '${target}'`);
        if (offset < HEADER_SIZE || offset + RECORD_HEADER_SIZE > indexOffset) {
          throw this.#error(
            `index: image ${i} of bundle '${target}' is at offset ${offset}, outside the record area (offsets ${HEADER_SIZE}–${indexOffset})`,
            at,
          );
        }
        if (owner.has(offset)) throw this.#error(`index: offset ${offset} is listed twice`, at);
        owner.set(offset, target);
        offsets.push(offset);
      }
      listed.push({ target, offsets });
    }
    cursor.end();
    if (owner.size > MAX_IMAGES) throw this.#error(`index: ${owner.size} images, the runtime descriptor holds at most ${MAX_IMAGES}`, indexOffset);

    // The records must tile the area between the header and the index: no gap, no overlap.
    const records = new Map<number, Omit<ContainerImage, 'index' | 'target'>>();
    let expected = HEADER_SIZE;
    for (const offset of [...owner.keys()].sort((a, b) => a - b)) {
      if (offset !== expected) {
        throw this.#error(
          offset > expected
            ? `bytes ${expected}–${offset} belong to no image record listed in the index`
            : `image record at offset ${offset} overlaps the previous record, which ends at offset ${expected}`,
          Math.min(offset, expected),
        );
      }
      const record = this.#readRecord(offset, indexOffset, records.size);
      records.set(offset, record);
      expected = record.dataOffset + record.dataLength;
    }
    if (expected !== indexOffset) {
      throw this.#error(`bytes ${expected}–${indexOffset} belong to no image record listed in the index`, expected);
    }
    let index = 0;
    return listed.map(({ target, offsets }) => ({
      target,
      images: offsets.map((offset) => ({ ...records.get(offset)!, target, index: index++ })),
    }));
  }

  #readRecord(offset: number, limit: number, ordinal: number): Omit<ContainerImage, 'index' | 'target'> {
    const what = `image record ${ordinal} (offset ${offset})`;
    const header = this.#source.read(offset, RECORD_HEADER_SIZE);
    const cursor = new ByteCursor(header, offset, this.fileName, `header of ${what}`);
    const tag = cursor.bytes(4, 'the record tag "IMAG"');
    if (!sameBytes(tag, RECORD_TAG)) throw this.#error(`expected the image record tag ${hex(RECORD_TAG)} ("IMAG"), found ${hex(tag)}`, offset);
    const metadataLength = cursor.u32('the metadata length');
    const dataLength = cursor.u64('the data length');
    const metadataCrc = cursor.u32('the metadata CRC-32');
    const dataCrc = cursor.u32('the data CRC-32');
    const stored = cursor.u32('the record header CRC-32');
    const computed = crc(header.subarray(0, 24));
    if (stored !== computed) {
      throw this.#error(`corrupted header of ${what}: its CRC-32 is ${hex32(computed)}, the record says ${hex32(stored)}`, offset + 24);
    }
    const metadataOffset = offset + RECORD_HEADER_SIZE;
    const dataOffset = metadataOffset + metadataLength;
    if (dataOffset + dataLength > limit) {
      throw this.#error(
        `${what}: its ${metadataLength} bytes of metadata and ${dataLength} bytes of data end at offset ${dataOffset + dataLength}, past the start of the index (offset ${limit})`,
        offset + 4,
      );
    }
    const metadata = this.#source.read(metadataOffset, metadataLength);
    const metadataComputed = crc(metadata);
    if (metadataComputed !== metadataCrc) {
      throw this.#error(`corrupted metadata of ${what}: its CRC-32 is ${hex32(metadataComputed)}, the record says ${hex32(metadataCrc)}`, metadataOffset);
    }
    const fields = decodeImageMetadata(new ByteCursor(metadata, metadataOffset, this.fileName, `metadata of ${what}`));
    if (fields.empty && dataLength !== 0) {
      throw this.#error(`${what}: an empty (filtered) image must have no data, the record has ${dataLength} bytes`, offset + 8);
    }
    return { ...fields, recordOffset: offset, dataOffset, dataLength, dataCrc };
  }

  /** The bytes of one image, checked against their CRC-32. */
  readImageData(image: ContainerImage): Uint8Array {
    const data = this.#source.read(image.dataOffset, image.dataLength).slice();
    const computed = crc(data);
    if (computed !== image.dataCrc) {
      throw this.#error(
        `corrupted data of image ${image.index} ('${image.name}', bundle '${image.target}'): the CRC-32 of bytes ${image.dataOffset}–${image.dataOffset + image.dataLength} is ${hex32(computed)}, the record says ${hex32(image.dataCrc)}`,
        image.dataOffset,
      );
    }
    return data;
  }

  /** One image with its bytes. */
  readImage(image: ContainerImage): DeviceImage {
    const { index: _index, recordOffset: _r, dataOffset: _o, dataLength: _l, dataCrc: _c, ...fields } = image;
    return { ...fields, image: this.readImageData(image) };
  }

  /** The whole descriptor, every image's bytes read and checked. */
  readDescriptor(): BinaryDescriptor {
    return { bundles: this.bundles.map((bundle) => ({ target: bundle.target, images: bundle.images.map((image) => this.readImage(image)) })) };
  }

  /** Reads and checks every image's bytes without keeping them. */
  verify(): void {
    for (const image of this.images) this.readImageData(image);
  }

  close(): void {
    this.#source.close();
  }
}

function decodeImageMetadata(cursor: ByteCursor): Omit<DeviceImage, 'image' | 'target'> {
  const version = cursor.u16('the image version');
  const kind = cursor.u8('the offload kind');
  const format = cursor.u8('the image format');
  const flagsAt = cursor.offset;
  const flags = cursor.u32('the image flags');
  if ((flags & ~KNOWN_FLAGS) !== 0) throw cursor.error(`${cursor.region}: unknown image flags ${hex32(flags & ~KNOWN_FLAGS)}`, flagsAt);
  const name = cursor.string('the image name');
  const compileOptions = cursor.string('the compile options');
  const linkOptions = cursor.string('the link options');
  const manifest = (flags & FLAG_MANIFEST) !== 0 ? cursor.blob('the manifest') : null;
  const entryCount = cursor.u32('the entry count');
  if (entryCount > cursor.remaining / 4) throw cursor.error(`${cursor.region}: ${entryCount} entries cannot fit in the ${cursor.remaining} remaining bytes`);
  const entries: string[] = [];
  for (let i = 0; i < entryCount; i++) entries.push(cursor.string(`entry ${i}`));
  const properties = new PropertySetRegistry();
  const setCount = cursor.u32('the property set count');
  if (setCount > cursor.remaining / 8) throw cursor.error(`${cursor.region}: ${setCount} property sets cannot fit in the ${cursor.remaining} remaining bytes`);
  for (let s = 0; s < setCount; s++) {
    const setAt = cursor.offset;
    const setName = cursor.string(`the name of property set ${s}`);
    if (properties.hasSet(setName)) throw cursor.error(`${cursor.region}: property set [${setName}] appears twice`, setAt);
    if (setName.includes('\n')) throw cursor.error(`${cursor.region}: invalid property set name ${JSON.stringify(setName)}`, setAt);
    const count = cursor.u32(`the property count of [${setName}]`);
    if (count > cursor.remaining / 9) throw cursor.error(`${cursor.region}: ${count} properties of [${setName}] cannot fit in the ${cursor.remaining} remaining bytes`);
    const entriesOfSet: [string, PropertyValue][] = [];
    const seen = new Set<string>();
    for (let p = 0; p < count; p++) {
      const nameAt = cursor.offset;
      const name = cursor.string(`the name of property ${p} of [${setName}]`);
      if (seen.has(name)) throw cursor.error(`${cursor.region}: property '${name}' appears twice in [${setName}]`, nameAt);
      if (name === '' || name.includes('=') || name.includes('\n') || name.startsWith('[')) {
        throw cursor.error(`${cursor.region}: invalid property name ${JSON.stringify(name)} in [${setName}]`, nameAt);
      }
      seen.add(name);
      const typeAt = cursor.offset;
      const type = cursor.u8(`the type of property '${name}'`);
      if (type === PropertyType.UINT32) {
        entriesOfSet.push([name, { type: PropertyType.UINT32, value: cursor.u32(`the value of property '${name}'`) }]);
      } else if (type === PropertyType.BYTE_ARRAY) {
        const bitCount = cursor.u64(`the bit count of property '${name}'`);
        const payload = cursor.bytes(Math.ceil(bitCount / 8), `the ${Math.ceil(bitCount / 8)} payload bytes of property '${name}'`).slice();
        entriesOfSet.push([name, { type: PropertyType.BYTE_ARRAY, bitCount, payload }]);
      } else {
        throw cursor.error(`${cursor.region}: property '${name}' has type ${type}; expected 1 (UINT32) or 2 (BYTE_ARRAY)`, typeAt);
      }
    }
    properties.addSet(setName, entriesOfSet);
  }
  cursor.end();
  return { name, version, kind, format, compileOptions, linkOptions, manifest, entries, properties, empty: (flags & FLAG_EMPTY) !== 0 };
}

/** Reads and checks a whole container held in memory. */
export function readContainer(bytes: Uint8Array, options: ReadContainerOptions = {}): BinaryDescriptor {
  const reader = ContainerReader.fromBytes(bytes, options);
  try {
    return reader.readDescriptor();
  } finally {
    reader.close();
  }
}

/** Reads and checks a whole container file. */
export function readContainerFile(path: string): BinaryDescriptor {
  const reader = ContainerReader.open(path);
  try {
    return reader.readDescriptor();
  } finally {
    reader.close();
  }
}

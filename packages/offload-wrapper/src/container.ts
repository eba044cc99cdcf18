import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { AtomicFile, PropertySetName, PropertySetRegistry, PropertyType, type PropertyValue } from '@syclkit/formats';
import { ByteBuilder, ByteCursor } from './binary-io.js';
import { checkDeviceImageWith, type BinaryDescriptor, type Bundle, type DeviceImage, type ValidTexts } from './descriptor.js';
import { ContainerError, WrapperError } from './errors.js';
import { ADD_ON_IMAGE_SET } from './inspect.js';

/*
 * The fat-binary container (README "Container format" documents it byte by byte):
 *
 *   header (16) | image record* | index | trailer (32)
 *
 * Records are written as images are produced; the index (bundles, their targets, the offsets of
 * their records and a hash table from kernel names, exported functions and add-on image ids to
 * images) and the trailer are written last. Every byte is covered by a CRC-32. A reader of one
 * kernel reads the header, the trailer, the index and the records of the images it finds there.
 *
 * The same image bytes often go to several bundles (an IR or SPIR-V image for spir64 and for an
 * Intel GPU without an ocloc step): a record whose bytes equal those of a record written just
 * before refers to them instead of repeating them (a shared record, version 3). A container with
 * no shared record stays version 2, so readers of version 2 read it.
 */

/** `\x89SKFAT\r\n`: the high byte catches 7-bit transfers, CR LF catches newline conversion. */
export const CONTAINER_MAGIC: Uint8Array = Uint8Array.of(0x89, 0x53, 0x4b, 0x46, 0x41, 0x54, 0x0d, 0x0a);
/**
 * The newest container format version this package writes (when some image's bytes are shared with
 * an earlier image; otherwise it writes version 2). It reads versions 1 to 3.
 */
export const CONTAINER_VERSION = 3;
/** Version 1: the same records, an index without the lookup table (read by listing every record). */
const CONTAINER_VERSION_1 = 1;
/** Version 2: the index has a lookup table; every record holds its own image bytes. */
const CONTAINER_VERSION_2 = 2;

const HEADER_SIZE = 16;
const RECORD_HEADER_SIZE = 28;
const TRAILER_SIZE = 32;
/** Bytes a reader takes at a record's start: its header and, in most containers, all its metadata. */
const RECORD_READ_AHEAD = 4096;
const RECORD_TAG = Uint8Array.of(0x49, 0x4d, 0x41, 0x47); // IMAG
/** A record whose image bytes are those of an earlier record (version 3). */
const SHARED_RECORD_TAG = Uint8Array.of(0x49, 0x4d, 0x47, 0x53); // IMGS
/** A shared record's header: a plain record's, then the u64 offset of the bytes, then its CRC. */
const SHARED_RECORD_HEADER_SIZE = 36;
/** Shorter bytes are written again: sharing them would cost more header than it saves. */
const MIN_SHARED_LENGTH = SHARED_RECORD_HEADER_SIZE - RECORD_HEADER_SIZE + 1;
/** Written bytes a writer remembers to share (the latest ones; the rows of one image come together). */
const SHARE_WINDOW_ENTRIES = 16;
const SHARE_WINDOW_BYTES = 64 << 20;
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
  sharedRecordHeaderSize: SHARED_RECORD_HEADER_SIZE,
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
  /** Overwrites the first bytes written (the container header). */
  patchStart(bytes: Uint8Array): void;
}

class MemorySink implements ByteSink {
  readonly chunks: Uint8Array[] = [];
  position = 0;
  write(bytes: Uint8Array): void {
    this.chunks.push(bytes.slice());
    this.position += bytes.length;
  }
  patchStart(bytes: Uint8Array): void {
    this.chunks[0]!.set(bytes);
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

/**
 * A container file being written: records are small and many (three writes each), so they are
 * gathered into large writes; what is buffered counts in `position`.
 */
class BufferedFile implements ByteSink {
  readonly #file: AtomicFile;
  readonly #buffer = Buffer.allocUnsafe(1 << 20);
  #used = 0;

  constructor(path: string) {
    this.#file = new AtomicFile(path);
  }

  get position(): number {
    return this.#file.position + this.#used;
  }

  write(bytes: Uint8Array): void {
    if (this.#used + bytes.length > this.#buffer.length || bytes.length >= this.#buffer.length >> 2) this.flush();
    if (bytes.length >= this.#buffer.length >> 2) {
      this.#file.write(bytes);
      return;
    }
    this.#buffer.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  flush(): void {
    if (this.#used === 0) return;
    this.#file.write(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }

  patchStart(bytes: Uint8Array): void {
    if (this.#file.position === 0) this.#buffer.set(bytes);
    else this.#file.writeAt(0, bytes);
  }

  commit(): void {
    this.flush();
    this.#file.commit();
  }

  discard(): void {
    this.#used = 0;
    this.#file.discard();
  }
}

/** One image record, encoded and checked, ready for `ContainerWriter.addEncodedImage` (plain data: it can cross threads). */
export interface EncodedImageRecord {
  readonly target: string;
  readonly header: Uint8Array;
  readonly metadata: Uint8Array;
  readonly image: Uint8Array;
  /** What the lookup table finds the image by. */
  readonly keys: readonly (readonly [ContainerKeyKind, string])[];
}

/** Checks and encodes one image's record (header, metadata, bytes) and lookup keys. */
export function encodeImageRecord(image: DeviceImage): EncodedImageRecord {
  return encodeRecord(image, undefined);
}

/** `encodeImageRecord`, with the CRC-32 of the bytes when the caller knows it. */
function encodeRecord(image: DeviceImage, dataCrc: number | undefined): EncodedImageRecord {
  checkDeviceImageWith(image, undefined);
  const metadata = encodeImageMetadata(image).slice();
  const header = new Uint8Array(RECORD_HEADER_SIZE);
  fillRecordHeader(header, new DataView(header.buffer), metadata, image.image.length, dataCrc ?? crc(image.image));
  return { target: image.target, header, metadata, image: image.image, keys: lookupKeysOf(image) };
}

/** Writes a plain record's header (tag, lengths, CRCs) into the first 28 bytes of `out`. */
function fillRecordHeader(out: Uint8Array, view: DataView, metadata: Uint8Array, dataLength: number, dataCrc: number): void {
  out.set(RECORD_TAG);
  view.setUint32(4, metadata.length, true);
  view.setUint32(8, dataLength >>> 0, true);
  view.setUint32(12, Math.floor(dataLength / 0x1_0000_0000), true);
  view.setUint32(16, crc(metadata), true);
  view.setUint32(20, dataCrc, true);
  view.setUint32(24, crc(out.subarray(0, 24)), true);
}

/**
 * The header of a shared record (a plain record's header with the file offset of the bytes),
 * written into `out`: the writer's scratch, copied by the sink before it is used again.
 */
function fillSharedRecordHeader(out: Uint8Array, view: DataView, header: Uint8Array, dataOffset: number): Uint8Array {
  // The rest of a plain header stays: a header already in `out` is not copied over itself.
  if (header.buffer !== out.buffer || header.byteOffset !== out.byteOffset) out.set(header.subarray(4, 24), 4);
  out.set(SHARED_RECORD_TAG);
  view.setUint32(24, dataOffset >>> 0, true);
  view.setUint32(28, Math.floor(dataOffset / 0x1_0000_0000), true);
  view.setUint32(32, crc(out.subarray(0, 32)), true);
  return out;
}

/** Image bytes a writer wrote, where, and their CRC-32 (which also tells a caller changed them since). */
interface WrittenData {
  readonly bytes: Uint8Array;
  readonly crc: number;
  readonly offset: number;
}

/** What `ContainerWriter.finish` reports. */
export interface ContainerSummary {
  readonly size: number;
  readonly bundles: number;
  readonly images: number;
}

/** Metadata is encoded here and copied out: one buffer, grown once, for all images of a run. */
const metadataScratch = { builder: new ByteBuilder() };
const MAX_KEPT_SCRATCH = 1 << 20;

/**
 * An image's metadata in the shared scratch buffer (no copy): valid until the next encoding, so
 * callers copy it (`slice`) or hand it to a sink, which copies, first.
 */
function encodeImageMetadata(image: DeviceImage): Uint8Array {
  const out = metadataScratch.builder.clear();
  writeImageMetadata(out, image);
  const bytes = out.view();
  // An unusually large image's buffer is not kept; the bytes stay valid in the dropped builder.
  if (out.capacity > MAX_KEPT_SCRATCH) metadataScratch.builder = new ByteBuilder();
  return bytes;
}

function writeImageMetadata(out: ByteBuilder, image: DeviceImage): void {
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
}

// --- the lookup table ----------------------------------------------------------------------------

/** What the lookup table of a container indexes images by. */
export type ContainerKeyKind = 'entry' | 'exported-symbol' | 'add-on-image';

/** The kind byte of a key in the table. */
const KEY_KIND_CODE: Readonly<Record<ContainerKeyKind, number>> = { entry: 1, 'exported-symbol': 2, 'add-on-image': 3 };
const KEY_KIND_NAME: readonly (ContainerKeyKind | undefined)[] = [undefined, 'entry', 'exported-symbol', 'add-on-image'];

const utf8Encoder = new TextEncoder();

/** FNV-1a (32 bits) over the kind byte, then the key's UTF-8 bytes. */
export function lookupKeyHash(kind: ContainerKeyKind, name: string | Uint8Array): number {
  const bytes = typeof name === 'string' ? utf8Encoder.encode(name) : name;
  let hash = Math.imul(0x811c9dc5 ^ KEY_KIND_CODE[kind], 0x01000193);
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * The keys an image is found by: its offload entries, the device functions it exports (the
 * property names of `SYCL/exported symbols`) and the add-on image pairs it belongs to (the
 * property names of `SYCL/add on image`), without repeats.
 */
function lookupKeysOf(image: Pick<DeviceImage, 'entries' | 'properties'>): [ContainerKeyKind, string][] {
  const keys: [ContainerKeyKind, string][] = [];
  addKeys(keys, 'entry', image.entries);
  const exported = image.properties.getSet(PropertySetName.EXPORTED_SYMBOLS);
  if (exported !== undefined) addKeys(keys, 'exported-symbol', exported.keys());
  const addOns = image.properties.getSet(ADD_ON_IMAGE_SET);
  if (addOns !== undefined) addKeys(keys, 'add-on-image', addOns.keys());
  return keys;
}

/** Keys of one kind an image has more of than this are told apart by a set, fewer by a scan. */
const KEYS_SCANNED = 8;

/** Appends the names not yet listed for `kind` (they follow `keys`' existing entries). */
function addKeys(keys: [ContainerKeyKind, string][], kind: ContainerKeyKind, names: Iterable<string>): void {
  const start = keys.length;
  let seen: Set<string> | undefined;
  for (const name of names) {
    if (keys.length - start < KEYS_SCANNED) {
      let listed = false;
      for (let i = start; i < keys.length; i++) {
        if (keys[i]![1] === name) {
          listed = true;
          break;
        }
      }
      if (listed) continue;
    } else {
      seen ??= new Set(keys.slice(start).map(([, listed]) => listed));
      if (seen.has(name)) continue;
      seen.add(name);
    }
    keys.push([kind, name]);
  }
}

/** The smallest power of two that is at least `count` (and at least 1). */
function bucketCountFor(count: number): number {
  let buckets = 1;
  while (buckets < count) buckets *= 2;
  return buckets;
}

/** A bundle being written: its target, its place in the bundle list, its records' offsets. */
interface WriterBundle {
  readonly target: string;
  readonly position: number;
  readonly offsets: number[];
}

interface WrittenKey {
  readonly kind: ContainerKeyKind;
  readonly utf8: Uint8Array;
  /** Images in the order they were added (writer ordinals). */
  readonly images: number[];
}

/**
 * Writes a container as images are produced: each `addImage` writes that image's record at once,
 * so memory holds only offsets, never earlier images. Bundles are keyed by target and listed in
 * the order they were first used (or added with `addBundle`). `finish` writes the index and
 * trailer; a file writer then renames its temporary file over the target (atomic: a reader never
 * sees a partial container, and a failure leaves the old file in place).
 */
export class ContainerWriter {
  readonly #sink: MemorySink | BufferedFile;
  readonly #bundles: WriterBundle[] = [];
  readonly #byTarget = new Map<string, WriterBundle>();
  /** Per image, in the order added: its bundle, and its place in that bundle. */
  readonly #addedTo: number[] = [];
  readonly #addedAt: number[] = [];
  /** Keys in the order first met, and by name per kind code. */
  readonly #keys: WrittenKey[] = [];
  readonly #keysByKind: Map<string, WrittenKey>[] = [new Map(), new Map(), new Map(), new Map()];
  #images = 0;
  #state: 'open' | 'finished' | 'aborted' = 'open';
  #bytes: Uint8Array | undefined;

  /** Bytes written lately, latest last: a record with the same bytes refers to them. */
  readonly #written: WrittenData[] = [];
  #writtenBytes = 0;
  #shared = false;

  private constructor(sink: MemorySink | BufferedFile) {
    this.#sink = sink;
    sink.write(containerHeader(CONTAINER_VERSION_2));
  }

  /** A writer to `path` (through a temporary file in the same directory). */
  static toFile(path: string): ContainerWriter {
    return new ContainerWriter(new BufferedFile(path));
  }

  /** A writer to memory; `bytes()` gives the container after `finish()`. */
  static toMemory(): ContainerWriter {
    return new ContainerWriter(new MemorySink());
  }

  #open(): void {
    if (this.#state !== 'open') throw new WrapperError(`the container writer is already ${this.#state}`);
  }

  #bundle(target: string): WriterBundle {
    let bundle = this.#byTarget.get(target);
    if (bundle === undefined) {
      if (target.includes('\0') || /\p{Cs}/u.test(target)) throw new WrapperError(`bundle target ${JSON.stringify(target)} contains NUL or an unpaired surrogate`);
      bundle = { target, position: this.#bundles.length, offsets: [] };
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
    this.addEncodedImage(encodeImageRecord(image));
  }

  /**
   * Writes images one after another, as `addImage` each: the rows of one image for several
   * targets. Within the call the bytes cannot change, so the CRC-32 of bytes several images hold
   * (the same array) is computed once. Records go straight to the sink (no record objects): the
   * metadata from the shared scratch buffer, the header from the writer's.
   */
  addImages(images: readonly DeviceImage[]): void {
    this.#open();
    const crcs: number[] = [];
    for (let i = 0; i < images.length; i++) {
      const image = images[i]!;
      checkDeviceImageWith(image, this.#validTexts);
      const data = image.image;
      let dataCrc: number | undefined;
      for (let j = 0; j < i && dataCrc === undefined; j++) if (images[j]!.image === data) dataCrc = crcs[j];
      dataCrc ??= crc(data);
      crcs.push(dataCrc);
      const metadata = encodeImageMetadata(image);
      fillRecordHeader(this.#header, this.#headerView, metadata, data.length, dataCrc);
      this.#place(image.target, this.#plainHeader, metadata, data, dataCrc, lookupKeysOf(image));
    }
  }

  /**
   * Writes an image encoded with `encodeImageRecord` (possibly on another thread: the record's
   * bytes are final, the writer only places them and remembers its offset and keys).
   */
  addEncodedImage(record: EncodedImageRecord): void {
    this.#open();
    const dataCrc = new DataView(record.header.buffer, record.header.byteOffset, RECORD_HEADER_SIZE).getUint32(20, true);
    this.#place(record.target, record.header, record.metadata, record.image, dataCrc, record.keys);
  }

  /** Scratch for record headers (plain or shared): sinks copy what they are given. */
  readonly #header = new Uint8Array(SHARED_RECORD_HEADER_SIZE);
  readonly #headerView = new DataView(this.#header.buffer);
  readonly #plainHeader = this.#header.subarray(0, RECORD_HEADER_SIZE);
  /** Strings the image checks found valid (set and property names, targets, entries). */
  readonly #validTexts: ValidTexts = new Set();

  /** Writes one record (its plain header, metadata and bytes, or a shared record) and remembers its offset and keys. */
  #place(target: string, header: Uint8Array, metadata: Uint8Array, data: Uint8Array, dataCrc: number, keys: readonly (readonly [ContainerKeyKind, string])[]): void {
    if (this.#images >= MAX_IMAGES) throw new WrapperError(`too many images: the runtime descriptor holds at most ${MAX_IMAGES}`);
    const bundle = this.#bundle(target);
    const offset = this.#sink.position;
    const shareable = data.length >= MIN_SHARED_LENGTH;
    const earlier = shareable ? this.#writtenData(data, dataCrc) : undefined;
    try {
      if (earlier !== undefined) {
        this.#sink.write(fillSharedRecordHeader(this.#header, this.#headerView, header, earlier.offset));
        this.#sink.write(metadata);
        this.#shared = true;
      } else {
        this.#sink.write(header);
        this.#sink.write(metadata);
        this.#sink.write(data);
      }
    } catch (error) {
      this.abort();
      throw error;
    }
    if (shareable && earlier === undefined) this.#remember({ bytes: data, crc: dataCrc, offset: offset + RECORD_HEADER_SIZE + metadata.length });
    bundle.offsets.push(offset);
    this.#addedTo.push(bundle.position);
    this.#addedAt.push(bundle.offsets.length - 1);
    for (const [kind, name] of keys) {
      const byName = this.#keysByKind[KEY_KIND_CODE[kind]]!;
      let key = byName.get(name);
      if (key === undefined) {
        key = { kind, utf8: utf8Encoder.encode(name), images: [] };
        byName.set(name, key);
        this.#keys.push(key);
      }
      key.images.push(this.#images);
    }
    this.#images++;
  }

  /**
   * Bytes written lately that equal `data`: same length, same CRC-32 (so not changed by the caller
   * since) and the same bytes.
   */
  #writtenData(data: Uint8Array, dataCrc: number): WrittenData | undefined {
    for (let i = this.#written.length - 1; i >= 0; i--) {
      const written = this.#written[i]!;
      if (written.crc !== dataCrc || written.bytes.length !== data.length) continue;
      if (written.bytes === data || Buffer.compare(written.bytes, data) === 0) return written;
    }
    return undefined;
  }

  #remember(written: WrittenData): void {
    this.#written.push(written);
    this.#writtenBytes += written.bytes.length;
    while (this.#written.length > 1 && (this.#written.length > SHARE_WINDOW_ENTRIES || this.#writtenBytes > SHARE_WINDOW_BYTES)) {
      this.#writtenBytes -= this.#written.shift()!.bytes.length;
    }
  }

  /**
   * The index: bundles (target, image count), the record offsets of all images in registration
   * order (bundle by bundle), then the lookup table: key count, bucket count B (a power of two),
   * B + 1 bucket starts and the buckets, each key with the registration positions of its images.
   */
  #index(): Uint8Array {
    const index = new ByteBuilder().bytes(INDEX_TAG).u32(this.#bundles.length);
    const first: number[] = [];
    let total = 0;
    for (const bundle of this.#bundles) {
      index.string(bundle.target).u32(bundle.offsets.length);
      first.push(total);
      total += bundle.offsets.length;
    }
    for (const bundle of this.#bundles) for (const offset of bundle.offsets) index.u64(offset);
    const buckets = bucketCountFor(this.#keys.length);
    const lists: WrittenKey[][] = Array.from({ length: buckets }, () => []);
    for (const key of this.#keys) lists[lookupKeyHash(key.kind, key.utf8) & (buckets - 1)]!.push(key);
    const area = new ByteBuilder();
    const starts: number[] = [0];
    for (const list of lists) {
      for (const key of list) {
        const positions = key.images.map((ordinal) => first[this.#addedTo[ordinal]!]! + this.#addedAt[ordinal]!).sort((a, b) => a - b);
        area.u8(KEY_KIND_CODE[key.kind]).u32(key.utf8.length).bytes(key.utf8).u32(positions.length);
        for (const position of positions) area.u32(position);
      }
      starts.push(area.length);
    }
    index.u32(this.#keys.length).u32(buckets);
    for (const start of starts) index.u32(start);
    return index.bytes(area.finish()).finish();
  }

  /** Writes the index and trailer and, for a file, puts it in place. */
  finish(): ContainerSummary {
    this.#open();
    try {
      this.#written.length = 0;
      if (this.#shared) this.#sink.patchStart(containerHeader(CONTAINER_VERSION));
      const indexBytes = this.#index();
      const indexOffset = this.#sink.position;
      const trailer = new ByteBuilder().bytes(TRAILER_MAGIC).u64(indexOffset).u64(indexBytes.length).u32(crc(indexBytes));
      trailer.u32(crc(trailer.finish()));
      this.#sink.write(indexBytes);
      this.#sink.write(trailer.finish());
      if (this.#sink instanceof BufferedFile) this.#sink.commit();
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
    this.#written.length = 0;
    if (this.#sink instanceof BufferedFile) this.#sink.discard();
  }

  /** The container bytes of a memory writer, after `finish`. */
  bytes(): Uint8Array {
    if (this.#bytes === undefined) throw new WrapperError('bytes() needs a finished memory writer');
    return this.#bytes;
  }
}

/** The 16-byte container header of a version. */
function containerHeader(version: number): Uint8Array {
  const header = new ByteBuilder().bytes(CONTAINER_MAGIC).u16(version).u16(0);
  header.u32(crc(header.finish()));
  return header.finish();
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
  /**
   * Bytes of the record: header, metadata and the image bytes, or, for a record that shares the
   * bytes of an earlier record (version 3), header and metadata only.
   */
  readonly recordLength: number;
  /** File offset and length of the image bytes (in an earlier record when they are shared). */
  readonly dataOffset: number;
  readonly dataLength: number;
  /** CRC-32 of the image bytes, as stored. */
  readonly dataCrc: number;
}

export interface ContainerBundle {
  readonly target: string;
  readonly images: readonly ContainerImage[];
}

/** A bundle as the index lists it: its target and its images' positions in registration order. */
export interface ContainerBundleRange {
  readonly target: string;
  /** Position of its first image. */
  readonly first: number;
  readonly count: number;
}

/** `readContainer`/`ContainerReader.fromBytes` options. */
export interface ReadContainerOptions {
  /** Name used in error messages (default `<memory>`). */
  readonly fileName?: string;
}

/** Where the lookup table of a version 2 index lies, relative to the index's first byte. */
interface LookupTable {
  readonly keys: number;
  readonly buckets: number;
  /** The B + 1 bucket starts. */
  readonly startsAt: number;
  /** The buckets. */
  readonly areaAt: number;
  readonly areaLength: number;
}

/** One key of the lookup table as read. */
interface TableKey {
  readonly kind: ContainerKeyKind;
  readonly name: string;
  readonly positions: readonly number[];
  /** Index offset of the key (for messages). */
  readonly at: number;
}

/**
 * Reads a container, a piece at a time. Opening checks the header, the trailer and the index (its
 * CRC-32 and layout); that is enough to find an image by kernel name, exported function or add-on
 * image id (`lookup`), and `image(i)` then reads and checks that image's record alone, so one
 * kernel of a 50,000-image binary costs the index and a few records. `bundles` (every image)
 * reads and checks every record, and that the records tile the file. Image bytes stay on disk
 * until `readImageData`, which checks their CRC. Version 1 containers (no lookup table) are read
 * whole when opened. Problems are ContainerErrors naming the file offset and what was expected
 * there.
 */
export class ContainerReader {
  readonly fileName: string;
  readonly version: number;
  readonly size: number;
  /** Bundles as the index lists them (no record read). */
  readonly bundleRanges: readonly ContainerBundleRange[];
  /** Images in all bundles. */
  readonly imageCount: number;
  readonly #source: ByteSource;
  #indexOffset = 0;
  /** Version 2: the index bytes (checked against their CRC), where the record offsets start, the lookup table. */
  #index: Uint8Array | undefined;
  #indexView: DataView | undefined;
  #offsetsAt = 0;
  #table: LookupTable | undefined;
  readonly #images: (ContainerImage | undefined)[];
  #bundles: ContainerBundle[] | undefined;
  /** Version 1: positions by key, made from the listing on the first lookup. */
  #keys: Map<string, number[]> | undefined;

  private constructor(source: ByteSource, fileName: string) {
    this.#source = source;
    this.fileName = fileName;
    this.size = source.size;
    try {
      this.version = this.#readHeader();
      const { indexOffset, indexLength, indexCrc } = this.#readTrailer();
      this.#indexOffset = indexOffset;
      const bytes = this.#source.read(indexOffset, indexLength);
      const computed = crc(bytes);
      if (computed !== indexCrc) {
        throw this.#error(`corrupted index: its CRC-32 is ${hex32(computed)}, the trailer says ${hex32(indexCrc)}`, indexOffset);
      }
      if (this.version === CONTAINER_VERSION_1) {
        const bundles = this.#readIndexV1(bytes, indexOffset);
        this.#bundles = bundles;
        this.bundleRanges = rangesOf(bundles.map((bundle) => [bundle.target, bundle.images.length]));
        this.#images = bundles.flatMap((bundle) => bundle.images);
      } else {
        this.bundleRanges = this.#readIndexV2(bytes, indexOffset);
        this.#images = [];
      }
      const last = this.bundleRanges[this.bundleRanges.length - 1];
      this.imageCount = last === undefined ? 0 : last.first + last.count;
    } catch (error) {
      source.close();
      throw error;
    }
  }

  /** Opens a container file (read with positioned reads; records and image bytes stay on disk). */
  static open(path: string): ContainerReader {
    return new ContainerReader(new FileSource(path), path);
  }

  /** Reads a container held in memory. */
  static fromBytes(bytes: Uint8Array, options: ReadContainerOptions = {}): ContainerReader {
    return new ContainerReader(new MemorySource(bytes), options.fileName ?? '<memory>');
  }

  /** Every bundle with every image: reads and checks every record (once; later calls reuse it). */
  get bundles(): readonly ContainerBundle[] {
    this.#bundles ??= this.#readAllRecords();
    return this.#bundles;
  }

  /** All images in registration order (reads every record, as `bundles`). */
  get images(): ContainerImage[] {
    return this.bundles.flatMap((bundle) => bundle.images);
  }

  /** The image at a position in registration order; reads and checks its record only. */
  image(position: number): ContainerImage {
    if (!Number.isInteger(position) || position < 0 || position >= this.imageCount) {
      throw new WrapperError(`no image ${position}: ${this.fileName} has ${this.imageCount} image${this.imageCount === 1 ? '' : 's'}`);
    }
    let image = this.#images[position];
    if (image === undefined) {
      const offset = this.#recordOffset(this.#indexView!, this.#offsetsAt + 8 * position, `image ${position}`);
      const range = this.#rangeOf(position);
      const record = this.#readRecord(offset, this.#indexOffset, position);
      image = { ...record, target: range.target, index: position };
      this.#images[position] = image;
    }
    return image;
  }

  /**
   * The images with a key, in registration order: `entry` (an offload entry: a kernel, or an
   * exported function the image lists), `exported-symbol` (a name in `SYCL/exported symbols`),
   * `add-on-image` (a pair id in `SYCL/add on image`). Reads the index's bucket for the key and
   * the records of the images found.
   */
  lookup(kind: ContainerKeyKind, name: string): ContainerImage[] {
    return this.lookupPositions(kind, name).map((position) => this.image(position));
  }

  /** The positions `lookup` would read (no record read). */
  lookupPositions(kind: ContainerKeyKind, name: string): readonly number[] {
    if (this.#table === undefined) {
      this.#keys ??= keyMapOf(this.images);
      return this.#keys.get(`${KEY_KIND_CODE[kind]}:${name}`) ?? [];
    }
    const utf8 = utf8Encoder.encode(name);
    const bucket = lookupKeyHash(kind, utf8) & (this.#table.buckets - 1);
    for (const key of this.#bucketKeys(bucket)) if (key.kind === kind && key.name === name) return key.positions;
    return [];
  }

  #rangeOf(position: number): ContainerBundleRange {
    const ranges = this.bundleRanges;
    let low = 0;
    let high = ranges.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (ranges[mid]!.first <= position) low = mid;
      else high = mid - 1;
    }
    return ranges[low]!;
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
    if (version < CONTAINER_VERSION_1 || version > CONTAINER_VERSION) {
      throw this.#error(`unsupported container version ${version}: this reader reads versions ${CONTAINER_VERSION_1} to ${CONTAINER_VERSION}`, 8);
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
      // A cut file may be a version 3 container whose header was not yet marked as one.
      const shared = sameBytes(tag, SHARED_RECORD_TAG);
      if (!shared && !sameBytes(tag, RECORD_TAG)) {
        if (tag.length < 4 && (sameBytes(tag, RECORD_TAG.subarray(0, tag.length)) || sameBytes(tag, SHARED_RECORD_TAG.subarray(0, tag.length)))) {
          return this.#error(`truncated: the file ends at offset ${size} inside the header of image record ${records}, which starts at offset ${pos}`, size);
        }
        return this.#error(`expected an image record ("IMAG" or "IMGS") or the index ("INDX") at offset ${pos}, found ${hex(tag)}`, pos);
      }
      const headerSize = shared ? SHARED_RECORD_HEADER_SIZE : RECORD_HEADER_SIZE;
      if (size - pos < headerSize) {
        return this.#error(
          `truncated: the file ends at offset ${size} inside the ${headerSize}-byte header of image record ${records}, which starts at offset ${pos}`,
          size,
        );
      }
      const header = this.#source.read(pos, headerSize);
      const view = new DataView(header.buffer, header.byteOffset, headerSize);
      if (view.getUint32(headerSize - 4, true) !== crc(header.subarray(0, headerSize - 4))) {
        return this.#error(`corrupted header of image record ${records} (its CRC-32 does not match)`, pos + headerSize - 4);
      }
      const end = pos + headerSize + view.getUint32(4, true) + (shared ? 0 : Number(view.getBigUint64(8, true)));
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

  /**
   * The bundles of an index, from its start: target and image count, and in version 1 where the
   * bundle's record offsets are (they follow its count; in version 2 they follow the list).
   */
  #readBundleList(cursor: ByteCursor, version1: boolean): { target: string; count: number; offsetsAt: number }[] {
    const tagAt = cursor.offset;
    const tag = cursor.bytes(4, 'the index tag "INDX"');
    if (!sameBytes(tag, INDEX_TAG)) throw this.#error(`expected the index tag ${hex(INDEX_TAG)} ("INDX"), found ${hex(tag)}`, tagAt);
    const bundleCount = cursor.u32('the bundle count');
    const targets = new Set<string>();
    const out: { target: string; count: number; offsetsAt: number }[] = [];
    for (let b = 0; b < bundleCount; b++) {
      const targetAt = cursor.offset;
      const target = cursor.string(`the target of bundle ${b}`);
      if (targets.has(target)) throw this.#error(`index: bundle ${b} repeats the target '${target}'`, targetAt);
      targets.add(target);
      const count = cursor.u32(`the image count of bundle '${target}'`);
      if (count > cursor.remaining / 8) {
        throw cursor.error(`index: bundle '${target}' lists ${count} images, more than the index can hold`);
      }
      out.push({ target, count, offsetsAt: cursor.position });
      if (version1) cursor.bytes(8 * count, `the record offsets of bundle '${target}'`);
    }
    return out;
  }

  /** Version 2: bundles, the record offsets of all images, the lookup table. */
  #readIndexV2(bytes: Uint8Array, indexOffset: number): ContainerBundleRange[] {
    const cursor = new ByteCursor(bytes, indexOffset, this.fileName, 'index');
    const ranges = rangesOf(this.#readBundleList(cursor, false).map((bundle) => [bundle.target, bundle.count]));
    const last = ranges[ranges.length - 1];
    const total = last === undefined ? 0 : last.first + last.count;
    if (total > MAX_IMAGES) throw this.#error(`index: ${total} images, the runtime descriptor holds at most ${MAX_IMAGES}`, indexOffset);
    this.#offsetsAt = cursor.position;
    cursor.bytes(8 * total, `the record offsets of ${total} image${total === 1 ? '' : 's'}`);
    const keys = cursor.u32('the key count of the lookup table');
    const bucketsAt = cursor.offset;
    const buckets = cursor.u32('the bucket count of the lookup table');
    if (buckets === 0 || (buckets & (buckets - 1)) !== 0) throw this.#error(`index: the lookup table's bucket count must be a power of two, found ${buckets}`, bucketsAt);
    const startsAt = cursor.position;
    cursor.bytes(4 * (buckets + 1), `the ${buckets + 1} bucket starts of the lookup table`);
    const areaAt = cursor.position;
    const areaLength = cursor.remaining;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const firstStart = view.getUint32(startsAt, true);
    const lastStart = view.getUint32(startsAt + 4 * buckets, true);
    if (firstStart !== 0 || lastStart !== areaLength) {
      throw this.#error(`index: the lookup table's buckets must span its last ${areaLength} bytes, its starts say ${firstStart}–${lastStart}`, indexOffset + startsAt);
    }
    this.#index = bytes;
    this.#indexView = view;
    this.#table = { keys, buckets, startsAt, areaAt, areaLength };
    return ranges;
  }

  /** The keys of one bucket of the lookup table, checked as read. */
  #bucketKeys(bucket: number): TableKey[] {
    const table = this.#table!;
    const view = this.#indexView!;
    const startAt = table.startsAt + 4 * bucket;
    const start = view.getUint32(startAt, true);
    const end = view.getUint32(startAt + 4, true);
    if (start > end || end > table.areaLength) {
      throw this.#error(`index: bucket ${bucket} of the lookup table spans bytes ${start}–${end} of ${table.areaLength}`, this.#indexOffset + startAt);
    }
    const base = table.areaAt + start;
    const cursor = new ByteCursor(this.#index!.subarray(base, table.areaAt + end), this.#indexOffset + base, this.fileName, `bucket ${bucket} of the lookup table`);
    const keys: TableKey[] = [];
    while (cursor.remaining > 0) {
      const at = cursor.offset;
      const code = cursor.u8('the kind of a key');
      const kind = KEY_KIND_NAME[code];
      if (kind === undefined) throw cursor.error(`${cursor.region}: key kind ${code}; expected 1 (entry), 2 (exported symbol) or 3 (add-on image)`, at);
      const name = cursor.string('a key');
      const count = cursor.u32(`the image count of key '${name}'`);
      if (count > cursor.remaining / 4) throw cursor.error(`${cursor.region}: key '${name}' lists ${count} images, more than the bucket holds`);
      const positions: number[] = [];
      for (let i = 0; i < count; i++) {
        const positionAt = cursor.offset;
        const position = cursor.u32(`image ${i} of key '${name}'`);
        if (position >= this.imageCount || (i > 0 && position <= positions[i - 1]!)) {
          throw cursor.error(`${cursor.region}: key '${name}' lists image ${position}, ${position >= this.imageCount ? `but there are ${this.imageCount}` : 'out of ascending order'}`, positionAt);
        }
        positions.push(position);
      }
      keys.push({ kind, name, positions, at });
    }
    return keys;
  }

  /** Version 1: bundles with every record read. */
  #readIndexV1(bytes: Uint8Array, indexOffset: number): ContainerBundle[] {
    const cursor = new ByteCursor(bytes, indexOffset, this.fileName, 'index');
    const listed = this.#readBundleList(cursor, true);
    cursor.end();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const owner = new Set<number>();
    const offsetsOf = listed.map(({ target, count, offsetsAt }) => {
      const list: number[] = [];
      for (let i = 0; i < count; i++) {
        const at = indexOffset + offsetsAt + 8 * i;
        const offset = this.#recordOffset(view, offsetsAt + 8 * i, `image ${i} of bundle '${target}'`);
        if (owner.has(offset)) throw this.#error(`index: offset ${offset} is listed twice`, at);
        owner.add(offset);
        list.push(offset);
      }
      return list;
    });
    if (owner.size > MAX_IMAGES) throw this.#error(`index: ${owner.size} images, the runtime descriptor holds at most ${MAX_IMAGES}`, indexOffset);
    const records = this.#tile([...owner], indexOffset, (offset, ordinal) => this.#readRecord(offset, indexOffset, ordinal));
    let index = 0;
    return listed.map(({ target }, b) => ({
      target,
      images: offsetsOf[b]!.map((offset) => ({ ...records.get(offset)!, target, index: index++ })),
    }));
  }

  /** A record offset of the index (at `at` in its bytes), which must lie in the record area. */
  #recordOffset(view: DataView, at: number, what: string): number {
    const offset = view.getBigUint64(at, true);
    if (offset < BigInt(HEADER_SIZE) || offset + BigInt(RECORD_HEADER_SIZE) > BigInt(this.#indexOffset)) {
      throw this.#error(`index: ${what} is at offset ${offset}, outside the record area (offsets ${HEADER_SIZE}–${this.#indexOffset})`, this.#indexOffset + at);
    }
    return Number(offset);
  }

  /**
   * Reads the records at `offsets` in file order, checking that they tile the bytes between the
   * header and the index: no gap, no overlap.
   */
  #tile<T extends { recordOffset: number; recordLength: number }>(offsets: number[], indexOffset: number, read: (offset: number, ordinal: number) => T): Map<number, T> {
    const records = new Map<number, T>();
    let expected = HEADER_SIZE;
    for (const offset of offsets.sort((a, b) => a - b)) {
      if (offset !== expected) {
        throw this.#error(
          offset > expected
            ? `bytes ${expected}–${offset} belong to no image record listed in the index`
            : `image record at offset ${offset} overlaps the previous record, which ends at offset ${expected}`,
          Math.min(offset, expected),
        );
      }
      const record = read(offset, records.size);
      records.set(offset, record);
      expected = record.recordOffset + record.recordLength;
    }
    if (expected !== indexOffset) {
      throw this.#error(`bytes ${expected}–${indexOffset} belong to no image record listed in the index`, expected);
    }
    return records;
  }

  /** Version 2: every record, the tiling, and that the lookup table lists exactly the images' keys. */
  #readAllRecords(): ContainerBundle[] {
    const view = this.#indexView!;
    const positionAt = new Map<number, number>();
    for (let position = 0; position < this.imageCount; position++) {
      const at = this.#offsetsAt + 8 * position;
      const offset = this.#recordOffset(view, at, `image ${position}`);
      if (positionAt.has(offset)) throw this.#error(`index: offset ${offset} is listed twice`, this.#indexOffset + at);
      positionAt.set(offset, position);
    }
    const records = this.#tile([...positionAt.keys()], this.#indexOffset, (offset) => this.image(positionAt.get(offset)!));
    this.#checkSharedData(records);
    const images = Array.from({ length: this.imageCount }, (_, position) => this.image(position));
    this.#checkTable(images);
    return this.bundleRanges.map((range) => ({ target: range.target, images: images.slice(range.first, range.first + range.count) }));
  }

  /** A shared record's bytes must be exactly the bytes of an earlier record that holds its own (`records` in file order). */
  #checkSharedData(records: ReadonlyMap<number, ContainerImage>): void {
    const ownData = new Map<number, number>();
    for (const image of records.values()) {
      if (image.dataOffset === image.recordOffset + image.recordLength - image.dataLength) {
        if (image.dataLength > 0) ownData.set(image.dataOffset, image.dataLength);
      } else if (ownData.get(image.dataOffset) !== image.dataLength) {
        throw this.#error(
          `image record at offset ${image.recordOffset} ('${image.name}') shares bytes ${image.dataOffset}–${image.dataOffset + image.dataLength}, which are not the image bytes of an earlier record`,
          image.recordOffset + 24,
        );
      }
    }
  }

  /** The lookup table must hold each key of the images, with exactly their positions, in the bucket of its hash. */
  #checkTable(images: readonly ContainerImage[]): void {
    const table = this.#table!;
    const expected = keyMapOf(images);
    const seen = new Set<string>();
    for (let bucket = 0; bucket < table.buckets; bucket++) {
      for (const key of this.#bucketKeys(bucket)) {
        const id = `${KEY_KIND_CODE[key.kind]}:${key.name}`;
        const wrong = (reason: string): ContainerError => this.#error(`index: the lookup table's ${key.kind} key '${key.name}' ${reason}`, key.at);
        if ((lookupKeyHash(key.kind, key.name) & (table.buckets - 1)) !== bucket) throw wrong(`is in bucket ${bucket}, not in the bucket of its hash`);
        if (seen.has(id)) throw wrong('appears twice');
        seen.add(id);
        const positions = expected.get(id);
        if (positions === undefined) throw wrong('belongs to no image');
        if (positions.length !== key.positions.length || positions.some((p, i) => p !== key.positions[i])) {
          throw wrong(`lists images ${key.positions.join(', ')}, but the records give it to images ${positions.join(', ')}`);
        }
      }
    }
    if (seen.size !== expected.size || table.keys !== expected.size) {
      const missing = [...expected.keys()].find((id) => !seen.has(id));
      throw this.#error(
        missing === undefined
          ? `index: the lookup table says it holds ${table.keys} keys, it holds ${seen.size}`
          : `index: the lookup table lacks the key '${missing.slice(2)}' of image ${expected.get(missing)![0]}`,
        this.#indexOffset + table.startsAt,
      );
    }
  }

  #readRecord(offset: number, limit: number, ordinal: number): Omit<ContainerImage, 'index' | 'target'> {
    const what = `image record ${ordinal} (offset ${offset})`;
    // One read for the header and, usually, the metadata after it (the caller checked the header fits).
    const first = this.#source.read(offset, Math.max(RECORD_HEADER_SIZE, Math.min(RECORD_READ_AHEAD, limit - offset)));
    const shared = this.version >= CONTAINER_VERSION && sameBytes(first.subarray(0, 4), SHARED_RECORD_TAG);
    const headerSize = shared ? SHARED_RECORD_HEADER_SIZE : RECORD_HEADER_SIZE;
    if (shared && offset + headerSize > limit) {
      throw this.#error(`${what}: its ${headerSize}-byte header (a shared record) ends at offset ${offset + headerSize}, past the start of the index (offset ${limit})`, offset);
    }
    const header = first.subarray(0, headerSize);
    const cursor = new ByteCursor(header, offset, this.fileName, `header of ${what}`);
    const tag = cursor.bytes(4, 'the record tag "IMAG"');
    if (!shared && !sameBytes(tag, RECORD_TAG)) {
      throw this.#error(
        `expected the image record tag ${hex(RECORD_TAG)} ("IMAG")${this.version >= CONTAINER_VERSION ? ` or ${hex(SHARED_RECORD_TAG)} ("IMGS")` : ''}, found ${hex(tag)}`,
        offset,
      );
    }
    const metadataLength = cursor.u32('the metadata length');
    const dataLength = cursor.u64('the data length');
    const metadataCrc = cursor.u32('the metadata CRC-32');
    const dataCrc = cursor.u32('the data CRC-32');
    const sharedOffset = shared ? cursor.u64('the offset of the shared image bytes') : 0;
    const stored = cursor.u32('the record header CRC-32');
    const computed = crc(header.subarray(0, headerSize - 4));
    if (stored !== computed) {
      throw this.#error(`corrupted header of ${what}: its CRC-32 is ${hex32(computed)}, the record says ${hex32(stored)}`, offset + headerSize - 4);
    }
    const metadataOffset = offset + headerSize;
    const ownDataLength = shared ? 0 : dataLength;
    const recordEnd = metadataOffset + metadataLength + ownDataLength;
    if (recordEnd > limit) {
      throw this.#error(
        `${what}: its ${metadataLength} bytes of metadata and ${ownDataLength} bytes of data end at offset ${recordEnd}, past the start of the index (offset ${limit})`,
        offset + 4,
      );
    }
    if (shared && (dataLength === 0 || sharedOffset < HEADER_SIZE + RECORD_HEADER_SIZE || sharedOffset + dataLength > offset)) {
      throw this.#error(
        `${what}: it shares ${dataLength} image bytes at offset ${sharedOffset}, but shared bytes must be the non-empty bytes of an earlier record (between offsets ${HEADER_SIZE + RECORD_HEADER_SIZE} and ${offset})`,
        offset + 24,
      );
    }
    const dataOffset = shared ? sharedOffset : metadataOffset + metadataLength;
    const metadata =
      headerSize + metadataLength <= first.length
        ? first.subarray(headerSize, headerSize + metadataLength)
        : this.#source.read(metadataOffset, metadataLength);
    const metadataComputed = crc(metadata);
    if (metadataComputed !== metadataCrc) {
      throw this.#error(`corrupted metadata of ${what}: its CRC-32 is ${hex32(metadataComputed)}, the record says ${hex32(metadataCrc)}`, metadataOffset);
    }
    const fields = decodeImageMetadata(new ByteCursor(metadata, metadataOffset, this.fileName, `metadata of ${what}`));
    if (fields.empty && dataLength !== 0) {
      throw this.#error(`${what}: an empty (filtered) image must have no data, the record has ${dataLength} bytes`, offset + 8);
    }
    return { ...fields, recordOffset: offset, recordLength: recordEnd - offset, dataOffset, dataLength, dataCrc };
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
    const { index: _index, recordOffset: _r, recordLength: _rl, dataOffset: _o, dataLength: _l, dataCrc: _c, ...fields } = image;
    return { ...fields, image: this.readImageData(image) };
  }

  /** The whole descriptor, every image's bytes read and checked. */
  readDescriptor(): BinaryDescriptor {
    return { bundles: this.bundles.map((bundle) => ({ target: bundle.target, images: bundle.images.map((image) => this.readImage(image)) })) };
  }

  /** Reads and checks every record and every image's bytes without keeping the bytes. */
  verify(): void {
    for (const image of this.images) this.readImageData(image);
  }

  close(): void {
    this.#source.close();
  }
}

/** Bundle ranges from (target, image count) pairs. */
function rangesOf(listed: readonly (readonly [string, number])[]): ContainerBundleRange[] {
  let first = 0;
  return listed.map(([target, count]) => {
    const range = { target, first, count };
    first += count;
    return range;
  });
}

/** Positions by key (`<kind code>:<name>`) of images in registration order. */
function keyMapOf(images: readonly ContainerImage[]): Map<string, number[]> {
  const keys = new Map<string, number[]>();
  for (const image of images) {
    for (const [kind, name] of lookupKeysOf(image)) {
      const id = `${KEY_KIND_CODE[kind]}:${name}`;
      const list = keys.get(id);
      if (list === undefined) keys.set(id, [image.index]);
      else list.push(image.index);
    }
  }
  return keys;
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

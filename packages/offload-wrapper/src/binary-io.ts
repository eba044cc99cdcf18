import { ContainerError } from './errors.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A growable little-endian byte buffer. */
export class ByteBuilder {
  #bytes = new Uint8Array(256);
  #view = new DataView(this.#bytes.buffer);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Bytes it can hold before growing. */
  get capacity(): number {
    return this.#bytes.length;
  }

  /** Empties it, keeping its buffer (a scratch builder reused for many small encodings). */
  clear(): this {
    this.#length = 0;
    return this;
  }

  #reserve(extra: number): void {
    const needed = this.#length + extra;
    if (needed <= this.#bytes.length) return;
    let size = this.#bytes.length * 2;
    while (size < needed) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = bigger;
    this.#view = new DataView(bigger.buffer);
  }

  u8(value: number): this {
    this.#reserve(1);
    this.#view.setUint8(this.#length, value);
    this.#length += 1;
    return this;
  }

  u16(value: number): this {
    this.#reserve(2);
    this.#view.setUint16(this.#length, value, true);
    this.#length += 2;
    return this;
  }

  u32(value: number): this {
    this.#reserve(4);
    this.#view.setUint32(this.#length, value >>> 0, true);
    this.#length += 4;
    return this;
  }

  /** A u64 from a safe integer. */
  u64(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`u64 needs a non-negative safe integer, got ${value}`);
    this.#reserve(8);
    // Two u32 halves: no BigInt per field.
    this.#view.setUint32(this.#length, value >>> 0, true);
    this.#view.setUint32(this.#length + 4, Math.floor(value / 0x1_0000_0000), true);
    this.#length += 8;
    return this;
  }

  bytes(bytes: Uint8Array): this {
    this.#reserve(bytes.length);
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
    return this;
  }

  /** u32 byte length, then the UTF-8 bytes (no terminator). */
  string(text: string): this {
    // Written in place (no array per string): ASCII byte by byte, anything else by encodeInto.
    const n = text.length;
    this.#reserve(4 + n * 3);
    const start = this.#length + 4;
    const bytes = this.#bytes;
    let i = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      bytes[start + i] = c;
    }
    const written = i === n ? n : i + encoder.encodeInto(text.slice(i), bytes.subarray(start + i)).written;
    this.#view.setUint32(this.#length, written, true);
    this.#length = start + written;
    return this;
  }

  /** u32 byte length, then the bytes. */
  blob(bytes: Uint8Array): this {
    return this.u32(bytes.length).bytes(bytes);
  }

  /** Overwrites a u32 written earlier. */
  patchU32(at: number, value: number): void {
    this.#view.setUint32(at, value >>> 0, true);
  }

  finish(): Uint8Array {
    return this.#bytes.slice(0, this.#length);
  }

  /** The bytes so far without a copy: valid until the builder is changed or cleared. */
  view(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }
}

/**
 * Reads little-endian fields from a region of a file held in memory, with bounds checks: every
 * read names what it expected, and errors carry the absolute file offset.
 */
export class ByteCursor {
  #view: DataView;
  #pos = 0;

  constructor(
    readonly data: Uint8Array,
    /** File offset of `data[0]`. */
    readonly base: number,
    readonly file: string,
    /** The region, for messages: `metadata of image 3`, `index`, … */
    readonly region: string,
  ) {
    this.#view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get position(): number {
    return this.#pos;
  }

  get remaining(): number {
    return this.data.length - this.#pos;
  }

  /** Absolute file offset of the next byte. */
  get offset(): number {
    return this.base + this.#pos;
  }

  error(reason: string, at: number = this.offset): ContainerError {
    return new ContainerError(reason, this.file, at);
  }

  #need(count: number, what: string): void {
    if (count > this.remaining) {
      throw this.error(
        `${this.region}: expected ${what} (${count} byte${count === 1 ? '' : 's'}), but only ${this.remaining} byte${this.remaining === 1 ? '' : 's'} of the ${this.region} remain`,
      );
    }
  }

  u8(what: string): number {
    this.#need(1, what);
    return this.#view.getUint8(this.#pos++);
  }

  u16(what: string): number {
    this.#need(2, what);
    const value = this.#view.getUint16(this.#pos, true);
    this.#pos += 2;
    return value;
  }

  u32(what: string): number {
    this.#need(4, what);
    const value = this.#view.getUint32(this.#pos, true);
    this.#pos += 4;
    return value;
  }

  /** A u64 that must fit a safe integer (offsets, lengths, bit counts). */
  u64(what: string): number {
    this.#need(8, what);
    const at = this.offset;
    const value = this.#view.getBigUint64(this.#pos, true);
    this.#pos += 8;
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw this.error(`${this.region}: ${what} ${value} is too large`, at);
    return Number(value);
  }

  bytes(count: number, what: string): Uint8Array {
    this.#need(count, what);
    const out = this.data.subarray(this.#pos, this.#pos + count);
    this.#pos += count;
    return out;
  }

  /** A u32 length, then that many bytes (copied). */
  blob(what: string): Uint8Array {
    const length = this.u32(`the length of ${what}`);
    return this.bytes(length, what).slice();
  }

  /** A u32 length, then UTF-8 text without NUL. */
  string(what: string): string {
    const length = this.u32(`the length of ${what}`);
    const at = this.offset;
    const raw = this.bytes(length, what);
    let text: string;
    try {
      text = decoder.decode(raw);
    } catch {
      throw this.error(`${this.region}: ${what} is not valid UTF-8`, at);
    }
    if (text.includes('\0')) throw this.error(`${this.region}: ${what} contains NUL`, at + raw.indexOf(0));
    return text;
  }

  /** Checks the region is fully consumed. */
  end(): void {
    if (this.remaining !== 0) {
      throw this.error(`${this.region}: expected its end, found ${this.remaining} more byte${this.remaining === 1 ? '' : 's'}`);
    }
  }
}

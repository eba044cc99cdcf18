import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let tempCounter = 0;

/** How text is turned into bytes: `latin1` keeps one byte per char (the IR printer's strings). */
export type TextEncoding = 'utf8' | 'latin1';

export interface AtomicFileOptions {
  /** File mode of a newly created file (default 0o666 before umask). */
  readonly mode?: number;
  /**
   * Flush the data to disk before the rename (fsync), so the new file survives a power loss too.
   * Off by default, as in LLVM's tools: the rename alone already keeps readers and crashed runs
   * from seeing half a file, and an fsync per file makes a split into thousands of files slow.
   */
  readonly durable?: boolean;
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
}

/**
 * Whether `path` exists and is neither a regular file nor a directory (`/dev/null`, a FIFO, a
 * terminal): such a target is written in place, as LLVM's tools write it. A file renamed over it
 * would replace the device or pipe itself (and outside a writable directory, such as `/dev`, the
 * temporary file cannot be made at all).
 */
function isSpecialTarget(path: string): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats !== undefined && !stats.isFile() && !stats.isDirectory();
}

/** A file-system error about the temporary file, retold about the target the user named. */
function aboutTarget(error: unknown, temp: string, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (e !== null && typeof e === 'object' && e.path === temp) {
    e.path = path;
    e.message = e.message.split(temp).join(path);
  }
  return error;
}

/**
 * A file written through a temporary file beside its target: `commit` renames it over the target,
 * `discard` removes it, so readers never see a half-written file and a failure keeps the old one.
 * A target that exists and is no regular file or directory (a device such as `/dev/null`, a FIFO)
 * is written in place: `temp` is the target itself, and commit and discard only close it.
 */
export class AtomicFile {
  /** Where the bytes go until `commit`: a temporary file, or the target when it is written in place. */
  readonly temp: string;
  private fd: number | null;
  private readonly durable: boolean;
  private readonly inPlace: boolean;
  /** Bytes written so far. */
  position = 0;

  constructor(readonly path: string, options: AtomicFileOptions = {}) {
    this.inPlace = isSpecialTarget(path);
    this.temp = this.inPlace ? path : tempPathFor(path);
    try {
      this.fd = openSync(this.temp, 'w', options.mode);
    } catch (error) {
      throw aboutTarget(error, this.temp, path);
    }
    this.durable = options.durable === true && !this.inPlace;
  }

  write(data: Uint8Array | string, encoding: TextEncoding = 'utf8'): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, encoding) : data;
    const fd = this.openFd();
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    this.position += bytes.length;
  }

  /** Overwrites bytes written earlier, at `offset` (`position` stays where it is). */
  writeAt(offset: number, data: Uint8Array): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + data.length > this.position) {
      throw new RangeError(`${this.path}: writeAt(${offset}, ${data.length} bytes) is outside the ${this.position} bytes written`);
    }
    const fd = this.openFd();
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done, offset + done);
  }

  /** Renames over the target (after an fsync when durable); on failure the temporary file is removed. */
  commit(): void {
    const fd = this.openFd();
    this.fd = null;
    try {
      if (this.durable) fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(this.temp, { force: true });
      throw error;
    }
    closeSync(fd);
    if (this.inPlace) return;
    try {
      renameSync(this.temp, this.path);
    } catch (error) {
      rmSync(this.temp, { force: true });
      throw aboutTarget(error, this.temp, this.path);
    }
  }

  /** Drops everything written; the target is untouched. Safe to call after a failed commit. */
  discard(): void {
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
    if (!this.inPlace) rmSync(this.temp, { force: true });
  }

  private openFd(): number {
    if (this.fd === null) throw new Error(`${this.path}: atomic file already committed or discarded`);
    return this.fd;
  }
}

/** Writes `produce`'s output to `path` atomically; if `produce` throws, the target is untouched. */
export function writeFileAtomicWith(path: string, produce: (file: AtomicFile) => void, options?: AtomicFileOptions): void {
  const file = new AtomicFile(path, options);
  try {
    produce(file);
  } catch (error) {
    file.discard();
    throw error;
  }
  file.commit();
}

/** Writes `data` to `path` atomically (strings as UTF-8 unless `encoding` says otherwise). */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicFileOptions & { readonly encoding?: TextEncoding } = {},
): void {
  if (options.durable === true || isSpecialTarget(path)) {
    writeFileAtomicWith(path, (file) => file.write(data, options.encoding), options);
    return;
  }
  // One write call: the common case for the many small files of a split.
  const temp = tempPathFor(path);
  try {
    writeFileSync(temp, typeof data === 'string' ? Buffer.from(data, options.encoding ?? 'utf8') : data, { mode: options.mode });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw aboutTarget(error, temp, path);
  }
}

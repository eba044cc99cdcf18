import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let tempCounter = 0;

/** How text is turned into bytes: `latin1` keeps one byte per char (the IR printer's strings). */
export type TextEncoding = 'utf8' | 'latin1';

export interface AtomicFileOptions {
  /** File mode of a newly created file (default 0o666 before umask). */
  readonly mode?: number;
}

/**
 * A file written through a temporary file beside its target: `commit` renames it over the target,
 * `discard` removes it, so readers never see a half-written file and a failure keeps the old one.
 */
export class AtomicFile {
  readonly temp: string;
  private fd: number | null;
  /** Bytes written so far. */
  position = 0;

  constructor(readonly path: string, options: AtomicFileOptions = {}) {
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
    this.fd = openSync(this.temp, 'w', options.mode);
  }

  write(data: Uint8Array | string, encoding: TextEncoding = 'utf8'): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, encoding) : data;
    const fd = this.openFd();
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    this.position += bytes.length;
  }

  /** Flushes to disk and renames over the target; on failure the temporary file is removed. */
  commit(): void {
    const fd = this.openFd();
    this.fd = null;
    try {
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(this.temp, { force: true });
      throw error;
    }
    closeSync(fd);
    try {
      renameSync(this.temp, this.path);
    } catch (error) {
      rmSync(this.temp, { force: true });
      throw error;
    }
  }

  /** Drops everything written; the target is untouched. Safe to call after a failed commit. */
  discard(): void {
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
    rmSync(this.temp, { force: true });
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
  writeFileAtomicWith(path, (file) => file.write(data, options.encoding), options);
}

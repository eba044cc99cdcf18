import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Streams a command writes to; tests pass in-memory sinks. */
export interface CliIO {
  readonly stdout: { write(chunk: string | Uint8Array): unknown };
  readonly stderr: { write(chunk: string): unknown };
  /** Reads standard input fully (for `-` or no input file). */
  readonly readStdin: () => Promise<Buffer>;
  /** Whether stdout is a terminal (binary output refused, progress shown). */
  readonly stdoutIsTTY: boolean;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    stdoutIsTTY: process.stdout.isTTY === true,
  };
}

let tempCounter = 0;

/**
 * Writes a file atomically: the bytes go to a temporary file beside the target, which is then
 * renamed over it, so a reader never sees a half-written file and a failure leaves the old one.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    if (typeof data === 'string') writeSync(fd, data, null, 'utf8');
    else writeSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Reads an input file, or stdin for `-`. */
export async function readInput(path: string, io: CliIO): Promise<Buffer> {
  return path === '-' ? io.readStdin() : readFileSync(path);
}

/**
 * Writes a file atomically from chunks produced by `produce` (streamed to a temporary file beside
 * the target, then renamed), so large outputs are never held in memory whole.
 */
export function writeFileAtomicStreaming(path: string, produce: (write: (chunk: Uint8Array) => void) => void): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    produce((chunk) => {
      let off = 0;
      while (off < chunk.length) off += writeSync(fd, chunk, off);
    });
    fsyncSync(fd);
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

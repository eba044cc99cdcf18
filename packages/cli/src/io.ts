import { readFileSync } from 'node:fs';
import { writeFileAtomicWith } from '@syclkit/formats';

export { writeFileAtomic } from '@syclkit/formats';

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

/** Reads an input file, or stdin for `-`. */
export async function readInput(path: string, io: CliIO): Promise<Buffer> {
  return path === '-' ? io.readStdin() : readFileSync(path);
}

/**
 * Writes a file atomically from chunks produced by `produce` (streamed to a temporary file beside
 * the target, then renamed), so large outputs are never held in memory whole.
 */
export function writeFileAtomicStreaming(path: string, produce: (write: (chunk: Uint8Array) => void) => void): void {
  writeFileAtomicWith(path, (file) => produce((chunk) => file.write(chunk)));
}

/**
 * Test helpers for the driver commands: run `syclkit` in memory, a scratch directory, and the
 * demo's sample program written to files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../src/io.js';
import { main } from '../src/main.js';
import { SAMPLE_UNITS } from '../src/driver/sample.js';

export interface RunResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export function memoryIO(): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string | Uint8Array) => (out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1')) },
    stderr: { write: (chunk: string) => (err += chunk) },
    readStdin: async () => Buffer.alloc(0),
    stdoutIsTTY: false,
    out: () => out,
    err: () => err,
  };
}

/** Runs `syclkit <argv>` in memory. */
export async function syclkit(...argv: string[]): Promise<RunResult> {
  const io = memoryIO();
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** A scratch directory; `cleanup` removes it. */
export function scratch(prefix: string): { dir: string; path: (name: string) => string; file: (name: string, content: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `syclkit-${prefix}-`));
  return {
    dir,
    path: (name) => join(dir, name),
    file: (name, content) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Writes the sample's translation units into `dir`; returns their paths in link order. */
export function writeSample(dir: string): string[] {
  return SAMPLE_UNITS.map((unit) => {
    const path = join(dir, unit.file);
    writeFileSync(path, unit.text);
    return path;
  });
}

/** `_ZTS13ScaleVelocity` and friends. */
export { SAMPLE_KERNELS } from '../src/driver/sample.js';


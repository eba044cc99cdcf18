/** Helpers for the command tests: run `syclkit` in memory and make scratch directories. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../src/io.js';
import { main } from '../src/main.js';

/** A CliIO that collects stdout/stderr as strings and serves `stdin` to commands that read it. */
export function memoryIO(stdin = ''): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string | Uint8Array) => (out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1')) },
    stderr: { write: (chunk: string) => (err += chunk) },
    readStdin: async () => Buffer.from(stdin, 'latin1'),
    stdoutIsTTY: false,
    out: () => out,
    err: () => err,
  };
}

/** Runs `syclkit <argv...>` in process; returns the exit code and what it wrote. */
export async function runSyclkit(argv: readonly string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO(stdin);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** A fresh temporary directory and a function that removes it (call it from `afterAll`). */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `syclkit-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

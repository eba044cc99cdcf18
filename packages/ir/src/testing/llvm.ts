/**
 * Locating LLVM 16 tools for differential tests (skipped when the tools are not installed).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const LLVM16_BIN = process.env['LLVM16_BIN'] ?? '/usr/lib/llvm-16/bin';

export function llvmTool(name: string): string | undefined {
  const path = `${LLVM16_BIN}/${name}`;
  return existsSync(path) ? path : undefined;
}

/** Runs a tool; stdout decoded as latin1 (IR bytes map one-to-one to chars). */
export function runTool(path: string, args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(path, args, { input: input === undefined ? undefined : Buffer.from(input, 'latin1'), maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout?.toString('latin1') ?? '', stderr: r.stderr?.toString('utf8') ?? '' };
}

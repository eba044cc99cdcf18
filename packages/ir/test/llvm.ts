/**
 * Locating LLVM 16 tools for differential tests (skipped when the tools are not installed).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const LLVM16_BIN = process.env['LLVM16_BIN'] ?? '/usr/lib/llvm-16/bin';
/** LLVM 14: the oracle for typed-pointer IR (it reads and prints `i32*`). */
export const LLVM14_BIN = process.env['LLVM14_BIN'] ?? '/usr/lib/llvm-14/bin';

/** An LLVM 16 tool (LLVM 14 when `version` is 14), or undefined when it is not installed. */
export function llvmTool(name: string, version: 14 | 16 = 16): string | undefined {
  const path = `${version === 14 ? LLVM14_BIN : LLVM16_BIN}/${name}`;
  return existsSync(path) ? path : undefined;
}

/** Runs a tool; stdout decoded as latin1 (IR bytes map one-to-one to chars). */
export function runTool(path: string, args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(path, args, { input: input === undefined ? undefined : Buffer.from(input, 'latin1'), maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout?.toString('latin1') ?? '', stderr: r.stderr?.toString('utf8') ?? '' };
}

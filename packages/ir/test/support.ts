import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** LLVM 16 tool path if installed (the printer's oracle), else undefined. */
export function llvm16(tool: string): string | undefined {
  const p = `/usr/lib/llvm-16/bin/${tool}`;
  return existsSync(p) ? p : undefined;
}

/** LLVM 14 tool path if installed: the oracle for typed-pointer IR (it prints `i32*`). */
export function llvm14(tool: string): string | undefined {
  const p = `/usr/lib/llvm-14/bin/${tool}`;
  return existsSync(p) ? p : undefined;
}

/** LLVM 15 tool path if installed: the reader `printModule(m, { llvmVersion: 15 })` writes for. */
export function llvm15(tool: string): string | undefined {
  const p = `/usr/lib/llvm-15/bin/${tool}`;
  return existsSync(p) ? p : undefined;
}

export function llvm19(tool: string): string | undefined {
  const p = `/usr/lib/llvm-19/bin/${tool}`;
  return existsSync(p) ? p : undefined;
}

/** intel/llvm's lit tests beside the checkout (`../shared/conformance/intel-llvm`), if present. */
export const corpusRoot = resolve(import.meta.dirname, '../../../../shared/conformance/intel-llvm/llvm/test');

export function corpusFiles(): string[] {
  if (!existsSync(corpusRoot)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ll')) out.push(p);
    }
  };
  walk(corpusRoot);
  return out;
}

/** Runs an LLVM tool, returning stdout as latin1, or undefined when it fails. */
export function run(tool: string, args: readonly string[], input?: string, cwd?: string): string | undefined {
  try {
    return execFileSync(tool, args, { cwd, input: input === undefined ? undefined : Buffer.from(input, 'latin1'), stdio: ['pipe', 'pipe', 'ignore'], maxBuffer: 1 << 28 }).toString('latin1');
  } catch {
    return undefined;
  }
}

export const fixtures = resolve(import.meta.dirname, 'fixtures');

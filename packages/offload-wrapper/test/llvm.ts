import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** LLVM 16's tools, when installed (Debian llvm-16). Tests that need them skip with this reason. */
export const LLVM16_BIN = '/usr/lib/llvm-16/bin';
export const llvmAs16 = existsSync(`${LLVM16_BIN}/llvm-as`) ? `${LLVM16_BIN}/llvm-as` : undefined;
export const llvmDis16 = existsSync(`${LLVM16_BIN}/llvm-dis`) ? `${LLVM16_BIN}/llvm-dis` : undefined;
export const llc16 = existsSync(`${LLVM16_BIN}/llc`) ? `${LLVM16_BIN}/llc` : undefined;
export const LLVM16_MISSING = `LLVM 16 is not installed (${LLVM16_BIN}/llvm-as); apt-get install llvm-16 to run this test`;

/** `llvm-as` then `llvm-dis` (LLVM 16): how LLVM itself prints a module; throws with llvm-as's message. */
export function llvmRoundTrip(text: string): string {
  const bitcode = execFileSync(llvmAs16!, ['-o', '-', '-'], { input: text, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  return execFileSync(llvmDis16!, ['-o', '-', '-'], { input: bitcode, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString('latin1');
}

/** Drops the `; ModuleID = ...` line, which names the input file. */
export function withoutModuleId(text: string): string {
  return text.replace(/^; ModuleID = .*\n/, '');
}

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Finds an LLVM tool: `$SYCLKIT_LLVM_BIN`, then Debian's versioned directories (16 first: it is
 * the version our printer matches), then the PATH.
 */
export function findLlvmTool(name: string): string | undefined {
  const dirs = [process.env['SYCLKIT_LLVM_BIN'], '/usr/lib/llvm-16/bin', '/usr/lib/llvm-19/bin', ...(process.env['PATH'] ?? '').split(delimiter)];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Bitcode files start with `BC 0xC0DE`, or with the wrapper magic `0x0B17C0DE`. */
export function isBitcode(bytes: Uint8Array): boolean {
  return (
    (bytes[0] === 0x42 && bytes[1] === 0x43 && bytes[2] === 0xc0 && bytes[3] === 0xde) ||
    (bytes[0] === 0xde && bytes[1] === 0xc0 && bytes[2] === 0x17 && bytes[3] === 0x0b)
  );
}

export class MissingToolError extends Error {
  override readonly name = 'MissingToolError';
}

/** Runs an LLVM tool with `input` on stdin, returning stdout; errors carry the tool's stderr. */
export function runLlvmTool(name: string, args: readonly string[], input: Uint8Array | string, why: string): Buffer {
  const tool = findLlvmTool(name);
  if (tool === undefined) {
    throw new MissingToolError(`${why} needs LLVM's '${name}', which is not installed (apt-get install -y llvm-16; or set SYCLKIT_LLVM_BIN)`);
  }
  try {
    return execFileSync(tool, args, { input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    throw new Error(`${name} failed: ${e.stderr?.toString().trim() || e.message}`);
  }
}

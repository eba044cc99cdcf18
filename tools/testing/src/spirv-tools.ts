import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The SPIR-V tools of Debian 12 (`llvm-spirv-15`, `llvm-15`, `spirv-tools`), when installed. Tests
 * that translate or validate SPIR-V skip with `SPIRV_TOOLS_MISSING` when one is absent.
 */
export interface SpirvTools {
  /** llvm-spirv (LLVM 15). */
  readonly translator: string;
  /** llvm-as of the same LLVM. */
  readonly assembler: string;
  /** spirv-val. */
  readonly validator: string;
}

function first(paths: readonly string[]): string | undefined {
  return paths.find((path) => existsSync(path));
}

const translator = first(['/usr/bin/llvm-spirv-15', '/usr/lib/llvm-15/bin/llvm-spirv']);
const assembler = first(['/usr/lib/llvm-15/bin/llvm-as', '/usr/bin/llvm-as-15']);
const validator = first(['/usr/bin/spirv-val']);

export const SPIRV_TOOLS: SpirvTools | undefined =
  translator !== undefined && assembler !== undefined && validator !== undefined ? { translator, assembler, validator } : undefined;

/** Why SPIR-V tests skip. */
export const SPIRV_TOOLS_MISSING = `needs ${[
  translator === undefined ? 'llvm-spirv-15' : undefined,
  assembler === undefined ? 'llvm-15' : undefined,
  validator === undefined ? 'spirv-tools' : undefined,
]
  .filter((name) => name !== undefined)
  .join(', ') || 'nothing'} (apt-get install llvm-spirv-15 llvm-15 spirv-tools, or bash scripts/setup-llvm.sh)`;

/** The environment DPC++'s SPIR-V is validated for (llvm-spirv -spirv-max-version=1.4). */
export const SPIRV_VAL_ENV = 'spv1.4';

/** spirv-val's complaint about a module, or undefined when it is valid. Needs `SPIRV_TOOLS`. */
export function spirvValErrors(bytes: Uint8Array): string | undefined {
  if (SPIRV_TOOLS === undefined) throw new Error(`spirvValErrors ${SPIRV_TOOLS_MISSING}`);
  try {
    execFileSync(SPIRV_TOOLS.validator, ['--target-env', SPIRV_VAL_ENV, '-'], { input: bytes, stdio: ['pipe', 'pipe', 'pipe'] });
    return undefined;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    return `${stderr?.toString('utf8') ?? ''}${stdout?.toString('utf8') ?? ''}`.trim() || (error as Error).message;
  }
}

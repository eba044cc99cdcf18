/**
 * The tools a test's RUN lines find on PATH: a shim directory that goes first on PATH, holding
 * `opt`, `sycl-post-link`, `sycl-module-split`, `llvm-split` and `llc` scripts that run `syclkit <command>`, and
 * symlinks to everything else in the chosen LLVM bin directory (`FileCheck`, `not`, `count`,
 * `llvm-as`, `llvm-dis`, ...). `--tool-map name=<command>` replaces any of them.
 */
import { accessSync, chmodSync, constants, existsSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Corpus tool name → syclkit subcommand. */
export const SYCLKIT_TOOLS: Readonly<Record<string, string>> = {
  opt: 'opt',
  'sycl-post-link': 'post-link',
  'sycl-module-split': 'module-split',
  // intel/llvm's llvm-split; only its -sycl-split mode is used by the corpus
  'llvm-split': 'llvm-split',
  // intel/llvm's llc runs the SYCL NVPTX/AMDGPU passes before LLVM's code generation
  llc: 'llc',
};

/** Searched in order when `--llvm-bin` is not given: newest first, so 19 wins over 16. */
export const DEFAULT_LLVM_BIN_DIRS: readonly string[] = [19, 18, 17, 16, 15, 14].map((v) => `/usr/lib/llvm-${v}/bin`);

/** The tools every test needs from LLVM. */
export const REQUIRED_LLVM_TOOLS = ['FileCheck', 'not'] as const;

/** The environment cannot run tests (no LLVM, bad paths); the message says what to do. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function hasRequiredTools(dir: string): boolean {
  return REQUIRED_LLVM_TOOLS.every((tool) => isExecutable(join(dir, tool)));
}

const INSTALL_HINT = 'install LLVM with: apt-get install -y llvm-16-tools llvm-16 llvm-19 (or pass --llvm-bin <dir>)';

/**
 * The LLVM bin directory to take FileCheck, not, ... from: `explicit` if given (it must hold
 * them), else the first of `candidates` that does, else the directory of `FileCheck` on PATH.
 */
export function findLlvmBin(explicit: string | undefined, candidates: readonly string[] = DEFAULT_LLVM_BIN_DIRS, path = process.env['PATH'] ?? ''): string {
  if (explicit !== undefined) {
    if (!existsSync(explicit)) throw new EnvironmentError(`--llvm-bin ${explicit}: no such directory`);
    const missing = REQUIRED_LLVM_TOOLS.filter((tool) => !isExecutable(join(explicit, tool)));
    if (missing.length > 0) throw new EnvironmentError(`--llvm-bin ${explicit}: no executable ${missing.join(', ')} there; ${INSTALL_HINT}`);
    return explicit;
  }
  for (const dir of candidates) if (hasRequiredTools(dir)) return dir;
  for (const dir of path.split(delimiter)) if (dir !== '' && hasRequiredTools(dir)) return dir;
  throw new EnvironmentError(`LLVM FileCheck and not were not found in ${candidates.join(', ')} or on PATH; ${INSTALL_HINT}`);
}

/** `--tool-map name=<command>` entries; the command is a shell command line. */
export type ToolMap = ReadonlyMap<string, string>;

export const TOOL_NAME = /^[A-Za-z0-9._+-]+$/;

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface ShimOptions {
  readonly llvmBin: string;
  /** `packages/cli/bin/syclkit.js`. */
  readonly syclkitBin: string;
  /** The node executable that runs syclkit. */
  readonly nodePath: string;
  readonly toolMap: ToolMap;
}

function writeScript(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** Fills `dir` (empty) with the shims and symlinks; returns the tool names it provides. */
export function createShimDir(dir: string, options: ShimOptions): string[] {
  const provided = new Set<string>();
  for (const [name, command] of options.toolMap) {
    writeScript(join(dir, name), `exec ${command} "$@"`);
    provided.add(name);
  }
  for (const [name, subcommand] of Object.entries(SYCLKIT_TOOLS)) {
    if (provided.has(name)) continue;
    writeScript(join(dir, name), `exec ${shellQuote(options.nodePath)} ${shellQuote(options.syclkitBin)} ${subcommand} "$@"`);
    provided.add(name);
  }
  for (const entry of readdirSync(options.llvmBin).sort()) {
    if (provided.has(entry)) continue;
    const target = join(options.llvmBin, entry);
    if (!isExecutable(target)) continue;
    symlinkSync(target, join(dir, entry));
    provided.add(entry);
  }
  return [...provided].sort();
}

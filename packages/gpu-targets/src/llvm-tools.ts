/**
 * Finding and running LLVM 16's code generation tools (`llc`, `ld.lld`, `llvm-readobj`): the
 * version syclkit prints IR for. Tools are looked for in `$SYCLKIT_LLVM_BIN`, Debian's
 * `/usr/lib/llvm-16/bin`, then as `<name>-16` on the `PATH` (never as a bare `<name>`, which may be
 * a wrapper such as the conformance runner's `llc` shim that calls syclkit itself).
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type LlvmToolName = 'llc' | 'ld.lld' | 'llvm-readobj' | 'opt' | 'llvm-as' | 'llvm-dis' | 'llvm-objdump';

/** The apt package that provides each tool on Debian/Ubuntu (for error messages). */
export const LLVM_TOOL_PACKAGES: Readonly<Record<LlvmToolName, string>> = {
  llc: 'llvm-16',
  'ld.lld': 'lld-16',
  'llvm-readobj': 'llvm-16',
  opt: 'llvm-16',
  'llvm-as': 'llvm-16',
  'llvm-dis': 'llvm-16',
  'llvm-objdump': 'llvm-16',
};

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where LLVM 16's `name` is, or `undefined` when it is not installed. */
export function findLlvmTool(name: LlvmToolName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [env['SYCLKIT_LLVM_BIN'], '/usr/lib/llvm-16/bin'].filter((d): d is string => d !== undefined && d !== '');
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, `${name}-16`);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** A tool that is needed and missing, or that failed. */
export class LlvmToolError extends Error {
  override readonly name = 'LlvmToolError';
  constructor(
    message: string,
    /** The tool's exit status, or the signal that ended it. */
    readonly status?: number | string,
  ) {
    super(message);
  }
}

/** Like {@link findLlvmTool}, throwing an error that says how to install it. */
export function requireLlvmTool(name: LlvmToolName, purpose: string, env: NodeJS.ProcessEnv = process.env): string {
  const tool = findLlvmTool(name, env);
  if (tool !== undefined) return tool;
  throw new LlvmToolError(
    `${purpose} needs LLVM 16's ${name}, which is not installed (looked in $SYCLKIT_LLVM_BIN, /usr/lib/llvm-16/bin and for ${name}-16 on PATH); install it with: apt-get install -y ${LLVM_TOOL_PACKAGES[name]}`,
  );
}

export interface ToolRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs a tool to completion with `input` on stdin (asynchronously, so several can run at once). */
export function runTool(tool: string, args: readonly string[], input?: string | Uint8Array): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => undefined); // a tool that exits early closes its stdin
    child.stdin.end(input ?? '');
  });
}

/** {@link runTool}, synchronously (for command-line drop-ins that pass streams through). */
export function runToolSync(tool: string, args: readonly string[], input?: string | Uint8Array): ToolRun {
  const r = spawnSync(tool, args, { input: input ?? '', maxBuffer: 1 << 30 });
  if (r.error !== undefined) throw new LlvmToolError(`could not run ${tool}: ${r.error.message}`);
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** The first lines of a failed tool's stderr, for error messages. */
export function describeFailure(tool: string, run: ToolRun): string {
  const status = run.signal !== null ? `killed by ${run.signal}` : `exit status ${run.status ?? '?'}`;
  const detail = run.stderr
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\s*#\d+ 0x/.test(l) && !l.startsWith('Stack dump') && !l.startsWith('PLEASE submit'))
    .slice(0, 6)
    .join('\n');
  return `${tool} failed (${status})${detail === '' ? '' : `:\n${detail}`}`;
}

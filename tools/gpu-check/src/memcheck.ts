/**
 * When a launch faults on the GPU (CUDA_ERROR_ILLEGAL_ADDRESS and its kin), gpu-check runs the
 * same child process again under `compute-sanitizer --tool memcheck`, which names the kernel, the
 * kind of access (`Invalid __local__ write of size 4`), the thread and block and the address, and
 * keeps its report: the next run diagnoses itself instead of only saying that something faulted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Driver errors that mean the kernel itself faulted (the context is lost after them). */
const FAULTS = /CUDA_ERROR_(ILLEGAL_ADDRESS|MISALIGNED_ADDRESS|ILLEGAL_INSTRUCTION|HARDWARE_STACK_ERROR|INVALID_PC|INVALID_ADDRESS_SPACE|LAUNCH_FAILED|ASSERT|LAUNCH_TIMEOUT)\b/;

/** The CUDA error code in `message` when it is a kernel fault, else undefined. */
export function kernelFault(message: string): string | undefined {
  return FAULTS.exec(message)?.[0];
}

/**
 * compute-sanitizer: `option` when given (false: none), else `$COMPUTE_SANITIZER`,
 * /usr/local/cuda/bin, the PATH, then /usr/local/cuda-* (newest first); the first that answers
 * `--version`.
 */
export function findSanitizer(option?: string | false, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (option === false) return undefined;
  const candidates: string[] = [];
  if (option !== undefined) {
    candidates.push(option);
  } else {
    if (env['COMPUTE_SANITIZER'] !== undefined && env['COMPUTE_SANITIZER'] !== '') candidates.push(env['COMPUTE_SANITIZER']);
    candidates.push('/usr/local/cuda/bin/compute-sanitizer', '/usr/local/cuda/compute-sanitizer/compute-sanitizer');
    for (const dir of (env['PATH'] ?? '').split(delimiter)) if (dir !== '') candidates.push(join(dir, 'compute-sanitizer'));
    try {
      const versions = readdirSync('/usr/local').filter((name) => /^cuda-\d/.test(name)).sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
      for (const name of versions) candidates.push(join('/usr/local', name, 'bin/compute-sanitizer'), join('/usr/local', name, 'compute-sanitizer/compute-sanitizer'));
    } catch {
      // No /usr/local: nothing more to try.
    }
  }
  return candidates.find((candidate) => existsSync(candidate) && spawnSync(candidate, ['--version'], { timeout: 30_000 }).status === 0);
}

/** The lines of a memcheck report that say what happened (the rest is backtraces). */
export function memcheckSummary(report: string, limit = 14): string[] {
  const interesting = /\b(Invalid|out of bounds|Address 0x|is misaligned|by thread|Program hit|ERROR SUMMARY|Uninitialized|Malloc|Leaked|Race reported|Device Frame|Target application returned|No CUDA|not supported|Error:)/i;
  return report
    .split('\n')
    .map((line) => line.replace(/^=+/, '').trim())
    .filter((line) => line !== '' && interesting.test(line))
    .slice(0, limit);
}

export interface MemcheckResult {
  /** The report file (compute-sanitizer's log, then the child's exit status and the end of its stderr). */
  readonly report: string;
  readonly status: number | null;
  readonly summary: readonly string[];
}

/**
 * Runs `node <cli> child <args…>` under compute-sanitizer's memcheck into `report`, for at most
 * `timeoutMs`.
 */
export function runUnderMemcheck(sanitizer: string, cli: string, args: readonly string[], env: Record<string, string>, report: string, timeoutMs: number): MemcheckResult {
  const result = spawnSync(sanitizer, ['--tool', 'memcheck', '--print-limit', '20', '--log-file', report, process.execPath, cli, 'child', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: Math.max(1000, Math.floor(timeoutMs)),
  });
  const log = existsSync(report) ? readFileSync(report, 'utf8') : '';
  const printed = result.stdout === null ? 0 : result.stdout.split('\n').filter((line) => line !== '').length;
  const ending = [
    '',
    `--- gpu-check: ${sanitizer} --tool memcheck node cli.js child ${args.join(' ')}`,
    result.error !== undefined ? `--- stopped: ${result.error.message}` : `--- exit status ${String(result.status)}${result.signal === null ? '' : ` (signal ${result.signal})`}`,
    `--- the child printed ${printed} lines on stdout (device printf, then its JSON); the end of its stderr:`,
    ...(result.stderr ?? '').trim().split('\n').slice(-20),
  ];
  writeFileSync(report, log + ending.join('\n') + '\n');
  const summary = memcheckSummary(log);
  return { report, status: result.status, summary: summary.length > 0 ? summary : [log === '' ? 'compute-sanitizer wrote no report' : 'the report names no error'] };
}

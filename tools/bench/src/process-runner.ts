/**
 * Starts commands as child processes and measures them.
 *
 * Wall time is taken in this process around spawn -> exit. Peak memory (max RSS) and CPU time
 * (user + system) come from GNU time (`/usr/bin/time -f '%M %U %S'`), which reads the child's
 * rusage from wait4() when it is reaped: `ru_maxrss` is the kernel's own high-water mark, exact
 * for the whole life of the process, and the CPU times count every thread of the process (a
 * JavaScript engine compiles and collects garbage on threads beside the main one). Node has
 * no API for a child's rusage, and sampling `/proc/<pid>/status` is not a substitute: VmHWM can
 * only be read while the process is alive, so the last sample can miss the peak reached after
 * it, and once the process has exited its `/proc` entry no longer has memory information. Without
 * GNU time the harness reports max RSS and CPU time as "n/a". The wrapper adds the same ~1 ms fork/exec to
 * every command, so it does not bias the ratios.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Runner, RunOutcome } from './harness.js';

export type MemoryProbe = { readonly kind: 'gnu-time'; readonly path: string } | { readonly kind: 'none'; readonly reason: string };

export const gnuTimePath = '/usr/bin/time';

/** GNU time's report: max RSS in KiB, then user and system CPU seconds. */
const TIME_FORMAT = '%M %U %S';

/** Uses GNU time when it is installed and behaves as expected (prints its report into `-o FILE`). */
export function detectMemoryProbe(path = gnuTimePath): MemoryProbe {
  if (!isExecutable(path)) return { kind: 'none', reason: `${path} not found (Debian/Ubuntu package 'time')` };
  const dir = mkdtempSync(join(tmpdir(), 'syclkit-bench-probe-'));
  try {
    const out = join(dir, 'rss');
    const r = spawnSync(path, ['-f', TIME_FORMAT, '-o', out, process.execPath, '-e', ''], { stdio: 'ignore', timeout: 10_000 });
    const usage = r.status === 0 ? parseResourceUsage(readFileSync(out, 'utf8')) : null;
    if (usage === null || usage.maxRssKb <= 0) return { kind: 'none', reason: `${path} is not GNU time (-f '${TIME_FORMAT}' -o FILE did not give its report)` };
    return { kind: 'gnu-time', path };
  } catch {
    return { kind: 'none', reason: `${path} could not be run` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ResourceUsage {
  readonly maxRssKb: number;
  /** User plus system CPU time, in ms (GNU time reports hundredths of a second). */
  readonly cpuMs: number;
}

/**
 * What GNU time wrote with `-f '%M %U %S'`: its last line. Before it GNU time may write "Command
 * exited with non-zero status N" or "Command terminated by signal N".
 */
export function parseResourceUsage(text: string): ResourceUsage | null {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const m = /^(\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(lines[lines.length - 1] ?? '');
  if (m === null) return null;
  // whole hundredths, so 0.29 + 0.01 is 300 ms and not 299.99999999999994
  return { maxRssKb: Number(m[1]), cpuMs: Math.round((Number(m[2]) + Number(m[3])) * 100) * 10 };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds `command` the way a shell would (absolute/relative paths as given, else `PATH`). */
export function resolveExecutable(command: string, envPath = process.env['PATH'] ?? ''): string | undefined {
  if (command.includes('/') || isAbsolute(command)) return isExecutable(command) ? command : undefined;
  for (const dir of envPath.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

const stderrLimit = 8192;

export function createProcessRunner(probe: MemoryProbe): Runner {
  return async (argv, { timeoutMs }) => {
    const [command, ...args] = argv;
    if (command === undefined) return notRun('empty command');
    const executable = resolveExecutable(command);
    if (executable === undefined) return notRun(`command not found: ${command}`);
    const rssDir = probe.kind === 'gnu-time' ? mkdtempSync(join(tmpdir(), 'syclkit-bench-rss-')) : undefined;
    const rssFile = rssDir !== undefined ? join(rssDir, 'rss') : undefined;
    const [file, fileArgs] =
      probe.kind === 'gnu-time' ? [probe.path, ['-f', TIME_FORMAT, '-o', rssFile!, '--', executable, ...args]] : [executable, args];
    try {
      return await new Promise<RunOutcome>((resolve) => {
        let stderr = '';
        let timedOut = false;
        const start = process.hrtime.bigint();
        // Own process group, so a timeout can stop the command and anything it started.
        const child = spawn(file, fileArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (chunk: string) => {
          stderr = (stderr + chunk).slice(-stderrLimit);
        });
        const timer = setTimeout(() => {
          timedOut = true;
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        }, timeoutMs);
        child.on('error', (error) => {
          clearTimeout(timer);
          resolve({ wallMs: 0, exitCode: null, signal: null, maxRssKb: null, cpuMs: null, stderrTail: stderr, error: `could not start ${command}: ${error.message}` });
        });
        let wallMs = 0;
        child.on('exit', () => {
          wallMs = Number(process.hrtime.bigint() - start) / 1e6;
          clearTimeout(timer);
        });
        // 'close' comes after 'exit' once stderr is drained, so the report has all of it.
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          let usage: ResourceUsage | null = null;
          if (rssFile !== undefined) {
            try {
              usage = parseResourceUsage(readFileSync(rssFile, 'utf8'));
            } catch {
              usage = null;
            }
          }
          resolve({
            wallMs,
            exitCode: code,
            signal,
            maxRssKb: usage?.maxRssKb ?? null,
            cpuMs: usage?.cpuMs ?? null,
            stderrTail: stderr,
            ...(timedOut ? { error: `timed out after ${(timeoutMs / 1000).toFixed(0)} s` } : {}),
          });
        });
      });
    } finally {
      if (rssDir !== undefined) rmSync(rssDir, { recursive: true, force: true });
    }
  };
}

function notRun(error: string): RunOutcome {
  return { wallMs: 0, exitCode: null, signal: null, maxRssKb: null, cpuMs: null, stderrTail: '', error };
}

/**
 * Runs one lit test the way lit's external-shell mode does: all RUN lines, substituted, in one
 * `bash -c` script with `set -o pipefail`, in order, stopping at the first one that fails. Each
 * RUN line's stdout and stderr go to their own log files so a failure can be reported with the
 * command and what it printed. The test gets a fresh directory: cwd, with `%T` = `Output/`
 * inside it and `%t` = `Output/<test file>.tmp`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, delimiter, join, resolve, sep } from 'node:path';
import { evaluateBooleanExpression } from './boolean-expression.js';
import { writeFileAtomic } from '@syclkit/formats';
import type { ScoredTest } from './scored.js';
import { parseTestScript, ScriptError, type TestScript } from './script.js';
import { applySubstitutions, defaultSubstitutions, type SubstitutedCommand } from './substitute.js';

/**
 * How a test ended. `xfail` (an `XFAIL:` test that failed) counts as passing; `xpass` (an
 * `XFAIL:` test that passed), `timeout` and `unresolved` (lit cannot run it) count as failing.
 */
export type Outcome = 'pass' | 'xfail' | 'fail' | 'xpass' | 'timeout' | 'unresolved' | 'unsupported';

export function isPassing(outcome: Outcome): boolean {
  return outcome === 'pass' || outcome === 'xfail';
}

export function isFailing(outcome: Outcome): boolean {
  return outcome === 'fail' || outcome === 'xpass' || outcome === 'timeout' || outcome === 'unresolved';
}

export interface CommandFailure {
  /** First and last line of the RUN directive in the test file (they differ with continuations). */
  readonly startLine: number;
  readonly endLine: number;
  /** The command after substitution, as run. */
  readonly command: string;
  /** The command's exit status; null when it was killed (timeout). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface TestResult {
  readonly path: string;
  readonly tier: ScoredTest['tier'];
  readonly outcome: Outcome;
  /** Why, in one line, for anything but a plain pass. */
  readonly message?: string;
  /** The RUN line that failed (or was running at the timeout). */
  readonly failure?: CommandFailure;
  readonly durationMs: number;
  /** Kept temporary directory (`--keep-temps`). */
  readonly tempDir?: string;
}

export interface ExecuteOptions {
  readonly corpusDir: string;
  /** Directory of tool shims, put first on PATH. */
  readonly shimDir: string;
  /** A directory path for this test that does not exist yet; it is created and used as cwd. */
  readonly workDir: string;
  readonly timeoutMs: number;
  readonly keepTemps: boolean;
  /** Available lit features; none by default, so every REQUIRES: is unmet. */
  readonly features?: readonly string[];
  /** Base environment (default process.env); PATH gets the shim directory in front. */
  readonly env?: NodeJS.ProcessEnv;
  /** Aborting kills the running script (Ctrl-C); the test then ends as a failure. */
  readonly signal?: AbortSignal;
}

/** Output kept per stream: the head and tail of anything longer. */
const CAPTURE_LIMIT = 256 * 1024;

function capText(text: string, limit = CAPTURE_LIMIT): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n... [${text.length - 2 * half} characters omitted] ...\n${text.slice(-half)}`;
}

function readLog(path: string): string {
  try {
    return capText(readFileSync(path, 'utf8'));
  } catch {
    return '';
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The bash script for `commands`: each RUN line's output logged, stop at the first failure. */
export function buildScript(commands: readonly SubstitutedCommand[], logDir: string): string {
  const lines = ['set -o pipefail'];
  commands.forEach((c, i) => {
    const log = (ext: string): string => shellQuote(join(logDir, `${i + 1}.${ext}`));
    // The newline before `}` keeps a trailing `#` comment in the command from eating the brace.
    lines.push(
      `{ ${c.command === '' ? ':' : c.command}\n} >${log('out')} 2>${log('err')}; ` +
        `__conformance_status=$?; echo "$__conformance_status" >${log('status')}; ` +
        `[ "$__conformance_status" -eq 0 ] || exit "$__conformance_status"`,
    );
  });
  lines.push('exit 0');
  return `${lines.join('\n')}\n`;
}

interface ScriptRun {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** What bash itself printed outside the RUN lines (syntax errors). */
  readonly stderr: string;
}

function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, signal?: AbortSignal): Promise<ScriptRun> {
  return new Promise((resolvePromise, reject) => {
    // Own process group, so a timeout kills the pipeline's children too.
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer): void => {
      if (size < CAPTURE_LIMIT) chunks.push(chunk);
      size += chunk.length;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    signal?.addEventListener('abort', killGroup, { once: true });
    if (signal?.aborted) killGroup();
    child.on('error', (error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', killGroup);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', killGroup);
      resolvePromise({ exitCode: code, timedOut, stderr: capText(Buffer.concat(chunks).toString('utf8')) });
    });
  });
}

/** Which RUN line failed, from the per-line status files the script wrote. */
function locateFailure(commands: readonly SubstitutedCommand[], logDir: string, run: ScriptRun): CommandFailure {
  const describe = (index: number, exitCode: number | null, extraStderr: string): CommandFailure => {
    const c = commands[index]!;
    const stderr = [readLog(join(logDir, `${index + 1}.err`)), extraStderr].filter((s) => s !== '').join('\n');
    return { startLine: c.startLine, endLine: c.endLine, command: c.command, exitCode, stdout: readLog(join(logDir, `${index + 1}.out`)), stderr };
  };
  for (let i = 0; i < commands.length; i++) {
    const statusFile = join(logDir, `${i + 1}.status`);
    if (existsSync(statusFile)) {
      const status = Number.parseInt(readFileSync(statusFile, 'utf8'), 10);
      if (status !== 0) return describe(i, status, run.stderr);
      continue;
    }
    // Started but never finished: it exited the shell or was killed. Never started: bash
    // stopped before it (a syntax error), and said why on its own stderr.
    return describe(i, run.timedOut ? null : run.exitCode, run.stderr);
  }
  const last = commands.length - 1;
  return describe(last, run.exitCode, run.stderr);
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? '';
}

/**
 * A line cut to `max` characters. A tool's diagnostic (`<location>: error: <message>`) loses the
 * start of its location rather than its message, so a long path never hides what went wrong.
 */
export function shortenLine(line: string, max = 160): string {
  if (line.length <= max) return line;
  const marker = /: (?:error|warning|note): /.exec(line);
  if (marker !== null && line.length - marker.index + 3 <= max) return `...${line.slice(line.length - (max - 3))}`;
  return `${line.slice(0, max - 3)}...`;
}

/** Directories a failure's account names paths relative to (see {@link summarizeFailure}). */
export interface SummaryPaths {
  /** The corpus: test ids are relative to it. */
  readonly corpusDir?: string;
  /** The test's work directory, the RUN lines' working directory. */
  readonly workDir?: string;
}

/** `text` with every path under one of `dirs` written relative to it. */
function relativize(text: string, paths: SummaryPaths): string {
  const prefixes = [paths.corpusDir, paths.workDir].filter((d): d is string => d !== undefined).map((d) => resolve(d) + sep);
  prefixes.sort((a, b) => b.length - a.length);
  let out = text;
  for (const prefix of prefixes) out = out.split(prefix).join('');
  return out;
}

/**
 * A one-line account of a failed RUN line, e.g. `RUN at line 3 exited 1: error: ...`: the first
 * line the command wrote, with paths under the corpus or the work directory made relative, so
 * the account reads the same wherever the checkout and the temporary directory are.
 */
export function summarizeFailure(failure: CommandFailure, paths: SummaryPaths = {}): string {
  const where = failure.startLine === failure.endLine ? `line ${failure.startLine}` : `lines ${failure.startLine}-${failure.endLine}`;
  const status = failure.exitCode === null ? 'was killed' : `exited ${failure.exitCode}`;
  const said = shortenLine(relativize(firstLine(failure.stderr) || firstLine(failure.stdout), paths));
  return `RUN at ${where} ${status}${said === '' ? '' : `: ${said}`}`;
}

function featureCheck(script: TestScript, features: readonly string[]): string | undefined {
  const missing = script.requires.filter((e) => !evaluateBooleanExpression(e, features));
  if (missing.length > 0) return `Test requires the following unavailable features: ${missing.join(', ')}`;
  const excluded = script.unsupported.filter((e) => e === '*' || evaluateBooleanExpression(e, features));
  if (excluded.length > 0) return `Test does not support the following features and/or targets: ${excluded.join(', ')}`;
  return undefined;
}

/** Guards the (shared, read-only) corpus: a RUN line such as `-o %s` must not clobber the test. */
function snapshot(path: string): { bytes: Buffer; mode: number } {
  return { bytes: readFileSync(path), mode: statSync(path).mode & 0o7777 };
}

function restoreIfChanged(path: string, before: { bytes: Buffer; mode: number }): string | undefined {
  let now: Buffer | undefined;
  try {
    now = readFileSync(path);
  } catch {
    now = undefined;
  }
  if (now !== undefined && now.equals(before.bytes)) return undefined;
  try {
    writeFileAtomic(path, before.bytes);
    chmodSync(path, before.mode);
    return `the RUN lines ${now === undefined ? 'removed' : 'overwrote'} the test file itself; it was restored`;
  } catch (error) {
    return `the RUN lines ${now === undefined ? 'removed' : 'overwrote'} the test file itself and restoring it failed: ${(error as Error).message}`;
  }
}

/** Runs one corpus test; never throws for problems of the test itself. */
export async function runTest(test: ScoredTest, options: ExecuteOptions): Promise<TestResult> {
  const started = Date.now();
  const features = options.features ?? [];
  const sourcePath = resolve(options.corpusDir, test.path);
  const done = (outcome: Outcome, extra: { message?: string; failure?: CommandFailure; tempDir?: string } = {}): TestResult => ({
    path: test.path,
    tier: test.tier,
    outcome,
    ...extra,
    durationMs: Date.now() - started,
  });

  let text: string;
  try {
    text = readFileSync(sourcePath, 'utf8');
  } catch (error) {
    return done('unresolved', { message: `cannot read ${sourcePath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
  }

  let script: TestScript;
  let expectFailure: boolean;
  try {
    script = parseTestScript(text);
    const unsupported = featureCheck(script, features);
    if (unsupported !== undefined) return done('unsupported', { message: unsupported });
    expectFailure = script.xfails.some((e) => e === '*' || evaluateBooleanExpression(e, features));
  } catch (error) {
    const line = error instanceof ScriptError && error.line !== undefined ? `${test.path}:${error.line}: ` : '';
    return done('unresolved', { message: `${line}${(error as Error).message}` });
  }

  const workDir = options.workDir;
  const tmpDir = join(workDir, 'Output');
  const logDir = join(workDir, '.conformance-log');
  let commands: SubstitutedCommand[];
  try {
    commands = applySubstitutions(script.directives, defaultSubstitutions({ sourcePath, tmpDir, tmpBase: join(tmpDir, basename(sourcePath)) }), features);
  } catch (error) {
    return done('unresolved', { message: (error as Error).message });
  }

  const env = { ...(options.env ?? process.env) };
  env['PATH'] = [options.shimDir, env['PATH'] ?? ''].filter((p) => p !== '').join(delimiter);
  const before = snapshot(sourcePath);

  let outcome: Outcome = 'pass';
  let failure: CommandFailure | undefined;
  let message: string | undefined;
  try {
    for (let attempt = 0; attempt <= script.allowedRetries; attempt++) {
      rmSync(workDir, { recursive: true, force: true });
      mkdirSync(tmpDir, { recursive: true });
      mkdirSync(logDir, { recursive: true });
      const run = await runScript(buildScript(commands, logDir), workDir, env, options.timeoutMs, options.signal);
      const clobbered = restoreIfChanged(sourcePath, before);
      if (run.timedOut) {
        outcome = 'timeout';
        failure = locateFailure(commands, logDir, run);
        message = `timed out after ${options.timeoutMs / 1000} s (${summarizeFailure(failure, { corpusDir: options.corpusDir, workDir })})`;
      } else if (run.exitCode !== 0) {
        outcome = 'fail';
        failure = locateFailure(commands, logDir, run);
        message = summarizeFailure(failure, { corpusDir: options.corpusDir, workDir });
      } else {
        outcome = 'pass';
        failure = undefined;
        message = undefined;
      }
      if (clobbered !== undefined) {
        outcome = 'fail';
        message = message === undefined ? clobbered : `${clobbered}; ${message}`;
      }
      if (outcome !== 'fail') break;
    }
  } catch (error) {
    return done('unresolved', { message: `cannot run bash: ${(error as Error).message}` });
  } finally {
    if (!options.keepTemps) rmSync(workDir, { recursive: true, force: true });
  }

  const tempDir = options.keepTemps ? workDir : undefined;
  const kept = tempDir === undefined ? {} : { tempDir };
  if (expectFailure) {
    if (outcome === 'fail') return done('xfail', { message: `expected failure: ${message ?? ''}`, ...kept });
    if (outcome === 'pass') return done('xpass', { message: 'XFAIL test passed unexpectedly', ...kept });
  }
  return done(outcome, { ...(message === undefined ? {} : { message }), ...(failure === undefined ? {} : { failure }), ...kept });
}

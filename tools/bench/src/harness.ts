/**
 * Runs two or more commands on the same input alternately (A, B, A, B, ...) after warm-up
 * rounds and collects wall times, CPU times and peak memory. How a command is actually started is a
 * `Runner`, so the scheduling and statistics can be tested with scripted outcomes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, pairedRatios, summarize, type Summary } from './stats.js';

export interface CommandSpec {
  readonly label: string;
  /** argv with `{input}` and `{tmp}` placeholders. */
  readonly argv: readonly string[];
  /** Checks a successful run really did its job (e.g. wrote its output); returns a problem or undefined. */
  readonly verify?: (run: { readonly tmpDir: string }) => string | undefined;
  /** Exit statuses that count as success (default: only 0), for commands whose answer is a status. */
  readonly exitCodes?: readonly number[];
}

export interface RunOutcome {
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Peak resident set size in KiB, or null when it cannot be measured. */
  readonly maxRssKb: number | null;
  /** User plus system CPU time of all the process's threads in ms, or null when it cannot be measured. */
  readonly cpuMs: number | null;
  /** The last part of what the command wrote to stderr. */
  readonly stderrTail: string;
  /** Set when the command could not be started or was stopped (not found, timeout). */
  readonly error?: string;
}

export type Runner = (argv: readonly string[], options: { readonly timeoutMs: number }) => Promise<RunOutcome>;

export interface HarnessOptions {
  readonly runs: number;
  readonly warmup: number;
  readonly timeoutMs: number;
  /** Index of the baseline command (default: the last one). */
  readonly baseline?: number;
  /** Progress messages (stderr in the CLI). */
  readonly log?: (message: string) => void;
  /** Where per-run `{tmp}` directories are made (default: the OS temp dir). */
  readonly tmpRoot?: string;
}

export interface Failure {
  readonly phase: 'warm-up' | 'measured';
  readonly round: number;
  readonly message: string;
}

export interface CommandResult {
  readonly label: string;
  readonly argv: readonly string[];
  /** Wall times of the measured rounds, in ms, in round order. */
  readonly timesMs: readonly number[];
  readonly time: Summary;
  /** Peak RSS per measured round in KiB (empty when unavailable). */
  readonly maxRssKb: readonly number[];
  /** Median and maximum of `maxRssKb`, or null. */
  readonly medianMaxRssKb: number | null;
  readonly peakMaxRssKb: number | null;
  /** CPU time (user + system) per measured round in ms (empty when unavailable). */
  readonly cpuMs: readonly number[];
  readonly cpu: Summary | null;
  readonly failure: Failure | undefined;
}

export interface RatioResult {
  readonly candidate: string;
  readonly baseline: string;
  /** Median of the per-round ratios candidate / baseline; null when either command failed. */
  readonly median: number | null;
  readonly ratios: readonly number[];
  /** Median of the per-round CPU-time ratios; null when CPU time was not measured for both. */
  readonly cpuMedian: number | null;
  readonly note?: string;
}

export interface ComparisonResult {
  readonly runs: number;
  readonly warmup: number;
  readonly commands: readonly CommandResult[];
  readonly ratios: readonly RatioResult[];
}

/** Replaces `{input}` and `{tmp}` in every argument. */
export function substitute(argv: readonly string[], values: { readonly input: string; readonly tmp: string }): string[] {
  return argv.map((a) => a.replaceAll('{input}', values.input).replaceAll('{tmp}', values.tmp));
}

/** A one-line description of a failed run for the report. */
export function describeFailure(outcome: RunOutcome): string {
  const tail = outcome.stderrTail
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-3)
    .join(' | ');
  const status = outcome.error ?? (outcome.signal !== null ? `killed by ${outcome.signal}` : `exit ${outcome.exitCode}`);
  return tail ? `${status}: ${tail}` : status;
}

/** Whether a run did not end normally with exit status 0 (or one of `exitCodes`). */
export function failed(outcome: RunOutcome, exitCodes: readonly number[] = [0]): boolean {
  return outcome.error !== undefined || outcome.signal !== null || outcome.exitCode === null || !exitCodes.includes(outcome.exitCode);
}

export async function compareCommands(
  commands: readonly CommandSpec[],
  input: string,
  runner: Runner,
  options: HarnessOptions,
): Promise<ComparisonResult> {
  if (commands.length < 2) throw new RangeError('compare needs at least two commands');
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new RangeError('runs must be a positive integer');
  if (!Number.isInteger(options.warmup) || options.warmup < 0) throw new RangeError('warm-up must be a non-negative integer');
  const baseline = options.baseline ?? commands.length - 1;
  if (!Number.isInteger(baseline) || baseline < 0 || baseline >= commands.length) throw new RangeError(`no command ${baseline} to use as baseline`);
  const log = options.log ?? (() => {});
  const state = commands.map(() => ({ times: [] as number[], rss: [] as number[], cpu: [] as number[], failure: undefined as Failure | undefined }));
  const rounds = options.warmup + options.runs;

  for (let round = 0; round < rounds; round++) {
    const measured = round >= options.warmup;
    const phase = measured ? 'measured' : 'warm-up';
    const roundLabel = measured ? `run ${round - options.warmup + 1}/${options.runs}` : `warm-up ${round + 1}/${options.warmup}`;
    for (let i = 0; i < commands.length; i++) {
      const command = commands[i]!;
      const s = state[i]!;
      if (s.failure !== undefined) continue;
      const tmp = mkdtempSync(join(options.tmpRoot ?? tmpdir(), 'syclkit-bench-'));
      try {
        const argv = substitute(command.argv, { input, tmp });
        const outcome = await runner(argv, { timeoutMs: options.timeoutMs });
        let problem = failed(outcome, command.exitCodes) ? describeFailure(outcome) : undefined;
        if (problem === undefined && command.verify) problem = command.verify({ tmpDir: tmp });
        if (problem !== undefined) {
          s.failure = { phase, round: measured ? round - options.warmup + 1 : round + 1, message: problem };
          log(`${roundLabel} ${command.label}: FAILED (${problem})`);
          continue;
        }
        log(`${roundLabel} ${command.label}: ${(outcome.wallMs / 1000).toFixed(3)} s`);
        if (measured) {
          s.times.push(outcome.wallMs);
          if (outcome.maxRssKb !== null) s.rss.push(outcome.maxRssKb);
          if (outcome.cpuMs !== null) s.cpu.push(outcome.cpuMs);
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
  }

  const results: CommandResult[] = commands.map((c, i) => {
    const s = state[i]!;
    return {
      label: c.label,
      argv: c.argv,
      timesMs: s.times,
      time: summarize(s.times),
      maxRssKb: s.rss,
      medianMaxRssKb: s.rss.length > 0 ? median(s.rss) : null,
      peakMaxRssKb: s.rss.length > 0 ? Math.max(...s.rss) : null,
      cpuMs: s.cpu,
      cpu: s.cpu.length > 0 ? summarize(s.cpu) : null,
      failure: s.failure,
    };
  });
  const base = results[baseline]!;
  const ratios: RatioResult[] = results
    .filter((_, i) => i !== baseline)
    .map((candidate) => {
      const failedOne = [candidate, base].find((r) => r.failure !== undefined);
      if (failedOne !== undefined) {
        return { candidate: candidate.label, baseline: base.label, median: null, ratios: [], cpuMedian: null, note: `${failedOne.label} failed` };
      }
      const ratios = pairedRatios(candidate.timesMs, base.timesMs);
      // pair CPU times only when every round has one, so round i is paired with round i
      const cpuPaired = candidate.cpuMs.length === candidate.timesMs.length && base.cpuMs.length === base.timesMs.length;
      const cpuMedian = cpuPaired && candidate.cpuMs.length > 0 ? median(pairedRatios(candidate.cpuMs, base.cpuMs)) : null;
      return { candidate: candidate.label, baseline: base.label, median: median(ratios), ratios, cpuMedian };
    });
  return { runs: options.runs, warmup: options.warmup, commands: results, ratios };
}

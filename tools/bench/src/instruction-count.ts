/**
 * Instruction counts under valgrind's callgrind: a measure that repeats where wall time does not
 * (a shared host, another job on the second core). Node commands run with V8's
 * `--single-threaded --predictable`, so the JIT and the collector work on the main thread at
 * fixed points and the count repeats to about 0.05%; without them it moves by about 1%.
 *
 * A count is not a time: LLVM runs fewer instructions per second of its pointer-chasing code than
 * V8's compiled loops do, and V8 does its compiling and collecting on the main thread here. Use
 * it to compare two builds of the same tool; compare with LLVM by time (`compare`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describeFailure, failed, substitute, type CommandSpec, type Runner } from './harness.js';

/** Flags that make a node process's instruction count repeatable. */
export const REPEATABLE_NODE_FLAGS = ['--single-threaded', '--predictable'] as const;

/** Whether `argv` starts a node process (`node`, a path ending in `/node`, or this node). */
export function isNodeCommand(argv: readonly string[]): boolean {
  const first = argv[0];
  return first !== undefined && (first === process.execPath || basename(first) === 'node');
}

/** The valgrind command line that counts the instructions of `argv` (all of its threads). */
export function callgrindArgv(argv: readonly string[], valgrind = 'valgrind'): string[] {
  const command = isNodeCommand(argv) ? [argv[0]!, ...REPEATABLE_NODE_FLAGS, ...argv.slice(1)] : [...argv];
  return [valgrind, '--tool=callgrind', '--callgrind-out-file=/dev/null', ...command];
}

/** The total callgrind reports on stderr (`==123== Collected : 4872472287`), if it did. */
export function parseCollected(stderr: string): number | undefined {
  const m = /==\d+== Collected : (\d+)/.exec(stderr);
  return m === null ? undefined : Number(m[1]);
}

export interface CountResult {
  readonly label: string;
  readonly argv: readonly string[];
  readonly instructions?: number;
  /** Why there is no count. */
  readonly failure?: string;
}

export interface CountReport {
  readonly input: string;
  readonly results: readonly CountResult[];
  /** Index of the command the ratios are relative to. */
  readonly baseline: number;
}

/** Counts each command once, in order, on `input` (`{input}`; `{tmp}` is a fresh directory). */
export async function countInstructions(
  commands: readonly CommandSpec[],
  input: string,
  runner: Runner,
  options: { readonly timeoutMs: number; readonly baseline?: number; readonly valgrind?: string; readonly log?: (message: string) => void },
): Promise<CountReport> {
  const results: CountResult[] = [];
  for (const command of commands) {
    const tmp = mkdtempSync(join(tmpdir(), 'syclkit-bench-count-'));
    try {
      const argv = substitute(command.argv, { input, tmp });
      options.log?.(`counting ${command.label} under callgrind`);
      const outcome = await runner(callgrindArgv(argv, options.valgrind), { timeoutMs: options.timeoutMs });
      const instructions = parseCollected(outcome.stderrTail);
      if (failed(outcome)) results.push({ label: command.label, argv, failure: describeFailure(outcome) });
      else if (instructions === undefined) results.push({ label: command.label, argv, failure: 'callgrind reported no count' });
      else results.push({ label: command.label, argv, instructions });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return { input, results, baseline: options.baseline ?? commands.length - 1 };
}

/** A table of counts, and each command's ratio to the baseline's. */
export function renderCounts(report: CountReport): string {
  const base = report.results[report.baseline]?.instructions;
  const width = Math.max(7, ...report.results.map((r) => r.label.length));
  const lines = [`input: ${report.input}`, `instructions (callgrind; node with ${REPEATABLE_NODE_FLAGS.join(' ')}):`];
  lines.push(`  ${'command'.padEnd(width)}  ${'instructions'.padStart(15)}  ratio`);
  for (const [i, r] of report.results.entries()) {
    if (r.instructions === undefined) {
      lines.push(`  ${r.label.padEnd(width)}  FAILED: ${r.failure}`);
      continue;
    }
    const ratio = i === report.baseline ? 'baseline' : base === undefined ? 'n/a' : `${(r.instructions / base).toFixed(4)}x`;
    lines.push(`  ${r.label.padEnd(width)}  ${r.instructions.toLocaleString('en-US').padStart(15)}  ${ratio}`);
  }
  return lines.join('\n') + '\n';
}

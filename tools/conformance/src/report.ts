/** How results are printed: one line per test, details for failures with --verbose, JSON. */
import { isFailing, isPassing, type Outcome, type TestResult } from './execute.js';
import type { RatchetCheck } from './ratchet.js';

const LABELS: Readonly<Record<Outcome, string>> = {
  pass: 'PASS',
  xfail: 'PASS(xfail)',
  fail: 'FAIL',
  xpass: 'FAIL(xpass)',
  timeout: 'FAIL(timeout)',
  unresolved: 'FAIL(unresolved)',
  unsupported: 'UNSUPPORTED',
};

export function outcomeLabel(outcome: Outcome): string {
  return LABELS[outcome];
}

/** `FAIL: llvm/test/x.ll (RUN at line 1 exited 1: ...)`. */
export function formatResultLine(result: TestResult): string {
  const why = result.outcome === 'pass' || result.message === undefined ? '' : ` (${result.message})`;
  return `${outcomeLabel(result.outcome)}: ${result.path}${why}`;
}

export interface TruncateLimits {
  /** Lines kept from the start and from the end when there are more than both together. */
  readonly headLines: number;
  readonly tailLines: number;
  /** Longer lines are cut. */
  readonly maxLineLength: number;
}

export const DEFAULT_TRUNCATE: TruncateLimits = { headLines: 30, tailLines: 10, maxLineLength: 400 };

/** Shortens program output for the terminal: head and tail lines, long lines cut, marked. */
export function truncateOutput(text: string, limits: TruncateLimits = DEFAULT_TRUNCATE): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const cut = (line: string): string =>
    line.length > limits.maxLineLength ? `${line.slice(0, limits.maxLineLength)}... [${line.length - limits.maxLineLength} more characters]` : line;
  if (lines.length <= limits.headLines + limits.tailLines) return lines.map(cut).join('\n');
  const omitted = lines.length - limits.headLines - limits.tailLines;
  return [...lines.slice(0, limits.headLines).map(cut), `... [${omitted} lines omitted] ...`, ...lines.slice(lines.length - limits.tailLines).map(cut)].join('\n');
}

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? prefix.trimEnd() : prefix + l))
    .join('\n');
}

/** The --verbose details of a failing test: the command as run and what it printed. */
export function formatFailureDetails(result: TestResult, limits: TruncateLimits = DEFAULT_TRUNCATE): string {
  const out: string[] = [];
  const f = result.failure;
  if (f !== undefined) {
    const where = f.startLine === f.endLine ? `line ${f.startLine}` : `lines ${f.startLine}-${f.endLine}`;
    out.push(`  command (RUN at ${where}):`, indent(f.command));
    out.push(`  exit code: ${f.exitCode === null ? 'none (killed)' : f.exitCode}`);
    if (f.stderr.trim() !== '') out.push('  stderr:', indent(truncateOutput(f.stderr, limits)));
    if (f.stdout.trim() !== '') out.push('  stdout:', indent(truncateOutput(f.stdout, limits)));
    if (f.stderr.trim() === '' && f.stdout.trim() === '') out.push('  (no output)');
  }
  if (result.tempDir !== undefined) out.push(`  temporary files: ${result.tempDir}`);
  return out.join('\n');
}

export interface Summary {
  readonly passed: number;
  readonly failed: number;
  readonly unsupported: number;
}

export function summarize(results: readonly TestResult[]): Summary {
  return {
    passed: results.filter((r) => isPassing(r.outcome)).length,
    failed: results.filter((r) => isFailing(r.outcome)).length,
    unsupported: results.filter((r) => r.outcome === 'unsupported').length,
  };
}

/** `3 passed, 2 failed` (and `, 1 unsupported` when there are any). */
export function formatSummary(summary: Summary): string {
  const unsupported = summary.unsupported > 0 ? `, ${summary.unsupported} unsupported` : '';
  return `${summary.passed} passed, ${summary.failed} failed${unsupported}`;
}

export function formatRatchetReport(check: RatchetCheck, file: string): string {
  const lines = [`ratchet ${file}: ${check.stillPassing} of ${check.listed} listed tests pass, ${check.regressions.length} regressed`];
  for (const r of check.regressions) lines.push(`  REGRESSED: ${r.path} (${r.reason})`);
  return lines.join('\n');
}

export interface JsonReport {
  readonly corpus: string;
  readonly tiers: readonly string[];
  readonly filter: string | null;
  readonly summary: Summary;
  readonly ratchet: { readonly file: string; readonly listed: number; readonly regressions: RatchetCheck['regressions']; readonly added: readonly string[] } | null;
  readonly tests: readonly {
    readonly path: string;
    readonly tier: string;
    readonly status: 'pass' | 'fail' | 'unsupported';
    readonly outcome: Outcome;
    readonly label: string;
    readonly message: string | null;
    readonly durationMs: number;
    readonly failure: TestResult['failure'] | null;
  }[];
}

export function toJsonTests(results: readonly TestResult[]): JsonReport['tests'] {
  return results.map((r) => ({
    path: r.path,
    tier: r.tier,
    status: isPassing(r.outcome) ? 'pass' : isFailing(r.outcome) ? 'fail' : 'unsupported',
    outcome: r.outcome,
    label: outcomeLabel(r.outcome),
    message: r.message ?? null,
    durationMs: r.durationMs,
    failure: r.failure ?? null,
  }));
}

/**
 * Standard instrumentation (LLVM `StandardInstrumentations`): timing (`-time-passes`), IR dumps
 * (`-print-after-all`), verification after each pass (`-verify-each`), the check that a pass
 * claiming to preserve everything left the unit alone (`-verify-analysis-invalidation`), and a
 * pass/analysis trace (`-debug-pass-manager`). Each is an `Instrumentation` to pass to `run`;
 * none costs anything unless it is passed.
 */
import type { AnalysisEvent } from './analysis.js';
import type { Instrumentation, PassEvent } from './manager.js';
import type { PreservedAnalyses } from './preserved.js';
import { labelOf, type UnitKind } from './unit-kind.js';

export interface TimingEntry {
  /** Pass name (all instances and units together, like `-time-passes`). */
  readonly pass: string;
  readonly runs: number;
  readonly milliseconds: number;
}

export interface PassTimer extends Instrumentation {
  /** Totals per pass, slowest first (ties by name). Adaptors are not counted: their passes are. */
  entries(): TimingEntry[];
  /** The `-time-passes` report. */
  report(): string;
  reset(): void;
}

/** Per-pass wall-clock timing. `now` is injectable for deterministic tests (default `performance.now`). */
export function timePasses(options: { readonly now?: () => number } = {}): PassTimer {
  const now = options.now ?? (() => performance.now());
  const totals = new Map<string, { runs: number; milliseconds: number }>();
  // Keyed by the event (one per pass run), so a hook that never ran cannot unbalance anything.
  const starts = new Map<PassEvent, number>();
  const stop = (event: PassEvent): void => {
    const start = starts.get(event);
    if (start === undefined) return;
    starts.delete(event);
    const elapsed = now() - start;
    const total = totals.get(event.pass);
    if (total === undefined) totals.set(event.pass, { runs: 1, milliseconds: elapsed });
    else {
      total.runs++;
      total.milliseconds += elapsed;
    }
  };
  const entries = (): TimingEntry[] =>
    [...totals]
      .map(([pass, t]) => ({ pass, runs: t.runs, milliseconds: t.milliseconds }))
      .sort((a, b) => b.milliseconds - a.milliseconds || (a.pass < b.pass ? -1 : a.pass > b.pass ? 1 : 0));
  return {
    name: 'time-passes',
    beforePass(event) {
      if (!event.adaptor) starts.set(event, now());
    },
    afterPass: stop,
    afterPassFailed: stop,
    entries,
    reset: () => totals.clear(),
    report() {
      const rows = entries();
      const total = rows.reduce((sum, row) => sum + row.milliseconds, 0);
      const seconds = (ms: number): string => (ms / 1000).toFixed(4);
      const percent = (ms: number): string => `${(total === 0 ? 0 : (100 * ms) / total).toFixed(1).padStart(5)}%`;
      const rule = '===' + '-'.repeat(73) + '===';
      const title = 'Pass execution timing report';
      const lines = [
        rule,
        ' '.repeat(Math.floor((79 - title.length) / 2)) + title,
        rule,
        `  Total Execution Time: ${seconds(total)} seconds (${seconds(total)} wall clock)`,
        '',
        '   ---Wall Time---  ---Runs---  --- Name ---',
        ...rows.map((row) => `   ${seconds(row.milliseconds)} (${percent(row.milliseconds)})  ${String(row.runs).padStart(10)}  ${row.pass}`),
        `   ${seconds(total)} (${percent(total)})  ${''.padStart(10)}  Total`,
      ];
      return lines.join('\n') + '\n';
    },
  };
}

export interface PrintIROptions {
  /** Where dumps go (e.g. stderr). */
  readonly write: (text: string) => void;
  /** Dump after these passes (by name), or after every pass (default `'all'`). */
  readonly after?: 'all' | readonly string[];
  /** Dump before these passes, or before every pass (default: none). */
  readonly before?: 'all' | readonly string[];
}

/** `-print-after-all` / `-print-before=<passes>`: dumps the unit with its kind's `print`. */
export function printIR(options: PrintIROptions): Instrumentation {
  const after = options.after ?? 'all';
  const before = options.before ?? [];
  const wanted = (filter: 'all' | readonly string[], pass: string): boolean => filter === 'all' || filter.includes(pass);
  const dump = (when: string, event: PassEvent): void => {
    const text = event.kind.print(event.unit);
    options.write(`; *** IR Dump ${when} ${event.text} on ${labelOf(event.kind, event.unit)} ***\n${text}${text.endsWith('\n') ? '' : '\n'}`);
  };
  return {
    name: 'print-ir',
    beforePass(event) {
      if (!event.adaptor && wanted(before, event.pass)) dump('Before', event);
    },
    afterPass(event) {
      if (!event.adaptor && wanted(after, event.pass)) dump('After', event);
    },
  };
}

/** `-verify-each`: runs the unit kind's verifier after every pass; a failure is fatal (`verifier-failed`). */
export function verifyEach(): Instrumentation {
  return {
    name: 'verify-each',
    afterPass(event) {
      const kind = event.kind;
      if (event.adaptor || kind.verify === undefined) return;
      try {
        kind.verify(event.unit);
      } catch (error) {
        event.report({
          code: 'verifier-failed',
          severity: 'error',
          fatal: true,
          message: `${kind.name} '${labelOf(kind, event.unit)}' is broken after pass '${event.pass}': ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    },
  };
}

/**
 * `-verify-analysis-invalidation`: fingerprints the unit before each pass and, when the pass
 * returned `PreservedAnalyses.all()`, fails (`unreported-change`, fatal) if the fingerprint moved.
 */
export function verifyAnalysisInvalidation(): Instrumentation {
  const fingerprints = new Map<PassEvent, string>();
  return {
    name: 'verify-analysis-invalidation',
    beforePass(event) {
      if (!event.adaptor) fingerprints.set(event, event.kind.fingerprint(event.unit));
    },
    afterPassFailed(event) {
      fingerprints.delete(event);
    },
    afterPass(event, preserved: PreservedAnalyses) {
      const before = fingerprints.get(event);
      if (before === undefined) return;
      fingerprints.delete(event);
      if (!preserved.areAllPreserved()) return;
      if (event.kind.fingerprint(event.unit) === before) return;
      event.report({
        code: 'unreported-change',
        severity: 'error',
        fatal: true,
        message: `pass '${event.pass}' changed ${event.kind.name} '${labelOf(event.kind, event.unit)}' but reported that it preserved all analyses`,
      });
    },
  };
}

/** `-debug-pass-manager`: one line per pass run, analysis run and analysis invalidation. */
export function tracePassManager(options: { readonly write: (text: string) => void }): Instrumentation {
  const label = (kind: UnitKind<object>, unit: object): string => labelOf(kind, unit);
  return {
    name: 'debug-pass-manager',
    beforePass(event) {
      options.write(`Running pass: ${event.text} on ${label(event.kind, event.unit)}\n`);
    },
    analysis(event: AnalysisEvent) {
      const verb = event.type === 'run' ? 'Running' : 'Invalidating';
      options.write(`${verb} analysis: ${event.analysis} on ${label(event.kind, event.unit)}\n`);
    },
  };
}

/**
 * Progress for long runs: on a terminal, after `delayMs` without finishing, one status line on
 * stderr is rewritten in place at each step and erased at the end. Never on pipes or files, so
 * output stays deterministic; never for short runs, so quick commands stay quiet.
 */
import type { CliIO } from '../io.js';

export interface Progress {
  step(text: string): void;
  done(): void;
}

/** Whether the CLI's stderr is a terminal (only the real process stderr can be). */
export function stderrIsTerminal(io: CliIO): boolean {
  return io.stderr === process.stderr && process.stderr.isTTY === true;
}

export function createProgress(io: CliIO, label: string, options: { enabled?: boolean; delayMs?: number; now?: () => number } = {}): Progress {
  const enabled = options.enabled ?? stderrIsTerminal(io);
  if (!enabled) return { step: () => {}, done: () => {} };
  const now = options.now ?? Date.now;
  const start = now();
  const delay = options.delayMs ?? 1000;
  let shown = false;
  let width = 0;
  const columns = (): number => (io.stderr === process.stderr ? (process.stderr.columns ?? 80) : 80);
  return {
    step(text) {
      if (now() - start < delay) return;
      const line = `${label}: ${text}`.slice(0, Math.max(10, columns() - 1));
      io.stderr.write(`\r${line}${' '.repeat(Math.max(0, width - line.length))}`);
      width = line.length;
      shown = true;
    },
    done() {
      if (shown) io.stderr.write(`\r${' '.repeat(width)}\r`);
      shown = false;
    },
  };
}

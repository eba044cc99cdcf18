/**
 * Errors meant for users: DiagnosticErrors carrying one diagnostic of `passManagerDiagnostics`
 * (the CLI renders it, never a stack trace).
 */
import { DiagnosticError, diagnosticOf, passManagerDiagnostics } from './diagnostics.js';

/**
 * Bad pipeline text: carries the text and the offset, and renders a caret under the culprit.
 *
 * ```
 * pipeline:1:3: error: unknown pass 'fo'; did you mean 'foo'?
 * a,fo,b
 *   ^~
 * ```
 */
export class PipelineError extends DiagnosticError {
  override readonly name = 'PipelineError';

  constructor(
    message: string,
    /** The whole pipeline text the offset points into. */
    readonly text: string,
    /** 0-based offset of the first offending character (may equal `text.length` at the end). */
    readonly offset: number,
    /** How many characters to underline (at least 1). */
    readonly length = 1,
    /** What to call the text in the rendered message, e.g. `-passes` or a preset name. */
    readonly source = 'pipeline',
  ) {
    const { line, column } = positionIn(text, offset);
    super(
      diagnosticOf(passManagerDiagnostics, 'invalid-pipeline', message, {
        location: { file: source, line, column, source: text.split('\n')[line - 1] ?? '', length },
      }),
    );
  }

  /** 1-based line and column of `offset`. */
  get position(): { line: number; column: number } {
    return positionIn(this.text, this.offset);
  }
}

function positionIn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/** A bad value for an LLVM `cl::opt`-style flag a pass declared, e.g. `-x-exclude=`. */
export class FlagError extends DiagnosticError {
  override readonly name = 'FlagError';

  constructor(
    message: string,
    /** The flag name without dashes. */
    readonly flag: string,
  ) {
    super(diagnosticOf(passManagerDiagnostics, 'invalid-flag', message));
  }
}

/** A pass threw (a bug in the pass): names the pass and the unit; the original is `cause`. */
export class PassCrashError extends Error {
  override readonly name = 'PassCrashError';

  constructor(
    readonly pass: string,
    readonly unitLabel: string,
    cause: unknown,
  ) {
    super(`pass '${pass}' crashed on '${unitLabel}': ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

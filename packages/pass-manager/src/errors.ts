/**
 * Errors meant for users: each has `render()` (the CLI prints that, never a stack trace).
 */

/** Bad pipeline text: carries the text and the offset, and renders a caret under the culprit. */
export class PipelineError extends Error {
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
    super(message);
  }

  /** 1-based line and column of `offset`. */
  get position(): { line: number; column: number } {
    const before = this.text.slice(0, this.offset);
    const line = before.split('\n').length;
    return { line, column: this.offset - (before.lastIndexOf('\n') + 1) + 1 };
  }

  /**
   * ```
   * pipeline:1:3: error: unknown pass 'fo'; did you mean 'foo'?
   * a,fo,b
   *   ^~
   * ```
   */
  render(): string {
    const { line, column } = this.position;
    const lineText = this.text.split('\n')[line - 1] ?? '';
    const width = Math.max(1, Math.min(this.length, lineText.length - (column - 1)));
    const caret = ' '.repeat(column - 1) + '^' + '~'.repeat(width - 1);
    return `${this.source}:${line}:${column}: error: ${this.message}\n${lineText}\n${caret}\n`;
  }
}

/** A bad value for an LLVM `cl::opt`-style flag a pass declared, e.g. `-x-exclude=`. */
export class FlagError extends Error {
  override readonly name = 'FlagError';

  constructor(
    message: string,
    /** The flag name without dashes. */
    readonly flag: string,
  ) {
    super(message);
  }

  render(): string {
    return `error: ${this.message}\n`;
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

/**
 * Errors with a source location, rendered like LLVM / clang diagnostics:
 *
 *     file.ll:3:10: error: expected type
 *       %x = alloca
 *              ^
 */
export class IrSyntaxError extends Error {
  override readonly name = 'IrSyntaxError';
  constructor(
    message: string,
    readonly file: string,
    /** 1-based line. */
    readonly line: number,
    /** 1-based column. */
    readonly column: number,
    /** The source line (for the caret display). */
    readonly sourceLine: string,
  ) {
    super(message);
  }

  /** Builds the error for byte offset `offset` in `src`. */
  static at(src: string, file: string, offset: number, message: string): IrSyntaxError {
    const clamped = Math.max(0, Math.min(offset, src.length));
    let lineStart = src.lastIndexOf('\n', clamped - 1) + 1;
    if (clamped === 0) lineStart = 0;
    let lineEnd = src.indexOf('\n', clamped);
    if (lineEnd < 0) lineEnd = src.length;
    let line = 1;
    for (let i = src.indexOf('\n'); i >= 0 && i < lineStart; i = src.indexOf('\n', i + 1)) line++;
    return new IrSyntaxError(message, file, line, clamped - lineStart + 1, src.slice(lineStart, lineEnd).replace(/\r$/, ''));
  }

  /** `file:line:col: error: message`, the source line and a caret under the column. */
  render(): string {
    const caretPad = this.sourceLine.slice(0, this.column - 1).replace(/[^\t]/g, ' ');
    return `${this.file}:${this.line}:${this.column}: error: ${this.message}\n${this.sourceLine}\n${caretPad}^\n`;
  }
}

/** A semantic error found after parsing (e.g. while linking), optionally naming a symbol. */
export class IrError extends Error {
  override readonly name = 'IrError';
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
  render(): string {
    return `${this.file ? `${this.file}: ` : ''}error: ${this.message}\n`;
  }
}

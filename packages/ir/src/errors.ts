/**
 * The reader's and the linker's errors: DiagnosticErrors (`@syclkit/pass-manager`) carrying one
 * diagnostic of {@link irDiagnostics}, rendered like LLVM / clang diagnostics:
 *
 *     file.ll:3:10: error: expected type
 *       %x = alloca
 *              ^
 */
import { DiagnosticError, diagnosticOf, type DiagnosticCatalog } from '@syclkit/pass-manager';

/** Every code `@syclkit/ir` reports: the reader's errors, the linker's and the verifier's. */
export const irDiagnostics = {
  'syntax-error': { severity: 'error', summary: 'The reader refused the text (IrSyntaxError), with the message LLVM gives at the position LLVM reports.' },
  'invalid-module': {
    severity: 'error',
    summary: 'Modules cannot be linked, mapped or rewritten as asked (IrError): conflicting definitions, mismatched types, modules of different contexts.',
  },
  'broken-module': { severity: 'error', summary: "A module breaks the verifier's rules (verifyModule): dangling references, block structure, call signatures, the symbol table." },
} as const satisfies DiagnosticCatalog;

export class IrSyntaxError extends DiagnosticError {
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
    super(diagnosticOf(irDiagnostics, 'syntax-error', message, { location: { file, line, column, source: sourceLine } }));
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
}

/** A semantic error found after parsing (e.g. while linking), optionally naming the module's file: `file: error: message`. */
export class IrError extends DiagnosticError {
  override readonly name = 'IrError';
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(diagnosticOf(irDiagnostics, 'invalid-module', message, file ? { location: { file } } : {}));
  }
}

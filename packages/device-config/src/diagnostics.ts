/** Where a diagnostic points: 1-based line and column in a named file. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'note';

/**
 * A message for the user. `code` is a stable id (tests and tools match on it, not on wording);
 * `message` is the text printed after `error: ` / `warning: `.
 */
export interface Diagnostic {
  readonly severity: DiagnosticSeverity;
  readonly code: string;
  readonly message: string;
  readonly location?: SourceLocation;
  /** Follow-up notes printed after the diagnostic, each with its own optional location. */
  readonly notes?: readonly { readonly message: string; readonly location?: SourceLocation }[];
}

function prefix(location: SourceLocation | undefined): string {
  return location === undefined ? '' : `${location.file}:${location.line}:${location.column}: `;
}

/** Clang-style text: `file:line:col: error: message`, then one `note:` line per note. */
export function renderDiagnostic(diagnostic: Diagnostic): string {
  const lines = [`${prefix(diagnostic.location)}${diagnostic.severity}: ${diagnostic.message}`];
  for (const note of diagnostic.notes ?? []) lines.push(`${prefix(note.location)}note: ${note.message}`);
  return lines.join('\n');
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

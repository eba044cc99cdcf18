/**
 * Diagnostics: syclkit's one model of a message for the user (vfile messages, clang
 * diagnostics): severity, a stable kebab-case code, the message, a location and notes. Every
 * package reports with it and lists its codes in one catalog (`DiagnosticCatalog`); errors meant
 * for users are `DiagnosticError`s that carry their diagnostics; the CLI renders this one type.
 *
 * A pass reports `{code, message, severity?, location?, notes?}` through its context; the manager
 * stamps the pass name, applies the user's policy (per-code overrides, `-Werror`) and collects
 * them in order. Codes are stable kebab-case ids, so tests match `{pass, code}`, not wording.
 */
import { didYouMean } from './suggest.js';

export type Severity = 'error' | 'warning' | 'remark' | 'note';

/** A debug location as the IR records it (LLVM `DILocation`), kept for tools that want it. */
export interface DebugLocation {
  readonly line: number;
  readonly column?: number;
  readonly file?: string;
  /** Name of the scope (subprogram) the location belongs to. */
  readonly scope?: string;
  /** Where the scope was inlined, outermost last. */
  readonly inlinedAt?: DebugLocation;
}

/** Where a diagnostic points. Every field is optional; `file`/`line`/`column` win over `debugLoc`. */
export interface SourceLocation {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** The IR function the diagnostic is about (mangled or demangled, as the pass chooses). */
  readonly function?: string;
  readonly debugLoc?: DebugLocation;
  /** The text of the line `line` is in: shown under the message with a caret at `column`. */
  readonly source?: string;
  /** How many characters from `column` the caret underlines (default 1: `^`, more: `^~~`). */
  readonly length?: number;
}

/** Extra context, e.g. one link of a call chain, each with its own location. */
export interface DiagnosticNote {
  readonly message: string;
  readonly location?: SourceLocation;
}

/** What a pass reports. `severity` defaults to the one its registry entry declares for `code`. */
export interface DiagnosticInput {
  readonly code: string;
  readonly message: string;
  readonly severity?: Severity;
  readonly location?: SourceLocation;
  readonly notes?: readonly DiagnosticNote[];
  /** Stop the pipeline after recording this diagnostic (only meaningful for errors). */
  readonly fatal?: boolean;
}

/** A collected diagnostic, after the manager applied the policy. */
export interface Diagnostic {
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  /** Name of the pass that reported it (absent for diagnostics not raised by a pass). */
  readonly pass?: string;
  readonly location?: SourceLocation;
  readonly notes: readonly DiagnosticNote[];
  readonly fatal: boolean;
  /** The severity the pass reported, when the policy changed it (e.g. `warning` under -Werror). */
  readonly reportedSeverity?: Severity;
}

/** What a user can make of a code: `off` drops it, `fatal` makes it an error that stops the run. */
export type SeverityOverride = 'off' | 'remark' | 'warning' | 'error' | 'fatal';

/** The user's say over diagnostics. Plain data, so it can live in a config file. */
export interface DiagnosticPolicy {
  /** Per-code severity, e.g. `{ 'sycl-aspect-mismatch': 'error' }`. */
  readonly overrides?: Readonly<Record<string, SeverityOverride>>;
  /** `-Werror`: every warning without its own override becomes an error. */
  readonly warningsAsErrors?: boolean;
}

/** A catalog entry: the default severity of a code and one line saying what it means. */
export interface DiagnosticDescriptor {
  readonly severity: Severity;
  readonly summary: string;
}

export type DiagnosticCatalog = Readonly<Record<string, DiagnosticDescriptor>>;

const CODE_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Codes are kebab-case: lowercase words of letters and digits joined by single hyphens. */
export function isDiagnosticCode(code: string): boolean {
  return CODE_PATTERN.test(code);
}

/** Codes the pass manager itself reports. */
export const passManagerDiagnostics = {
  'verifier-failed': { severity: 'error', summary: 'A unit failed its kind\'s verifier after a pass (verify-each).' },
  'unreported-change': {
    severity: 'error',
    summary: 'A pass returned PreservedAnalyses.all() but changed the unit (verify-analysis-invalidation).',
  },
  'unknown-warning-option': { severity: 'warning', summary: 'A -W/-R flag names a code no registered pass declares.' },
  'invalid-pipeline': { severity: 'error', summary: 'Pipeline text that does not parse, or names an unknown pass, option or preset (PipelineError).' },
  'invalid-flag': { severity: 'error', summary: "A bad value for a pass's command-line flag (FlagError)." },
} as const satisfies DiagnosticCatalog;

/**
 * Applies the policy. Fatal diagnostics are never downgraded or dropped; per-code overrides win
 * over `warningsAsErrors`. Returns undefined when the diagnostic is turned off.
 */
export function applyPolicy(diagnostic: Diagnostic, policy: DiagnosticPolicy | undefined): Diagnostic | undefined {
  if (policy === undefined || diagnostic.fatal) return diagnostic;
  const overrides = policy.overrides;
  const override = overrides !== undefined && Object.hasOwn(overrides, diagnostic.code) ? overrides[diagnostic.code] : undefined;
  if (override === 'off') return undefined;
  if (override !== undefined) {
    const severity: Severity = override === 'fatal' ? 'error' : override;
    if (severity === diagnostic.severity && override !== 'fatal') return diagnostic;
    return { ...diagnostic, severity, fatal: override === 'fatal', reportedSeverity: diagnostic.severity };
  }
  if (policy.warningsAsErrors === true && diagnostic.severity === 'warning') {
    return { ...diagnostic, severity: 'error', reportedSeverity: 'warning' };
  }
  return diagnostic;
}

/**
 * Reads clang-style diagnostic flags, later flags winning: `-Werror`, `-Wno-error`, `-Wcode`
 * (make a warning), `-Wno-code` (off), `-Werror=code`, `-Wno-error=code` (back to a warning),
 * `-Rcode` (make a remark), `-Rno-code` (off). Unknown codes give `unknown-warning-option`
 * warnings, like clang; anything that is not a `-W`/`-R` flag throws a TypeError.
 */
export function parseDiagnosticFlags(
  flags: readonly string[],
  options: { readonly knownCodes?: Iterable<string> } = {},
): { policy: DiagnosticPolicy; diagnostics: Diagnostic[] } {
  const known = options.knownCodes === undefined ? undefined : new Set(options.knownCodes);
  const overrides: Record<string, SeverityOverride> = {};
  const diagnostics: Diagnostic[] = [];
  let warningsAsErrors = false;
  const set = (flag: string, code: string, value: SeverityOverride): void => {
    if (known !== undefined && !known.has(code)) {
      const prefix = flag.slice(0, flag.length - code.length);
      diagnostics.push({
        severity: 'warning',
        code: 'unknown-warning-option',
        message: `unknown warning option '${flag}'${didYouMean(code, known, prefix)}`,
        notes: [],
        fatal: false,
      });
      return;
    }
    overrides[code] = value;
  };
  for (const flag of flags) {
    if (flag === '-Werror') warningsAsErrors = true;
    else if (flag === '-Wno-error') warningsAsErrors = false;
    else if (flag.startsWith('-Werror=')) set(flag, flag.slice('-Werror='.length), 'error');
    else if (flag.startsWith('-Wno-error=')) set(flag, flag.slice('-Wno-error='.length), 'warning');
    else if (flag.startsWith('-Wno-')) set(flag, flag.slice('-Wno-'.length), 'off');
    else if (flag.startsWith('-Rno-')) set(flag, flag.slice('-Rno-'.length), 'off');
    else if (flag.startsWith('-W') && flag.length > 2) set(flag, flag.slice(2), 'warning');
    else if (flag.startsWith('-R') && flag.length > 2) set(flag, flag.slice(2), 'remark');
    else throw new TypeError(`not a diagnostic flag: '${flag}'`);
  }
  const policy: DiagnosticPolicy = warningsAsErrors ? { overrides, warningsAsErrors } : { overrides };
  return { policy, diagnostics };
}

export interface FormatOptions {
  /** Append `[-Wcode]`-style flags (default true). Turn off for byte-exact intel/llvm output. */
  readonly showCodes?: boolean;
  /** Used when a diagnostic has no file of its own (e.g. the input path). */
  readonly file?: string;
}

/**
 * `file:line:col: warning: message [-Wcode]`, the source line with a caret when the location
 * has one, then one `note:` line per note, clang style.
 */
export function formatDiagnostic(diagnostic: Diagnostic, options: FormatOptions = {}): string {
  const label = diagnostic.fatal ? 'fatal error' : diagnostic.severity;
  const flag = options.showCodes === false ? '' : flagOf(diagnostic);
  const lines = [`${prefixOf(diagnostic.location, options.file)}${label}: ${diagnostic.message}${flag}`];
  const snippet = snippetOf(diagnostic.location);
  if (snippet !== undefined) lines.push(...snippet);
  for (const note of diagnostic.notes) lines.push(`${prefixOf(note.location, options.file)}note: ${note.message}`);
  return lines.join('\n') + '\n';
}

/** The source line and a caret under the column (tabs kept so the caret lines up), `^~~` for a length. */
function snippetOf(location: SourceLocation | undefined): [string, string] | undefined {
  if (location?.source === undefined || location.column === undefined) return undefined;
  const text = location.source;
  const column = location.column;
  const width = Math.max(1, Math.min(location.length ?? 1, text.length - (column - 1)));
  return [text, `${text.slice(0, column - 1).replace(/[^\t]/g, ' ')}^${'~'.repeat(width - 1)}`];
}

/** All diagnostics, in the given order, then clang's `N warnings and M errors generated.` line. */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  options: FormatOptions & { readonly summary?: boolean } = {},
): string {
  let out = '';
  for (const diagnostic of diagnostics) out += formatDiagnostic(diagnostic, options);
  if (options.summary !== false) out += summaryLine(diagnostics);
  return out;
}

function summaryLine(diagnostics: readonly Diagnostic[]): string {
  let warnings = 0;
  let errors = 0;
  for (const d of diagnostics) {
    if (d.severity === 'warning') warnings++;
    else if (d.severity === 'error') errors++;
  }
  const parts: string[] = [];
  if (warnings > 0) parts.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (errors > 0) parts.push(`${errors} error${errors === 1 ? '' : 's'}`);
  return parts.length === 0 ? '' : `${parts.join(' and ')} generated.\n`;
}

function flagOf(d: Diagnostic): string {
  switch (d.severity) {
    case 'warning':
      return ` [-W${d.code}]`;
    case 'remark':
      return ` [-R${d.code}]`;
    case 'error':
      return d.reportedSeverity === 'warning' ? ` [-Werror,-W${d.code}]` : ` [${d.code}]`;
    case 'note':
      return '';
  }
}

/** File, line and column to show: explicit fields first, then the debug location. */
function positionOf(location: SourceLocation | undefined): { file?: string; line?: number; column?: number } {
  if (location === undefined) return {};
  const file = location.file ?? location.debugLoc?.file;
  if (location.line !== undefined) return { file, line: location.line, column: location.column };
  if (location.debugLoc !== undefined) return { file, line: location.debugLoc.line, column: location.debugLoc.column };
  return { file };
}

function prefixOf(location: SourceLocation | undefined, fallbackFile: string | undefined): string {
  const position = positionOf(location);
  const file = position.file ?? fallbackFile;
  const { line, column } = position;
  let prefix = '';
  if (file !== undefined) prefix += `${file}:`;
  if (line !== undefined) {
    prefix += `${line}:`;
    if (column !== undefined) prefix += `${column}:`;
  } else if (location?.function !== undefined) {
    prefix += `${file !== undefined ? ' ' : ''}in function '${location.function}':`;
  }
  return prefix === '' ? '' : `${prefix} `;
}

/** The JSON form: plain objects with a fixed key order and no undefined fields. */
export interface DiagnosticJSON {
  severity: Severity;
  code: string;
  message: string;
  pass?: string;
  fatal: boolean;
  reportedSeverity?: Severity;
  location?: SourceLocation;
  notes: { message: string; location?: SourceLocation }[];
}

export function diagnosticToJSON(d: Diagnostic): DiagnosticJSON {
  const notes = d.notes.map((n) => (n.location === undefined ? { message: n.message } : { message: n.message, location: locationToJSON(n.location) }));
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    ...(d.pass !== undefined && { pass: d.pass }),
    fatal: d.fatal,
    ...(d.reportedSeverity !== undefined && { reportedSeverity: d.reportedSeverity }),
    ...(d.location !== undefined && { location: locationToJSON(d.location) }),
    notes,
  };
}

function locationToJSON(location: SourceLocation): SourceLocation {
  const out: { -readonly [K in keyof SourceLocation]: SourceLocation[K] } = {};
  if (location.file !== undefined) out.file = location.file;
  if (location.line !== undefined) out.line = location.line;
  if (location.column !== undefined) out.column = location.column;
  if (location.function !== undefined) out.function = location.function;
  if (location.debugLoc !== undefined) out.debugLoc = debugLocToJSON(location.debugLoc);
  if (location.source !== undefined) out.source = location.source;
  if (location.length !== undefined) out.length = location.length;
  return out;
}

function debugLocToJSON(loc: DebugLocation): DebugLocation {
  const out: { -readonly [K in keyof DebugLocation]: DebugLocation[K] } = { line: loc.line };
  if (loc.column !== undefined) out.column = loc.column;
  if (loc.file !== undefined) out.file = loc.file;
  if (loc.scope !== undefined) out.scope = loc.scope;
  if (loc.inlinedAt !== undefined) out.inlinedAt = debugLocToJSON(loc.inlinedAt);
  return out;
}

/** Diagnostics as pretty JSON text (one array, two-space indent, trailing newline). */
export function formatDiagnosticsJSON(diagnostics: readonly Diagnostic[]): string {
  return JSON.stringify(diagnostics.map(diagnosticToJSON), null, 2) + '\n';
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, remark: 2, note: 3 };

/**
 * A total order independent of emission order: file, line, column, function, severity, code,
 * pass, message, then the full JSON form. Use it when a pass emits in hash order.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const keyed = diagnostics.map((d) => ({ d, json: JSON.stringify(diagnosticToJSON(d)) }));
  keyed.sort((a, b) => compareDiagnostics(a.d, b.d) || compareText(a.json, b.json));
  return keyed.map((k) => k.d);
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareText(fileOf(a), fileOf(b)) ||
    compareNumber(lineOf(a), lineOf(b)) ||
    compareNumber(columnOf(a), columnOf(b)) ||
    compareText(a.location?.function ?? '', b.location?.function ?? '') ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareText(a.code, b.code) ||
    compareText(a.pass ?? '', b.pass ?? '') ||
    compareText(a.message, b.message)
  );
}

const fileOf = (d: Diagnostic): string => positionOf(d.location).file ?? '';
const lineOf = (d: Diagnostic): number => positionOf(d.location).line ?? 0;
const columnOf = (d: Diagnostic): number => positionOf(d.location).column ?? 0;
const compareNumber = (a: number, b: number): number => a - b;
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A diagnostic from a catalog: the code's declared severity (unless `severity` is given), empty
 * notes when none are given. For code outside a pass (readers, checks, errors).
 */
export function diagnosticOf(
  catalog: DiagnosticCatalog,
  code: string,
  message: string,
  extra: { readonly severity?: Severity; readonly location?: SourceLocation; readonly notes?: readonly DiagnosticNote[] } = {},
): Diagnostic {
  const declared = Object.hasOwn(catalog, code) ? catalog[code] : undefined;
  if (declared === undefined) throw new TypeError(`diagnostic code '${code}' is not in its catalog`);
  return {
    severity: extra.severity ?? declared.severity,
    code,
    message,
    ...(extra.location !== undefined && { location: extra.location }),
    notes: extra.notes ?? [],
    fatal: false,
  };
}

/** Whether any of the diagnostics is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * An error meant for users that carries its diagnostics (at least one; its message is the first
 * error's). `render()` is what the CLI prints: the diagnostics, clang style, without `[-Wcode]`
 * flags unless `format` asks for them.
 */
export class DiagnosticError extends Error {
  override readonly name: string = 'DiagnosticError';
  readonly diagnostics: readonly Diagnostic[];

  constructor(
    diagnostics: readonly Diagnostic[] | Diagnostic,
    /** How `render()` formats them (default: no code flags). */
    readonly format: FormatOptions = { showCodes: false },
  ) {
    const list = Array.isArray(diagnostics) ? (diagnostics as readonly Diagnostic[]) : [diagnostics as Diagnostic];
    if (list.length === 0) throw new TypeError('a DiagnosticError needs at least one diagnostic');
    super((list.find((d) => d.severity === 'error') ?? list[0]!).message);
    this.diagnostics = list;
  }

  /** The first error (or the first diagnostic). */
  get diagnostic(): Diagnostic {
    return this.diagnostics.find((d) => d.severity === 'error') ?? this.diagnostics[0]!;
  }

  render(): string {
    return formatDiagnostics(this.diagnostics, { ...this.format, summary: false });
  }
}

/**
 * Every code device-config reports, with its default severity: configuration files
 * (`-fsycl-device-config-file`) and target lists (`-fsycl-targets`, `-fsycl-fixed-targets`).
 * Diagnostics are `@syclkit/pass-manager`'s one model.
 */
import { diagnosticOf, type Diagnostic, type DiagnosticCatalog, type DiagnosticNote, type SourceLocation } from '@syclkit/pass-manager';

export const deviceConfigDiagnostics = {
  'yaml-syntax': { severity: 'error', summary: 'The configuration file is not valid YAML.' },
  'yaml-warning': { severity: 'warning', summary: 'The YAML reader warned about the configuration file.' },
  'expected-mapping': { severity: 'error', summary: "The top level, or a target's entry, is not a mapping." },
  'empty-entry': { severity: 'error', summary: 'A target has no keys.' },
  'invalid-target-name': { severity: 'error', summary: "A target name has characters other than letters, digits, '_', '-', '.'." },
  'invalid-key': { severity: 'error', summary: 'A key is not a plain string.' },
  'unknown-key': { severity: 'error', summary: "An entry key is not one of the format's keys." },
  'duplicate-key': { severity: 'error', summary: 'An entry repeats a key.' },
  'missing-key': { severity: 'error', summary: '`aspects` or `sub-group-sizes` is missing.' },
  'expected-list': { severity: 'error', summary: '`aspects` or `sub-group-sizes` is not a list.' },
  'expected-aspect-name': { severity: 'error', summary: 'An aspect is given by number or as a non-string.' },
  'unknown-aspect': { severity: 'error', summary: 'An aspect name is not in the aspect table.' },
  'invalid-sub-group-size': { severity: 'error', summary: 'A sub-group size is not a plain positive integer.' },
  'expected-boolean': { severity: 'error', summary: '`may_support_other_aspects` is not true or false.' },
  'expected-string': { severity: 'error', summary: '`aot-toolchain` or an option is not a single value.' },
  'duplicate-target': {
    severity: 'warning',
    summary: 'A configuration file names a target twice (the last entry wins), or -fsycl-targets names a target again (ignored).',
  },
  'deprecated-aspect': { severity: 'warning', summary: 'A deprecated, alias or removed aspect name is used.' },
  'duplicate-aspect': { severity: 'warning', summary: 'An aspect is listed twice for a target (dropped).' },
  'duplicate-sub-group-size': { severity: 'warning', summary: 'A sub-group size is listed twice for a target (dropped).' },
  'empty-config-file': { severity: 'warning', summary: 'The configuration file defines no targets.' },
  'invalid-target': { severity: 'error', summary: '-fsycl-targets names nothing known.' },
  'spir64-gen-with-devices': { severity: 'error', summary: 'spir64_gen together with Intel GPU device names in -fsycl-targets (DeviceIf.md).' },
  'empty-target-list': { severity: 'warning', summary: '-fsycl-targets= has no value.' },
  'target-not-fixed': { severity: 'warning', summary: 'An AOT target of -fsycl-targets is not in -fsycl-fixed-targets, so it is not compiled ahead of time.' },
} as const satisfies DiagnosticCatalog;

export type DeviceConfigDiagnosticCode = keyof typeof deviceConfigDiagnostics;

/** A diagnostic of {@link deviceConfigDiagnostics}. */
export function configDiagnostic(
  code: DeviceConfigDiagnosticCode,
  message: string,
  location?: SourceLocation,
  notes?: readonly DiagnosticNote[],
): Diagnostic {
  return diagnosticOf(deviceConfigDiagnostics, code, message, { ...(location !== undefined && { location }), ...(notes !== undefined && { notes }) });
}

/** A place in a file (1-based line and column). */
export interface FileLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

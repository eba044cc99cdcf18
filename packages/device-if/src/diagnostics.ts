/**
 * Every code this package reports, in `@syclkit/pass-manager`'s one diagnostic model. The IR
 * functions return diagnostics as data; the passes report the same ones, so library users
 * (post-link) and pipeline users see the same codes and messages.
 */
import { diagnosticOf, type DebugLocation, type Diagnostic, type DiagnosticCatalog } from '@syclkit/pass-manager';

/** The codes of {@link deviceIfDiagnostics}, with their default severities (a pass may report some as warnings). */
export const deviceIfDiagnostics = {
  'conditional-caller-malformed': {
    severity: 'error',
    summary: 'A function with "sycl-call-if-on-device-conditionally" does not hold exactly one direct call (intrinsics aside); it is left alone.',
  },
  'conditional-caller-address-taken': {
    severity: 'error',
    summary: 'A conditional caller is used other than as the callee of calls, so it cannot be replaced; it is left alone.',
  },
  'conditional-call-unsupported': {
    severity: 'error',
    summary: 'A conditional caller is reached through an invoke or callbr, which device code does not have; the call is left alone.',
  },
  'condition-not-constant': {
    severity: 'error',
    summary: 'The condition arguments of a conditional call are not integer constants; the call is left alone.',
  },
  'condition-undecodable': {
    severity: 'error',
    summary: 'The integer arguments of a conditional call are not a valid Condition Expression; the call is left alone.',
  },
  'condition-undecided': {
    severity: 'error',
    summary: 'The target configuration cannot decide the condition of a conditional call (aspects it may or may not have, no fixed architecture); the call is left alone.',
  },
  'condition-ambiguous-architecture': {
    severity: 'warning',
    summary: 'The target matched an architecture operand that several architectures truncate to (e.g. 0: x86_64, intel_gpu_bdw, intel_gpu_tgllp).',
  },
  'conditional-action-mismatch': {
    severity: 'error',
    summary: 'The conditional action cannot be called directly with the callable object (unexpected parameters or return type); the call is left alone.',
  },
} as const satisfies DiagnosticCatalog;

export type DeviceIfDiagnosticCode = keyof typeof deviceIfDiagnostics;

/** A diagnostic of {@link deviceIfDiagnostics} about a function (and where in it, when debug info says). */
export function deviceIfDiagnostic(
  code: DeviceIfDiagnosticCode,
  message: string,
  where: { readonly function?: string; readonly debugLoc?: DebugLocation | undefined },
  severity?: 'error' | 'warning',
): Diagnostic {
  return diagnosticOf(deviceIfDiagnostics, code, message, {
    ...(severity !== undefined && { severity }),
    location: { ...(where.function !== undefined && { function: where.function }), ...(where.debugLoc !== undefined && { debugLoc: where.debugLoc }) },
  });
}

/** The codes one pass reports: a subset of the catalog, some made warnings. */
function catalog(codes: readonly DeviceIfDiagnosticCode[], warnings: readonly DeviceIfDiagnosticCode[] = []): DiagnosticCatalog {
  return Object.fromEntries(
    codes.map((code) => [code, warnings.includes(code) ? { ...deviceIfDiagnostics[code], severity: 'warning' as const } : deviceIfDiagnostics[code]]),
  );
}

/**
 * Codes of `sycl-conditional-call-on-device`. The condition codes only come with `normalize`, and
 * are warnings there: the call is still rewritten, with its condition as written.
 */
export const CONDITIONAL_CALL_ON_DEVICE_DIAGNOSTICS: DiagnosticCatalog = catalog(
  ['conditional-caller-malformed', 'conditional-caller-address-taken', 'condition-not-constant', 'condition-undecodable'],
  ['condition-not-constant', 'condition-undecodable'],
);

/** Codes of `sycl-resolve-device-if`. */
export const RESOLVE_DEVICE_IF_DIAGNOSTICS: DiagnosticCatalog = catalog([
  'conditional-caller-malformed',
  'conditional-call-unsupported',
  'condition-not-constant',
  'condition-undecodable',
  'condition-undecided',
  'condition-ambiguous-architecture',
  'conditional-action-mismatch',
]);


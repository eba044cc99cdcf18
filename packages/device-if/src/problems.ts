/**
 * What the IR functions of this package report. They return problems as data; the passes turn them
 * into pass-manager diagnostics with the same codes, so library users (post-link) and pipeline
 * users see the same ids.
 */
import type { DebugLocation, DiagnosticCatalog } from '@syclkit/pass-manager';

export type DeviceIfProblemCode =
  | 'conditional-caller-malformed'
  | 'conditional-caller-address-taken'
  | 'conditional-call-unsupported'
  | 'condition-not-constant'
  | 'condition-undecodable'
  | 'condition-undecided'
  | 'condition-ambiguous-architecture'
  | 'conditional-action-mismatch';

/** One problem found while rewriting or resolving conditional calls. */
export interface DeviceIfProblem {
  readonly code: DeviceIfProblemCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** The function the problem is in (the caller definition, or the function holding the call). */
  readonly function?: string;
  readonly debugLoc?: DebugLocation;
}

const ALL: Record<DeviceIfProblemCode, { severity: 'error' | 'warning'; summary: string }> = {
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
};

function catalog(codes: readonly DeviceIfProblemCode[], warnings: readonly DeviceIfProblemCode[] = []): DiagnosticCatalog {
  return Object.fromEntries(
    codes.map((code) => [code, warnings.includes(code) ? { ...ALL[code], severity: 'warning' as const } : ALL[code]]),
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


/**
 * The codes this pass reports (stable ids; tests match them, not the wording).
 */
import type { DiagnosticCatalog } from '@syclkit/pass-manager';

export const aspectPropagationDiagnostics = {
  'sycl-aspect-mismatch': {
    severity: 'warning',
    summary:
      "A function uses an aspect its [[sycl::device_has()]] attribute (or 'device_has' property) does not list; notes give the call chain to the use (clang's -Wsycl-aspect-mismatch).",
  },
  'sycl-fixed-target-aspect': {
    severity: 'warning',
    summary: 'A kernel or exported function uses an aspect that a target of -sycl-propagate-aspects-usage-fixed-targets does not support.',
  },
  'sycl-fixed-target-sub-group-size': {
    severity: 'warning',
    summary: 'A function requires a sub-group size (!intel_reqd_sub_group_size) that a fixed target does not support.',
  },
  'sycl-fixed-target-work-group-size': {
    severity: 'warning',
    summary: 'A function requires a work-group size (!reqd_work_group_size) that a fixed target does not support.',
  },
  'unknown-fixed-target': {
    severity: 'warning',
    summary: 'A fixed target is not a target of the device configuration, so device code is not checked against it.',
  },
  'unknown-excluded-aspect': {
    severity: 'warning',
    summary: 'An excluded aspect is neither a name in !sycl_aspects nor a number; it is ignored.',
  },
  'invalid-device-has': {
    severity: 'warning',
    summary: 'A "sycl-device-has" attribute holds something that is not a decimal aspect value; that item is ignored.',
  },
  'missing-fp64-aspect': {
    severity: 'warning',
    summary: "!sycl_aspects has no 'fp64' entry; double is taken to use aspect 6.",
  },
  'malformed-aspect-metadata': {
    severity: 'warning',
    summary: 'Aspect metadata of the wrong shape (!sycl_aspects, !sycl_types_that_use_aspects, or a list that is not i32 values); the bad part is ignored.',
  },
  'conditional-aspects-prototype': {
    severity: 'warning',
    summary:
      "A conditional call's condition is not a constant Condition Expression, so conditionally used aspects follow the intel/llvm prototype (PR #15646) instead of DeviceIf.md.",
  },
  'invalid-condition': {
    severity: 'error',
    summary: "With conditional-semantics=design: a conditional call's condition is not a constant Condition Expression.",
  },
} as const satisfies DiagnosticCatalog;

export type AspectPropagationDiagnosticCode = keyof typeof aspectPropagationDiagnostics;

/**
 * Every code post-link reports (warnings and notes of a run, and the errors `PostLinkError`
 * carries), with its default severity: the package's catalog in `@syclkit/pass-manager`'s one
 * diagnostic model. device_if resolution adds `@syclkit/device-if`'s codes.
 */
import type { DiagnosticCatalog } from '@syclkit/pass-manager';

export const postLinkDiagnostics = {
  'unexpected-aspect': {
    severity: 'warning',
    summary: 'A function of an image uses an aspect its kernel does not declare (a SYCL_EXTERNAL function without [[sycl::device_has()]]).',
  },
  'sub-group-mismatch': { severity: 'warning', summary: 'A function of an image requires another sub-group size than its kernel.' },
  'fixed-targets-mismatch': { severity: 'warning', summary: 'A function was compiled with other -fsycl-fixed-targets than its kernel.' },
  'aspect-not-allowed': { severity: 'warning', summary: '(spec-constant strategy) A function uses an aspect its [[sycl::device_has()]] does not list.' },
  'incompatible-image': { severity: 'note', summary: 'Which requirement kept an image out of a target table.' },
  'no-modifications': { severity: 'note', summary: 'No modifications to the input LLVM IR have been made (printed as sycl-post-link NOTE).' },
  'bad-conditional-call': { severity: 'error', summary: 'A device_if call has no action function, callable object or constant condition.' },
  'device-image-scope': { severity: 'error', summary: 'A device_global with "device_image_scope" is used in more than one device image.' },
  'device-if-unresolved': { severity: 'error', summary: 'device_if conditions could not be resolved for the AOT target.' },
  'split-with-ir-output-only': { severity: 'error', summary: "The input had to be split, so '-ir-output-only' cannot be used." },
  'no-bitcode-writer': { severity: 'error', summary: 'Bitcode output needs an encoder; use text IR (-S).' },
  'no-device-config': { severity: 'error', summary: 'device_if resolution for an AOT target needs a device configuration.' },
  'no-output': { severity: 'error', summary: 'No output table given.' },
  'no-module': { severity: 'error', summary: 'There is no module to write.' },
  'unsupported-combination': { severity: 'error', summary: 'Options that cannot be combined (device_if add-on images and the spec-constant strategy, ...).' },
  'shard-with-processor': { severity: 'error', summary: 'Sharded writing cannot be combined with an image processor.' },
  'shard-with-dummy': { severity: 'error', summary: 'Sharded writing cannot be combined with dummy images.' },
} as const satisfies DiagnosticCatalog;

export type PostLinkDiagnosticCode = keyof typeof postLinkDiagnostics;

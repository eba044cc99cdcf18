/**
 * One list of diagnostics for a driver run: what the passes report (already under the user's
 * policy), and what the other steps report (post-link, the device configuration, device_if
 * resolution, the IR reader and linker), put under the same policy so `-Werror` and `-Wno-<code>`
 * work for all of them. Rendering is pass-manager's (clang style, or JSON).
 */
import { applyPolicy, type Diagnostic, type DiagnosticPolicy, type Severity } from '@syclkit/pass-manager';
import { aspectPropagationDiagnostics } from '@syclkit/aspect-propagation';
import { deviceIfDiagnostics } from '@syclkit/device-if';
import { deviceConfigDiagnostics } from '@syclkit/device-config';
import { postLinkDiagnostics } from '@syclkit/post-link';

/** Codes the driver itself reports (besides those of passes, post-link, device-config and device_if, which their packages' catalogs list). */
export const DRIVER_DIAGNOSTICS = {
  'ir-reader': { severity: 'warning', summary: 'The IR reader or the linker warned (e.g. debug info of an unknown version was dropped, data layouts differ).' },
  'no-kernels': { severity: 'warning', summary: 'The program defines no kernel; the fat binary holds no device code.' },
  'no-exports': { severity: 'warning', summary: '--device-library: the program defines no SYCL_EXTERNAL function (and no kernel); the library exports nothing.' },
  'gpu-aot-unavailable': {
    severity: 'warning',
    summary: "An NVIDIA or AMD bundle keeps device IR because LLVM 16's llc (or ld.lld) is not installed; the CUDA and HIP runtimes need PTX and code objects.",
  },
  'undefined-function': {
    severity: 'warning',
    summary: 'Device code calls a function no translation unit defines; without -fsycl-allow-device-image-dependencies nothing will provide it at run time.',
  },
} as const;

/** Every code `-W<code>` may name in a compile: passes, post-link, device-config, device_if, driver. */
export function knownDriverCodes(passCodes: Iterable<string>): Set<string> {
  return new Set([
    ...passCodes,
    ...Object.keys(aspectPropagationDiagnostics),
    ...Object.keys(deviceIfDiagnostics),
    ...Object.keys(postLinkDiagnostics),
    ...Object.keys(deviceConfigDiagnostics),
    ...Object.keys(DRIVER_DIAGNOSTICS),
  ]);
}

export class DiagnosticLog {
  readonly #items: Diagnostic[] = [];
  constructor(readonly policy: DiagnosticPolicy | undefined) {}

  /** Adds one diagnostic, applying the policy (it may be dropped or promoted). */
  report(input: { severity: Severity; code: string; message: string; pass?: string; location?: Diagnostic['location']; notes?: Diagnostic['notes'] }): void {
    const diagnostic: Diagnostic = { notes: [], fatal: false, ...input };
    const applied = applyPolicy(diagnostic, this.policy);
    if (applied !== undefined) this.#items.push(applied);
  }

  /** Adds diagnostics the pass manager already put under the policy. */
  addApplied(diagnostics: readonly Diagnostic[]): void {
    this.#items.push(...diagnostics);
  }

  /** A diagnostic of another step (device-config's target lists and files, ...): the same model, put under the policy. */
  reportConfig(d: Diagnostic): void {
    this.report(d);
  }

  get items(): readonly Diagnostic[] {
    return this.#items;
  }

  get errorCount(): number {
    return this.#items.filter((d) => d.severity === 'error').length;
  }
}

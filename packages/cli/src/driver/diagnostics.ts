/**
 * One list of diagnostics for a driver run: what the passes report (already under the user's
 * policy), and what the other steps report (post-link, the device configuration, device_if
 * resolution, the IR reader and linker), put under the same policy so `-Werror` and `-Wno-<code>`
 * work for all of them. Rendering is pass-manager's (clang style, or JSON).
 */
import { applyPolicy, type Diagnostic, type DiagnosticPolicy, type Severity } from '@syclkit/pass-manager';
import type { Diagnostic as ConfigDiagnostic } from '@syclkit/device-config';
import { aspectPropagationDiagnostics } from '@syclkit/aspect-propagation';
import { RESOLVE_DEVICE_IF_DIAGNOSTICS } from '@syclkit/device-if';

/** Codes the driver itself reports (besides those of passes, post-link and device-config). */
export const DRIVER_DIAGNOSTICS = {
  'ir-reader': { severity: 'warning', summary: 'The IR reader or the linker warned (e.g. debug info of an unknown version was dropped, data layouts differ).' },
  'unexpected-aspect': { severity: 'warning', summary: "post-link: a function of an image uses an aspect its kernel does not declare (a SYCL_EXTERNAL function without [[sycl::device_has()]])." },
  'sub-group-mismatch': { severity: 'warning', summary: 'post-link: a function of an image requires another sub-group size than its kernel.' },
  'fixed-targets-mismatch': { severity: 'warning', summary: 'post-link: a function was compiled with other -fsycl-fixed-targets than its kernel.' },
  'duplicate-target': { severity: 'warning', summary: '-fsycl-targets names a target twice; the second is ignored.' },
  'empty-target-list': { severity: 'warning', summary: '-fsycl-targets= has no value.' },
  'target-not-fixed': { severity: 'warning', summary: 'An AOT target of -fsycl-targets is not in -fsycl-fixed-targets, so it is not compiled ahead of time.' },
  'bad-conditional-call': { severity: 'error', summary: 'post-link: a device_if call has no action function, callable object or constant condition.' },
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
  return new Set([...passCodes, ...Object.keys(aspectPropagationDiagnostics), ...Object.keys(RESOLVE_DEVICE_IF_DIAGNOSTICS), ...Object.keys(DRIVER_DIAGNOSTICS)]);
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

  /** A device-config diagnostic (target lists, configuration files). */
  reportConfig(d: ConfigDiagnostic): void {
    this.report({
      severity: d.severity,
      code: d.code,
      message: d.message,
      ...(d.location === undefined ? {} : { location: d.location }),
      notes: (d.notes ?? []).map((n) => ({ message: n.message, ...(n.location === undefined ? {} : { location: n.location }) })),
    });
  }

  get items(): readonly Diagnostic[] {
    return this.#items;
  }

  get errorCount(): number {
    return this.#items.filter((d) => d.severity === 'error').length;
  }
}

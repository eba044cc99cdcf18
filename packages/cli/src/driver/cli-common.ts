/**
 * Small pieces the driver commands share: clang-style `-W`/`-R` flags (taken out before the
 * option parser sees them) and the JSON form of diagnostics.
 */
import { diagnosticToJSON, type Diagnostic, type DiagnosticJSON } from '@syclkit/pass-manager';

/** Splits `-Werror`, `-Wno-x`, `-Rx` (joined forms) from the other arguments, keeping their order. */
export function splitDiagnosticFlags(argv: readonly string[]): { rest: string[]; diagnosticFlags: string[] } {
  const rest: string[] = [];
  const diagnosticFlags: string[] = [];
  let positionalOnly = false;
  for (const arg of argv) {
    if (arg === '--') positionalOnly = true;
    if (!positionalOnly && /^-[WR]./.test(arg)) diagnosticFlags.push(arg);
    else rest.push(arg);
  }
  return { rest, diagnosticFlags };
}

export function diagnosticsJSON(diagnostics: readonly Diagnostic[]): DiagnosticJSON[] {
  return diagnostics.map(diagnosticToJSON);
}

/**
 * The IR units passes run over, for `@syclkit/pass-manager`: modules, and the function
 * definitions of a module (what `function(...)` in pipeline text iterates).
 */
import { createHash } from 'node:crypto';
import { subunitsOf, type UnitKind } from '@syclkit/pass-manager';
import type { Module } from './model/module.js';
import { printModule } from './printer/printer.js';
import type { IRFunction } from './model/values.js';
import { moduleProblems } from './verifier/verifier.js';

/** Verify-after-each: the light verifier's problems, as one error. */
function verify(m: Module): void {
  const problems = moduleProblems(m);
  if (problems.length > 0) throw new Error(`module '${m.id}' is broken:\n  ${problems.join('\n  ')}`);
}

export const functionKind: UnitKind<IRFunction> = {
  name: 'function',
  // a function's printed form lives in its module; hashing the module would be the safe choice,
  // but a function-level fingerprint only needs to change when the function does
  fingerprint: (f) => createHash('sha1').update(functionFingerprintText(f)).digest('hex'),
  print: (f) => (f.parent ? printModule(f.parent) : `; function ${f.name} (detached)\n`),
  label: (f) => f.name,
};

export const moduleKind: UnitKind<Module> = {
  name: 'module',
  fingerprint: (m) => createHash('sha1').update(printModule(m), 'latin1').digest('hex'),
  print: (m) => printModule(m),
  verify,
  label: (m) => m.id,
  subunits: [subunitsOf(functionKind, (m: Module) => m.functions.filter((f) => !f.isDeclaration))],
};

function functionFingerprintText(f: IRFunction): string {
  // the module print covers everything, including metadata a function pass may attach
  return f.parent ? printModule(f.parent) : f.name;
}

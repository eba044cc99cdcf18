/**
 * Source locations for diagnostics, from debug info when the module has it (`-g`): a function's
 * `!dbg` DISubprogram (file and line) and an instruction's `!dbg` DILocation (file, line, column).
 * Without debug info a location only names the IR function.
 */
import type { Instruction, IRFunction } from '@syclkit/ir';
import { debugNodeOf, fileOf, isDINode } from '@syclkit/sycl-conventions';
import type { SourceLocation } from '@syclkit/pass-manager';
import { demangle } from './demangle.js';

/** `name` of a function as messages show it: demangled when possible. */
export function displayName(fn: IRFunction): string {
  return demangle(fn.name) ?? fn.name;
}

/** Where a function is defined: its DISubprogram's file and line, when it has one. */
export function functionLocation(fn: IRFunction): SourceLocation {
  const node = debugNodeOf(fn);
  const line = node?.intField('line');
  const file = node === undefined ? undefined : fileOf(node);
  return {
    function: fn.name,
    ...(file === undefined ? {} : { file }),
    ...(line === undefined || line === 0 ? {} : { line }),
  };
}

/** Where an instruction is: its DILocation (file from its scope), else its function's location. */
export function instructionLocation(inst: Instruction, fn: IRFunction): SourceLocation {
  const node = debugNodeOf(inst);
  if (node === undefined || node.className !== 'DILocation') return functionLocation(fn);
  const line = node.intField('line');
  const column = node.intField('column');
  const scope = node.mdField('scope');
  const file = isDINode(scope) ? fileOf(scope) : undefined;
  return {
    function: fn.name,
    ...(file === undefined ? {} : { file }),
    ...(line === undefined || line === 0 ? {} : { line }),
    ...(column === undefined || column === 0 ? {} : { column }),
  };
}

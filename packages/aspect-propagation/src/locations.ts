/**
 * Source locations for diagnostics, from debug info when the module has it (`-g`): a function's
 * `!dbg` DISubprogram (file and line) and an instruction's `!dbg` DILocation (file, line, column).
 * Without debug info a location only names the IR function.
 */
import type { DINode, Instruction, IRFunction, Metadata } from '@syclkit/ir';
import type { SourceLocation } from '@syclkit/pass-manager';
import { demangle } from './demangle.js';

const DBG_KIND = 0; // LLVM's fixed kind id of !dbg

/** `name` of a function as messages show it: demangled when possible. */
export function displayName(fn: IRFunction): string {
  return demangle(fn.name) ?? fn.name;
}

/** Where a function is defined: its DISubprogram's file and line, when it has one. */
export function functionLocation(fn: IRFunction): SourceLocation {
  const node = dbgOf(fn.attachments);
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
  const node = dbgOf(inst.attachments);
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

function dbgOf(attachments: readonly { kind: number; node: Metadata }[] | null): DINode | undefined {
  if (attachments === null) return undefined;
  for (const a of attachments) if (a.kind === DBG_KIND && a.node.mk === 'di') return a.node;
  return undefined;
}

function isDINode(md: Metadata | null | undefined): md is DINode {
  return md !== null && md !== undefined && md.mk === 'di';
}

/** The file name of a scope: its own `file:` field, or its parent scope's (lexical blocks, ...). */
function fileOf(scope: DINode): string | undefined {
  let current: DINode | undefined = scope;
  for (let depth = 0; current !== undefined && depth < 64; depth++) {
    const file = current.className === 'DIFile' ? current : current.mdField('file');
    if (isDINode(file)) {
      const name = file.strField('filename');
      if (name !== undefined && name !== '') return name;
    }
    const parent = current.mdField('scope');
    current = isDINode(parent) ? parent : undefined;
  }
  return undefined;
}

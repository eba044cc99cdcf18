import { describe, expect, it } from 'vitest';
import { parseModule } from './parser.js';
import { printModule } from './printer.js';
import { llvmTool, runTool } from './testing/llvm.js';
import { syntaxVerdict } from './testing/verdict.js';

/**
 * Attribute values LLVM 16's reader refuses, and where it points: at the number after
 * `alignstack(`, `dereferenceable(` and `align`, at the token after `align` when that is `(`, at
 * the string of an `allockind`, and in an attribute group at what follows `=N`.
 */
const REFUSED: readonly (readonly [string, string])[] = [
  ['declare void @z() align 3\n', '1:25: alignment is not a power of two'],
  ['declare void @z() align(3)\n', '1:24: alignment is not a power of two'],
  ['declare void @z(ptr align 0)\n', '1:27: alignment is not a power of two'],
  ['declare void @z(ptr align(3))\n', '1:26: alignment is not a power of two'],
  ['define void @z() align 3 {\n  ret void\n}\n', '1:24: alignment is not a power of two'],
  ['define void @z() {\n  %a = alloca i32, align 3\n  ret void\n}\n', '2:26: alignment is not a power of two'],
  ['@g = global i32 0, align 3\n', '1:26: alignment is not a power of two'],
  ['declare void @z() alignstack(3)\n', '1:30: stack alignment is not a power of two'],
  ['declare void @z() alignstack(0)\n', '1:30: stack alignment is not a power of two'],
  ['declare void @z(ptr dereferenceable(0))\n', '1:37: dereferenceable bytes must be non-zero'],
  ['declare void @z(ptr dereferenceable_or_null(0))\n', '1:45: dereferenceable bytes must be non-zero'],
  ['declare ptr @z() allockind("alloc,foo")\n', '1:28: unknown allockind foo'],
  ['declare void @z() #0\nattributes #0 = { align 8 nounwind }\n', "2:25: expected '=' here"],
  ['declare void @z() #0\nattributes #0 = { alignstack(4) }\n', "2:29: expected '=' here"],
  ['declare void @z() #0\nattributes #0 = { align=4294967296 }\n', '2:25: expected 32-bit integer (too large)'],
];

/**
 * Values LLVM 16 takes and rewrites: in a group, `align=N` and `alignstack=N` keep the power of
 * two at or below N (0 gives none), and a group's `align` is the function's alignment, over the
 * header's; `vscale_range(0)` and `(0,0)` are its "no attribute" value.
 */
const REWRITTEN: readonly (readonly [string, string])[] = [
  ['declare void @z() #0\nattributes #0 = { align=6 nounwind }\n', '; Function Attrs: nounwind\ndeclare void @z() #0 align 4\n\nattributes #0 = { nounwind }\n'],
  ['declare void @z() #0\nattributes #0 = { alignstack=3 }\n', '; Function Attrs: alignstack(2)\ndeclare void @z() #0\n\nattributes #0 = { alignstack=2 }\n'],
  ['declare void @z() #0\nattributes #0 = { alignstack=0 nounwind }\n', '; Function Attrs: nounwind\ndeclare void @z() #0\n\nattributes #0 = { nounwind }\n'],
  ['declare void @z() align 4 #0\nattributes #0 = { align=16 nounwind }\n', '; Function Attrs: nounwind\ndeclare void @z() #0 align 16\n\nattributes #0 = { nounwind }\n'],
  ['declare void @v() vscale_range(0)\ndeclare void @w() vscale_range(0,0)\ndeclare void @x() vscale_range(1,0)\n', 'declare void @v()\n\ndeclare void @w()\n\n; Function Attrs: vscale_range(1,0)\ndeclare void @x() #0\n\nattributes #0 = { vscale_range(1,0) }\n'],
];

const printed = (ir: string): string => printModule(parseModule(ir, { filename: 'a.ll' })).replace(/^; ModuleID = .*\nsource_filename = .*\n\n/, '');

describe('attribute values', () => {
  it.each(REFUSED)('refuses %j at LLVM 16 position', (ir, expected) => {
    expect(syntaxVerdict(ir, 'a.ll')).toBe(expected);
  });

  it.each(REWRITTEN)('reads %j as LLVM 16 does', (ir, expected) => {
    expect(printed(ir)).toBe(expected);
  });
});

const opt16 = llvmTool('opt');
describe.skipIf(opt16 === undefined)('attribute values agree with LLVM 16 opt', () => {
  it.each(REFUSED)('opt refuses %j with the same message at the same place', (ir, expected) => {
    const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], ir);
    expect(r.stderr.split('\n')[0]).toBe(`${opt16}: <stdin>:${expected.replace(/^(\d+:\d+): /, '$1: error: ')}`);
  });

  it.each(REWRITTEN)('opt prints %j the same way', (ir, expected) => {
    const r = runTool(opt16!, ['-S', '-'], ir);
    expect(r.stdout.replace(/^; ModuleID = .*\nsource_filename = .*\n\n/, '')).toBe(expected);
  });
});

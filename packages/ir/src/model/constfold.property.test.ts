/**
 * Properties of constant folding in the default (opaque) mode, over modules whose globals are
 * initialized with random pointer and integer constant expressions (`testing/const-exprs.ts`:
 * GEPs of globals, GEPs, casts, null/undef/poison with in-range, out-of-range, negative, huge and
 * non-constant indices; bitcast/addrspacecast/inttoptr/ptrtoint/trunc/zext/sext chains; forward
 * references; an external `[0 x i32]`, an `extern_weak` global, an alias, a function):
 * 1. Fixed point: printing, reading the text again and printing gives the same text (what the
 *    parser folds is already folded).
 * 2. When LLVM 16's opt is installed: the module prints exactly as `opt -S` prints it, both for
 *    small modules and for one module of many expressions. Without LLVM 16 these are skipped
 *    (there is no other oracle for LLVM's folding).
 * Vector constant expressions are not generated: opaque mode does not fold them (see README).
 */
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { constantExpr, constantExprModule, constantExprModuleText } from '../../test/const-exprs.js';
import { llvmTool, runTool } from '../../test/llvm.js';

const opt16 = llvmTool('opt');

const read = (text: string): string => printModule(parseModule(text, { filename: '<stdin>' }));

describe('constant expressions (opaque mode)', () => {
  test.prop([constantExprModule()], fcOptions(200))('print to a fixed point', (text) => {
    const printed = read(text);
    expect(read(printed)).toBe(printed);
  });
});

describe.skipIf(opt16 === undefined)('agreement with LLVM 16 opt on constant expressions', () => {
  test.prop([constantExprModule()], fcOptions(150))('a module of random constant expressions prints as opt -S does', (text) => {
    const expected = runTool(opt16!, ['-S'], text);
    expect(expected.stderr).toBe('');
    expect(read(text)).toBe(expected.stdout);
  }, 120_000);

  test.prop([fc.array(constantExpr(), { minLength: 200, maxLength: 400 })], fcOptions(5))(
    'hundreds of expressions in one module print as opt -S does',
    (exprs) => {
      const text = constantExprModuleText(exprs);
      const expected = runTool(opt16!, ['-S'], text);
      expect(expected.stderr).toBe('');
      const ours = read(text).split('\n');
      const theirs = expected.stdout.split('\n');
      // compare line by line so a failure names the expression
      expect(ours.filter((l, i) => l !== theirs[i])).toEqual([]);
      expect(ours.length).toBe(theirs.length);
    },
    120_000,
  );
});

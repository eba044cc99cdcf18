/**
 * Properties of the typed-pointer mode (`pointers: 'preserve-typed'`), over generated typed
 * modules (`testing/typed-modules.ts`: structs reached through pointers, constant expressions
 * LLVM 14 folds, GEPs, loads, stores, casts, calls, a typed intrinsic, typed metadata):
 * 1. Fixed point: printing a typed module and reading the text again prints the same text.
 * 2. Typed throughout: the module says `typedPointers`, every pointer type reachable from its
 *    globals, functions, instructions and operands has a pointee, and the text has no `ptr`.
 * 3. A clone prints like the original and keeps the same type objects.
 * 4. When LLVM 14's opt is installed: the text prints as `opt -S` of LLVM 14 prints it, apart
 *    from attribute spellings (`attributes #N` lines and `; Function Attrs:` comments).
 * 5. When LLVM 16's opt is installed: reading the same text in the default ('opaque') mode prints
 *    exactly what LLVM 16's `opt -S` prints, constant expressions folded included.
 */
import { describe, expect } from 'vitest';
import { test } from '@fast-check/vitest';
import { cloneModule } from '../transforms/clone.js';
import type { Module } from '../model/module.js';
import { parseModule } from './parser.js';
import { printModule } from '../printer/printer.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { fcOptions } from '@syclkit/testing';
import { typedModule } from '../../test/typed-modules.js';
import { subtypes, type Type } from '../model/types.js';
import { constantOperands } from '../analysis/uses.js';
import type { Value } from '../model/values.js';

const opt14 = llvmTool('opt', 14);
const opt16 = llvmTool('opt');

function readTyped(text: string): Module {
  return parseModule(text, { filename: '<stdin>', pointers: 'preserve-typed' });
}

function withoutAttributeSpellings(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('; Function Attrs:') && !l.startsWith('attributes #'))
    .join('\n');
}

/** The opaque pointer types reachable from the module's values (none in a typed module). */
function opaquePointers(m: Module): string[] {
  const found: string[] = [];
  const seenTypes = new Set<Type>();
  const type = (t: Type, where: string): void => {
    if (seenTypes.has(t)) return;
    seenTypes.add(t);
    if (t.kind === 'pointer' && t.pointee === undefined) found.push(where);
    for (const s of subtypes(t)) type(s, where);
  };
  const seenValues = new Set<Value>();
  const value = (v: Value, where: string): void => {
    if (seenValues.has(v)) return;
    seenValues.add(v);
    type(v.type, where);
    if (v.vk !== 'instruction') for (const op of constantOperands(v)) value(op, where);
  };
  for (const g of m.globalValues()) {
    value(g, `@${g.name}`);
    if (g.vk === 'global' && g.initializer) value(g.initializer, `@${g.name} initializer`);
  }
  for (const f of m.functions) {
    for (const inst of f.instructions()) {
      value(inst, `${inst.opcode} in @${f.name}`);
      for (const op of inst.operands) value(op, `operand of ${inst.opcode} in @${f.name}`);
    }
  }
  return found;
}

describe('typed-pointer modules', () => {
  test.prop([typedModule()], fcOptions(100))('print to a fixed point and are typed throughout', (text) => {
    const m = readTyped(text);
    expect(m.typedPointers).toBe(true);
    expect(opaquePointers(m)).toEqual([]);
    const printed = printModule(m);
    expect(printed).not.toMatch(/\bptr\b/);
    const again = readTyped(printed);
    expect(again.typedPointers).toBe(true);
    expect(printModule(again)).toBe(printed);
  }, 120_000);

  test.prop([typedModule()], fcOptions(50))('clone like the original, sharing type objects', (text) => {
    const m = readTyped(text);
    const c = cloneModule(m);
    expect(c.typedPointers).toBe(true);
    expect(printModule(c)).toBe(printModule(m));
    m.globals.forEach((g, i) => expect(c.globals[i]!.type).toBe(g.type));
  }, 120_000);

});

describe.skipIf(opt14 === undefined)('agreement with LLVM 14 opt (typed pointers)', () => {
  test.prop([typedModule()], fcOptions(40))('typed modules print as opt -S does (attribute spellings aside)', (text) => {
    const expected = runTool(opt14!, ['-S'], text);
    expect(expected.stderr).toBe('');
    expect(withoutAttributeSpellings(printModule(readTyped(text)))).toBe(withoutAttributeSpellings(expected.stdout));
  }, 120_000);
});

describe.skipIf(opt16 === undefined)('agreement with LLVM 16 opt (the same texts read as opaque)', () => {
  test.prop([typedModule()], fcOptions(40))("read in 'opaque' mode, typed modules print as opt -S does", (text) => {
    const expected = runTool(opt16!, ['-S'], text);
    expect(expected.stderr).toBe('');
    expect(printModule(parseModule(text, { filename: '<stdin>' }))).toBe(expected.stdout);
  }, 120_000);
});

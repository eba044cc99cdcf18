/**
 * Properties of the operand type rules (`operand-rules.ts`), over random cast opcodes and
 * random pairs of first-class types (integers, floats, pointers in two address spaces, fixed and
 * scalable vectors of them, and aggregates):
 * 1. Converse casts agree: trunc A→B ⇔ zext B→A ⇔ sext B→A; fptrunc A→B ⇔ fpext B→A;
 *    ptrtoint A→B ⇔ inttoptr B→A; fptoui A→B ⇔ uitofp B→A; bitcast and addrspacecast are
 *    symmetric; no type casts to itself except by bitcast.
 * 2. The parser applies them: a cast instruction parses exactly when `castIsValid` holds.
 * 3. When LLVM 16's opt is installed: it accepts the same cast instructions (agreement with
 *    the reference implementation).
 */
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { castIsValid, type CastOpcode } from './operand-rules.js';
import { parseModule } from '../reader/parser.js';
import { Context } from '../model/context.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { parses } from '../../test/verdict.js';
import type { Type } from '../model/types.js';

const TYPE_TEXTS = [
  'i1', 'i8', 'i16', 'i32', 'i64', 'i128', 'half', 'bfloat', 'float', 'double', 'fp128',
  'ptr', 'ptr addrspace(1)', '<2 x i32>', '<4 x i16>', '<2 x i64>', '<2 x float>', '<1 x i64>',
  '<1 x ptr>', '<2 x ptr>', '<2 x ptr addrspace(1)>', '<vscale x 2 x i32>', '<vscale x 1 x i64>',
  '<vscale x 2 x ptr>', '{ i32 }', '[2 x i32]',
] as const;
const OPS: readonly CastOpcode[] = ['trunc', 'zext', 'sext', 'fptrunc', 'fpext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast'];

const ctx = new Context();
/** Types by their text, read through the parser so they are the context's own. */
function typeOf(text: string): Type {
  const m = parseModule(`declare void @f(${text})\n`, { filename: 't.ll', context: ctx });
  return m.functions[0]!.valueType.params[0]!;
}
const typeText = fc.constantFrom(...TYPE_TEXTS);
const opcode = fc.constantFrom(...OPS);

const castModule = (op: string, from: string, to: string): string => `define void @f(${from} %a) {\n  %c = ${op} ${from} %a to ${to}\n  ret void\n}\n`;

describe('cast rules', () => {
  test.prop([typeText, typeText], fcOptions(300))('1: converse casts agree', (a, b) => {
    const [ta, tb] = [typeOf(a), typeOf(b)];
    const v = (op: CastOpcode, x: Type, y: Type): boolean => castIsValid(op, x, y);
    expect(v('trunc', ta, tb)).toBe(v('zext', tb, ta));
    expect(v('zext', tb, ta)).toBe(v('sext', tb, ta));
    expect(v('fptrunc', ta, tb)).toBe(v('fpext', tb, ta));
    expect(v('ptrtoint', ta, tb)).toBe(v('inttoptr', tb, ta));
    expect(v('fptoui', ta, tb)).toBe(v('uitofp', tb, ta));
    expect(v('bitcast', ta, tb)).toBe(v('bitcast', tb, ta));
    expect(v('addrspacecast', ta, tb)).toBe(v('addrspacecast', tb, ta));
    if (a === b) for (const op of OPS) if (op !== 'bitcast') expect(v(op, ta, ta)).toBe(false);
  });

  test.prop([opcode, typeText, typeText], fcOptions(300))('2: a cast instruction parses exactly when castIsValid holds', (op, from, to) => {
    expect(parses(castModule(op, from, to))).toBe(castIsValid(op, typeOf(from), typeOf(to)));
  });

  const opt16 = llvmTool('opt');
  // without LLVM 16 there is nothing to compare with (describe.skipIf: test.skipIf has no typed .prop)
  describe.skipIf(opt16 === undefined)('against LLVM 16 opt', () => {
      test.prop([fc.array(fc.tuple(opcode, typeText, typeText), { minLength: 1, maxLength: 20 })], fcOptions(40))(
        '3: LLVM 16 opt accepts the same cast instructions',
        (casts) => {
          for (const [op, from, to] of casts) {
            const text = castModule(op, from, to);
            expect({ op, from, to, accepted: runTool(opt16!, ['-S', '-o', '/dev/null', '-'], text).status === 0 }).toEqual({ op, from, to, accepted: parses(text) });
          }
        },
        120_000,
      );
  });
});

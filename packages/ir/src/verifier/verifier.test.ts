import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Instruction } from '../model/instructions.js';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { moduleKind } from '../unit-kinds.js';
import { formatProblems, verifyModule } from './verifier.js';
import { BasicBlock } from '../model/values.js';

const parse = (text: string): Module => parseModule(text, { filename: 'verify.ll' });
const text = `
@g = global i32 0
@h = global ptr @g

define i32 @f(i32 %a, i1 %c) {
entry:
  br i1 %c, label %then, label %join
then:
  %x = add i32 %a, 1
  br label %join
join:
  %p = phi i32 [ %a, %entry ], [ %x, %then ]
  %v = load i32, ptr @g
  %r = call i32 @callee(i32 %p)
  ret i32 %r
}
define i32 @callee(i32 %y) {
  ret i32 %y
}
!named = !{!0}
!0 = !{ptr @g}
`;
const messages = (m: Module): string[] => verifyModule(m).map((p) => `${p.where}: ${p.message}`);

describe('verifyModule', () => {
  it('accepts a well-formed module', () => {
    expect(verifyModule(parse(text))).toEqual([]);
  });

  it('accepts the roundtrip fixture', () => {
    const m = parseModule(readFileSync(new URL('../../test/fixtures/roundtrip/instructions.ll', import.meta.url), 'latin1'), { filename: 'instructions.ll' });
    expect(formatProblems(verifyModule(m))).toBe('');
  });

  it('reports references to a global removed from the module, in code, initializers and metadata', () => {
    const m = parse(text);
    m.remove(m.getGlobalVariable('g')!);
    expect(messages(m)).toEqual([
      '@h: initializer refers to @g, which is not in this module',
      '@f: load %v refers to @g, which is not in this module',
      '!named: metadata refers to @g, which is not in this module',
    ]);
  });

  it('reports a use of an instruction erased from its block', () => {
    const m = parse(text);
    const then = m.getFunction('f')!.blocks[1]!;
    then.instructions.splice(0, 1);
    expect(messages(m)).toEqual(['@f: phi %p uses %x, which is not in this function (erased or foreign)']);
  });

  it('reports blocks without a terminator, empty blocks and terminators in the middle', () => {
    const m = parse(text);
    const f = m.getFunction('f')!;
    const join = f.blocks[2]!;
    join.instructions.pop();
    const then = f.blocks[1]!;
    const extra = new Instruction('unreachable', m.context.void, []);
    extra.parent = then;
    then.instructions.unshift(extra);
    const empty = new BasicBlock('empty', f, m.context.label);
    f.blocks.push(empty);
    expect(messages(m)).toEqual([
      '@f: terminator unreachable in the middle of block %then',
      '@f: block %join does not end with a terminator',
      '@f: block %empty is empty (no terminator)',
    ]);
  });

  it('reports phi nodes that are not at the top of their block', () => {
    const m = parse(text);
    const join = m.getFunction('f')!.blocks[2]!;
    const [phi, load] = join.instructions;
    join.instructions[0] = load!;
    join.instructions[1] = phi!;
    expect(messages(m)).toEqual(['@f: phi %p in block %join is not grouped at the top of the block']);
  });

  it('reports call arguments that do not match the function type', () => {
    const m = parse(text);
    const call = m.getFunction('f')!.blocks[2]!.instructions[2]!;
    call.operands[1] = m.context.constInt(m.context.i64, 1);
    call.operands.push(m.context.constI32(2));
    expect(messages(m)).toEqual([
      '@f: call %r passes 2 arguments to a function type with 1 parameters',
      "@f: call %r: argument 0 does not have the parameter's type",
    ]);
  });

  it('reports arguments and blocks of another function', () => {
    const m = parse(text);
    const f = m.getFunction('f')!;
    const callee = m.getFunction('callee')!;
    const ret = callee.blocks[0]!.instructions[0]!;
    ret.operands[0] = f.args[0]!;
    const br = f.blocks[1]!.instructions[1]!;
    br.operands[0] = callee.blocks[0]!;
    expect(messages(m)).toEqual([
      '@f: br (unnamed br) refers to block <unnamed>, which is not in this function',
      '@callee: ret (unnamed ret) uses argument %a of another function',
    ]);
  });

  it('reports a symbol table out of sync with the names', () => {
    const m = parse(text);
    m.getFunction('callee')!.name = 'renamedBehindTheTablesBack';
    expect(messages(m)).toEqual(["@renamedBehindTheTablesBack: the symbol table maps 'renamedBehindTheTablesBack' to another value (or nothing)"]);
  });

  it('reports a local name used twice', () => {
    const m = parse(text);
    m.getFunction('f')!.blocks[1]!.instructions[0]!.name = 'a';
    expect(messages(m)).toEqual(['@f: local name %a is used twice (instruction)']);
  });

  it('is what the module unit kind runs for verify-after-each', () => {
    const m = parse(text);
    expect(() => moduleKind.verify!(m)).not.toThrow();
    m.remove(m.getGlobalVariable('g')!);
    expect(() => moduleKind.verify!(m)).toThrow(/@h: initializer refers to @g, which is not in this module/);
  });

  it('stops at maxProblems', () => {
    const m = parse(text);
    m.remove(m.getGlobalVariable('g')!);
    expect(verifyModule(m, { maxProblems: 2 }).length).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { Context } from '../model/context.js';
import { declarationOf } from '../transforms/clone.js';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { NOT_AN_OPERAND, forEachReference, forEachReferenceOf, type ReferenceHolder } from './references.js';
import { isGlobalValue, type Value } from '../model/values.js';

const parse = (text: string): Module => parseModule(text, { filename: 'refs.ll', context: new Context() });

const text = `
@g = global ptr @f
@a = alias void (), ptr @f
@i = ifunc void (), ptr @resolver

define ptr @resolver() {
  ret ptr @f
}

define void @f() prefix i32 1 prologue i8 2 personality ptr @pers {
  %x = add i32 1, 2
  call void @h(ptr @g, i32 %x) [ "deopt"(ptr @a) ]
  ret void
}

declare void @h(ptr, i32)
declare i32 @pers(...)
`;

const name = (v: Value): string => (isGlobalValue(v) ? `@${v.name}` : v.vk);
const holderName = (h: ReferenceHolder): string => (h.vk === 'instruction' ? `${h.function?.name}:${h.opcode}` : `@${h.name}`);

describe('forEachReference', () => {
  it('visits initializers, aliasees, resolvers, then functions: personality, prefix, prologue, operands and bundle inputs, in order', () => {
    const seen: string[] = [];
    forEachReference(parse(text), (value, holder, operand) => seen.push(`${holderName(holder)} ${operand} ${name(value)}`));
    expect(seen).toEqual([
      '@g -1 @f',
      '@a -1 @f',
      '@i -1 @resolver',
      'resolver:ret 0 @f',
      '@f -1 @pers',
      '@f -1 int',
      '@f -1 int',
      'f:add 0 int',
      'f:add 1 int',
      'f:call 0 @h',
      'f:call 1 @g',
      'f:call 2 instruction',
      `f:call ${NOT_AN_OPERAND} @a`,
    ]);
  });

  it('visits one global alone with forEachReferenceOf (nothing for declarations)', () => {
    const m = parse(text);
    const seen: string[] = [];
    forEachReferenceOf(m.getFunction('h')!, (value) => seen.push(name(value)));
    forEachReferenceOf(m.getGlobalValue('g')!, (value) => seen.push(name(value)));
    expect(seen).toEqual(['@f']);
  });
});

describe('declarationOf', () => {
  const m = parse(`
$c = comdat any
@v = internal addrspace(1) constant i32 7, section "s", comdat($c), align 4, !md !0
define weak_odr dso_local spir_func i32 @fn(i32 %x) #0 section "t" comdat($c) align 16 gc "shadow" prefix i32 9 personality ptr @pers !dbg !1 {
  ret i32 %x
}
declare i32 @pers(...)
attributes #0 = { nounwind "sycl-module-id"="a.cpp" }
!0 = !{}
!1 = !{}
`);

  it('makes an external function declaration with the same attributes, prefix kept, body, comdat, personality and attachments dropped', () => {
    const fn = m.getFunction('fn')!;
    const decl = declarationOf(fn);
    expect(decl).not.toBe(fn);
    expect(decl.parent).toBeNull();
    expect(decl.isDeclaration).toBe(true);
    expect(decl.linkage).toBe('external');
    expect(decl.comdat).toBeUndefined();
    expect(decl.personality).toBeUndefined();
    expect(decl.prefix).toBe(fn.prefix);
    expect(decl.attachments).toEqual([]);
    expect([decl.callingConv, decl.section, decl.align, decl.gc, decl.dsoLocal, decl.attributes]).toEqual([fn.callingConv, fn.section, fn.align, fn.gc, fn.dsoLocal, fn.attributes]);
    expect(decl.args.map((a) => [a.type, a.name, a.parent === decl])).toEqual([[fn.args[0]!.type, '', true]]);
    expect(fn.blocks.length).toBe(1);
  });

  it('makes an external variable declaration that keeps its attachments', () => {
    const v = m.getGlobalVariable('v')!;
    const decl = declarationOf(v);
    expect(decl.initializer).toBeUndefined();
    expect([decl.linkage, decl.comdat, decl.isConstant, decl.section, decl.align]).toEqual(['external', undefined, true, 's', 4]);
    expect(decl.attachments).toEqual(v.attachments);
    expect(decl.attachments).not.toBe(v.attachments);
  });

  it('prints as LLVM prints the declarations CloneModule makes', () => {
    const out = parse('');
    out.addFunction(declarationOf(m.getFunction('fn')!));
    expect(printModule(out)).toContain('declare dso_local spir_func i32 @fn(i32) #0 section "t" align 16 gc "shadow" prefix i32 9\n');
  });
});

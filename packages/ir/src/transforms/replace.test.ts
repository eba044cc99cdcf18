import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IrError } from '../errors.js';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { deleteFunctions, eraseUnused, replaceAllUsesWith } from './replace.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { verifyModule } from '../verifier/verifier.js';
import type { GlobalValue, IRFunction, Value } from '../model/values.js';

const parse = (text: string): Module => parseModule(text, { filename: 'replace.ll' });
const gv = (m: Module, name: string): GlobalValue => {
  const g = m.getGlobalValue(name);
  if (g === undefined) throw new Error(`no @${name}`);
  return g;
};
/** The printed module without its header lines. */
const body = (m: Module): string => printModule(m).split('\n').filter((l) => !l.startsWith('; ModuleID') && !l.startsWith('source_filename')).join('\n');

describe('replaceAllUsesWith', () => {
  const text = `
@old = global i32 1
@new = global i32 2
@holder = global ptr @old
@expr = global i64 ptrtoint (ptr @old to i64)
@alias = alias i32, ptr @old

define void @f(i32 %x) personality ptr @old {
  %v = load i32, ptr @old
  %p = getelementptr inbounds i32, ptr @old, i64 1
  call void @g(ptr @old) [ "deopt"(ptr @old) ]
  call void @llvm.dbg.value(metadata ptr @old, metadata !2, metadata !DIExpression()), !dbg !5
  ret void
}
declare void @g(ptr)
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!named = !{!6}
!llvm.module.flags = !{!7}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !DILocalVariable(name: "x", scope: !3, file: !1, line: 1, type: !8)
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DILocation(line: 1, scope: !3)
!6 = !{ptr @old, !"old"}
!7 = !{i32 2, !"Debug Info Version", i32 3}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
`;

  it('rewrites operands, bundles, initializers, aliasees, personality and metadata wrappers', () => {
    const m = parse(text);
    replaceAllUsesWith(m, new Map<Value, Value>([[gv(m, 'old'), gv(m, 'new')]]));
    const expected = parse(text.replaceAll('@old', '@new').replace('@new = global i32 1\n@new = global i32 2', '@old = global i32 1\n@new = global i32 2'));
    expect(body(m)).toBe(body(expected));
    expect(printModule(m)).not.toContain('ptr @old');
    expect(verifyModule(m)).toEqual([]);
  });

  it('rebuilds constants through the folding constructors', () => {
    const m = parse(text);
    const old = gv(m, 'old');
    replaceAllUsesWith(m, new Map<Value, Value>([[old, m.context.nullPtr(m.context.ptr())]]));
    expect(printModule(m)).toContain('@expr = global i64 0');
    expect(printModule(m)).toContain('@holder = global ptr null');
  });

  it('replaces an instruction, including its uses in function-local metadata', () => {
    const m = parse(`
define i32 @f(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  call void @llvm.dbg.value(metadata i32 %s, metadata !0, metadata !DIExpression())
  %t = mul i32 %s, %s
  ret i32 %t
}
declare void @llvm.dbg.value(metadata, metadata, metadata)
!llvm.module.flags = !{!2}
!0 = !DILocalVariable(name: "s", arg: 1, scope: !1)
!1 = distinct !DISubprogram(name: "f", spFlags: 0)
!2 = !{i32 2, !"Debug Info Version", i32 3}
`);
    const f = m.getFunction('f')!;
    const [a] = f.args;
    const s = f.blocks[0]!.instructions[0]!;
    replaceAllUsesWith(m, new Map<Value, Value>([[s, a!]]));
    f.blocks[0]!.instructions.shift();
    const printed = printModule(m);
    expect(printed).toContain('%t = mul i32 %a, %a');
    expect(printed).toContain('metadata i32 %a');
    expect(verifyModule(m)).toEqual([]);
  });

  it('refuses a replacement of another type', () => {
    const m = parse('@a = global i32 0\n@b = addrspace(1) global i32 0\ndefine ptr @f() {\n  ret ptr @a\n}');
    expect(() => replaceAllUsesWith(m, new Map<Value, Value>([[gv(m, 'a'), gv(m, 'b')]]))).toThrow(IrError);
    expect(() => replaceAllUsesWith(m, new Map<Value, Value>([[gv(m, 'a'), gv(m, 'b')]]))).toThrow(/@a by @b: types differ/);
  });

  it('refuses to put a non-constant into a constant', () => {
    const m = parse('@a = global i32 0\n@h = global ptr @a\ndefine void @f(ptr %p) {\n  ret void\n}');
    const p = m.getFunction('f')!.args[0]!;
    expect(() => replaceAllUsesWith(m, new Map<Value, Value>([[gv(m, 'a'), p]]))).toThrow(/used in a constant/);
  });
});

describe('deleteFunctions', () => {
  const text = `
@llvm.used = appending global [2 x ptr] [ptr @dead, ptr @kernel], section "llvm.metadata"
@fp = global ptr @stillUsed

define void @kernel() {
  call void @stillUsed()
  ret void
}
define void @stillUsed() comdat {
  call void @dead()
  ret void
}
define void @dead() comdat($stillUsed) {
  ret void
}
$stillUsed = comdat any

!named = !{!0}
!0 = !{ptr @dead}
`;

  it('keeps a function still referenced from outside the set as a declaration', () => {
    const m = parse(text);
    const result = deleteFunctions(m, [gv(m, 'stillUsed') as IRFunction, gv(m, 'dead') as IRFunction]);
    expect(result.deleted.map((f) => f.name)).toEqual(['dead']);
    expect(result.declared.map((f) => f.name)).toEqual(['stillUsed']);
    const printed = printModule(m);
    expect(printed).toContain('declare void @stillUsed()');
    expect(printed).toContain('@llvm.used = appending global [1 x ptr] [ptr @kernel]');
    expect(printed).toContain('!0 = distinct !{null}');
    expect(printed).not.toContain('comdat');
    expect(m.comdats.size).toBe(0);
    expect(verifyModule(m)).toEqual([]);
  });

  it('replaces remaining uses by poison in poison mode', () => {
    const m = parse(text);
    deleteFunctions(m, [gv(m, 'stillUsed') as IRFunction], { remainingUses: 'poison' });
    const printed = printModule(m);
    expect(m.getFunction('stillUsed')).toBeUndefined();
    expect(printed).toContain('@fp = global ptr poison');
    expect(printed).toContain('call void poison()');
    expect(verifyModule(m)).toEqual([]);
  });

  it('names the function and a user in error mode', () => {
    const m = parse(text);
    expect(() => deleteFunctions(m, [gv(m, 'stillUsed') as IRFunction], { remainingUses: 'error' })).toThrow(/cannot delete @stillUsed: still used by @fp/);
  });

  it('removes a whole group that only refers to itself', () => {
    const m = parse(text);
    const result = deleteFunctions(m, [gv(m, 'kernel'), gv(m, 'stillUsed'), gv(m, 'dead')] as IRFunction[], { remainingUses: 'poison' });
    expect(result.deleted.map((f) => f.name)).toEqual(['kernel', 'stillUsed', 'dead']);
    expect(m.functions).toEqual([]);
    expect(m.getGlobalVariable('llvm.used')).toBeUndefined();
    expect(verifyModule(m)).toEqual([]);
  });
});

describe('eraseUnused (GlobalDCE)', () => {
  const text = `
$group = comdat any

@used.var = internal global i32 1
@dead.var = internal global ptr @deadHelper
@external.var = global i32 0

define void @kernel() {
  call void @helper()
  store i32 0, ptr @used.var
  ret void
}
define internal void @helper() {
  call void @declared()
  ret void
}
define internal void @deadHelper() {
  call void @deadChain()
  ret void
}
define internal void @deadChain() {
  call void @unusedDecl2()
  ret void
}
define linkonce_odr void @groupA() comdat($group) {
  ret void
}
define linkonce_odr void @groupB() comdat($group) {
  ret void
}
define void @usesGroup() {
  call void @groupA()
  ret void
}
define linkonce_odr void @unusedLinkonce() {
  ret void
}
declare void @declared()
declare void @unusedDecl()
declare void @unusedDecl2()

!named = !{!0}
!0 = !{ptr @deadHelper, ptr @helper}
`;

  it('erases unreferenced discardable globals and unused declarations, to a fixpoint', () => {
    const m = parse(text);
    const erased = eraseUnused(m);
    expect(erased.map((g) => g.name)).toEqual(['dead.var', 'deadHelper', 'deadChain', 'unusedLinkonce', 'unusedDecl', 'unusedDecl2']);
    expect(m.functions.map((f) => f.name)).toEqual(['kernel', 'helper', 'groupA', 'groupB', 'usesGroup', 'declared']);
    // LLVM drops the uniquing of a node whose value is deleted
    expect(printModule(m)).toContain('!0 = distinct !{null, ptr @helper}');
    expect(verifyModule(m)).toEqual([]);
  });

  it('keeps every member of a comdat when one member is live', () => {
    const m = parse(text);
    eraseUnused(m);
    expect(m.getFunction('groupB')).toBeDefined();
  });

  it('takes the roots from the caller when given', () => {
    const m = parse(text);
    eraseUnused(m, { roots: (g) => g.name === 'usesGroup' });
    expect(m.functions.map((f) => f.name)).toEqual(['groupA', 'groupB', 'usesGroup']);
    expect(m.globals).toEqual([]);
  });

  // Every kind of operand that can keep a global alive: direct, inside a constant expression, an
  // aggregate, an alias, a bundle input; locals and integers keep nothing alive.
  const operandKinds = `
@direct = internal global i32 0
@in.expr = internal global [2 x i32] zeroinitializer
@in.struct = internal global i32 0
@aliased = internal global i32 0
@alias = internal alias i32, ptr @aliased
@in.bundle = internal global i32 0
@unused = internal global i32 0

define void @kernel(ptr %p) {
  %a = load i32, ptr @direct
  %b = load i32, ptr getelementptr ([2 x i32], ptr @in.expr, i64 0, i64 1)
  %c = insertvalue { ptr, i32 } { ptr @in.struct, i32 0 }, i32 %a, 1
  store i32 %b, ptr @alias
  call void @callee(ptr %p) [ "deopt"(ptr @in.bundle) ]
  ret void
}
declare void @callee(ptr)
`;

  it('keeps what operands refer to directly, in constant expressions and aggregates, through aliases and bundle inputs', () => {
    const m = parse(operandKinds);
    expect(eraseUnused(m).map((g) => g.name)).toEqual(['unused']);
  });

  const opt = llvmTool('opt');
  it.skipIf(opt === undefined)('matches opt -passes=globaldce (LLVM 16) on every kind of operand', () => {
    const m = parse(operandKinds);
    eraseUnused(m);
    const r = runTool(opt!, ['-S', '-passes=globaldce', '-', '-o', '-'], operandKinds);
    expect(r.status, r.stderr).toBe(0);
    expect(body(m)).toBe(r.stdout.split('\n').filter((l) => !l.startsWith('; ModuleID') && !l.startsWith('source_filename')).join('\n'));
  });

  it.skipIf(opt === undefined)('matches opt -passes=globaldce (LLVM 16)', () => {
    const m = parse(text);
    eraseUnused(m);
    const r = runTool(opt!, ['-S', '-passes=globaldce', '-', '-o', '-'], text);
    expect(r.status).toBe(0);
    expect(body(m)).toBe(r.stdout.split('\n').filter((l) => !l.startsWith('; ModuleID') && !l.startsWith('source_filename')).join('\n'));
  });

  it('matches the stored opt -passes=globaldce output on the link fixture', () => {
    const dir = new URL('../../test/fixtures/link/dpcpp-tus/', import.meta.url);
    const m = parseModule(readFileSync(new URL('a.ll', dir), 'latin1'), { filename: 'a.ll' });
    eraseUnused(m);
    const expected = readFileSync(new URL('a.globaldce.ll', dir), 'latin1');
    expect(printModule(m)).toBe(expected);
  });
});

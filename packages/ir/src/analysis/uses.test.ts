import { describe, expect, it } from 'vitest';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { computeUses, ConstantGlobals, globalsInMetadata, type GlobalUser } from './uses.js';
import type { GlobalValue, IRFunction } from '../model/values.js';

const parse = (text: string): Module => parseModule(text, { filename: 'uses.ll' });
const gv = (m: Module, name: string): GlobalValue => {
  const g = m.getGlobalValue(name);
  if (g === undefined) throw new Error(`no @${name}`);
  return g;
};
const describeUser = (u: GlobalUser): string => (u.vk === 'instruction' ? `${u.function?.name}:${u.opcode}` : `@${u.name}`);

const text = `
@g = addrspace(1) global i32 0
@table = global [2 x ptr] [ptr @f, ptr addrspacecast (ptr addrspace(1) getelementptr inbounds ([4 x i32], ptr addrspace(1) @arr, i64 0, i64 2) to ptr)]
@arr = addrspace(1) global [4 x i32] zeroinitializer
@alias = alias void (), ptr @f
@llvm.used = appending global [1 x ptr] [ptr @kept], section "llvm.metadata"

define void @user() personality ptr @pers {
  store i32 1, ptr addrspace(4) getelementptr inbounds (i32, ptr addrspace(4) addrspacecast (ptr addrspace(1) @g to ptr addrspace(4)), i64 1)
  call void @f()
  call void @f()
  call void @h(ptr @f) [ "deopt"(ptr @bundled) ]
  call void @mismatched(i32 1)
  call addrspace(4) void addrspacecast (ptr @casted to ptr addrspace(4))()
  ret void
}
define void @f() {
  ret void
}
define void @kept() {
  ret void
}
define void @mismatched() {
  ret void
}
define void @casted() {
  ret void
}
define void @onlyMetadata() {
  ret void
}
declare void @h(ptr)
declare void @bundled()
declare i32 @pers(...)

!named = !{!0}
!0 = !{ptr @onlyMetadata}
`;

describe('users of global values', () => {
  const m = parse(text);
  const uses = computeUses(m);

  it('finds instruction users through nested constant expressions', () => {
    expect(uses.users(gv(m, 'g')).map(describeUser)).toEqual(['user:store']);
    expect(uses.containingGlobals(gv(m, 'g')).map((g) => g.name)).toEqual(['user']);
  });

  it('finds global initializers and aliasees as users, then instructions, each user once', () => {
    expect(uses.users(gv(m, 'f')).map(describeUser)).toEqual(['@table', '@alias', 'user:call', 'user:call', 'user:call']);
    expect(uses.containingGlobals(gv(m, 'f')).map((g) => g.name)).toEqual(['table', 'alias', 'user']);
  });

  it('finds uses inside aggregates of initializers', () => {
    expect(uses.users(gv(m, 'arr')).map(describeUser)).toEqual(['@table']);
  });

  it('counts personality functions and operand bundle inputs as uses', () => {
    expect(uses.users(gv(m, 'pers')).map(describeUser)).toEqual(['@user']);
    expect(uses.users(gv(m, 'bundled')).map(describeUser)).toEqual(['user:call']);
  });

  it('keeps metadata references apart from uses', () => {
    expect(uses.isUsed(gv(m, 'onlyMetadata'))).toBe(false);
    expect(uses.isUsedInMetadata(gv(m, 'onlyMetadata'))).toBe(true);
    expect(uses.isUsedInMetadata(gv(m, 'f'))).toBe(false);
    expect([...globalsInMetadata(m)].map((g) => g.name)).toEqual(['onlyMetadata']);
  });

  it('has no users for unreferenced globals', () => {
    expect(uses.users(gv(m, 'user'))).toEqual([]);
    expect(uses.isUsed(gv(m, 'user'))).toBe(false);
  });
});

describe('address-taken functions (LLVM hasAddressTaken)', () => {
  const m = parse(text);

  it('counts initializers, aliasees, arguments, casts, mismatched calls and llvm.used; not plain calls', () => {
    const uses = computeUses(m);
    const taken = uses.addressTakenFunctions().map((f) => f.name);
    expect(taken).toEqual(['f', 'kept', 'mismatched', 'casted', 'bundled', 'pers']);
    expect(uses.isAddressTaken(gv(m, 'h') as IRFunction)).toBe(false);
    expect(uses.isAddressTaken(gv(m, 'onlyMetadata') as IRFunction)).toBe(false);
  });

  it('ignores @llvm.used when asked to, still listing it as a user', () => {
    const uses = computeUses(m, { ignoreLLVMUsed: true });
    expect(uses.isAddressTaken(gv(m, 'kept') as IRFunction)).toBe(false);
    expect(uses.users(gv(m, 'kept')).map(describeUser)).toEqual(['@llvm.used']);
  });
});

describe('ConstantGlobals', () => {
  it('lists each global of a constant once, in first-reference order, and memoizes the answer', () => {
    const m = parse(`
@a = global i32 0
@b = global i32 0
@c = global [3 x ptr] [ptr @b, ptr @a, ptr @b]
`);
    const init = m.getGlobalVariable('c')!.initializer!;
    const cg = new ConstantGlobals();
    const first = cg.of(init);
    expect(first.map((g) => g.name)).toEqual(['b', 'a']);
    expect(cg.of(init)).toBe(first);
  });
});

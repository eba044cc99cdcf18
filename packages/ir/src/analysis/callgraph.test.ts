import { describe, expect, it } from 'vitest';
import { AttributeList } from '../model/attributes.js';
import { buildCallGraph, calledFunction } from './callgraph.js';
import { Context } from '../model/context.js';
import { CallInst, Instruction } from '../model/instructions.js';
import { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { BasicBlock, type IRFunction } from '../model/values.js';

const parse = (text: string): Module => parseModule(text, { filename: 'test.ll' });
const names = (fns: readonly IRFunction[]): string[] => fns.map((f) => f.name);
const fn = (m: Module, name: string): IRFunction => {
  const f = m.getFunction(name);
  if (f === undefined) throw new Error(`no @${name}`);
  return f;
};

describe('direct calls', () => {
  const m = parse(`
define void @root() {
  call void @b()
  call void @a()
  call void @b()
  invoke void @c() to label %ok unwind label %bad
ok:
  ret void
bad:
  %lp = landingpad { ptr, i32 } cleanup
  ret void
}
define void @a() {
  call void @b()
  ret void
}
declare void @b()
declare void @c()
`);
  const cg = buildCallGraph(m);

  it('lists distinct callees in first-call order, invokes included', () => {
    expect(names(cg.callees(fn(m, 'root')))).toEqual(['b', 'a', 'c']);
  });

  it('lists callers (reverse edges) in module order', () => {
    expect(names(cg.callers(fn(m, 'b')))).toEqual(['root', 'a']);
    expect(names(cg.callers(fn(m, 'root')))).toEqual([]);
  });

  it('gives declarations nodes without callees', () => {
    expect(cg.callees(fn(m, 'b'))).toEqual([]);
    expect(cg.indexOf(fn(m, 'b'))).toBe(2);
  });

  it('counts each distinct edge once', () => {
    expect(cg.edgeCount).toBe(4);
  });

  it('rejects functions of another module', () => {
    const other = parse('declare void @x()');
    expect(() => cg.callees(fn(other, 'x'))).toThrow(/not a function of this call graph/);
    expect(cg.indexOf(fn(other, 'x'))).toBe(-1);
  });
});

describe('recursion and strongly connected components', () => {
  const m = parse(`
define void @main() {
  call void @even()
  call void @self()
  call void @leaf()
  ret void
}
define void @even() {
  call void @odd()
  ret void
}
define void @odd() {
  call void @even()
  call void @leaf()
  ret void
}
define void @self() {
  call void @self()
  ret void
}
define void @leaf() {
  ret void
}
`);
  const cg = buildCallGraph(m);

  it('groups mutually recursive functions into one component, callees before callers', () => {
    expect(cg.stronglyConnectedComponents().map(names)).toEqual([['leaf'], ['even', 'odd'], ['self'], ['main']]);
  });

  it('tells recursive functions (self or mutual) from the others', () => {
    expect(cg.isRecursive(fn(m, 'self'))).toBe(true);
    expect(cg.isRecursive(fn(m, 'even'))).toBe(true);
    expect(cg.isRecursive(fn(m, 'odd'))).toBe(true);
    expect(cg.isRecursive(fn(m, 'main'))).toBe(false);
    expect(cg.isRecursive(fn(m, 'leaf'))).toBe(false);
  });

  it('walks reachability breadth-first from the roots in the given order', () => {
    expect(names(cg.reachableFrom([fn(m, 'even')]))).toEqual(['even', 'odd', 'leaf']);
    expect(names(cg.reachableFrom([fn(m, 'self'), fn(m, 'main')]))).toEqual(['self', 'main', 'even', 'leaf', 'odd']);
  });
});

describe('indirect calls and address-taken functions', () => {
  const text = `
@table = global [2 x ptr] [ptr @fromTable, ptr @intFn]
@llvm.used = appending global [1 x ptr] [ptr @onlyUsed], section "llvm.metadata"
@slot = global ptr null

define void @caller(ptr %fp) {
  store ptr @stored, ptr @slot
  call void %fp(i32 1)
  ret void
}
define void @passes() {
  call void @sink(ptr @asArgument)
  ret void
}
define void @fromTable(i32 %x) {
  ret void
}
define i32 @intFn(i32 %x) {
  ret i32 %x
}
define void @stored(i32 %x) {
  ret void
}
define void @asArgument(i32 %x) {
  ret void
}
define void @onlyUsed(i32 %x) {
  ret void
}
define void @neverTaken(i32 %x) {
  ret void
}
declare void @sink(ptr)
`;

  it('marks functions used other than as callees: initializers, stores, arguments, llvm.used', () => {
    const m = parse(text);
    const cg = buildCallGraph(m);
    expect(names(cg.addressTakenFunctions())).toEqual(['fromTable', 'intFn', 'stored', 'asArgument', 'onlyUsed']);
    expect(cg.isAddressTaken(fn(m, 'neverTaken'))).toBe(false);
  });

  it('resolves an indirect call to every address-taken function of its function type', () => {
    const m = parse(text);
    const cg = buildCallGraph(m);
    expect(names(cg.callees(fn(m, 'caller')))).toEqual(['fromTable', 'stored', 'asArgument', 'onlyUsed']);
    expect(cg.directCallees(fn(m, 'caller'))).toEqual([]);
    expect(cg.hasIndirectCall(fn(m, 'caller'))).toBe(true);
    expect(cg.hasIndirectCall(fn(m, 'passes'))).toBe(false);
  });

  it('ignores llvm.used when asked to', () => {
    const m = parse(text);
    const cg = buildCallGraph(m, { ignoreLLVMUsed: true });
    expect(cg.isAddressTaken(fn(m, 'onlyUsed'))).toBe(false);
    expect(names(cg.callees(fn(m, 'caller')))).toEqual(['fromTable', 'stored', 'asArgument']);
  });

  it('records only the unknown-callee marker in unknown-only mode', () => {
    const m = parse(text);
    const cg = buildCallGraph(m, { indirectCalls: 'unknown-only' });
    expect(cg.callees(fn(m, 'caller'))).toEqual([]);
    expect(cg.hasIndirectCall(fn(m, 'caller'))).toBe(true);
  });
});

describe('callees behind constant expressions, aliases and inline asm', () => {
  const m = parse(`
@alias = alias void (), ptr @aliased

define void @caller() {
  call addrspace(4) void addrspacecast (ptr @castee to ptr addrspace(4))()
  call void @alias()
  call void asm sideeffect "nop", ""()
  ret void
}
define void @castee() {
  ret void
}
define void @aliased() {
  ret void
}
`);
  const cg = buildCallGraph(m);

  it('looks through pointer casts to the called function', () => {
    expect(names(cg.callees(fn(m, 'caller')))).toEqual(['castee', 'aliased']);
    expect(calledFunction(fn(m, 'caller').blocks[0]!.instructions[0]!.operands[0]!)).toBe(fn(m, 'castee'));
  });

  it('does not count a cast callee as an address-take, but an aliasee is one', () => {
    expect(cg.isAddressTaken(fn(m, 'castee'))).toBe(false);
    expect(cg.isAddressTaken(fn(m, 'aliased'))).toBe(true);
  });

  it('does not treat inline asm as an indirect call', () => {
    expect(cg.hasIndirectCall(fn(m, 'caller'))).toBe(false);
  });
});

/** A chain f0 → f1 → ... → f(n-1) → f0, built through the API (parsing 100k functions is slow). */
function chainModule(n: number): Module {
  const ctx = new Context();
  const m = new Module('chain', ctx);
  const type = ctx.fn(ctx.void, []);
  const fns: IRFunction[] = [];
  for (let i = 0; i < n; i++) fns.push(m.createFunction(`f${i}`, type));
  for (let i = 0; i < n; i++) {
    const f = fns[i]!;
    const b = new BasicBlock('entry', f, ctx.label);
    const call = new CallInst('call', ctx.void, type, [fns[(i + 1) % n]!], AttributeList.empty);
    const ret = new Instruction('ret', ctx.void, []);
    call.parent = b;
    ret.parent = b;
    b.instructions.push(call, ret);
    f.blocks = [b];
  }
  return m;
}

describe('large graphs', () => {
  it('finds one component in a 200k-function cycle without recursion limits', () => {
    const m = chainModule(200_000);
    const cg = buildCallGraph(m);
    const sccs = cg.stronglyConnectedComponents();
    expect(sccs.length).toBe(1);
    expect(sccs[0]!.length).toBe(200_000);
    expect(cg.reachableFrom([m.functions[5]!]).length).toBe(200_000);
  }, 60_000);

  it('splits a broken cycle into single-function components, deepest callee first', () => {
    const m = chainModule(50_000);
    const last = m.functions[m.functions.length - 1]!;
    last.blocks[0]!.instructions.shift();
    const sccs = buildCallGraph(m).stronglyConnectedComponents();
    expect(sccs.length).toBe(50_000);
    expect(sccs[0]![0]).toBe(last);
    expect(sccs[sccs.length - 1]![0]).toBe(m.functions[0]);
  }, 60_000);
});

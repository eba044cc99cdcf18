import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { cloneModule } from '../transforms/clone.js';
import { ValueMapper } from '../transforms/mapper.js';
import { CallInst, Flag, Instruction, MemoryInst, type DebugRecord } from './instructions.js';
import { getMetadata, setMetadata } from './module.js';
import type { Value } from './values.js';
import { debugRecordsModule } from '../../test/debug-records.js';

// The parsed model lives as long as a command does, and the garbage collector copies every object
// of it: fields that are the same for every instance (the `vk` tags), rare ones (debug records,
// the atomic part of memory instructions) and empty lists (bundles) are kept off the instances.
// These tests pin that layout down and check the public API still reads and writes the same.

const source = `
define i32 @f(ptr %p, i32 %x) {
entry:
  %a = load i32, ptr %p, align 4
  store i32 %a, ptr %p, align 4
  %b = load atomic i32, ptr %p syncscope("agent") acquire, align 4
  %c = atomicrmw add ptr %p, i32 1 seq_cst, align 4
  %d = cmpxchg ptr %p, i32 0, i32 1 acq_rel monotonic, align 4
  %e = call i32 @g(i32 %x)
  %t = call token @llvm.experimental.convergence.entry()
  %h = call i32 @g(i32 %a) [ "convergencectrl"(token %t) ]
  br label %exit

exit:
  ret i32 %e
}

declare i32 @g(i32)
declare token @llvm.experimental.convergence.entry()
`;

const isTagged = (v: Value): string => v.vk;

describe('the layout of the long-lived model', () => {
  const module = parseModule(source, { filename: 'layout.ll' });
  const f = module.getFunction('f')!;
  const instructions = [...f.instructions()];

  it('keeps the vk tag of instructions, blocks and arguments on the prototype, and narrowing on it works', () => {
    for (const v of [...instructions, ...f.blocks, ...f.args]) {
      expect(Object.hasOwn(v, 'vk')).toBe(false);
      expect(Object.keys(v)).not.toContain('vk');
    }
    expect(instructions.map(isTagged)).toEqual(instructions.map(() => 'instruction'));
    expect(f.blocks.map(isTagged)).toEqual(['block', 'block']);
    expect(f.args.map(isTagged)).toEqual(['argument', 'argument']);
    const operand: Value = instructions[1]!.operands[0]!;
    // `vk` still narrows the Value union
    if (operand.vk === 'instruction') expect(operand.opcode).toBe('load');
    else expect.unreachable('the stored value is the load');
  });

  it('gives instructions no own debugRecords field; records set and read back through the accessor', () => {
    const inst = instructions[0]!;
    expect(Object.hasOwn(inst, 'debugRecords')).toBe(false);
    expect(inst.debugRecords).toBeNull();
    const records: DebugRecord[] = [{ kind: 'label', operands: [null] }];
    inst.debugRecords = records;
    expect(inst.debugRecords).toBe(records);
    expect(Object.hasOwn(inst, 'debugRecords')).toBe(false);
    // other instructions are not affected, and null removes them
    expect(instructions[1]!.debugRecords).toBeNull();
    inst.debugRecords = null;
    expect(inst.debugRecords).toBeNull();
    const fresh = new Instruction('unreachable', inst.type, []);
    expect(fresh.debugRecords).toBeNull();
  });

  it('gives plain loads and stores no atomic part, and atomic ones their orderings, scope and operation', () => {
    const memory = instructions.filter((i): i is MemoryInst => i instanceof MemoryInst);
    const [load, store, atomicLoad, rmw, cmpxchg] = memory;
    for (const plain of [load!, store!]) {
      expect(plain.ordering).toBeUndefined();
      expect(plain.failureOrdering).toBeUndefined();
      expect(plain.syncScope).toBe('');
      expect(plain.rmwOperation).toBe('');
      expect(Object.keys(plain)).not.toContain('ordering');
      expect(Object.keys(plain)).not.toContain('atomic');
      // writing the defaults (as clones do) makes no atomic part
      const before = Object.values(plain).length;
      plain.ordering = undefined;
      plain.syncScope = '';
      plain.rmwOperation = '';
      expect(Object.values(plain).filter((v) => v !== null && typeof v === 'object' && 'syncScope' in v)).toEqual([]);
      expect(Object.values(plain).length).toBe(before);
    }
    expect([atomicLoad!.ordering, atomicLoad!.syncScope]).toEqual(['acquire', 'agent']);
    expect([rmw!.rmwOperation, rmw!.ordering, rmw!.syncScope]).toEqual(['add', 'seq_cst', '']);
    expect([cmpxchg!.ordering, cmpxchg!.failureOrdering]).toEqual(['acq_rel', 'monotonic']);
    // writes reach the printed text
    const copy = cloneModule(module);
    const copied = [...copy.getFunction('f')!.instructions()].filter((i): i is MemoryInst => i instanceof MemoryInst);
    copied[0]!.ordering = 'monotonic';
    copied[0]!.flags |= Flag.ATOMIC;
    copied[2]!.syncScope = '';
    copied[3]!.rmwOperation = 'xchg';
    const printed = printModule(copy);
    expect(printed).toContain('%a = load atomic i32, ptr %p monotonic, align 4');
    expect(printed).toContain('%b = load atomic i32, ptr %p acquire, align 4');
    expect(printed).toContain('%c = atomicrmw xchg ptr %p, i32 1 seq_cst, align 4');
  });

  it('shares one frozen empty bundle list among calls without bundles; a call with bundles has its own', () => {
    const calls = instructions.filter((i): i is CallInst => i instanceof CallInst);
    const [plain, entry, bundled] = calls;
    expect(plain!.bundles).toBe(entry!.bundles);
    expect(plain!.bundles).toEqual([]);
    expect(Object.isFrozen(plain!.bundles)).toBe(true);
    expect(bundled!.bundles.map((b) => b.tag)).toEqual(['convergencectrl']);
    expect(bundled!.bundles[0]!.inputs).toEqual([entry]);
    // bundles are added by assigning a list, never by pushing onto the shared one
    expect(() => (plain!.bundles as unknown[]).push({ tag: 'x', inputs: [] })).toThrow(TypeError);
    plain!.bundles = [{ tag: 'convergencectrl', inputs: [entry!] }];
    expect(entry!.bundles).toEqual([]);
  });

  it('keeps the bundle list and callbr count of calls on the prototype; an assignment changes one call only', () => {
    const calls = instructions.filter((i): i is CallInst => i instanceof CallInst);
    // (the test above gave the first call bundles of its own)
    const [plain, entry, bundled] = calls;
    for (const call of [entry!]) {
      expect(Object.hasOwn(call, 'bundles')).toBe(false);
      expect(Object.hasOwn(call, 'indirectDestCount')).toBe(false);
      expect(call.indirectDestCount).toBe(0);
    }
    expect(Object.hasOwn(bundled!, 'bundles')).toBe(true);
    const made = new CallInst('call', plain!.type, plain!.functionType, [...plain!.operands], plain!.attributes);
    expect([made.bundles, made.indirectDestCount]).toEqual([[], 0]);
    made.indirectDestCount = 2;
    expect([made.indirectDestCount, entry!.indirectDestCount, CallInst.prototype.indirectDestCount]).toEqual([2, 0, 0]);
    const callbr = parseModule(
      'define void @c() {\nentry:\n  callbr void asm "", "r,!i"(i32 0) to label %a [label %b]\na:\n  ret void\nb:\n  ret void\n}\n',
      { filename: 'callbr.ll' },
    ).getFunction('c')!.blocks[0]!.instructions[0] as CallInst;
    expect([callbr.indirectDestCount, callbr.argCount]).toEqual([1, 1]);
  });

  it('gives instructions with the same lone attachment one shared frozen list; changes make a copy for one', () => {
    const text = `define void @f(ptr %p) {
entry:
  %a = load i32, ptr %p, align 4, !tbaa !1
  %b = load i32, ptr %p, align 4, !tbaa !1
  %c = load i32, ptr %p, align 4, !tbaa !0
  %d = load i32, ptr %p, align 4, !tbaa !1, !nontemporal !2
  store i32 %a, ptr %p, align 4, !nontemporal !1
  ret void
}

!0 = !{!"int"}
!1 = !{!"int"}
!2 = !{i32 1}
`;
    const parsed = parseModule(text, { filename: 'shared.ll' });
    const ctx = parsed.context;
    const [a, b, c, d, st] = parsed.getFunction('f')!.blocks[0]!.instructions;
    // !0 and !1 are one node (uniqued): the lists that named !1 were rewritten once, still shared
    const int = getMetadata(c!, ctx, 'tbaa')!;
    expect([a, b, d].map((i) => getMetadata(i!, ctx, 'tbaa'))).toEqual([int, int, int]);
    expect(getMetadata(st!, ctx, 'nontemporal')).toBe(int);
    expect(a!.attachments).toBe(b!.attachments);
    expect(Object.isFrozen(a!.attachments)).toBe(true);
    expect(Object.isFrozen(d!.attachments)).toBe(false);
    expect(() => (a!.attachments as unknown[]).push(a!.attachments![0])).toThrow(TypeError);
    expect(printModule(parsed).split('\n').filter((l) => l.includes('!tbaa')).map((l) => l.slice(-8))).toEqual(['!tbaa !0', '!tbaa !0', '!tbaa !0', '!tbaa !0, !nontemporal !1'.slice(-8)]);
    // setMetadata copies a shared list, for that instruction only
    const other = ctx.md.tuple([ctx.md.string('other')]);
    setMetadata(a!, ctx, 'tbaa', other);
    expect(getMetadata(a!, ctx, 'tbaa')).toBe(other);
    expect(getMetadata(b!, ctx, 'tbaa')).toBe(int);
    setMetadata(b!, ctx, 'nontemporal', other);
    expect(b!.attachments!.map((x) => x.node)).toEqual([int, other]);
    expect(getMetadata(c!, ctx, 'nontemporal')).toBeUndefined();
    // a mapper leaves an unchanged shared list as it is, and gives a changed one a copy
    const mapper = new ValueMapper({ context: ctx, mapGlobal: (gv) => gv });
    expect(mapper.mapAttachmentsInPlace(c!.attachments!)).toBe(c!.attachments);
    expect(mapper.mapAttachments(c!.attachments)).toEqual(c!.attachments);
    // cloning keeps what is attached
    const copy = cloneModule(parsed);
    const copied = copy.getFunction('f')!.blocks[0]!.instructions;
    expect(copied.map((i) => getMetadata(i, copy.context, 'tbaa') !== undefined)).toEqual([true, true, true, true, false, false]);
  });

  it('prints what it parsed, so the layout changes nothing that is written', () => {
    const text = printModule(parseModule(source, { filename: 'layout.ll' }));
    expect(printModule(parseModule(text, { filename: 'layout.ll' }))).toBe(text);
    expect(text).toContain('%b = load atomic i32, ptr %p syncscope("agent") acquire, align 4');
    expect(text).toContain('%d = cmpxchg ptr %p, i32 0, i32 1 acq_rel monotonic, align 4');
    expect(text).toContain('%h = call i32 @g(i32 %a) [ "convergencectrl"(token %t) ]');
  });

  it('keeps debug records with their instruction through parsing, cloning and printing', () => {
    const text = debugRecordsModule('  #dbg_value(i32 %x, !8, !DIExpression(), !9)\n  #dbg_label(!12, !9)');
    const parsed = parseModule(text, { filename: 'records.ll' });
    const ret = parsed.getFunction('f')!.blocks[0]!.instructions[0]!;
    expect(Object.hasOwn(ret, 'debugRecords')).toBe(false);
    expect(ret.debugRecords!.map((r) => r.kind)).toEqual(['value', 'label']);
    const printed = printModule(parsed);
    expect(printed.split('\n').filter((l) => l.includes('#dbg_'))).toEqual(['    #dbg_value(i32 %x, !6, !DIExpression(), !8)', '    #dbg_label(!9, !8)']);
    const copy = cloneModule(parsed);
    const copiedRet = copy.getFunction('f')!.blocks[0]!.instructions[0]!;
    expect(copiedRet).not.toBe(ret);
    expect(copiedRet.debugRecords!.map((r) => r.kind)).toEqual(['value', 'label']);
    expect(printModule(copy)).toBe(printed);
    // dropping the clone's records leaves the original's
    copiedRet.debugRecords = null;
    expect(printModule(copy)).not.toContain('#dbg_');
    expect(printModule(parsed)).toBe(printed);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseModule } from './parser.js';
import { printModule } from '../printer/printer.js';
import { TERMINATORS, type CallInst } from '../model/instructions.js';

/**
 * The parser gathers a call's operands and argument attributes, a GEP's operands and a block's
 * instructions in lists it refills for every instruction and block, then copies. These tests read
 * a long one before a short one (and the other way round), so a copy that took a stale item or
 * shared its list would show.
 */
const IR = `declare void @g(i32, i32, i32)
declare void @h(i32)

define void @f(ptr %p, i32 %x) {
entry:
  call void @g(i32 noundef 1, i32 signext 2, i32 zeroext 3)
  call void @h(i32 %x)
  call void @h(i32 noundef %x)
  call void @g(i32 %x, i32 %x, i32 %x)
  %a = getelementptr inbounds [4 x [4 x i32]], ptr %p, i64 0, i64 1, i64 2
  %b = getelementptr i32, ptr %p, i64 1
  %c = getelementptr [4 x [4 x i32]], ptr %p, i64 0, i64 3, i64 0
  br label %two

two:
  ret void
}
`;

describe('lists the parser reuses', () => {
  const m = parseModule(IR, { filename: 'reuse.ll' });
  const f = m.getFunction('f')!;
  const [entry, two] = f.blocks;
  const insts = entry!.instructions;

  it('gives each call its own operands and argument attributes', () => {
    const calls = insts.slice(0, 4) as CallInst[];
    expect(calls.map((c) => c.operands.length)).toEqual([4, 2, 2, 4]);
    expect(calls.map((c) => c.attributes.params.length)).toEqual([3, 0, 1, 0]);
    expect(calls[1]!.operands[0]).toBe(m.getFunction('h'));
    expect(calls[3]!.operands.slice(1).every((o) => o === f.args[1])).toBe(true);
    expect(new Set(calls.map((c) => c.operands)).size).toBe(4);
  });

  it('gives each GEP its own operands', () => {
    const geps = insts.slice(4, 7);
    expect(geps.map((g) => g.operands.length)).toEqual([4, 2, 4]);
    expect(geps[1]!.operands[0]).toBe(f.args[0]);
    expect(geps[0]!.operands).not.toBe(geps[2]!.operands);
  });

  it('gives each block exactly its instructions', () => {
    expect(insts.length).toBe(8);
    expect(two!.instructions.map((i) => i.opcode)).toEqual(['ret']);
    expect(insts).not.toBe(two!.instructions);
  });

  it('prints the module as read', () => {
    expect(printModule(m)).toContain('  call void @g(i32 noundef 1, i32 signext 2, i32 zeroext 3)\n  call void @h(i32 %x)\n  call void @h(i32 noundef %x)\n');
    expect(printModule(m)).toContain('  %b = getelementptr i32, ptr %p, i64 1\n');
  });

  it('reads facts for an onFunction listener only when there is one, and the same module either way', () => {
    const seen: string[] = [];
    const listened = parseModule(IR, { filename: 'reuse.ll', onFunction: (fn, facts) => seen.push(`${fn.name}:${facts.callsToCheck.length}`) });
    expect(seen).toEqual(['f:2']);
    expect(printModule(listened)).toBe(printModule(m));
  });
});

describe('block ends', () => {
  it('ends a block at each kind of terminator, and only there', () => {
    const text = readFileSync(new URL('../../test/fixtures/roundtrip/terminators.ll', import.meta.url), 'latin1');
    const m = parseModule(text, { filename: 'terminators.ll' });
    const ends = new Set<string>();
    for (const f of m.functions) {
      for (const b of f.blocks) {
        b.instructions.forEach((inst, i) => expect(inst.isTerminator).toBe(i === b.instructions.length - 1));
        ends.add(b.instructions.at(-1)!.opcode);
      }
    }
    expect([...ends].sort()).toEqual([...TERMINATORS].sort());
  });
});

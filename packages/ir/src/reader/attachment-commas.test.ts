import { describe, expect, it } from 'vitest';
import { GetElementPtrInst, MemoryInst } from '../model/instructions.js';
import { getMetadata, setMetadata } from '../model/module.js';
import { parseModule } from './parser.js';

/** A function body around `lines`, with the metadata they name. */
function parseBody(lines: string): ReturnType<typeof parseModule> {
  return parseModule(`define void @f(ptr %p, i64 %i) {\n${lines}\n  ret void\n}\n!0 = !{!"int"}\n!1 = !{}\n`, { filename: 't.ll' });
}

describe('a comma after an operand list', () => {
  it('starts an attachment when a metadata name follows, across spaces, newlines and comments', () => {
    const m = parseBody(
      [
        '  %a = load i32, ptr %p, align 4, !tbaa !0',
        '  %b = load i32, ptr %p,\n      !tbaa !0',
        '  %c = load i32, ptr %p, ; a comment\n      !tbaa !0, !nontemporal !1',
        '  %d = load i32, ptr %p, /* a comment */ align 8 ,!tbaa !0',
        '  %e = getelementptr i32, ptr %p, i64 %i, !tbaa !0',
        '  %g = getelementptr [4 x i32], ptr %p, i64 0, ; comment\n      i64 %i',
        '  %h = alloca i32, align 4, !tbaa !0',
      ].join('\n'),
    );
    const insts = m.getFunction('f')!.blocks[0]!.instructions;
    const byName = (name: string) => insts.find((inst) => inst.name === name)!;
    const kinds = (name: string) => (byName(name).attachments ?? []).map((a) => m.context.md.kinds.name(a.kind));
    expect(kinds('a')).toEqual(['tbaa']);
    expect((byName('a') as MemoryInst).align).toBe(4);
    expect(kinds('b')).toEqual(['tbaa']);
    expect(kinds('c')).toEqual(['tbaa', 'nontemporal']);
    expect((byName('d') as MemoryInst).align).toBe(8);
    expect(kinds('d')).toEqual(['tbaa']);
    expect(byName('e').operands).toHaveLength(2);
    expect(kinds('e')).toEqual(['tbaa']);
    expect(byName('g')).toBeInstanceOf(GetElementPtrInst);
    expect(byName('g').operands).toHaveLength(3);
    expect(kinds('g')).toEqual([]);
    expect(kinds('h')).toEqual(['tbaa']);
  });

  it('is another operand when no metadata name follows', () => {
    expect(() => parseBody('  %a = load i32, ptr %p, !{}')).toThrow(/expected metadata or 'align'/);
  });
});

describe('attachments read from the text', () => {
  it('give each instruction its own kinds and nodes when nodes repeat under one kind or several', () => {
    const m = parseBody(
      [
        '  %a = load i32, ptr %p, align 4, !tbaa !0',
        '  %b = load i32, ptr %p, align 4, !tbaa !0, !nontemporal !1',
        '  %c = load i32, ptr %p, align 4, !nontemporal !0',
        '  %d = load i32, ptr %p, align 4, !tbaa !1, !tbaa !0',
      ].join('\n'),
    );
    const insts = m.getFunction('f')!.blocks[0]!.instructions;
    const ctx = m.context;
    const node = (i: number, kind: string) => getMetadata(insts[i]!, ctx, kind);
    const [n0, n1] = [ctx.md.tuple([ctx.md.string('int')]), ctx.md.tuple([])];
    expect([node(0, 'tbaa'), node(1, 'tbaa'), node(1, 'nontemporal'), node(2, 'tbaa'), node(2, 'nontemporal')]).toEqual([n0, n0, n1, undefined, n0]);
    // a repeated kind keeps the last node, in the first one's place
    expect(insts[3]!.attachments!.map((a) => [ctx.md.kinds.name(a.kind), a.node])).toEqual([['tbaa', n0]]);
  });

  it('can be changed on one instruction without changing another that had the same', () => {
    const m = parseBody(['  %a = load i32, ptr %p, align 4, !tbaa !0', '  %b = load i32, ptr %p, align 4, !tbaa !0'].join('\n'));
    const [a, b] = m.getFunction('f')!.blocks[0]!.instructions;
    const ctx = m.context;
    const other = ctx.md.tuple([ctx.md.string('other')]);
    setMetadata(a!, ctx, 'tbaa', other);
    expect(getMetadata(a!, ctx, 'tbaa')).toBe(other);
    expect(getMetadata(b!, ctx, 'tbaa')).toEqual(ctx.md.tuple([ctx.md.string('int')]));
    setMetadata(b!, ctx, 'tbaa', undefined);
    expect(getMetadata(a!, ctx, 'tbaa')).toBe(other);
    expect(b!.attachments).toEqual([]);
  });
});

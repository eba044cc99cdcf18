import { describe, expect, it } from 'vitest';
import type { CallInst } from '../model/instructions.js';
import { printModule } from '../printer/printer.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { parseModule } from './parser.js';

/** The calls of `@f` in `text`, in order. */
function calls(text: string): CallInst[] {
  const m = parseModule(text);
  return m.getFunction('f')!.blocks.flatMap((b) => b.instructions.filter((i): i is CallInst => i.opcode === 'call'));
}

const HEAD = 'declare void @g(i32)\ndeclare i32 @h(ptr, i32)\n\ndefine void @f(i32 %x, ptr %p) {\n';
const TAIL = '  ret void\n}\n\nattributes #0 = { nounwind }\nattributes #1 = { cold }\n';

describe('call-site attributes', () => {
  it('reads function attributes after a call\'s `#N` wherever the next token is (next line, after a comment)', () => {
    const spellings = [
      '  call void @g(i32 %x) #0 cold\n',
      '  call void @g(i32 %x) #0\n    cold\n',
      '  call void @g(i32 %x) #0 ; comment\n    cold\n',
      '  call void @g(i32 %x) #0 #1\n',
      '  call void @g(i32 %x) #0\n  #1\n',
      '  call void @g(i32 %x) #0 "key"="v"\n',
    ];
    const printed = spellings.map((s) => printModule(parseModule(HEAD + s + TAIL)));
    expect(printed[1]).toBe(printed[0]);
    expect(printed[2]).toBe(printed[0]);
    expect(printed[4]).toBe(printed[3]);
    // one merged set each (the printer numbers the groups it writes from #0)
    for (const text of printed) expect(text).toMatch(/call void @g\(i32 %x\) #0\n/);
    expect(printed[0]).toContain('attributes #0 = { cold nounwind }');
    expect(printed[5]).toContain('attributes #0 = { nounwind "key"="v" }');
    // `#0 cold` is not the group alone
    expect(calls(HEAD + spellings[0]! + TAIL)[0]!.attributes.fn.attributes.map((a) => a.key)).toEqual(['cold', 'nounwind']);
  });

  it('gives calls with one `#N` and nothing else the group\'s set, whatever follows (an instruction, a bundle, an attachment)', () => {
    const [a, b, c, d] = calls(
      HEAD +
        '  call void @g(i32 %x) #0\n  %r = call i32 @h(ptr %p, i32 1) #0 [ "tag"(i32 1) ]\n  call void @g(i32 %r) #0, !m !0\n  call void @g(i32 2) #1\n' +
        TAIL +
        '!0 = !{}\n',
    );
    expect(b!.attributes.fn).toBe(a!.attributes.fn);
    expect(c!.attributes.fn).toBe(a!.attributes.fn);
    expect(a!.attributes.fn.attributes.map((x) => x.key)).toEqual(['nounwind']);
    expect(d!.attributes.fn.attributes.map((x) => x.key)).toEqual(['cold']);
    expect(b!.bundles.map((x) => x.tag)).toEqual(['tag']);
    expect(c!.attachments?.length).toBe(1);
  });

  it('shares one attribute list among calls with the same sets, and keeps lists apart when one set differs', () => {
    const [a, b, c, d, e] = calls(
      HEAD +
        '  call void @g(i32 noundef %x) #0\n  call void @g(i32 noundef 1) #0\n  call void @g(i32 noundef %x) #1\n  call void @g(i32 zeroext %x) #0\n  %r = call noundef i32 @h(ptr %p, i32 noundef 1) #0\n' +
        TAIL,
    );
    expect(b!.attributes).toBe(a!.attributes);
    expect(c!.attributes).not.toBe(a!.attributes);
    expect(d!.attributes).not.toBe(a!.attributes);
    expect(e!.attributes.params.map((s) => s.attributes.map((x) => x.key))).toEqual([[], ['noundef']]);
    expect(e!.attributes.ret.attributes.map((x) => x.key)).toEqual(['noundef']);
  });

  it('gives calls written without a function type the type of their arguments, one type per combination', () => {
    const [a, b, c] = calls(HEAD + '  call void @g(i32 %x)\n  call void @g(i32 1)\n  call void @g(ptr %p)\n' + TAIL);
    expect(b!.functionType).toBe(a!.functionType);
    expect(c!.functionType).not.toBe(a!.functionType);
    expect(c!.functionType.params.map((t) => t.kind)).toEqual(['pointer']);
  });

  const opt16 = llvmTool('opt');
  it.skipIf(opt16 === undefined)('prints the spellings above as LLVM 16 opt does', () => {
    const text = HEAD + '  call void @g(i32 %x) #0\n    cold\n  call void @g(i32 %x) #0 ; c\n  #1\n  call void @g(i32 %x) #0\n  %r = call i32 @h(ptr %p, i32 1) #1 [ "tag"(i32 1) ]\n' + TAIL;
    const r = runTool(opt16!, ['-S', '-'], text);
    expect(r.status).toBe(0);
    expect(printModule(parseModule(text, { filename: '<stdin>' }))).toBe(r.stdout);
  });
});

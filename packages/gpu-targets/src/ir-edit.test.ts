import { describe, expect, it } from 'vitest';
import { functionText, parse } from '../test/ir.js';
import { FunctionEditor, callsInUseOrder, intCast } from './ir-edit.js';

describe('callsInUseOrder', () => {
  it("lists calls as LLVM's use list holds them: later uses first, uses before the declaration in order, last", () => {
    const m = parse(`define void @early() {
  call void @g(i32 1)
  call void @g(i32 2)
  ret void
}
declare void @g(i32)
define void @late() {
  call void @g(i32 3)
  call void @g(i32 4)
  ret void
}
`);
    const calls = callsInUseOrder(m).get(m.getFunction('g')!)!;
    expect(calls.map((c) => (c.arg(0) as { num: number }).num)).toEqual([4, 3, 1, 2]);
  });
});

describe('FunctionEditor', () => {
  it('inserts before anchors, replaces uses (chains followed) and erases in one commit', () => {
    const m = parse(`define i64 @f(i32 %x) {
  %a = add i32 %x, 1
  %b = add i32 %a, 2
  %c = zext i32 %b to i64
  ret i64 %c
}
`);
    const f = m.getFunction('f')!;
    const [a, b, c] = f.blocks[0]!.instructions;
    const editor = new FunctionEditor(m.context, f);
    const wide = intCast(a!, m.context.i64);
    editor.insertBefore(c!, wide as never);
    editor.replace(c!, wide);
    editor.replace(b!, a!);
    editor.erase(b!);
    editor.erase(c!);
    editor.commit();
    expect(functionText(m, 'f')).toBe(['define i64 @f(i32 %x) {', '  %a = add i32 %x, 1', '  %1 = zext i32 %a to i64', '  ret i64 %1', '}'].join('\n'));
    expect(f.blocks[0]!.instructions.every((i) => i.parent === f.blocks[0])).toBe(true);
  });
});

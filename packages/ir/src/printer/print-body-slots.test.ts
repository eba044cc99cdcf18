import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule } from './printer.js';

// A body's metadata and call-site attribute group numbers are SlotTracker's walk of the body,
// which runs before the body is printed; the printer takes them as its text reaches them, and
// runs the walk where the text needs a number ahead of it. (Matching opt -S on valid IR is
// checked by the roundtrip fixture slot-order.ll.)
describe('numbers inside function bodies', () => {
  it("numbers a node a call's operand names ahead of the walk as the walk does", () => {
    // LLVM's verifier refuses metadata operands of calls that are no intrinsic; the model has them
    const source = `declare void @takes_md(metadata)

define void @f(ptr %p) {
  call void @takes_md(metadata !3)
  call void @takes_md(metadata !1)
  store i32 1, ptr %p, align 4, !annotation !2
  store i32 2, ptr %p, align 4, !annotation !1
  ret void
}

define void @g(ptr %p) {
  store i32 3, ptr %p, align 4, !annotation !4
  ret void
}

!1 = !{!"late"}
!2 = !{!"early"}
!3 = !{!"never"}
!4 = !{!"next function"}
`;
    const printed = printModule(parseModule(source, { filename: 'x.ll' }));
    // !1 is numbered by the walk at the second store, after !2: it is !1; !3 is never numbered
    expect(printed).toContain('  call void @takes_md(metadata <badref>)\n  call void @takes_md(metadata !1)\n');
    expect(printed).toContain('!annotation !0\n  store i32 2, ptr %p, align 4, !annotation !1\n');
    expect(printed).toContain('  store i32 3, ptr %p, align 4, !annotation !2\n');
    expect(printed).toMatch(/!0 = !\{!"early"\}\n!1 = !\{!"late"\}\n!2 = !\{!"next function"\}\n$/);
  });

  it('numbers call-site attribute groups and attachments (their operands first) in instruction order across blocks', () => {
    const source = `define void @f(i1 %c) {
entry:
  call void @h() #7, !m !12
  br i1 %c, label %a, label %b, !prof !10

a:
  call void @h() #5, !m !11
  br label %b

b:
  call void @h() #7, !m !12
  call void @h() #9
  ret void
}

declare void @h()

attributes #5 = { noinline }
attributes #7 = { minsize }
attributes #9 = { "k"="v" }
attributes #3 = { cold }

!10 = !{!"branch_weights", i32 1, i32 2}
!11 = !{!"m11"}
!12 = !{!"m12", !11}
`;
    // opt-16 -S of the source
    const expected = `; ModuleID = 't3.ll'
source_filename = "t3.ll"

define void @f(i1 %c) {
entry:
  call void @h() #0, !m !0
  br i1 %c, label %a, label %b, !prof !2

a:                                                ; preds = %entry
  call void @h() #1, !m !1
  br label %b

b:                                                ; preds = %a, %entry
  call void @h() #0, !m !0
  call void @h() #2
  ret void
}

declare void @h()

attributes #0 = { minsize }
attributes #1 = { noinline }
attributes #2 = { "k"="v" }

!0 = !{!"m12", !1}
!1 = !{!"m11"}
!2 = !{!"branch_weights", i32 1, i32 2}
`;
    expect(printModule(parseModule(source, { filename: 't3.ll' }))).toBe(expected);
  });
});

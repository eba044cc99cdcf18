import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule, valueTexts } from './printer.js';

// The second function's texts carry numbers that walks of the whole module assign (attribute
// groups, metadata): valueTexts walks the first function without printing it.
const TEXT = `define void @a() #0 {
  call void @c() #1, !dbg !5
  ret void, !tbaa !3
}

define void @b(ptr %p) #0 {
  %v = load i32, ptr %p, align 4, !tbaa !3
  call void @c() #1
  call void @llvm.dbg.value(metadata i32 %v, metadata !6, metadata !DIExpression())
  ret void
}

declare void @c()
declare void @llvm.dbg.value(metadata, metadata, metadata)

attributes #0 = { nounwind }
attributes #1 = { convergent }

!llvm.ident = !{!0}
!0 = !{!"clang"}
!3 = !{!"int", !4}
!4 = !{!"omnipotent char"}
!5 = !{!"loc"}
!6 = !{!"var"}
`;

describe('valueTexts', () => {
  it("gives each instruction its line of the whole module's print, numbers included, printing only the functions that hold them", () => {
    const module = parseModule(TEXT);
    const b = module.getFunction('b')!;
    const instructions = [...b.instructions()];
    const texts = valueTexts(module, [...instructions.map((value) => ({ value, fn: b })), { value: b.args[0]!, fn: b }]);
    const body = printModule(module).split('define void @b(')[1]!.split('\n}')[0]!.split('\n').slice(1);
    expect(texts.slice(0, instructions.length)).toEqual(body);
    expect(texts[1]).toBe('  call void @c() #2'); // #1 is the intrinsic declaration's group
    expect(texts[instructions.length]).toBe('ptr %p');
  });
});

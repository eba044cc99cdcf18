import { describe, expect, it } from 'vitest';
import { Context, parseModule } from '@syclkit/ir';
import { attachment, debugNodeOf, fileOf, isDINode } from './attachments.js';

const parse = (text: string) => parseModule(text, { filename: 'test.ll', context: new Context() });

const m = parse(`define void @f() !dbg !3 !custom !9 {
  ret void, !dbg !6
}
!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !2)
!2 = !DIFile(filename: "a.cpp", directory: "/src")
!3 = distinct !DISubprogram(name: "f", scope: !2, file: !2, line: 3, unit: !1, spFlags: DISPFlagDefinition)
!4 = distinct !DILexicalBlock(scope: !3, line: 4, column: 1)
!5 = distinct !DILexicalBlock(scope: !4, file: !7, line: 5, column: 1)
!6 = !DILocation(line: 5, column: 7, scope: !5)
!7 = !DIFile(filename: "", directory: "/src")
!9 = !{}
`);
const fn = m.getFunction('f')!;
const ret = [...fn.instructions()][0]!;

describe('attachments', () => {
  it('finds an attachment by kind name without registering unknown kinds', () => {
    expect(attachment(fn, m.context, 'custom')?.mk).toBe('tuple');
    expect(attachment(fn, m.context, 'never_seen')).toBeUndefined();
    expect(m.context.md.kinds.lookup('never_seen')).toBeUndefined();
  });

  it('gives the !dbg node of functions and instructions', () => {
    expect(debugNodeOf(fn)?.className).toBe('DISubprogram');
    expect(debugNodeOf(ret)?.className).toBe('DILocation');
  });
});

describe('fileOf', () => {
  it("takes a scope's own file, else the nearest enclosing scope's, skipping empty names", () => {
    const location = debugNodeOf(ret)!;
    const scope = location.mdField('scope');
    expect(isDINode(scope)).toBe(true);
    expect((scope as { className: string }).className).toBe('DILexicalBlock');
    expect(fileOf(scope as never)).toBe('a.cpp');
    expect(fileOf(debugNodeOf(fn)!)).toBe('a.cpp');
  });
});

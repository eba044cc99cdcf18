import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';

// One function's !dbg is the compile unit, not a subprogram: LLVM 16's opt reads the module, warns
// "ignoring invalid debug info in <file>" and prints it with no debug info at all.
const broken = (dbg: string): string => `define void @f() !dbg ${dbg} {
  ret void, !dbg !4
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.cpp", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, unit: !0, spFlags: DISPFlagDefinition)
!4 = !DILocation(line: 1, scope: !3)
`;

describe('upgradeDebugInfo on read', () => {
  it("drops all debug info, with LLVM's warning, when a function's !dbg is not a DISubprogram", () => {
    const warnings: string[] = [];
    const text = printModule(parseModule(broken('!0'), { filename: 'a.ll', onWarning: (w) => warnings.push(w) }));
    expect(warnings).toEqual(['ignoring invalid debug info in a.ll']);
    expect(text).not.toContain('!dbg');
    expect(text).not.toContain('llvm.dbg.cu');
  });

  it('keeps valid debug info without a warning', () => {
    const warnings: string[] = [];
    const text = printModule(parseModule(broken('!3'), { filename: 'a.ll', onWarning: (w) => warnings.push(w) }));
    expect(warnings).toEqual([]);
    expect(text).toContain('define void @f() !dbg !');
  });
});

/**
 * A module with debug info whose one function, `@f(ptr %p, i32 %x)` with `!dbg !5`, holds `body`
 * (lines as given, indentation included) before `ret void, !dbg !9`. The records in `body` may
 * name !8 (a local variable `v`), !9 (a location in @f) and !12 (a label `l`); `moreMetadata` is
 * appended after the module's own nodes (e.g. `!11 = distinct !DIAssignID()\n`).
 */
export function debugRecordsModule(body: string, moreMetadata = ''): string {
  return `define void @f(ptr %p, i32 %x) !dbg !5 {
entry:
${body}
  ret void, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "p", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocalVariable(name: "v", scope: !5, file: !1, line: 2, type: !10)
!9 = !DILocation(line: 2, column: 1, scope: !5)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!12 = !DILabel(scope: !5, name: "l", file: !1, line: 3)
${moreMetadata}`;
}

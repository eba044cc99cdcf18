import { describe, expect, it } from 'vitest';
import { parseModule } from './parser.js';
import { printModule } from '../printer/printer.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { syntaxVerdict } from '../../test/verdict.js';

/**
 * Field values of debug-info nodes, as `!2 = <node>` on line 3 of a small module, with LLVM 16
 * opt's verdict: `column: message`, or undefined when it reads the node.
 */
const CASES: readonly (readonly [string, string | undefined])[] = [
  ["!DIBasicType(tag: name, name: \"int\")", "24: expected DWARF tag"],
  ["!DIBasicType(tag: DW_TAG_foo, name: \"int\")", "24: invalid DWARF tag 'DW_TAG_foo'"],
  ["!DIBasicType(tag: 36, name: \"int\")", undefined],
  ["!DIBasicType(name: \"int\", encoding: x)", "42: expected DWARF type attribute encoding"],
  ["!DIBasicType(name: \"int\", encoding: DW_ATE_foo)", "42: invalid DWARF type attribute encoding 'DW_ATE_foo'"],
  ["!DIBasicType(name: \"int\", size: x)", "38: expected unsigned integer"],
  ["!DIBasicType(name: \"int\", size: -1)", "38: expected unsigned integer"],
  ["!DIBasicType(name: \"int\", size: \"4\")", "38: expected unsigned integer"],
  ["!DIBasicType(name: 4)", "25: expected string constant"],
  ["!DIBasicType(name: x)", "25: expected string constant"],
  ["!DIBasicType(name: \"i\", flags: x)", "37: expected debug info flag"],
  ["!DIBasicType(name: \"i\", flags: DW_ATE_signed)", "37: expected debug info flag"],
  ["!DIBasicType(name: \"i\", flags: 3)", undefined],
  ["!DIDerivedType(tag: DW_TAG_pointer_type, baseType: x)", "57: expected metadata operand"],
  ["!DIDerivedType(tag: DW_TAG_pointer_type, baseType: 5)", "57: expected metadata operand"],
  ["!DIDerivedType(tag: DW_TAG_pointer_type, baseType: true)", "57: expected metadata operand"],
  ["!DIDerivedType(tag: DW_TAG_pointer_type, baseType: \"s\")", "57: expected metadata operand"],
  ["!DIDerivedType(tag: DW_TAG_pointer_type, baseType: null)", undefined],
  ["!DISubroutineType(cc: x, types: null)", "28: expected DWARF calling convention"],
  ["!DISubroutineType(cc: DW_CC_foo, types: null)", "28: invalid DWARF calling convention 'DW_CC_foo'"],
  ["!DISubroutineType(types: null, flags: DIFlagFoo)", "44: invalid debug info flag 'DIFlagFoo'"],
  ["!DICompositeType(tag: DW_TAG_structure_type, runtimeLang: x)", "64: expected DWARF language"],
  ["!DICompositeType(tag: DW_TAG_structure_type, runtimeLang: DW_LANG_foo)", "64: invalid DWARF language 'DW_LANG_foo'"],
  ["!DICompositeType(tag: DW_TAG_structure_type, name: \"s\", identifier: x)", "74: expected string constant"],
  ["!DIFile(filename: \"a\", directory: \"b\", checksumkind: CSK_foo, checksum: \"0\")", "59: invalid checksum kind 'CSK_foo'"],
  ["!DILocalVariable(name: \"x\", scope: !0, arg: x)", "50: expected unsigned integer"],
  ["!DILocalVariable(name: \"x\", scope: !0, line: -1)", "51: expected unsigned integer"],
  ["!DISubprogram(name: \"f\", scope: !1, spFlags: x)", "51: expected debug info flag"],
  ["!DISubprogram(name: \"f\", scope: !1, spFlags: DISPFlagFoo)", "51: invalid subprogram debug info flag 'DISPFlagFoo'"],
  ["!DISubprogram(name: \"f\", scope: !1, virtuality: x)", "54: expected DWARF virtuality code"],
  ["!DISubprogram(name: \"f\", scope: !1, thisAdjustment: x)", "58: expected signed integer"],
  ["!DICompileUnit(language: x, file: !1)", "6: missing 'distinct', required for !DICompileUnit"],
  ["!DICompileUnit(language: DW_LANG_foo, file: !1)", "6: missing 'distinct', required for !DICompileUnit"],
  ["!DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: x)", "6: missing 'distinct', required for !DICompileUnit"],
  ["!DICompileUnit(language: DW_LANG_C99, file: !1, nameTableKind: x)", "6: missing 'distinct', required for !DICompileUnit"],
  ["!DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: x)", "6: missing 'distinct', required for !DICompileUnit"],
  ["!DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: 1)", "6: missing 'distinct', required for !DICompileUnit"],
  ["!DIMacro(type: x, name: \"a\")", "21: expected DWARF macinfo type"],
  ["!DIMacro(type: DW_MACINFO_foo, name: \"a\")", "21: invalid DWARF macinfo type 'DW_MACINFO_foo'"],
  ["!DINamespace(scope: null, exportSymbols: x)", "47: expected 'true' or 'false'"],
  ["!DIEnumerator(name: \"a\", value: x)", "38: expected integer"],
  ["!DIEnumerator(name: \"a\", value: -5)", undefined],
  ["!DISubrange(count: x)", "25: expected metadata operand"],
  ["!DISubrange(count: -1)", undefined],
  ["!DILocation(line: x, scope: !0)", "24: expected unsigned integer"],
  ["!DILocation(line: 1, column: x, scope: !0)", "35: expected unsigned integer"],
  ["!DILocation(line: 1, scope: x)", "34: expected metadata operand"],
  ["!DITemplateValueParameter(tag: x, value: null)", "37: expected DWARF tag"],
  ["!DIImportedEntity(tag: x, scope: !0)", "29: expected DWARF tag"],
  ["!GenericDINode(tag: x)", "26: expected DWARF tag"],
  ["!DIGlobalVariable(name: \"g\", scope: !0, isLocal: x, isDefinition: true)", "55: expected 'true' or 'false'"],
  ["!DIDerivedType(tag: DW_TAG_member, baseType: !0, dwarfAddressSpace: x)", "74: expected unsigned integer"],
  ["!DICompositeType(tag: DW_TAG_array_type, rank: x)", "53: expected metadata operand"],
  ["!DICompositeType(tag: DW_TAG_array_type, rank: 5)", undefined],
  ["!DISubroutineType(types: null, flags: DIFlagFoo)", "44: invalid debug info flag 'DIFlagFoo'"],
  ["!DISubprogram(name: \"f\", scope: !1, spFlags: DISPFlagFoo)", "51: invalid subprogram debug info flag 'DISPFlagFoo'"],
  ["!DISubroutineType(types: null, flags: DIFlagZero)", "44: invalid debug info flag 'DIFlagZero'"],
  ["!DISubroutineType(types: null, flags: DIFlagPublic | DIFlagPrototyped)", undefined],
  ["!DISubprogram(name: \"f\", scope: !1, spFlags: DISPFlagLocalToUnit | DISPFlagOptimized)", undefined],
  ["!DIBasicType(tag: DW_TAG_unspecified_type, name: \"decltype(nullptr)\")", undefined],
];

const moduleWith = (node: string): string => `!llvm.x = !{!2}\n!1 = !DIFile(filename: "a.c", directory: "/")\n!2 = ${node}\n`;

const verdict = (text: string): string | undefined => syntaxVerdict(text, 'a.ll');

describe('debug-info field values are checked by kind, as LLVM 16 checks them', () => {
  it.each(CASES)('%s', (node, expected) => {
    expect(verdict(moduleWith(node))).toBe(expected === undefined ? undefined : `3:${expected}`);
  });

  it('makes a uniqued node that is its own operand distinct, as LLVM does', () => {
    const text = '!llvm.x = !{!0, !1}\n!0 = !{!0}\n!1 = !DIDerivedType(tag: DW_TAG_member, name: "x", baseType: !1, size: 32)\n';
    const printed = printModule(parseModule(text, { filename: 'a.ll' }));
    expect(printed).toContain('!0 = distinct !{!0}\n');
    expect(printed).toContain('!1 = distinct !DIDerivedType(tag: DW_TAG_member, name: "x", baseType: !1, size: 32)\n');
  });
});

const opt16 = llvmTool('opt');
describe.skipIf(opt16 === undefined)('the debug-info table agrees with LLVM 16 opt', () => {
  it.each(CASES)('%s', (node, expected) => {
    const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], moduleWith(node));
    if (expected === undefined) expect(r.status).toBe(0);
    else expect(r.stderr).toContain(`<stdin>:3:${expected.replace(': ', ': error: ')}\n`);
  });
});

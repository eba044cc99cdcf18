import { describe, expect, it } from 'vitest';
import { llvm19 } from '../../test/support.js';
import { IrSyntaxError } from '../errors.js';
import { parseModule, type ParseOptions } from './parser.js';
import { printModule } from '../printer/printer.js';
import { runTool } from '../../test/llvm.js';
import { debugRecordsModule } from '../../test/debug-records.js';

// What LLVM 19 reads and LLVM 16 does not, as intel/llvm's newer tests write it: debug records
// and intrinsics that are called without a declaration. Each case is compared with LLVM 19's
// `opt -S` when it is installed.
const opt19 = llvm19('opt');

function ours(text: string, options: Partial<ParseOptions> = {}): string {
  try {
    return printModule(parseModule(text, { filename: 't.ll', ...options }));
  } catch (error) {
    if (error instanceof IrSyntaxError) return `${error.line}:${error.column}: ${error.message}`;
    throw error;
  }
}

/** LLVM 19's output, or its first error as `line:col: message`. */
function theirs(text: string): string {
  const r = runTool(opt19!, ['-S', '-', '-o', '-'], text);
  if (r.status === 0) return r.stdout.replace("; ModuleID = '<stdin>'\nsource_filename = \"<stdin>\"", "; ModuleID = 't.ll'\nsource_filename = \"t.ll\"");
  const m = /<stdin>:(\d+):(\d+): error: (.*)/.exec(r.stderr);
  return m ? `${m[1]}:${m[2]}: ${m[3]}` : `<no error position: ${r.stderr}>`;
}

const withRecord = (record: string): string => debugRecordsModule(`  ${record}`, '!11 = distinct !DIAssignID()\n');

describe('debug records (#dbg_value and friends) are read and printed as LLVM 19 does', () => {
  // [record as written, the record LLVM 19 prints (metadata renumbered) or its error]
  const cases: readonly (readonly [string, string])[] = [
    ['#dbg_value(i32 %x, !8, !DIExpression(), !9)', '#dbg_value(i32 %x, !6, !DIExpression(), !8)'],
    ['#dbg_declare(ptr %p, !8, !DIExpression(DW_OP_deref), !9)', '#dbg_declare(ptr %p, !6, !DIExpression(DW_OP_deref), !8)'],
    ['#dbg_declare(ptr null, !8, !DIExpression(), !9)', '#dbg_declare(ptr null, !6, !DIExpression(), !8)'],
    [
      '#dbg_value(!DIArgList(i32 %x, i32 1), !8, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !9)',
      '#dbg_value(!DIArgList(i32 %x, i32 1), !6, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !8)',
    ],
    // an empty node as the location is numbered before the variable
    ['#dbg_value(!{}, !8, !DIExpression(), !9)', '#dbg_value(!6, !7, !DIExpression(), !9)'],
    ['#dbg_assign(i32 %x, !8, !DIExpression(), !11, ptr %p, !DIExpression(), !9)', '#dbg_assign(i32 %x, !6, !DIExpression(), !8, ptr %p, !DIExpression(), !9)'],
    ['#dbg_label(!12, !9)', '#dbg_label(!6, !7)'],
    ['#dbg_value(i32 %x, !8, !DIExpression(), !DILocation(line: 5, scope: !5))', '#dbg_value(i32 %x, !6, !DIExpression(), !8)'],
    ['#dbg_value(metadata i32 %x, !8, !DIExpression(), !9)', '3:14: invalid metadata-value-metadata roundtrip'],
    ['#dbg_value(null, !8, !DIExpression(), !9)', '3:14: expected metadata operand'],
    ['#dbg_bogus(i32 %x, !8, !DIExpression(), !9)', '3:4: expected debug record type here'],
    ['#dbg_value(i32 %x, i32 0, !DIExpression(), !9)', "3:22: expected '!' here"],
    ['#dbg_value(i32 %x, !"s", !DIExpression(), !9)', '3:23: expected integer'],
    ['#dbg_value(i32 %x, !8 !DIExpression(), !9)', "3:25: Expected ',' here"],
    ['#dbg_value(i32 %x, !8, !DIExpression(), !9', "4:3: Expected ')' here"],
    ['#dbg_value(i32 %y, !8, !DIExpression(), !9)', "3:18: use of undefined value '%y'"],
  ];
  for (const [record, expected] of cases) {
    it(`${record} → ${expected}`, () => {
      const text = withRecord(record);
      const printed = ours(text);
      if (/^\d+:\d+: /.test(expected)) expect(printed).toBe(expected);
      else {
        expect(printed.split('\n').filter((l) => l.includes('#dbg_'))).toEqual([`    ${expected}`]);
        // printing is a fixed point
        expect(ours(printed)).toBe(printed);
      }
    });
    it.skipIf(opt19 === undefined)(`LLVM 19 agrees on ${record}`, () => {
      const text = withRecord(record);
      expect(ours(text)).toBe(theirs(text));
    });
  }

  const intrinsicCall = '  call void @llvm.dbg.value(metadata i32 %x, metadata !8, metadata !DIExpression()), !dbg !9';
  const record = '  #dbg_value(i32 %x, !8, !DIExpression(), !9)';
  const mixed = (first: string, second: string): string => `declare void @llvm.dbg.value(metadata, metadata, metadata)\n` + withRecord(`${first.trim()}\n${second}`);
  it('refuses a record in a module that calls the debug intrinsics, and the other way round', () => {
    expect(ours(mixed(intrinsicCall, record))).toBe('5:3: debug record should not appear in a module containing debug info intrinsics');
    expect(ours(mixed(record, intrinsicCall))).toBe('5:8: llvm.dbg intrinsic should not appear in a module using non-intrinsic debug info');
  });
  it.skipIf(opt19 === undefined)('LLVM 19 refuses the same mixtures at the same places', () => {
    for (const text of [mixed(intrinsicCall, record), mixed(record, intrinsicCall)]) expect(ours(text)).toBe(theirs(text));
  });

  it('drops records with the rest of the debug info when the module has no debug-info version', () => {
    const text = withRecord('#dbg_value(i32 %x, !8, !DIExpression(), !9)').replace('!llvm.module.flags = !{!2}\n', '');
    const warnings: string[] = [];
    const printed = printModule(parseModule(text, { filename: 't.ll', onWarning: (w) => warnings.push(w) }));
    expect(printed).not.toContain('#dbg_');
    expect(warnings.length).toBe(1);
  });
});

describe('intrinsics called without a declaration are declared, as LLVM 19 does', () => {
  const module = (body: string, globals = ''): string => `${globals}define i32 @f() {\n${body}\n  ret i32 0\n}\n`;
  const declared = module('  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %b = call i32 @llvm.amdgcn.workitem.id.x()');

  it('declares them at the end of the module, in name order, with their intrinsic attributes', () => {
    const printed = ours(declared);
    const declarations = printed.split('\n').filter((l) => l.startsWith('declare'));
    expect(declarations).toEqual(['declare i32 @llvm.amdgcn.workitem.id.x() #0', 'declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0']);
    expect(printed.indexOf('declare')).toBeGreaterThan(printed.indexOf('define'));
    expect(printed).toContain('attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }');
    expect(ours(printed)).toBe(printed);
  });
  it.skipIf(opt19 === undefined)('LLVM 19 declares the same functions in the same places (its intrinsic attributes are newer)', () => {
    const lines = (text: string): string[] => text.split('\n').filter((l) => /^(define|declare)/.test(l)).map((l) => l.replace(/ #\d+$/, '').replace('noundef ', ''));
    expect(lines(ours(declared))).toEqual(lines(theirs(declared)));
  });

  const refused: readonly (readonly [string, string, string])[] = [
    ['used other than as a callee', module('  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()', '@g = global ptr @llvm.nvvm.read.ptx.sreg.tid.x\n'), '1:17: intrinsic can only be used as callee'],
    ['called with two types', module('  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %b = call i64 @llvm.nvvm.read.ptx.sreg.tid.x()'), '2:17: invalid intrinsic signature'],
    ['not an intrinsic LLVM knows', module('  %a = call i32 @llvm.bogus.x()'), "2:17: use of undefined value '@llvm.bogus.x'"],
    // LLVM names the first undefined value by name, not by position
    ['next to other undefined functions', module('  %a = call i32 @zzz()\n  %b = call i32 @aaa()\n  %c = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()'), "3:17: use of undefined value '@aaa'"],
  ];
  for (const [what, text, expected] of refused) {
    it(`refuses an undeclared intrinsic ${what}`, () => expect(ours(text)).toBe(expected));
    it.skipIf(opt19 === undefined)(`LLVM 19 refuses it too: ${what}`, () => expect(ours(text)).toBe(theirs(text)));
  }

  it('leaves an overloaded one undefined (its mangled name needs the signature table LLVM 19 has)', () => {
    expect(ours(module('  %c = call float @llvm.sqrt.f32(float 1.0)'))).toBe("2:19: use of undefined value '@llvm.sqrt.f32'");
  });

  it('declares nothing in a module read with typed pointers (LLVM 14 did not)', () => {
    const typed = module('  %p = alloca i32\n  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()');
    expect(ours(typed.replace('%p = alloca i32', '%p = alloca i32*'), { pointers: 'preserve-typed' })).toBe("3:17: use of undefined value '@llvm.nvvm.read.ptx.sreg.tid.x'");
  });
});

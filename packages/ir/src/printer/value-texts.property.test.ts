/**
 * Properties of `valueTexts`, which numbers lazily (struct types, and the metadata and call-site
 * attribute groups of function bodies, only when and as far as a text needs them), on random
 * modules made of one program's functions and named metadata in random orders, and random
 * subsets of their instructions and arguments:
 * 1. Each instruction's text is its line of the whole module's print (numbers included: `%N` of
 *    numbered struct types, `#N` of call-site attribute groups, `!N` of metadata operands and
 *    attachments); each argument's is its typed operand.
 * 2. With `attachments: false`, each instruction's text is that line without its metadata
 *    attachments, and nothing else changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { Module } from '../model/module.js';
import type { Instruction } from '../model/instructions.js';
import type { IRFunction } from '../model/values.js';
import { parseModule } from '../reader/parser.js';
import { printModule, valueTexts, type ValueInFunction } from './printer.js';

const PROGRAM = `%struct.A = type { i32, %struct.B }
%struct.B = type { float }
%0 = type { i8, %struct.B }
%1 = type { %0, i16 }

@g = internal global %1 zeroinitializer

define void @plain(i32 %n) {
entry:
  %0 = add i32 %n, 1
  %m = mul i32 %0, 2
  br label %next

next:
  %1 = phi i32 [ %m, %entry ]
  ret void
}

define void @k0(ptr %p) #0 !dbg !16 {
  %a = alloca %0, align 8
  %x = getelementptr inbounds %struct.A, ptr %p, i64 0, i32 1
  call void @helper(ptr %x) #1, !extra !3
  store i32 1, ptr %p, align 4, !tbaa !5, !dbg !19
  ret void
}

define void @k1(ptr %p, i32 %v) #0 {
  %l = load %1, ptr %p, align 8, !tbaa !5
  call void @helper(ptr %p) #2
  call void @llvm.dbg.value(metadata i32 %v, metadata !20, metadata !DIExpression())
  call void @util(ptr %p), !extra !4
  ret void
}

define internal void @helper(ptr %q) #1 !dbg !20 {
  %y = getelementptr %struct.B, ptr %q, i64 1
  store float 0.0, ptr %y, align 4, !tbaa !8, !dbg !21
  ret void
}

define linkonce_odr void @util(ptr %q) #3 {
  %z = getelementptr %1, ptr %q, i64 0, i32 1
  %w = load i16, ptr %z, align 8, !tbaa !8
  %s = alloca { %struct.B, %0 }, align 8
  call void @helper(ptr %s) #2
  ret void
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

attributes #0 = { nounwind "sycl-module-id"="a.cpp" }
attributes #1 = { convergent }
attributes #2 = { nounwind readnone }
attributes #3 = { "sycl-module-id"="b.cpp" }

!llvm.ident = !{!11}
!sycl_types = !{!10}
!llvm.module.flags = !{!22}
!llvm.dbg.cu = !{!17}

!2 = !{i32 0}
!3 = !{!"extra", !2}
!4 = !{!"other", !2}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !13, i64 0}
!8 = !{!14, !14, i64 0}
!10 = !{!"unnamed", %1 zeroinitializer}
!11 = !{!"clang version 19"}
!13 = !{!"Simple C++ TBAA"}
!14 = !{!"float", !7, i64 0}
!15 = !DIFile(filename: "a.cpp", directory: "/src")
!16 = distinct !DISubprogram(name: "k0", scope: !15, file: !15, line: 3, type: !18, unit: !17, spFlags: DISPFlagDefinition)
!17 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !15, producer: "clang", emissionKind: FullDebug)
!18 = !DISubroutineType(types: !{null})
!19 = !DILocation(line: 4, column: 7, scope: !16)
!20 = distinct !DISubprogram(name: "helper", scope: !15, file: !15, line: 9, type: !18, unit: !17, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 10, scope: !20)
!22 = !{i32 2, !"Debug Info Version", i32 3}
`;

const FUNCTIONS = ['plain', 'k0', 'k1', 'helper', 'util', 'llvm.dbg.value'];

/** A module holding the named functions and metadata of `program`, in that order (shared objects). */
function image(program: Module, functions: readonly string[], named: readonly string[]): Module {
  const out = new Module(program.id, program.context);
  for (const name of functions) out.addFunction(program.getFunction(name)!);
  for (const name of named) out.setNamedMetadata(name, [...program.namedMetadata.get(name)!]);
  return out;
}

/** Each defined function's instruction lines, from the whole module's print. */
function printedLines(m: Module): Map<Instruction, string> {
  const text = printModule(m);
  const lines = new Map<Instruction, string>();
  const bodies = text.split('\ndefine ').slice(1);
  const defined = m.functions.filter((f) => !f.isDeclaration);
  expect(bodies.length).toBe(defined.length);
  defined.forEach((fn, i) => {
    const printed = bodies[i]!.split('\n}')[0]!.split('\n').filter((l) => l.startsWith('  '));
    const instructions = fn.blocks.flatMap((b) => b.instructions);
    expect(printed.length).toBe(instructions.length);
    instructions.forEach((inst, k) => lines.set(inst, printed[k]!));
  });
  return lines;
}

const shape = fc.record({
  functions: fc.shuffledSubarray(FUNCTIONS, { minLength: 1 }),
  named: fc.shuffledSubarray(['llvm.ident', 'sycl_types', 'llvm.module.flags', 'llvm.dbg.cu']),
  seed: fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
  withArguments: fc.boolean(),
});

describe('valueTexts (properties)', () => {
  it("gives each wanted value its text in the whole module's print, with and without attachments", () => {
    fc.assert(
      fc.property(shape, ({ functions, named, seed, withArguments }) => {
        const program = parseModule(PROGRAM, { filename: 'p.ll' });
        const m = image(program, functions, named);
        const lines = printedLines(m);
        const all: ValueInFunction[] = m.functions.flatMap((fn: IRFunction) => fn.blocks.flatMap((b) => b.instructions.map((value) => ({ value, fn }))));
        const wanted = all.filter((_, i) => seed[i % seed.length]);
        if (withArguments) for (const fn of m.functions) if (!fn.isDeclaration && fn.args.length > 0) wanted.push({ value: fn.args[0]!, fn });
        const texts = valueTexts(m, wanted);
        const bare = valueTexts(m, wanted, { attachments: false });
        wanted.forEach(({ value }, i) => {
          if (value.vk !== 'instruction') {
            expect(texts[i]).toBe(`${value.type.kind === 'integer' ? 'i32' : 'ptr'} %${(value as { name: string }).name}`);
            expect(bare[i]).toBe(texts[i]);
            return;
          }
          expect(texts[i]).toBe(lines.get(value));
          expect(bare[i]).toBe(lines.get(value)!.replace(/(?:, ![a-z]+ !\d+)+$/, ''));
        });
      }),
      fcOptions(100),
    );
  });
});

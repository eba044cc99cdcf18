/**
 * Properties of printing with a {@link PrintCache} (function templates, metadata body templates,
 * per-root type-discovery lists and `!N` numbering orders, struct definition lines and attribute texts), on
 * random sequences of "images": modules that share the function objects and metadata of one
 * program (debug info included), as the images of a device-code split do, each holding a random
 * subset of the functions and of the named metadata, in a random order:
 * 1. Every image prints exactly as it prints without a cache, however many images were printed
 *    with the same cache before it (first sight, second sight that makes a template, later
 *    sights that fill one), including the numbers of unnamed struct types (which depend on the
 *    type-discovery order across functions and named metadata) and each image's own `!N`/`#N`.
 * 2. The same holds for sequences whose images all hold the same named metadata (the case of a
 *    split, where a print takes the named metadata's `!N` numbering, its type-discovery list and
 *    the `!name`/`!N = ...` lines of a print before it), also when some images number other nodes
 *    first (a global's attachment) or fewer of them.
 * 3. `identifiedStructTypes` gives the same list whether each function and named metadata
 *    operand is walked with the module or answered from its own list (`rootStructTypes`), and
 *    whether the named metadata is walked or answered by `namedMetadataStructTypes`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { identifiedStructTypes, namedMetadataStructTypes, rootStructTypes } from '../analysis/type-finder.js';
import type { MDNode } from '../model/metadata.js';
import { Module } from '../model/module.js';
import type { IRFunction } from '../model/values.js';
import { parseModule } from '../reader/parser.js';
import { PrintCache, printModule, printModuleTo } from './printer.js';

/** Named and numbered struct types reached in different orders from functions and metadata. */
const PROGRAM = `%struct.A = type { i32, %struct.B }
%struct.B = type { float }
%struct.C = type { ptr, [2 x %struct.A] }
%0 = type { i8, %struct.D }
%struct.D = type { i64 }
%1 = type { %0, i16 }
%struct.E = type { <2 x i32> }

@g = internal global %struct.E zeroinitializer
@h = internal global %struct.B zeroinitializer, !extra !24

define void @k0(ptr %p) #0 !kernel_arg_addr_space !0 !dbg !16 {
  %a = alloca %struct.C, align 8
  %x = getelementptr inbounds %struct.A, ptr %p, i64 0, i32 1
  call void @helper(ptr %x) #1, !extra !3
  store i32 1, ptr %p, align 4, !tbaa !5, !dbg !19
  ret void
}

define void @k1(ptr %p) #0 !kernel_arg_addr_space !1 {
  %v = load %1, ptr %p, align 8, !tbaa !5
  call void @helper(ptr %p) #2
  call void @util(ptr %p), !extra !4
  ret void
}

define void @k2() #3 {
  %s = alloca { %struct.D, %0 }, align 8
  call void @util(ptr %s)
  ret void
}

define internal void @helper(ptr %q) #1 !dbg !20 {
  %y = getelementptr %struct.B, ptr %q, i64 1
  store float 0.0, ptr %y, align 4, !tbaa !8, !dbg !21
  ret void
}

define linkonce_odr void @util(ptr %q) #3 {
  %z = getelementptr %0, ptr %q, i64 0, i32 1
  %w = load i64, ptr %z, align 8, !tbaa !8
  ret void
}

declare void @external(%struct.E)

attributes #0 = { nounwind "sycl-module-id"="a.cpp" }
attributes #1 = { convergent }
attributes #2 = { nounwind readnone }
attributes #3 = { "sycl-module-id"="b.cpp" }

!sycl_types = !{!9, !10}
!llvm.ident = !{!11}
!opencl.spir.version = !{!12, !12}
!llvm.module.flags = !{!22}
!llvm.dbg.cu = !{!17}

!0 = !{i32 1}
!1 = !{i32 1, i32 0}
!2 = !{i32 0}
!3 = !{!"extra", !2, %struct.C zeroinitializer}
!4 = !{!"other", !2}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !13, i64 0}
!8 = !{!14, !14, i64 0}
!9 = !{!"struct.E", i32 5, %struct.E zeroinitializer}
!10 = !{!"unnamed", %1 zeroinitializer}
!11 = !{!"clang version 19"}
!12 = !{i32 1, i32 2}
!13 = !{!"Simple C++ TBAA"}
!14 = !{!"float", !7, i64 0}
!15 = !DIFile(filename: "a.cpp", directory: "/src")
!16 = distinct !DISubprogram(name: "k0", scope: !15, file: !15, line: 3, type: !18, unit: !17, spFlags: DISPFlagDefinition)
!17 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !15, producer: "clang", emissionKind: FullDebug)
!18 = !DISubroutineType(types: !{null})
!19 = !DILocation(line: 4, column: 7, scope: !16, inlinedAt: !23)
!20 = distinct !DISubprogram(name: "helper", scope: !15, file: !15, line: 9, type: !18, unit: !17, spFlags: DISPFlagDefinition)
!21 = !DILocation(line: 10, scope: !20)
!22 = !{i32 2, !"Debug Info Version", i32 3}
!23 = !DILocation(line: 11, scope: !20)
!24 = !{!"h", !12, !4}
`;

const FUNCTIONS = ['k0', 'k1', 'k2', 'helper', 'util', 'external'];

/** PROGRAM with its unnamed structs named: no image needs a numbered type, so every part of the cache is used. */
const NAMED_TYPES_PROGRAM = PROGRAM.replaceAll('%0', '%struct.U0').replaceAll('%1', '%struct.U1');

/** A module holding the named functions and metadata of `program` (shared objects, as split images hold them). */
function image(program: Module, functions: readonly string[], named: readonly string[], globals: readonly string[] = []): Module {
  const out = new Module(program.id, program.context);
  for (const name of globals) out.addGlobalVariable(program.getGlobalVariable(name)!);
  for (const name of functions) out.addFunction(program.getFunction(name)!);
  for (const name of named) out.setNamedMetadata(name, [...program.namedMetadata.get(name)!]);
  for (const f of program.functions) f.parent = program;
  for (const g of program.globals) g.parent = program;
  return out;
}

function printCached(m: Module, cache: PrintCache): string {
  const chunks: Buffer[] = [];
  printModuleTo(m, (c) => chunks.push(Buffer.from(c)), { cache });
  return Buffer.concat(chunks).toString('latin1');
}

const NAMED = ['sycl_types', 'llvm.ident', 'opencl.spir.version', 'llvm.module.flags', 'llvm.dbg.cu'];

const imageShape = fc.record({
  functions: fc.shuffledSubarray(FUNCTIONS, { minLength: 1 }),
  named: fc.shuffledSubarray(NAMED),
});

/** Images of one split: the same named metadata, each its own functions, some with a global whose attachment is numbered first. */
const splitShape = fc.record({
  named: fc.shuffledSubarray(NAMED, { minLength: 1 }),
  images: fc.array(fc.record({ functions: fc.shuffledSubarray(FUNCTIONS, { minLength: 1 }), globals: fc.subarray(['h', 'g']) }), { minLength: 1, maxLength: 10 }),
});

describe('print cache (properties)', () => {
  it('prints every image of a sequence as it prints without a cache', () => {
    fc.assert(
      fc.property(fc.array(imageShape, { minLength: 1, maxLength: 8 }), fc.boolean(), (shapes, numberedTypes) => {
        const program = parseModule(numberedTypes ? PROGRAM : NAMED_TYPES_PROGRAM, { filename: 'p.ll' });
        const cache = new PrintCache();
        for (const shape of shapes) {
          const m = image(program, shape.functions, shape.named);
          expect(printCached(m, cache)).toBe(printModule(m));
        }
      }),
      fcOptions(60),
    );
  }, 120_000);

  it('prints every image of a split that shares its named metadata as it prints without a cache', () => {
    fc.assert(
      fc.property(splitShape, fc.boolean(), ({ named, images }, numberedTypes) => {
        const program = parseModule(numberedTypes ? PROGRAM : NAMED_TYPES_PROGRAM, { filename: 'p.ll' });
        const cache = new PrintCache();
        for (const shape of images) {
          const m = image(program, shape.functions, named, shape.globals);
          expect(printCached(m, cache)).toBe(printModule(m));
        }
      }),
      fcOptions(60),
    );
  }, 120_000);

  it('finds the same struct types from per-root lists as from one walk', () => {
    fc.assert(
      fc.property(imageShape, fc.func(fc.boolean()), (shape, useList) => {
        const program = parseModule(PROGRAM, { filename: 'p.ll' });
        const m = image(program, shape.functions, shape.named);
        const known = (root: IRFunction | MDNode) => (useList(root) ? rootStructTypes(root) : undefined);
        // struct types by identity: the two unnamed ones look alike
        const all = identifiedStructTypes(program);
        const walked = identifiedStructTypes(m).map((s) => all.indexOf(s));
        expect(identifiedStructTypes(m, known).map((s) => all.indexOf(s))).toEqual(walked);
        expect(identifiedStructTypes(m, known, namedMetadataStructTypes(m)).map((s) => all.indexOf(s))).toEqual(walked);
      }),
      fcOptions(100),
    );
  }, 120_000);
});

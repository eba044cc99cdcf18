/**
 * LLVM 16 text is printed while its struct types are found (each function's walk for types is the
 * walk that numbers its slots), and the type definitions, which come first, are put in place at
 * the end. These modules are printed as opt -S prints them (the text is its own expected output),
 * with definitions met only late: in the last function, in named metadata, after a header bigger
 * than the first buffer, in output bigger than a chunk; and with numbered structs, which make the
 * printer start again the plain way. Past a limit on the text it holds, a print walks the rest of
 * the module for types and goes on printing as the text comes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { PrintCache, printLimits, printModule, printModuleTo } from './printer.js';

/** The chunks of a print, each checked to be a buffer of its own or a slice that no other chunk shares. */
function chunksOf(m: Module, cache?: PrintCache): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  printModuleTo(m, (c) => chunks.push(c), cache === undefined ? {} : { cache });
  return chunks;
}

const text = (chunks: readonly Uint8Array[]): string => Buffer.concat(chunks).toString('latin1');

const LATE = `; ModuleID = 'late.ll'
source_filename = "late.ll"

%struct.G = type { i32 }
%struct.First = type { i8, %struct.Inner }
%struct.Inner = type { float }
%struct.Param = type { i16 }
%struct.Last = type { i64 }
%struct.MD = type { double }

@g = global %struct.G zeroinitializer

define void @first(ptr %p) {
  %a = alloca %struct.First, align 8
  %x = getelementptr %struct.G, ptr %p, i64 1
  ret void
}

declare void @declared(ptr byval(%struct.Param))

define void @last(ptr %p) {
  %v = load %struct.Last, ptr %p, align 8
  call void @declared(ptr byval(%struct.Param) %p)
  ret void
}

!named = !{!0}

!0 = !{%struct.MD zeroinitializer}
`;

describe('type definitions found while printing', () => {
  it('are those of the whole module, in discovery order, also when met only in the last function or in named metadata', () => {
    const m = parseModule(LATE, { filename: 'late.ll' });
    expect(printModule(m)).toBe(LATE);
    expect(text(chunksOf(m, new PrintCache()))).toBe(LATE);
  });

  it('go after a header bigger than the first buffer', () => {
    const asm = Array.from({ length: 800 }, (_, i) => `module asm "line ${i} of a module-level inline assembly block"\n`).join('');
    const source = LATE.replace('source_filename = "late.ll"\n', `source_filename = "late.ll"\n\n${asm}`);
    const m = parseModule(source, { filename: 'late.ll' });
    expect(printModule(m)).toBe(source);
    expect(text(chunksOf(m, new PrintCache()))).toBe(source);
  });

  it('go in place in output of many chunks, where the only struct is met in the last function', () => {
    const body = Array.from({ length: 60000 }, (_, i) => `  %v${i} = add i32 %x, ${i}`).join('\n');
    const source = `; ModuleID = 'big.ll'
source_filename = "big.ll"

%struct.OnlyLast = type { i32, i32 }

define i32 @big(i32 %x) {
${body}
  ret i32 %x
}

define void @last(ptr %p) {
  %s = alloca %struct.OnlyLast, align 4
  ret void
}
`;
    const m = parseModule(source, { filename: 'big.ll' });
    for (const cache of [undefined, new PrintCache()]) {
      const chunks = chunksOf(m, cache);
      expect(chunks.length).toBeGreaterThan(1);
      expect(text(chunks)).toBe(source);
    }
  });

  it('with numbered structs, are printed the plain way: numbers in discovery order, across functions', () => {
    const source = `; ModuleID = 'numbered.ll'
source_filename = "numbered.ll"

%0 = type { i8 }
%1 = type { %0, i16 }
%struct.N = type { i32 }

define void @named(ptr %p) {
  %a = alloca %struct.N, align 4
  ret void
}

define void @numbered(ptr %p) {
  %v = load %0, ptr %p, align 1
  %w = load %1, ptr %p, align 2
  ret void
}
`;
    const m = parseModule(source, { filename: 'numbered.ll' });
    expect(printModule(m)).toBe(source);
    const cache = new PrintCache();
    for (let round = 0; round < 3; round++) expect(text(chunksOf(m, cache))).toBe(source);
  });

  it('kept as type texts in a print cache never hold a struct number', () => {
    // images of one program: one without numbered structs (its type texts are kept), then one with
    // (printed the plain way), then the first again
    const program = parseModule(
      `%0 = type { i8 }\n%struct.S = type { i32 }\n` +
        `define void @plain(ptr %p) {\n  %v = load { %struct.S, ptr }, ptr %p, align 8\n  ret void\n}\n` +
        `define void @withNumber(ptr %p) {\n  %v = load { %0, ptr }, ptr %p, align 8\n  %w = load { %struct.S, ptr }, ptr %p, align 8\n  ret void\n}\n`,
      { filename: 'p.ll' },
    );
    const image = (names: readonly string[]): Module => {
      const out = new Module(program.id, program.context);
      for (const name of names) out.addFunction(program.getFunction(name)!);
      for (const f of program.functions) f.parent = program;
      return out;
    };
    const plain = image(['plain']);
    const both = image(['withNumber', 'plain']);
    const cache = new PrintCache();
    for (const m of [plain, both, plain, both]) expect(text(chunksOf(m, cache))).toBe(printModule(m));
    expect(printModule(both)).toContain('%v = load { %0, ptr }, ptr %p, align 8');
    for (const t of cache.typeTexts.values()) expect(t).not.toMatch(/%\d/);
  });
});

describe('type definitions found while printing, past the limit on held text', () => {
  const limit = printLimits.hold;
  afterEach(() => {
    printLimits.hold = limit;
  });

  it('are found by walking the rest of the module, whichever function the limit is passed in', () => {
    const bigBody = Array.from({ length: 3000 }, (_, i) => `  %v${i} = add i32 %x, ${i}`).join('\n');
    const source = LATE.replace('declare void @declared', `define i32 @big(i32 %x) {\n${bigBody}\n  ret i32 %x\n}\n\ndeclare void @declared`);
    const m = parseModule(source, { filename: 'late.ll' });
    for (const hold of [0, 1000, 40000, 80000]) {
      printLimits.hold = hold;
      expect(printModule(m)).toBe(source);
      const cache = new PrintCache();
      for (let round = 0; round < 3; round++) expect(text(chunksOf(m, cache))).toBe(source);
    }
  });
});

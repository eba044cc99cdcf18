import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFiles, corpusRoot, fixtures, llvm14, run } from '../../test/support.js';
import { buildCallGraph } from '../analysis/callgraph.js';
import { CallInst, GetElementPtrInst } from '../model/instructions.js';
import { cloneModule } from '../transforms/clone.js';
import { Context } from '../model/context.js';
import { IrSyntaxError } from '../errors.js';
import { linkModules } from '../linker/linker.js';
import type { Module } from '../model/module.js';
import { parseModule, type ParseOptions } from './parser.js';
import { printModule } from '../printer/printer.js';
import { eraseUnused, removeFromUsedLists } from '../transforms/replace.js';
import type { PointerType, Type } from '../model/types.js';
import { computeUses } from '../analysis/uses.js';

const typedDir = join(fixtures, 'typed');
const opt14 = llvm14('opt');
const link14 = llvm14('llvm-link');

function typed(text: string, options: ParseOptions = {}): Module {
  return parseModule(text, { filename: 't.ll', ...options, pointers: 'preserve-typed' });
}

/**
 * LLVM 14 spells memory attributes the old way (`readnone`, `argmemonly`) and gives intrinsics
 * LLVM 14's attributes; this package keeps LLVM 16's. Those two line kinds are the only ones the
 * comparisons with LLVM 14 leave out (the `#N` references stay).
 */
function withoutAttributeSpellings(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('; Function Attrs:') && !l.startsWith('attributes #'))
    .join('\n');
}

/** The text of the global `@name = ...` line. */
function globalLine(text: string, name: string): string {
  return text.split('\n').find((l) => l.startsWith(`@${name} = `)) ?? '';
}

/** Prints the type as LLVM 14 does. */
function typeText(t: Type): string {
  const m = typed(`@x = external global i8*\n`);
  const g = m.globals[0]!;
  g.valueType = t;
  return globalLine(printModule(m), 'x').replace('@x = external global ', '');
}

function syntaxError(f: () => unknown): IrSyntaxError {
  try {
    f();
  } catch (e) {
    if (e instanceof IrSyntaxError) return e;
    throw e;
  }
  throw new Error('expected an IrSyntaxError');
}

describe('typed-pointer printing matches LLVM 14 opt -S (attribute spellings aside)', () => {
  const inputs = readdirSync(typedDir).filter((n) => n.endsWith('.ll') && !n.endsWith('.opt14.ll') && !n.startsWith('link'));
  for (const name of inputs) {
    const golden = join(typedDir, name.replace(/\.ll$/, '.opt14.ll'));
    it(`prints ${name} as the recorded LLVM 14 output`, () => {
      const m = typed(readFileSync(join(typedDir, name), 'latin1'), { filename: name });
      expect(m.typedPointers).toBe(true);
      expect(withoutAttributeSpellings(printModule(m))).toBe(withoutAttributeSpellings(readFileSync(golden, 'latin1')));
    });
    it.skipIf(opt14 === undefined)(`the recorded ${name} output is what LLVM 14 opt -S prints today`, () => {
      expect(run(opt14!, ['-S', name], undefined, typedDir)).toBe(readFileSync(golden, 'latin1'));
    });
  }

  const files = corpusFiles();
  it.skipIf(files.length === 0 || opt14 === undefined)('prints every typed-pointer intel/llvm corpus input as LLVM 14 does', () => {
    let compared = 0;
    const mismatches: string[] = [];
    for (const file of files) {
      const id = relative(corpusRoot, file);
      const m = typed(readFileSync(file, 'latin1'), { filename: id });
      if (!m.typedPointers) continue;
      const expected = run(opt14!, ['-S', id], undefined, corpusRoot);
      if (expected === undefined) continue;
      compared++;
      if (withoutAttributeSpellings(printModule(m)) !== withoutAttributeSpellings(expected)) mismatches.push(id);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(20);
  }, 120_000);
});

describe('which pointer syntax a module uses', () => {
  const typedText = `@g = global i32 0\ndeclare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg)\ndefine i32 @f(i32* %p) {\n  %v = load i32, i32* %p\n  ret i32 %v\n}\n`;

  it("reads typed pointers as ptr by default ('opaque'), remangling intrinsics as LLVM 16 does", () => {
    const m = parseModule(typedText, { filename: 't.ll' });
    expect(m.typedPointers).toBe(false);
    expect((m.globals[0]!.type as PointerType).pointee).toBeUndefined();
    const text = printModule(m);
    expect(text).toContain('define i32 @f(ptr %p)');
    expect(text).toContain('@llvm.memcpy.p0.p0.i64(');
    expect(printModule(parseModule(typedText, { filename: 't.ll', pointers: 'opaque' }))).toBe(text);
  });

  it("keeps them with 'preserve-typed' when the first pointer type is T*", () => {
    const m = typed(typedText);
    expect(m.typedPointers).toBe(true);
    const g = m.globals[0]!;
    expect(g.type).toBe(m.context.typedPtr(m.context.i32, 0));
    expect(m.pointerTo(m.context.i8, 1)).toBe(m.context.typedPtr(m.context.i8, 1));
    const f = m.getFunction('f')!;
    expect(f.type).toBe(m.context.typedPtr(f.functionType, 0));
    const text = printModule(m);
    expect(text).toContain('define i32 @f(i32* %p)');
    expect(text).toContain('%v = load i32, i32* %p, align 4');
    expect(text).toContain('declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly');
    expect(text).not.toMatch(/\bptr\b/);
  });

  it("reads a module whose first pointer type is ptr exactly as 'opaque' does", () => {
    const text = `@g = global ptr null\ndefine void @f(ptr addrspace(4) %p) {\n  store ptr addrspace(4) %p, ptr @g\n  ret void\n}\n`;
    const m = typed(text);
    expect(m.typedPointers).toBe(false);
    expect(printModule(m)).toBe(printModule(parseModule(text, { filename: 't.ll' })));
  });

  it('reads a module without pointer types as opaque; stars and ptr in comments, strings and names do not count', () => {
    const m = typed(`; i32* in a comment, and ptr\n@"ptr*" = global [3 x i8] c"i*\\00"\n@ptr = global i32 1\n`);
    expect(m.typedPointers).toBe(false);
    expect(typed(`; ptr first, in a comment\n@g = global i32* null\n`).typedPointers).toBe(true);
  });

  it("rejects ptr in a module that uses typed pointers, naming where the first pointer type is", () => {
    const e = syntaxError(() => typed(`@g = global i32* null\n\ndefine void @f(ptr %p) {\n  ret void\n}\n`));
    expect(e.message).toBe("opaque pointer type 'ptr' in a module that uses typed pointers (its first pointer type, at 1:16, decides)");
    expect([e.line, e.column]).toEqual([3, 16]);
  });

  it('rejects typed pointers in a module that uses ptr, at the start of the type', () => {
    const e = syntaxError(() => typed(`define void @f(ptr %p) {\n  %x = load i32, i32 addrspace(1)* null\n  ret void\n}\n`));
    expect(e.message).toBe("typed pointer type in a module that uses opaque pointers (its first pointer type, 'ptr' at 1:16, decides)");
    expect([e.line, e.column]).toEqual([2, 18]);
    expect(syntaxError(() => typed(`@g = global ptr null\n@h = global i8* null\n`)).column).toBe(13);
  });

  it('does not let the default mode reject anything it accepted before (mixed syntax reads as opaque)', () => {
    const m = parseModule(`@g = global i32* null\ndefine void @f(ptr %p) {\n  ret void\n}\n`, { filename: 't.ll' });
    expect(printModule(m)).toContain('@g = global ptr null');
  });
});

describe('typed pointer types of values', () => {
  const ctx = new Context();
  const m = typed(
    `%struct.S = type { i32, [4 x %struct.T], <2 x float> }
%struct.T = type { i8*, i64 }
@g = addrspace(1) global %struct.S zeroinitializer
define void @f(%struct.S addrspace(1)* %s, <2 x %struct.T*> %vs, i64 %i) {
  %a = alloca %struct.T, align 8
  %f0 = getelementptr %struct.S, %struct.S addrspace(1)* %s, i64 0, i32 0
  %t = getelementptr %struct.S, %struct.S addrspace(1)* %s, i64 %i, i32 1, i64 2
  %t1 = getelementptr %struct.S, %struct.S addrspace(1)* %s, i64 0, i32 1, i64 %i, i32 1
  %e = getelementptr %struct.S, %struct.S addrspace(1)* %s, i64 0, i32 2, i64 1
  %same = getelementptr i8, i8* null, i64 4
  %v = getelementptr %struct.T, <2 x %struct.T*> %vs, <2 x i64> <i64 0, i64 1>, i32 0
  %l = load i8*, i8** getelementptr inbounds (%struct.T, %struct.T* null, i64 0, i32 0), align 8
  ret void
}
`,
    { context: ctx },
  );
  const insts = [...m.getFunction('f')!.instructions()];
  const named = (n: string): Type => insts.find((i) => i.name === n)!.type;

  it('gives globals, functions and allocas pointers to their value types', () => {
    expect(typeText(m.globals[0]!.type)).toBe('%struct.S addrspace(1)*');
    expect(typeText(m.getFunction('f')!.type)).toBe('void (%struct.S addrspace(1)*, <2 x %struct.T*>, i64)*');
    expect(typeText(named('a'))).toBe('%struct.T*');
  });

  it('computes GEP result types from the indices: struct fields, array and vector elements, the address space kept', () => {
    expect(typeText(named('f0'))).toBe('i32 addrspace(1)*');
    expect(typeText(named('t'))).toBe('%struct.T addrspace(1)*');
    expect(typeText(named('t1'))).toBe('i64 addrspace(1)*');
    expect(typeText(named('e'))).toBe('float addrspace(1)*');
    expect(typeText(named('same'))).toBe('i8*');
    expect(typeText(named('v'))).toBe('<2 x i8**>');
    const gep = insts.find((i) => i.name === 'f0') as GetElementPtrInst;
    expect(gep.sourceElementType).toBe(m.context.getStruct('struct.S'));
  });

  it('types call callees as pointers to the function type, also for forward, cast, indirect, varargs and inline asm callees', () => {
    const c = typed(`@fp = global void (i32)* null
declare i32 @printf(i8*, ...)
define void @caller() {
  call void @later(i32 1)
  call void bitcast (void (i64)* @wide to void (i32)*)(i32 2)
  %p = load void (i32)*, void (i32)** @fp
  call void %p(i32 3)
  %r = call i32 (i8*, ...) @printf(i8* null, i32 4)
  call void asm sideeffect "nop", ""()
  ret void
}
define void @later(i32 %x) {
  ret void
}
declare void @wide(i64)
`);
    const calls = [...c.getFunction('caller')!.instructions()].filter((i): i is CallInst => i instanceof CallInst);
    expect(calls.map((call) => typeText(call.callee.type))).toEqual(['void (i32)*', 'void (i32)*', 'void (i32)*', 'i32 (i8*, ...)*', 'void ()*']);
    expect(calls[0]!.calledFunction).toBe(c.getFunction('later'));
    expect(printModule(c)).toContain('  call void bitcast (void (i64)* @wide to void (i32)*)(i32 2)\n');
  });

  it('keeps typed pointers in metadata, aliases and ifuncs', () => {
    const t = printModule(
      typed(`@a = alias void (), void ()* @f
@i = ifunc void (), void ()* ()* @r
define void @f() {
  ret void
}
define void ()* @r() {
  ret void ()* @f
}
!k = !{!0}
!0 = !{void ()* @f, i32 addrspace(4)* null}
`),
    );
    expect(t).toContain('@a = alias void (), void ()* @f');
    expect(t).toContain('@i = ifunc void (), void ()* ()* @r');
    expect(t).toContain('!0 = !{void ()* @f, i32 addrspace(4)* null}');
  });
});

describe("typed-pointer checks, worded and placed like LLVM 14's", () => {
  const cases: [string, string, number][] = [
    ['load i64, i32* %p', "explicit pointee type doesn't match operand's pointee type (i64 vs i32)", 8],
    ['store i64 0, i32* %p', 'stored value and pointer type do not match', 9],
    ['getelementptr i64, i32* %p, i64 1', "explicit pointee type doesn't match operand's pointee type (i64 vs i32)", 17],
    ['call void @f(i64 0)', "'@f' defined with type 'void (i32*)*' but expected 'void (i64)*'", 13],
    ['cmpxchg i32* %p, i64 0, i64 1 seq_cst seq_cst', 'compare value and pointer type do not match', 20],
    ['atomicrmw add i32* %p, i64 1 seq_cst', 'atomicrmw value and pointer type do not match', 26],
    ['getelementptr {i32}, {i32}* null, i64 0, i64 0', 'invalid getelementptr indices', 24],
    ['getelementptr i32, i32* %p, i64 0, i32 0', 'invalid getelementptr indices', 22],
    ['bitcast i32* %p to i32 addrspace(1)*', "invalid cast opcode for cast from 'i32*' to 'i32 addrspace(1)*'", 11],
    ['load i32, i32* getelementptr ([2 x i32], [2 x i32]* null, i64 0)', "constant expression type mismatch: got type '[2 x i32]*' but expected 'i32*'", 18],
  ];
  for (const [body, message, column] of cases) {
    it(`rejects \`${body}\``, () => {
      const e = syntaxError(() => typed(`define void @f(i32* %p) {\n  ${body}\n  ret void\n}\n`));
      expect(e.message).toBe(message);
      expect([e.line, e.column]).toEqual([2, column]);
    });
  }

  it('accepts the same instructions in opaque mode, as LLVM 16 does', () => {
    expect(() => parseModule(`define void @f(i32* %p) {\n  %v = load i64, i32* %p\n  ret void\n}\n`)).not.toThrow();
  });

  it('rejects a GEP into a struct with a non-i32 or out-of-range field index', () => {
    const s = `%S = type { i32, i8 }\ndefine void @f(%S* %p) {\n  %x = getelementptr %S, %S* %p, i64 0, INDEX\n  ret void\n}\n`;
    expect(syntaxError(() => typed(s.replace('INDEX', 'i64 1'))).message).toBe('invalid getelementptr indices');
    expect(syntaxError(() => typed(s.replace('INDEX', 'i32 2'))).message).toBe('invalid getelementptr indices');
    expect(() => typed(s.replace('INDEX', 'i32 1'))).not.toThrow();
  });
});

describe('typed-pointer constant folding (LLVM 14 ConstantFold)', () => {
  const golden = readFileSync(join(typedDir, 'folding.opt14.ll'), 'latin1');
  const folded = printModule(typed(readFileSync(join(typedDir, 'folding.ll'), 'latin1'), { filename: 'folding.ll' }));
  const cases: [string, string][] = [
    ['brief', 'i32* getelementptr inbounds ([1 x i32], [1 x i32]* @one, i64 0, i64 0)'],
    ['gep-one-zero', '[2 x i32]* @arr'],
    ['gep-factor', 'i32* getelementptr ([2 x i32], [2 x i32]* @arr, i64 2, i64 1)'],
    ['gep-extern-weak', 'i32* getelementptr ([2 x i32], [2 x i32]* @ew, i64 0, i64 1)'],
    ['gep-null', 'i32* null'],
    ['gg-array', 'i16* getelementptr inbounds (%struct.S, %struct.S* @sg, i32 0, i32 2, i32 2)'],
    ['gg-field', 'i8* getelementptr (i8, i8* getelementptr inbounds (%struct.S, %struct.S* @sg, i32 0, i32 1), i64 1)'],
    ['bc-i8', 'i8* bitcast ([2 x i32]* @arr to i8*)'],
    ['bc-first', 'i32* getelementptr inbounds ([2 x i32], [2 x i32]* @arr, i32 0, i32 0)'],
    ['bc-pair', 'i16* bitcast ([2 x i32]* @arr to i16*)'],
    ['bc-back', '[2 x i32]* @arr'],
    ['bc-of-gep', 'i8* bitcast ([2 x i32]* @arr to i8*)'],
    ['gep-of-bc-array', 'i32* getelementptr inbounds ([2 x i32], [2 x i32]* @arr, i64 0, i64 0)'],
    ['asc-pointee', 'i8 addrspace(4)* addrspacecast (i8* bitcast ([2 x i32]* @arr to i8*) to i8 addrspace(4)*)'],
    ['asc-asc-back', '%struct.S addrspace(1)* @s'],
    ['gep-of-asc', 'i32 addrspace(4)* getelementptr inbounds ([2 x i32], [2 x i32] addrspace(4)* addrspacecast ([2 x i32]* @arr to [2 x i32] addrspace(4)*), i64 0, i64 0)'],
    ['p2i2p-same', '[2 x i32]* @arr'],
  ];
  for (const [name, expected] of cases) {
    it(`folds @${name} to ${expected}`, () => {
      expect(globalLine(folded, name)).toBe(`@${name} = global ${expected}`);
      expect(globalLine(golden, name)).toBe(`@${name} = global ${expected}`);
    });
  }

  it('folds the same constants the LLVM 16 way in opaque mode (all-zero GEPs and pointer bitcasts vanish)', () => {
    const opaque = printModule(parseModule(readFileSync(join(typedDir, 'folding.ll'), 'latin1'), { filename: 'folding.ll' }));
    expect(globalLine(opaque, 'brief')).toBe('@brief = global ptr @one');
    expect(globalLine(opaque, 'bc-first')).toBe('@bc-first = global ptr @arr');
  });

  it('leaves instructions alone', () => {
    expect(folded).toContain('  %a = bitcast %struct.P* %p to i32*\n  %b = getelementptr %struct.P, %struct.P* %p, i64 0, i32 0\n  %c = getelementptr i32, i32* %a, i64 0\n');
  });
});

describe('splitting a typed module (what post-link does with it)', () => {
  const m = typed(readFileSync(join(typedDir, 'device-split.ll'), 'latin1'), { filename: 'device-split.ll' });
  const kernel = m.getFunction('_ZTSZ4mainE11TU0_kernel0')!;

  it('finds calls through typed callees and references through typed constant expressions', () => {
    const reachable = buildCallGraph(m).reachableFrom([kernel]).map((f) => f.name);
    expect(reachable.sort()).toEqual(['_Z3barIiET_S0_', '_Z3foov', '_ZTSZ4mainE11TU0_kernel0']);
    const uses = computeUses(m);
    expect(uses.users(m.getGlobalVariable('_ZL2GV')!).length).toBeGreaterThan(0);
  });

  it('cuts an image whose text is typed and (when installed) accepted by LLVM 14', () => {
    const keep = new Set<string>(['_ZTSZ4mainE11TU0_kernel0', '_Z3foov', '_ZL2GV', '_ZL2GP']);
    const image = cloneModule(m, { keep: (gv) => keep.has(gv.name) || gv.name === '_Z3barIiET_S0_', bodies: (fn) => keep.has(fn.name) });
    expect(image.typedPointers).toBe(true);
    const text = printModule(image);
    expect(text).toContain('declare dso_local spir_func i32 @_Z3barIiET_S0_(i32)');
    expect(text).toContain('%0 = load i32, i32 addrspace(4)* getelementptr inbounds ([1 x i32], [1 x i32] addrspace(4)* addrspacecast ([1 x i32] addrspace(1)* @_ZL2GV to [1 x i32] addrspace(4)*), i64 0, i64 0), align 4');
    expect(text).not.toMatch(/[ (]ptr\b/);
    if (opt14 !== undefined) expect(run(opt14, ['-S'], text)).toBeDefined();
  });

  it('erases what no kernel needs, as GlobalDCE does', () => {
    const copy = cloneModule(m);
    copy.getFunction('_ZTSZ4mainE11TU0_kernel0')!.linkage = 'internal';
    const erased = eraseUnused(copy).map((g) => g.name);
    // the kernel was the only user of the linkonce_odr @bar; @foo is external and keeps the globals
    expect(erased).toEqual(['_ZTSZ4mainE11TU0_kernel0', '_Z3barIiET_S0_']);
    expect(copy.globals.map((g) => g.name)).toEqual(['_ZL2GV', '_ZL2GP']);
    expect(printModule(copy)).toContain('@_ZL2GP = internal addrspace(1) global i32 addrspace(4)* addrspacecast');
  });
});

describe('cloning and linking keep typed pointers', () => {
  it('a clone prints the same and shares the type objects', () => {
    const m = typed(readFileSync(join(typedDir, 'kitchen-sink.ll'), 'latin1'), { filename: 'kitchen-sink.ll' });
    const c = cloneModule(m);
    expect(c.typedPointers).toBe(true);
    expect(printModule(c)).toBe(printModule(m));
    expect(c.getGlobalVariable('arr')!.type).toBe(m.getGlobalVariable('arr')!.type);
  });

  it('links like LLVM 14 llvm-link: struct merging maps pointee types, appending globals follow their length', () => {
    const ctx = new Context();
    const mods = ['link-a.ll', 'link-b.ll'].map((f) => typed(readFileSync(join(typedDir, f), 'latin1'), { filename: f, context: ctx }));
    const linked = linkModules(mods);
    expect(linked.typedPointers).toBe(true);
    const text = printModule(linked);
    expect(text).toBe(readFileSync(join(typedDir, 'link.llvm-link14.ll'), 'latin1'));
    const used = linked.getGlobalVariable('llvm.used')!;
    expect((used.type as PointerType).pointee).toBe(used.valueType);
    expect(text).not.toContain('%struct.Node.');
  });

  it.skipIf(link14 === undefined)('the recorded link output is what LLVM 14 llvm-link prints today', () => {
    expect(run(link14!, ['-S', 'link-a.ll', 'link-b.ll'], undefined, typedDir)).toBe(readFileSync(join(typedDir, 'link.llvm-link14.ll'), 'latin1'));
  });

  it('removeFromUsedLists retypes the shortened list', () => {
    const m = typed(`@a = global i32 0\n@b = global i32 0\n@llvm.used = appending global [2 x i8*] [i8* bitcast (i32* @a to i8*), i8* bitcast (i32* @b to i8*)], section "llvm.metadata"\n`);
    removeFromUsedLists(m, new Set([m.getGlobalVariable('a')!]));
    const used = m.getGlobalVariable('llvm.used')!;
    expect((used.type as PointerType).pointee).toBe(used.valueType);
    expect(printModule(m)).toContain('@llvm.used = appending global [1 x i8*] [i8* bitcast (i32* @b to i8*)], section "llvm.metadata"');
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cloneModule } from '../transforms/clone.js';
import { Context } from '../model/context.js';
import { IrError } from '../errors.js';
import { Linker, linkModules, type LinkFacts } from './linker.js';
import { Module } from '../model/module.js';
import type { AllocaInst } from '../model/instructions.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { verifyModule } from '../verifier/verifier.js';
import { corpusFiles } from '../../test/support.js';

const DIR = fileURLToPath(new URL('../../test/fixtures/link/dpcpp-tus/', import.meta.url));
const read = (name: string): string => readFileSync(DIR + name, 'latin1');

/** Parses lazily, as llvm-link reads its inputs (see linkModules). */
function lazy(ctx: Context, files: readonly string[]): (() => Module)[] {
  return files.map((name) => () => parseModule(read(name), { filename: name, context: ctx }));
}

function link(texts: readonly string[], options: Parameters<typeof linkModules>[1] = {}): Module {
  const ctx = new Context();
  return linkModules(
    texts.map((t, i) => () => parseModule(t, { filename: `m${i}.ll`, context: ctx })),
    options,
  );
}

describe('DPC++ translation units, compared with llvm-link 16', () => {
  for (const order of ['ab', 'ba', 'abc', 'cba', 'bca']) {
    const files = [...order].map((x) => `${x}.ll`);
    it(`llvm-link -S ${files.join(' ')}`, () => {
      const linked = linkModules(lazy(new Context(), files));
      expect(printModule(linked)).toBe(read(`expected-${order}.ll`));
      expect(verifyModule(linked)).toEqual([]);
    });
  }

  const llvmLink = llvmTool('llvm-link');
  it.skipIf(llvmLink === undefined)('the stored outputs are what the installed llvm-link prints', () => {
    const r = runTool(llvmLink!, ['-S', DIR + 'a.ll', DIR + 'b.ll', DIR + 'c.ll']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(read('expected-abc.ll'));
  });

  it('leaves the source modules intact when no struct type needs renaming', () => {
    const ctx = new Context();
    const a = parseModule(read('a.ll'), { filename: 'a.ll', context: ctx });
    const before = printModule(a);
    linkModules([a]);
    expect(printModule(a)).toBe(before);
  });
});

describe('aliases and ifuncs, compared with llvm-link 16', () => {
  const dir = fileURLToPath(new URL('../../test/fixtures/link/aliases/', import.meta.url));
  for (const order of ['ab', 'ba']) {
    const files = [...order].map((x) => `${x}.ll`);
    it(`llvm-link -S ${files.join(' ')}`, () => {
      const ctx = new Context();
      const linked = linkModules(files.map((f) => () => parseModule(readFileSync(dir + f, 'latin1'), { filename: f, context: ctx })));
      expect(printModule(linked)).toBe(readFileSync(`${dir}expected-${order}.ll`, 'latin1'));
      expect(verifyModule(linked)).toEqual([]);
    });
  }
});

describe('one translation unit alone, compared with llvm-link 16', () => {
  const dir = fileURLToPath(new URL('../../test/fixtures/link/single/', import.meta.url));
  const source = readFileSync(dir + 'single.ll', 'latin1');
  const expected = readFileSync(dir + 'expected.ll', 'latin1');
  const parse = (): Module => parseModule(source, { filename: 'single.ll', context: new Context() });

  for (const [how, options] of [
    ['copied', {}],
    ['with bodies moved', { moveBodies: true }],
    ['consumed', { consumeInputs: true }],
  ] as const) {
    it(`llvm-link -S single.ll, ${how}`, () => {
      const linked = linkModules([parse()], options);
      expect(printModule(linked)).toBe(expected);
      expect(verifyModule(linked)).toEqual([]);
    });
  }

  const llvmLink = llvmTool('llvm-link');
  it.skipIf(llvmLink === undefined)('the stored output is what the installed llvm-link prints', () => {
    const r = runTool(llvmLink!, ['-S', dir + 'single.ll']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected);
  });

  // Isomorphic structs reached through arrays, literal structs, function types and attributes:
  // the type map leaves a type alone only if it holds no identified struct, and a call's
  // attribute list (shared by calls) is mapped once.
  const mergedSource = readFileSync(dir + 'merged-types.ll', 'latin1');
  const mergedExpected = readFileSync(dir + 'expected-merged-types.ll', 'latin1');
  for (const [how, options] of [
    ['copied', {}],
    ['consumed', { consumeInputs: true }],
  ] as const) {
    it(`llvm-link -S merged-types.ll, ${how}`, () => {
      const linked = linkModules([parseModule(mergedSource, { filename: 'merged-types.ll', context: new Context() })], options);
      expect(printModule(linked)).toBe(mergedExpected);
      expect(verifyModule(linked)).toEqual([]);
    });
  }
  it('reports what it left of the functions: all, all but merged types, or less', () => {
    const factsOf = (text: string): LinkFacts => {
      let facts: LinkFacts | undefined;
      linkModules([parseModule(text, { filename: 'f.ll', context: new Context() })], { consumeInputs: true, onLinked: (f) => (facts = f) });
      return facts!;
    };
    const kernel = 'define weak_odr spir_kernel void @k() {\n  %a = alloca %struct.B\n  %v = load %struct.B, ptr %a\n  call void @h()\n  ret void\n}\ndefine internal void @h() {\n  ret void\n}\n';
    // nothing to change
    expect(factsOf(`%struct.B = type { i32 }\n${kernel}`)).toEqual({ everyGlobalUsed: true, bodiesUnchanged: true, valuesUnchanged: true });
    // %struct.B merges into %struct.A: the alloca is retyped, nothing else
    const merged = factsOf(`%struct.A = type { i32 }\n%struct.B = type { i32 }\n@a = global %struct.A zeroinitializer\n${kernel}`);
    expect(merged).toEqual({ everyGlobalUsed: true, bodiesUnchanged: false, valuesUnchanged: true });
    // llvm-link rebuilds appending arrays: a body that refers to one gets the new variable
    const appending = factsOf(`@llvm.used = appending global [1 x ptr] [ptr @h], section "llvm.metadata"\n${kernel.replace('%a = alloca %struct.B\n  %v = load %struct.B, ptr %a', '%u = load ptr, ptr @llvm.used')}`);
    expect(appending).toEqual({ everyGlobalUsed: true, bodiesUnchanged: false, valuesUnchanged: false });
    // copied (not consumed) or more than one module: unknown
    let copied: LinkFacts | undefined;
    linkModules([parseModule(`%struct.B = type { i32 }\n${kernel}`, { filename: 'f.ll' })], { onLinked: (f) => (copied = f) });
    expect(copied).toEqual({ everyGlobalUsed: true, bodiesUnchanged: false, valuesUnchanged: false });
  });

  it.skipIf(llvmLink === undefined)('the stored merged-types output is what the installed llvm-link prints', () => {
    const r = runTool(llvmLink!, ['-S', dir + 'merged-types.ll']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(mergedExpected);
  });

  it('consumed: the result is the input’s own objects, changed only where llvm-link changes them', () => {
    const input = parse();
    const fn = (name: string) => input.getFunction(name)!;
    const kernel = fn('kernel_b');
    const instructions = [...kernel.instructions()];
    const [secondDecl, withbb, helper] = [fn('second_decl'), fn('withbb'), fn('helper')];
    const helperComdat = helper.comdat;
    const structA = input.context.getStruct('struct.A')!;
    const structB = input.context.getStruct('struct.B')!;
    const unusedDecl = fn('unused_decl');
    const linked = linkModules([input], { consumeInputs: true });

    expect(linked.id).toBe('llvm-link');
    expect(linked.getFunction('kernel_b')).toBe(kernel);
    expect([...kernel.instructions()]).toEqual(instructions);
    expect(linked.getFunction('withbb')).toBe(withbb);
    expect(linked.getFunction('helper')).toBe(helper);
    // the input's comdat object serves the result
    expect(helper.comdat).toBe(helperComdat);
    expect(linked.comdats.get('helper_group')).toBe(helperComdat);
    expect([...linked.comdats.keys()]).toEqual(['kernel_b', 'helper_group']);
    // nocallback goes from the declaration and from the call
    expect(linked.getFunction('second_decl')).toBe(secondDecl);
    expect(secondDecl.attributes.fn.has('nocallback')).toBe(false);
    expect(printModule(linked)).toContain('call void @second_decl(i32 2)\n');
    // the isomorphic struct A is merged into B in place: A's alloca now allocates B
    expect(structA.name).toBe('');
    const alloca = instructions[1]!;
    expect(alloca.opcode).toBe('alloca');
    expect((alloca as AllocaInst).allocatedType).toBe(structB);
    // unreferenced declarations and discardable definitions stay behind, and the input is left empty
    expect(linked.getFunction('unused_decl')).toBeUndefined();
    expect(unusedDecl.parent).toBe(input);
    expect(linked.getGlobalVariable('unused_internal')).toBeUndefined();
    expect([...input.globalValues()]).toEqual([]);
    for (const g of linked.globalValues()) expect(g.parent).toBe(linked);
  });

  it('consumed inputs: a later definition that resolves a taken-over declaration has its body moved there', () => {
    const ctx = new Context();
    const a = parseModule('define void @k() {\n  call void @ext(i32 1)\n  ret void\n}\ndeclare void @ext(i32)', { filename: 'a.ll', context: ctx });
    const b = parseModule('define void @ext(i32 %x) {\n  ret void\n}', { filename: 'b.ll', context: ctx });
    const declaration = a.getFunction('ext')!;
    const definition = b.getFunction('ext')!;
    const body = definition.blocks[0]!;
    const linked = linkModules([a, b], { consumeInputs: true });
    // the declaration taken over from a is the result's @ext; b's body moved into it, not copied
    expect(linked.getFunction('ext')).toBe(declaration);
    expect(declaration.blocks).toEqual([body]);
    expect(body.parent).toBe(declaration);
    expect(definition.blocks).toEqual([]);
    expect(printModule(linked)).toContain('define void @ext(i32 %x) {');
  });

  it('consumed typed-pointer module: a recursive struct is rebuilt and its uses retyped in place, as copying does', () => {
    const text = '%T = type { %T*, i32 }\n@g = global %T* null\ndefine i32 @f(%T* %p) {\n  %q = getelementptr %T, %T* %p, i32 0, i32 1\n  %v = load i32, i32* %q\n  %n = load %T*, %T** @g\n  ret i32 %v\n}\n';
    const read = (): Module => parseModule(text, { filename: 't.ll', context: new Context(), pointers: 'preserve-typed' });
    const input = read();
    const before = input.context.getStruct('T')!;
    const f = input.getFunction('f')!;
    const consumed = linkModules([input], { consumeInputs: true });
    expect(printModule(consumed)).toBe(printModule(linkModules([read()])));
    expect(consumed.getFunction('f')).toBe(f);
    // LLVM's type mapper gives a recursive struct a new type, which takes over the name
    const after = input.context.getStruct('T')!;
    expect(after).not.toBe(before);
    expect(f.args[0]!.type).toBe(input.context.typedPtr(after));
    expect(printModule(consumed)).toContain('%q = getelementptr %T, %T* %p, i32 0, i32 1');
  });
});

describe.skipIf(corpusFiles().length === 0)('intel/llvm lit inputs, each linked alone', () => {
  it('consumed, they print as copied (or fail the same way)', () => {
    const outcome = (text: string, file: string, options: Parameters<typeof linkModules>[1]): string => {
      try {
        return printModule(linkModules([parseModule(text, { filename: file, context: new Context() })], options));
      } catch (e) {
        return `error: ${(e as Error).message}`;
      }
    };
    let linked = 0;
    for (const file of corpusFiles()) {
      const text = readFileSync(file, 'latin1');
      const copied = outcome(text, file, {});
      expect(outcome(text, file, { consumeInputs: true }), file).toBe(copied);
      if (!copied.startsWith('error: ')) linked++;
    }
    expect(linked).toBeGreaterThan(50);
  }, 120_000);
});

describe('only-needed linking (device libraries), compared with llvm-link 16 --only-needed', () => {
  const dir = fileURLToPath(new URL('../../test/fixtures/link/', import.meta.url));
  const cases: [string, string[]][] = [
    ['only-needed/expected-kernel-libdevice.ll', ['only-needed/kernel.ll', 'only-needed/libdevice.ll']],
    ['only-needed/expected-b-libdevice-a.ll', ['dpcpp-tus/b.ll', 'only-needed/libdevice.ll', 'dpcpp-tus/a.ll']],
  ];
  for (const [expected, files] of cases) {
    it(`llvm-link -S --only-needed ${files.join(' ')}`, () => {
      const ctx = new Context();
      const linked = linkModules(
        files.map((f) => () => parseModule(readFileSync(dir + f, 'latin1'), { filename: f, context: ctx })),
        { onlyNeeded: true },
      );
      expect(printModule(linked)).toBe(readFileSync(dir + expected, 'latin1'));
      expect(verifyModule(linked)).toEqual([]);
    });
  }

  it('brings in only what the destination references, and appending arrays', () => {
    const ctx = new Context();
    const linked = linkModules(
      [
        parseModule(readFileSync(dir + 'only-needed/kernel.ll', 'latin1'), { context: ctx }),
        parseModule(readFileSync(dir + 'only-needed/libdevice.ll', 'latin1'), { context: ctx }),
      ],
      { onlyNeeded: true },
    );
    expect(linked.getFunction('__devicelib_sin')).toBeUndefined();
    expect(linked.getGlobalVariable('__devicelib_unused_table')).toBeUndefined();
    expect(linked.getFunction('__devicelib_abs')?.isDeclaration).toBe(false);
    expect(linked.getGlobalVariable('llvm.used')).toBeDefined();
  });
});

describe('symbol resolution', () => {
  it('binds a declaration to a definition from a later module, keeping its uses', () => {
    const out = printModule(
      link([
        'define void @k() {\n  call void @ext(i32 1)\n  ret void\n}\ndeclare void @ext(i32)',
        'define void @ext(i32 %x) {\n  ret void\n}',
      ]),
    );
    expect(out).toContain('call void @ext(i32 1)');
    expect(out).toContain('define void @ext(i32 %x)');
    expect(out).not.toContain('declare');
  });

  it('keeps the first linkonce_odr definition and the first comdat any member', () => {
    const helper = (v: number): string => `$h = comdat any\ndefine linkonce_odr i32 @h() comdat {\n  ret i32 ${v}\n}\n`;
    const out = printModule(
      link([
        `${helper(1)}define void @a() {\n  %x = call i32 @h()\n  ret void\n}`,
        `${helper(2)}define void @b() {\n  %x = call i32 @h()\n  ret void\n}`,
      ]),
    );
    expect(out).toContain('ret i32 1');
    expect(out).not.toContain('ret i32 2');
  });

  it('prefers a strong definition over a weak one', () => {
    const out = printModule(link(['define weak i32 @f() {\n  ret i32 1\n}', 'define i32 @f() {\n  ret i32 2\n}']));
    expect(out).toContain('define i32 @f()');
    expect(out).toContain('ret i32 2');
  });

  it('renames clashing internal symbols name.N and leaves unreferenced ones out', () => {
    const tu = (v: number): string =>
      `@counter = internal global i32 ${v}\ndefine internal void @local() {\n  store i32 0, ptr @counter\n  ret void\n}\ndefine internal void @unused() {\n  ret void\n}\ndefine void @k${v}() {\n  call void @local()\n  ret void\n}`;
    const out = printModule(link([tu(1), tu(2)]));
    expect(out).toContain('@counter = internal global i32 1');
    expect(out).toContain('@counter.2 = internal global i32 2');
    expect(out).toContain('define internal void @local.1()');
    expect(out).toContain('store i32 0, ptr @counter.2');
    expect(out).not.toContain('@unused');
  });

  it('concatenates appending arrays', () => {
    const out = printModule(
      link([
        '@llvm.used = appending global [1 x ptr] [ptr @a], section "llvm.metadata"\ndefine void @a() {\n  ret void\n}',
        '@llvm.used = appending global [1 x ptr] [ptr @b], section "llvm.metadata"\ndefine void @b() {\n  ret void\n}',
      ]),
    );
    expect(out).toContain('@llvm.used = appending global [2 x ptr] [ptr @a, ptr @b], section "llvm.metadata"');
  });
});

describe('struct types', () => {
  it('maps a renamed isomorphic struct back onto the first module’s type', () => {
    const tu = '%struct.A = type { i32, float }\ndefine void @f{N}() {\n  %a = alloca %struct.A\n  ret void\n}';
    const ctx = new Context();
    const a = parseModule(tu.replace('{N}', '1'), { context: ctx });
    const b = parseModule(tu.replace('{N}', '2'), { context: ctx });
    expect(printModule(b)).toContain('%struct.A.0 = type');
    const out = printModule(linkModules([a, b]));
    expect(out).not.toContain('%struct.A.0');
    expect(out).toContain('%a = alloca %struct.A, align 8\n  ret void\n}\n\ndefine void @f2()');
  });

  it('keeps a struct with the same name but another body apart', () => {
    const ctx = new Context();
    const a = parseModule('%struct.A = type { i32 }\ndefine void @f1() {\n  %a = alloca %struct.A\n  ret void\n}', { context: ctx });
    const b = parseModule('%struct.A = type { i64 }\ndefine void @f2() {\n  %a = alloca %struct.A\n  ret void\n}', { context: ctx });
    const out = printModule(linkModules([a, b]));
    expect(out).toContain('%struct.A = type { i32 }');
    expect(out).toContain('%struct.A.0 = type { i64 }');
  });
});

describe('struct types shared with the destination', () => {
  it('keeps the name of a type the source shares with the destination (a clone of it)', () => {
    const a = parseModule('%struct.A = type { i32 }\ndefine internal void @f() {\n  %x = alloca %struct.A\n  ret void\n}\ndefine void @k() {\n  call void @f()\n  ret void\n}', { filename: 'a.ll' });
    const b = cloneModule(a);
    b.renameGlobal(b.getFunction('k')!, 'k2');
    const out = printModule(linkModules([a, b]));
    expect(out).toContain('%struct.A = type { i32 }');
    expect(out).toContain('define internal void @f.1() {\n  %x = alloca %struct.A, align 8');
    expect(printModule(a)).toContain('%struct.A = type { i32 }');
  });
});

describe('module flags and named metadata', () => {
  const flags = (entries: string): string => `!llvm.module.flags = !{${entries.split(';').map((_, i) => `!${i}`).join(', ')}}\n${entries.split(';').map((e, i) => `!${i} = !{${e}}`).join('\n')}`;

  it('takes the maximum of max flags and keeps agreeing error flags', () => {
    const out = printModule(link([flags('i32 7, !"frame-pointer", i32 1;i32 1, !"wchar_size", i32 4'), flags('i32 7, !"frame-pointer", i32 2;i32 1, !"wchar_size", i32 4')]));
    expect(out).toContain('!0 = !{i32 7, !"frame-pointer", i32 2}');
    expect(out).toContain('!1 = !{i32 1, !"wchar_size", i32 4}');
  });

  it('rejects error flags with different values, naming the flag and the module', () => {
    expect(() => link([flags('i32 1, !"wchar_size", i32 4'), flags('i32 1, !"wchar_size", i32 2')])).toThrow(/linking module flags 'wchar_size': IDs have conflicting values in 'm1.ll'/);
  });

  it('reports warning flags with different values through onWarning and keeps the first', () => {
    const warnings: string[] = [];
    const out = printModule(link([flags('i32 2, !"w", i32 1'), flags('i32 2, !"w", i32 2')], { onWarning: (w) => warnings.push(w) }));
    expect(warnings).toEqual(["linking module flags 'w': IDs have conflicting values ('i32 2' from m1.ll with 'i32 1' from llvm-link)"]);
    expect(out).toContain('!0 = !{i32 2, !"w", i32 1}');
  });

  it('checks require flags against the merged flags', () => {
    const requires = (v: number): string => `!llvm.module.flags = !{!0}\n!0 = !{i32 3, !"x.req", !1}\n!1 = !{!"x", i32 ${v}}`;
    expect(() => link([flags('i32 1, !"x", i32 1'), requires(2)])).toThrow(/linking module flags 'x': does not have the required value/);
    expect(printModule(link([flags('i32 1, !"x", i32 1'), requires(1)]))).toContain('!llvm.module.flags = !{!0, !1}');
  });

  it('concatenates named metadata, duplicates included, and puts module flags after the others', () => {
    const tu = '!llvm.module.flags = !{!0}\n!llvm.ident = !{!1}\n!0 = !{i32 1, !"wchar_size", i32 4}\n!1 = !{!"clang"}';
    const out = printModule(link([tu, tu]));
    expect(out).toContain('!llvm.ident = !{!0, !0}\n!llvm.module.flags = !{!1}');
  });
});

describe('errors', () => {
  it('rejects two strong definitions, naming the symbol and both modules', () => {
    const def = 'define void @dup() {\n  ret void\n}';
    expect(() => link([def, def])).toThrow(IrError);
    expect(() => link([def, def])).toThrow("linking globals named 'dup': symbol multiply defined (in 'm1.ll' and in 'llvm-link')");
  });

  it('rejects a declaration and a definition of different types unless allowed', () => {
    const texts = ['define void @k() {\n  call void @f(i32 1)\n  ret void\n}\ndeclare void @f(i32)', 'define void @f(i64 %x) {\n  ret void\n}'];
    expect(() => link(texts)).toThrow(/linking globals named 'f': the declaration \(function\) in 'llvm-link' and the definition \(function\) in 'm1.ll' have different types/);
    const out = printModule(link(texts, { allowTypeMismatch: true }));
    expect(out).toContain('call void @f(i32 1)');
    expect(out).toContain('define void @f(i64 %x)');
  });

  it('rejects a variable declaration bound to a function definition', () => {
    expect(() => link(['@f = external global i32\ndefine ptr @k() {\n  ret ptr @f\n}', 'define void @f() {\n  ret void\n}'])).toThrow(/linking globals named 'f'/);
  });

  it('rejects modules from different contexts with a hint', () => {
    const a = parseModule('define void @a() {\n  ret void\n}', { filename: 'a.ll' });
    const b = parseModule('define void @b() {\n  ret void\n}', { filename: 'b.ll' });
    expect(() => linkModules([a, b])).toThrow(/parsed into different contexts; parse every input with the same Context/);
  });

  it('rejects comdats whose selection kinds cannot be combined', () => {
    expect(() => link(['$c = comdat any\n@c = global i32 0, comdat', '$c = comdat exactmatch\n@c = global i32 0, comdat'])).toThrow(/linking COMDATs named 'c': invalid selection kinds/);
  });

  it('rejects an empty input list', () => {
    expect(() => linkModules([])).toThrow(/no modules to link/);
  });
});

describe('Linker', () => {
  it('links into an existing module, which keeps its own id and symbols', () => {
    const ctx = new Context();
    const dest = parseModule('define void @main() {\n  call void @lib()\n  ret void\n}\ndeclare void @lib()', { filename: 'main.ll', context: ctx });
    const linker = new Linker(dest);
    linker.link(parseModule('define void @lib() {\n  ret void\n}', { filename: 'lib.ll', context: ctx }));
    expect(dest.id).toBe('main.ll');
    expect(dest.getFunction('lib')!.isDeclaration).toBe(false);
    expect(dest.getFunction('main')!.blocks[0]!.instructions[0]!.operands[0]).toBe(dest.getFunction('lib'));
    expect(verifyModule(dest)).toEqual([]);
    expect(() => linker.link(dest)).toThrow(/into itself/);
  });

  it('keeps the module-level inline asm of every input', () => {
    const out = link(['module asm "a"', 'module asm "b"']);
    expect(out.inlineAsm).toEqual(['a', 'b']);
    expect(out).toBeInstanceOf(Module);
  });
});

describe('pointer syntax', () => {
  const typedText = '@a = global i32* null\ndefine void @f(i8* %p) {\n  ret void\n}\n';
  const opaqueText = '@b = global ptr null\ndeclare void @f(ptr)\n';
  const read = (ctx: Context, text: string, filename: string): Module => parseModule(text, { filename, context: ctx, pointers: 'preserve-typed' });

  it('refuses to link an opaque-pointer module after a typed one, naming both', () => {
    const ctx = new Context();
    const run = (): Module => linkModules([read(ctx, typedText, 'typed.ll'), read(ctx, opaqueText, 'opaque.ll')]);
    expect(run).toThrow(IrError);
    expect(run).toThrow(
      "cannot link 'opaque.ll' into 'llvm-link': 'opaque.ll' uses opaque pointers ('ptr') but 'typed.ll', linked before it, uses typed pointers (like i8*); typed and opaque pointer modules cannot be linked together (read every input with one pointer syntax)",
    );
  });

  it('refuses a typed-pointer module after an opaque one', () => {
    const ctx = new Context();
    expect(() => linkModules([read(ctx, opaqueText, 'opaque.ll'), read(ctx, typedText, 'typed.ll')])).toThrow(
      "'typed.ll' uses typed pointers (like i8*) but 'opaque.ll', linked before it, uses opaque pointers ('ptr')",
    );
  });

  it('names the destination when linking into an existing module', () => {
    const ctx = new Context();
    const dest = read(ctx, typedText, 'dest.ll');
    expect(() => new Linker(dest).link(read(ctx, opaqueText, 'opaque.ll'))).toThrow("'opaque.ll' uses opaque pointers ('ptr') but 'dest.ll' uses typed pointers (like i8*)");
  });

  it('links modules of one syntax, typed or opaque', () => {
    const ctx = new Context();
    const typed = linkModules([read(ctx, typedText, 'a.ll'), read(ctx, '@c = global i64* null\n', 'b.ll')]);
    expect(typed.typedPointers).toBe(true);
    expect(printModule(typed)).toContain('@c = global i64* null');
    const opaque = linkModules([read(ctx, opaqueText, 'c.ll'), read(ctx, '@d = global ptr null\n', 'd.ll')]);
    expect(opaque.typedPointers).toBe(false);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFiles, corpusRoot, llvm15, llvm16 } from '../../test/support.js';
import { formatMemoryEffects, unpackMemoryEffects } from '../model/attributes.js';
import { IrError } from '../errors.js';
import { legacyMemoryAttributes } from './llvm15.js';
import { mangledPointees } from './llvm15-typed.js';
import { parseModule } from '../reader/parser.js';
import { formatType, PrintCache, printModule, printModuleTo } from './printer.js';
import { withoutNoOpCasts } from '../../test/casts.js';
import { debugRecordsModule } from '../../test/debug-records.js';

// printModule(m, { llvmVersion: 15 }): text LLVM 15 reads, checked with LLVM 15's llvm-as, and
// what it means checked by reading LLVM 15's bitcode back with LLVM 16 (which upgrades what 15
// wrote, as it does for any LLVM 15 bitcode) when both are installed.
const as15 = llvm15('llvm-as');
const dis15 = llvm15('llvm-dis');
const as16 = llvm16('llvm-as');
const dis16 = llvm16('llvm-dis');

function tool(path: string, input: string | Buffer): { ok: true; out: Buffer } | { ok: false; error: string } {
  try {
    return { ok: true, out: execFileSync(path, ['-o', '-', '-'], { input: typeof input === 'string' ? Buffer.from(input, 'latin1') : input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }) };
  } catch (error) {
    return { ok: false, error: String((error as { stderr?: Buffer }).stderr ?? error) };
  }
}

/** What LLVM 16 makes of text: through llvm-as of `as`'s version, then LLVM 16's llvm-dis. */
function throughBitcode(as: string, text: string): string {
  const bc = tool(as, text);
  if (!bc.ok) return `llvm-as failed: ${bc.error}`;
  const ll = tool(dis16!, bc.out);
  return ll.ok ? ll.out.toString('latin1') : `llvm-dis failed: ${ll.error}`;
}

function for15(text: string): { text: string; losses: string[] } {
  const losses: string[] = [];
  const out = printModule(parseModule(text, { filename: 't.ll' }), { llvmVersion: 15, onLossy: (n) => losses.push(n) });
  return { text: out, losses };
}

function memoryOf(text: string, fn: string): number {
  const a = parseModule(text, { filename: 't.ll' }).getFunction(fn)!.attributes.fn.get('memory');
  return a?.kind === 'int' ? (a.value as number) : 63;
}

const allEffects = Array.from({ length: 64 }, (_, v) => v);
const declarations = allEffects.map((v) => `declare void @f${v}() ${v === 63 ? '' : formatMemoryEffects(v)}`).join('\n') + '\n';

describe('memory(...) is written with the words LLVM 15 has', () => {
  it('for each of the 64 effects: exact exactly when reading the words back gives the same effects; otherwise they allow more, and the least more', () => {
    for (const v of allEffects) {
      const { words, exact } = legacyMemoryAttributes(v);
      const back = memoryOf(`declare void @f() ${words.join(' ')}\n`, 'f');
      expect({ v, exact }).toEqual({ v, exact: back === v });
      const want = unpackMemoryEffects(v);
      const got = unpackMemoryEffects(back);
      for (const loc of ['argmem', 'inaccessiblemem', 'other'] as const) expect((got[loc] & want[loc]) === want[loc]).toBe(true);
      // the least: every access kind the words allow somewhere is one the effects use somewhere
      expect(got.argmem | got.inaccessiblemem | got.other).toBe(want.argmem | want.inaccessiblemem | want.other);
    }
    expect(allEffects.filter((v) => legacyMemoryAttributes(v).exact)).toHaveLength(1 + 3 * 4);
  });

  it('prints them in place of memory(...) on functions, call sites and in attribute groups, and reports what it weakened', () => {
    const { text, losses } = for15(`${declarations}define void @g() {\n  call void @f3() memory(argmem: read)\n  call void @f0() memory(read, argmem: readwrite)\n  ret void\n}\n`);
    expect(text).not.toContain('memory(');
    const group = /declare void @f3\(\) #(\d+)\n/.exec(text)?.[1];
    expect(text).toContain(`attributes #${group} = { argmemonly }`);
    const callGroup = /call void @f3\(\) #(\d+)\n/.exec(text)?.[1];
    expect(text).toContain(`attributes #${callGroup} = { readonly argmemonly }`);
    expect(text).toContain('  call void @f0()\n');
    expect(losses).toContain("@f61: memory(readwrite, argmem: read, inaccessiblemem: readwrite) is written as no memory attribute, which allows more accesses");
    expect(losses.some((l) => l.startsWith('@g: memory(read, argmem: readwrite, inaccessiblemem: read)'))).toBe(true);
    expect(losses).not.toContain(expect.stringMatching(/^@f3:/));
  });

  it.skipIf(!as15 || !as16 || !dis16)('LLVM 15 reads them, and LLVM 16 reads its bitcode as the effects syclkit reads the words as', () => {
    const { text } = for15(declarations);
    expect(throughBitcode(as15!, text)).toBe(throughBitcode(as16!, printModule(parseModule(text, { filename: 't.ll' }))));
  });
});

const withRecords = (records: string): string => debugRecordsModule(records);

describe('LLVM 19 debug records are written as the llvm.dbg calls they stand for', () => {
  const records = [
    '  #dbg_value(i32 %x, !8, !DIExpression(), !9)',
    '  #dbg_declare(ptr %p, !8, !DIExpression(DW_OP_deref), !9)',
    '  #dbg_value(!DIArgList(i32 %x, i32 1), !8, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !9)',
    '  #dbg_value(!{}, !8, !DIExpression(), !9)',
    '  #dbg_label(!12, !9)',
  ].join('\n');
  const calls = [
    '  call void @llvm.dbg.value(metadata i32 %x, metadata !6, metadata !DIExpression()), !dbg !8',
    '  call void @llvm.dbg.declare(metadata ptr %p, metadata !6, metadata !DIExpression(DW_OP_deref)), !dbg !8',
    '  call void @llvm.dbg.value(metadata !DIArgList(i32 %x, i32 1), metadata !6, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value)), !dbg !8',
    '  call void @llvm.dbg.value(metadata !9, metadata !6, metadata !DIExpression()), !dbg !8',
    '  call void @llvm.dbg.label(metadata !10), !dbg !8',
  ];

  it('as calls in place of the records, with the intrinsics declared after the functions', () => {
    const { text, losses } = for15(withRecords(records));
    expect(text).toContain(`entry:\n${calls.join('\n')}\n  ret void, !dbg !8\n}\n`);
    expect(text).toContain('}\n\ndeclare void @llvm.dbg.declare(metadata, metadata, metadata)\n\ndeclare void @llvm.dbg.value(metadata, metadata, metadata)\n\ndeclare void @llvm.dbg.label(metadata)\n');
    expect(losses).toEqual([]);
    // read back, the calls print as themselves (the declarations now get their intrinsic attributes)
    expect(for15(text).text).toContain(`entry:\n${calls.join('\n')}\n  ret void, !dbg !8\n}\n`);
  });

  it.skipIf(!as15 || !dis15)('which LLVM 15 reads and prints as the same calls', () => {
    const { text } = for15(withRecords(records));
    const bc = tool(as15!, text);
    expect(bc.ok).toBe(true);
    const back = tool(dis15!, (bc as { out: Buffer }).out);
    for (const call of calls) expect((back as { out: Buffer }).out.toString('latin1')).toContain(call);
  });
});

describe('what LLVM 15 lacks but only promised something is left out, and reported', () => {
  const text = `define i64 @f(i32 %x, ptr nofpclass(nan) %q, ptr captures(none) %p) {
  %a = zext nneg i32 %x to i64
  %b = or disjoint i32 %x, 1
  %c = trunc nuw nsw i32 %x to i8
  %d = getelementptr inbounds nuw i8, ptr %p, i64 %a
  %e = icmp samesign ult i32 %x, 7
  %g = getelementptr nusw i8, ptr %p, i64 1
  %h = add nuw nsw i32 %x, 1
  ret i64 %a
}
@v = global ptr getelementptr inbounds nuw (i8, ptr @v, i64 1)
`;

  it('flags, GEP flags and promise-only attributes; captures(none) is nocapture; nuw/nsw stay where LLVM 15 has them', () => {
    const { text: out, losses } = for15(text);
    expect(out).toContain('define i64 @f(i32 %x, ptr %q, ptr nocapture %p)');
    for (const line of ['%a = zext i32 %x to i64', '%b = or i32 %x, 1', '%c = trunc i32 %x to i8', '%d = getelementptr inbounds i8, ptr %p, i64 %a', '%e = icmp ult i32 %x, 7', '%g = getelementptr i8, ptr %p, i64 1', '%h = add nuw nsw i32 %x, 1']) {
      expect(out).toContain(`  ${line}\n`);
    }
    expect(out).toContain('@v = global ptr getelementptr inbounds (i8, ptr @v, i64 1)');
    expect(losses).toEqual([
      "@v: GEP flags 'nuw'/'nusw' are left out (LLVM 15 lacks them)",
      "@f: attribute 'nofpclass' is left out (LLVM 15 lacks it)",
      "@f: flags 'nneg'/'disjoint'/'samesign' are left out (LLVM 15 lacks them)",
      "@f: 'nuw'/'nsw' on trunc are left out (LLVM 15 lacks them)",
      "@f: GEP flags 'nuw'/'nusw' are left out (LLVM 15 lacks them)",
    ]);
  });

  it.skipIf(!as15)('and LLVM 15 reads the result', () => {
    expect(tool(as15!, for15(text).text).ok).toBe(true);
  });
});

describe('DWARF names LLVM 15 lacks are written as their numbers', () => {
  const text = withRecords('').replace('DW_LANG_C99', 'DW_LANG_C_plus_plus_17');
  it('language: 42 for DW_LANG_C_plus_plus_17', () => {
    expect(for15(text).text).toContain('!DICompileUnit(language: 42,');
  });
  it.skipIf(!as15 || !dis16)('which LLVM 16 names again when it reads LLVM 15 bitcode', () => {
    expect(throughBitcode(as15!, for15(text).text)).toContain('language: DW_LANG_C_plus_plus_17');
  });
});

describe('what LLVM 15 cannot express is refused, naming it, before anything is written', () => {
  const refused: readonly (readonly [string, string, string])[] = [
    ['a target extension type', 'define void @f(target("spirv.Image", void, 1) %i) {\n  ret void\n}\n', '@f: target extension type target("spirv.Image") (LLVM 16)'],
    ['atomicrmw uinc_wrap', 'define void @f(ptr %p) {\n  %o = atomicrmw uinc_wrap ptr %p, i32 1 seq_cst\n  ret void\n}\n', '@f: atomicrmw uinc_wrap (LLVM 15 lacks it)'],
    ['an attribute LLVM 15 does not know', 'define void @f() skipprofile {\n  ret void\n}\n', "@f: attribute 'skipprofile' (LLVM 15 lacks it)"],
    ['assignment tracking', withRecords('  #dbg_assign(i32 %x, !8, !DIExpression(), !13, ptr %p, !DIExpression(), !9)') + '!13 = distinct !DIAssignID()\n', '@f: #dbg_assign (assignment tracking, LLVM 16); @f: !DIAssignID (assignment tracking, LLVM 16)'],
    ['a global code model', '@g = global i32 0, code_model "small"\n', '@g: code_model (LLVM 17)'],
  ];
  for (const [what, text, problems] of refused) {
    it(what, () => {
      const chunks: Uint8Array[] = [];
      const m = parseModule(text, { filename: 't.ll' });
      let error: unknown;
      try {
        printModuleTo(m, (c) => chunks.push(c), { llvmVersion: 15 });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(IrError);
      expect((error as IrError).render()).toBe(`t.ll: error: cannot write this module for LLVM 15, which cannot express: ${problems}\n`);
      expect(chunks).toEqual([]);
      expect(() => printModule(m)).not.toThrow();
    });
  }
});

describe('the llvmVersion option', () => {
  it('is 16 by default, and 15 or 16 only', () => {
    const m = parseModule(declarations, { filename: 't.ll' });
    expect(printModule(m, { llvmVersion: 16 })).toBe(printModule(m));
    expect(() => printModule(m, { llvmVersion: 14 as 15 })).toThrow(new IrError('llvmVersion must be 15 or 16, not 14'));
  });

  it('prints a module with nothing new in LLVM 16 exactly as for LLVM 16', () => {
    const text = 'define i32 @f(i32 %x) {\n  %y = add nsw i32 %x, 1\n  ret i32 %y\n}\n';
    const m = parseModule(text, { filename: 't.ll' });
    expect(printModule(m, { llvmVersion: 15 })).toBe(printModule(m));
  });

  it('keeps one print cache to one version', () => {
    const m = parseModule(declarations, { filename: 't.ll' });
    const cache = new PrintCache();
    printModule(m, { cache });
    expect(() => printModule(m, { cache, llvmVersion: 15 })).toThrow(/one LLVM version/);
  });
});

describe('every intel/llvm corpus input LLVM 16 reads', () => {
  const files = corpusFiles();
  it.skipIf(files.length === 0 || !as15 || !as16 || !dis16)(
    'is written for LLVM 15 so that it reads it and LLVM 16 reads its bitcode as the same module, or refused for its target extension types',
    () => {
      let written = 0;
      const refused: string[] = [];
      const different: string[] = [];
      for (const file of files) {
        const text = readFileSync(file, 'latin1');
        if (!tool(as16!, text).ok) continue;
        const id = relative(corpusRoot, file);
        const m = parseModule(text, { filename: '<stdin>', odrTypeUniquing: false });
        let for15Text: string;
        try {
          for15Text = printModule(m, { llvmVersion: 15 });
        } catch (error) {
          expect((error as Error).message).toMatch(/^cannot write this module for LLVM 15, which cannot express: (@[^;]*: target extension type target\("[^"]+"\) \(LLVM 16\)(; )?)+$/);
          refused.push(id);
          continue;
        }
        written++;
        if (throughBitcode(as15!, for15Text) !== throughBitcode(as16!, printModule(m))) different.push(id);
      }
      expect(different).toEqual([]);
      expect(refused).toEqual(files.filter((f) => readFileSync(f, 'latin1').includes('target("')).map((f) => relative(corpusRoot, f)));
      expect(written).toBeGreaterThan(150);
    },
    240_000,
  );
});

describe("typed pointers for LLVM 15 (pointers: 'typed')", () => {
  const typed = (text: string): string => printModule(parseModule(text, { filename: 't.ll' }), { llvmVersion: 15, pointers: 'typed' });
  const typedReads = (text: string): { ok: boolean; error?: string } => {
    try {
      execFileSync(as15!, ['-opaque-pointers=0', '-o', '/dev/null', '-'], { input: Buffer.from(text, 'latin1'), stdio: ['pipe', 'ignore', 'pipe'] });
      return { ok: true };
    } catch (error) {
      return { ok: false, error: String((error as { stderr?: Buffer }).stderr) };
    }
  };
  // the SYCL accessor pattern LLVM 15's SPIR-V translator crashes on in opaque form
  const accessor = `define spir_func void @init(ptr %this, ptr addrspace(1) %p) {
  store ptr addrspace(1) %p, ptr %this, align 8
  ret void
}

define spir_kernel void @K(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %k = alloca ptr addrspace(1), align 8
  call spir_func void @init(ptr %k, ptr addrspace(1) %in)
  call spir_func void @init(ptr %k, ptr addrspace(1) %out)
  ret void
}
`;

  it('writes every ptr as i8*, with bitcasts where an instruction needs another pointee', () => {
    expect(typed(accessor)).toBe(`; ModuleID = 't.ll'
source_filename = "t.ll"

define spir_func void @init(i8* %this, i8 addrspace(1)* %p) {
  %__typed15.0 = bitcast i8* %this to i8 addrspace(1)**
  store i8 addrspace(1)* %p, i8 addrspace(1)** %__typed15.0, align 8
  ret void
}

define spir_kernel void @K(i8 addrspace(1)* %in, i8 addrspace(1)* %out) {
  %k = alloca i8 addrspace(1)*, align 8
  %__typed15.0 = bitcast i8 addrspace(1)** %k to i8*
  call spir_func void @init(i8* %__typed15.0, i8 addrspace(1)* %in)
  call spir_func void @init(i8* %__typed15.0, i8 addrspace(1)* %out)
  ret void
}
`);
  });

  const structs = `%S = type { i32, ptr }
@g = global i32 0
@table = global [2 x ptr] [ptr @f, ptr @g]
@field = global ptr getelementptr inbounds (%S, ptr @s, i32 0, i32 1)
@s = global %S zeroinitializer

declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg)

define void @f(ptr byval(%S) %in, ptr %out) {
entry:
  %x = alloca i32, align 4
  %p = getelementptr inbounds %S, ptr %in, i32 0, i32 1
  %q = load ptr, ptr %p, align 8
  store i32 7, ptr %x, align 4
  %v = load i32, ptr %q, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %in, i64 16, i1 false)
  call void @f(ptr byval(%S) %out, ptr %x)
  %c = icmp eq ptr %q, @g
  ret void
}
`;

  it('types byval arguments, allocas, GEPs, globals and functions by what they point to, and names intrinsics with typed manglings', () => {
    const out = typed(structs);
    for (const line of [
      '%S = type { i32, i8* }',
      '@table = global [2 x i8*] [i8* bitcast (void (%S*, i8*)* @f to i8*), i8* bitcast (i32* @g to i8*)]',
      '@field = global i8* bitcast (i8** getelementptr inbounds (%S, %S* @s, i32 0, i32 1) to i8*)',
      'declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #0',
      'define void @f(%S* byval(%S) %in, i8* %out) {',
      '  %__typed15.0 = bitcast %S* %in to i8*',
      '  %p = getelementptr inbounds %S, %S* %in, i32 0, i32 1',
      '  %q = load i8*, i8** %p, align 8',
      '  store i32 7, i32* %x, align 4',
      '  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %out, i8* %__typed15.0, i64 16, i1 false)',
      '  %__typed15.4 = bitcast i8* %out to %S*',
      '  call void @f(%S* byval(%S) %__typed15.4, i8* %__typed15.1)',
      '  %c = icmp eq i8* %q, bitcast (i32* @g to i8*)',
    ]) {
      expect(out).toContain(`${line}\n`);
    }
  });

  const atomic = `target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z18__spirv_AtomicIAddPU3AS4mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(ptr addrspace(4) noundef, i32 noundef, i32 noundef, i64 noundef)

define spir_kernel void @K(ptr addrspace(1) %out) {
  %p = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
  %old = call spir_func i64 @_Z18__spirv_AtomicIAddPU3AS4mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(ptr addrspace(4) noundef %p, i32 noundef 1, i32 noundef 912, i64 noundef 1)
  ret void
}
`;

  it('gives a declared builtin the pointer types its mangled name spells, as DPC++ declared them', () => {
    const out = typed(atomic);
    expect(out).toContain('declare spir_func i64 @_Z18__spirv_AtomicIAddPU3AS4mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(i64 addrspace(4)* noundef, i32 noundef, i32 noundef, i64 noundef)\n');
    expect(out).toContain('  %__typed15.0 = bitcast i8 addrspace(4)* %p to i64 addrspace(4)*\n');
    expect(out).toContain('(i64 addrspace(4)* noundef %__typed15.0, i32 noundef 1, i32 noundef 912, i64 noundef 1)');
  });

  it('reads the pointee types of pointer parameters from Itanium manglings, substitutions included', () => {
    const ctx = parseModule('', { filename: 't.ll' }).context;
    const pointees = (name: string, count: number, varArgs = false): string[] | undefined =>
      mangledPointees(ctx, name, count, varArgs)?.map((p) => (p === undefined ? '-' : `${formatType(p.pointee)} as${p.addressSpace}`));
    expect(pointees('_Z18__spirv_AtomicIAddPU3AS4mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm', 4)).toEqual(['i64 as4', '-', '-', '-']);
    expect(pointees('_Z18__spirv_ocl_printfPU3AS2Kcz', 1, true)).toEqual(['i8 as2']);
    expect(pointees('_Z5fractfPU3AS1f', 2)).toEqual(['-', 'float as1']);
    expect(pointees('_Z7vstore4Dv4_fmPU3AS1f', 3)).toEqual(['-', '-', 'float as1']);
    expect(pointees('_Z3fooPiS_', 2)).toEqual(['i32 as0', 'i32 as0']);
    // S_ is the qualified int, S0_ the pointer to it
    expect(pointees('_Z3fooPU3AS1KiS_', 2)).toEqual(['i32 as1', '-']);
    expect(pointees('_Z3fooPU3AS1KiS0_', 2)).toEqual(['i32 as1', 'i32 as1']);
    expect(pointees('_Z3barPDv4_f', 1)).toEqual(['<4 x float> as0']);
    expect(pointees('_Z3bazv', 0)).toEqual([]);
    // parameter counts that disagree, templates and names that are not manglings give nothing
    expect(pointees('_Z3fooPi', 2)).toBeUndefined();
    expect(pointees('_Z3fooIiEvPT_', 1)).toBeUndefined();
    expect(pointees('foo', 1)).toBeUndefined();
  });

  it('gives a value in metadata the type it is defined with', () => {
    const out = typed(withRecords('  %a = alloca i32, align 4\n  #dbg_declare(ptr %a, !8, !DIExpression(), !9)'));
    expect(out).toContain('  call void @llvm.dbg.declare(metadata i32* %a, metadata !6, metadata !DIExpression()), !dbg !8\n');
  });

  it('refuses what it cannot type, and needs llvmVersion 15', () => {
    const vectorGep = 'define <2 x ptr> @f(<2 x ptr> %p) {\n  %q = getelementptr i32, <2 x ptr> %p, i64 1\n  ret <2 x ptr> %q\n}\n';
    expect(() => typed(vectorGep)).toThrow('cannot write this module for LLVM 15, which cannot express: @f: vector getelementptr (typed pointers)');
    const ctors = '@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @c, ptr null }]\ndefine void @c() {\n  ret void\n}\n';
    expect(() => typed(ctors)).toThrow('@llvm.global_ctors (typed pointers want void ()* fields)');
    expect(() => printModule(parseModule(accessor, { filename: 't.ll' }), { pointers: 'typed' })).toThrow("pointers: 'typed' is for llvmVersion 15");
  });

  it('prints a module read with typed pointers as it is', () => {
    const m = parseModule('define i32 @f(i32* %p) {\n  %v = load i32, i32* %p\n  ret i32 %v\n}\n', { filename: 't.ll', pointers: 'preserve-typed' });
    expect(printModule(m, { llvmVersion: 15, pointers: 'typed' })).toBe(printModule(m, { llvmVersion: 15 }));
  });

  it.skipIf(!as15)('LLVM 15 reads them with typed pointers (-opaque-pointers=0)', () => {
    expect(typedReads(typed(accessor))).toEqual({ ok: true });
    expect(typedReads(typed(structs))).toEqual({ ok: true });
  });

  const spirv = '/usr/bin/llvm-spirv-15';
  const spirvVal = '/usr/bin/spirv-val';
  it.skipIf(!as15 || !existsSync(spirv) || !existsSync(spirvVal))("LLVM 15's SPIR-V translator translates the accessor pattern and a builtin atomic from them into SPIR-V spirv-val accepts", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ir-typed15-'));
    try {
      for (const [name, text] of [['accessor', `target triple = "spir64-unknown-unknown"\n${accessor}`], ['atomic', atomic]] as const) {
        execFileSync(as15!, ['-opaque-pointers=0', '-o', join(dir, `${name}.bc`), '-'], { input: Buffer.from(typed(text), 'latin1') });
        execFileSync(spirv, [join(dir, `${name}.bc`), '-o', join(dir, `${name}.spv`)], { stdio: 'pipe' });
        execFileSync(spirvVal, [join(dir, `${name}.spv`)], { stdio: 'pipe' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** LLVM 16's reading of bitcode, without the no-op pointer casts the typed form adds. */
  function meaning(bc: Buffer): string {
    const text = execFileSync(dis16!, ['-o', '-', '-'], { input: bc, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString('latin1');
    return withoutNoOpCasts(text);
  }

  const files = corpusFiles();
  it.skipIf(files.length === 0 || !as15 || !as16 || !dis16)(
    'writes every corpus input LLVM 16 reads so that LLVM 15 reads it typed, meaning the same to LLVM 16 apart from no-op casts, or refuses it for its target extension types',
    () => {
      let written = 0;
      const unreadable: string[] = [];
      const different: string[] = [];
      for (const file of files) {
        const text = readFileSync(file, 'latin1');
        const bc16 = tool(as16!, text);
        if (!bc16.ok) continue;
        const id = relative(corpusRoot, file);
        const m = parseModule(text, { filename: '<stdin>', odrTypeUniquing: false });
        let out: string;
        try {
          out = printModule(m, { llvmVersion: 15, pointers: 'typed' });
        } catch (error) {
          expect((error as Error).message).toContain('target extension type');
          continue;
        }
        written++;
        let bc15: Buffer;
        try {
          bc15 = execFileSync(as15!, ['-opaque-pointers=0', '-o', '-', '-'], { input: Buffer.from(out, 'latin1'), stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
        } catch {
          unreadable.push(id);
          continue;
        }
        const ours16 = execFileSync(as16!, ['-o', '-', '-'], { input: Buffer.from(printModule(m), 'latin1'), stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
        if (meaning(bc15) !== meaning(ours16)) different.push(id);
      }
      expect(unreadable).toEqual([]);
      expect(different).toEqual([]);
      expect(written).toBeGreaterThan(150);
    },
    300_000,
  );
});

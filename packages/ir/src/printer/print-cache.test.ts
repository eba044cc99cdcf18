import { describe, expect, it } from 'vitest';
import { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { PrintCache, printModule, printModuleTo } from './printer.js';
import type { IRFunction } from '../model/values.js';

const SOURCE = `define void @a() !dbg !9 {
  call void @shared(), !dbg !10
  ret void
}
define void @shared() #0 {
  call void @leaf() #1, !extra !3
  ret void
}
declare void @leaf()
attributes #0 = { nounwind }
attributes #1 = { convergent }
!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !2, emissionKind: FullDebug)
!2 = !DIFile(filename: "t.cpp", directory: "/")
!3 = !{!"shared-extra"}
!9 = distinct !DISubprogram(name: "a", scope: !2, file: !2, line: 1, unit: !1)
!10 = !DILocation(line: 2, scope: !9)
`;

/** A module holding the given functions of `m` (shared objects, as split images hold them). */
function view(m: Module, names: readonly string[]): Module {
  const image = new Module(m.id, m.context);
  for (const name of names) image.addFunction(m.getFunction(name)!);
  for (const [k, v] of m.namedMetadata) image.setNamedMetadata(k, v);
  for (const f of m.functions) f.parent = m;
  return image;
}

function printCached(m: Module, cache: PrintCache): string {
  const chunks: Buffer[] = [];
  printModuleTo(m, (c) => chunks.push(Buffer.from(c)), { cache });
  return Buffer.concat(chunks).toString('latin1');
}

describe('print cache', () => {
  it('prints shared functions with each module’s own !N and #N numbers', () => {
    const m = parseModule(SOURCE, { filename: 't.ll' });
    const cache = new PrintCache();
    const views = [view(m, ['a', 'shared', 'leaf']), view(m, ['shared', 'leaf']), view(m, ['shared', 'leaf', 'a'])];
    for (let round = 0; round < 3; round++) {
      for (const v of views) expect(printCached(v, cache)).toBe(printModule(v));
    }
    // the second view numbers !extra's node first, the first view after the debug nodes
    expect(printModule(views[1]!)).toContain('!extra !1');
    expect(printModule(views[0]!)).not.toContain('!extra !1');
  });

  it('hands each chunk out in a buffer of its own, which later prints with the same cache leave alone', () => {
    const m = parseModule(SOURCE, { filename: 't.ll' });
    const cache = new PrintCache();
    const views = [view(m, ['a', 'shared', 'leaf']), view(m, ['shared', 'leaf'])];
    const kept: Uint8Array[][] = [];
    for (let round = 0; round < 2; round++) {
      for (const v of views) {
        const chunks: Uint8Array[] = [];
        printModuleTo(v, (c) => chunks.push(c), { cache });
        kept.push(chunks);
      }
    }
    kept.forEach((chunks, i) => {
      for (const c of chunks) expect(c.buffer.byteLength).toBe(c.byteLength);
      expect(Buffer.concat(chunks).toString('latin1')).toBe(printModule(views[i % 2]!));
    });
  });

  it('prints a module bigger than its 1 MiB buffer in whole chunks', () => {
    const body = Array.from({ length: 60000 }, (_, i) => `  %v${i} = add i32 %x, ${i}`).join('\n');
    const m = parseModule(`define i32 @big(i32 %x) {\n${body}\n  ret i32 %x\n}\n`, { filename: 'big.ll' });
    const cache = new PrintCache();
    const chunks: Uint8Array[] = [];
    printModuleTo(m, (c) => chunks.push(c), { cache });
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString('latin1')).toBe(printModule(m));
  });

  it('finds struct types in instruction attachments from its lists of them, in the order a walk finds them', () => {
    // functions printed once each (a split's kernels) that share an attachment (as TBAA nodes are shared)
    const fn = (name: string, type: string): string => `define void @${name}(ptr %p) {\n  store i32 0, ptr %p, align 4, !extra !1\n  %a = alloca %struct.${type}, align 4\n  ret void\n}\n`;
    const m = parseModule(
      `%struct.S = type { i16 }\n%struct.T = type { i32 }\n%struct.U = type { i64 }\n%struct.V = type { i8 }\n` +
        fn('f', 'T') + fn('g', 'U') + fn('h', 'V') + `!0 = !{!"s", %struct.S zeroinitializer}\n!1 = !{!0, !"t"}\n`,
      { filename: 't.ll' },
    );
    const cache = new PrintCache();
    const views = [view(m, ['f']), view(m, ['g']), view(m, ['h'])];
    // the attachment's struct (through a node it holds) comes before the alloca's: walked, then from its list
    for (const v of views) expect(printCached(v, cache)).toBe(printModule(v));
    expect(printModule(views[2]!)).toContain('\n%struct.S = type { i16 }\n%struct.V = type { i8 }\n');
    const node = m.getFunction('h')!.blocks[0]!.instructions[0]!.attachments![0]!.node;
    expect(cache.rootStructs.get(node)?.map((s) => s.name)).toEqual(['struct.S']);
  });

  it('is not used for modules whose numbered types or unnamed globals would need holes', () => {
    const m = parseModule('%0 = type { i32 }\ndefine void @f(ptr %p) {\n  %v = load %0, ptr %p, align 4\n  ret void\n}\n', { filename: 't.ll' });
    const cache = new PrintCache();
    const fn = m.getFunction('f') as IRFunction;
    printCached(m, cache);
    printCached(m, cache);
    expect(cache.templates.has(fn)).toBe(false);
  });
});

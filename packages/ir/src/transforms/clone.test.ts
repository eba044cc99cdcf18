import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cloneModule, cloneModuleWithMap } from './clone.js';
import { Context } from '../model/context.js';
import { Instruction } from '../model/instructions.js';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { verifyModule } from '../verifier/verifier.js';
import type { GlobalValue } from '../model/values.js';

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../../../shared/conformance/intel-llvm/llvm/test/', import.meta.url));

function llFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...llFiles(path));
    else if (name.endsWith('.ll')) out.push(path);
  }
  return out;
}

const parseFile = (path: string): Module => parseModule(readFileSync(path, 'latin1'), { filename: path });

describe('full clone prints like the original', () => {
  const fixtures = llFiles(FIXTURES);
  it('covers the fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(3);
  });
  for (const path of fixtures) {
    it(`fixture ${path.slice(FIXTURES.length)}`, () => {
      const m = parseFile(path);
      const clone = cloneModule(m);
      expect(printModule(clone)).toBe(printModule(m));
      expect(verifyModule(clone)).toEqual([]);
    });
  }

  const corpus = llFiles(CORPUS);
  it.skipIf(corpus.length === 0)(`every intel/llvm conformance input (${corpus.length} files)`, () => {
    const different: string[] = [];
    for (const path of corpus) {
      const m = parseFile(path);
      if (printModule(cloneModule(m)) !== printModule(m)) different.push(path);
    }
    expect(different).toEqual([]);
  }, 120_000);
});

describe('clone independence', () => {
  it('shares nothing mutable: editing the clone leaves the original untouched', () => {
    const m = parseFile(join(FIXTURES, 'roundtrip/instructions.ll'));
    const before = printModule(m);
    const clone = cloneModule(m);
    for (const f of clone.functions) {
      clone.renameGlobal(f, `${f.name}.copy`);
      for (const b of f.blocks) {
        b.name = `${b.name}x`;
        for (const inst of b.instructions) {
          inst.operands.reverse();
          if (inst.attachments) (inst.attachments as unknown[]).length = 0; // a clone's own list, never the original's
        }
      }
    }
    for (const g of clone.globals) g.initializer = undefined;
    clone.namedMetadata.clear();
    expect(printModule(m)).toBe(before);
  });

  it('gives every copied instruction exactly the own fields of its source, with the same class', () => {
    const m = parseFile(join(FIXTURES, 'roundtrip/instructions.ll'));
    const clone = cloneModule(m);
    const source = m.functions.flatMap((f) => [...f.instructions()]);
    const copies = clone.functions.flatMap((f) => [...f.instructions()]);
    expect(copies.length).toBe(source.length);
    source.forEach((inst, i) => {
      const copy = copies[i]!;
      expect(copy).toBeInstanceOf(Instruction);
      expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(inst));
      expect(Object.keys(copy).sort()).toEqual(Object.keys(inst).sort());
      expect(copy.operands).not.toBe(inst.operands);
    });
  });

  it('maps each source global to its copy', () => {
    const m = parseFile(join(FIXTURES, 'roundtrip/instructions.ll'));
    const { module, map } = cloneModuleWithMap(m);
    for (const gv of m.globalValues()) {
      const copy = map.get(gv)!;
      expect(copy.parent).toBe(module);
      expect(copy.name).toBe(gv.name);
      expect(copy).not.toBe(gv);
    }
  });
});

describe('cloning a subset', () => {
  const text = `
$shared = comdat any
$unused = comdat any

@kernel.data = internal addrspace(1) global ptr @helper
@other.data = global i32 3
@inUnused = linkonce_odr global i32 1, comdat($unused)

define spir_kernel void @kernel() !sycl_used_aspects !1 {
  call void @helper()
  call void @notKept()
  ret void
}
define internal void @helper() comdat($shared) {
  ret void
}
define void @notKept() personality ptr @pers {
  ret void
}
define void @otherKernel() {
  ret void
}
declare i32 @pers(...)

!kernels = !{!0, !2}
!0 = !{ptr @kernel, !"kernel"}
!1 = !{i32 5}
!2 = !{ptr @otherKernel, !"other"}
`;
  const kept = new Set(['kernel', 'helper', 'kernel.data']);
  const m = parseModule(text, { filename: 'split.ll' });
  const { module: part, map } = cloneModuleWithMap(m, { keep: (g) => kept.has(g.name) });
  const printed = printModule(part);

  it('keeps the selected globals in source order', () => {
    expect(part.globals.map((g) => g.name)).toEqual(['kernel.data']);
    expect(part.functions.map((f) => f.name)).toEqual(['kernel', 'helper', 'notKept']);
  });

  it('gives the same module when told the members (looking at those only) and which named metadata operands to map', () => {
    const members = [...m.globals, ...m.functions].filter((g) => kept.has(g.name) || g.name === 'notKept');
    const looked: string[] = [];
    const narrow = cloneModule(m, {
      keep: (g) => {
        looked.push(g.name);
        return kept.has(g.name);
      },
      members,
      namedMetadata: (name, ops) => (name === 'kernels' ? ops.slice(0, 1) : ops),
    });
    expect(looked.sort()).toEqual(['helper', 'kernel', 'kernel.data', 'notKept']);
    const expected = cloneModule(m, { keep: (g) => kept.has(g.name) });
    expected.setNamedMetadata('kernels', expected.getNamedMetadata('kernels')!.slice(0, 1));
    expect(printModule(narrow)).toBe(printModule(expected));
  });

  it('declares referenced globals that are not kept, with external linkage and no personality', () => {
    expect(printed).toContain('declare void @notKept()');
    expect(part.getFunction('pers')).toBeUndefined();
  });

  it('copies the comdats of kept objects only', () => {
    expect([...part.comdats.keys()]).toEqual(['shared']);
    expect(part.getFunction('helper')!.comdat).toBe(part.comdats.get('shared'));
  });

  it('remaps metadata to the copies and turns references to dropped globals into null', () => {
    const kernels = part.getNamedMetadata('kernels')!;
    const first = kernels[0]!;
    expect(first.mk === 'tuple' && first.operands[0]?.mk === 'value' && first.operands[0].value).toBe(part.getFunction('kernel'));
    expect(printed).toContain('!{null, !"other"}');
    expect(printed).toContain('!sycl_used_aspects !');
  });

  it('keeps module-level properties and leaves the source untouched', () => {
    expect(part.id).toBe('split.ll');
    expect(part.context).toBe(m.context);
    expect(map.get(m.getFunction('kernel')!)).toBe(part.getFunction('kernel'));
    expect(printModule(m)).toBe(printModule(parseModule(text, { filename: 'split.ll' })));
    expect(verifyModule(part)).toEqual([]);
  });

  it('turns kept functions without selected bodies into declarations', () => {
    const decl = cloneModule(m, { keep: (g: GlobalValue) => g.name === 'kernel' || g.name === 'helper', bodies: (f) => f.name !== 'helper' });
    const h = decl.getFunction('helper')!;
    expect(h.isDeclaration).toBe(true);
    expect(h.linkage).toBe('external');
    expect(h.comdat).toBeUndefined();
    expect(verifyModule(decl)).toEqual([]);
  });

  it('replaces a referenced alias that is not kept by a declaration of its value type', () => {
    const src = parseModule('@a = alias void (), ptr @f\ndefine void @f() {\n  ret void\n}\ndefine void @g() {\n  call void @a()\n  ret void\n}', { filename: 'alias.ll' });
    const part2 = cloneModule(src, { keep: (g) => g.name === 'g' });
    expect(printModule(part2)).toContain('declare void @a()');
    expect(verifyModule(part2)).toEqual([]);
  });
});

describe('clone with a different id into the same context', () => {
  it('uses the given id and the same context', () => {
    const ctx = new Context();
    const m = parseModule('define void @f() {\n  ret void\n}', { filename: 'a.ll', context: ctx });
    const clone = cloneModule(m, { id: 'part-0' });
    expect(clone.id).toBe('part-0');
    expect(clone.sourceFilename).toBe('a.ll');
    expect(clone.context).toBe(ctx);
  });
});

describe('scale', () => {
  /** A module of `n` functions, each calling the next. */
  function chain(n: number): Module {
    const ctx = new Context();
    const text: string[] = [];
    for (let i = 0; i < n; i++) text.push(`define void @f${i}(i32 %x) {\n  call void @f${(i + 1) % n}(i32 %x)\n  %y = add i32 %x, 1\n  ret void\n}`);
    return parseModule(text.join('\n'), { filename: 'chain.ll', context: ctx });
  }

  it('clones a 100k-function module in linear time, references pointing at the copies', () => {
    const m = chain(100_000);
    const start = performance.now();
    const clone = cloneModule(m);
    const elapsed = performance.now() - start;
    expect(clone.functions.length).toBe(100_000);
    const last = clone.functions[99_999]!;
    expect(last.blocks[0]!.instructions[0]!.operands[0]).toBe(clone.functions[0]);
    expect(verifyModule(clone)).toEqual([]);
    // generous: about half a second on an idle machine; CI machines are shared
    expect(elapsed).toBeLessThan(15_000);
  }, 60_000);
});

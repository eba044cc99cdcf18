/**
 * Properties of the linker, over generated modules with disjoint symbol names:
 * 1. Associativity, exactly: link(link(a, b), c) prints the same as link(a, link(b, c)) when no
 *    global initializer refers to a function and no module declares another's functions. (With
 *    those, llvm-link's output order depends on the grouping — LLVM 16 itself gives different
 *    texts for about half of such triples — so 2. covers them.)
 * 2. Associativity up to the order of top-level entities, for modules that do call and take the
 *    address of each other's functions: the same globals, and the same function texts.
 * 3. The linked module passes the verifier, and every function a module defines is defined once.
 * 4. When LLVM 16's llvm-link is installed: link(a, b, c) prints exactly what llvm-link prints.
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { Context } from './context.js';
import { linkModules } from './linker.js';
import type { Module } from './module.js';
import { parseModule } from './parser.js';
import { printModule } from './printer.js';
import { exportedFunctions, generatedModule, moduleText, type GeneratedModule, type ModuleArbitraryOptions } from './testing/arbitraries.js';
import { llvmTool, runTool } from './testing/llvm.js';
import { fcOptions } from './testing/options.js';
import { verifyModule } from './verifier.js';

/** Three modules a, b, c; with `crossReferences`, b may declare c's functions and a both. */
function triple(crossReferences: boolean, options: ModuleArbitraryOptions = {}): fc.Arbitrary<[GeneratedModule, GeneratedModule, GeneratedModule]> {
  return generatedModule({ ...options, prefix: 'c' }).chain((c) =>
    generatedModule({ ...options, prefix: 'b', externals: crossReferences ? exportedFunctions(c) : [] }).chain((b) =>
      generatedModule({ ...options, prefix: 'a', externals: crossReferences ? [...exportedFunctions(b), ...exportedFunctions(c)] : [] }).map(
        (a): [GeneratedModule, GeneratedModule, GeneratedModule] => [a, b, c],
      ),
    ),
  );
}

function parseAll(modules: readonly GeneratedModule[]): Module[] {
  const ctx = new Context();
  return modules.map((m) => parseModule(moduleText(m), { filename: `${m.name}.ll`, context: ctx }));
}

/** Top-level entities sorted: lines outside functions, and whole function texts. */
function canonical(text: string): string {
  return text
    .split('\n\n')
    .flatMap((chunk) => (chunk.startsWith('define') || chunk.startsWith('declare') ? [chunk] : chunk.split('\n')))
    .sort()
    .join('\n');
}

describe('linking is associative', () => {
  test.prop([triple(false, { functionsInInitializers: false })], fcOptions(60))('exactly, without function pointers in initializers or cross-module declarations', (mods) => {
    const [a, b, c] = parseAll(mods);
    const left = printModule(linkModules([linkModules([a!, b!]), c!]));
    const right = printModule(linkModules([a!, linkModules([b!, c!])]));
    expect(left).toBe(right);
  });

  test.prop([triple(true)], fcOptions(60))('up to the order of top-level entities, with cross-module calls and address-taken functions', (mods) => {
    const [a, b, c] = parseAll(mods);
    const left = printModule(linkModules([linkModules([a!, b!]), c!]));
    const right = printModule(linkModules([a!, linkModules([b!, c!])]));
    expect(canonical(left)).toBe(canonical(right));
  });
});

describe('linked modules are well formed', () => {
  test.prop([triple(true)], fcOptions(60))('verifier accepts the result and every external definition is there once', (mods) => {
    const linked = linkModules(parseAll(mods));
    expect(verifyModule(linked)).toEqual([]);
    for (const m of mods) {
      for (const f of m.functions) {
        if (!f.defined || f.linkage !== 'external') continue;
        const fn = linked.getFunction(f.name);
        expect(fn?.isDeclaration).toBe(false);
      }
    }
  });
});

const llvmLink = llvmTool('llvm-link');
describe.skipIf(llvmLink === undefined)('agreement with llvm-link 16', () => {
  test.prop([triple(true)], fcOptions(25))('link(a, b, c) prints what llvm-link -S a.ll b.ll c.ll prints', (mods) => {
    const dir = mkdtempSync(join(tmpdir(), 'syclkit-link-'));
    try {
      const files = mods.map((m) => {
        const path = join(dir, `${m.name}.ll`);
        writeFileSync(path, moduleText(m), 'latin1');
        return path;
      });
      const r = runTool(llvmLink!, ['-S', ...files]);
      expect(r.status).toBe(0);
      const ctx = new Context();
      const linked = linkModules(mods.map((m, i) => () => parseModule(moduleText(m), { filename: files[i]!, context: ctx })));
      expect(printModule(linked)).toBe(r.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Properties of the linker, over generated modules with disjoint symbol names:
 * 1. Associativity, exactly: link(link(a, b), c) prints the same as link(a, link(b, c)) when no
 *    global initializer refers to a function and no module declares another's functions. (With
 *    those, llvm-link's output order depends on the grouping — LLVM 16 itself gives different
 *    texts for about half of such triples — so 2. covers them.)
 * 2. Associativity up to the order of top-level entities, for modules that do call and take the
 *    address of each other's functions: the same globals, and the same function texts.
 * 3. The linked module passes the verifier, and every function a module defines is defined once.
 * 4. Modules sharing symbols (linkonce_odr / weak_odr / comdat / internal / external /
 *    available_externally / common definitions of the same names, clashing struct names):
 *    linking either fails with an IrError naming the symbol, or gives a verifiable module with
 *    every kernel defined and every symbol defined at most once.
 * 6. Moving bodies (`moveBodies`) gives exactly the text copying them gives, for disjoint and for
 *    symbol-sharing modules (or fails the same way); a function the result defines from an input
 *    leaves that input bodiless (a definition nothing needs, such as an unused linkonce_odr, stays).
 * 7. Consuming the inputs (`consumeInputs`: the result takes over their globals, bodies mapped in
 *    place) gives exactly the text copying gives: for one module alone (generated modules with
 *    calls, address-taken and discardable functions; modules sharing symbols; modules of constant
 *    expressions over globals; typed-pointer modules), and for groups of modules (or the same
 *    error). Linking one module this way copies nothing: every global of the result is the
 *    input's own object, with its own blocks and instructions, and the input is left empty.
 * 8. A link that reports `everyGlobalUsed` leaves nothing for `eraseUnused` to erase: for one
 *    module alone (consumed or copied), over the generators above and over modules whose globals
 *    refer to each other from code, initializers, aliasees, comdats and metadata; with no
 *    reference from metadata the link always reports it.
 * 5. When LLVM 16's llvm-link is installed: link(a, b, c) prints exactly what llvm-link prints,
 *    for disjoint and for symbol-sharing modules (and fails exactly when llvm-link fails).
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { Context } from '../model/context.js';
import { linkModules, type LinkFacts } from './linker.js';
import { eraseUnused } from '../transforms/replace.js';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';
import { IrError } from '../errors.js';
import {
  exportedFunctions,
  generatedModule,
  moduleText,
  sharedModule,
  sharedModuleText,
  type GeneratedModule,
  type ModuleArbitraryOptions,
} from '../../test/arbitraries.js';
import { llvmTool, runTool } from '../../test/llvm.js';
import { fcOptions } from '@syclkit/testing';
import { verifyModule } from '../verifier/verifier.js';
import { constantExprModule } from '../../test/const-exprs.js';
import { typedModule } from '../../test/typed-modules.js';
import type { GlobalValue } from '../model/values.js';
import { CallInst, type Instruction } from '../model/instructions.js';

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
  }, 120_000);

  test.prop([triple(true)], fcOptions(60))('up to the order of top-level entities, with cross-module calls and address-taken functions', (mods) => {
    const [a, b, c] = parseAll(mods);
    const left = printModule(linkModules([linkModules([a!, b!]), c!]));
    const right = printModule(linkModules([a!, linkModules([b!, c!])]));
    expect(canonical(left)).toBe(canonical(right));
  }, 120_000);
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
  }, 120_000);
});

const sharedGroup = fc.array(sharedModule(), { minLength: 2, maxLength: 3 });

/** Links a shared group (parsing each input in turn, as llvm-link does); the error if it fails. */
function linkShared(texts: readonly string[], files: readonly string[], onlyNeeded = false): Module | IrError {
  const ctx = new Context();
  try {
    return linkModules(
      texts.map((t, i) => () => parseModule(t, { filename: files[i]!, context: ctx })),
      { onlyNeeded },
    );
  } catch (e) {
    if (e instanceof IrError) return e;
    throw e;
  }
}

describe('modules sharing symbols', () => {
  test.prop([sharedGroup], fcOptions(100))('link fails naming a symbol, or resolves every name once', (group) => {
    const texts = group.map(sharedModuleText);
    const result = linkShared(texts, texts.map((_, i) => `m${i}.ll`));
    if (result instanceof IrError) {
      expect(result.message).toMatch(/^linking globals named '[a-z0-9]+': /);
      return;
    }
    expect(verifyModule(result)).toEqual([]);
    group.forEach((m, i) => {
      if (m.hasKernel) expect(result.getFunction(`kernel${i}`)?.isDeclaration).toBe(false);
    });
    const names = [...result.globalValues()].map((g) => g.name);
    expect(new Set(names).size).toBe(names.length);
  }, 120_000);
});

describe('moving bodies instead of copying them', () => {
  const link = (texts: readonly string[], moveBodies: boolean): { inputs: Module[]; result: Module | IrError } => {
    const ctx = new Context();
    const inputs = texts.map((t, i) => parseModule(t, { filename: `m${i}.ll`, context: ctx }));
    try {
      return { inputs, result: linkModules(inputs, { moveBodies }) };
    } catch (e) {
      if (e instanceof IrError) return { inputs, result: e };
      throw e;
    }
  };
  const text = (r: Module | IrError): string => (r instanceof IrError ? `error: ${r.message}` : printModule(r));

  test.prop([triple(true)], fcOptions(60))('gives the same module as copying, for modules calling each other', (mods) => {
    const texts = mods.map(moduleText);
    const moved = link(texts, true);
    expect(text(moved.result)).toBe(text(link(texts, false).result));
    // names are disjoint, so each definition of the result came from the one input defining it
    const result = moved.result as Module;
    expect(verifyModule(result)).toEqual([]);
    for (const fn of result.functions) {
      for (const a of fn.args) expect(a.parent).toBe(fn);
      for (const b of fn.blocks) expect(b.parent).toBe(fn);
    }
    for (const m of moved.inputs) for (const fn of m.functions) if (fn.blocks.length > 0) expect(result.getFunction(fn.name)?.isDeclaration ?? true).toBe(true);
  }, 120_000);

  test.prop([sharedGroup], fcOptions(60))('gives the same module as copying, or the same error, for modules sharing symbols', (group) => {
    const texts = group.map(sharedModuleText);
    expect(text(link(texts, true).result)).toBe(text(link(texts, false).result));
  }, 120_000);
});

describe('consuming the inputs', () => {
  type Options = Parameters<typeof linkModules>[1];
  const link = (texts: readonly string[], options: Options, pointers?: 'preserve-typed'): { inputs: Module[]; result: Module | IrError } => {
    const ctx = new Context();
    const inputs = texts.map((t, i) => parseModule(t, { filename: `m${i}.ll`, context: ctx, ...(pointers === undefined ? {} : { pointers }) }));
    try {
      return { inputs, result: linkModules(inputs, options) };
    } catch (e) {
      if (e instanceof IrError) return { inputs, result: e };
      throw e;
    }
  };
  const text = (r: Module | IrError): string => (r instanceof IrError ? `error: ${r.message}` : printModule(r));

  /** Links one module consumed, moved and copied: the same text, and the result is the input's own objects. */
  const checkOne = (source: string, pointers?: 'preserve-typed'): void => {
    const copied = text(link([source], {}, pointers).result);
    expect(text(link([source], { moveBodies: true }, pointers).result)).toBe(copied);
    const ctx = new Context();
    const input = parseModule(source, { filename: 'm0.ll', context: ctx, ...(pointers === undefined ? {} : { pointers }) });
    const before = new Map<string, { global: GlobalValue; instructions: Instruction[] }>();
    for (const g of input.globalValues()) before.set(g.name, { global: g, instructions: g.vk === 'function' ? [...g.instructions()] : [] });
    // what each instruction holds before: a link that reports unchanged bodies must leave it
    const held = (inst: Instruction): unknown[] => [inst.operands, inst.attachments, inst.type, inst instanceof CallInst ? inst.attributes : undefined];
    const heldBefore = new Map<Instruction, unknown[]>();
    for (const fn of input.functions) for (const inst of fn.instructions()) heldBefore.set(inst, held(inst));
    let facts: LinkFacts | undefined;
    const result = linkModules([input], { consumeInputs: true, onLinked: (f) => (facts = f) });
    expect(printModule(result)).toBe(copied);
    if (facts!.valuesUnchanged) {
      for (const fn of result.functions) {
        for (const inst of fn.instructions()) {
          const [operands, attachments] = heldBefore.get(inst)!;
          expect(inst.operands).toBe(operands);
          expect(inst.attachments).toBe(attachments);
        }
      }
    }
    if (facts!.bodiesUnchanged) {
      expect(facts!.valuesUnchanged).toBe(true);
      for (const fn of result.functions) for (const inst of fn.instructions()) expect(held(inst)).toEqual(heldBefore.get(inst));
    }
    expect(verifyModule(result)).toEqual([]);
    expect([...input.globalValues()]).toEqual([]);
    for (const g of result.globalValues()) {
      expect(g.parent).toBe(result);
      const own = before.get(g.name);
      // appending arrays are rebuilt (llvm-link makes a new one); everything else is taken over
      if (own === undefined || g.linkage === 'appending') continue;
      expect(g).toBe(own.global);
      if (g.vk !== 'function') continue;
      expect([...g.instructions()]).toEqual(own.instructions);
      for (const b of g.blocks) for (const inst of b.instructions) expect(inst.parent).toBe(b);
    }
  };

  test.prop([generatedModule()], fcOptions(100))('one generated module: the text copying gives, from the input’s own objects', (m) => {
    checkOne(moduleText(m));
  }, 120_000);

  test.prop([sharedModule()], fcOptions(100))('one module with every linkage, comdats, clashing struct types, llvm.used and ctors', (m) => {
    checkOne(sharedModuleText(m, 0));
  }, 120_000);

  test.prop([constantExprModule()], fcOptions(60))('one module of constant expressions over globals', (source) => {
    checkOne(source);
  }, 120_000);

  test.prop([typedModule()], fcOptions(40))('one typed-pointer module (recursive struct types are rebuilt in place)', (source) => {
    checkOne(source, 'preserve-typed');
  }, 120_000);

  test.prop([triple(true)], fcOptions(50))('modules calling each other: the text copying gives', (mods) => {
    const texts = mods.map(moduleText);
    const consumed = link(texts, { consumeInputs: true });
    expect(text(consumed.result)).toBe(text(link(texts, {}).result));
    for (const input of consumed.inputs) expect([...input.globalValues()]).toEqual([]);
  }, 120_000);

  test.prop([sharedGroup, fc.boolean()], fcOptions(60))('modules sharing symbols, with or without only-needed: the text copying gives, or the same error', (group, onlyNeeded) => {
    const texts = group.map(sharedModuleText);
    expect(text(link(texts, { consumeInputs: true, onlyNeeded }).result)).toBe(text(link(texts, { onlyNeeded }).result));
  }, 120_000);
});

/**
 * A module of functions and variables of every linkage that refer to each other from code
 * (calls, stored addresses), initializers, aliasees, comdat membership and (with `metadata`)
 * attachments and named metadata.
 */
function referencesModule(metadata: boolean): fc.Arbitrary<string> {
  const linkages = ['external', 'weak_odr', 'internal', 'linkonce_odr', 'available_externally', 'declare'] as const;
  const fnSpec = fc.record({
    linkage: fc.constantFrom(...linkages),
    calls: fc.array(fc.nat(7), { maxLength: 3 }),
    stores: fc.array(fc.nat(7), { maxLength: 2 }),
    loads: fc.array(fc.nat(3), { maxLength: 2 }),
    attachment: metadata ? fc.option(fc.nat(11), { nil: undefined }) : fc.constant(undefined),
    comdat: fc.boolean(),
  });
  const varSpec = fc.record({
    linkage: fc.constantFrom('external', 'internal', 'linkonce_odr', 'declare'),
    init: fc.option(fc.nat(7), { nil: undefined }),
    attachment: metadata ? fc.option(fc.nat(11), { nil: undefined }) : fc.constant(undefined),
  });
  return fc
    .record({
      fns: fc.array(fnSpec, { minLength: 8, maxLength: 8 }),
      vars: fc.array(varSpec, { minLength: 4, maxLength: 4 }),
      alias: fc.option(fc.record({ target: fc.nat(7), linkage: fc.constantFrom('external', 'internal') }), { nil: undefined }),
      named: metadata ? fc.array(fc.nat(11), { maxLength: 2 }) : fc.constant([] as number[]),
    })
    .map(({ fns, vars, alias, named }) => {
      // !0..!7 name functions, !8..!11 variables
      const target = (n: number): string => (n < 8 ? `@f${n}` : `@v${n - 8}`);
      const lines: string[] = [];
      const comdats = new Set<number>();
      fns.forEach((f, i) => {
        if (f.comdat && f.linkage !== 'declare' && f.linkage !== 'available_externally') comdats.add(i);
      });
      // linkonce members join the comdat of the first comdat function, so partners come together
      const leader = [...comdats][0];
      if (leader !== undefined) lines.push(`$c${leader} = comdat any`);
      vars.forEach((v, i) => {
        const decl = v.linkage === 'declare';
        const md = v.attachment === undefined ? '' : `, !ref !${v.attachment}`;
        lines.push(decl ? `@v${i} = external global ptr${md}` : `@v${i} = ${v.linkage === 'external' ? '' : `${v.linkage} `}global ptr ${v.init === undefined ? 'null' : `@f${v.init}`}${md}`);
      });
      if (alias !== undefined) lines.push(`@a = ${alias.linkage} alias void (), ptr @f${alias.target}`);
      fns.forEach((f, i) => {
        const md = f.attachment === undefined ? '' : ` !ref !${f.attachment}`;
        if (f.linkage === 'declare') {
          lines.push(`declare void @f${i}()`);
          return;
        }
        const comdat = comdats.has(i) && leader !== undefined ? ` comdat($c${leader})` : '';
        const body = [
          ...f.calls.map((c) => `  call void @f${c}()`),
          ...f.stores.map((s) => `  store ptr @f${s}, ptr %p`),
          ...f.loads.map((l) => `  %l${l}.${i} = load ptr, ptr @v${l}`),
          ...(alias !== undefined && i === 0 ? ['  call void @a()'] : []),
        ];
        const linkage = f.linkage === 'external' ? '' : `${f.linkage} `;
        lines.push(`define ${linkage}void @f${i}(ptr %p)${comdat}${md} {\n${[...new Set(body)].join('\n')}${body.length > 0 ? '\n' : ''}  ret void\n}`);
      });
      if (named.length > 0) lines.push(`!named = !{${named.map((n) => `!${n}`).join(', ')}}`);
      for (let n = 0; n < 12; n++) lines.push(`!${n} = !{ptr ${target(n)}}`);
      return lines.join('\n') + '\n';
    });
}

describe('what a link knows about its result', () => {
  /** Links one module (consumed or copied); when the link vouches that every global is used, eraseUnused erases nothing. */
  const check = (source: string, consumeInputs: boolean): LinkFacts | undefined => {
    const input = parseModule(source, { filename: 'm.ll', context: new Context() });
    let facts: LinkFacts | undefined;
    let result: Module;
    try {
      result = linkModules([input], { consumeInputs, onLinked: (f) => (facts = f) });
    } catch (e) {
      if (e instanceof IrError) return undefined;
      throw e;
    }
    expect(facts).toBeDefined();
    if (facts!.everyGlobalUsed) expect(eraseUnused(result).map((g) => g.name)).toEqual([]);
    return facts;
  };

  test.prop([referencesModule(true), fc.boolean()], fcOptions(200))('references from code, initializers, aliases, comdats and metadata', (source, consume) => {
    check(source, consume);
  }, 120_000);

  test.prop([referencesModule(false), fc.boolean()], fcOptions(100))('without metadata references, the link always vouches (and is right)', (source, consume) => {
    const facts = check(source, consume);
    if (facts !== undefined) expect(facts.everyGlobalUsed).toBe(true);
  }, 120_000);

  test.prop([generatedModule(), fc.boolean()], fcOptions(60))('generated modules', (m, consume) => {
    check(moduleText(m), consume);
  }, 120_000);

  test.prop([sharedModule(), fc.boolean()], fcOptions(60))('modules with every linkage, comdats, llvm.used and ctors', (m, consume) => {
    check(sharedModuleText(m, 0), consume);
  }, 120_000);

  test.prop([constantExprModule(), fc.boolean()], fcOptions(40))('modules of constant expressions over globals', (source, consume) => {
    check(source, consume);
  }, 120_000);

  test.prop([fc.tuple(generatedModule({ prefix: 'a' }), generatedModule({ prefix: 'b' }))], fcOptions(10))('two modules: unknown', ([a, b]) => {
    let facts: LinkFacts | undefined;
    const ctx = new Context();
    linkModules([a, b].map((m) => parseModule(moduleText(m), { filename: `${m.name}.ll`, context: ctx })), { onLinked: (f) => (facts = f) });
    expect(facts).toEqual({ everyGlobalUsed: false, bodiesUnchanged: false, valuesUnchanged: false });
  }, 120_000);
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
  }, 120_000);

  test.prop([sharedGroup, fc.boolean()], fcOptions(40))('modules sharing symbols, with or without --only-needed: the same output, or both fail', (group, onlyNeeded) => {
    const dir = mkdtempSync(join(tmpdir(), 'syclkit-link-'));
    try {
      const texts = group.map(sharedModuleText);
      const files = texts.map((t, i) => {
        const path = join(dir, `m${i}.ll`);
        writeFileSync(path, t, 'latin1');
        return path;
      });
      const r = runTool(llvmLink!, ['-S', ...(onlyNeeded ? ['--only-needed'] : []), ...files]);
      const result = linkShared(texts, files, onlyNeeded);
      if (r.status !== 0) expect(result).toBeInstanceOf(IrError);
      else if (result instanceof IrError) expect.fail(`llvm-link succeeded where we failed: ${result.message}`);
      else expect(printModule(result)).toBe(r.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

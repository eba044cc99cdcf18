/**
 * Properties of the split on generated DPC++-shaped modules (kernels, helpers with calls between
 * them, SYCL_EXTERNAL functions, module ids, aspects propagated to callers as the aspect pass
 * leaves them, required sizes, globals), in every split mode and both bundling policies:
 *
 * 1. every entry point lands in exactly one image, and every table lists every image once;
 * 2. the entry points of an image share one grouping key;
 * 3. an image is closed under its call graph: everything its definitions reference is in the
 *    image, and every function an entry point reaches in the input is defined in the image;
 * 4. the aspects of an image's requirements are the union over its entry points (aspects being
 *    propagated to callers), and with the design policy its entry points agree on them;
 * 5. the output files are byte-identical across runs;
 * 6. every image (a view sharing the input's globals, built with caches the split keeps from image
 *    to image) prints as its materialized copy does and as the same image built alone by a fresh
 *    split does, also with function attachments and named metadata that point at globals some
 *    images lack;
 * 7. groups come out in descending byte order of their keys (upstream's order), whatever the
 *    function names (non-ASCII and astral characters included).
 */
import { fc, test } from '@fast-check/vitest';
import { printModule, type GlobalValue, type IRFunction, type Module, type Value } from '@syclkit/ir';
import { describe, expect } from 'vitest';
import { entryPoints } from '@syclkit/sycl-conventions';
import { compareKeys, entryKey, groupEntryPoints, groupScope, type RequirementPolicy, type SplitMode } from './grouping.js';
import { computeImageRequirements } from './requirements.js';
import { planSplit, splitModule } from './split.js';
import { fcOptions } from '@syclkit/testing';
import { ir, runInMemory } from '../test/testing.js';

interface GenFunction {
  readonly kind: 'kernel' | 'external' | 'helper';
  readonly linkage: 'external' | 'internal' | 'linkonce_odr';
  readonly moduleId: number;
  readonly aspects: readonly number[];
  readonly calls: readonly number[];
  readonly usesGlobal: boolean;
  readonly subGroup: number | undefined;
  /** A function an attachment of this one points at (`!sycl_test_ref`), as an offset. */
  readonly mdRef: number | undefined;
}

const ASPECTS = [1, 5, 6, 9];

const genFunction: fc.Arbitrary<Omit<GenFunction, 'calls'> & { callSeeds: number[] }> = fc.record({
  kind: fc.constantFrom('kernel', 'kernel', 'external', 'helper', 'helper', 'helper') as fc.Arbitrary<GenFunction['kind']>,
  linkage: fc.constantFrom('external', 'internal', 'linkonce_odr') as fc.Arbitrary<GenFunction['linkage']>,
  moduleId: fc.integer({ min: 0, max: 2 }),
  aspects: fc.subarray(ASPECTS, { maxLength: 2 }),
  callSeeds: fc.array(fc.nat(), { maxLength: 3 }),
  usesGlobal: fc.boolean(),
  subGroup: fc.option(fc.constantFrom(8, 16, 32), { nil: undefined }),
  mdRef: fc.option(fc.nat(), { nil: undefined }),
});

/** A module: calls only go to later functions (no recursion), aspects propagated to callers. */
const genModule = fc.array(genFunction, { minLength: 1, maxLength: 9 }).map((raw) => {
  const fns: GenFunction[] = raw.map((f, i) => {
    const later = raw.length - i - 1;
    const calls = later === 0 ? [] : [...new Set(f.callSeeds.map((s) => i + 1 + (s % later)))];
    const { callSeeds: _, ...rest } = f;
    return { ...rest, calls };
  });
  // propagate aspects bottom-up, as sycl-propagate-aspects-usage leaves them
  const propagated = fns.map((f) => new Set(f.aspects));
  for (let i = fns.length - 1; i >= 0; i--) for (const c of fns[i]!.calls) for (const a of propagated[c]!) propagated[i]!.add(a);
  return fns.map((f, i) => ({ ...f, aspects: [...propagated[i]!].sort((a, b) => a - b) }));
});

function moduleText(fns: readonly GenFunction[]): string {
  const name = (i: number): string => (fns[i]!.kind === 'kernel' ? `kernel${i}` : `fn${i}`);
  const lines: string[] = ['@internal_gv = internal addrspace(1) global i32 0, align 4', '@external_gv = addrspace(1) global i32 0, align 4', ''];
  const md: string[] = [];
  fns.forEach((f, i) => {
    const kernel = f.kind === 'kernel';
    const linkage = kernel ? 'weak_odr ' : f.kind === 'external' ? '' : f.linkage === 'external' ? '' : `${f.linkage} `;
    const attrs = kernel || f.kind === 'external' ? ` #${f.moduleId}` : '';
    let meta = '';
    if (f.aspects.length > 0) {
      md.push(`!${md.length} = !{${f.aspects.map((a) => `i32 ${a}`).join(', ')}}`);
      meta += ` !sycl_used_aspects !${md.length - 1}`;
    }
    if (f.mdRef !== undefined) {
      md.push(`!${md.length} = !{ptr @${name(f.mdRef % fns.length)}, i32 ${i}}`);
      meta += ` !sycl_test_ref !${md.length - 1}`;
    }
    if (kernel && f.subGroup !== undefined) {
      md.push(`!${md.length} = !{i32 ${f.subGroup}}`);
      meta += ` !intel_reqd_sub_group_size !${md.length - 1}`;
    }
    lines.push(`define ${linkage}${kernel ? 'spir_kernel' : 'spir_func'} void @${name(i)}()${attrs}${meta} {`);
    for (const c of f.calls) lines.push(`  call spir_func void @${name(c)}()`);
    if (f.usesGlobal) lines.push('  store i32 1, ptr addrspace(1) @internal_gv, align 4');
    lines.push('  ret void', '}', '');
  });
  lines.push('declare spir_func void @undefined_builtin()', '');
  for (let id = 0; id < 3; id++) lines.push(`attributes #${id} = { "sycl-module-id"="tu${id}.cpp" }`);
  // Named metadata: one list pointing at globals (and at every function an attachment names), one not.
  const refs = fns.map((f, i) => (f.mdRef === undefined ? undefined : i)).filter((i) => i !== undefined);
  md.push(`!${md.length} = !{ptr addrspace(1) @internal_gv}`, `!${md.length + 1} = !{i32 1, i32 2}`);
  const named = [md.length - 2, ...refs.map((i) => md.findIndex((line) => line.endsWith(`i32 ${i}}`)))];
  lines.push(`!sycl_test_globals = !{${named.map((n) => `!${n}`).join(', ')}}`, `!sycl_test_plain = !{!${md.length - 1}}`);
  lines.push(...md);
  return lines.join('\n');
}

/** Globals referenced by a function body or initializer (through constant expressions). */
function references(v: Value, out: Set<GlobalValue>): void {
  switch (v.vk) {
    case 'function':
    case 'global':
    case 'alias':
      out.add(v);
      return;
    case 'expr':
      for (const op of v.operands) references(op, out);
      return;
    default:
      return;
  }
}

function reachable(fn: IRFunction): Set<string> {
  const seen = new Set<string>([fn.name]);
  const work = [fn];
  while (work.length > 0) {
    const f = work.pop()!;
    for (const inst of f.instructions()) {
      const callee = inst.operands[0];
      if (inst.opcode === 'call' && callee?.vk === 'function' && !callee.isDeclaration && !seen.has(callee.name)) {
        seen.add(callee.name);
        work.push(callee);
      }
    }
  }
  return seen;
}

function checkClosed(image: Module): void {
  const present = new Set<GlobalValue>([...image.globals, ...image.functions]);
  const names = new Set([...present].map((g) => g.name));
  for (const fn of image.functions) {
    const refs = new Set<GlobalValue>();
    for (const inst of fn.instructions()) for (const op of inst.operands) references(op, refs);
    for (const r of refs) expect(names.has(r.name), `${fn.name} references @${r.name}, which the image lacks`).toBe(true);
  }
}

const modes: readonly SplitMode[] = ['kernel', 'source', 'auto', 'none'];
const policies: readonly RequirementPolicy[] = ['upstream', 'design'];

describe('split properties', () => {
  test.prop([genModule, fc.constantFrom(...modes), fc.constantFrom(...policies)], fcOptions(150))(
    'entry points land in exactly one image, share a key there, and images are closed',
    (fns, mode, policy) => {
      const m = ir(moduleText(fns));
      const entries = entryPoints(m).map((f) => f.name);
      const scope = groupScope(mode, false);
      const seen = new Map<string, number>();
      for (const image of splitModule(m, { mode, policy })) {
        const names = image.entryPoints.map((f) => f.name);
        for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1);
        const keys = new Set(image.entryPoints.map((f) => entryKey(m, m.getFunction(f.name)!, scope, policy)));
        if (mode !== 'none' || policy === 'design') expect(keys.size).toBeLessThanOrEqual(1);
        checkClosed(image.module);
        for (const entry of image.entryPoints) {
          for (const needed of reachable(m.getFunction(entry.name)!)) {
            expect(image.module.getFunction(needed)?.isDeclaration, `${entry.name} needs ${needed}`).toBe(false);
          }
        }
        if (mode !== 'none' && image.entryPoints.length > 0) {
          const reqs = computeImageRequirements(image.module, image.entryPoints).aspects.map((a) => a.value);
          const union = new Set<number>();
          for (const e of image.entryPoints) for (const a of fns[Number(/\d+$/.exec(e.name)![0])]!.aspects) union.add(a);
          expect(reqs).toEqual([...union].sort((a, b) => a - b));
          if (policy === 'design') {
            const sets = new Set(image.entryPoints.map((e) => fns[Number(/\d+$/.exec(e.name)![0])]!.aspects.join(',')));
            expect(sets.size).toBeLessThanOrEqual(1);
          }
        }
      }
      expect([...seen.keys()].sort()).toEqual([...entries].sort());
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
    },
    120_000,
  );

  test.prop([genModule, fc.constantFrom(...modes), fc.constantFrom(...policies)], fcOptions(40))(
    'tables list every image once and runs give byte-identical files',
    async (fns, mode, policy) => {
      const text = moduleText(fns);
      const first = await runInMemory(ir(text), { mode, policy });
      const second = await runInMemory(ir(text), { mode, policy });
      expect([...first.files]).toEqual([...second.files]);
      const codes = first.result.tables[0]!.table.column('Code');
      expect(new Set(codes).size).toBe(codes.length);
      expect(first.result.images.map((i) => i.code)).toEqual(codes);
      const listed = first.result.images.flatMap((i) => i.entryPoints).sort();
      expect(listed).toEqual(entryPoints(ir(text)).map((f) => f.name).sort());
      // the input module prints the same before and after
      const m = ir(text);
      const before = printModule(m);
      await runInMemory(m, { mode, policy });
      expect(printModule(m)).toBe(before);
    },
    120_000,
  );

  test.prop([genModule, fc.constantFrom(...modes), fc.constantFrom(...policies)], fcOptions(60))(
    'images built one after another print as their copies and as the same image built alone',
    (fns, mode, policy) => {
      const m = ir(moduleText(fns));
      const plan = planSplit(m, { mode, policy });
      let id = 0;
      const texts: string[] = [];
      for (const image of plan.images()) {
        const text = printModule(image.module);
        texts.push(text);
        expect(printModule(image.materialize()), `image ${image.id}`).toBe(text);
        id = image.id;
      }
      for (let k = 0; k <= id; k++) {
        const alone = [...planSplit(ir(moduleText(fns)), { mode, policy }).images((i) => i === k)].map((image) => printModule(image.module));
        expect(alone.join('\n'), `image ${k}`).toBe(texts.filter((_, i) => i === k).join('\n'));
      }
    },
    120_000,
  );

  test.prop([fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'B', '_', '0', 'é', 'ÿ', 'Ā', '😀', '\uffff'), minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 })], fcOptions())(
    'groups come out in descending key order',
    (names) => {
      const m = ir(names.map((n, i) => `define weak_odr spir_kernel void @"${n}"() #0 {\n  ret void\n}\n; ${i}`).join('\n') + '\nattributes #0 = { "sycl-module-id"="a.cpp" }\n');
      const groups = groupEntryPoints(m, entryPoints(m), { mode: 'kernel', policy: 'upstream' });
      expect(groups.map((g) => g.entries[0]!.name).sort()).toEqual([...names].sort());
      for (let i = 1; i < groups.length; i++) expect(compareKeys(groups[i - 1]!.key, groups[i]!.key)).toBe(1);
    },
  );
});

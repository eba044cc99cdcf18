/**
 * Properties of the explanation facts on generated device modules (random call graphs with
 * cycles and self-calls; aspects from `double`, from a type listed in
 * `!sycl_types_that_use_aspects` and from a struct containing it, from instruction-level and
 * function-level `!sycl_used_aspects`, and from `!sycl_declared_aspects`):
 * 1. Agreement with the real pass: for every defined function, the aspects its facts reach over
 *    call edges are exactly the `!sycl_used_aspects` `sycl-propagate-aspects-usage` writes (the
 *    post-optimization run: nothing excluded) — the facts' uses come from aspect-propagation's
 *    directAspectUses, and their calls from the facts' own walk (linker-resolved).
 * 2. Explanations: for each kernel and aspect, `explainAspect` answers iff the kernel reaches the
 *    aspect; its chain starts at the kernel, every step is a call edge of the facts, it ends at a
 *    function whose own uses include the aspect, and it is a shortest such chain.
 * 3. Encoding: `decodeFacts(encodeFacts(f))` equals `f`, and encoding is deterministic.
 * 5. Shown uses: each function's uses are, per aspect, the first of its direct uses (declared,
 *    then function metadata, then signature and instructions in the pass's order), counting every
 *    use of the aspect, with the text every use's instruction has when all of them are printed
 *    (the facts print only the instructions they show).
 * 6. Image values: for programs of one or two translation units, random aspect tables and a
 *    sequence of random entry-point sets, `explainSource`'s value for each image (built from
 *    JSON reused across images) is byte for byte `encodeFacts(restrictFacts(facts, entries))`,
 *    and the slice lists its functions in program order.
 * 4. Slices' aspect tables: for random program tables (built-in pairs, aliases, renamed and
 *    custom aspects, repeated names) and random used aspects, explain's lookups (aspectNameOf for
 *    every value, aspectValueOf for every name) answer the same with the slice's table as with
 *    the whole table; a table of built-in pairs shrinks to the used aspects.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { formatType, parseModule, valueTexts, type Instruction, type Module } from '@syclkit/ir';
import { directAspectUses, propagateAspectsUsage } from '@syclkit/aspect-propagation';
import { fcOptions } from '@syclkit/testing';
import { builtinAspectTable } from '@syclkit/device-config';
import { FactsIndex, aspectTableFor, computeProgramFacts, decodeFacts, encodeFacts, explainAspect, explainSource, restrictFacts, type FunctionFacts, type ProgramFacts } from './facts.js';
import { aspectNameOf, aspectValueOf } from './explain.js';

type Use = 'double' | 'half' | 'wrapped-half' | 'atomic-md' | 'none';
interface GenFunction {
  readonly kernel: boolean;
  readonly uses: readonly Use[];
  readonly calls: readonly number[];
  readonly usesAspects?: number; // function-level !sycl_used_aspects (uses_aspects attribute)
  readonly declared?: number; // !sycl_declared_aspects
}

const functionArb = (n: number): fc.Arbitrary<GenFunction> =>
  fc.record(
    {
      kernel: fc.boolean(),
      uses: fc.array(fc.constantFrom<Use>('double', 'half', 'wrapped-half', 'atomic-md', 'none'), { maxLength: 3 }),
      calls: fc.array(fc.nat({ max: n - 1 }), { maxLength: 3 }),
      usesAspects: fc.constantFrom(12, 9),
      declared: fc.constantFrom(5, 28, 12),
    },
    { requiredKeys: ['kernel', 'uses', 'calls'] },
  );

const programArb = fc.integer({ min: 1, max: 7 }).chain((n) => fc.array(functionArb(n), { minLength: n, maxLength: n }));

function moduleText(fns: readonly GenFunction[]): string {
  const md: string[] = [];
  const node = (text: string): string => {
    md.push(text);
    return `!${md.length + 9}`;
  };
  const body = fns.map((f, i) => {
    const lines: string[] = [];
    f.uses.forEach((use, k) => {
      if (use === 'double') lines.push(`  %d${k} = fpext float 1.0 to double`);
      if (use === 'half') lines.push(`  %h${k} = alloca %"class.sycl::_V1::detail::half_impl::half", align 2`);
      if (use === 'wrapped-half') lines.push(`  %w${k} = alloca %struct.Wrap, align 2`);
      if (use === 'atomic-md') lines.push(`  %a${k} = call spir_func i64 @__spirv_AtomicIAdd(i64 1), !sycl_used_aspects ${node('!{i32 28}')}`);
    });
    for (const callee of f.calls) lines.push(`  call spir_func void @f${callee}()`);
    const attach = [
      ...(f.usesAspects === undefined ? [] : [`!sycl_used_aspects ${node(`!{i32 ${f.usesAspects}}`)}`]),
      ...(f.declared === undefined ? [] : [`!sycl_declared_aspects ${node(`!{i32 ${f.declared}}`)}`]),
    ].join(' ');
    const head = f.kernel ? `define weak_odr spir_kernel void @f${i}()` : `define internal spir_func void @f${i}()`;
    return `${head} ${attach} {\nentry:\n${lines.join('\n')}\n  ret void\n}\n`;
  });
  return `target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::detail::half_impl::half" = type { half }
%struct.Wrap = type { [2 x %"class.sycl::_V1::detail::half_impl::half"] }

${body.join('\n')}
declare spir_func i64 @__spirv_AtomicIAdd(i64)

!sycl_aspects = !{!0, !1, !2, !3, !4}
!sycl_types_that_use_aspects = !{!5}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
!2 = !{!"image", i32 9}
!3 = !{!"queue_profiling", i32 12}
!4 = !{!"atomic64", i32 28}
!5 = !{!"class.sycl::_V1::detail::half_impl::half", i32 5}
${md.map((text, i) => `!${i + 10} = ${text}`).join('\n')}
`;
}

/** Aspects a function reaches through plain calls, per the facts (a naive walk). */
function reached(index: FactsIndex, start: FunctionFacts): Set<number> {
  const out = new Set<number>();
  const seen = new Set<FunctionFacts>([start]);
  const stack = [start];
  while (stack.length > 0) {
    const f = stack.pop()!;
    for (const u of f.uses) out.add(u.aspect);
    for (const c of f.calls) {
      const g = index.resolve(c.callee, f);
      if (g !== undefined && !seen.has(g)) {
        seen.add(g);
        stack.push(g);
      }
    }
  }
  return out;
}

function usedMetadata(module: Module, name: string): number[] {
  const fn = module.getFunction(name)!;
  const kind = module.context.md.kinds.lookup('sycl_used_aspects');
  const node = fn.attachments.find((a) => a.kind === kind)?.node;
  if (node === undefined || node.mk !== 'tuple') return [];
  return node.operands.map((op) => (op !== null && op.mk === 'value' && op.value.vk === 'int' ? Number(op.value.big) : NaN));
}

function distances(index: FactsIndex, start: FunctionFacts): Map<FunctionFacts, number> {
  const d = new Map([[start, 0]]);
  const queue = [start];
  while (queue.length > 0) {
    const f = queue.shift()!;
    for (const c of f.calls) {
      const g = index.resolve(c.callee, f);
      if (g !== undefined && !d.has(g)) {
        d.set(g, d.get(f)! + 1);
        queue.push(g);
      }
    }
  }
  return d;
}

describe('explanation facts on generated modules', () => {
  test.prop([programArb], fcOptions())('reach exactly the aspects sycl-propagate-aspects-usage writes', (fns) => {
    const module = parseModule(moduleText(fns), { filename: 'gen.ll' });
    const facts = computeProgramFacts([{ file: 'gen.ll', module }]);
    propagateAspectsUsage(module, { validate: false });
    const index = new FactsIndex(facts);
    for (const f of facts.functions) {
      if (!f.definition) continue;
      expect([...reached(index, f)].sort((a, b) => a - b)).toEqual(usedMetadata(module, f.name).sort((a, b) => a - b));
    }
  }, 120_000);

  test.prop([programArb], fcOptions())('explain a kernel-aspect pair iff the kernel reaches the aspect, along a shortest valid chain', (fns) => {
    const module = parseModule(moduleText(fns), { filename: 'gen.ll' });
    const facts = computeProgramFacts([{ file: 'gen.ll', module }]);
    const index = new FactsIndex(facts);
    for (const kernel of index.kernels()) {
      const start = index.entry(kernel)!;
      const reach = reached(index, start);
      const dist = distances(index, start);
      for (const aspect of [5, 6, 9, 12, 28]) {
        const e = explainAspect(facts, kernel, aspect);
        expect(e !== undefined).toBe(reach.has(aspect));
        if (e === undefined) continue;
        let at = start;
        for (const step of e.chain) {
          expect(step.caller).toBe(at.name);
          expect(at.calls.some((c) => c.callee === step.callee)).toBe(true);
          at = index.resolve(step.callee, at)!;
        }
        expect(at.name).toBe(e.function);
        expect(at.uses.some((u) => u.aspect === aspect)).toBe(true);
        const best = Math.min(...[...dist].filter(([f]) => f.uses.some((u) => u.aspect === aspect)).map(([, d]) => d));
        expect(e.chain.length).toBe(best);
      }
    }
  }, 120_000);

  test.prop([programArb], fcOptions())('show the first use of each aspect, with every use counted and the text printing all uses gives', (fns) => {
    const module = parseModule(moduleText(fns), { filename: 'gen.ll' });
    const facts = computeProgramFacts([{ file: 'gen.ll', module }]);
    // the reference: every instruction use printed, then the first use of each aspect picked
    const direct = directAspectUses(module);
    const all = direct.flatMap(({ fn, uses }) => uses.flatMap((u) => (u.kind === 'instruction' || u.kind === 'instruction-metadata' ? [{ value: u.instruction as Instruction, fn }] : [])));
    const texts = new Map(valueTexts(module, all).map((t, i) => [all[i]!.value, t.trim().replace(/(?:, ![A-Za-z._$][\w.$-]* !\d+)+$/, '')]));
    const expected = direct.flatMap(({ fn, uses: found, declared }) => {
      const shown: { aspect: number; kind: string; text?: string; type?: string }[] = [];
      const counts = new Map<number, number>();
      const note = (aspect: number, use: { kind: string; text?: string; type?: string }): void => {
        counts.set(aspect, (counts.get(aspect) ?? 0) + 1);
        if (!shown.some((u) => u.aspect === aspect)) shown.push({ aspect, ...use });
      };
      for (const aspect of declared) note(aspect, { kind: 'declared' });
      for (const u of found) if (u.kind === 'function-metadata') note(u.aspect, { kind: u.kind });
      for (const u of found) {
        if (u.kind === 'signature') note(u.aspect, { kind: u.kind, type: formatType(u.type) });
        else if (u.kind === 'instruction') note(u.aspect, { kind: u.kind, text: texts.get(u.instruction)!, type: formatType(u.type) });
        else if (u.kind === 'instruction-metadata') note(u.aspect, { kind: u.kind, text: texts.get(u.instruction)! });
      }
      if (fn.isDeclaration && shown.length === 0) return [];
      return [{ name: fn.name, uses: shown.map((u) => ({ ...u, count: counts.get(u.aspect)! })) }];
    });
    const actual = facts.functions.map((f) => ({ name: f.name, uses: f.uses.map(({ aspect, kind, text, type, count }) => ({ aspect, kind, ...(text === undefined ? {} : { text }), ...(type === undefined ? {} : { type }), count })) }));
    expect(actual).toEqual(expected);
  }, 120_000);

  test.prop([programArb], fcOptions())('survive encoding into a property value unchanged, byte-identically each time', (fns) => {
    const module = parseModule(moduleText(fns), { filename: 'gen.ll' });
    const facts: ProgramFacts = computeProgramFacts([{ file: 'gen.ll', module }]);
    const value = encodeFacts(facts);
    expect(decodeFacts(value)).toEqual(JSON.parse(JSON.stringify(facts)));
    expect(encodeFacts(facts)).toEqual(value);
  }, 120_000);

  const builtinPairs = builtinAspectTable.definitions.map((d) => [d.name, d.value] as [string, number]);
  const pairArb = fc.oneof(
    fc.constantFrom(...builtinPairs),
    fc.tuple(fc.constantFrom(...builtinPairs.map(([name]) => name), 'my_aspect', 'other_aspect'), fc.integer({ min: -1, max: 70 })),
  );
  test.prop(
    [programArb, fc.option(programArb, { nil: undefined }), fc.option(fc.array(pairArb, { maxLength: 12 }), { nil: undefined }), fc.array(fc.array(fc.nat(12), { maxLength: 3 }), { minLength: 1, maxLength: 6 })],
    fcOptions(),
  )("give each image the bytes of its slice's encoding", (first, second, table, images) => {
    const units = [{ file: 'a.ll', module: parseModule(moduleText(first), { filename: 'a.ll' }) }];
    if (second !== undefined) units.push({ file: 'b.ll', module: parseModule(moduleText(second), { filename: 'b.ll' }) });
    const computed = computeProgramFacts(units);
    const facts: ProgramFacts = table === undefined ? computed : { ...computed, aspects: table };
    const names = [...new Set(facts.functions.map((f) => f.name)), 'missing'];
    const source = explainSource(facts);
    for (const picks of images) {
      const entries = picks.map((p) => names[p % names.length]!);
      const value = source.valueFor(entries);
      const slice = restrictFacts(facts, entries);
      expect(value).toEqual(encodeFacts(slice));
      // The slice keeps program order: its functions are a subsequence of the program's.
      const positions = slice.functions.map((f) => facts.functions.findIndex((g) => g.name === f.name && units[g.unit]!.file === slice.units[f.unit]));
      expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!))).toBe(true);
    }
  }, 120_000);

  test.prop([fc.array(pairArb, { maxLength: 12 }), fc.array(fc.integer({ min: -1, max: 70 }), { maxLength: 4 }), fc.boolean()], fcOptions())(
    'slices keep aspect lookups unchanged',
    (pairs, used, canonical) => {
      // canonical: the program's table is the built-in one (one entry per canonical name), as DPC++ writes it
      const table: [string, number][] = canonical ? builtinPairs.filter(([name, value]) => builtinAspectTable.nameOf(value) === name) : pairs;
      const fn: FunctionFacts = { name: 'k', unit: 0, kernel: true, definition: true, local: false, uses: used.map((aspect) => ({ aspect, kind: 'declared', count: 1 })), calls: [], conditionalCalls: [] };
      const whole = { aspects: table };
      const slice = { aspects: aspectTableFor(table, [fn]) };
      const values = [...new Set([...table.map(([, v]) => v), ...builtinPairs.map(([, v]) => v), ...used, -1, 71])];
      for (const v of values) expect(aspectNameOf(slice, v)).toBe(aspectNameOf(whole, v));
      for (const [name] of [...table, ...builtinPairs, ['my_aspect'], ['nope']]) expect(aspectValueOf(slice, name!)).toBe(aspectValueOf(whole, name!));
      if (canonical) expect(new Set(slice.aspects.map(([, v]) => v))).toEqual(new Set(table.map(([, v]) => v).filter((v) => used.includes(v))));
    },
  );
});

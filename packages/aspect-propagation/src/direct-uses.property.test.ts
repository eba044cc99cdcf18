/**
 * Properties of `directAspectUses` on generated modules (random call graphs with cycles and
 * self-calls; aspects from listed structs, a struct wrapping one, `double` in signatures,
 * arithmetic and conversions, globals used as operands, GEP source types, instruction and function
 * `!sycl_used_aspects`, `!sycl_declared_aspects`; with and without fp64 conversion emulation):
 * 1. Same walk as the pass: per function, inserting the aspects of the instruction and signature
 *    uses into an AspectSet gives exactly (order included) the direct set the pass's own walk
 *    computes; the function-metadata uses are its `!sycl_used_aspects` values and `declared` its
 *    `!sycl_declared_aspects`, in order; and reading leaves the module as it was.
 * 2. Every use is true: a signature use's type is the return type or its argument's type, an
 *    instruction use's type carries the aspect by the pass's type rules, an instruction-metadata
 *    use is in the instruction's own list, and an instruction has at most one use per aspect.
 * 3. Closure: the uses and declared aspects of everything a function reaches through its calls
 *    are exactly the aspects of the `!sycl_used_aspects` the pass writes (post-optimization run:
 *    nothing excluded).
 * 4. One walk for both (`walkModule`): its uses are `directAspectUses`' and its facts are
 *    `collectFunctionFacts`' (fp64 conversions not emulated), and it registers no metadata kind.
 * 5. The pass with the walk cached (the `aspect-function-facts` analysis computed before it, as
 *    syclkit compile's explanation facts do) writes the same module and reports the same
 *    diagnostics as the pass alone, in both runs, with and without fp64 conversion emulation.
 * 6. Carried over to the linked program (syclkit compile of one translation unit: the walk made
 *    before the pre-optimization run, then `!sycl_types_that_use_aspects` dropped, a single-unit
 *    link that merges the isomorphic %T0..%T4, the functions maybe in another order): `carryFacts` gives exactly the facts a walk of
 *    the linked module gives, and the post-optimization run with the walk provided writes the same
 *    module as without; with rules that could find more, or other functions, it gives up.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { linkModules, printModule, type Instruction, type Module } from '@syclkit/ir';
import { fcOptions } from '@syclkit/testing';
import { inspect, parse } from '../test/helpers.js';
import { AspectSet } from './aspect-set.js';
import { directAspectUses } from './direct-uses.js';
import { collectFunctionFacts } from './function-facts.js';
import { SyclMetadata, readAspectValues } from '@syclkit/sycl-conventions';
import { readModuleRules } from './module-rules.js';
import { propagateAspectsUsage } from './propagate.js';
import { moduleKind } from '@syclkit/ir';
import { AnalysisManager, createRegistry } from '@syclkit/pass-manager';
import { carryFacts, moduleWalkAnalysis, walkModule } from './module-walk.js';
import { syclPropagateAspectsUsage } from './pass.js';
import type { FunctionFacts } from './function-facts.js';

/** A function's facts with the IR objects they point at replaced by their positions. */
function factsShape(module: Module, f: FunctionFacts): unknown {
  const position = (inst: Instruction): number => [...f.fn.instructions()].indexOf(inst);
  return {
    ...f,
    fn: module.functions.indexOf(f.fn),
    direct: f.direct === undefined ? undefined : { values: f.direct.toArray(), large: f.direct.isLarge },
    calleeCalls: f.calleeCalls.map(position),
    conditionalCalls: f.conditionalCalls.map((c) => ({ ...c, instruction: position(c.instruction) })),
  };
}

const registry = createRegistry({ unitKinds: [moduleKind], passes: [syclPropagateAspectsUsage] });

/** %T0..%T4 and their listed aspects (fp64 is 6). */
const TYPE_ASPECTS: readonly (readonly number[])[] = [[1], [2], [3, 4], [-1], [28, 1]];
const MD_POOL = [7, 1, 6, -2, 9];

type Inst =
  | { readonly op: 'alloca' | 'load-global' | 'gep'; readonly type: number }
  | { readonly op: 'alloca-wrapped' | 'fpext' | 'fadd' }
  | { readonly op: 'metadata'; readonly values: readonly number[] }
  | { readonly op: 'call'; readonly callee: number };

interface GenFunction {
  readonly returnsDouble: boolean;
  /** Parameter types: indices into TYPE_ASPECTS, or -1 for double. */
  readonly params: readonly number[];
  readonly body: readonly Inst[];
  readonly usedMd: readonly number[] | undefined;
  readonly declaredMd: readonly number[] | undefined;
}

const typeIndex = fc.integer({ min: 0, max: TYPE_ASPECTS.length - 1 });
const instArb = (n: number): fc.Arbitrary<Inst> =>
  fc.oneof(
    fc.record({ op: fc.constantFrom('alloca' as const, 'load-global' as const, 'gep' as const), type: typeIndex }),
    fc.record({ op: fc.constantFrom('alloca-wrapped' as const, 'fpext' as const, 'fadd' as const) }),
    fc.record({ op: fc.constant('metadata' as const), values: fc.uniqueArray(fc.constantFrom(...MD_POOL), { minLength: 1, maxLength: 3 }) }),
    fc.record({ op: fc.constant('call' as const), callee: fc.nat({ max: n - 1 }) }),
  );

const genModule = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.array(
    fc.record({
      returnsDouble: fc.boolean(),
      params: fc.array(fc.integer({ min: -1, max: TYPE_ASPECTS.length - 1 }), { maxLength: 2 }),
      body: fc.array(instArb(n), { maxLength: 6 }),
      usedMd: fc.option(fc.uniqueArray(fc.constantFrom(...MD_POOL), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      declaredMd: fc.option(fc.uniqueArray(fc.constantFrom(11, 12, 3), { maxLength: 2 }), { nil: undefined, freq: 4 }),
    }),
    { minLength: n, maxLength: n },
  ),
);

const paramType = (p: number): string => (p < 0 ? 'double' : `%T${p}`);
const argText = (p: number): string => (p < 0 ? 'double 0.0' : `%T${p} zeroinitializer`);

function moduleText(fns: readonly GenFunction[]): string {
  const lines: string[] = TYPE_ASPECTS.map((_, i) => `%T${i} = type { i32 }`);
  lines.push('%W = type { [2 x %T0] }');
  TYPE_ASPECTS.forEach((_, i) => lines.push(`@g${i} = global %T${i} zeroinitializer`));
  const md: string[] = [];
  const node = (values: readonly number[]): string => {
    md.push(`!${100 + md.length} = !{${values.map((v) => `i32 ${v}`).join(', ')}}`);
    return `!${99 + md.length}`;
  };
  fns.forEach((f, i) => {
    const attachments = [
      ...(f.usedMd === undefined ? [] : [`!sycl_used_aspects ${node(f.usedMd)}`]),
      ...(f.declaredMd === undefined ? [] : [`!sycl_declared_aspects ${node(f.declaredMd)}`]),
    ].join(' ');
    lines.push(`define ${f.returnsDouble ? 'double' : 'void'} @f${i}(${f.params.map(paramType).join(', ')}) ${attachments} {`);
    f.body.forEach((inst, k) => {
      switch (inst.op) {
        case 'alloca':
          return lines.push(`  %v${k} = alloca %T${inst.type}`);
        case 'load-global':
          return lines.push(`  %v${k} = load i32, ptr @g${inst.type}`);
        case 'gep':
          return lines.push(`  %v${k} = getelementptr %T${inst.type}, ptr null, i64 1`);
        case 'alloca-wrapped':
          return lines.push(`  %v${k} = alloca %W`);
        case 'fpext':
          return lines.push(`  %v${k} = fpext float 1.0 to double`);
        case 'fadd':
          return lines.push(`  %v${k} = fadd double 1.0, 2.0`);
        case 'metadata':
          return lines.push(`  %v${k} = add i32 0, 1, !sycl_used_aspects ${node(inst.values)}`);
        case 'call': {
          const callee = fns[inst.callee]!;
          return lines.push(`  ${callee.returnsDouble ? `%v${k} = call double` : 'call void'} @f${inst.callee}(${callee.params.map(argText).join(', ')})`);
        }
      }
    });
    lines.push(f.returnsDouble ? '  ret double 0.0' : '  ret void', '}');
  });
  lines.push(`!sycl_types_that_use_aspects = !{${TYPE_ASPECTS.map((_, i) => `!${10 + i}`).join(', ')}}`);
  TYPE_ASPECTS.forEach((a, i) => lines.push(`!${10 + i} = !{!"T${i}", ${a.map((v) => `i32 ${v}`).join(', ')}}`));
  lines.push('!sycl_aspects = !{!1}', '!1 = !{!"fp64", i32 6}');
  return [...lines, ...md, ''].join('\n');
}

function reach(fns: readonly GenFunction[], start: number): Set<number> {
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length > 0) {
    for (const inst of fns[stack.pop()!]!.body) {
      if (inst.op !== 'call' || seen.has(inst.callee)) continue;
      seen.add(inst.callee);
      stack.push(inst.callee);
    }
  }
  return seen;
}

function instructionList(module: Module, inst: Instruction): number[] {
  const kind = module.context.md.kinds.lookup(SyclMetadata.usedAspects);
  const node = inst.attachments?.find((a) => a.kind === kind)?.node;
  return node === undefined ? [] : readAspectValues(node).values;
}

describe('directAspectUses properties', { timeout: 120_000 }, () => {
  test.prop([genModule, fc.boolean()], fcOptions(150))("walk as the pass walks, and leave the module as it was", (fns, fp64ConvEmu) => {
    const module = parse(moduleText(fns));
    const before = printModule(module);
    const uses = directAspectUses(module, { fp64ConvEmu });
    expect(printModule(module)).toBe(before);
    const { types, fp64 } = readModuleRules(module, []);
    const facts = collectFunctionFacts(module, { types, fp64, fp64ConvEmu });
    uses.forEach((f, i) => {
      expect(f.fn).toBe(facts[i]!.fn);
      const direct = new AspectSet(f.uses.filter((u) => u.kind !== 'function-metadata').map((u) => u.aspect));
      expect(direct.toArray()).toEqual(facts[i]!.direct?.toArray() ?? []);
      expect(f.uses.filter((u) => u.kind === 'function-metadata').map((u) => u.aspect)).toEqual(facts[i]!.usedMetadata ?? []);
      expect(f.declared).toEqual(facts[i]!.declaredMetadata ?? []);
    });
  });

  test.prop([genModule, fc.boolean()], fcOptions(150))('say where each aspect comes from, truly', (fns, fp64ConvEmu) => {
    const module = parse(moduleText(fns));
    const { types } = readModuleRules(module, []);
    for (const f of directAspectUses(module, { fp64ConvEmu })) {
      const seen = new Set<string>();
      for (const use of f.uses) {
        switch (use.kind) {
          case 'signature':
            expect(use.type).toBe(use.argument === undefined ? f.fn.returnType : use.argument.type);
            if (use.argument !== undefined) expect(f.fn.args).toContain(use.argument);
            expect(types.of(use.type)?.has(use.aspect)).toBe(true);
            break;
          case 'instruction':
          case 'instruction-metadata': {
            expect(use.instruction.parent?.parent).toBe(f.fn);
            if (use.kind === 'instruction') expect(types.of(use.type)?.has(use.aspect)).toBe(true);
            else expect(instructionList(module, use.instruction)).toContain(use.aspect);
            const key = `${[...f.fn.instructions()].indexOf(use.instruction)}:${use.aspect}`;
            expect(seen.has(key)).toBe(false);
            seen.add(key);
            break;
          }
          case 'function-metadata':
            break;
        }
      }
    }
  });

  test.prop([genModule, fc.boolean()], fcOptions(150))('closed over calls, give the !sycl_used_aspects the pass writes', (fns, fp64ConvEmu) => {
    const module = parse(moduleText(fns));
    const uses = directAspectUses(module, { fp64ConvEmu });
    propagateAspectsUsage(module, { validate: false, fp64ConvEmu });
    const written = inspect(module);
    fns.forEach((_, i) => {
      const expected = new Set<number>();
      for (const j of reach(fns, i)) for (const a of [...uses[j]!.uses.map((u) => u.aspect), ...uses[j]!.declared]) expected.add(a);
      const actual = written.used(`f${i}`);
      if (expected.size === 0) expect(actual).toBeUndefined();
      else expect(new Set(actual)).toEqual(expected);
    });
  });

  test.prop([genModule], fcOptions(150))('are walked once for the pass and for provenance alike', (fns) => {
    const module = parse(moduleText(fns));
    const before = printModule(module);
    const kinds = module.context.md.kinds.list();
    const walk = walkModule(module);
    expect(module.context.md.kinds.list()).toEqual(kinds);
    expect(printModule(module)).toBe(before);
    expect(walk.uses).toEqual(directAspectUses(module));
    const { types, fp64 } = readModuleRules(module, []);
    const facts = collectFunctionFacts(module, { types, fp64, fp64ConvEmu: false });
    expect(walk.facts.map((f) => factsShape(module, f))).toEqual(facts.map((f) => factsShape(module, f)));
  });

  test.prop([genModule, fc.constantFrom('sycl-propagate-aspects-usage<exclude-aspects=fp64>', 'sycl-propagate-aspects-usage<no-validate>'), fc.boolean()], fcOptions(150))(
    'are reused by the pass from the analysis cache without changing what it writes',
    (fns, pipeline, fp64ConvEmu) => {
      const text = fp64ConvEmu ? pipeline.replace('>', ';fp64-conv-emu>') : pipeline;
      const run = (cached: boolean) => {
        const module = parse(moduleText(fns));
        const analyses = new AnalysisManager();
        if (cached) analyses.getResult(moduleWalkAnalysis, module);
        const result = registry.build<Module>(registry.parse(text)).run(module, { file: 'test.ll', analyses });
        return { text: printModule(module), diagnostics: result.diagnostics };
      };
      expect(run(true)).toEqual(run(false));
    },
  );

  /** As syclkit compile does to one unit: walk, pre-optimization run, drop the type list, link alone. */
  function linkedAfterWalk(fns: readonly GenFunction[], reorder: boolean) {
    const module = parse(moduleText(fns));
    const analyses = new AnalysisManager();
    const walk = analyses.getResult(moduleWalkAnalysis, module);
    registry.build<Module>(registry.parse('sycl-propagate-aspects-usage<exclude-aspects=fp64>')).run(module, { file: 'test.ll', analyses });
    module.namedMetadata.delete(SyclMetadata.typesThatUseAspects);
    let valuesUnchanged = false;
    const linked = linkModules([module], { id: 'llvm-link', consumeInputs: true, onLinked: (facts) => (valuesUnchanged = facts.valuesUnchanged) });
    if (reorder) linked.functions.reverse();
    return { walk, linked, valuesUnchanged };
  }

  test.prop([genModule, fc.boolean()], fcOptions(150))('are carried over to the linked program unchanged', (fns, reorder) => {
    const { walk, linked, valuesUnchanged } = linkedAfterWalk(fns, reorder);
    // What syclkit compile asks before it carries the walk over: the link merged the isomorphic
    // %T0..%T4 in types only (a constant of a merged type, as a call argument, is a new operand).
    fc.pre(valuesUnchanged);
    const { types, fp64 } = readModuleRules(linked, []);
    const options = { types, fp64, fp64ConvEmu: false };
    const carried = carryFacts(walk, linked, options);
    expect(carried).toBeDefined();
    const fresh = collectFunctionFacts(linked, options);
    expect(carried!.map((f) => factsShape(linked, f))).toEqual(fresh.map((f) => factsShape(linked, f)));
    // Rules that find more than the walk's (a type list the walk did not have), or another
    // function list, and nothing is carried.
    expect(carryFacts(walk, linked, { ...options, types: readModuleRules(parse(moduleText(fns)), []).types })).toBeUndefined();
    expect(carryFacts(walk, linked, { ...options, fp64ConvEmu: true })).toBeUndefined();
    const extra = linked.functions.pop()!;
    expect(carryFacts(walk, linked, options)).toBeUndefined();
    linked.functions.push(extra);
  });

  test.prop([genModule, fc.boolean()], fcOptions(100))('provided for the linked program, change nothing the post-optimization run writes', (fns, reorder) => {
    const run = (provide: boolean) => {
      const { walk, linked, valuesUnchanged } = linkedAfterWalk(fns, reorder);
      fc.pre(valuesUnchanged);
      const analyses = new AnalysisManager();
      if (provide) analyses.provide(moduleWalkAnalysis, linked, walk);
      const result = registry.build<Module>(registry.parse('sycl-propagate-aspects-usage<no-validate>')).run(linked, { file: 'test.ll', analyses });
      return { text: printModule(linked), diagnostics: result.diagnostics };
    };
    expect(run(true)).toEqual(run(false));
  });
});

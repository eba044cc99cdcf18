/**
 * Properties of LLVM's verifier checks (`llvm-verifier.ts`), over random functions: blocks ending
 * in `ret`, `br`, conditional `br` or `switch` to random blocks, PHI nodes whose entries are the
 * block's predecessor edges or a random edit of them (sometimes with a value of another block),
 * uses of values defined in other blocks, and sometimes an instruction that uses itself, a PHI
 * node after another instruction, or a switch case of another type:
 * 1. PHI nodes listing exactly the predecessor edges (one value per block), with no other defect,
 *    give no failure; each defect alone gives a failure with its message. Dominance follows a
 *    naive reference (A dominates B when B is unreachable once A is removed).
 * 2. Checking each function as the parser finishes it gives the same report as checking the
 *    parsed module.
 * 3. When LLVM 16's opt is installed: it refuses exactly the modules with failures, and writes
 *    the same report (agreement with the reference implementation). One part is compared as a
 *    set: the two values after "PHI node has multiple entries...", which LLVM orders by their
 *    addresses in memory.
 * 4. Over random calls whose call-site attributes repeat (so the parser gives many calls one
 *    attribute list) with arguments of other types, to callees with and without `immarg`
 *    (`llvm.memset` among them), as intrinsic and plain calls: checking while parsing, which
 *    reuses what it found for a list, gives the report of the parsed module checked call by call.
 */
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { formatLLVMVerifierFailures, llvmVerifierFailures, verifyWhileParsing } from './llvm-verifier.js';
import { parseModule } from '../reader/parser.js';
import { llvmTool, runTool } from '../../test/llvm.js';

type Terminator = { kind: 'ret' } | { kind: 'br'; to: number } | { kind: 'condbr'; t: number; f: number } | { kind: 'switch'; def: number; cases: number[]; wideCase: boolean };
type PhiEdit =
  | { kind: 'none' }
  | { kind: 'drop'; at: number }
  | { kind: 'add'; block: number }
  | { kind: 'retarget'; at: number; block: number }
  | { kind: 'split-value'; at: number }
  | { kind: 'foreign-value'; at: number; block: number };

interface BlockPlan {
  readonly term: Terminator;
  readonly phis: readonly PhiEdit[];
  readonly selfUse: boolean;
  readonly lateInstructionBeforePhi: boolean;
  /** A use of the value `%d<N>` that block N defines (before this block's own). */
  readonly use: number | undefined;
}

/** True in about `tenths` out of ten draws. */
const sometimes = (tenths: number): fc.Arbitrary<boolean> =>
  fc.oneof({ weight: 10 - tenths, arbitrary: fc.constant(false) }, { weight: tenths, arbitrary: fc.constant(true) });

const blockPlan = (blocks: number): fc.Arbitrary<BlockPlan> => {
  const target = fc.integer({ min: 0, max: blocks - 1 });
  const term: fc.Arbitrary<Terminator> = fc.oneof(
    fc.constant({ kind: 'ret' as const }),
    target.map((to) => ({ kind: 'br' as const, to })),
    fc.tuple(target, target).map(([t, f]) => ({ kind: 'condbr' as const, t, f })),
    fc.tuple(target, fc.array(target, { minLength: 1, maxLength: 3 }), sometimes(3)).map(([def, cases, wideCase]) => ({ kind: 'switch' as const, def, cases, wideCase })),
  );
  const edit: fc.Arbitrary<PhiEdit> = fc.oneof(
    { weight: 6, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: fc.nat(4).map((at) => ({ kind: 'drop' as const, at })) },
    { weight: 1, arbitrary: target.map((block) => ({ kind: 'add' as const, block })) },
    { weight: 1, arbitrary: fc.tuple(fc.nat(4), target).map(([at, block]) => ({ kind: 'retarget' as const, at, block })) },
    { weight: 1, arbitrary: fc.nat(4).map((at) => ({ kind: 'split-value' as const, at })) },
    { weight: 1, arbitrary: fc.tuple(fc.nat(4), target).map(([at, block]) => ({ kind: 'foreign-value' as const, at, block })) },
  );
  return fc.record({
    term,
    phis: fc.array(edit, { maxLength: 2 }),
    selfUse: sometimes(2),
    lateInstructionBeforePhi: sometimes(1),
    use: fc.option(target, { nil: undefined, freq: 2 }),
  });
};

const functionPlan = fc.integer({ min: 1, max: 5 }).chain((n) => fc.array(blockPlan(n), { minLength: n, maxLength: n }));
const modulePlan = fc.array(functionPlan, { minLength: 1, maxLength: 3 });

const successors = (t: Terminator): number[] =>
  t.kind === 'ret' ? [] : t.kind === 'br' ? [t.to] : t.kind === 'condbr' ? [t.t, t.f] : [t.def, ...t.cases];

/** The predecessor edges of each block, in block order (the reference model). */
function predecessorEdges(plan: readonly BlockPlan[]): number[][] {
  const preds: number[][] = plan.map(() => []);
  plan.forEach((b, from) => {
    for (const to of successors(b.term)) preds[to]!.push(from);
  });
  return preds;
}

function terminatorText(t: Terminator): string {
  switch (t.kind) {
    case 'ret':
      return 'ret i32 0';
    case 'br':
      return `br label %b${t.to}`;
    case 'condbr':
      return `br i1 %c, label %b${t.t}, label %b${t.f}`;
    case 'switch':
      // distinct case values; the first case is i64 when asked (a type the verifier refuses)
      return `switch i32 %x, label %b${t.def} [ ${t.cases.map((c, i) => `${i === 0 && t.wideCase ? 'i64' : 'i32'} ${i + 1}, label %b${c}`).join(' ')} ]`;
  }
}

/** PHI entries: the predecessor edges, then the edit; values are the predecessor's number. */
function phiEntries(preds: readonly number[], edit: PhiEdit): [string, number][] {
  const entries: [string, number][] = preds.map((p) => [`${p}`, p]);
  switch (edit.kind) {
    case 'drop':
      if (entries.length > 1) entries.splice(edit.at % entries.length, 1);
      break;
    case 'add':
      entries.push([`${edit.block}`, edit.block]);
      break;
    case 'retarget':
      if (entries.length > 0) entries[edit.at % entries.length]![1] = edit.block;
      break;
    case 'split-value':
      if (entries.length > 0) entries[edit.at % entries.length]![0] = '99';
      break;
    case 'foreign-value':
      if (entries.length > 0) entries[edit.at % entries.length]![0] = `%d${edit.block}`;
      break;
  }
  return entries;
}

function moduleText(plan: readonly (readonly BlockPlan[])[]): string {
  return plan
    .map((blocks, f) => {
      const preds = predecessorEdges(blocks);
      const body = blocks.map((b, i) => {
        const lines = [`b${i}:`];
        if (b.lateInstructionBeforePhi && i > 0 && b.phis.length > 0) lines.push(`  %late${i} = add i32 1, 2`);
        // the entry block cannot hold PHI nodes in a valid module; give them only to the others
        if (i > 0) b.phis.forEach((edit, k) => {
          const entries = phiEntries(preds[i]!, edit);
          if (entries.length > 0) lines.push(`  %p${i}_${k} = phi i32 ${entries.map(([v, from]) => `[ ${v}, %b${from} ]`).join(', ')}`);
        });
        if (b.selfUse) lines.push(`  %s${i} = add i32 %s${i}, 1`);
        if (b.use !== undefined) lines.push(`  %u${i} = add i32 %d${b.use}, 1`);
        lines.push(`  %d${i} = add i32 1, 2`);
        lines.push(`  ${terminatorText(b.term)}`);
        return lines.join('\n');
      });
      return `define i32 @f${f}(i1 %c, i32 %x) {\n${body.join('\n')}\n}\n`;
    })
    .join('\n');
}

const report = (text: string): string => {
  const m = parseModule(text, { filename: 'p.ll' });
  return formatLLVMVerifierFailures(m, llvmVerifierFailures(m));
};

/** Whether the plan has a defect the checks must find (edits that leave the entries valid do not count). */
function hasDefect(plan: readonly (readonly BlockPlan[])[]): boolean {
  return plan.some((blocks) => {
    const preds = predecessorEdges(blocks);
    if (preds[0]!.length > 0) return true;
    const reachable = reachableFromEntry(blocks);
    const dominates = (a: number, b: number): boolean => !reachable.has(b) || (reachable.has(a) && (a === b || !reachableFromEntry(blocks, a).has(b)));
    return blocks.some((b, i) => {
      if (b.term.kind === 'switch' && b.term.wideCase) return true;
      if (b.selfUse && reachable.has(i)) return true;
      // the use comes before the block's own definition
      if (b.use !== undefined && reachable.has(i) && (b.use === i || !dominates(b.use, i))) return true;
      if (i === 0) return false;
      const foreignValues = b.phis.some((edit) => phiEntries(preds[i]!, edit).some(([v, from]) => v.startsWith('%d') && !dominates(Number(v.slice(2)), from)));
      if (foreignValues) return true;
      if (b.lateInstructionBeforePhi && b.phis.some((edit) => phiEntries(preds[i]!, edit).length > 0)) return true;
      return b.phis.some((edit) => {
        const entries = phiEntries(preds[i]!, edit);
        return entries.length > 0 && !sameEdges(entries, preds[i]!);
      });
    });
  });
}

function sameEdges(entries: readonly [string, number][], preds: readonly number[]): boolean {
  const a = entries.map(([, from]) => from).sort();
  const b = [...preds].sort();
  if (a.length !== b.length || a.some((x, i) => x !== b[i])) return false;
  const valueOf = new Map<number, string>();
  for (const [v, from] of entries) {
    if (valueOf.has(from) && valueOf.get(from) !== v) return false;
    valueOf.set(from, v);
  }
  return true;
}

/** Blocks reachable from the entry, not passing through `removed`. */
function reachableFromEntry(blocks: readonly BlockPlan[], removed?: number): Set<number> {
  const seen = new Set([0]);
  if (removed === 0) return new Set();
  const stack = [0];
  while (stack.length > 0) {
    for (const s of successors(blocks[stack.pop()!]!.term)) {
      if (seen.has(s) || s === removed) continue;
      seen.add(s);
      stack.push(s);
    }
  }
  return seen;
}

/** The report with the two values after each "multiple entries" failure sorted (see property 3). */
function unorderedValuePairs(report: string): string {
  const lines = report.split('\n');
  for (let i = 0; i + 4 < lines.length; i++) {
    if (!lines[i]!.startsWith('PHI node has multiple entries')) continue;
    const pair = [lines[i + 3]!, lines[i + 4]!].sort();
    lines.splice(i + 3, 2, ...pair);
  }
  return lines.join('\n');
}

describe('LLVM verifier checks on random control flow', () => {
  test.prop([modulePlan], fcOptions(300))('1: failures exactly when the plan has a defect', (plan) => {
    expect(report(moduleText(plan)) !== '').toBe(hasDefect(plan));
  });

  test.prop([modulePlan], fcOptions(200))('2: checking while parsing gives the report of the parsed module', (plan) => {
    const text = moduleText(plan);
    const verifier = verifyWhileParsing();
    const m = parseModule(text, { filename: 'p.ll', onFunction: verifier.onFunction });
    expect(formatLLVMVerifierFailures(m, verifier.failures(m))).toBe(report(text));
  });

  const opt16 = llvmTool('opt');
  // without LLVM 16 there is nothing to compare with (describe.skipIf: test.skipIf has no typed .prop)
  describe.skipIf(opt16 === undefined)('against LLVM 16 opt', () => {
      test.prop([fc.array(modulePlan, { minLength: 1, maxLength: 10 })], fcOptions(30))(
        '3: LLVM 16 opt refuses the same modules and writes the same report',
        (plans) => {
          for (const plan of plans) {
            const text = moduleText(plan);
            const ours = report(text);
            const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], text);
            const theirs = r.status === 0 ? '' : r.stderr.replace(`${opt16}: -: error: input module is broken!\n`, '');
            expect({ text, report: unorderedValuePairs(ours) }).toEqual({ text, report: unorderedValuePairs(theirs) });
          }
        },
        120_000,
      );
  });
});

const CALL_ATTRIBUTES = ['', '', 'noundef', 'zeroext', 'signext', 'immarg', 'nonnull', 'align 4', 'inreg', 'readonly', 'returned', 'preallocated(i32)', 'noundef zeroext'];
const ARGUMENT_TYPES = ['i32', 'ptr', 'float', 'i8', 'i1'] as const;
/** A value of each type: the function's argument (not a constant) or a constant. */
const VALUES: Record<(typeof ARGUMENT_TYPES)[number], readonly [string, string]> = {
  i32: ['%i', '7'],
  ptr: ['%p', 'null'],
  float: ['%f', '1.0'],
  i8: ['%c', '3'],
  i1: ['%b', 'false'],
};

interface ArgumentPlan {
  readonly type: (typeof ARGUMENT_TYPES)[number];
  /** Index into CALL_ATTRIBUTES. */
  readonly attr: number;
  readonly constant: boolean;
}
interface CallsPlan {
  /** Parameters of the declarations `@d1`, `@d2`... */
  readonly declarations: readonly (readonly ArgumentPlan[])[];
  /** Per function, its calls: callee 0 is `llvm.memset`, N `@dN`; with `sameTypes` the callee's own parameter types. */
  readonly functions: readonly (readonly { readonly callee: number; readonly args: readonly ArgumentPlan[]; readonly sameTypes: boolean }[])[];
}

const argumentPlan = fc.record({ type: fc.constantFrom(...ARGUMENT_TYPES), attr: fc.nat(CALL_ATTRIBUTES.length - 1), constant: fc.boolean() });
const callsPlan: fc.Arbitrary<CallsPlan> = fc.record({
  declarations: fc.array(fc.array(argumentPlan, { maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  functions: fc.array(fc.array(fc.record({ callee: fc.nat(3), args: fc.array(argumentPlan, { maxLength: 4 }), sameTypes: fc.boolean() }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
});

function callsModuleText(plan: CallsPlan): string {
  const lines = ['declare void @llvm.memset.p0.i64(ptr, i8, i64, i1 immarg)'];
  plan.declarations.forEach((params, d) => lines.push(`declare void @d${d + 1}(${params.map((a) => `${a.type} ${CALL_ATTRIBUTES[a.attr]}`).join(', ')})`));
  plan.functions.forEach((calls, f) => {
    lines.push(`define void @f${f}(i32 %i, ptr %p, float %f, i8 %c, i1 %b) {`);
    for (const call of calls) {
      const callee = call.callee % (plan.declarations.length + 1);
      let args: readonly ArgumentPlan[] = call.args;
      if (callee === 0) args = (['ptr', 'i8', 'i32', 'i1'] as const).map((type, k) => ({ type, attr: call.args[k]?.attr ?? 0, constant: call.args[k]?.constant ?? true }));
      else if (call.sameTypes) args = plan.declarations[callee - 1]!.map((a, k) => ({ type: a.type, attr: call.args[k]?.attr ?? 0, constant: call.args[k]?.constant ?? false }));
      const text = args.map((a) => `${callee === 0 && a.type === 'i32' ? 'i64' : a.type} ${CALL_ATTRIBUTES[a.attr]} ${a.type === 'i32' && callee === 0 ? (a.constant ? '8' : '%l') : VALUES[a.type][a.constant ? 1 : 0]}`);
      lines.push(`  call void ${callee === 0 ? '@llvm.memset.p0.i64' : `@d${callee}`}(${text.join(', ')})`);
    }
    lines.push('  ret void', '}');
  });
  // `%l`: an i64 that is not a constant
  return lines.join('\n').replaceAll('(i32 %i, ptr %p,', '(i64 %l, i32 %i, ptr %p,') + '\n';
}

describe('LLVM verifier checks on calls that share attribute lists', () => {
  test.prop([callsPlan], fcOptions(200))(
    '4: checking while parsing gives the report of the parsed module',
    (plan) => {
    const text = callsModuleText(plan);
    const verifier = verifyWhileParsing();
    let m;
    try {
      m = parseModule(text, { filename: 'c.ll', onFunction: verifier.onFunction });
    } catch {
      return; // an attribute the parser refuses where it stands
    }
    expect({ text, report: formatLLVMVerifierFailures(m, verifier.failures(m)) }).toEqual({ text, report: report(text) });
    },
    60_000,
  );
});

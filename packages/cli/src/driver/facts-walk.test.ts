/**
 * The explanation facts and the pre-optimization aspect pass share one walk of a translation unit
 * (`aspect-function-facts`, through the unit's analysis manager): the calls the facts take from
 * that walk are those a direct reading of the call instructions gives, and the pass takes the walk
 * only while nothing changed the unit (a conditional call rewritten by
 * sycl-conditional-call-on-device drops it).
 */
import { describe, expect, it } from 'vitest';
import { CallInst, parseModule, printModule, type IRFunction, type Module } from '@syclkit/ir';
import { moduleWalkAnalysis } from '@syclkit/aspect-propagation';
import { conditionalCallSite, conditionalCallerForm } from '@syclkit/device-if';
import { AnalysisManager, type AnalysisEvent } from '@syclkit/pass-manager';
import { passRegistry } from '../passes.js';
import { prepareProgram, translationUnitPipelineText, type CompileOptions } from './compile.js';
import { computeProgramFacts, computeUnitFacts } from './facts.js';

const CALLER = `define internal spir_func void @cc(ptr noundef byval(%class.anon) align 8 %fn, i32 noundef %0, i32 noundef %1) #0 {
entry:
  %fn.ascast = addrspacecast ptr %fn to ptr addrspace(4)
  call spir_func void @action(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %fn.ascast) #1
  ret void
}
define internal spir_func void @action(ptr addrspace(4) noundef align 8 %this) {
entry:
  %d = alloca double
  ret void
}
`;

/** A kernel with repeated calls, an intrinsic and (optionally) two conditional calls. */
function unit(conditional: boolean): string {
  const calls = conditional
    ? `  call spir_func void @cc(ptr noundef byval(%class.anon) align 8 %a, i32 noundef -1, i32 noundef 5) #1
  call spir_func void @cc(ptr noundef byval(%class.anon) align 8 %a, i32 noundef -1, i32 noundef %n) #1
`
    : '';
  return `target triple = "spir64-unknown-unknown"
%class.anon = type { ptr addrspace(4) }
%"class.sycl::_V1::detail::half_impl::half" = type { half }

define weak_odr spir_kernel void @k(i32 %n) {
entry:
  %a = alloca %class.anon, align 8
  call spir_func void @helper()
  call void @llvm.memset.p0.i64(ptr %a, i8 0, i64 8, i1 false)
${calls}  call spir_func void @other()
  call spir_func void @helper()
  ret void
}
define internal spir_func void @helper() {
entry:
  %h = alloca %"class.sycl::_V1::detail::half_impl::half"
  call spir_func void @other()
  ret void
}
define internal spir_func void @other() {
entry:
  %d = alloca double
  ret void
}
${conditional ? CALLER : ''}declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
attributes #0 = { convergent "sycl-call-if-on-device-conditionally"="true" }
attributes #1 = { convergent nounwind }

!sycl_aspects = !{!0, !1}
!sycl_types_that_use_aspects = !{!2}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
!2 = !{!"class.sycl::_V1::detail::half_impl::half", i32 5}
`;
}

/** The calls of a function read straight from its call instructions (what the facts held before sharing the walk). */
function directCalls(fn: IRFunction): { calls: string[]; conditional: { action: string; condition?: number[] }[] } {
  const calls: string[] = [];
  const conditional: { action: string; condition?: number[] }[] = [];
  for (const inst of fn.instructions()) {
    if (inst.opcode !== 'call' || !(inst instanceof CallInst)) continue;
    const callee = inst.calledFunction;
    if (callee === undefined || callee.isIntrinsic) continue;
    const form = conditionalCallerForm(callee);
    if (form !== undefined) {
      const site = conditionalCallSite(inst, callee, form);
      if (site.action === undefined) continue;
      const ints = site.conditionArgs.map((v) => (v.vk === 'int' ? Number(v.value) : undefined));
      conditional.push({ action: site.action.name, ...(ints.every((v) => v !== undefined) ? { condition: ints as number[] } : {}) });
    } else if (!calls.includes(callee.name)) calls.push(callee.name);
  }
  return { calls, conditional };
}

function runUnit(text: string, shareWalk: boolean): { module: Module; analyses: AnalysisManager; printed: string; diagnostics: unknown } {
  const module = parseModule(text, { filename: 'u.ll' });
  const analyses = new AnalysisManager();
  if (shareWalk) computeProgramFacts([{ file: 'u.ll', module, analyses }]);
  const result = passRegistry().build<Module>(translationUnitPipelineText('uid', [])).run(module, { file: 'u.ll', analyses });
  return { module, analyses, printed: printModule(module), diagnostics: result.diagnostics };
}

describe('the walk the explanation facts share with the aspect pass', () => {
  for (const conditional of [false, true]) {
    it(`gives each function the calls its call instructions make (${conditional ? 'with' : 'without'} conditional calls)`, () => {
      const module = parseModule(unit(conditional), { filename: 'u.ll' });
      const facts = computeUnitFacts(module, 0, new AnalysisManager());
      expect(facts).toEqual(computeUnitFacts(module, 0));
      for (const f of facts) {
        const expected = directCalls(module.getFunction(f.name)!);
        expect(f.calls.map((c) => c.callee)).toEqual(expected.calls);
        expect(f.conditionalCalls.map(({ action, condition }) => ({ action, ...(condition === undefined ? {} : { condition }) }))).toEqual(expected.conditional);
      }
      if (conditional) expect(facts.find((f) => f.name === 'k')!.conditionalCalls).toHaveLength(2);
    });
  }

  it('is taken by the aspect pass while sycl-conditional-call-on-device changes nothing', () => {
    const shared = runUnit(unit(false), true);
    expect(shared.printed).toBe(runUnit(unit(false), false).printed);
    expect(shared.diagnostics).toEqual(runUnit(unit(false), false).diagnostics);
    // Cached until the aspect pass wrote its metadata.
    const module = parseModule(unit(false), { filename: 'u.ll' });
    const analyses = new AnalysisManager();
    computeProgramFacts([{ file: 'u.ll', module, analyses }]);
    passRegistry().build<Module>('sycl-conditional-call-on-device<unique-prefix=uid>').run(module, { file: 'u.ll', analyses });
    expect(analyses.isCached(moduleWalkAnalysis, module)).toBe(true);
  });

  it('is dropped when sycl-conditional-call-on-device rewrites a conditional call, and the pass walks the new unit', () => {
    const module = parseModule(unit(true), { filename: 'u.ll' });
    const analyses = new AnalysisManager();
    computeProgramFacts([{ file: 'u.ll', module, analyses }]);
    passRegistry().build<Module>('sycl-conditional-call-on-device<unique-prefix=uid>').run(module, { file: 'u.ll', analyses });
    expect(analyses.isCached(moduleWalkAnalysis, module)).toBe(false);
    const shared = runUnit(unit(true), true);
    const alone = runUnit(unit(true), false);
    expect(shared.printed).toBe(alone.printed);
    expect(shared.diagnostics).toEqual(alone.diagnostics);
    expect(alone.printed).toContain('!sycl_used_aspects');
  });

  /** prepareProgram's linked program, and whether propagation run 2 had the unit's walk (it drops it once it wrote). */
  function prepared(units: CompileOptions['units'], options: Partial<CompileOptions> = {}) {
    const events: AnalysisEvent[] = [];
    const program = prepareProgram({ units, targets: 'spir64', instrumentations: [{ name: 'record', analysis: (e) => void events.push(e) }], ...options });
    const carried = events.some((e) => e.type === 'invalidate' && e.analysis === moduleWalkAnalysis.name && e.unit === program.linked);
    return { printed: printModule(program.linked!), carried, diagnostics: program.log };
  }

  it('goes on to propagation run 2 for a single unit, which then writes what its own walk gives', () => {
    const shared = prepared([{ file: 'u.ll', text: unit(false) }]);
    expect(shared.carried).toBe(true);
    // Without explanation facts there is no walk to carry: run 2 walks the linked program.
    const alone = prepared([{ file: 'u.ll', text: unit(false) }], { explainInfo: false });
    expect(alone.carried).toBe(false);
    expect(shared.printed).toBe(alone.printed);
    // fp64 (which run 1 leaves out) comes from @other's double, which only a walk under run 2's rules finds.
    expect(shared.printed).toMatch(/define internal spir_func void @other\(\) !sycl_used_aspects/);
  });

  it('does not go on when sycl-conditional-call-on-device changed the unit, or with several units', () => {
    expect(prepared([{ file: 'u.ll', text: unit(true) }]).carried).toBe(false);
    const second = 'target triple = "spir64-unknown-unknown"\ndefine spir_func void @ext() {\n  ret void\n}\n';
    expect(prepared([{ file: 'u.ll', text: unit(false) }, { file: 'v.ll', text: second }]).carried).toBe(false);
  });

  /** A unit with isomorphic structs the link merges (%struct.Q into %struct.P), and optionally a constant of the merged type. */
  function merging(constant: boolean): string {
    return `target triple = "spir64-unknown-unknown"
%struct.P = type { i32, double }
%struct.Q = type { i32, double }
define weak_odr spir_kernel void @k() {
entry:
  %a = alloca %struct.P
  %b = alloca %struct.Q
${constant ? '  store %struct.Q zeroinitializer, ptr %b\n' : ''}  call spir_func void @f(ptr %b)
  ret void
}
define internal spir_func void @f(ptr %x) {
entry:
  %c = alloca %struct.Q
  ret void
}
!sycl_aspects = !{!0}
!0 = !{!"fp64", i32 6}
`;
  }

  it('goes on when the link only merged isomorphic struct types, and not when it rewrote an operand', () => {
    const merged = prepared([{ file: 'u.ll', text: merging(false) }]);
    expect(merged.carried).toBe(true);
    expect(merged.printed).toBe(prepared([{ file: 'u.ll', text: merging(false) }], { explainInfo: false }).printed);
    expect(merged.printed).toMatch(/define internal spir_func void @f\(ptr %x\) !sycl_used_aspects/);
    expect(merged.printed).not.toContain('%struct.Q');
    // A constant of the merged type is a new operand: the walk no longer describes the body.
    const rewritten = prepared([{ file: 'u.ll', text: merging(true) }]);
    expect(rewritten.carried).toBe(false);
    expect(rewritten.printed).toBe(prepared([{ file: 'u.ll', text: merging(true) }], { explainInfo: false }).printed);
  });
});

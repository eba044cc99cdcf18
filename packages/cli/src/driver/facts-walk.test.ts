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
import { AnalysisManager } from '@syclkit/pass-manager';
import { passRegistry } from '../passes.js';
import { translationUnitPipelineText } from './compile.js';
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
});

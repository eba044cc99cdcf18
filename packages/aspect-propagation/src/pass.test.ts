import { describe, expect, it } from 'vitest';
import { functionKind, moduleKind, printModule, type Module } from '@syclkit/ir';
import { AnalysisManager, createRegistry, formatDiagnostics, verifyAnalysisInvalidation } from '@syclkit/pass-manager';
import { moduleWalkAnalysis } from './module-walk.js';
import { aspectsTable, inspect, parse } from '../test/helpers.js';
import { syclPropagateAspectsUsage } from './pass.js';

const registry = createRegistry({ unitKinds: [moduleKind, functionKind], passes: [syclPropagateAspectsUsage] });

const MODULE = `define spir_kernel void @k() {\n  call void @f()\n  ret void\n}
define void @f() !sycl_declared_aspects !1 {\n  %d = alloca double\n  ret void\n}
!1 = !{i32 5}
${aspectsTable()}`;

function run(pipeline: string, flags: [string, string | undefined][] = [], text = MODULE) {
  const module = parse(text);
  const result = registry.build<Module>(registry.parse(pipeline), { flags: registry.parseFlags(flags) }).run(module, {
    file: 'test.ll',
    instrumentations: [verifyAnalysisInvalidation()],
  });
  return { module, result, view: inspect(module) };
}

describe('sycl-propagate-aspects-usage in a pipeline', () => {
  it('is registered under intel/llvm\'s name and prints its options canonically', () => {
    expect(registry.print(registry.parse('sycl-propagate-aspects-usage'))).toBe(
      'sycl-propagate-aspects-usage<validate;exclude-aspects=;fixed-targets=;no-fp64-conv-emu;conditional-semantics=auto>',
    );
    expect(registry.print(registry.parse('sycl-propagate-aspects-usage<no-validate>'))).toContain('no-validate');
  });

  it("takes intel/llvm's hidden command-line flags and adds them to the pipeline options", () => {
    const { view } = run('sycl-propagate-aspects-usage<exclude-aspects=fp16>', [
      ['sycl-propagate-aspects-usage-exclude-aspects', 'fp64'],
      ['sycl-propagate-aspects-usage-fixed-targets', 'gpu,cpu'],
    ]);
    expect(view.used('f')).toEqual([5]); // fp64 excluded by the flag; the declared fp16 is kept
    expect(view.list('k', 'sycl_fixed_targets')).toEqual([2, 1]);
    const flags = registry.commandLineFlags().map((f) => f.name);
    expect(flags).toContain('sycl-propagate-aspects-usage-exclude-aspects');
    expect(flags).toContain('sycl-propagate-aspects-usage-fixed-targets');
  });

  it('reports its warnings through the pass manager, stamped with the pass name', () => {
    const { result } = run('sycl-propagate-aspects-usage');
    expect(result.diagnostics.map((d) => [d.pass, d.code, d.severity])).toEqual([['sycl-propagate-aspects-usage', 'sycl-aspect-mismatch', 'warning']]);
    expect(formatDiagnostics(result.diagnostics, { file: 'test.ll' })).toBe(
      "test.ll: in function 'f': warning: function 'f' uses aspect 'fp64' not listed in its 'sycl::device_has' attribute [-Wsycl-aspect-mismatch]\n" +
        "test.ll: in function 'f': note: function 'f' uses aspect 'fp64' here\n" +
        '1 warning generated.\n',
    );
  });

  it('warns nothing with <no-validate> (the post-optimization run)', () => {
    const { result, view } = run('sycl-propagate-aspects-usage<no-validate>');
    expect(result.diagnostics).toEqual([]);
    expect(view.used('f')).toEqual([6, 5]);
  });

  it('says it preserved nothing but the call graph when it changed metadata, and everything otherwise', () => {
    const changed = run('sycl-propagate-aspects-usage');
    expect(changed.result.preserved.toString()).toBe('call-graph');
    expect(changed.result.stopped).toBe(false);
    const again = registry.build<Module>(registry.parse('sycl-propagate-aspects-usage<no-validate>')).run(changed.module, {
      instrumentations: [verifyAnalysisInvalidation()],
    });
    expect(again.preserved.areAllPreserved()).toBe(true);
    expect(again.stopped).toBe(false);
  });

  it('lists itself and its codes for --print-passes and -W flags', () => {
    expect(registry.describe()).toContain('sycl-propagate-aspects-usage');
    expect([...registry.diagnosticCodes().keys()]).toContain('sycl-aspect-mismatch');
  });

  it('leaves a module without functions unchanged', () => {
    const { module, result } = run('sycl-propagate-aspects-usage', [], '');
    expect(result.preserved.areAllPreserved()).toBe(true);
    expect(printModule(module)).toBe(printModule(parse('')));
  });

  describe('with the aspect-function-facts analysis cached', () => {
    // The cache is made stale on purpose (an instruction removed behind the analysis manager's
    // back): what the pass writes then shows whether it took the cached walk or walked itself.
    function staleRun(pipeline: string) {
      const module = parse(MODULE);
      const analyses = new AnalysisManager();
      analyses.getResult(moduleWalkAnalysis, module);
      const block = module.getFunction('f')!.blocks[0]!;
      block.instructions.splice(block.instructions.findIndex((inst) => inst.opcode === 'alloca'), 1);
      registry.build<Module>(registry.parse(pipeline)).run(module, { file: 'test.ll', analyses });
      return { view: inspect(module), cached: analyses.isCached(moduleWalkAnalysis, module) };
    }

    it('takes the cached walk instead of walking again', () => {
      const { view, cached } = staleRun('sycl-propagate-aspects-usage<no-validate>');
      expect(view.used('f')).toEqual([6, 5]);
      // It wrote metadata, so the walk is stale for whatever runs next.
      expect(cached).toBe(false);
    });

    it('walks itself with fp64-conv-emu, which the cached walk does not do', () => {
      expect(staleRun('sycl-propagate-aspects-usage<no-validate;fp64-conv-emu>').view.used('f')).toEqual([5]);
    });
  });
});

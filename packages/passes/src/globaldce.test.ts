import { describe, expect, it } from 'vitest';
import { linkModules, parseModule, printModule, type Module } from '@syclkit/ir';
import { AnalysisManager, PreservedAnalyses } from '@syclkit/pass-manager';
import { builtinRegistry } from './registry.js';
import { noteNoUnusedGlobals, unusedGlobalsAnalysis } from './globaldce.js';

const text = `target triple = "spir64-unknown-unknown"

define weak_odr spir_kernel void @k() {
  call spir_func void @used()
  ret void
}

define dso_local spir_func void @external() {
  ret void
}

define internal spir_func void @used() {
  ret void
}

define linkonce_odr spir_func double @unused(double %x) {
  ret double %x
}

declare spir_func void @undeclared_use()
`;

describe('globaldce', () => {
  it('erases what kernels, external functions and @llvm.used do not reach, and keeps the rest', () => {
    const module = parseModule(text, { filename: 'g.ll' });
    const result = builtinRegistry().build('globaldce').run(module, { file: 'g.ll' });
    expect(result.diagnostics).toEqual([]);
    expect(module.functions.map((f) => f.name)).toEqual(['k', 'external', 'used']);
  });

  it('changes nothing on a module without dead code', () => {
    const module = parseModule(text, { filename: 'g.ll' });
    builtinRegistry().build('globaldce').run(module);
    const before = printModule(module);
    builtinRegistry().build('globaldce').run(module);
    expect(printModule(module)).toBe(before);
  });
});

describe('globaldce with what the linker knows', () => {
  const linkedText = `define weak_odr spir_kernel void @k() !ref !0 {
  call spir_func void @used()
  ret void
}

define internal spir_func void @used() {
  ret void
}

define internal spir_func void @only_in_metadata() {
  ret void
}

!0 = !{ptr @only_in_metadata}
`;
  const link = (): { module: Module; everyGlobalUsed: boolean } => {
    let everyGlobalUsed: boolean | undefined;
    const module = linkModules([parseModule(linkedText, { filename: 'l.ll' })], { consumeInputs: true, onLinked: (f) => (everyGlobalUsed = f.everyGlobalUsed) });
    return { module, everyGlobalUsed: everyGlobalUsed! };
  };

  it('erases a global only metadata refers to: the link does not vouch for it', () => {
    const { module, everyGlobalUsed } = link();
    expect(everyGlobalUsed).toBe(false);
    const analyses = new AnalysisManager();
    builtinRegistry().build('globaldce').run(module, { analyses });
    expect(module.functions.map((f) => f.name)).toEqual(['k', 'used']);
  });

  it('takes a recorded "nothing unused" without walking, until a pass changes the module', () => {
    // recorded for a module that does have an unused global: globaldce believes the record
    const module = parseModule(text, { filename: 'g.ll' });
    const analyses = new AnalysisManager();
    noteNoUnusedGlobals(analyses, module);
    expect(analyses.getCachedResult(unusedGlobalsAnalysis, module)).toEqual([]);
    builtinRegistry().build('globaldce').run(module, { analyses });
    expect(module.functions).toHaveLength(5);
    // once dropped (a pass that preserves nothing), the real answer is computed again
    analyses.invalidate(module, PreservedAnalyses.none());
    builtinRegistry().build('globaldce').run(module, { analyses });
    expect(module.functions.map((f) => f.name)).toEqual(['k', 'external', 'used']);
    // computed for real, the analysis lists what globaldce erases
    const again = parseModule(text, { filename: 'g.ll' });
    expect(analyses.getResult(unusedGlobalsAnalysis, again).map((g) => g.name)).toEqual(['unused', 'undeclared_use']);
  });
});

/**
 * `globaldce`: LLVM's GlobalDCE over device code, the default middle of `syclkit compile`'s
 * pipeline. Roots are what `@syclkit/ir`'s `eraseUnused` takes as roots (definitions that are not
 * discardable if unused: kernels are `weak_odr`, SYCL_EXTERNAL functions external, plus
 * `@llvm.used`); everything they do not reach — internal helpers no kernel calls, unused
 * `linkonce_odr` template instances and declarations — is erased.
 */
import { eraseUnused, moduleKind, unusedGlobals, type GlobalValue, type Module } from '@syclkit/ir';
import { defineAnalysis, definePass, PreservedAnalyses, type AnalysisManager } from '@syclkit/pass-manager';

const NONE: readonly GlobalValue[] = Object.freeze([]);

/**
 * `unused-globals`: what `globaldce` would erase (`unusedGlobals`). The pass only takes a cached
 * result, which the driver records when the linker knows it (see {@link noteNoUnusedGlobals});
 * any pass that changes the module drops it.
 */
export const unusedGlobalsAnalysis = defineAnalysis({
  name: 'unused-globals',
  unit: moduleKind,
  summary: 'The globals and functions nothing live refers to (what globaldce erases).',
  run: (module: Module): readonly GlobalValue[] => unusedGlobals(module),
});

/**
 * Records in `analyses` that `module` has no unused global, without walking it: for a module just
 * linked whose linker said so (`LinkFacts.everyGlobalUsed`). `globaldce` then has nothing to do
 * while no pass has changed the module.
 */
export function noteNoUnusedGlobals(analyses: AnalysisManager, module: Module): void {
  analyses.provide(unusedGlobalsAnalysis, module, NONE);
}

export const globalDcePass = definePass({
  name: 'globaldce',
  unit: moduleKind,
  summary: 'Erases globals and functions nothing live refers to (LLVM GlobalDCE): roots are kernels, SYCL_EXTERNAL functions and @llvm.used.',
  preserves: 'none',
  create: () => (module: Module, ctx) => {
    if (ctx.analyses.getCachedResult(unusedGlobalsAnalysis, module)?.length === 0) return PreservedAnalyses.all();
    return eraseUnused(module).length === 0 ? PreservedAnalyses.all() : PreservedAnalyses.none();
  },
});

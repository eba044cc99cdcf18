/**
 * `globaldce`: LLVM's GlobalDCE over device code, the default middle of `syclkit compile`'s
 * pipeline. Roots are what `@syclkit/ir`'s `eraseUnused` takes as roots (definitions that are not
 * discardable if unused: kernels are `weak_odr`, SYCL_EXTERNAL functions external, plus
 * `@llvm.used`); everything they do not reach — internal helpers no kernel calls, unused
 * `linkonce_odr` template instances and declarations — is erased.
 */
import { eraseUnused, moduleKind, type Module } from '@syclkit/ir';
import { definePass, PreservedAnalyses } from '@syclkit/pass-manager';

export const globalDcePass = definePass({
  name: 'globaldce',
  unit: moduleKind,
  summary: 'Erases globals and functions nothing live refers to (LLVM GlobalDCE): roots are kernels, SYCL_EXTERNAL functions and @llvm.used.',
  preserves: 'none',
  create: () => (module: Module) => (eraseUnused(module).length === 0 ? PreservedAnalyses.all() : PreservedAnalyses.none()),
});

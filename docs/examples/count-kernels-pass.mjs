// A pass written outside syclkit: load it with
//   syclkit compile ... --load-pass docs/examples/count-kernels-pass.mjs '-passes=globaldce,count-kernels<list>'
// It reports, as a remark, how many kernels the module defines (with `list`, which ones).
import { definePass, option, PreservedAnalyses } from '@syclkit/pass-manager';
import { moduleKind } from '@syclkit/ir';

export const countKernels = definePass({
  name: 'count-kernels', // what -passes= calls it (kebab-case)
  unit: moduleKind, // runs once over the whole module
  summary: 'Reports how many kernels the module defines (and, with list, their names).',
  options: {
    list: option.boolean({ doc: 'Also list the kernel names' }), // count-kernels<list>
  },
  preserves: 'all', // it only reads the module
  diagnostics: {
    'kernel-count': { severity: 'remark', summary: 'How many kernels the module defines.' },
  },
  create: (options) => (module, ctx) => {
    const kernels = module.functions.filter((fn) => !fn.isDeclaration && fn.callingConv === 'spir_kernel');
    const names = options.list ? `: ${kernels.map((fn) => fn.name).join(', ')}` : '';
    // Passes never print: they report, and the driver renders (clang style, JSON, -Werror...).
    ctx.report({ code: 'kernel-count', message: `${module.id} defines ${kernels.length} kernels${names}` });
    return PreservedAnalyses.all();
  },
});

// Use the pass of count-kernels-pass.mjs from code: extend a registry with it, name it in
// pipeline text with an option, run, and render what it reported. Run: node docs/examples/use-own-pass.mjs
import { functionKind, moduleKind, parseModule } from '@syclkit/ir';
import { createRegistry, formatDiagnostics } from '@syclkit/pass-manager';
import { countKernels } from './count-kernels-pass.mjs';

const module = parseModule(
  `define spir_kernel void @_ZTS1A() {\n  ret void\n}\n\ndefine spir_kernel void @_ZTS1B() {\n  ret void\n}\n`,
  { filename: 'two.ll' },
);
const registry = createRegistry({ unitKinds: [moduleKind, functionKind] }).extend({ passes: [countKernels] });
console.log(registry.describe().split('\n').filter((line) => line.includes('count-kernels')).join('\n'));
const result = registry.build('count-kernels<list>').run(module, { file: 'two.ll' });
process.stdout.write(formatDiagnostics(result.diagnostics));

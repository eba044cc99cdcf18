import { describe, expect, it } from 'vitest';
import { generateModule } from './generator.js';
import type { GeneratorOptions } from './options.js';
import { haveTool, llvm16, runTool } from './testing.js';

const configurations: (Partial<GeneratorOptions> & { name: string })[] = [
  { name: 'defaults', seed: 1 },
  { name: 'many TUs, few functions (inlined kernels)', seed: 2, kernels: 12, tus: 6, functions: 14 },
  { name: 'deep call trees', seed: 3, kernels: 4, tus: 2, functions: 300, segments: 4 },
  { name: 'debug info', seed: 4, kernels: 6, tus: 3, functions: 60, debugInfo: true },
  { name: 'typed pointers', seed: 5, kernels: 6, tus: 3, functions: 60, pointers: 'typed' },
  { name: 'typed pointers with debug info', seed: 6, kernels: 5, tus: 2, functions: 50, pointers: 'typed', debugInfo: true },
  { name: 'no kernels (SYCL_EXTERNAL library)', seed: 7, kernels: 0, tus: 2, functions: 40 },
];

describe.skipIf(!haveTool(llvm16.opt))(`LLVM 16 accepts generated modules (skipped: ${llvm16.opt} not installed)`, () => {
  for (const { name, ...options } of configurations) {
    it(`opt -S accepts: ${name}`, () => {
      const r = runTool(llvm16.opt, ['-S', '-o', '/dev/null'], generateModule(options).text);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    });

    it.skipIf(!haveTool(llvm16.as))(`llvm-as accepts: ${name}`, () => {
      const r = runTool(llvm16.as, ['-o', '/dev/null'], generateModule(options).text);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    });

    if (options.pointers === 'typed') {
      // With typed pointers kept (not upgraded to opaque), every load/store/GEP/call type must match.
      it(`opt -opaque-pointers=0 -S accepts: ${name}`, () => {
        const r = runTool(llvm16.opt, ['-opaque-pointers=0', '-S', '-o', '/dev/null'], generateModule(options).text);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
      });
    }
  }

  it('opt rejects a module with a deliberately broken call (the check can fail)', () => {
    const text = generateModule({ kernels: 2, tus: 1, functions: 6 }).text.replace(/call spir_func void @_ZZZ/, 'call spir_func void @_ZZZmissing');
    expect(runTool(llvm16.opt, ['-S', '-o', '/dev/null'], text).status).not.toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { parseModule, printModule } from '@syclkit/ir';
import { builtinRegistry } from './registry.js';

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

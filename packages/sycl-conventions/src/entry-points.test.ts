import { describe, expect, it } from 'vitest';
import { Context, parseModule } from '@syclkit/ir';
import { entryPoints, isEntryPoint, isEsimdBuiltin, isEsimdFunction, isGenericBuiltin, isKernel, isSpirvSyclBuiltin, isSyclExternal } from './entry-points.js';

const parse = (text: string) => parseModule(text, { filename: 'test.ll', context: new Context() });

describe('builtins', () => {
  it('recognizes SPIR-V and SYCL builtins by their mangled prefix', () => {
    expect(isSpirvSyclBuiltin('_Z28__spirv_GlobalInvocationId_xv')).toBe(true);
    expect(isSpirvSyclBuiltin('_Z20__sycl_getScalarSpecConstantValue')).toBe(true);
    expect(isSpirvSyclBuiltin('_Z__spirv_x')).toBe(true);
    expect(isSpirvSyclBuiltin('__spirv_x')).toBe(false);
    expect(isSpirvSyclBuiltin('_Z3foov')).toBe(false);
  });

  it('recognizes ESIMD builtins by their mangled prefix and generic builtins by __builtin_', () => {
    expect(isEsimdBuiltin('_Z14__esimd_rdregionv')).toBe(true);
    expect(isEsimdBuiltin('__esimd_rdregion')).toBe(false);
    expect(isGenericBuiltin('__builtin_expect')).toBe(true);
    expect(isGenericBuiltin('_Z__builtin_expect')).toBe(false);
  });
});

describe('entry points', () => {
  const m = parse(`define spir_kernel void @k() {
  ret void
}
declare spir_kernel void @kdecl()
define amdgpu_kernel void @amd() {
  ret void
}
define ptx_kernel void @ptx() {
  ret void
}
define void @ext() #0 {
  ret void
}
define void @_Z16__spirv_Builtinv() #0 {
  ret void
}
define void @_Z14__esimd_intrinv() #0 {
  ret void
}
define void @__builtin_thing() #0 {
  ret void
}
define void @virt() #1 {
  ret void
}
define void @plain() !sycl_explicit_simd !0 {
  ret void
}
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "indirectly-callable"="set" }
!0 = !{}
`);
  const names = (options?: Parameters<typeof entryPoints>[1]) => entryPoints(m, options).map((f) => f.name);

  it('takes kernel definitions of every kernel calling convention and SYCL_EXTERNAL definitions that are not builtins', () => {
    expect(names()).toEqual(['k', 'amd', 'ptx', 'ext']);
    expect(isKernel(m.getFunction('kdecl')!)).toBe(true);
    expect(isEntryPoint(m.getFunction('kdecl')!)).toBe(false);
    expect(isSyclExternal(m.getFunction('_Z16__spirv_Builtinv')!)).toBe(true);
  });

  it('takes only kernels and indirectly-callable functions with emitOnlyKernelsAsEntryPoints', () => {
    expect(names({ emitOnlyKernelsAsEntryPoints: true })).toEqual(['k', 'amd', 'ptx', 'virt']);
  });

  it('knows ESIMD functions by !sycl_explicit_simd', () => {
    expect(isEsimdFunction(m, m.getFunction('plain')!)).toBe(true);
    expect(isEsimdFunction(m, m.getFunction('k')!)).toBe(false);
  });
});

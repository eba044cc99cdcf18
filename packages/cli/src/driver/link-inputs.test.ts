import { describe, expect, it } from 'vitest';
import { parseModule } from '@syclkit/ir';
import { deviceBundleId } from './link.js';
import { deviceSymbols, sameTriple } from './link-inputs.js';

const MODULE = `target triple = "spir64-unknown-unknown"

@table = addrspace(2) constant [2 x i32] [i32 1, i32 2]
@counter = addrspace(1) global i32 0
@local = internal addrspace(1) global i32 0
@extern_var = external addrspace(1) global i32
@__spirv_BuiltInGlobalInvocationId = external addrspace(1) constant <3 x i64>

declare spir_func float @_Z7tonemapf(float)
declare spir_func i64 @_Z28__spirv_GlobalInvocationId_xv()
declare float @llvm.fabs.f32(float)

define weak_odr spir_kernel void @_ZTS1K(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p, align 4
  %t = call spir_func float @_Z7tonemapf(float %v)
  %a = call float @llvm.fabs.f32(float %t)
  %i = call spir_func i64 @_Z28__spirv_GlobalInvocationId_xv()
  %e = load i32, ptr addrspace(4) addrspacecast (ptr addrspace(1) @extern_var to ptr addrspace(4)), align 4
  store float %a, ptr addrspace(1) %p, align 4
  ret void
}

define spir_func void @_Z6helperv() {
  ret void
}
`;

describe('device symbols of a unit', () => {
  const symbols = deviceSymbols(parseModule(MODULE, { filename: 'u.ll' }));

  it('defines its non-local functions and variables; kernels are the spir_kernel ones', () => {
    expect(symbols.defines).toEqual(['_ZTS1K', '_Z6helperv', 'table', 'counter']);
    expect(symbols.kernels).toEqual(['_ZTS1K']);
  });

  it('lists for .tgtsym what intel/llvm does: no constant-address-space variables', () => {
    expect(symbols.listed).toEqual(['_ZTS1K', '_Z6helperv', 'counter']);
  });

  it('needs the functions and variables it uses without defining, not builtins or intrinsics, with their user', () => {
    expect([...symbols.needs]).toEqual([
      ['_Z7tonemapf', '_ZTS1K'],
      ['extern_var', '_ZTS1K'],
    ]);
  });

  it('names the bundle after the target triple', () => {
    expect(deviceBundleId(MODULE, 'u.ll')).toBe('sycl-spir64-unknown-unknown');
    expect(() => deviceBundleId('define void @f() {\n  ret void\n}\n', 'u.ll')).toThrow(/no 'target triple'/);
  });
});

describe('host triples', () => {
  it('agree when arch, vendor and OS agree, with the vendor optional for Linux', () => {
    expect(sameTriple('x86_64-unknown-linux-gnu', 'x86_64-linux-gnu')).toBe(true);
    expect(sameTriple('x86_64-unknown-linux-gnu', 'x86_64-unknown-freebsd')).toBe(false);
    expect(sameTriple('aarch64-unknown-linux-gnu', 'x86_64-unknown-linux-gnu')).toBe(false);
  });
});

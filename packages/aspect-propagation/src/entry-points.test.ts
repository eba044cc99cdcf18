import { describe, expect, it } from 'vitest';
import { parse } from '../test/helpers.js';
import { isEntryPoint, isSpirvSyclBuiltin } from './entry-points.js';

describe('entry points', () => {
  it('recognizes SPIR-V and SYCL builtins by their mangled prefix', () => {
    expect(isSpirvSyclBuiltin('_Z28__spirv_GlobalInvocationId_xv')).toBe(true);
    expect(isSpirvSyclBuiltin('_Z20__sycl_getScalarSpecConstantValue')).toBe(true);
    expect(isSpirvSyclBuiltin('_Z__spirv_x')).toBe(true);
    expect(isSpirvSyclBuiltin('__spirv_x')).toBe(false);
    expect(isSpirvSyclBuiltin('_Z3foov')).toBe(false);
  });

  it('takes kernel definitions and SYCL_EXTERNAL definitions that are not builtins', () => {
    const m = parse(`define spir_kernel void @k() {\n  ret void\n}
declare spir_kernel void @kdecl()
define void @ext() #0 {\n  ret void\n}
define void @_Z16__spirv_Builtinv() #0 {\n  ret void\n}
define void @plain() {\n  ret void\n}
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const entries = m.functions.filter(isEntryPoint).map((f) => f.name);
    expect(entries).toEqual(['k', 'ext']);
  });
});

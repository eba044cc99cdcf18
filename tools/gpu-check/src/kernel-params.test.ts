import { describe, expect, it } from 'vitest';
import { kernelParams } from './kernel-params.js';
import { pickFirstKernel, pickRefusedKernel } from './prepare.js';

const MODULE = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.sycl::_V1::detail::array" = type { [2 x i64] }
%"class.sycl::_V1::range" = type { %"class.sycl::_V1::detail::array" }
%"class.sycl::_V1::id" = type { %"class.sycl::_V1::detail::array" }

define spir_kernel void @_ZTS1A(ptr addrspace(1) %p, ptr byval(%"class.sycl::_V1::range") align 8 %r, ptr byval(%"class.sycl::_V1::id") align 8 %o, i32 %n, half %h, double %d) !reqd_work_group_size !0 {
  ret void
}

define spir_kernel void @_ZTS1B(ptr addrspace(1) %p, i64 %n) !intel_reqd_sub_group_size !1 {
  ret void
}

define spir_kernel void @_ZTS1C(float %f) !intel_reqd_sub_group_size !2 {
  ret void
}

define spir_func void @helper(ptr addrspace(1) %p) {
  ret void
}

!0 = !{i32 8, i32 1, i32 1}
!1 = !{i32 16}
!2 = !{i32 32}
`;

describe('kernel parameters from device IR', () => {
  it('reads buffers, by-value ranges and ids with their sizes, and scalars, for kernels only', () => {
    const params = kernelParams(MODULE, 'm.ll');
    expect([...params.keys()]).toEqual(['_ZTS1A', '_ZTS1B', '_ZTS1C']);
    expect(params.get('_ZTS1A')).toEqual([
      { kind: 'buffer' },
      { kind: 'struct', name: 'class.sycl::_V1::range', bytes: 16 },
      { kind: 'struct', name: 'class.sycl::_V1::id', bytes: 16 },
      { kind: 'scalar', type: 's32' },
      { kind: 'scalar', type: 'u16' },
      { kind: 'scalar', type: 'f64' },
    ]);
  });

  it('picks the first kernel without a required work-group size or a sub-group size other than 32', () => {
    expect(pickFirstKernel(MODULE, ['_ZTS1A', '_ZTS1B', '_ZTS1C'])).toBe('_ZTS1C');
    expect(() => pickFirstKernel(MODULE, ['_ZTS1A'])).toThrow(/no kernel without a required work-group size/);
  });

  it('picks the first kernel requiring a sub-group size of 8 or 16', () => {
    expect(pickRefusedKernel(MODULE, ['_ZTS1A', '_ZTS1B', '_ZTS1C'])).toEqual({ name: '_ZTS1B', subGroupSize: 16 });
    expect(pickRefusedKernel(MODULE, ['_ZTS1C'])).toBeUndefined();
  });
});

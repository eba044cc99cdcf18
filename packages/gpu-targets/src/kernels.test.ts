import { describe, expect, it } from 'vitest';
import { parse } from '../test/ir.js';
import { findKernels } from './kernels.js';

describe('findKernels', () => {
  const m = parse(`target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @byCc() {
  ret void
}
define void @byAnnotation() {
  ret void
}
define void @notKernel() {
  ret void
}
define void @zero() {
  ret void
}
define amdgpu_kernel void @otherTarget() {
  ret void
}
!nvvm.annotations = !{!0, !0, !1, !2, !3, !4}
!0 = !{ptr @byAnnotation, !"maxntidx", i32 8, !"kernel", i32 1}
!1 = !{ptr @notKernel, !"maxntidx", i32 8}
!2 = !{ptr @zero, !"kernel", i32 0}
!3 = !{ptr @byAnnotation, !"kernel", i32 1, !"extra"}
!4 = !{null, !"align", i32 8}
`);

  it('takes the calling convention and kernel=1 annotations (odd operand counts, each node once)', () => {
    const kernels = findKernels(m, ['nvptx']);
    expect([...kernels.keys()].map((f) => f.name)).toEqual(['byCc', 'byAnnotation']);
    expect(kernels.get(m.getFunction('byCc')!)!.annotated).toBe(false);
    const annotated = kernels.get(m.getFunction('byAnnotation')!)!;
    expect(annotated.annotated).toBe(true);
    expect(annotated.annotations).toHaveLength(1);
  });

  it('looks at both targets when asked to', () => {
    expect([...findKernels(m, ['nvptx', 'amdgcn']).keys()].map((f) => f.name)).toEqual(['byCc', 'byAnnotation', 'otherTarget']);
  });
});

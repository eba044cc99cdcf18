import { describe, expect, it } from 'vitest';
import { AMDGPU_HEADER, NVPTX_HEADER, functionText, llvm16, llvmVerify, parse, print } from '../test/ir.js';
import { lowerLocalAccessors } from './local-accessor.js';

const KERNEL = `define ptx_kernel void @k(ptr addrspace(3) noundef %a, ptr addrspace(1) noundef %b, ptr addrspace(3) %c) {
entry:
  %x = load i32, ptr addrspace(3) %a, align 4
  store i32 %x, ptr addrspace(1) %b, align 4
  call void @helper(ptr addrspace(3) %c)
  ret void
}
define void @helper(ptr addrspace(3) %p) {
  ret void
}
`;

describe('lowerLocalAccessors', () => {
  it('turns local-pointer kernel parameters into i32 offsets into one shared array', () => {
    const m = parse(NVPTX_HEADER + KERNEL);
    const result = lowerLocalAccessors(m);
    expect(result.kernels.map((k) => k.name)).toEqual(['k']);
    expect(print(m)).toContain('@k_shared_mem = external addrspace(3) global [0 x i8], align 4');
    expect(functionText(m, 'k')).toBe(
      [
        'define ptx_kernel void @k(i32 %0, ptr addrspace(1) noundef %b, i32 %1) {',
        'entry:',
        '  %2 = getelementptr inbounds [0 x i8], ptr addrspace(3) @k_shared_mem, i32 0, i32 %1',
        '  %c = bitcast ptr addrspace(3) %2 to ptr addrspace(3)',
        '  %3 = getelementptr inbounds [0 x i8], ptr addrspace(3) @k_shared_mem, i32 0, i32 %0',
        '  %a = bitcast ptr addrspace(3) %3 to ptr addrspace(3)',
        '  %x = load i32, ptr addrspace(3) %a, align 4',
        '  store i32 %x, ptr addrspace(1) %b, align 4',
        '  call void @helper(ptr addrspace(3) %c)',
        '  ret void',
        '}',
      ].join('\n'),
    );
    // functions the kernel calls keep their local pointers
    expect(functionText(m, 'helper')).toContain('@helper(ptr addrspace(3) %p)');
  });

  it('finds NVPTX kernels by annotation too, and points the annotation at the new function', () => {
    const m = parse(`${NVPTX_HEADER}${KERNEL.replace('ptx_kernel ', '')}
!nvvm.annotations = !{!0, !0}
!0 = distinct !{ptr @k, !"kernel", i32 1}
`);
    expect(lowerLocalAccessors(m).changed).toBe(true);
    expect(print(m)).toContain('!nvvm.annotations = !{!0, !0}\n\n!0 = distinct !{ptr @k, !"kernel", i32 1}');
    expect(functionText(m, 'k').split('\n')[0]).toBe('define void @k(i32 %0, ptr addrspace(1) noundef %b, i32 %1) {');
  });

  it('keeps typed pointers typed: the GEP gives i8 addrspace(3)* and the bitcast restores the type', () => {
    const m = parse(
      `${AMDGPU_HEADER}define amdgpu_kernel void @k(i64 addrspace(3)* %a) {
entry:
  %v = load i64, i64 addrspace(3)* %a
  ret void
}
`,
      'preserve-typed',
    );
    lowerLocalAccessors(m);
    expect(functionText(m, 'k')).toContain('%1 = getelementptr inbounds [0 x i8], [0 x i8] addrspace(3)* @k_shared_mem, i32 0, i32 %0\n  %a = bitcast i8 addrspace(3)* %1 to i64 addrspace(3)*');
  });

  it('changes nothing outside CUDA and HSA (OpenCL nvcl, PAL) or without local pointers', () => {
    for (const triple of ['nvptx64-nvidia-nvcl', 'amdgcn-amd-amdpal', 'spir64-unknown-unknown']) {
      const text = `target triple = "${triple}"\n${KERNEL.replace('ptx_kernel', 'amdgpu_kernel')}`;
      const m = parse(text);
      expect(lowerLocalAccessors(m).changed).toBe(false);
      expect(print(m)).toBe(print(parse(text)));
    }
    const m = parse(`${NVPTX_HEADER}define ptx_kernel void @k(ptr addrspace(1) %a) {\n  ret void\n}\n`);
    expect(lowerLocalAccessors(m).changed).toBe(false);
  });

  it.skipIf(llvm16('opt') === undefined)('produces modules LLVM 16 verifies (needs /usr/lib/llvm-16/bin/opt)', () => {
    const m = parse(NVPTX_HEADER + KERNEL);
    lowerLocalAccessors(m);
    expect(llvmVerify(print(m))).toBe('');
  });
});

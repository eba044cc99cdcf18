import { describe, expect, it } from 'vitest';
import { functionText, llvm16, llvmVerify, parse, print } from '../test/ir.js';
import { GPU_DATA_LAYOUTS, RetargetError, retargetArch, retargetModule } from './retarget.js';

const SPIR = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%struct.Lambda = type { ptr addrspace(1), ptr addrspace(4), i32 }
%struct.Range = type { [1 x i64] }

@table = internal addrspace(2) constant [2 x float] [float 1.0, float 2.0], align 4
@scratch = internal addrspace(3) global [16 x i32] undef, align 4

define weak_odr dso_local spir_kernel void @k(ptr addrspace(1) %out, ptr byval(%struct.Range) align 8 %r) {
entry:
  %l = alloca %struct.Lambda, align 8
  %g = addrspacecast ptr %l to ptr addrspace(4)
  store ptr addrspace(1) %out, ptr addrspace(4) %g, align 8
  %first = load i64, ptr %r, align 8
  %t = getelementptr inbounds [2 x float], ptr addrspace(2) @table, i64 0, i64 1
  %v = load float, ptr addrspace(2) %t, align 4
  call spir_func void @helper(ptr addrspace(4) %g, float %v)
  call void @llvm.memcpy.p4.p0.i64(ptr addrspace(4) %g, ptr %l, i64 8, i1 false)
  ret void
}

define internal spir_func void @helper(ptr addrspace(4) %this, float %v) {
  %p = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  store float %v, ptr addrspace(1) %p, align 4
  store i32 1, ptr addrspace(3) @scratch, align 4
  ret void
}

declare void @llvm.memcpy.p4.p0.i64(ptr addrspace(4), ptr, i64, i1)
`;

describe('retargetModule to NVPTX', () => {
  const { module } = retargetModule(parse(SPIR), 'nvptx64-nvidia-cuda');
  const text = print(module);

  it('sets the triple and LLVM 16 data layout', () => {
    expect(module.triple).toBe('nvptx64-nvidia-cuda');
    expect(module.dataLayout).toBe(GPU_DATA_LAYOUTS.nvptx);
  });

  it('maps generic and private to 0, constant to 4, keeping global and local', () => {
    expect(text).toContain('%struct.Lambda = type { ptr addrspace(1), ptr, i32 }');
    expect(text).toContain('@table = internal addrspace(4) constant [2 x float]');
    expect(text).toContain('@scratch = internal addrspace(3) global [16 x i32] undef');
    expect(functionText(module, 'helper')).toContain('define internal void @helper(ptr %this, float %v)');
  });

  it('drops address-space casts that became identities and renames overloaded intrinsics', () => {
    const k = functionText(module, 'k');
    expect(k).not.toContain('addrspacecast');
    expect(k).toContain('store ptr addrspace(1) %out, ptr %l, align 8');
    expect(k).toContain('call void @llvm.memcpy.p0.p0.i64(ptr %l, ptr %l, i64 8, i1 false)');
    expect(text).not.toContain('llvm.memcpy.p4');
  });

  it('makes spir_kernel a ptx_kernel with a kernel annotation, and spir_func calls plain', () => {
    expect(functionText(module, 'k').split('\n')[0]).toBe('define weak_odr dso_local ptx_kernel void @k(ptr addrspace(1) %out, ptr byval(%struct.Range) align 8 %r) {');
    expect(functionText(module, 'k')).toContain('  call void @helper(ptr %l, float %v)');
    expect(text).toMatch(/!nvvm\.annotations = !\{!0\}\n\n!0 = !\{ptr @k, !"kernel", i32 1\}/);
  });

  it('leaves the source module unchanged', () => {
    const source = parse(SPIR);
    const before = print(source);
    retargetModule(source, 'nvptx');
    expect(print(source)).toBe(before);
  });
});

describe('retargetModule to AMDGPU', () => {
  const { module, byrefKernels } = retargetModule(parse(SPIR), 'amdgcn-amd-amdhsa');
  const text = print(module);

  it('puts allocas and SPIR private pointers in space 5, generic in 0', () => {
    expect(text).toContain('%struct.Lambda = type { ptr addrspace(1), ptr, i32 }');
    expect(functionText(module, 'k')).toContain('%l = alloca %struct.Lambda, align 8, addrspace(5)');
    expect(functionText(module, 'k')).toContain('%g = addrspacecast ptr addrspace(5) %l to ptr');
    expect(functionText(module, 'k')).toContain('call void @llvm.memcpy.p0.p5.i64(ptr %g, ptr addrspace(5) %l, i64 8, i1 false)');
  });

  it('passes byval kernel aggregates byref in the kernel argument segment, copied to a private alloca', () => {
    expect(byrefKernels).toEqual(['k']);
    const k = functionText(module, 'k');
    expect(k.split('\n')[0]).toBe('define weak_odr protected amdgpu_kernel void @k(ptr addrspace(1) %out, ptr addrspace(4) byref(%struct.Range) align 8 %r) {');
    expect(k).toContain('%r.byval = alloca %struct.Range, align 8, addrspace(5)');
    expect(k).toContain('call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 8 %r.byval, ptr addrspace(4) align 8 %r, i64 8, i1 false)');
    expect(k).toContain('%first = load i64, ptr addrspace(5) %r.byval, align 8');
  });

  it('makes kernels protected and other definitions hidden (no dynamic relocations in the code object)', () => {
    expect(functionText(module, 'helper').split('\n')[0]).toMatch(/^define internal void @helper/);
    expect(text).not.toContain('spir_func');
  });
});

describe('work-group sizes', () => {
  const text = `target triple = "spir64-unknown-unknown"
define spir_kernel void @k() !reqd_work_group_size !0 {
  ret void
}
!0 = !{i32 16, i32 8}
`;

  it('AMDGPU: completes reqd_work_group_size to x, y, z (LLVM 16 drops a module\'s code object metadata otherwise)', () => {
    const { module } = retargetModule(parse(text), 'amdgcn-amd-amdhsa');
    expect(functionText(module, 'k').split('\n')[0]).toMatch(/!reqd_work_group_size !(\d+)/);
    expect(print(module)).toMatch(/!0 = !\{i32 16, i32 8, i32 1\}/);
  });

  it('NVPTX: adds reqntid annotations', () => {
    const { module } = retargetModule(parse(text), 'nvptx64-nvidia-cuda');
    expect(print(module)).toContain('!{ptr @k, !"reqntidx", i32 16, !"reqntidy", i32 8, !"reqntidz", i32 1}');
  });
});

describe('retargetArch', () => {
  it('accepts the two triples and the architecture names, nothing else', () => {
    expect(retargetArch('nvptx64-nvidia-cuda')).toBe('nvptx');
    expect(retargetArch('amdgcn-amd-amdhsa')).toBe('amdgcn');
    expect(retargetArch('amdgcn')).toBe('amdgcn');
    for (const bad of ['nvptx64-nvidia-nvcl', 'spir64', 'nvptx-nvidia-cuda', 'x86_64-pc-linux-gnu']) expect(() => retargetArch(bad)).toThrow(RetargetError);
  });

  it('refuses typed-pointer modules and modules already for a GPU', () => {
    expect(() => retargetModule(parse('target triple = "spir64"\n@g = global i32* null\n', 'preserve-typed'), 'nvptx')).toThrow(/opaque pointers/);
    expect(() => retargetModule(parse('target triple = "nvptx64-nvidia-cuda"\n'), 'amdgcn')).toThrow(/already for/);
  });
});

describe.skipIf(llvm16('opt') === undefined)('retargeted modules and LLVM 16 (needs /usr/lib/llvm-16/bin/opt)', () => {
  it('verify for both targets', () => {
    for (const target of ['nvptx64-nvidia-cuda', 'amdgcn-amd-amdhsa']) {
      expect(llvmVerify(print(retargetModule(parse(SPIR), target).module))).toBe('');
    }
  });
});

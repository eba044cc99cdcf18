import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { functionText, llvm16, parse, print } from '../test/ir.js';
import { demangledIdentifier, lowerSpirvBuiltins } from './builtins.js';
import { retargetModule } from './retarget.js';

const HEADER = `target triple = "spir64-unknown-unknown"
@__spirv_BuiltInGlobalInvocationId = external addrspace(1) constant <3 x i64>, align 32
@__spirv_BuiltInWorkgroupSize = external addrspace(1) constant <3 x i64>, align 32
@__spirv_BuiltInSubgroupLocalInvocationId = external addrspace(1) constant i32, align 4
`;

/** Retargets SPIR text and lowers its builtins. */
function lower(body: string, target: 'nvptx64-nvidia-cuda' | 'amdgcn-amd-amdhsa') {
  const { module } = retargetModule(parse(HEADER + body), target);
  const result = lowerSpirvBuiltins(module);
  return { module, result, text: print(module) };
}

const IDS = `define spir_kernel void @k(ptr addrspace(1) %out) {
entry:
  %v = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %x = extractelement <3 x i64> %v, i64 0
  %y = load i64, ptr addrspace(1) getelementptr inbounds (<3 x i64>, ptr addrspace(1) @__spirv_BuiltInWorkgroupSize, i64 0, i64 1), align 8
  %lane = load i32, ptr addrspace(4) addrspacecast (ptr addrspace(1) @__spirv_BuiltInSubgroupLocalInvocationId to ptr addrspace(4)), align 4
  %s = add i64 %x, %y
  store i64 %s, ptr addrspace(1) %out, align 8
  store i32 %lane, ptr addrspace(1) %out, align 4
  ret void
}
`;

describe('work-item builtin variables', () => {
  it('NVPTX: global id from ctaid·ntid + tid + the global offset, sizes from ntid, lanes from laneid', () => {
    const { result, module, text } = lower(IDS, 'nvptx64-nvidia-cuda');
    expect(result.problems).toEqual([]);
    const k = functionText(module, 'k');
    for (const sreg of ['ctaid.x', 'ntid.x', 'tid.x', 'ctaid.z', 'ntid.y', 'laneid']) expect(k).toContain(`@llvm.nvvm.read.ptx.sreg.${sreg}()`);
    expect(k).toContain('call i64 @_Z27__spirv_BuiltInGlobalOffseti(i32 0)');
    expect(k).toMatch(/insertelement <3 x i64> undef, i64 %\d+, i64 0/);
    expect(text).not.toContain('@__spirv_BuiltInGlobalInvocationId');
    expect(text).not.toContain('@__spirv_BuiltInWorkgroupSize');
    expect([...result.lowered.keys()].sort()).toEqual(['__spirv_BuiltInGlobalInvocationId', '__spirv_BuiltInSubgroupLocalInvocationId', '__spirv_BuiltInWorkgroupSize']);
  });

  it('AMDGPU: ids from workitem/workgroup intrinsics, sizes from the dispatch packet, lanes from mbcnt', () => {
    const { result, module } = lower(IDS, 'amdgcn-amd-amdhsa');
    expect(result.problems).toEqual([]);
    const k = functionText(module, 'k');
    expect(k).toContain('@llvm.amdgcn.workgroup.id.x()');
    expect(k).toContain('@llvm.amdgcn.workitem.id.x()');
    expect(k).toContain('@llvm.amdgcn.dispatch.ptr()');
    // workgroup_size_y: the u16 at byte 6 of the packet
    expect(k).toMatch(/getelementptr inbounds i8, ptr addrspace\(4\) %\d+, i64 6\n\s+%\d+ = load i16/);
    expect(k).toContain('@llvm.amdgcn.mbcnt.hi(i32 -1');
  });

  it('reports a use other than a load, naming the builtin and the function', () => {
    const { result } = lower(
      `declare void @sink(ptr addrspace(1))
define spir_func void @f() {
  call void @sink(ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId)
  ret void
}
`,
      'nvptx64-nvidia-cuda',
    );
    expect(result.problems).toEqual([
      expect.objectContaining({ code: 'spirv-builtin-unsupported-use', builtin: '__spirv_BuiltInGlobalInvocationId', function: 'f' }),
    ]);
  });
});

describe('builtin functions', () => {
  it('function forms with constant and variable dimensions, and the old _x forms', () => {
    const { module, result } = lower(
      `declare i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32)
declare i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32)
declare i64 @_Z20__spirv_GlobalSize_yv()
define spir_func i64 @f(i32 %d) {
  %a = call i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 1)
  %b = call i64 @_Z32__spirv_BuiltInLocalInvocationIdi(i32 %d)
  %c = call i64 @_Z20__spirv_GlobalSize_yv()
  %s = add i64 %a, %b
  %t = add i64 %s, %c
  ret i64 %t
}
`,
      'nvptx64-nvidia-cuda',
    );
    expect(result.problems).toEqual([]);
    const f = functionText(module, 'f');
    expect(f).toContain('@llvm.nvvm.read.ptx.sreg.ctaid.y()');
    expect(f).toMatch(/icmp eq i32 %d, 2/);
    expect(f).toMatch(/select i1 %\d+, i64 %\d+, i64 0/);
    expect(f).toContain('@llvm.nvvm.read.ptx.sreg.nctaid.y()');
    expect(print(module)).not.toContain('__spirv_BuiltInLocalInvocationIdi');
  });

  it('atomics become atomicrmw with the ordering of the semantics and the sync scope of the scope', () => {
    const text = `declare i64 @_Z18__spirv_AtomicIAddPU3AS1mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(ptr addrspace(1), i32, i32, i64)
define spir_func i64 @f(ptr addrspace(1) %p) {
  %r = call spir_func i64 @_Z18__spirv_AtomicIAddPU3AS1mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(ptr addrspace(1) %p, i32 1, i32 912, i64 5)
  ret i64 %r
}
`;
    expect(functionText(lower(text, 'amdgcn-amd-amdhsa').module, 'f')).toContain('%1 = atomicrmw add ptr addrspace(1) %p, i64 5 syncscope("agent") seq_cst, align 8');
    // LLVM 16's NVPTX back end knows the system scope only
    expect(functionText(lower(text, 'nvptx64-nvidia-cuda').module, 'f')).toContain('atomicrmw add ptr addrspace(1) %p, i64 5 seq_cst, align 8');
  });

  it('barriers: NVPTX barrier0, AMDGPU fences around s.barrier', () => {
    const text = `declare void @_Z22__spirv_ControlBarrierjjj(i32, i32, i32)
define spir_func void @f() {
  call spir_func void @_Z22__spirv_ControlBarrierjjj(i32 2, i32 2, i32 272)
  ret void
}
`;
    expect(functionText(lower(text, 'nvptx64-nvidia-cuda').module, 'f')).toContain('call void @llvm.nvvm.barrier0()');
    const amd = functionText(lower(text, 'amdgcn-amd-amdhsa').module, 'f');
    expect(amd).toMatch(/fence syncscope\("workgroup"\) release\n\s+call void @llvm\.amdgcn\.s\.barrier\(\)\n\s+fence syncscope\("workgroup"\) acquire/);
  });

  it('sub-group reductions shuffle in a butterfly (5 steps on NVPTX)', () => {
    const { module, result } = lower(
      `declare float @_Z27__spirv_GroupNonUniformFAddiif(i32, i32, float)
define spir_func float @f(float %x) {
  %r = call spir_func float @_Z27__spirv_GroupNonUniformFAddiif(i32 3, i32 0, float %x)
  ret float %r
}
`,
      'nvptx64-nvidia-cuda',
    );
    expect(result.problems).toEqual([]);
    const f = functionText(module, 'f');
    expect(f.match(/@llvm\.nvvm\.shfl\.sync\.bfly\.i32\(i32 -1, i32 %\d+, i32 (\d+), i32 31\)/g)?.length).toBe(5);
    expect(f.match(/fadd float/g)?.length).toBe(5);
  });

  it('printf: NVPTX vprintf with packed arguments, AMDGPU printf for LLVM with our __printf_alloc', () => {
    const text = `@fmt = private addrspace(2) constant [7 x i8] c"%d %f\\0A\\00"
declare i32 @_Z18__spirv_ocl_printfPU3AS2Kcz(ptr addrspace(2), ...)
define spir_func void @f(i32 %v, double %d) {
  %r = call spir_func i32 (ptr addrspace(2), ...) @_Z18__spirv_ocl_printfPU3AS2Kcz(ptr addrspace(2) @fmt, i32 %v, double %d)
  ret void
}
`;
    const nv = functionText(lower(text, 'nvptx64-nvidia-cuda').module, 'f');
    expect(nv).toContain('alloca [16 x i8], align 8');
    expect(nv).toMatch(/store i32 %v, ptr %\d+, align 4/);
    expect(nv).toMatch(/getelementptr inbounds i8, ptr %\d+, i64 8/);
    expect(nv).toMatch(/%(\d+) = addrspacecast ptr addrspace\(4\) @fmt to ptr[^]*call i32 @vprintf\(ptr %\1, ptr %\d+\)/);
    const amd = lower(text, 'amdgcn-amd-amdhsa');
    expect(functionText(amd.module, 'f')).toContain('call i32 (ptr addrspace(4), ...) @printf(ptr addrspace(4) @fmt, i32 %v, double %d)');
    expect(amd.text).toContain('define hidden ptr addrspace(1) @__printf_alloc(i32 %bytes)');
  });

  it('math: native intrinsics where both back ends have them, our library for pow', () => {
    const { module, text } = lower(
      `declare double @_Z15__spirv_ocl_powdd(double, double)
declare float @_Z16__spirv_ocl_sqrtf(float)
define spir_func double @f(double %x, float %y) {
  %p = call spir_func double @_Z15__spirv_ocl_powdd(double %x, double 2.0)
  %s = call spir_func float @_Z16__spirv_ocl_sqrtf(float %y)
  ret double %p
}
`,
      'nvptx64-nvidia-cuda',
    );
    const f = functionText(module, 'f');
    expect(f).toContain('call double @__syclkit_pow_f64(double %x, double 2.000000e+00)');
    expect(f).toContain('call float @llvm.sqrt.f32(float %y)');
    expect(text).toContain('define internal double @__syclkit_pow_f64(double %x, double %y)');
    expect(text).toContain('define internal double @__syclkit_log_f64(double %x)');
  });

  it('names every builtin it does not lower', () => {
    const { result } = lower(
      `declare float @_Z18__spirv_ocl_lgammaf(float)
declare i32 @_Z20__spirv_SomethingNewi(i32)
define spir_func void @f(float %x) {
  %a = call spir_func float @_Z18__spirv_ocl_lgammaf(float %x)
  %b = call spir_func i32 @_Z20__spirv_SomethingNewi(i32 1)
  ret void
}
`,
      'amdgcn-amd-amdhsa',
    );
    expect(result.problems.map((p) => [p.code, p.builtin, p.function])).toEqual([
      ['spirv-builtin-not-lowered', '_Z18__spirv_ocl_lgammaf', 'f'],
      ['spirv-builtin-not-lowered', '_Z20__spirv_SomethingNewi', 'f'],
    ]);
    expect(result.problems[0]!.message).toContain('calls __spirv_ocl_lgamma (');
  });
});

describe('demangledIdentifier', () => {
  it('reads the counted identifier of an Itanium name and leaves C names alone', () => {
    expect(demangledIdentifier('_Z18__spirv_AtomicIAddPU3AS1mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm')).toBe('__spirv_AtomicIAdd');
    expect(demangledIdentifier('__spirv_ocl_printf')).toBe('__spirv_ocl_printf');
    expect(demangledIdentifier('_Z3foov')).toBe('foo');
  });
});

describe.skipIf(llvm16('llc') === undefined)('lowered modules and LLVM 16 llc (needs /usr/lib/llvm-16/bin/llc)', () => {
  it('compile for both targets', () => {
    for (const [target, args] of [
      ['nvptx64-nvidia-cuda', ['-mcpu=sm_70']],
      ['amdgcn-amd-amdhsa', ['-mcpu=gfx90a', '-filetype=obj']],
    ] as const) {
      const { text, result } = lower(IDS, target);
      expect(result.problems).toEqual([]);
      const r = spawnSync(llvm16('llc')!, [...args, '-o', '/dev/null', '-'], { input: text, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { AMDGPU_HEADER, NVPTX_HEADER, functionText, llvm16, llvmVerify, parse, print } from '../test/ir.js';
import { addImplicitGlobalOffset } from './global-offset.js';

const BUILTIN = 'declare i64 @_Z27__spirv_BuiltInGlobalOffseti(i32)\n';

const CHAIN = `${NVPTX_HEADER}${BUILTIN}
define internal i64 @leaf(i32 %d) {
  %o = call i64 @_Z27__spirv_BuiltInGlobalOffseti(i32 %d)
  ret i64 %o
}

define internal i64 @middle() {
  %a = call i64 @leaf(i32 0)
  %b = tail call i64 @leaf(i32 1), !range !1
  %s = add i64 %a, %b
  ret i64 %s
}

define internal void @unrelated() {
  ret void
}

define ptx_kernel void @k(ptr addrspace(1) %out) {
entry:
  %v = call i64 @middle()
  store i64 %v, ptr addrspace(1) %out, align 8
  call void @unrelated()
  ret void
}

!1 = !{i64 0, i64 100}
`;

describe('addImplicitGlobalOffset with __spirv_BuiltInGlobalOffset', () => {
  it('clones every function that reaches the builtin right after its original, kernels included', () => {
    const m = parse(CHAIN);
    const result = addImplicitGlobalOffset(m);
    expect(result.changed).toBe(true);
    expect(m.functions.map((f) => f.name)).toEqual(['leaf', 'leaf_with_offset', 'middle', 'middle_with_offset', 'unrelated', 'k', 'k_with_offset']);
    expect([...result.clones].map(([o, c]) => [o.name, c.name])).toEqual([
      ['leaf', 'leaf_with_offset'],
      ['middle', 'middle_with_offset'],
      ['k', 'k_with_offset'],
    ]);
    expect(result.kernels.map((k) => k.name)).toEqual(['k_with_offset']);
    expect(m.getFunction('_Z27__spirv_BuiltInGlobalOffseti')).toBeUndefined();
  });

  it('folds the offset to 0 in originals and reads dimension d of the parameter in clones', () => {
    const m = parse(CHAIN);
    addImplicitGlobalOffset(m);
    expect(functionText(m, 'leaf')).toBe('define internal i64 @leaf(i32 %d) {\n  ret i64 0\n}');
    expect(functionText(m, 'leaf_with_offset')).toBe(
      [
        'define internal i64 @leaf_with_offset(i32 %0, ptr %1) {',
        '  %3 = getelementptr inbounds i32, ptr %1, i32 %0',
        '  %4 = load i32, ptr %3, align 4',
        '  %5 = zext i32 %4 to i64',
        '  ret i64 %5',
        '}',
      ].join('\n'),
    );
  });

  it('passes the offset down: clones call clones, keeping tail kinds, names and call metadata', () => {
    const m = parse(CHAIN);
    addImplicitGlobalOffset(m);
    const middle = functionText(m, 'middle_with_offset');
    expect(middle).toContain('%a = call i64 @leaf_with_offset(i32 0, ptr %0)');
    expect(middle).toContain('%b = tail call i64 @leaf_with_offset(i32 1, ptr %0), !range !0');
    expect(functionText(m, 'middle')).toContain('%a = call i64 @leaf(i32 0)');
  });

  it('gives NVPTX kernel clones a byval [3 x i32] parameter passed on as the offset pointer', () => {
    const m = parse(CHAIN);
    addImplicitGlobalOffset(m);
    const k = functionText(m, 'k_with_offset');
    expect(k.split('\n')[0]).toBe('define ptx_kernel void @k_with_offset(ptr addrspace(1) %0, ptr byval([3 x i32]) %1) {');
    expect(k).toContain('%v = call i64 @middle_with_offset(ptr %1)');
    expect(k).toContain('call void @unrelated()');
  });

  it('copies an AMDGPU kernel offset from the kernel argument segment into a private alloca', () => {
    const m = parse(CHAIN.replace(NVPTX_HEADER, AMDGPU_HEADER).replace('ptx_kernel', 'amdgpu_kernel'));
    addImplicitGlobalOffset(m);
    const k = functionText(m, 'k_with_offset').split('\n');
    expect(k[0]).toBe('define amdgpu_kernel void @k_with_offset(ptr addrspace(1) %0, ptr addrspace(4) byref([3 x i32]) %1) {');
    expect(k.slice(2, 5)).toEqual([
      '  %2 = alloca [3 x i32], align 4, addrspace(5)',
      '  call void @llvm.memcpy.p5.p4.i64(ptr addrspace(5) align 4 %2, ptr addrspace(4) align 1 %1, i64 12, i1 false)',
      '  %v = call i64 @middle_with_offset(ptr addrspace(5) %2)',
    ]);
    expect(functionText(m, 'leaf_with_offset').split('\n')[0]).toBe('define internal i64 @leaf_with_offset(i32 %0, ptr addrspace(5) %1) {');
  });

  it('drops an unused read in the clone instead of loading from the parameter', () => {
    const m = parse(`${NVPTX_HEADER}${BUILTIN}
define void @f() {
  %unused = call i64 @_Z27__spirv_BuiltInGlobalOffseti(i32 2)
  ret void
}
`);
    addImplicitGlobalOffset(m);
    expect(functionText(m, 'f_with_offset')).toBe('define void @f_with_offset(ptr %0) {\n  ret void\n}');
  });

  it('with enabled: false only folds reads to 0, making no clone', () => {
    const m = parse(CHAIN);
    const result = addImplicitGlobalOffset(m, { enabled: false });
    expect(result.clones.size).toBe(0);
    expect(m.functions.map((f) => f.name)).toEqual(['leaf', 'middle', 'unrelated', 'k']);
    expect(functionText(m, 'leaf')).toContain('ret i64 0');
  });

  it('leaves a module that never reads the offset alone', () => {
    const text = `${NVPTX_HEADER}${BUILTIN}define void @f() {\n  ret void\n}\n`;
    const m = parse(text);
    expect(addImplicitGlobalOffset(m).changed).toBe(false);
    expect(print(m)).toBe(print(parse(text)));
  });

  it('reports a kernel that is called (intel/llvm: "Kernel entry point can\'t have uses")', () => {
    const m = parse(`${NVPTX_HEADER}${BUILTIN}
define ptx_kernel void @k() {
  %o = call i64 @_Z27__spirv_BuiltInGlobalOffseti(i32 0)
  ret void
}
define void @caller() {
  call ptx_kernel void @k()
  ret void
}
`);
    expect(addImplicitGlobalOffset(m).problems.map((p) => p.code)).toEqual(['global-offset-kernel-called']);
  });
});

const INTRINSIC = `${NVPTX_HEADER}declare ptr @llvm.nvvm.implicit.offset()

define i32 @reads(i1 %c) {
entry:
  %p = call ptr @llvm.nvvm.implicit.offset()
  %g = getelementptr inbounds i32, ptr %p, i64 1
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %q = phi ptr [ %p, %a ], [ %g, %b ]
  %v = load i32, ptr %q, align 4
  ret i32 %v
}

define void @k() {
  %r = call i32 @reads(i1 true)
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx", i32 8}
`;

describe('addImplicitGlobalOffset with the implicit offset intrinsics', () => {
  it('replaces loads through GEPs and PHIs with 0 and deletes what only served them', () => {
    const m = parse(INTRINSIC);
    addImplicitGlobalOffset(m);
    const reads = functionText(m, 'reads');
    expect(reads).not.toContain('implicit.offset');
    expect(reads).not.toContain('getelementptr');
    expect(reads).not.toContain('phi');
    expect(reads).toContain('ret i32 0');
    expect(m.getFunction('llvm.nvvm.implicit.offset')).toBeUndefined();
  });

  it('keeps the clone reading through the parameter, and annotates the kernel clone as a kernel', () => {
    const m = parse(INTRINSIC);
    addImplicitGlobalOffset(m);
    const clone = functionText(m, 'reads_with_offset');
    expect(clone).toContain('%g = getelementptr inbounds i32, ptr %1, i64 1');
    expect(clone).toContain('%q = phi ptr [ %1, %a ], [ %g, %b ]');
    const text = print(m);
    expect(text).toContain('!nvvm.annotations = !{!0, !1, !2}');
    expect(text).toContain('!2 = !{ptr @k_with_offset, !"kernel", i32 1}');
  });

  it('reports a use of the pointer it cannot fold (other than loads through GEPs and PHIs)', () => {
    const m = parse(`${NVPTX_HEADER}declare ptr @llvm.nvvm.implicit.offset()
declare void @escape(ptr)
define void @f() {
  %p = call ptr @llvm.nvvm.implicit.offset()
  call void @escape(ptr %p)
  ret void
}
`);
    const result = addImplicitGlobalOffset(m);
    expect(result.problems.map((p) => p.code)).toEqual(['global-offset-unfoldable-use']);
    expect(functionText(m, 'f')).toContain('call ptr @llvm.nvvm.implicit.offset()');
  });
});

describe('clones and debug info', () => {
  const DBG = `${NVPTX_HEADER}${BUILTIN}
define i64 @f(i32 %x) !dbg !5 {
  %o = call i64 @_Z27__spirv_BuiltInGlobalOffseti(i32 0), !dbg !8
  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression()), !dbg !8
  ret i64 %o, !dbg !8
}
declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.cpp", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !10)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 1, type: !11)
!10 = !{!9}
!11 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
`;

  it('gives the clone its own copy of the subprogram, with locations and variables rescoped to it', () => {
    const m = parse(DBG);
    addImplicitGlobalOffset(m);
    const text = print(m);
    expect(functionText(m, 'f')).toMatch(/^define i64 @f\(i32 %x\) !dbg !(\d+) \{/);
    const spOf = (name: string): string => /!dbg (!\d+) \{/.exec(functionText(m, name))![1]!;
    const original = spOf('f');
    const copy = spOf('f_with_offset');
    expect(copy).not.toBe(original);
    const line = (id: string): string => text.split('\n').find((l) => l.startsWith(`${id} = `))!;
    const normalize = (l: string): string => l.replace(/^!\d+ = /, '').replace(/retainedNodes: !\d+/, 'retainedNodes: R');
    expect(line(copy)).toMatch(/^!\d+ = distinct !DISubprogram\(name: "f"/);
    expect(normalize(line(copy))).toBe(normalize(line(original)));
    // the clone's location and variable point at the copy; the type and file stay shared
    const cloneBody = functionText(m, 'f_with_offset');
    const loc = /, !dbg (!\d+)$/m.exec(cloneBody)![1]!;
    expect(line(loc)).toContain(`scope: ${copy})`);
    const variable = /@llvm\.dbg\.value\(metadata i32 %0, metadata (!\d+),/.exec(cloneBody)![1]!;
    expect(line(variable)).toContain(`scope: ${copy},`);
    expect(line(variable)).toMatch(/type: (!\d+)\)$/);
    const retained = /retainedNodes: (!\d+)/.exec(line(copy))![1]!;
    expect(line(retained)).toBe(`${retained} = !{${variable}}`);
  });

  it.skipIf(llvm16('opt') === undefined)('produces modules LLVM 16 verifies, debug info included (needs /usr/lib/llvm-16/bin/opt)', () => {
    for (const input of [CHAIN, CHAIN.replace(NVPTX_HEADER, AMDGPU_HEADER).replace('ptx_kernel', 'amdgpu_kernel'), INTRINSIC]) {
      const m = parse(input);
      addImplicitGlobalOffset(m);
      expect(llvmVerify(print(m))).toBe('');
    }
  });
});

describe('typed pointers', () => {
  it('bitcasts the kernel parameter to the i32 pointer functions take', () => {
    const m = parse(
      `target triple = "nvptx64-nvidia-cuda"
declare i32* @llvm.nvvm.implicit.offset()
define i32 @f() {
  %p = call i32* @llvm.nvvm.implicit.offset()
  %v = load i32, i32* %p, align 4
  ret i32 %v
}
define void @k() {
  %r = call i32 @f()
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void ()* @k, !"kernel", i32 1}
`,
      'preserve-typed',
    );
    addImplicitGlobalOffset(m);
    const k = functionText(m, 'k_with_offset');
    expect(k).toContain('define void @k_with_offset([3 x i32]* byval([3 x i32]) %0) {');
    expect(k).toContain('%2 = bitcast [3 x i32]* %0 to i32*');
    expect(k).toContain('%r = call i32 @f_with_offset(i32* %2)');
  });
});

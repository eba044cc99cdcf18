import { printModule } from '@syclkit/ir';
import { describe, expect, it } from 'vitest';
import { entryPoints, isEntryPoint } from '@syclkit/sycl-conventions';
import { groupEntryPoints, upstreamSourceKey } from './grouping.js';
import { planSplit, splitModule } from './split.js';
import { functionFeatures } from './sycl-metadata.js';
import { declared, defined, ir } from './testing.js';

const twoSources = `
@GV = internal addrspace(1) constant [1 x i32] [i32 42], align 4
@Ext = addrspace(1) global i32 0, align 4

define dso_local spir_kernel void @K0() #0 {
  call spir_func void @foo()
  ret void
}
define dso_local spir_func void @foo() {
  %v = call spir_func i32 @bar(i32 1)
  ret void
}
define linkonce_odr dso_local spir_func i32 @bar(i32 %a) {
  ret i32 %a
}
define dso_local spir_kernel void @K1() #1 {
  %x = load i32, ptr addrspace(1) @GV, align 4
  ret void
}
define dso_local spir_func void @unused() {
  ret void
}
declare spir_func void @external()

attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="b.cpp" }
`;

describe('entry points', () => {
  it('counts kernels and SYCL_EXTERNAL definitions, not builtins or declarations', () => {
    const m = ir(`
define spir_kernel void @k() { ret void }
define spir_func void @ext() #0 { ret void }
define spir_func void @_Z20__spirv_SomethingOpv() #0 { ret void }
define spir_func void @_Z15__esimd_fooBarv() #0 { ret void }
define spir_func void @__builtin_thing() #0 { ret void }
define spir_func void @plain() { ret void }
declare spir_kernel void @decl() #0
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    expect(entryPoints(m).map((f) => f.name)).toEqual(['k', 'ext']);
  });

  it('with -emit-only-kernels-as-entry-points keeps kernels and indirectly-callable functions only', () => {
    const m = ir(`
define spir_kernel void @k() { ret void }
define spir_func void @ext() #0 { ret void }
define spir_func void @virt() #1 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "sycl-module-id"="a.cpp" "indirectly-callable"="set" }
`);
    expect(entryPoints(m, { emitOnlyKernelsAsEntryPoints: true }).map((f) => f.name)).toEqual(['k', 'virt']);
    expect(isEntryPoint(m.getFunction('ext')!, { emitOnlyKernelsAsEntryPoints: true })).toBe(false);
  });
});

describe('grouping', () => {
  it('builds the 11-part per-source key with sorted zero-extended aspects', () => {
    const m = ir(`
define spir_kernel void @k() #0 !sycl_used_aspects !0 !reqd_work_group_size !1 !intel_reqd_sub_group_size !2 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" "sycl-optlevel"="2" }
!0 = !{i32 6, i32 1, i32 -1}
!1 = !{i32 8, i32 16, i32 1}
!2 = !{i32 32}
`);
    const key = upstreamSourceKey(functionFeatures(m, m.getFunction('k')!));
    expect(key).toBe('a.cpp-----1-6-4294967295--8-16-1---32-2---');
  });

  it('orders groups by descending key (largest first)', () => {
    const m = ir(`
define spir_kernel void @_ZTSZ4mainEUlvE_() #0 { ret void }
define spir_kernel void @_ZTSZ4mainEUlvE0_() #0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const groups = groupEntryPoints(m, entryPoints(m), { mode: 'kernel' });
    expect(groups.map((g) => g.entries.map((f) => f.name))).toEqual([['_ZTSZ4mainEUlvE_'], ['_ZTSZ4mainEUlvE0_']]);
  });

  it('design policy bundles named sub-group sizes with none and splits on declared aspects', () => {
    const m = ir(`
define spir_kernel void @a() #0 !intel_reqd_sub_group_size !0 { ret void }
define spir_kernel void @b() #0 { ret void }
define spir_kernel void @c() #0 !sycl_declared_aspects !1 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{!"primary"}
!1 = !{i32 5}
`);
    const groups = groupEntryPoints(m, entryPoints(m), { mode: 'source', policy: 'design' });
    expect(groups.map((g) => g.entries.map((f) => f.name).sort())).toEqual(expect.arrayContaining([['a', 'b'], ['c']]));
    expect(groups).toHaveLength(2);
    // upstream ignores declared aspects, and a named size has no integer for its key
    expect(groupEntryPoints(m, entryPoints(m), { mode: 'source' })).toHaveLength(1);
  });

  it('design policy bundles kernels with the same non-empty fixed targets whatever their aspects', () => {
    const m = ir(`
define spir_kernel void @a() #0 !sycl_fixed_targets !0 !sycl_used_aspects !1 { ret void }
define spir_kernel void @b() #0 !sycl_fixed_targets !0 { ret void }
define spir_kernel void @c() #0 !sycl_fixed_targets !2 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 33}
!1 = !{i32 6}
!2 = !{}
`);
    const groups = groupEntryPoints(m, entryPoints(m), { mode: 'source', policy: 'design' });
    expect(groups.map((g) => g.entries.map((f) => f.name))).toContainEqual(['a', 'b']);
  });

  it('gives one empty <GLOBAL> group when there are no entry points', () => {
    const m = ir('define spir_func void @f() { ret void }');
    expect(groupEntryPoints(m, [], { mode: 'kernel' })).toEqual([{ key: '<GLOBAL>', entries: [], esimd: 'sycl' }]);
  });
});

describe('splitModule', () => {
  it('puts each source in its own image with its call graph, largest module id first', () => {
    const images = [...splitModule(ir(twoSources), { mode: 'source' })];
    expect(images.map((i) => i.entryPoints.map((f) => f.name))).toEqual([['K1'], ['K0']]);
    expect(defined(images[1]!.module)).toEqual(['K0', 'foo', 'bar']);
    expect(defined(images[0]!.module)).toEqual(['K1']);
  });

  it('keeps non-discardable globals in every image and discardable ones only where used', () => {
    const [b, a] = [...splitModule(ir(twoSources), { mode: 'source' })];
    expect(a!.module.globals.map((g) => g.name)).toEqual(['Ext']);
    expect(b!.module.globals.map((g) => g.name)).toEqual(['GV', 'Ext']);
  });

  it('drops unreferenced functions and unused declarations from extracted images', () => {
    const images = [...splitModule(ir(twoSources), { mode: 'auto', irOutputOnly: true })];
    expect(images).toHaveLength(1);
    expect(defined(images[0]!.module)).not.toContain('unused');
    expect(declared(images[0]!.module)).not.toContain('external');
  });

  it('keeps the whole module (minus dead discardable code) when there is no split', () => {
    const [image] = [...splitModule(ir(twoSources), { mode: 'none' })];
    expect(defined(image!.module)).toEqual(['K0', 'foo', 'bar', 'K1', 'unused']);
  });

  it('with the design policy, takes only what the entry points reach also without a split', () => {
    const [image] = [...splitModule(ir(twoSources), { mode: 'none', policy: 'design' })];
    expect(defined(image!.module)).toEqual(['K0', 'foo', 'bar', 'K1']);
  });

  // llvm-spirv declares Float64 for a module holding any double, used or not, and a driver
  // without fp64 then refuses the whole image: a double global must not reach images whose
  // kernels do not use fp64.
  const doubleGlobals = `
@D = addrspace(1) global double 1.0, align 8
@S = addrspace(1) global { i32, [2 x double] } zeroinitializer, align 8
@I = addrspace(1) global i32 0, align 4

define spir_kernel void @Plain() #0 {
  store i32 1, ptr addrspace(1) @I, align 4
  ret void
}
define spir_kernel void @UsesD() #0 !sycl_used_aspects !1 {
  %d = load double, ptr addrspace(1) @D, align 8
  ret void
}
define spir_kernel void @OtherFp64() #0 !sycl_used_aspects !1 {
  ret void
}
define spir_kernel void @TakesS() #0 {
  store ptr addrspace(1) @S, ptr addrspace(1) null, align 8
  ret void
}

attributes #0 = { "sycl-module-id"="a.cpp" }
!sycl_aspects = !{!0}
!0 = !{!"fp64", i32 6}
!1 = !{i32 6}
`;

  it('with the design policy, puts a global holding a double only into images that use fp64 or the global', () => {
    const globalsOf = (images: ReturnType<typeof splitModule>) =>
      Object.fromEntries([...images].map((i) => [i.entryPoints.map((f) => f.name).join(','), i.module.globals.map((g) => g.name).sort()]));
    expect(globalsOf(splitModule(ir(doubleGlobals), { mode: 'kernel', policy: 'design' }))).toEqual({
      Plain: ['I'],
      UsesD: ['D', 'I', 'S'],
      OtherFp64: ['D', 'I', 'S'],
      TakesS: ['I', 'S'],
    });
    // Upstream puts every non-discardable global into every image.
    expect(Object.values(globalsOf(splitModule(ir(doubleGlobals), { mode: 'kernel' })))).toEqual([
      ['D', 'I', 'S'],
      ['D', 'I', 'S'],
      ['D', 'I', 'S'],
      ['D', 'I', 'S'],
    ]);
  });

  it('turns definitions the image does not hold into external declarations without comdat', () => {
    // The SYCL half of an ESIMD split leaves ESIMD functions out.
    const m = ir(`
$c = comdat any
define spir_kernel void @k() #0 { call spir_func void @f() ret void }
define spir_kernel void @e() #0 !sycl_explicit_simd !0 { call spir_func void @f() ret void }
define linkonce_odr spir_func void @f() comdat($c) !sycl_explicit_simd !0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{}
`);
    const image = [...splitModule(m, { mode: 'source', splitEsimd: true })][1]!;
    expect(image.esimd).toBe(false);
    const text = printModule(image.module);
    expect(text).toContain('declare spir_func void @f()');
    expect(text).not.toContain('comdat');
  });

  it('follows indirect calls to referenced-indirectly functions of the same type only', () => {
    const m = ir(`
define spir_kernel void @k(ptr %fp) #0 { %r = call i32 %fp(i32 1) ret void }
define spir_func i32 @same(i32 %a) #1 { ret i32 %a }
define spir_func i32 @plain(i32 %a) { ret i32 %a }
define spir_func void @other() #1 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
attributes #1 = { "referenced-indirectly" }
`);
    const image = [...splitModule(m, { mode: 'kernel' })][0]!;
    expect(defined(image.module)).toEqual(['k', 'same']);
  });

  it('follows function addresses stored in globals and constant expressions', () => {
    const m = ir(`
@table = internal addrspace(1) constant [1 x ptr addrspace(4)] [ptr addrspace(4) addrspacecast (ptr @target to ptr addrspace(4))]
define spir_kernel void @k() #0 { %x = load ptr addrspace(4), ptr addrspace(1) @table ret void }
define internal spir_func void @target() { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const image = [...splitModule(m, { mode: 'kernel' })][0]!;
    expect(defined(image.module)).toEqual(['k', 'target']);
  });

  it('nulls metadata that refers to functions an image lacks and drops their execution modes', () => {
    const m = ir(`
define spir_kernel void @k0() #0 { ret void }
define spir_kernel void @k1() #0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!spirv.ExecutionMode = !{!0, !1}
!other = !{!2}
!0 = !{ptr @k0, i32 17, i32 1, i32 1, i32 1}
!1 = !{ptr @k1, i32 17, i32 2, i32 1, i32 1}
!2 = !{ptr @k1}
`);
    const [k1, k0] = [...splitModule(m, { mode: 'kernel' })];
    const text = printModule(k0!.module);
    expect(text).toContain('!spirv.ExecutionMode = !{!0}');
    expect(text).toContain('!{ptr @k0, i32 17, i32 1, i32 1, i32 1}');
    expect(text).toContain('!1 = !{null}');
    expect(printModule(k1!.module)).toContain('!{ptr @k1, i32 17, i32 2, i32 1, i32 1}');
  });

  it('keeps the execution modes and registered kernels of an image in input order, looking up only its own functions', () => {
    const m = ir(`
define spir_kernel void @k0() #0 {
  call spir_func void @k2()
  ret void
}
define spir_kernel void @k1() #0 { ret void }
define spir_func void @k2() #0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!spirv.ExecutionMode = !{!0, !1, !2, !3, !4}
!sycl_registered_kernels = !{!5}
!0 = !{ptr @k2, i32 31, i32 1}
!1 = !{ptr @k1, i32 17, i32 2, i32 1, i32 1}
!2 = !{!"no function here", i32 7}
!3 = !{ptr @k0, i32 17, i32 1, i32 1, i32 1}
!4 = !{ptr @k2, i32 35, i32 3}
!5 = !{!6, !7, !8, !9}
!6 = !{!"n1", !"k1"}
!7 = !{!"malformed"}
!8 = !{!"n0", !"k0"}
!9 = !{!"n2", !"k2"}
`);
    const images = new Map([...splitModule(m, { mode: 'kernel', emitOnlyKernelsAsEntryPoints: true })].map((i) => [i.entryPoints[0]!.name, printModule(i.module)]));
    const k0 = images.get('k0')!;
    expect(k0).toContain('!spirv.ExecutionMode = !{!0, !1, !2, !3}');
    expect(k0).toMatch(/!0 = !\{ptr @k2, i32 31, i32 1\}\n!1 = !\{!"no function here", i32 7\}\n!2 = !\{ptr @k0, i32 17, i32 1, i32 1, i32 1\}\n!3 = !\{ptr @k2, i32 35, i32 3\}/);
    expect(k0).toMatch(/!sycl_registered_kernels = !\{!4\}[\s\S]*!4 = !\{!5, !6, !7\}\n!5 = !\{!"malformed"\}\n!6 = !\{!"n0", !"k0"\}\n!7 = !\{!"n2", !"k2"\}/);
    const k1 = images.get('k1')!;
    expect(k1).toContain('!spirv.ExecutionMode = !{!0, !1}');
    expect(k1).toMatch(/!2 = !\{!3, !4\}\n!3 = !\{!"n1", !"k1"\}\n!4 = !\{!"malformed"\}/);
  });

  it('does not change the input module', () => {
    const m = ir(twoSources);
    const before = printModule(m);
    for (const image of splitModule(m, { mode: 'kernel' })) printModule(image.module);
    expect(printModule(m)).toBe(before);
    expect(m.functions.every((f) => f.parent === m)).toBe(true);
  });

  it('ignores @llvm.used, which would otherwise pull every kernel into every image', () => {
    const m = ir(`
@llvm.used = appending global [2 x ptr] [ptr @a, ptr @b], section "llvm.metadata"
define weak_odr spir_kernel void @a() { ret void }
define weak_odr spir_kernel void @b() { ret void }
`);
    const images = [...splitModule(m, { mode: 'kernel' })];
    expect(images.map((i) => defined(i.module))).toEqual([['b'], ['a']]);
    expect(printModule(images[0]!.module)).not.toContain('llvm.used');
    expect(planSplit(m, { mode: 'none' }).modified).toBe(true);
  });

  it('defines virtual functions only in images of their set, elsewhere it declares them', () => {
    const m = ir(`
$foo = comdat any
@vtable = linkonce_odr addrspace(1) constant { [1 x ptr addrspace(4)] } { [1 x ptr addrspace(4)] [ptr addrspace(4) addrspacecast (ptr @foo to ptr addrspace(4))] }
define linkonce_odr spir_func void @foo() #0 comdat { ret void }
define weak_odr spir_kernel void @kernel(ptr addrspace(1) %p) #1 {
  store ptr addrspace(1) @vtable, ptr addrspace(1) %p
  ret void
}
attributes #0 = { "indirectly-callable"="set-foo" "sycl-module-id"="v.cpp" }
attributes #1 = { "sycl-module-id"="v.cpp" "calls-indirectly"="set-foo" }
`);
    const [vf, kernel] = [...splitModule(m, { mode: 'auto' })];
    expect(printModule(vf!.module)).toContain('define spir_func void @foo()');
    expect(printModule(kernel!.module)).toContain('declare spir_func void @foo()');
  });

  it('splits SYCL and ESIMD entry points of a group with -split-esimd, ESIMD first, same id', () => {
    const m = ir(`
define spir_kernel void @sycl() #0 { ret void }
define spir_kernel void @esimd() #0 !sycl_explicit_simd !0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{}
`);
    const images = [...splitModule(m, { mode: 'source', splitEsimd: true })];
    expect(images.map((i) => [i.id, i.esimd, i.entryPoints.map((f) => f.name)])).toEqual([
      [0, true, ['esimd']],
      [0, false, ['sycl']],
    ]);
  });

  it('leaves importable SYCL_EXTERNAL functions as declarations with allowDeviceImageDependencies', () => {
    const m = ir(`
define spir_kernel void @k() #0 { call spir_func void @ext() call spir_func void @local() ret void }
define spir_func void @ext() #0 { ret void }
define internal spir_func void @local() { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const [k, ext] = [...splitModule(m, { mode: 'kernel', allowDeviceImageDependencies: true })];
    expect(defined(k!.module)).toEqual(['k', 'local']);
    expect(declared(k!.module)).toEqual(['ext']);
    expect(defined(ext!.module)).toEqual(['ext']);
    expect(defined([...splitModule(m, { mode: 'kernel' })][0]!.module)).toEqual(['k', 'ext', 'local']);
  });

  it('internalizes what images define besides kernels and importable functions with allowDeviceImageDependencies', () => {
    const m = ir(`
$solo = comdat any
$pair = comdat any
define weak_odr spir_kernel void @k() #0 { call spir_func void @ext() call spir_func void @helper() call spir_func void @solo() call spir_func void @pairA() ret void }
define dso_local spir_func void @ext() #0 { call spir_func void @helper() ret void }
define dso_local spir_func void @helper() { ret void }
define linkonce_odr hidden spir_func void @solo() comdat { ret void }
define linkonce_odr spir_func void @pairA() comdat($pair) { call spir_func void @pairB() ret void }
define linkonce_odr spir_func void @pairB() comdat($pair) { ret void }
define dso_local spir_func void @unreached() { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const [k, ext] = [...splitModule(m, { mode: 'kernel', allowDeviceImageDependencies: true })];
    const text = printModule(k!.module);
    expect(text).toContain('define weak_odr spir_kernel void @k()');
    expect(text).toContain('define internal spir_func void @helper()');
    // one member: the comdat goes; two internalized members: it stays
    expect(text).toContain('define internal spir_func void @solo() {');
    expect(text).toContain('define internal spir_func void @pairA() comdat($pair)');
    expect(text).toContain('declare dso_local spir_func void @ext()');
    expect(printModule(ext!.module)).toContain('define dso_local spir_func void @ext()');
    expect(printModule(ext!.module)).toContain('define internal spir_func void @helper()');
    // the input is untouched, materialize() gives the same linkage
    expect(m.getFunction('helper')!.linkage).toBe('external');
    expect(printModule(k!.materialize())).toContain('define internal spir_func void @helper()');
    // without dynamic linking, nothing changes linkage and unreached definitions stay in a whole-module image
    expect(printModule([...splitModule(m, { mode: 'kernel' })][0]!.module)).toContain('define dso_local spir_func void @helper()');
    expect(defined([...splitModule(m, { mode: 'none' })][0]!.module)).toContain('unreached');
    expect(defined([...splitModule(m, { mode: 'none', allowDeviceImageDependencies: true })][0]!.module)).not.toContain('unreached');
  });

  it('never bundles kernels that reach different undefined imports under dynamic linking with the design policy', () => {
    const m = ir(`
define spir_kernel void @Uses() #0 { call spir_func void @helper() ret void }
define spir_kernel void @UsesToo() #0 { call spir_func void @libfn() ret void }
define spir_kernel void @Plain() #0 { ret void }
define spir_kernel void @ViaExternal() #0 { call spir_func void @ext() ret void }
define internal spir_func void @helper() { call spir_func void @libfn() ret void }
define dso_local spir_func void @ext() #0 { call spir_func void @libfn() call spir_func void @_Z8__insidev() ret void }
declare spir_func void @libfn()
declare spir_func void @_Z8__insidev()
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const entries = (options: Parameters<typeof splitModule>[1]) => [...splitModule(m, options)].map((i) => i.entryPoints.map((f) => f.name));
    // libfn reached directly, through a local helper or through a SYCL_EXTERNAL definition: one image; the rest another.
    expect(entries({ mode: 'source', policy: 'design', allowDeviceImageDependencies: true, emitOnlyKernelsAsEntryPoints: true })).toEqual([
      ['Uses', 'UsesToo', 'ViaExternal'],
      ['Plain'],
    ]);
    // Not without dynamic linking, nor with intel/llvm's grouping.
    expect(entries({ mode: 'source', policy: 'design', emitOnlyKernelsAsEntryPoints: true })).toEqual([['Uses', 'UsesToo', 'Plain', 'ViaExternal']]);
    expect(entries({ mode: 'source', allowDeviceImageDependencies: true, emitOnlyKernelsAsEntryPoints: true })).toEqual([['Uses', 'UsesToo', 'Plain', 'ViaExternal']]);
  });

  it('materialize() gives a copy that can change without touching the view or the input', () => {
    const m = ir(twoSources);
    const image = [...splitModule(m, { mode: 'source' })][1]!;
    const copy = image.materialize();
    copy.getFunction('foo')!.name = 'renamed';
    expect(defined(image.module)).toEqual(['K0', 'foo', 'bar']);
    expect(m.getFunction('foo')).toBeDefined();
    expect(printModule(copy)).toContain('@renamed');
  });
});

/**
 * The demo's device program: three translation units as DPC++'s device compiler emits them
 * (`clang++ -fsycl -fsycl-device-only -g -O0 -S -emit-llvm`, opaque pointers, LLVM 16 syntax),
 * before any syclkit pass. They are what this SYCL application would give:
 *
 * ```c++
 * // nbody.cpp
 * float advance(float v, float dt) { return v * dt; }
 * float damp(float v) { return v * 0.99; }                 // 0.99 is a double: fp64
 * q.parallel_for<class Integrate>(n, [=](id<1> i) { pos[i] += advance(vel[i], dt); });
 * q.parallel_for<class ScaleVelocity>(n, [=](id<1> i) { vel[i] = damp(vel[i]); });
 * q.parallel_for<class EnergyCounters>(n, [=](id<1> i) {
 *   sycl::atomic_ref<unsigned long, ...> ref(*hits); ref.fetch_add(1); });       // atomic64
 * q.parallel_for<class SubgroupReduce>(nd, [=](nd_item<1> it)
 *     [[sycl::reqd_sub_group_size(8)]] { ... reduce_over_group(...) ... });
 *
 * // shade.cpp
 * SYCL_EXTERNAL float tonemap(float);
 * int bucket(float v, int bins) { return v * (bins / 2.0); }  // fp64 again
 * q.parallel_for<class ShadePixels>(n, [=](id<1> i) {
 *   px[i] = tonemap(px[i]);
 *   if_device_has<aspect::fp16>([&] { sycl::half h = px[i]; px[i] = h; });     // device_if
 * });
 * q.parallel_for<class HalfHistogram>(n, [=](id<1> i) [[sycl::device_has(aspect::fp16)]] {
 *   sycl::half h = in[i]; hist[bucket(h, 64)]++; });       // declares fp16, uses fp64 too
 *
 * // tonemap.cpp
 * SYCL_EXTERNAL float tonemap(float x) { return sycl::pow((double)x, 1.0 / 2.2); }
 * ```
 */

/** One translation unit: a file name and its device IR. */
export interface SampleUnit {
  readonly file: string;
  readonly text: string;
}

const HEADER = (source: string): string => `; ModuleID = '${source}'
source_filename = "${source}"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"
`;

/** The `!sycl_aspects` table clang emits (aspects.def order; the first 29 enumerators). */
const ASPECTS = [
  'host', 'cpu', 'gpu', 'accelerator', 'custom', 'fp16', 'fp64', 'int64_base_atomics', 'int64_extended_atomics', 'image',
  'online_compiler', 'online_linker', 'queue_profiling', 'usm_device_allocations', 'usm_host_allocations',
  'usm_shared_allocations', 'usm_restricted_shared_allocations', 'usm_system_allocations', 'ext_intel_pci_address',
  'ext_intel_gpu_eu_count', 'ext_intel_gpu_eu_simd_width', 'ext_intel_gpu_slices', 'ext_intel_gpu_subslices_per_slice',
  'ext_intel_gpu_eu_count_per_subslice', 'ext_intel_max_mem_bandwidth', 'ext_intel_mem_channel',
  'usm_atomic_host_allocations', 'usm_atomic_shared_allocations', 'atomic64',
];

/** `!sycl_aspects = !{!first, ...}` and its nodes, numbered from `first`. */
function aspectTable(first: number): string {
  const ids = ASPECTS.map((_, i) => `!${first + i}`).join(', ');
  const nodes = ASPECTS.map((name, i) => `!${first + i} = !{!"${name}", i32 ${i}}`).join('\n');
  return `!sycl_aspects = !{${ids}}\n${nodes}\n`;
}

const NBODY = `${HEADER('nbody.cpp')}
%class.anon = type { ptr addrspace(1), ptr addrspace(1), float }
%class.anon.0 = type { ptr addrspace(1) }
%class.anon.1 = type { ptr addrspace(1) }
%class.anon.2 = type { ptr addrspace(1), ptr addrspace(1) }
%"class.sycl::_V1::detail::atomic_ref_impl" = type { ptr addrspace(1) }
%"class.sycl::_V1::atomic_ref" = type { %"class.sycl::_V1::detail::atomic_ref_impl" }

$_ZTS9Integrate = comdat any

$_ZTS13ScaleVelocity = comdat any

$_ZTS14EnergyCounters = comdat any

$_ZTS14SubgroupReduce = comdat any

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; Function Attrs: convergent mustprogress noinline norecurse optnone
define weak_odr dso_local spir_kernel void @_ZTS9Integrate(ptr addrspace(1) noundef align 4 %_arg_pos, ptr addrspace(1) noundef align 4 %_arg_vel, float noundef %_arg_dt) #0 comdat !kernel_arg_buffer_location !5 !sycl_kernel_omit_args !6 !dbg !10 {
entry:
  %__SYCLKernel = alloca %class.anon, align 8
  %__SYCLKernel.ascast = addrspacecast ptr %__SYCLKernel to ptr addrspace(4)
  store ptr addrspace(1) %_arg_pos, ptr addrspace(4) %__SYCLKernel.ascast, align 8
  %vel = getelementptr inbounds %class.anon, ptr addrspace(4) %__SYCLKernel.ascast, i64 0, i32 1
  store ptr addrspace(1) %_arg_vel, ptr addrspace(4) %vel, align 8
  %dt = getelementptr inbounds %class.anon, ptr addrspace(4) %__SYCLKernel.ascast, i64 0, i32 2
  store float %_arg_dt, ptr addrspace(4) %dt, align 8
  call spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(24) %__SYCLKernel.ascast) #4, !dbg !13
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(24) %this) #1 align 2 !dbg !14 {
entry:
  %0 = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %0, i64 0
  %pos = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  %vel.addr = getelementptr inbounds %class.anon, ptr addrspace(4) %this, i64 0, i32 1
  %vel = load ptr addrspace(1), ptr addrspace(4) %vel.addr, align 8
  %dt.addr = getelementptr inbounds %class.anon, ptr addrspace(4) %this, i64 0, i32 2
  %dt = load float, ptr addrspace(4) %dt.addr, align 8
  %v.ptr = getelementptr inbounds float, ptr addrspace(1) %vel, i64 %i
  %v = load float, ptr addrspace(1) %v.ptr, align 4
  %step = call spir_func noundef float @_Z7advanceff(float noundef %v, float noundef %dt) #4, !dbg !15
  %p.ptr = getelementptr inbounds float, ptr addrspace(1) %pos, i64 %i
  %p = load float, ptr addrspace(1) %p.ptr, align 4
  %p.new = fadd float %p, %step
  store float %p.new, ptr addrspace(1) %p.ptr, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define linkonce_odr dso_local spir_func noundef float @_Z7advanceff(float noundef %v, float noundef %dt) #2 !dbg !16 {
entry:
  %mul = fmul float %v, %dt, !dbg !17
  ret float %mul
}

; Function Attrs: convergent mustprogress noinline norecurse optnone
define weak_odr dso_local spir_kernel void @_ZTS13ScaleVelocity(ptr addrspace(1) noundef align 4 %_arg_vel) #0 comdat !kernel_arg_buffer_location !18 !sycl_kernel_omit_args !19 !dbg !20 {
entry:
  %__SYCLKernel = alloca %class.anon.0, align 8
  %__SYCLKernel.ascast = addrspacecast ptr %__SYCLKernel to ptr addrspace(4)
  store ptr addrspace(1) %_arg_vel, ptr addrspace(4) %__SYCLKernel.ascast, align 8
  call spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %__SYCLKernel.ascast) #4, !dbg !21
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %this) #1 align 2 !dbg !22 {
entry:
  %0 = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %0, i64 0
  %vel = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  %v.ptr = getelementptr inbounds float, ptr addrspace(1) %vel, i64 %i
  %v = load float, ptr addrspace(1) %v.ptr, align 4
  %damped = call spir_func noundef float @_Z4dampf(float noundef %v) #4, !dbg !23
  store float %damped, ptr addrspace(1) %v.ptr, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define linkonce_odr dso_local spir_func noundef float @_Z4dampf(float noundef %v) #2 !dbg !24 {
entry:
  %conv = fpext float %v to double, !dbg !25
  %mul = fmul double %conv, 9.900000e-01, !dbg !26
  %conv1 = fptrunc double %mul to float, !dbg !27
  ret float %conv1
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define linkonce_odr dso_local spir_func noundef double @_Z6lengthdd(double noundef %x, double noundef %y) #2 {
entry:
  %xx = fmul double %x, %x
  %yy = fmul double %y, %y
  %sum = fadd double %xx, %yy
  ret double %sum
}

; Function Attrs: convergent mustprogress noinline norecurse optnone
define weak_odr dso_local spir_kernel void @_ZTS14EnergyCounters(ptr addrspace(1) noundef align 8 %_arg_hits) #0 comdat !kernel_arg_buffer_location !18 !sycl_kernel_omit_args !19 !dbg !28 {
entry:
  %__SYCLKernel = alloca %class.anon.1, align 8
  %__SYCLKernel.ascast = addrspacecast ptr %__SYCLKernel to ptr addrspace(4)
  store ptr addrspace(1) %_arg_hits, ptr addrspace(4) %__SYCLKernel.ascast, align 8
  call spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE1_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %__SYCLKernel.ascast) #4, !dbg !29
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE1_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %this) #1 align 2 !dbg !30 {
entry:
  %ref = alloca %"class.sycl::_V1::atomic_ref", align 8, !dbg !31
  %ref.ascast = addrspacecast ptr %ref to ptr addrspace(4)
  %hits = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  store ptr addrspace(1) %hits, ptr addrspace(4) %ref.ascast, align 8
  %old = call spir_func noundef i64 @_ZNK4sycl3_V110atomic_refImLNS0_12memory_orderE0ELNS0_12memory_scopeE2ELNS0_6access13address_spaceE1EE9fetch_addEmS2_S3_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %ref.ascast, i64 noundef 1, i32 noundef 0, i32 noundef 2) #4, !dbg !32
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define linkonce_odr dso_local spir_func noundef i64 @_ZNK4sycl3_V110atomic_refImLNS0_12memory_orderE0ELNS0_12memory_scopeE2ELNS0_6access13address_spaceE1EE9fetch_addEmS2_S3_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %this, i64 noundef %operand, i32 noundef %order, i32 noundef %scope) #2 align 2 {
entry:
  %ptr = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  %call = call spir_func noundef i64 @_Z18__spirv_AtomicIAddPU3AS1mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(ptr addrspace(1) noundef %ptr, i32 noundef 1, i32 noundef 912, i64 noundef %operand) #4
  ret i64 %call
}

; Function Attrs: convergent nounwind
declare dso_local spir_func noundef i64 @_Z18__spirv_AtomicIAddPU3AS1mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm(ptr addrspace(1) noundef, i32 noundef, i32 noundef, i64 noundef) #3

; Function Attrs: convergent mustprogress noinline norecurse optnone
define weak_odr dso_local spir_kernel void @_ZTS14SubgroupReduce(ptr addrspace(1) noundef align 4 %_arg_in, ptr addrspace(1) noundef align 4 %_arg_out) #0 comdat !kernel_arg_buffer_location !5 !sycl_kernel_omit_args !33 !intel_reqd_sub_group_size !34 !dbg !35 {
entry:
  %__SYCLKernel = alloca %class.anon.2, align 8
  %__SYCLKernel.ascast = addrspacecast ptr %__SYCLKernel to ptr addrspace(4)
  store ptr addrspace(1) %_arg_in, ptr addrspace(4) %__SYCLKernel.ascast, align 8
  %out = getelementptr inbounds %class.anon.2, ptr addrspace(4) %__SYCLKernel.ascast, i64 0, i32 1
  store ptr addrspace(1) %_arg_out, ptr addrspace(4) %out, align 8
  call spir_func void @_ZZ4mainENKUlN4sycl3_V17nd_itemILi1EEEE_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(16) %__SYCLKernel.ascast) #4, !dbg !36
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZ4mainENKUlN4sycl3_V17nd_itemILi1EEEE_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(16) %this) #1 align 2 !dbg !37 {
entry:
  %0 = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %0, i64 0
  %in = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  %x.ptr = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %x = load float, ptr addrspace(1) %x.ptr, align 4
  %sum = call spir_func noundef float @_Z27__spirv_GroupNonUniformFAddiif(i32 noundef 3, i32 noundef 0, float noundef %x) #4
  %out.addr = getelementptr inbounds %class.anon.2, ptr addrspace(4) %this, i64 0, i32 1
  %out = load ptr addrspace(1), ptr addrspace(4) %out.addr, align 8
  %y.ptr = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
  store float %sum, ptr addrspace(1) %y.ptr, align 4
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func noundef float @_Z27__spirv_GroupNonUniformFAddiif(i32 noundef, i32 noundef, float noundef) #3

attributes #0 = { convergent mustprogress noinline norecurse optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="nbody.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind }
attributes #4 = { convergent }

!llvm.dbg.cu = !{!0}
!opencl.spir.version = !{!3}
!spirv.Source = !{!4}
!llvm.module.flags = !{!7, !8, !9}
!sycl_types_that_use_aspects = !{!38}
${aspectTable(40)}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang version 17.0.0 (intel/llvm)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "nbody.cpp", directory: "/work/app")
!2 = !{}
!3 = !{i32 1, i32 2}
!4 = !{i32 4, i32 100000}
!5 = !{i32 -1, i32 -1, i32 -1}
!6 = !{i1 false, i1 false, i1 false}
!7 = !{i32 7, !"Dwarf Version", i32 4}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 1, !"wchar_size", i32 4}
!10 = distinct !DISubprogram(name: "_ZTS9Integrate", scope: !1, file: !1, line: 20, type: !11, scopeLine: 20, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!11 = !DISubroutineType(types: !12)
!12 = !{null}
!13 = !DILocation(line: 20, column: 5, scope: !10)
!14 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_", scope: !1, file: !1, line: 20, type: !11, scopeLine: 20, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!15 = !DILocation(line: 21, column: 17, scope: !14)
!16 = distinct !DISubprogram(name: "advance", linkageName: "_Z7advanceff", scope: !1, file: !1, line: 5, type: !11, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!17 = !DILocation(line: 5, column: 45, scope: !16)
!18 = !{i32 -1}
!19 = !{i1 false}
!20 = distinct !DISubprogram(name: "_ZTS13ScaleVelocity", scope: !1, file: !1, line: 24, type: !11, scopeLine: 24, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!21 = !DILocation(line: 24, column: 5, scope: !20)
!22 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_", scope: !1, file: !1, line: 24, type: !11, scopeLine: 24, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!23 = !DILocation(line: 25, column: 16, scope: !22)
!24 = distinct !DISubprogram(name: "damp", linkageName: "_Z4dampf", scope: !1, file: !1, line: 6, type: !11, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!25 = !DILocation(line: 6, column: 37, scope: !24)
!26 = !DILocation(line: 6, column: 39, scope: !24)
!27 = !DILocation(line: 6, column: 30, scope: !24)
!28 = distinct !DISubprogram(name: "_ZTS14EnergyCounters", scope: !1, file: !1, line: 28, type: !11, scopeLine: 28, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!29 = !DILocation(line: 28, column: 5, scope: !28)
!30 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZ4mainENKUlN4sycl3_V12idILi1EEEE1_clES2_", scope: !1, file: !1, line: 28, type: !11, scopeLine: 28, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!31 = !DILocation(line: 29, column: 58, scope: !30)
!32 = !DILocation(line: 29, column: 70, scope: !30)
!33 = !{i1 false, i1 false}
!34 = !{i32 8}
!35 = distinct !DISubprogram(name: "_ZTS14SubgroupReduce", scope: !1, file: !1, line: 31, type: !11, scopeLine: 31, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!36 = !DILocation(line: 31, column: 5, scope: !35)
!37 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZ4mainENKUlN4sycl3_V17nd_itemILi1EEEE_clES2_", scope: !1, file: !1, line: 32, type: !11, scopeLine: 32, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!38 = !{!"class.sycl::_V1::detail::atomic_ref_impl", i32 28}
`;

const SHADE = `${HEADER('shade.cpp')}
%class.anon = type { ptr addrspace(1) }
%class.anon.0 = type { ptr addrspace(4), ptr addrspace(4) }
%class.anon.1 = type { ptr addrspace(1), ptr addrspace(1) }
%"struct.std::integer_sequence" = type { i8 }
%"class.sycl::_V1::detail::half_impl::half" = type { half }

$_ZTS11ShadePixels = comdat any

$_ZTS13HalfHistogram = comdat any

@__spirv_BuiltInGlobalInvocationId = external dso_local local_unnamed_addr addrspace(1) constant <3 x i64>, align 32

; Function Attrs: convergent mustprogress noinline norecurse optnone
define weak_odr dso_local spir_kernel void @_ZTS11ShadePixels(ptr addrspace(1) noundef align 4 %_arg_px) #0 comdat !kernel_arg_buffer_location !5 !sycl_kernel_omit_args !6 !dbg !10 {
entry:
  %__SYCLKernel = alloca %class.anon, align 8
  %__SYCLKernel.ascast = addrspacecast ptr %__SYCLKernel to ptr addrspace(4)
  store ptr addrspace(1) %_arg_px, ptr addrspace(4) %__SYCLKernel.ascast, align 8
  call spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %__SYCLKernel.ascast) #5, !dbg !13
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(8) %this) #1 align 2 !dbg !14 {
entry:
  %p = alloca ptr addrspace(4), align 8
  %agg.tmp = alloca %class.anon.0, align 8
  %seq = alloca %"struct.std::integer_sequence", align 1
  %0 = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %0, i64 0
  %px = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  %x.ptr = getelementptr inbounds float, ptr addrspace(1) %px, i64 %i
  %x.ptr.ascast = addrspacecast ptr addrspace(1) %x.ptr to ptr addrspace(4)
  %x = load float, ptr addrspace(4) %x.ptr.ascast, align 4
  %mapped = call spir_func noundef float @_Z7tonemapf(float noundef %x) #5, !dbg !15
  store float %mapped, ptr addrspace(4) %x.ptr.ascast, align 4
  store ptr addrspace(4) %x.ptr.ascast, ptr %p, align 8
  %p.ascast = addrspacecast ptr %p to ptr addrspace(4)
  store ptr addrspace(4) %p.ascast, ptr %agg.tmp, align 8
  call spir_func void @_ZN4sycl3_V13ext6oneapi12experimental6detail38call_if_on_device_conditionally_helperIZZ4mainENKUlNS0_2idILi1EEEE_clES6_EUlvE_JLNS0_6aspectE5EEEEvOT_St16integer_sequenceIiJXspT0_EEE(ptr noundef byval(%class.anon.0) align 8 %agg.tmp, ptr noundef byval(%"struct.std::integer_sequence") align 1 %seq) #5, !dbg !16
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZN4sycl3_V13ext6oneapi12experimental6detail38call_if_on_device_conditionally_helperIZZ4mainENKUlNS0_2idILi1EEEE_clES6_EUlvE_JLNS0_6aspectE5EEEEvOT_St16integer_sequenceIiJXspT0_EEE(ptr noundef byval(%class.anon.0) align 8 %fn, ptr noundef byval(%"struct.std::integer_sequence") align 1 %0) #1 !dbg !34 {
entry:
  %agg.tmp = alloca %class.anon.0, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %agg.tmp, ptr align 8 %fn, i64 16, i1 false)
  call spir_func void @_ZN4sycl3_V13ext6oneapi12experimental6detail31call_if_on_device_conditionallyIZZ4mainENKUlNS0_2idILi1EEEE_clES6_EUlvE_JLi4294967295ELi5EEEEvOT_(ptr noundef byval(%class.anon.0) align 8 %agg.tmp, i32 noundef -1, i32 noundef 5) #5, !dbg !36
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZN4sycl3_V13ext6oneapi12experimental6detail31call_if_on_device_conditionallyIZZ4mainENKUlNS0_2idILi1EEEE_clES6_EUlvE_JLi4294967295ELi5EEEEvOT_(ptr noundef byval(%class.anon.0) align 8 %fn, i32 noundef %0, i32 noundef %1) #2 {
entry:
  %fn.ascast = addrspacecast ptr %fn to ptr addrspace(4)
  call spir_func void @_ZZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_ENKUlvE_clEv(ptr addrspace(4) noundef align 8 dereferenceable_or_null(16) %fn.ascast) #5
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_ENKUlvE_clEv(ptr addrspace(4) noundef align 8 dereferenceable_or_null(16) %this) #1 align 2 !dbg !17 {
entry:
  %h = alloca %"class.sycl::_V1::detail::half_impl::half", align 2, !dbg !18
  %p = load ptr addrspace(4), ptr addrspace(4) %this, align 8
  %x.ptr = load ptr addrspace(4), ptr addrspace(4) %p, align 8
  %x = load float, ptr addrspace(4) %x.ptr, align 4
  %hv = fptrunc float %x to half
  store half %hv, ptr %h, align 2
  %back = load half, ptr %h, align 2
  %y = fpext half %back to float
  store float %y, ptr addrspace(4) %x.ptr, align 4
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local spir_func noundef float @_Z7tonemapf(float noundef) #3

; Function Attrs: argmemonly nocallback nofree nounwind willreturn
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #4

; Function Attrs: convergent mustprogress noinline norecurse optnone
define weak_odr dso_local spir_kernel void @_ZTS13HalfHistogram(ptr addrspace(1) noundef align 2 %_arg_in, ptr addrspace(1) noundef align 4 %_arg_hist) #0 comdat !kernel_arg_buffer_location !19 !sycl_kernel_omit_args !20 !sycl_declared_aspects !21 !dbg !22 {
entry:
  %__SYCLKernel = alloca %class.anon.1, align 8
  %__SYCLKernel.ascast = addrspacecast ptr %__SYCLKernel to ptr addrspace(4)
  store ptr addrspace(1) %_arg_in, ptr addrspace(4) %__SYCLKernel.ascast, align 8
  %hist = getelementptr inbounds %class.anon.1, ptr addrspace(4) %__SYCLKernel.ascast, i64 0, i32 1
  store ptr addrspace(1) %_arg_hist, ptr addrspace(4) %hist, align 8
  call spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(16) %__SYCLKernel.ascast) #5, !dbg !23
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define internal spir_func void @_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_(ptr addrspace(4) noundef align 8 dereferenceable_or_null(16) %this) #1 align 2 !sycl_declared_aspects !21 !dbg !24 {
entry:
  %h = alloca %"class.sycl::_V1::detail::half_impl::half", align 2, !dbg !25
  %0 = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId, align 32
  %i = extractelement <3 x i64> %0, i64 0
  %in = load ptr addrspace(1), ptr addrspace(4) %this, align 8
  %h.ptr = getelementptr inbounds %"class.sycl::_V1::detail::half_impl::half", ptr addrspace(1) %in, i64 %i
  %hv = load half, ptr addrspace(1) %h.ptr, align 2
  store half %hv, ptr %h, align 2
  %v = fpext half %hv to float
  %b = call spir_func noundef i32 @_Z6bucketfi(float noundef %v, i32 noundef 64) #5, !dbg !26
  %hist.addr = getelementptr inbounds %class.anon.1, ptr addrspace(4) %this, i64 0, i32 1
  %hist = load ptr addrspace(1), ptr addrspace(4) %hist.addr, align 8
  %idx = sext i32 %b to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %hist, i64 %idx
  %n = load i32, ptr addrspace(1) %slot, align 4
  %n1 = add nsw i32 %n, 1
  store i32 %n1, ptr addrspace(1) %slot, align 4
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define linkonce_odr dso_local spir_func noundef i32 @_Z6bucketfi(float noundef %v, i32 noundef %bins) #1 !dbg !27 {
entry:
  %conv = fpext float %v to double, !dbg !28
  %conv1 = sitofp i32 %bins to double, !dbg !29
  %div = fdiv double %conv1, 2.000000e+00, !dbg !30
  %mul = fmul double %conv, %div, !dbg !31
  %conv2 = fptosi double %mul to i32, !dbg !32
  ret i32 %conv2
}

attributes #0 = { convergent mustprogress noinline norecurse optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="shade.cpp" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-call-if-on-device-conditionally"="true" }
attributes #3 = { convergent nounwind }
attributes #4 = { argmemonly nocallback nofree nounwind willreturn }
attributes #5 = { convergent }

!llvm.dbg.cu = !{!0}
!opencl.spir.version = !{!3}
!spirv.Source = !{!4}
!llvm.module.flags = !{!7, !8, !9}
!sycl_types_that_use_aspects = !{!33}
${aspectTable(40)}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang version 17.0.0 (intel/llvm)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "shade.cpp", directory: "/work/app")
!2 = !{}
!3 = !{i32 1, i32 2}
!4 = !{i32 4, i32 100000}
!5 = !{i32 -1}
!6 = !{i1 false}
!7 = !{i32 7, !"Dwarf Version", i32 4}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 1, !"wchar_size", i32 4}
!10 = distinct !DISubprogram(name: "_ZTS11ShadePixels", scope: !1, file: !1, line: 14, type: !11, scopeLine: 14, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!11 = !DISubroutineType(types: !12)
!12 = !{null}
!13 = !DILocation(line: 14, column: 5, scope: !10)
!14 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_", scope: !1, file: !1, line: 14, type: !11, scopeLine: 14, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!15 = !DILocation(line: 15, column: 13, scope: !14)
!16 = !DILocation(line: 16, column: 3, scope: !14)
!17 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_ENKUlvE_clEv", scope: !1, file: !1, line: 16, type: !11, scopeLine: 16, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!18 = !DILocation(line: 16, column: 42, scope: !17)
!19 = !{i32 -1, i32 -1}
!20 = !{i1 false, i1 false}
!21 = !{i32 5}
!22 = distinct !DISubprogram(name: "_ZTS13HalfHistogram", scope: !1, file: !1, line: 18, type: !11, scopeLine: 18, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!23 = !DILocation(line: 18, column: 5, scope: !22)
!24 = distinct !DISubprogram(name: "operator()", linkageName: "_ZZ4mainENKUlN4sycl3_V12idILi1EEEE0_clES2_", scope: !1, file: !1, line: 18, type: !11, scopeLine: 18, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!25 = !DILocation(line: 19, column: 14, scope: !24)
!26 = !DILocation(line: 19, column: 32, scope: !24)
!27 = distinct !DISubprogram(name: "bucket", linkageName: "_Z6bucketfi", scope: !1, file: !1, line: 11, type: !11, scopeLine: 11, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!28 = !DILocation(line: 11, column: 43, scope: !27)
!29 = !DILocation(line: 11, column: 48, scope: !27)
!30 = !DILocation(line: 11, column: 53, scope: !27)
!31 = !DILocation(line: 11, column: 45, scope: !27)
!32 = !DILocation(line: 11, column: 36, scope: !27)
!33 = !{!"class.sycl::_V1::detail::half_impl::half", i32 5}
!34 = distinct !DISubprogram(name: "call_if_on_device_conditionally_helper", linkageName: "_ZN4sycl3_V13ext6oneapi12experimental6detail38call_if_on_device_conditionally_helperIZZ4mainENKUlNS0_2idILi1EEEE_clES6_EUlvE_JLNS0_6aspectE5EEEEvOT_St16integer_sequenceIiJXspT0_EEE", scope: !35, file: !35, line: 168, type: !11, scopeLine: 168, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0, retainedNodes: !2)
!35 = !DIFile(filename: "sycl/ext/oneapi/experimental/device_if.hpp", directory: "/opt/intel/oneapi/compiler/include")
!36 = !DILocation(line: 171, column: 3, scope: !34)
`;

const TONEMAP = `${HEADER('tonemap.cpp')}
; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define dso_local spir_func noundef float @_Z7tonemapf(float noundef %x) #0 !dbg !10 {
entry:
  %conv = fpext float %x to double, !dbg !13
  %call = call spir_func noundef double @_Z17__spirv_ocl_powdd(double noundef %conv, double noundef 0x3FDD1745D1745D17) #2, !dbg !14
  %conv1 = fptrunc double %call to float, !dbg !15
  ret float %conv1
}

; Function Attrs: convergent nounwind
declare dso_local spir_func noundef double @_Z17__spirv_ocl_powdd(double noundef, double noundef) #1

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "sycl-module-id"="tonemap.cpp" }
attributes #1 = { convergent nounwind }
attributes #2 = { convergent }

!llvm.dbg.cu = !{!0}
!opencl.spir.version = !{!3}
!spirv.Source = !{!4}
!llvm.module.flags = !{!7, !8, !9}
${aspectTable(40)}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang version 17.0.0 (intel/llvm)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "tonemap.cpp", directory: "/work/app")
!2 = !{}
!3 = !{i32 1, i32 2}
!4 = !{i32 4, i32 100000}
!7 = !{i32 7, !"Dwarf Version", i32 4}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{i32 1, !"wchar_size", i32 4}
!10 = distinct !DISubprogram(name: "tonemap", linkageName: "_Z7tonemapf", scope: !1, file: !1, line: 3, type: !11, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!11 = !DISubroutineType(types: !12)
!12 = !{null}
!13 = !DILocation(line: 3, column: 55, scope: !10)
!14 = !DILocation(line: 3, column: 44, scope: !10)
!15 = !DILocation(line: 3, column: 37, scope: !10)
`;

/** The three translation units, in link order. */
export const SAMPLE_UNITS: readonly SampleUnit[] = [
  { file: 'nbody.ll', text: NBODY },
  { file: 'shade.ll', text: SHADE },
  { file: 'tonemap.ll', text: TONEMAP },
];

/** Kernel names of the sample (`_ZTS` + the kernel name type), for the demo's tables. */
export const SAMPLE_KERNELS = {
  integrate: '_ZTS9Integrate',
  scaleVelocity: '_ZTS13ScaleVelocity',
  energyCounters: '_ZTS14EnergyCounters',
  subgroupReduce: '_ZTS14SubgroupReduce',
  shadePixels: '_ZTS11ShadePixels',
  halfHistogram: '_ZTS13HalfHistogram',
} as const;

import { describe, expect, it } from 'vitest';
import { aspectsTable, runPass } from '../test/helpers.js';

/**
 * The design's example (OptionalDeviceFeatures.md): foo has [[sycl::device_has()]] and calls bar,
 * which calls boo, which uses double. Compiled with -g: foo is at hw.cpp:14, the call to bar at
 * hw.cpp:15:3, the call to boo at hw.cpp:25:5, the use of double at hw.cpp:27:4.
 */
const DESIGN_EXAMPLE = `define spir_func void @_Z3foov() !sycl_declared_aspects !20 !dbg !10 {
  call spir_func void @_Z3barv(), !dbg !15
  ret void
}
define spir_func void @_Z3barv() !dbg !11 {
  call spir_func void @_Z3boov(), !dbg !16
  ret void
}
define spir_func void @_Z3boov() !dbg !12 {
  %d = alloca double, align 8, !dbg !17
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "hw.cpp", directory: "/tmp")
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "foo", scope: !1, file: !1, line: 14, type: !13, scopeLine: 14, spFlags: DISPFlagDefinition, unit: !0)
!11 = distinct !DISubprogram(name: "bar", scope: !1, file: !1, line: 24, type: !13, scopeLine: 24, spFlags: DISPFlagDefinition, unit: !0)
!12 = distinct !DISubprogram(name: "boo", scope: !1, file: !1, line: 26, type: !13, scopeLine: 26, spFlags: DISPFlagDefinition, unit: !0)
!13 = !DISubroutineType(types: !14)
!14 = !{null}
!15 = !DILocation(line: 15, column: 3, scope: !10)
!16 = !DILocation(line: 25, column: 5, scope: !11)
!17 = !DILocation(line: 27, column: 4, scope: !12)
!20 = !{}
${aspectsTable()}`;

describe("device_has mismatches (sycl-aspect-mismatch)", () => {
  it('warns for the design example, naming the function, the aspect and the call chain with locations', () => {
    const r = runPass(DESIGN_EXAMPLE);
    expect(r.diagnostics).toEqual([
      {
        code: 'sycl-aspect-mismatch',
        message: "function 'foo()' uses aspect 'fp64' not listed in its 'sycl::device_has' attribute",
        location: { function: '_Z3foov', file: 'hw.cpp', line: 14 },
        notes: [
          { message: "propagated from call to function 'bar()'", location: { function: '_Z3foov', file: 'hw.cpp', line: 15, column: 3 } },
          { message: "propagated from call to function 'boo()'", location: { function: '_Z3barv', file: 'hw.cpp', line: 25, column: 5 } },
          { message: "function 'boo()' uses aspect 'fp64' here", location: { function: '_Z3boov', file: 'hw.cpp', line: 27, column: 4 } },
        ],
      },
    ]);
  });

  it('still warns about fp64 when the pre-optimization run excludes it from the metadata', () => {
    const r = runPass(DESIGN_EXAMPLE, { excludeAspects: ['fp64'] });
    expect(r.codes()).toEqual(['sycl-aspect-mismatch']);
    expect(r.used('_Z3foov')).toBeUndefined();
  });

  it('is silent when validation is off (post-optimization run)', () => {
    expect(runPass(DESIGN_EXAMPLE, { validate: false }).diagnostics).toEqual([]);
  });

  it('gives no locations but the function name without debug info', () => {
    const r = runPass(`define void @f() !sycl_declared_aspects !1 {\n  %x = alloca double\n  ret void\n}\n!1 = !{i32 5}\n${aspectsTable()}`);
    expect(r.diagnostics).toEqual([
      {
        code: 'sycl-aspect-mismatch',
        message: "function 'f' uses aspect 'fp64' not listed in its 'sycl::device_has' attribute",
        location: { function: 'f' },
        notes: [{ message: "function 'f' uses aspect 'fp64' here", location: { function: 'f' } }],
      },
    ]);
  });

  it("says 'device_has' property for the sycl-device-has attribute, also on a kernel", () => {
    const r = runPass(`define spir_kernel void @k() #0 {\n  call void @g()\n  ret void\n}
define void @g() {\n  %x = alloca double\n  ret void\n}
attributes #0 = { "sycl-device-has"="5,2" }
${aspectsTable()}`);
    expect(r.diagnostics.map((d) => d.message)).toEqual(["function 'k' uses aspect 'fp64' not listed in its 'device_has' property"]);
    expect(r.diagnostics[0]!.notes!.map((n) => n.message)).toEqual(["propagated from call to function 'g'", "function 'g' uses aspect 'fp64' here"]);
  });

  it('accepts every aspect the declaration lists', () => {
    const r = runPass(`define void @f() !sycl_declared_aspects !1 {\n  %x = alloca double\n  ret void\n}\n!1 = !{i32 5, i32 6}\n${aspectsTable()}`);
    expect(r.diagnostics).toEqual([]);
  });

  it('skips kernels with !sycl_declared_aspects (their lambda carries the attribute too)', () => {
    const r = runPass(`define spir_kernel void @k() !sycl_declared_aspects !1 {\n  %x = alloca double\n  ret void\n}\n!1 = !{}\n${aspectsTable()}`);
    expect(r.diagnostics).toEqual([]);
  });

  it('does not warn about aspects callees only declare', () => {
    const r = runPass(`define void @f() !sycl_declared_aspects !1 {\n  call void @g()\n  ret void\n}
define void @g() !sycl_declared_aspects !2 {\n  ret void\n}
!1 = !{}
!2 = !{i32 2}
${aspectsTable()}`);
    expect(r.diagnostics).toEqual([]);
    expect(r.used('f')).toEqual([2]);
  });

  it('names the use in a signature and a use marked by __uses_aspects__', () => {
    const r = runPass(`define void @f() !sycl_declared_aspects !1 {\n  call void @g(double 0.0)\n  call void @h()\n  ret void\n}
declare void @g(double)
declare !sycl_used_aspects !2 void @h()
!1 = !{i32 6}
!2 = !{i32 28}
${aspectsTable()}`);
    expect(r.diagnostics.map((d) => d.notes!.map((n) => n.message))).toEqual([["propagated from call to function 'h'", "function 'h' is marked as using aspect 'atomic64'"]]);
    const sig = runPass(`define void @f() !sycl_declared_aspects !1 {\n  call void @g(double 0.0)\n  ret void\n}\ndeclare void @g(double)\n!1 = !{}\n${aspectsTable()}`);
    // f itself passes a double to g: the use is f's call instruction.
    expect(sig.diagnostics[0]!.notes!.map((n) => n.message)).toEqual(["function 'f' uses aspect 'fp64' here"]);
    const param = runPass(`define void @f(double %d) !sycl_declared_aspects !1 {\n  ret void\n}\n!1 = !{}\n${aspectsTable()}`);
    expect(param.diagnostics[0]!.notes!.map((n) => n.message)).toEqual(["function 'f' uses aspect 'fp64' in its signature"]);
  });

  it('with fp64ConvEmu, points at the use of fp64 the pass counts, not at a conversion it skips', () => {
    const text = `define spir_func void @_Z3foov() !sycl_declared_aspects !20 !dbg !10 {
  %c = fpext float 1.0 to double, !dbg !15
  %s = fadd double %c, 1.0, !dbg !16
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "hw.cpp", directory: "/tmp")
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "foo", scope: !1, file: !1, line: 14, type: !13, scopeLine: 14, spFlags: DISPFlagDefinition, unit: !0)
!13 = !DISubroutineType(types: !14)
!14 = !{null}
!15 = !DILocation(line: 15, column: 3, scope: !10)
!16 = !DILocation(line: 16, column: 7, scope: !10)
!20 = !{}
${aspectsTable()}`;
    const at = (options: { fp64ConvEmu?: boolean }) => runPass(text, options).diagnostics.map((d) => d.notes!.map((n) => [n.message, n.location]));
    const here = "function 'foo()' uses aspect 'fp64' here";
    expect(at({})).toEqual([[[here, { function: '_Z3foov', file: 'hw.cpp', line: 15, column: 3 }]]]);
    expect(at({ fp64ConvEmu: true })).toEqual([[[here, { function: '_Z3foov', file: 'hw.cpp', line: 16, column: 7 }]]]);
  });

  it('reports items of sycl-device-has that are not numbers', () => {
    const r = runPass(`define void @f() #0 {\n  ret void\n}\nattributes #0 = { "sycl-device-has"="5,fp64" }\n${aspectsTable()}`);
    expect(r.codes()).toEqual([]); // nothing used, nothing checked
    const used = runPass(`define void @f() #0 {\n  %x = alloca double\n  ret void\n}\nattributes #0 = { "sycl-device-has"="6,fp64" }\n${aspectsTable()}`);
    expect(used.codes()).toEqual(['invalid-device-has']);
  });

  it('reports in module order, aspects in set order', () => {
    const r = runPass(`%A = type { i32 }
define void @second() !sycl_declared_aspects !1 {\n  %x = alloca double\n  %y = alloca %A\n  ret void\n}
define void @first() !sycl_declared_aspects !1 {\n  %x = alloca %A\n  ret void\n}
!1 = !{}
!sycl_types_that_use_aspects = !{!2}
!2 = !{!"A", i32 28}
${aspectsTable()}`);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      "function 'second' uses aspect 'fp64' not listed in its 'sycl::device_has' attribute",
      "function 'second' uses aspect 'atomic64' not listed in its 'sycl::device_has' attribute",
      "function 'first' uses aspect 'atomic64' not listed in its 'sycl::device_has' attribute",
    ]);
  });
});

describe('fixed targets', () => {
  const kernel = (extra = '', attachments = ''): string => `define spir_kernel void @k() ${attachments}{\n  call void @f()\n  ret void\n}
define void @f() {\n  %x = alloca double\n  ret void\n}
${extra}
${aspectsTable()}`;

  it('warns when a kernel uses an aspect a fixed target does not support, with the call chain', () => {
    const r = runPass(kernel(), { fixedTargets: ['intel_gpu_dg1'] });
    expect(r.diagnostics).toEqual([
      {
        code: 'sycl-fixed-target-aspect',
        message: "function 'k' uses aspect 'fp64', which fixed target 'intel_gpu_dg1' does not support",
        location: { function: 'k' },
        notes: [
          { message: "propagated from call to function 'f'", location: { function: 'k' } },
          { message: "function 'f' uses aspect 'fp64' here", location: { function: 'f' } },
        ],
      },
    ]);
  });

  it('is silent for targets that support the aspects, and for targets that may support anything', () => {
    expect(runPass(kernel(), { fixedTargets: ['intel_gpu_pvc', 'spir64'] }).diagnostics).toEqual([]);
  });

  it('checks declared aspects of kernels too', () => {
    const r = runPass(`define spir_kernel void @k() !sycl_declared_aspects !1 {\n  ret void\n}\n!1 = !{i32 6}\n${aspectsTable()}`, { fixedTargets: ['intel_gpu_dg1'] });
    expect(r.diagnostics.map((d) => d.message)).toEqual(["function 'k' declares aspect 'fp64', which fixed target 'intel_gpu_dg1' does not support"]);
  });

  it('warns about required sub-group and work-group sizes a fixed target does not support', () => {
    const r = runPass(kernel('!1 = !{i32 8}\n!2 = !{i32 64, i32 32, i32 1}', '!intel_reqd_sub_group_size !1 !reqd_work_group_size !2 '), {
      fixedTargets: ['intel_gpu_pvc'],
    });
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['sycl-fixed-target-sub-group-size', "function 'k' requires sub-group size 8, which fixed target 'intel_gpu_pvc' does not support (supported: 16, 32)"],
      ['sycl-fixed-target-work-group-size', "function 'k' requires work-group size 64x32x1, which fixed target 'intel_gpu_pvc' does not support (at most 1024 work-items)"],
    ]);
  });

  it('warns once about a fixed target the device configuration does not know', () => {
    const r = runPass(kernel(), { fixedTargets: ['gpu', 'gpu'] });
    expect(r.codes()).toEqual(['unknown-fixed-target']);
  });

  it('checks nothing when validation is off', () => {
    expect(runPass(kernel(), { fixedTargets: ['intel_gpu_dg1', 'nope'], validate: false }).diagnostics).toEqual([]);
  });
});

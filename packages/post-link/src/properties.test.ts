import { DeviceConfig } from '@syclkit/device-config';
import { decodeBitVector, decodeString, decodeUint32Array, decodeUint64Array, PropertySetRegistry, writePropertySetRegistry } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { deviceLibExtension, deviceLibReqMask } from './devicelib.js';
import { entryPoints } from '@syclkit/sycl-conventions';
import { computeImageProperties, demangledStartsWithReserved, withCompileTarget } from './properties.js';
import { checkExternalFunctions, computeImageRequirements, imageFeatures } from './requirements.js';
import { splitModule } from './split.js';
import { targetIncompatibility } from './target-filter.js';
import { ir } from '../test/testing.js';

function propertiesOf(text: string, options: Parameters<typeof computeImageProperties>[1] = {}, target?: string): PropertySetRegistry {
  const m = ir(text);
  const entries = entryPoints(m);
  return computeImageProperties(
    { module: m, entryPoints: entries, esimd: false, requirements: computeImageRequirements(m, entries), ...(target ? { compileTarget: target } : {}) },
    options,
  );
}

describe('device requirements', () => {
  it('unions used and declared aspects of every function, drops internal ones, sorts them', () => {
    const m = ir(`
define spir_kernel void @k() #0 !sycl_used_aspects !0 { call void @f() ret void }
define spir_func void @f() !sycl_used_aspects !1 !sycl_declared_aspects !2 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 6, i32 -3}
!1 = !{!3}
!2 = !{i32 1}
!3 = !{!"fp16", i32 5}
`);
    const r = computeImageRequirements(m, entryPoints(m));
    expect(r.aspects).toEqual([{ value: 1, name: 'cpu' }, { value: 5, name: 'fp16' }, { value: 6, name: 'fp64' }]);
    expect(r.allAspects).toEqual([-3, 1, 5, 6]);
  });

  it('drops the work-group size when two functions disagree, and takes the sub-group size from entry points only', () => {
    const m = ir(`
define spir_kernel void @k() #0 !reqd_work_group_size !0 { call void @f() ret void }
define spir_func void @f() !reqd_work_group_size !1 !intel_reqd_sub_group_size !2 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 8, i32 1, i32 1}
!1 = !{i32 16, i32 1, i32 1}
!2 = !{i32 32}
`);
    const r = computeImageRequirements(m, entryPoints(m));
    expect(r.reqdWorkGroupSize).toBeUndefined();
    expect(r.reqdSubGroupSize).toBeUndefined();
  });

  it('writes aspects always, then the legacy and uint64 work-group sizes, in name order, then compile_target', () => {
    const registry = propertiesOf(
      `
define spir_kernel void @k() #0 !reqd_work_group_size !0 !intel_reqd_sub_group_size !1 !sycl_fixed_targets !2 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 64}
!1 = !{i32 16}
!2 = !{i32 1}
`,
      {},
      'intel_gpu_pvc',
    );
    const set = registry.getSet('SYCL/device requirements')!;
    expect([...set.keys()]).toEqual(['aspects', 'fixed_target', 'reqd_sub_group_size', 'reqd_work_group_size', 'reqd_work_group_size_uint64_t', 'compile_target']);
    expect(decodeUint32Array(set.get('aspects')!)).toEqual([]);
    expect(decodeUint32Array(set.get('reqd_work_group_size')!)).toEqual([64]);
    expect(decodeUint64Array(set.get('reqd_work_group_size_uint64_t')!)).toEqual([64n]);
    expect(decodeString(set.get('compile_target')!)).toBe('intel_gpu_pvc');
  });

  it('gives a targeted output the untargeted registry with compile_target added (withCompileTarget)', () => {
    const text = `
define spir_kernel void @k() #0 !reqd_work_group_size !0 !sycl_used_aspects !1 { call void @__devicelib_assert_fail() ret void }
declare void @__devicelib_assert_fail()
attributes #0 = { "sycl-module-id"="a.cpp" "sycl-optlevel"="2" }
!0 = !{i32 64}
!1 = !{i32 6}
`.replace('{ call void @__devicelib_assert_fail() ret void }', '{\n  call void @__devicelib_assert_fail()\n  ret void\n}');
    const targeted = writePropertySetRegistry(propertiesOf(text, {}, 'intel_gpu_pvc'));
    expect(writePropertySetRegistry(withCompileTarget(propertiesOf(text, {}), 'intel_gpu_pvc'))).toBe(targeted);
  });

  it('omits the legacy work-group size on request and both without a split', () => {
    const text = `
define spir_kernel void @k() !reqd_work_group_size !0 { ret void }
!0 = !{i32 64}
`;
    expect([...propertiesOf(text, { legacyReqdWorkGroupSize: false }).getSet('SYCL/device requirements')!.keys()]).toEqual(['aspects', 'reqd_work_group_size_uint64_t']);
    expect([...propertiesOf(text, { dropReqdWorkGroupSize: true }).getSet('SYCL/device requirements')!.keys()]).toEqual(['aspects']);
  });

  it('encodes aspects exactly as the intel/llvm LIT test aspects.ll expects', () => {
    const text = writePropertySetRegistry(
      propertiesOf(`
define spir_kernel void @k() !sycl_used_aspects !0 { ret void }
!0 = !{i32 12, i32 0, i32 9, i32 1, i32 6}
`),
    );
    expect(text).toContain('[SYCL/device requirements]\naspects=2|gCAAAAAAAAAAAAAABAAAAYAAAAQCAAAAMAAAAA\n');
  });

  it('keeps the last non-empty joint matrix descriptor in module order', () => {
    const m = ir(`
define spir_kernel void @k() !sycl_joint_matrix !0 { call void @f() ret void }
define spir_func void @f() !sycl_joint_matrix !1 { ret void }
!0 = !{!"matrix_type::fp32,use::a,8,16"}
!1 = !{!"matrix_type::fp64,use::a,16,16"}
`);
    expect(computeImageRequirements(m, entryPoints(m)).jointMatrix).toBe('matrix_type::fp64,use::a,16,16');
  });
});

describe('other property sets', () => {
  it('writes the devicelib mask first and misc properties from the first entry point with each attribute', () => {
    const registry = propertiesOf(`
declare spir_func float @__devicelib_imf_sinf(float)
define spir_kernel void @k() #0 { %x = call spir_func float @__devicelib_imf_sinf(float 1.0) ret void }
attributes #0 = { "sycl-module-id"="a.cpp" "sycl-grf-size"="256" "sycl-optlevel"="2" }
`);
    expect(registry.setNames().slice(0, 2)).toEqual(['SYCL/devicelib req mask', 'SYCL/device requirements']);
    expect(registry.get('SYCL/devicelib req mask', 'DeviceLibReqMask')).toEqual({ type: 1, value: 64 });
    expect([...registry.getSet('SYCL/misc properties')!.keys()]).toEqual(['sycl-grf-size', 'optLevel']);
  });

  it("reads function attributes from the program's features where it has them, else from the function: the same sets", () => {
    const text = `
define spir_kernel void @k() #0 { call void @v() call void @d() ret void }
define spir_func void @v() #1 { ret void }
define spir_kernel void @u() #2 { ret void }
declare spir_func void @d() #3
attributes #0 = { "sycl-module-id"="a.cpp" "sycl-register-alloc-mode"="2" "sycl-optlevel"="3" }
attributes #1 = { "indirectly-callable"="set-a" }
attributes #2 = { "sycl-module-id"="a.cpp" "calls-indirectly"="set-b,set-a" "sycl-grf-size"="128" }
attributes #3 = { "calls-indirectly"="set-c" }
`;
    const m = ir(text);
    const entries = entryPoints(m);
    const requirements = computeImageRequirements(m, entries);
    const all = imageFeatures(m);
    const some = new Map([...all].filter(([fn]) => fn.name === 'u' || fn.name === 'd'));
    const without = writePropertySetRegistry(computeImageProperties({ module: m, entryPoints: entries, esimd: false, requirements }));
    expect(without).toContain('virtual-functions-set=');
    expect(without).toContain('sycl-register-alloc-mode=1|2');
    for (const features of [all, some, new Map()]) {
      expect(writePropertySetRegistry(computeImageProperties({ module: m, entryPoints: entries, esimd: false, requirements, features }))).toBe(without);
    }
    // Without a defined member of a set, the image lists the sets its functions use, declarations included.
    const user = ir(text.replace('define spir_func void @v() #1 { ret void }', 'declare spir_func void @v() #1'));
    const userEntries = entryPoints(user);
    const input = { module: user, entryPoints: userEntries, esimd: false, requirements: computeImageRequirements(user, userEntries) };
    const plain = computeImageProperties(input);
    expect(plain.get('SYCL/virtual functions', 'uses-virtual-functions-set')).toEqual(computeImageProperties({ ...input, features: imageFeatures(user) }).get('SYCL/virtual functions', 'uses-virtual-functions-set'));
    expect(decodeString(plain.get('SYCL/virtual functions', 'uses-virtual-functions-set')!)).toBe('set-b,set-a,set-c');
  });

  it('lists kernels that reach __devicelib_assert_fail', () => {
    const registry = propertiesOf(`
declare spir_func void @__devicelib_assert_fail()
define spir_kernel void @a() #0 { call void @f() ret void }
define spir_kernel void @b() #0 { ret void }
define spir_func void @f() { call void @__devicelib_assert_fail() ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    expect([...registry.getSet('SYCL/assert used')!.keys()]).toEqual(['a']);
  });

  it('exports SYCL_EXTERNAL spir_func entry points and imports user declarations, not reserved names', () => {
    const registry = propertiesOf(
      `
declare spir_func void @child()
declare spir_func void @_Z8__insidev()
declare spir_func void @llvm.donothing()
define spir_func void @ext() #0 { call void @child() call void @_Z8__insidev() ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
`,
      { emitExportedSymbols: true, emitImportedSymbols: true },
    );
    expect([...registry.getSet('SYCL/exported symbols')!.keys()]).toEqual(['ext']);
    expect([...registry.getSet('SYCL/imported symbols')!.keys()]).toEqual(['child']);
    expect(demangledStartsWithReserved('_ZN2ns3fooEv')).toBe(false);
    expect(demangledStartsWithReserved('_ZL8__helperv')).toBe(true);
  });

  it('writes the kernel param opt set, even empty, with -emit-param-info', () => {
    const registry = propertiesOf(
      `
define spir_kernel void @k(i32 %a, i32 %b) !sycl_kernel_omit_args !0 { ret void }
define spir_kernel void @w(i32 %a) !sycl_kernel_omit_args !1 { ret void }
!0 = !{i1 true, i1 false}
!1 = !{i32 0, i32 -1, i64 4294967296, !"x", i128 0, i128 18446744073709551616, i8 1}
`,
      { emitParamInfo: true },
    );
    expect(decodeBitVector(registry.get('SYCL/kernel param opt', 'k')!)).toEqual([true, false]);
    // A bit is set for each integer operand whose zero-extended value is not 0, at any width.
    expect(decodeBitVector(registry.get('SYCL/kernel param opt', 'w')!)).toEqual([false, true, true, false, false, true, true]);
    const empty = propertiesOf('define spir_kernel void @k() { ret void }', { emitParamInfo: true });
    expect(writePropertySetRegistry(empty)).toContain('[SYCL/kernel param opt]\n');
    expect(empty.getSet('SYCL/kernel param opt')!.size).toBe(0);
  });

  it('classifies device library functions by family and precision', () => {
    expect(deviceLibExtension('__devicelib_cosf')).toBe(1);
    expect(deviceLibExtension('__devicelib_cos')).toBe(2);
    expect(deviceLibExtension('__devicelib_cexpf')).toBe(3);
    expect(deviceLibExtension('__devicelib___muldc3')).toBe(4);
    expect(deviceLibExtension('__devicelib_memcpy')).toBe(5);
    expect(deviceLibExtension('__devicelib_imf_fmaf')).toBe(6);
    expect(deviceLibExtension('__devicelib_imf_dadd_rn')).toBe(7);
    expect(deviceLibExtension('__devicelib_imf_fmabf16')).toBe(8);
    expect(deviceLibExtension('__devicelib_assert_fail')).toBe(0);
    expect(deviceLibExtension('foo')).toBeUndefined();
    expect(deviceLibReqMask(ir('declare void @__devicelib_cosf()\ndeclare void @__devicelib_cos()'))).toBe(6);
  });
});

describe('SYCL_EXTERNAL check (design)', () => {
  it('warns about callee aspects and sub-group sizes the kernel does not declare and adds them', () => {
    const m = ir(`
define spir_kernel void @k() #0 !sycl_used_aspects !0 !intel_reqd_sub_group_size !1 { call void @ext() ret void }
define spir_func void @ext() #0 !sycl_used_aspects !2 !intel_reqd_sub_group_size !3 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 5}
!1 = !{i32 16}
!2 = !{i32 6}
!3 = !{i32 32}
`);
    const check = checkExternalFunctions(m, [m.getFunction('k')!]);
    expect(check.finalUsedAspects).toEqual([5, 6]);
    expect(check.finalSubGroup).toEqual([16, 32]);
    expect(check.warnings.map((w) => w.message)).toEqual([
      "function 'ext' uses aspect 'fp64' not expected by its calling kernel. Missing [[sycl::device_has()]] on SYCL_EXTERNAL function?",
      "function 'ext' has required sub-group size '32' that does not match its calling kernel. Missing [[sycl::reqd_sub_group()]] attribute on SYCL_EXTERNAL function?",
    ]);
  });

  it('intersects fixed targets and warns when a function was compiled for other targets', () => {
    const m = ir(`
define spir_kernel void @k() #0 !sycl_fixed_targets !0 { call void @ext() ret void }
define spir_func void @ext() !sycl_fixed_targets !1 { ret void }
!0 = !{i32 40, i32 41}
!1 = !{i32 41, i32 42}
attributes #0 = { "sycl-module-id"="a.cpp" }
`);
    const check = checkExternalFunctions(m, [m.getFunction('k')!]);
    expect(check.fixedTargetImage).toBe(true);
    expect(check.finalFixedTargets).toEqual([41]);
    expect(check.warnings.map((w) => w.code)).toEqual(['fixed-targets-mismatch']);
  });
});

describe('target filter', () => {
  const config = DeviceConfig.builtin();
  it('rejects images with aspects or sub-group sizes the target lacks, accepts unknown targets', () => {
    expect(targetIncompatibility(config, 'intel_gpu_tgllp', { aspects: [{ value: 6, name: 'fp64' }], esimd: false })).toEqual({ kind: 'aspect', aspect: { value: 6, name: 'fp64' } });
    expect(targetIncompatibility(config, 'intel_gpu_pvc', { aspects: [], reqdSubGroupSize: 8, esimd: false })).toEqual({ kind: 'sub-group-size', size: 8 });
    expect(targetIncompatibility(config, 'intel_gpu_pvc', { aspects: [], reqdSubGroupSize: 8, esimd: true })).toBeUndefined();
    expect(targetIncompatibility(config, 'intel_gpu_pvc', { aspects: [{ value: 6, name: 'fp64' }], reqdSubGroupSize: 16, esimd: false })).toBeUndefined();
    expect(targetIncompatibility(config, 'no_such_target', { aspects: [{ value: 6, name: 'fp64' }], esimd: false })).toBeUndefined();
  });

  it('is used per image by the split images of a module', () => {
    const m = ir(`
define spir_kernel void @d() #0 !sycl_used_aspects !0 { ret void }
define spir_kernel void @f() #0 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{!1}
!1 = !{!"fp64", i32 6}
`);
    const verdicts = [...splitModule(m, { mode: 'kernel' })].map((image) => {
      const r = computeImageRequirements(image.module, image.entryPoints);
      return targetIncompatibility(config, 'intel_gpu_tgllp', { aspects: r.aspects, esimd: false })?.kind ?? 'ok';
    });
    expect(verdicts).toEqual(['ok', 'aspect']);
  });
});

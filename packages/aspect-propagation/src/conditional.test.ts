import { describe, expect, it } from 'vitest';
import { encodeCondition, ifArchitectureIs, ifDeviceHas } from '@syclkit/device-if';
import { aspectsTable, runPass as run } from '../test/helpers.js';
import type { PropagateAspectsOptions } from './propagate.js';

const PVC = 251660032; // int32 truncation of architecture::intel_gpu_pvc
const DG1 = 41943040; // intel_gpu_dg1
const FP16 = encodeCondition(ifDeviceHas(5).branches[0]!); // [-1, 5]
const ON_PVC = encodeCondition(ifArchitectureIs(PVC).branches[0]!); // [-2, PVC]

const args = (condition: readonly number[]): string => condition.map((v) => `i32 ${v}`).join(', ');

const TYPES = `%A = type { i32 }
%B = type { i32 }
%class.anon = type { ptr addrspace(4) }
`;
const COMMON = `declare void @cc1(ptr, ptr, i32, i32) #1
declare void @cc2(ptr, ptr, i32, i32) #1
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
!sycl_types_that_use_aspects = !{!800, !801}
!800 = !{!"A", i32 1}
!801 = !{!"B", i32 2}
!810 = !{i32 5}
!811 = !{i32 28}
${aspectsTable()}`;

/** Types come first: LLVM cannot allocate a struct whose body comes later. */
const runPass = (text: string, options?: PropagateAspectsOptions) => run(TYPES + text, options);

/** if_device_has<fp16>(action1), where action1 uses fp16 and fp64 and nests if_architecture_is<pvc>(action2). */
const NESTED = `define spir_kernel void @k() {
  %t = alloca %class.anon
  call void @cc1(ptr @action1, ptr %t, ${args(FP16)})
  %b = alloca %B
  ret void
}
define void @action1() {
  %d = alloca double
  call void @cc2(ptr @action2, ptr null, ${args(ON_PVC)})
  ret void, !sycl_used_aspects !810
}
define void @action2() {
  %a = alloca %A
  ret void, !sycl_used_aspects !811
}
${COMMON}`;

describe('conditionally used aspects, design semantics (DeviceIf.md)', () => {
  it('keeps aspects reached only through a conditional caller out of the caller\'s !sycl_used_aspects', () => {
    const r = runPass(NESTED);
    expect(r.used('k')).toEqual([2]);
    expect(r.diagnostics).toEqual([]);
  });

  it("gives actions their own !sycl_used_aspects", () => {
    const r = runPass(NESTED);
    expect(r.used('action1')).toEqual([6, 5]);
    expect(r.used('action2')).toEqual([1, 28]);
  });

  it('writes (condition, aspects) pairs with nested conditions ANDed and simplified', () => {
    const r = runPass(NESTED);
    // fp16 is dropped under "fp16" (AND of aspects); atomic64 under "fp16 && arch(pvc)" because
    // every pvc device has it (OR of architectures, device configuration).
    expect(r.conditional('k')).toEqual([
      [[-1, 5], [6]],
      [[-4, -1, 5, -2, PVC], [1]],
    ]);
    expect(r.conditional('action1')).toEqual([[[-2, PVC], [1]]]);
    expect(r.conditional('action2')).toBeUndefined();
    expect(r.conditional('cc1')).toBeUndefined();
  });

  it('drops an aspect every architecture of an OR-of-architectures condition has, and keeps one it lacks', () => {
    const module = (arch: number): string => `define spir_kernel void @k() {
  call void @cc1(ptr @action, ptr null, i32 -2, i32 ${arch})
  ret void
}
define void @action() {\n  %d = alloca double\n  ret void\n}
${COMMON}`;
    expect(runPass(module(PVC)).conditional('k')).toBeUndefined();
    expect(runPass(module(DG1)).conditional('k')).toEqual([[[-2, DG1], [6]]]);
  });

  it('moves aspects under an always-true condition into !sycl_used_aspects', () => {
    const always = [-5, -1, 0, -3, -1, 0]; // aspect 0 || !aspect 0
    const r = runPass(`define spir_kernel void @k() {\n  call void @cc1(ptr @action, ptr null, ${args(always)})\n  ret void\n}
define void @action() {\n  %d = alloca double\n  ret void\n}
${COMMON}`.replace('declare void @cc1(ptr, ptr, i32, i32) #1', 'declare void @cc1(ptr, ptr, i32, i32, i32, i32, i32, i32) #1'));
    expect(r.used('k')).toEqual([6]);
    expect(r.conditional('k')).toBeUndefined();
  });

  it('leaves excluded aspects out of the pairs, like out of !sycl_used_aspects', () => {
    const r = runPass(NESTED, { excludeAspects: ['fp64'] });
    expect(r.conditional('k')).toEqual([[[-4, -1, 5, -2, PVC], [1]]]);
  });

  it('recognizes the renamed declaration sycl-conditional-call-on-device leaves (no attribute)', () => {
    const name = '_ZN4sycl3_V13ext6oneapi12experimental6detail31call_if_on_device_conditionally_PREFIX_1';
    const r = runPass(`define spir_kernel void @k() {\n  call void @${name}(ptr @action, ptr null, ${args(FP16)})\n  ret void\n}
declare void @${name}(ptr, ptr, i32, i32)
define void @action() {\n  %d = alloca double\n  ret void\n}
${COMMON}`);
    expect(r.used('k')).toBeUndefined();
    expect(r.conditional('k')).toEqual([[[-1, 5], [6]]]);
  });

  it("handles the header's shape before that pass: the caller's body calls the action", () => {
    const r = runPass(`define spir_kernel void @k() {\n  %t = alloca %class.anon\n  call void @caller(ptr %t, ${args(FP16)})\n  ret void\n}
define internal void @caller(ptr %fn, i32 %c0, i32 %c1) #1 {\n  call void @action(ptr %fn)\n  ret void\n}
define void @action(ptr %this) {\n  %d = alloca double\n  ret void\n}
${COMMON}`);
    expect(r.used('k')).toBeUndefined();
    expect(r.conditional('k')).toEqual([[[-1, 5], [6]]]);
  });

  it('does not check conditionally used aspects against device_has', () => {
    const r = runPass(`define void @f() !sycl_declared_aspects !1 {\n  call void @cc1(ptr @action, ptr null, ${args(FP16)})\n  ret void\n}
define void @action() {\n  %d = alloca double\n  ret void\n}
!1 = !{}
${COMMON}`);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('conditionally used aspects, intel/llvm prototype semantics', () => {
  const PLACEHOLDER = `define spir_kernel void @k() {\n  call void @f()\n  ret void\n}
define void @f() {\n  %b = alloca %B\n  call void @cc1(ptr @action, ptr null, i32 0, i32 0)\n  ret void\n}
define void @action() {\n  %a = alloca %A\n  %d = alloca double\n  ret void\n}
${COMMON}`;

  it('falls back to the prototype, with a warning, when a condition does not decode', () => {
    const r = runPass(PLACEHOLDER);
    expect(r.codes()).toEqual(['conditional-aspects-prototype']);
    expect(r.conditional('k')).toEqual([[[0], [1, 6]]]);
    expect(r.conditional('action')).toEqual([[[0], [1, 6]]]);
    expect(r.conditional('cc1')).toEqual([[[0], [1, 6]]]);
    // Functions reached only conditionally get no !sycl_used_aspects of their own.
    expect(r.used('action')).toBeUndefined();
    expect(r.used('f')).toEqual([2]);
  });

  it('reports an error instead when the design semantics is asked for explicitly', () => {
    const r = runPass(PLACEHOLDER, { conditionalSemantics: 'design' });
    expect(r.codes()).toEqual(['invalid-condition']);
    expect(r.conditional('k')).toBeUndefined();
  });

  it('treats a condition as the set of its integers when the prototype is asked for', () => {
    const r = runPass(NESTED, { conditionalSemantics: 'intel-llvm-prototype' });
    expect(r.diagnostics).toEqual([]);
    expect(r.conditional('k')).toEqual([
      [[-1, 5], [6, 5, 1, 28]],
      [[-1, 5, -2, PVC], [1, 28]],
    ]);
  });
});

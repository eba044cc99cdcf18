import { describe, expect, it } from 'vitest';
import { aspectsTable, runPass } from '../test/helpers.js';

const SETS = `%Foo = type { i32 }
%Bar = type { i32 }
define spir_func void @vfnFoo() #10 {\n  call void @subFoo()\n  ret void\n}
define spir_func void @subFoo() {\n  %x = alloca %Foo\n  ret void\n}
define spir_func void @vfnBar() #11 {\n  %x = alloca %Bar\n  ret void\n}
attributes #10 = { "indirectly-callable"="setFoo" }
attributes #11 = { "indirectly-callable"="setBar" }
attributes #20 = { "virtual-call" }
!sycl_types_that_use_aspects = !{!1, !2}
!1 = !{!"Foo", i32 1}
!2 = !{!"Bar", i32 2}
${aspectsTable()}`;

describe('virtual functions (calls-indirectly / indirectly-callable)', () => {
  it('gives a kernel that makes a virtual call the aspects of every function of its sets', () => {
    const r = runPass(`define spir_kernel void @k(ptr %f) #0 {\n  call void %f() #20\n  ret void\n}
attributes #0 = { "calls-indirectly"="setFoo,setBar" }
${SETS}`);
    expect(r.used('k')).toEqual([1, 2]);
    expect(r.used('vfnFoo')).toEqual([1]);
    expect(r.used('vfnBar')).toEqual([2]);
  });

  it('only takes the sets it names', () => {
    const r = runPass(`define spir_kernel void @k(ptr %f) #0 {\n  call void %f() #20\n  ret void\n}
attributes #0 = { "calls-indirectly"="setBar" }
${SETS}`);
    expect(r.used('k')).toEqual([2]);
  });

  it('counts a virtual call made by a function the kernel calls, and lets callers inherit through it', () => {
    const r = runPass(`define spir_kernel void @k(ptr %f) #0 {\n  call void @lambda(ptr %f)\n  ret void\n}
define internal void @lambda(ptr %f) {\n  call void %f() #20\n  ret void\n}
attributes #0 = { "calls-indirectly"="setFoo" }
${SETS}`);
    expect(r.used('k')).toEqual([1]);
    expect(r.used('lambda')).toBeUndefined();
  });

  it('gives nothing to a "construction" kernel that only stores a vtable (virtual-functions-4)', () => {
    const r = runPass(`@vtable = linkonce_odr addrspace(1) constant { [3 x ptr addrspace(4)] } { [3 x ptr addrspace(4)] [ptr addrspace(4) null, ptr addrspace(4) null, ptr addrspace(4) addrspacecast (ptr @vfnFoo to ptr addrspace(4))] }
define spir_kernel void @construct(ptr addrspace(1) %p) #0 {
  store ptr addrspace(1) getelementptr inbounds (i8, ptr addrspace(1) @vtable, i64 16), ptr addrspace(1) %p
  ret void
}
attributes #0 = { "calls-indirectly"="setFoo" }
${SETS}`);
    expect(r.used('construct')).toBeUndefined();
  });

  it('takes the attribute of a kernel with neither virtual calls nor vtables as the user\'s property', () => {
    const r = runPass(`define spir_kernel void @k() #0 {\n  ret void\n}\nattributes #0 = { "calls-indirectly"="setFoo" }\n${SETS}`);
    expect(r.used('k')).toEqual([1]);
  });

  it('ignores virtual calls of a function without calls-indirectly', () => {
    const r = runPass(`define spir_kernel void @k(ptr %f) {\n  call void %f() #20\n  ret void\n}\n${SETS}`);
    expect(r.used('k')).toBeUndefined();
  });
});

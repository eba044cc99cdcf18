import { describe, expect, it } from 'vitest';
import { linkModules, type Module } from '@syclkit/ir';
import { SyclMetadata } from '@syclkit/sycl-conventions';
import { aspectsTable, parse } from '../test/helpers.js';
import { collectFunctionFacts } from './function-facts.js';
import { readModuleRules } from './module-rules.js';
import { carryFacts, componentsOf, walkModule } from './module-walk.js';

const PLAIN = `%H = type { i16 }
define spir_kernel void @k() {\n  call void @f()\n  call void @g()\n  ret void\n}
define void @f() {\n  %h = alloca %H\n  %d = alloca double\n  call void @g()\n  ret void\n}
define void @g() {\n  call void @f()\n  ret void\n}
!sycl_types_that_use_aspects = !{!2}
!2 = !{!"H", i32 5}
${aspectsTable()}`;

/** The unit walked, its type list dropped and linked alone (as syclkit compile does before run 2). */
function linked(text: string): { walk: ReturnType<typeof walkModule>; linked: Module } {
  const module = parse(text);
  const walk = walkModule(module);
  module.namedMetadata.delete(SyclMetadata.typesThatUseAspects);
  return { walk, linked: linkModules([module], { id: 'llvm-link', consumeInputs: true }) };
}

function options(module: Module) {
  const { types, fp64 } = readModuleRules(module, []);
  return { types, fp64, fp64ConvEmu: false };
}

describe('carryFacts', () => {
  it("gives the linked program's facts: aspects under its rules, the walk's calls", () => {
    const { walk, linked: module } = linked(PLAIN);
    const carried = carryFacts(walk, module, options(module))!;
    const fresh = collectFunctionFacts(module, options(module));
    expect(carried.map((f) => f.direct?.toArray())).toEqual(fresh.map((f) => f.direct?.toArray()));
    expect(carried.map((f) => f.direct?.toArray())).toEqual([undefined, [6], undefined]); // %H's fp16 is gone with the type list
    expect(carried.map((f) => f.callees)).toEqual(fresh.map((f) => f.callees));
    // The walk's call lists themselves (the same order): nothing copied.
    expect(carried[0]!.callees).toBe(walk.facts[0]!.callees);
  });

  it('gives up on conditional callers and virtual functions (their facts depend on more than bodies)', () => {
    const virtual = PLAIN.replace('define void @g() {', 'define void @g() #0 {') + '\nattributes #0 = { "indirectly-callable"="set" }\n';
    const { walk, linked: module } = linked(virtual);
    expect(carryFacts(walk, module, options(module))).toBeUndefined();
    const conditional = `declare void @cc_uid_1(ptr, i32, i32) #1
define spir_kernel void @k() {\n  call void @cc_uid_1(ptr @a, i32 -1, i32 5)\n  ret void\n}
define void @a() {\n  ret void\n}
attributes #1 = { "sycl-call-if-on-device-conditionally"="true" }
${aspectsTable()}`;
    const c = linked(conditional);
    expect(collectFunctionFacts(c.linked, options(c.linked)).find((f) => f.fn.name === 'k')!.conditionalCalls).toHaveLength(1);
    expect(carryFacts(c.walk, c.linked, options(c.linked))).toBeUndefined();
  });
});

describe('componentsOf', () => {
  it("is made once per walk for the walk's own call lists, and fresh for any other lists", () => {
    const walk = walkModule(parse(PLAIN));
    const lists = walk.facts.map((f) => f.callees);
    const first = componentsOf(lists, walk);
    expect(componentsOf(walk.facts.map((f) => f.callees), walk)).toBe(first);
    expect(first).toEqual([[1, 2], [0]]);
    // Other arrays (a copy, or virtual-function sets added) are not the walk's graph.
    const other = lists.map((l) => [...l]);
    other[2] = [];
    expect(componentsOf(other, walk)).not.toBe(first);
    expect(componentsOf(other, walk)).toEqual([[2], [1], [0]]);
  });
});

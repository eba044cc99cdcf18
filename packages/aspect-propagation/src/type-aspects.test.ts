import { describe, expect, it } from 'vitest';
import { parse } from '../test/helpers.js';
import { readTypesThatUseAspects } from './metadata.js';
import { TypeAspects } from './type-aspects.js';

/** TypeAspects for a module that declares `types` and lists A (1), B (2) and C (3, 4). */
function typesOf(types: string): { aspects: (name: string) => number[] | undefined } {
  const ir = `%A = type { i32 }
%B = type { i32 }
%C = type { i8 }
${types}
define void @user() {
  ret void
}
!sycl_types_that_use_aspects = !{!0, !1, !2}
!0 = !{!"A", i32 1}
!1 = !{!"B", i32 2}
!2 = !{!"C", i32 3, i32 4}
`;
  const module = parse(ir);
  const resolver = new TypeAspects(readTypesThatUseAspects(module, []), module.context.double, 6);
  return {
    aspects(name) {
      const type = module.context.getStruct(name.replace(/^%/, ''));
      if (type === undefined) throw new Error(`no type ${name}`);
      return resolver.of(type)?.toArray();
    },
  };
}

describe('TypeAspects', () => {
  it('gives a listed struct its listed aspects, in order', () => {
    expect(typesOf('').aspects('%C')).toEqual([3, 4]);
  });

  it('gives double the fp64 value it was built with', () => {
    const module = parse('define void @f() {\n  ret void\n}\n');
    expect(new TypeAspects(new Map(), module.context.double, 12).of(module.context.double)?.toArray()).toEqual([12]);
  });

  it('propagates through identified struct fields, arrays and vectors of them', () => {
    const t = typesOf('%S = type { i32, [2 x [3 x %A]], %B }\n%T = type { <2 x double>, %S }');
    expect(t.aspects('%S')).toEqual([1, 2]);
    expect(t.aspects('%T')).toEqual([6, 1, 2]);
  });

  it('does not propagate through pointer fields, typed or opaque', () => {
    const t = typesOf('%P = type { ptr, %B* }');
    expect(t.aspects('%P')).toBeUndefined();
  });

  it('does not propagate through a literal struct field of a named struct (intel/llvm rule)', () => {
    const t = typesOf('%L = type { { %A } }');
    expect(t.aspects('%L')).toBeUndefined();
  });

  it('gives literal structs, arrays, vectors and function types the union of their parts', () => {
    const module = parse(`%A = type { i32 }
%B = type { i32 }
declare void @f({ %A, i32 }, [2 x %B], <2 x double>, ptr)
!sycl_types_that_use_aspects = !{!0, !1}
!0 = !{!"A", i32 1}
!1 = !{!"B", i32 2}
`);
    const resolver = new TypeAspects(readTypesThatUseAspects(module, []), module.context.double, 6);
    const fn = module.getFunction('f')!;
    const [literal, array, vector, pointer] = fn.functionType.params;
    expect(resolver.of(literal!)?.toArray()).toEqual([1]);
    expect(resolver.of(array!)?.toArray()).toEqual([2]);
    expect(resolver.of(vector!)?.toArray()).toEqual([6]);
    expect(resolver.of(pointer!)).toBeUndefined();
    expect(resolver.of(fn.functionType)?.toArray()).toEqual([1, 2, 6]);
  });

  it('finds double inside types for fp64 conversion emulation, but not behind pointers', () => {
    const module = parse('%D = type { [2 x double] }\n%Q = type { ptr }\ndeclare void @f(%D, %Q, { float })\n');
    const resolver = new TypeAspects(new Map(), module.context.double, 6);
    const [d, q, f] = module.getFunction('f')!.functionType.params;
    expect(resolver.containsDouble(d!)).toBe(true);
    expect(resolver.containsDouble(q!)).toBe(false);
    expect(resolver.containsDouble(f!)).toBe(false);
  });
});

import { parseModule } from '@syclkit/ir';
import { describe, expect, it } from 'vitest';
import { stubModule } from './stubs.js';

describe('stubModule', () => {
  it("keeps the source module's pointer syntax (typed)", () => {
    const source = parseModule('define spir_func i32 @f(i32 addrspace(4)* %p) {\n  ret i32 1\n}\n', { filename: 't.ll', pointers: 'preserve-typed' });
    expect(source.typedPointers).toBe(true);
    const { module, stubs } = stubModule(source, [[source.getFunction('f')!, 'f.stub']]);
    expect(module.typedPointers).toBe(true);
    expect(stubs.map((s) => s.name)).toEqual(['f.stub']);
    // a pointer the stub module makes is typed like its functions'
    expect(module.pointerTo(module.context.i8).pointee).toBe(module.context.i8);
  });

  it('and opaque', () => {
    const source = parseModule('define spir_func i32 @f(ptr addrspace(4) %p) {\n  ret i32 1\n}\n', { filename: 't.ll' });
    const { module } = stubModule(source, [[source.getFunction('f')!, 'f']]);
    expect(module.typedPointers).toBe(false);
  });
});

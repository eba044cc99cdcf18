/**
 * Properties of function-type interning (`TypeContext.fn`, `fnOfArgs`), which looks types up by a
 * hash of their types' ids rather than by a key string:
 * 1. Asking twice for the same signature (same return type, parameter types by identity, varargs
 *    flag), in any order among other requests, gives the same object; parameter lists are
 *    compared by content, not by the list object.
 * 2. Different signatures give different objects whose fields are the signature asked for.
 * 3. `fnOfArgs(ret, args)` is `fn(ret, types of args)` without varargs.
 */
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { TypeContext, type Type } from './types.js';

interface Signature {
  readonly ret: number;
  readonly params: readonly number[];
  readonly varArgs: boolean;
}
const signature: fc.Arbitrary<Signature> = fc.record({
  ret: fc.nat(9),
  params: fc.array(fc.nat(9), { maxLength: 6 }),
  varArgs: fc.boolean(),
});
const keyOf = (s: Signature): string => `${s.ret}(${s.params.join(',')}${s.varArgs ? ',...' : ''})`;

function pool(ctx: TypeContext): Type[] {
  return [ctx.i1, ctx.i8, ctx.i32, ctx.i64, ctx.ptr(), ctx.ptr(1), ctx.floatType('float'), ctx.array(ctx.i8, 4), ctx.vector(ctx.i32, 4), ctx.void];
}

describe('function type interning', () => {
  test.prop([fc.array(signature, { maxLength: 40 })], fcOptions())('same signature, same type; different signature, different type', (signatures) => {
    const ctx = new TypeContext();
    const types = pool(ctx);
    const seen = new Map<string, ReturnType<TypeContext['fn']>>();
    for (const s of [...signatures, ...signatures.slice().reverse()]) {
      const t = ctx.fn(types[s.ret]!, s.params.map((p) => types[p]!), s.varArgs);
      expect(t.returnType).toBe(types[s.ret]);
      expect(t.params).toEqual(s.params.map((p) => types[p]));
      expect(t.varArgs).toBe(s.varArgs);
      const before = seen.get(keyOf(s));
      if (before !== undefined) expect(t).toBe(before);
      else {
        for (const other of seen.values()) expect(t).not.toBe(other);
        seen.set(keyOf(s), t);
      }
      if (!s.varArgs) expect(ctx.fnOfArgs(types[s.ret]!, s.params.map((p) => ({ type: types[p]! })))).toBe(t);
    }
  });
});

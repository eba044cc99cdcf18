/**
 * Properties of `addImplicitGlobalOffset` on generated call graphs (functions calling later
 * functions, some reading `__spirv_BuiltInGlobalOffset` with the result used or not, kernels on
 * top), for NVPTX and AMDGCN:
 * 1. Exactly the functions that reach the builtin get a clone, named `<f>_with_offset` and placed
 *    right after the original; the other functions keep their order.
 * 2. No call of the builtin is left; originals call what they called before; clones call the
 *    clone of each callee that has one and the original otherwise, in the same order.
 * 3. A kernel clone's extra parameter is `byval` (NVPTX) / `byref` (AMDGPU) `[3 x i32]`; other
 *    clones take the offset pointer (generic on NVPTX, private on AMDGPU).
 * 4. The result passes our verifier (and LLVM 16's, when installed, on some runs).
 * 5. Running the pass again changes nothing.
 */
import { fc, test } from '@fast-check/vitest';
import { CallInst, verifyModule, type IRFunction, type Module } from '@syclkit/ir';
import { fcOptions } from '@syclkit/testing';
import { describe, expect } from 'vitest';
import { AMDGPU_HEADER, NVPTX_HEADER, llvm16, llvmVerify, parse, print } from '../test/ir.js';
import { addImplicitGlobalOffset } from './global-offset.js';

interface Graph {
  readonly amd: boolean;
  /** Per function: callees (indices of later functions) and how it reads the offset. */
  readonly functions: readonly { readonly calls: readonly number[]; readonly reads: 'none' | 'used' | 'unused' }[];
  /** Per kernel: callees. */
  readonly kernels: readonly (readonly number[])[];
}

const graph: fc.Arbitrary<Graph> = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.record({
    amd: fc.boolean(),
    functions: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          calls: fc.uniqueArray(fc.integer({ min: i + 1, max: n }), { maxLength: 3 }).map((xs) => xs.filter((x) => x < n)),
          reads: fc.constantFrom('none', 'used', 'unused') as fc.Arbitrary<'none' | 'used' | 'unused'>,
        }),
      ),
    ),
    kernels: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  }),
);

function moduleText(g: Graph): string {
  const lines = [g.amd ? AMDGPU_HEADER : NVPTX_HEADER, 'declare i64 @_Z27__spirv_BuiltInGlobalOffseti(i32)', ''];
  g.functions.forEach((f, i) => {
    lines.push(`define i64 @f${i}(i64 %x) {`);
    let acc = '%x';
    f.calls.forEach((c, j) => {
      lines.push(`  %c${j} = call i64 @f${c}(i64 ${acc})`);
      acc = `%c${j}`;
    });
    if (f.reads !== 'none') {
      lines.push(`  %o = call i64 @_Z27__spirv_BuiltInGlobalOffseti(i32 ${i % 3})`);
      if (f.reads === 'used') {
        lines.push(`  %r = add i64 ${acc}, %o`);
        acc = '%r';
      }
    }
    lines.push(`  ret i64 ${acc}`, '}', '');
  });
  const cc = g.amd ? 'amdgpu_kernel' : 'ptx_kernel';
  g.kernels.forEach((callees, k) => {
    lines.push(`define ${cc} void @k${k}() {`);
    callees.forEach((c, j) => lines.push(`  %c${j} = call i64 @f${c}(i64 ${j})`));
    lines.push('  ret void', '}', '');
  });
  return lines.join('\n');
}

/** Names of the functions that reach the builtin (oracle: the description). */
function reaching(g: Graph): Set<string> {
  const reach = new Array<boolean>(g.functions.length).fill(false);
  for (let i = g.functions.length - 1; i >= 0; i--) {
    const f = g.functions[i]!;
    reach[i] = f.reads !== 'none' || f.calls.some((c) => reach[c]);
  }
  const names = new Set<string>();
  reach.forEach((r, i) => r && names.add(`f${i}`));
  g.kernels.forEach((callees, k) => callees.some((c) => reach[c]) && names.add(`k${k}`));
  return names;
}

function callees(fn: IRFunction): string[] {
  const out: string[] = [];
  for (const inst of fn.instructions()) if (inst instanceof CallInst && inst.calledFunction !== undefined && !inst.calledFunction.isIntrinsic) out.push(inst.calledFunction.name);
  return out;
}

const run = (g: Graph): { before: Module; after: Module } => {
  const before = parse(moduleText(g));
  const after = parse(moduleText(g));
  addImplicitGlobalOffset(after);
  return { before, after };
};

describe('addImplicitGlobalOffset properties', () => {
  test.prop([graph], fcOptions(150))('1: clones exactly the functions that reach the builtin, each right after its original', (g) => {
    const { before, after } = run(g);
    const expected = reaching(g);
    const names: string[] = [];
    for (const fn of before.functions) {
      if (fn.isDeclaration) continue;
      names.push(fn.name);
      if (expected.has(fn.name)) names.push(`${fn.name}_with_offset`);
    }
    expect(after.functions.filter((f) => !f.isDeclaration).map((f) => f.name)).toEqual(names);
    // the builtin goes once nothing calls it (it stays declared when nothing read it)
    expect(after.getFunction('_Z27__spirv_BuiltInGlobalOffseti') !== undefined).toBe(expected.size === 0);
  });

  test.prop([graph], fcOptions(150))('2: originals call what they called; clones call clones where there are some', (g) => {
    const { before, after } = run(g);
    const expected = reaching(g);
    for (const original of before.functions) {
      if (original.isDeclaration) continue;
      const kept = callees(original).filter((c) => !c.startsWith('_Z'));
      expect(callees(after.getFunction(original.name)!)).toEqual(kept);
      const clone = after.getFunction(`${original.name}_with_offset`);
      if (clone !== undefined) expect(callees(clone)).toEqual(kept.map((c) => (expected.has(c) ? `${c}_with_offset` : c)));
    }
  });

  test.prop([graph], fcOptions(150))('3: kernel clones take [3 x i32] byval/byref, other clones the offset pointer', (g) => {
    const { after } = run(g);
    const lines = print(after).split('\n');
    for (const fn of after.functions) {
      if (!fn.name.endsWith('_with_offset')) continue;
      const last = fn.args.length - 1;
      const type = lines.find((l) => l.startsWith('define') && l.includes(`@${fn.name}(`))!;
      if (fn.name.startsWith('k')) {
        expect(type).toContain(g.amd ? 'ptr addrspace(4) byref([3 x i32]) %' : 'ptr byval([3 x i32]) %');
      } else {
        expect(fn.args[last]!.type).toBe(after.context.ptr(g.amd ? 5 : 0));
      }
    }
  });

  test.prop([graph], fcOptions(150))('4: the result verifies', (g) => {
    const { after } = run(g);
    expect(verifyModule(after)).toEqual([]);
  });

  test.prop([graph], fcOptions(15))('4: LLVM 16 verifies the result (when installed)', (g) => {
    if (llvm16('opt') === undefined) return;
    const { after } = run(g);
    expect(llvmVerify(print(after))).toBe('');
  });

  test.prop([graph], fcOptions(100))('5: a second run changes nothing', (g) => {
    const { after } = run(g);
    const text = print(after);
    expect(addImplicitGlobalOffset(after).changed).toBe(false);
    expect(print(after)).toBe(text);
  });
});

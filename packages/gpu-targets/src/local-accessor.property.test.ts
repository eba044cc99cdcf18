/**
 * Properties of `lowerLocalAccessors` on generated kernels (parameters of random types: local,
 * global and generic pointers, integers, floats; random parameter attributes), NVPTX and AMDGCN:
 * 1. Exactly the parameters in address space 3 become attribute-less unnamed `i32`s; the others
 *    keep their type, attributes and name.
 * 2. Each rewritten kernel gets one `@<kernel>_shared_mem` global; untouched kernels get none.
 * 3. The entry block starts with a GEP into that array and a bitcast for each local parameter, the
 *    last parameter's first; the bitcast carries the parameter's name; the old body follows.
 * 4. The result verifies (ours; LLVM 16's on some runs when installed).
 * 5. A second run changes nothing.
 */
import { fc, test } from '@fast-check/vitest';
import { verifyModule } from '@syclkit/ir';
import { fcOptions } from '@syclkit/testing';
import { describe, expect } from 'vitest';
import { AMDGPU_HEADER, NVPTX_HEADER, llvm16, llvmVerify, parse, print } from '../test/ir.js';
import { lowerLocalAccessors } from './local-accessor.js';

const PARAM_TYPES = ['ptr addrspace(3)', 'ptr addrspace(1)', 'ptr', 'i32', 'float'] as const;
const kernelCase = fc.record({
  amd: fc.boolean(),
  params: fc.array(fc.record({ type: fc.constantFrom(...PARAM_TYPES), noundef: fc.boolean() }), { maxLength: 6 }),
});
type Case = typeof kernelCase extends fc.Arbitrary<infer T> ? T : never;

function text(c: Case): string {
  const params = c.params.map((p, i) => `${p.type}${p.noundef ? ' noundef' : ''} %p${i}`).join(', ');
  const body = c.params.map((p, i) => (p.type.startsWith('ptr') ? `  %v${i} = load i32, ${p.type} %p${i}, align 4\n` : '')).join('');
  return `${c.amd ? AMDGPU_HEADER : NVPTX_HEADER}define ${c.amd ? 'amdgpu_kernel' : 'ptx_kernel'} void @k(${params}) {\nentry:\n${body}  ret void\n}\n`;
}

describe('lowerLocalAccessors properties', () => {
  test.prop([kernelCase], fcOptions(200))('1, 2: local parameters become i32 offsets, others stay; one shared array per rewritten kernel', (c) => {
    const m = parse(text(c));
    const changed = lowerLocalAccessors(m).changed;
    const local = c.params.map((p) => p.type === 'ptr addrspace(3)');
    expect(changed).toBe(local.some(Boolean));
    const k = m.getFunction('k')!;
    k.args.forEach((a, i) => {
      if (local[i]) {
        expect(a.type).toBe(m.context.i32);
        expect(a.name).toBe('');
        expect(k.attributes.param(i).attributes).toEqual([]);
      } else {
        expect(a.name).toBe(`p${i}`);
        expect(k.attributes.param(i).has('noundef')).toBe(c.params[i]!.noundef);
      }
    });
    expect(m.globals.map((g) => g.name)).toEqual(changed ? ['k_shared_mem'] : []);
  });

  test.prop([kernelCase], fcOptions(200))('3: the entry starts with GEP/bitcast pairs, last local parameter first, then the old body', (c) => {
    const m = parse(text(c));
    lowerLocalAccessors(m);
    const entry = m.getFunction('k')!.blocks[0]!.instructions;
    const locals = c.params.map((p, i) => (p.type === 'ptr addrspace(3)' ? i : -1)).filter((i) => i >= 0).reverse();
    locals.forEach((param, j) => {
      expect(entry[2 * j]!.opcode).toBe('getelementptr');
      expect(entry[2 * j]!.operands[2]).toBe(m.getFunction('k')!.args[param]);
      expect(entry[2 * j + 1]!.opcode).toBe('bitcast');
      expect(entry[2 * j + 1]!.name).toBe(`p${param}`);
    });
    const rest = entry.slice(2 * locals.length).map((i) => i.opcode);
    expect(rest).toEqual([...c.params.filter((p) => p.type.startsWith('ptr')).map(() => 'load'), 'ret']);
  });

  test.prop([kernelCase], fcOptions(200))('4: the result verifies', (c) => {
    const m = parse(text(c));
    lowerLocalAccessors(m);
    expect(verifyModule(m)).toEqual([]);
  });

  test.prop([kernelCase], fcOptions(10))('4: LLVM 16 verifies the result (when installed)', (c) => {
    if (llvm16('opt') === undefined) return;
    const m = parse(text(c));
    lowerLocalAccessors(m);
    expect(llvmVerify(print(m))).toBe('');
  });

  test.prop([kernelCase], fcOptions(200))('5: a second run changes nothing', (c) => {
    const m = parse(text(c));
    lowerLocalAccessors(m);
    const once = print(m);
    expect(lowerLocalAccessors(m).changed).toBe(false);
    expect(print(m)).toBe(once);
  });
});

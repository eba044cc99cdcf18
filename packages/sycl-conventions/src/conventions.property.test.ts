/**
 * Properties of the conventions:
 * 1. readAspectTable returns the well-formed `!sycl_aspects` entries in order and counts the rest;
 *    valueOf(name) is the name's last value and nameOf(value) the value's first name.
 * 2. readAspectValues of a list of bare, named-pair and malformed operands gives the values of the
 *    well-formed ones in order and counts the others.
 * 3. isEntryPoint is: a definition, and a kernel (spir/amdgpu/ptx), or (SYCL_EXTERNAL and not a
 *    SPIR-V/SYCL/ESIMD/__builtin_ builtin) — or, with emitOnlyKernelsAsEntryPoints, a kernel or
 *    an indirectly-callable function.
 * 4. For any qualified class name, kernelTypeName(typeinfoName(name)) is its last part, and
 *    kernelsNamed finds that kernel by the name, by its last part when no other kernel shares it,
 *    and by its mangled name; it never returns a kernel that is not in the list.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { Context, getMetadata, parseModule } from '@syclkit/ir';
import { fcOptions } from '@syclkit/testing';
import { readAspectTable, readAspectValues } from './aspect-table.js';
import { isEntryPoint } from './entry-points.js';
import { kernelTypeName, kernelsNamed, typeinfoName } from './kernel-names.js';

const parse = (text: string) => parseModule(text, { filename: 'test.ll', context: new Context() });

const aspectName = fc.constantFrom('fp16', 'fp64', 'atomic64', 'gpu', 'ext_intel_esimd');
const aspectValue = fc.integer({ min: -3, max: 90 });

type Entry = { kind: 'pair'; name: string; value: number } | { kind: 'bad'; text: string };
const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constant('pair' as const), name: aspectName, value: aspectValue }),
  fc.record({ kind: fc.constant('bad' as const), text: fc.constantFrom('!{}', '!{!"x"}', '!{i32 1, !"x"}', '!{!"x", i32 1, i32 2}', '!{!"x", float 1.0}') }),
);

describe('aspect table properties', () => {
  test.prop([fc.array(entry, { maxLength: 8 })], fcOptions(100))('pairs in order, malformed counted, last value / first name', (entries) => {
    const refs = entries.map((_, i) => `!${i}`).join(', ');
    const nodes = entries.map((e, i) => `!${i} = ${e.kind === 'pair' ? `!{!"${e.name}", i32 ${e.value}}` : e.text}`).join('\n');
    const table = readAspectTable(parse(entries.length === 0 ? '' : `!sycl_aspects = !{${refs}}\n${nodes}\n`));
    const pairs = entries.flatMap((e) => (e.kind === 'pair' ? [[e.name, e.value] as [string, number]] : []));
    expect(table.pairs).toEqual(pairs);
    expect(table.malformed).toBe(entries.length - pairs.length);
    for (const [name] of pairs) expect(table.valueOf(name)).toBe(pairs.filter(([n]) => n === name).at(-1)![1]);
    for (const [, value] of pairs) expect(table.nameOf(value)).toBe(pairs.find(([, v]) => v === value)![0]);
  });

  type Operand = { kind: 'bare' | 'named'; value: number } | { kind: 'bad' };
  const operand: fc.Arbitrary<Operand> = fc.oneof(
    fc.record({ kind: fc.constantFrom('bare' as const, 'named' as const), value: aspectValue }),
    fc.constant({ kind: 'bad' as const }),
  );

  test.prop([fc.array(operand, { maxLength: 8 })], fcOptions(100))('list values in order, other shapes counted', (operands) => {
    const extra: string[] = [];
    const texts = operands.map((o) => {
      if (o.kind === 'bare') return `i32 ${o.value}`;
      if (o.kind === 'bad') return '!"not an aspect"';
      extra.push(`!${extra.length + 1} = !{!"a", i32 ${o.value}}`);
      return `!${extra.length}`;
    });
    const m = parse(`define void @f() !sycl_used_aspects !0 {\n  ret void\n}\n!0 = !{${texts.join(', ')}}\n${extra.join('\n')}\n`);
    const node = getMetadata(m.getFunction('f')!, m.context, 'sycl_used_aspects');
    expect(readAspectValues(node)).toEqual({
      values: operands.flatMap((o) => (o.kind === 'bad' ? [] : [o.value])),
      malformed: operands.filter((o) => o.kind === 'bad').length,
    });
  });
});

describe('entry point properties', () => {
  const callingConv = fc.constantFrom('spir_kernel', 'amdgpu_kernel', 'ptx_kernel', 'spir_func', '');
  const name = fc.constantFrom('f', '_Z3foov', '_Z16__spirv_Builtinv', '_Z10__sycl_getv', '_Z9__esimd_xv', '__builtin_y', '__spirv_z');
  const fnArb = fc.record({ callingConv, name, definition: fc.boolean(), external: fc.boolean(), virtual: fc.boolean(), only: fc.boolean() });

  test.prop([fnArb], fcOptions(200))('isEntryPoint follows the one rule', (f) => {
    const attrs = [f.external ? '"sycl-module-id"="a.cpp"' : '', f.virtual ? '"indirectly-callable"="s"' : ''].filter((a) => a !== '').join(' ');
    const head = `${f.callingConv === '' ? '' : `${f.callingConv} `}void @${f.name}()${attrs === '' ? '' : ' #0'}`;
    const text = `${f.definition ? `define ${head} {\n  ret void\n}` : `declare ${head}`}\n${attrs === '' ? '' : `attributes #0 = { ${attrs} }\n`}`;
    const fn = parse(text).getFunction(f.name)!;
    const kernel = ['spir_kernel', 'amdgpu_kernel', 'ptx_kernel'].includes(f.callingConv);
    const builtin = /^_Z\d*(__spirv_|__sycl_|__esimd_)/.test(f.name) || f.name.startsWith('__builtin_');
    const expected = f.definition && (kernel || (f.only ? f.virtual : f.external && !builtin));
    expect(isEntryPoint(fn, { emitOnlyKernelsAsEntryPoints: f.only })).toBe(expected);
  });
});

describe('kernel name properties', () => {
  const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/);
  const qualified = fc.array(identifier, { minLength: 1, maxLength: 3 });

  test.prop([qualified, fc.array(qualified, { maxLength: 5 })], fcOptions(200))('typeinfo names round-trip and resolve', (parts, others) => {
    const name = parts.join('::');
    const mangled = typeinfoName(name)!;
    expect(kernelTypeName(mangled)).toBe(parts.at(-1));
    const kernels = [...new Set([...others.map((o) => typeinfoName(o.join('::'))!), mangled])];
    expect(kernelsNamed(name, kernels)).toEqual([mangled]);
    expect(kernelsNamed(mangled, kernels)).toEqual([mangled]);
    const byLast = kernelsNamed(parts.at(-1)!, kernels);
    for (const k of byLast) expect(kernels).toContain(k);
    if (kernels.filter((k) => kernelTypeName(k) === parts.at(-1)).length === 1) expect(byLast).toEqual([mangled]);
  });
});

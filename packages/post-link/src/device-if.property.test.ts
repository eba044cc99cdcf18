/**
 * Properties of device_if add-on images on generated modules (kernels making conditional calls to
 * actions under a few conditions, sometimes also calling an action directly), in every split mode:
 *
 * 1. no image calls a conditional caller any more: every conditional call became a direct call;
 * 2. each pair id a main image lists in `SYCL/add on images` has exactly one real image (1) and
 *    one stub image (0) in the table;
 * 3. every function a main image declares but does not define through a rewritten call is
 *    defined by the real image and by the stub image of one of the pairs that image lists;
 * 4. the split images and add-on images together mention every action called conditionally.
 */
import { fc, test } from '@fast-check/vitest';
import { readPropertySetRegistry } from '@syclkit/formats';
import { describe, expect } from 'vitest';
import { ADD_ON_IMAGE_SET, ADD_ON_IMAGES_SET } from './device-if.js';
import type { SplitMode } from './grouping.js';
import { fcOptions } from '@syclkit/testing';
import { ir, runInMemory } from '../test/testing.js';

interface Kernel {
  readonly calls: readonly { action: number; condition: number }[];
  readonly direct: number | undefined;
  readonly source: number;
}

const CONDITIONS = ['i32 -1, i32 5', 'i32 -1, i32 6', 'i32 -3, i32 -1, i32 5', 'i32 -2, i32 1'];

const genKernel: fc.Arbitrary<Kernel> = fc.record({
  calls: fc.array(fc.record({ action: fc.integer({ min: 0, max: 2 }), condition: fc.integer({ min: 0, max: 3 }) }), { maxLength: 3 }),
  direct: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  source: fc.integer({ min: 0, max: 1 }),
});

function moduleText(kernels: readonly Kernel[], aspects: readonly number[]): string {
  const lines = ['%class.anon = type { ptr addrspace(4) }'];
  kernels.forEach((k, i) => {
    lines.push(`define weak_odr dso_local spir_kernel void @K${i}() #${k.source} {`, '  %c = alloca %class.anon, align 8');
    for (const call of k.calls) lines.push(`  call spir_func void @cc_P_1(ptr @A${call.action}, ptr %c, ${CONDITIONS[call.condition]})`);
    if (k.direct !== undefined) lines.push(`  call spir_func void @A${k.direct}(ptr addrspace(4) null)`);
    lines.push('  ret void', '}');
  });
  for (let a = 0; a < 3; a++) {
    lines.push(`define internal spir_func void @A${a}(ptr addrspace(4) %this) !sycl_used_aspects !${a} {`, `  call spir_func void @helper${a}()`, '  ret void', '}');
    lines.push(`define internal spir_func void @helper${a}() {`, '  ret void', '}');
  }
  lines.push('declare spir_func void @cc_P_1(ptr, ptr, ...) #2');
  lines.push('attributes #0 = { "sycl-module-id"="a.cpp" }', 'attributes #1 = { "sycl-module-id"="b.cpp" }');
  lines.push('attributes #2 = { "sycl-call-if-on-device-conditionally"="true" }');
  for (let a = 0; a < 3; a++) lines.push(`!${a} = !{i32 ${aspects[a]}}`);
  return lines.join('\n') + '\n';
}

describe('device_if properties', () => {
  test.prop(
    [fc.array(genKernel, { minLength: 1, maxLength: 4 }), fc.tuple(fc.constantFrom(1, 5, 6), fc.constantFrom(1, 5, 6), fc.constantFrom(1, 5, 6)), fc.constantFrom<SplitMode>('kernel', 'source', 'none')],
    fcOptions(60),
  )('conditional calls become direct calls served by listed real/stub add-on image pairs', async (kernels, aspects, mode) => {
    const { result, files } = await runInMemory(ir(moduleText(kernels, aspects)), { mode });
    const table = result.tables[0]!.table;
    const codes = table.column('Code');
    const props = table.column('Properties').map((p) => readPropertySetRegistry(files.get(p)!));
    const texts = codes.map((c) => files.get(c)!);
    for (const text of texts) expect(text).not.toMatch(/call spir_func void @cc_P_1/);
    const pairs = new Map<string, { real: number[]; stub: number[] }>();
    props.forEach((p, row) => {
      for (const [id, value] of p.getSet(ADD_ON_IMAGE_SET) ?? []) {
        const entry = pairs.get(id) ?? { real: [], stub: [] };
        (value.type === 1 && value.value === 1 ? entry.real : entry.stub).push(row);
        pairs.set(id, entry);
      }
    });
    for (const entry of pairs.values()) {
      expect(entry.real).toHaveLength(1);
      expect(entry.stub).toHaveLength(1);
    }
    const called = new Set<string>();
    props.forEach((p, row) => {
      const listed = [...(p.getSet(ADD_ON_IMAGES_SET)?.keys() ?? [])];
      for (const id of listed) expect(pairs.has(id), `pair ${id}`).toBe(true);
      for (const match of texts[row]!.matchAll(/^declare dso_local spir_func void @(A\d(?:\.\d+)?)\(/gm)) {
        const name = match[1]!;
        called.add(name.replace(/\.\d+$/, ''));
        const defines = (r: number): boolean => texts[r]!.includes(`void @${name}(ptr addrspace(4) %this)`);
        expect(listed.some((id) => defines(pairs.get(id)!.real[0]!) && defines(pairs.get(id)!.stub[0]!)), `${name} in row ${row}`).toBe(true);
      }
    });
    const expected = new Set(kernels.flatMap((k) => k.calls.map((c) => `A${c.action}`)));
    for (const name of expected) expect(texts.some((t) => t.includes(`@${name}`))).toBe(true);
    for (const name of called) expect(expected.has(name)).toBe(true);
  }, 60_000);
});

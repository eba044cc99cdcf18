import { describe, expect, it } from 'vitest';
import { AspectTable, BUILTIN_ASPECTS, builtinAspectTable } from './aspects.js';

// Values from intel/llvm aspects.def / aspects_deprecated.def (see the reference notes, section 3.4).
const KNOWN_VALUES: readonly (readonly [string, number])[] = [
  ['host', 0],
  ['cpu', 1],
  ['gpu', 2],
  ['fp16', 5],
  ['fp64', 6],
  ['int64_base_atomics', 7],
  ['usm_restricted_shared_allocations', 16],
  ['usm_system_allocations', 17],
  ['atomic64', 28],
  ['ext_oneapi_cuda_async_barrier', 34],
  ['ext_intel_free_memory', 36],
  ['ext_oneapi_external_memory_import', 46],
  ['ext_intel_esimd', 53],
  ['ext_oneapi_graph', 61],
  ['ext_intel_fpga_task_sequence', 62],
  ['ext_oneapi_bindless_sampled_image_fetch_3d', 72],
  ['ext_oneapi_cuda_cluster_group', 75],
  ['ext_oneapi_virtual_functions', 81],
  ['ext_oneapi_async_memory_alloc', 87],
];

describe('built-in aspect table', () => {
  it.each(KNOWN_VALUES)('gives %s the number %i', (name, value) => {
    expect(builtinAspectTable.valueOf(name)).toBe(value);
  });

  it('leaves the removed values 35, 47, 49 and 71 out of the enumerators', () => {
    const values = builtinAspectTable.enumerators().map((e) => e.value);
    for (const gap of [35, 47, 49, 71]) expect(values).not.toContain(gap);
    expect(values).toContain(0);
    expect(values).toContain(87);
  });

  it('keeps the deprecated alias usm_system_allocator on the value of usm_system_allocations', () => {
    expect(builtinAspectTable.valueOf('usm_system_allocator')).toBe(17);
    expect(builtinAspectTable.nameOf(17)).toBe('usm_system_allocations');
    expect(builtinAspectTable.namesOf(17)).toEqual(['usm_system_allocations', 'usm_system_allocator']);
  });

  it('resolves former names of renamed aspects to the current canonical name', () => {
    expect(builtinAspectTable.canonicalName('ext_oneapi_interop_memory_import')).toBe('ext_oneapi_external_memory_import');
    expect(builtinAspectTable.canonicalName('ext_oneapi_interop_semaphore_import')).toBe('ext_oneapi_external_semaphore_import');
  });

  it('keeps deprecated enumerators canonical for their own value', () => {
    expect(builtinAspectTable.nameOf(0)).toBe('host');
    expect(builtinAspectTable.definition('host')?.status).toBe('deprecated');
  });

  it('has one canonical name per value and unique names', () => {
    const names = BUILTIN_ASPECTS.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    for (const value of builtinAspectTable.values()) expect(builtinAspectTable.valueOf(builtinAspectTable.nameOf(value)!)).toBe(value);
  });
});

describe('AspectTable.fromPairs', () => {
  it("uses a module's own numbers, whatever the built-in table says", () => {
    // The ABI-break branch renumbers atomic64 to 27.
    const table = AspectTable.fromPairs([
      ['cpu', 1],
      ['atomic64', 27],
    ]);
    expect(table.valueOf('atomic64')).toBe(27);
    expect(table.nameOf(27)).toBe('atomic64');
    expect(table.valueOf('fp64')).toBeUndefined();
  });

  it('makes the first name declared for a value its canonical name', () => {
    const table = AspectTable.fromPairs([
      ['usm_system_allocations', 17],
      ['usm_system_allocator', 17],
    ]);
    expect(table.nameOf(17)).toBe('usm_system_allocations');
    expect(table.namesOf(17)).toEqual(['usm_system_allocations', 'usm_system_allocator']);
  });

  it('accepts a repeated identical pair but rejects a name given two values', () => {
    expect(AspectTable.fromPairs([['fp64', 6], ['fp64', 6]]).names()).toEqual(['fp64']);
    expect(() => AspectTable.fromPairs([['fp64', 6], ['fp64', 7]])).toThrow(/two values: 6 and 7/);
  });

  it('resolves references by name or by number known to the table', () => {
    const table = AspectTable.fromPairs([['fp16', 5]]);
    expect(table.resolve('fp16')).toBe(5);
    expect(table.resolve(5)).toBe(5);
    expect(table.resolve(6)).toBeUndefined();
    expect(table.resolve('fp64')).toBeUndefined();
  });
});

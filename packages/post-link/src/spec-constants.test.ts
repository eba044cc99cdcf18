import { rawByteArray, type ByteArrayPropertyValue } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { entryPoints } from '@syclkit/sycl-conventions';
import { computeSpecRequirements, decodeRequirementsValue, requirementsValue, REQUIREMENTS_SET } from './spec-constants.js';
import { ir, runInMemory } from '../test/testing.js';

const module = `
define spir_kernel void @k1() #0 !reqd_work_group_size !0 { call void @shared() ret void }
define spir_kernel void @k2() #0 !intel_reqd_sub_group_size !1 { call void @shared() call void @only2() ret void }
define spir_kernel void @k3() #0 { call void @shared() ret void }
define spir_func void @shared() !sycl_used_aspects !2 { ret void }
define spir_func void @only2() !sycl_used_aspects !3 !sycl_declared_aspects !4 { ret void }
define spir_func void @ext() #0 !sycl_used_aspects !3 { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 64, i32 1, i32 1}
!1 = !{i32 16}
!2 = !{i32 5}
!3 = !{i32 6}
!4 = !{i32 9}
`;

describe('spec-constant strategy', () => {
  it('gives each kernel and exported function its required aspects and sizes with shared spec ids', () => {
    const m = ir(module);
    const r = computeSpecRequirements(m, entryPoints(m), { specIdBase: 100 });
    expect(r.requirements.get('k1')).toEqual([
      { kind: 'aspect', aspect: 5, specId: 100 },
      { kind: 'reqd-work-group-size', dims: [64, 1, 1], specId: 101 },
    ]);
    // a callee's [[sycl::device_has()]] (only2: 9) counts as use
    expect(r.requirements.get('k2')).toEqual([
      { kind: 'aspect', aspect: 5, specId: 100 },
      { kind: 'aspect', aspect: 6, specId: 102 },
      { kind: 'aspect', aspect: 9, specId: 103 },
      { kind: 'reqd-sub-group-size', size: 16, specId: 104 },
    ]);
    expect(r.requirements.get('ext')).toEqual([{ kind: 'aspect', aspect: 6, specId: 102 }]);
  });

  it('reports uses outside [[sycl::device_has()]]', () => {
    const m = ir(module);
    const r = computeSpecRequirements(m, entryPoints(m));
    expect(r.diagnostics.map((d) => d.message)).toEqual(["function 'only2' uses aspect 'fp64' that its [[sycl::device_has()]] does not list"]);
  });

  it('gates callees by the OR of their callers, and not at all when an ungated kernel calls them', () => {
    const m = ir(module);
    const r = computeSpecRequirements(m, entryPoints(m), { specIdBase: 100 });
    expect(r.conditions.get('only2')).toEqual([[100, 102, 103, 104]]);
    // k3 requires aspect 5 (through shared), so shared is gated by k1 OR k2 OR k3
    expect(r.conditions.get('shared')).toEqual([[100, 101], [100, 102, 103, 104], [100]]);
    const free = ir(`
define spir_kernel void @a() #0 { call void @f() ret void }
define spir_kernel void @b() #0 !reqd_work_group_size !0 { call void @f() ret void }
define spir_func void @f() { ret void }
attributes #0 = { "sycl-module-id"="a.cpp" }
!0 = !{i32 8}
`);
    expect(computeSpecRequirements(free, entryPoints(free)).conditions.has('f')).toBe(false);
  });

  it('encodes SYCL/requirements as count, then typed entries, and decodes back', () => {
    const reqs = [
      { kind: 'aspect', aspect: 6, specId: 7 },
      { kind: 'reqd-work-group-size', dims: [8, 8], specId: 8 },
      { kind: 'reqd-sub-group-size', size: 32, specId: 9 },
    ] as const;
    const value = requirementsValue(reqs) as ByteArrayPropertyValue;
    const words = [...new Uint32Array(rawByteArray(value).slice(8).buffer)];
    expect(words).toEqual([3, 0, 6, 7, 1, 2, 8, 8, 8, 2, 32, 9]);
    expect(decodeRequirementsValue(value.payload)).toEqual(reqs);
  });

  it('bundles kernels whatever they require and writes the set and the IR conditions', async () => {
    const { result, files } = await runInMemory(ir(module), { mode: 'source', requirementStrategy: 'spec-constants' });
    expect(result.tables[0]!.table.rowCount).toBe(1);
    const prop = files.get('out/t_0.prop')!;
    expect(prop).toContain(`[${REQUIREMENTS_SET}]\nk1=2|`);
    expect(files.get('out/t_0.ll')).toContain('!sycl_requirement_spec_constants = !{');
  });
});

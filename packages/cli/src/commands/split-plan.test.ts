import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { scratch, syclkit, writeSample } from '../../test/harness.js';
import { runSyclkit } from '../../test/testing.js';

const s = scratch('split-plan');
let units: string[] = [];
beforeAll(() => {
  units = writeSample(s.dir);
});
afterAll(() => s.cleanup());

/** Two kernels of one file sharing a large helper, and a third with double. */
const SHARED = `target triple = "spir64-unknown-unknown"

define weak_odr spir_kernel void @_ZTS1A(ptr addrspace(1) %p) #0 {
  call spir_func void @big(ptr addrspace(1) %p)
  ret void
}

define weak_odr spir_kernel void @_ZTS1B(ptr addrspace(1) %p) #0 {
  call spir_func void @big(ptr addrspace(1) %p)
  ret void
}

define linkonce_odr spir_func void @big(ptr addrspace(1) %p) {
${Array.from({ length: 40 }, (_, i) => `  %v${i} = load i32, ptr addrspace(1) %p, align 4\n  store i32 %v${i}, ptr addrspace(1) %p, align 4`).join('\n')}
  ret void
}

attributes #0 = { "sycl-module-id"="shared.cpp" }
`;

describe('syclkit split-plan', () => {
  it('lists the images of every mode with requirements, and recommends per_kernel when nothing is copied', async () => {
    const r = await syclkit('split-plan', ...units, '-Wno-sycl-aspect-mismatch', '--json');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(plan.modes.map((m: { mode: string }) => m.mode)).toEqual(['per_kernel', 'per_source', 'off', 'auto']);
    const perKernel = plan.modes[0];
    expect(perKernel.images).toHaveLength(6);
    expect(perKernel.duplicated).toEqual([]);
    const off = plan.modes[2];
    // off still never bundles kernels with different requirements
    for (const image of off.images) if (image.kernels.includes('_ZTS9Integrate')) expect(image.kernels).toEqual(['_ZTS9Integrate']);
    expect(plan.recommendation.mode).toBe('per_kernel');
  });

  it('counts functions copied into several images and recommends off when copies would be large', async () => {
    const file = s.file('shared.ll', SHARED);
    const r = await syclkit('split-plan', file, '--json');
    const plan = JSON.parse(r.out);
    const perKernel = plan.modes.find((m: { mode: string }) => m.mode === 'per_kernel');
    expect(perKernel.images).toHaveLength(2);
    expect(perKernel.duplicated).toEqual([{ name: 'big', copies: 2, instructions: 81 }]);
    expect(perKernel.duplicatedInstructions).toBe(81);
    expect(plan.modes.find((m: { mode: string }) => m.mode === 'per_source').images).toHaveLength(1);
    expect(plan.recommendation.mode).toBe('per_source');
    const text = await syclkit('split-plan', file);
    expect(text.out).toContain('  copied: big (2 copies, 81 instructions each)');
    expect(text.out).toMatch(/recommended: -fsycl-device-code-split=per_source \(1 images; a submission JIT-compiles only the kernels of its source file, and no function is copied into two images\)\n$/);
  });

  it("reads a translation unit from standard input for '-', beside files, and only once", async () => {
    const file = s.file('shared-stdin.ll', SHARED);
    const fromFile = JSON.parse((await syclkit('split-plan', file, '--json')).out);
    const fromStdin = await runSyclkit(['split-plan', '-', '--json'], SHARED);
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.out).modes).toEqual(fromFile.modes);
    const mixed = await runSyclkit(['split-plan', units[0]!, '-', '-Wno-sycl-aspect-mismatch', '--json'], readFileSync(units[1]!, 'latin1'));
    expect(JSON.parse(mixed.out).modes).toEqual(JSON.parse((await syclkit('split-plan', units[0]!, units[1]!, '-Wno-sycl-aspect-mismatch', '--json')).out).modes);
    const twice = await runSyclkit(['split-plan', '-', '-'], SHARED);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain("standard input ('-') can be given only once");
  });

  it('says how many images each device target filters out', async () => {
    const r = await syclkit('split-plan', ...units, '-fsycl-targets=spir64,intel_gpu_dg1', '-Wno-sycl-aspect-mismatch');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/per_kernel:\n(?:.*\n)*? {2}intel_gpu_dg1: 3 of 6 images filtered out/);
  });

  it('reports input errors without writing a plan', async () => {
    const bad = s.file('bad.ll', 'define void @f( {\n');
    const r = await syclkit('split-plan', bad);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/bad\.ll:\d+:\d+: error: expected type\n/);
  });
});

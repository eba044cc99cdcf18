// Properties checked (needs llc-16, cc and ar; skipped without):
// 1. However the demo's fat objects are split between the command line and a static library, and
//    in whatever order, `syclkit link` links exactly the direct units and the members they need
//    (shade.o needs tonemap.o's SYCL_EXTERNAL tonemap(); nothing needs a library's kernels), and
//    `syclkit check` of the executable gives, kernel by kernel and device by device, what it gives
//    for a container compiled from those same units.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { scratch, syclkit, writeSample } from '../../test/harness.js';
import { findLlvmTool } from '../llvm-tools.js';

const hasTools = findLlvmTool('llc') !== undefined && existsSync('/usr/bin/cc') && existsSync('/usr/bin/ar');
const s = scratch('link-property');
const UNITS = ['nbody', 'shade', 'tonemap'] as const;
const DEVICES = '--devices=intel_gpu_pvc,intel_gpu_dg1,nvidia_gpu_sm_80';

interface Cell {
  readonly kernel: string;
  readonly device: string;
  readonly ok: boolean;
}

async function cells(file: string): Promise<string[]> {
  const r = await syclkit('check', file, DEVICES, '--json');
  expect(r.code).toBe(0);
  const json = JSON.parse(r.out) as { results: (Cell & { message?: string })[] };
  expect(json.results.length).toBeGreaterThan(0);
  return json.results.map((c) => `${c.kernel}@${c.device}: ${c.ok ? 'ok' : c.message ?? 'refused'}`).sort();
}

describe.skipIf(!hasTools)('link matches compile (skipped without llc-16, cc and ar)', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    writeSample(s.dir);
    for (const unit of UNITS) expect((await syclkit('compile', '-fsycl-device-obj=llvmir', '-c', s.path(`${unit}.ll`), '-o', s.path(`${unit}.o`))).code).toBe(0);
  }, 120_000);
  afterAll(() => s.cleanup());

  const split = fc.tuple(fc.shuffledSubarray([...UNITS], { minLength: 1 }), fc.boolean()).map(([direct, archiveFirst]) => ({ direct, archived: UNITS.filter((u) => !direct.includes(u)), archiveFirst }));

  test.prop([split], fcOptions(4))('any split between objects and a library', async ({ direct, archived, archiveFirst }) => {
    const dir = s.path(`case-${direct.join('-')}-${archiveFirst}`);
    execFileSync('mkdir', ['-p', dir]);
    const lib = `${dir}/libpart.a`;
    if (archived.length > 0) execFileSync('ar', ['rcs', lib, ...archived.map((u) => `${u}.o`)], { cwd: s.dir });
    const objects = direct.map((u) => s.path(`${u}.o`));
    const inputs = archived.length === 0 ? objects : archiveFirst ? [lib, ...objects] : [...objects, lib];
    const linked = [...direct, ...(direct.includes('shade') && archived.includes('tonemap') ? ['tonemap'] : [])];
    const needsTonemap = linked.includes('shade') && !linked.includes('tonemap');
    const r = await syclkit('link', '-fsycl-device-obj=llvmir', ...inputs, '-Wno-sycl-aspect-mismatch', '-fsycl-targets=spir64,intel_gpu_dg1', '-o', `${dir}/app`);
    if (needsTonemap) {
      expect(r.code).toBe(1);
      expect(r.err).toContain("device code uses '_Z7tonemapf'");
      return;
    }
    expect(r.code).toBe(0);
    if (!linked.includes('nbody') && !linked.includes('shade')) {
      expect(r.err).toContain('the program defines no kernel');
      return;
    }
    expect(r.err).toBe('');
    const c = await syclkit('compile', '-fsycl-device-obj=llvmir', ...linked.map((u) => s.path(`${u}.ll`)), '-Wno-sycl-aspect-mismatch', '-fsycl-targets=spir64,intel_gpu_dg1', '-o', `${dir}/app.fatbin`);
    expect(c.code).toBe(0);
    expect(await cells(`${dir}/app`)).toEqual(await cells(`${dir}/app.fatbin`));
  });
});

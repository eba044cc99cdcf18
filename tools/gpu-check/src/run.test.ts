import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoDriver, writeFixture } from '../test/fixture.js';
import { runGpuCheck } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'gpu-check-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFixture(dir);
const ptxas = existsSync('/usr/local/cuda/bin/ptxas') ? '/usr/local/cuda/bin/ptxas' : false;

async function transcript(wrong?: string) {
  const lines: string[] = [];
  const out = join(dir, `out-${wrong ?? 'right'}`);
  const report = await runGpuCheck({ input: dir, out, driver: demoDriver(wrong), ptxas, timings: false, log: (line) => lines.push(line) });
  return { report, text: lines.join('\n'), out };
}

describe('gpu-check run (fake driver, hand-written PTX)', () => {
  it('passes when the device computes what JavaScript computes, and says what it checked', async () => {
    const { report, text, out } = await transcript();
    expect(text).toContain('→ target nvidia_gpu_sm_90 (also nvidia_gpu_sm_90a)');
    expect(text).toMatch(/ok {3}Integrate {7}image demo_0, grid 4x1x1 block 1024x1x1, .*: 4096\/4096 bit-identical/);
    expect(text).toMatch(/ok {3}HalfHistogram {3}image shade, grid 1x1x1 block 64x1x1/);
    expect(text).toContain('ok   per_kernel and auto: 5 of 5 kernels give byte-identical results');
    expect(text).toContain('ok   SubgroupReduce: kernel_not_supported: Sub-group size 8 is not supported on the device; driver calls during the submission: none');
    expect(text).toContain('gpu-check: all checks passed');
    expect(report.ok).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'gpu-check.json'), 'utf8'))).toMatchObject({ ok: true, splitsAgree: true });
    if (ptxas !== false) {
      expect(text).toMatch(/10 images checked with .* 0 rejected/);
      expect(readFileSync(join(out, 'ptxas.log'), 'utf8')).toContain('ok   demo-per_kernel.fatbin:demo_0');
    }
  });

  it('fails, naming the kernel and the first differing element, when the device result is wrong', async () => {
    const { report, text } = await transcript('_ZTS13ScaleVelocity');
    expect(text).toMatch(/FAIL ScaleVelocity .*4095\/4096 bit-identical, .*first mismatch at \[0\]/);
    expect(report.failures).toContain('ScaleVelocity (per_kernel) differs from the host');
    expect(text).toContain('gpu-check: 2 check(s) failed');
    expect(report.ok).toBe(false);
  });
});

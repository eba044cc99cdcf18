import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROBE_SPACES, printfProbePtx } from './printf-probe.js';

const ptxas = existsSync('/usr/local/cuda/bin/ptxas') ? '/usr/local/cuda/bin/ptxas' : undefined;

describe('the device printf probe module', () => {
  const ptx = printfProbePtx();
  it('has one vprintf kernel per state space of the format string, the format addressed through that space', () => {
    expect(PROBE_SPACES).toEqual(['const', 'global']);
    for (const space of PROBE_SPACES) {
      expect(ptx).toContain(`.visible .entry syclkit_printf_probe_${space}()`);
      expect(ptx).toMatch(new RegExp(`^\\.${space} \\.align 1 \\.b8 probe_format_${space}\\[\\d+\\] = \\{`, 'm'));
      expect(ptx).toContain(`cvta.${space}.u64 \t%rd4, %rd3;`);
    }
    // The bytes spell the format, NUL-terminated.
    const bytes = /probe_format_const\[(\d+)\] = \{([\d, ]+)\}/.exec(ptx)!;
    const text = Buffer.from(bytes[2]!.split(', ').map(Number)).toString('utf8');
    expect(text).toBe('syclkit printf probe (.const format): thread %u\n\0');
    expect(Number(bytes[1])).toBe(text.length);
  });

  it.skipIf(ptxas === undefined)('is accepted by ptxas for sm_90', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpu-check-probe-'));
    try {
      writeFileSync(join(dir, 'probe.ptx'), ptx);
      execFileSync(ptxas!, ['-arch=sm_90', '-c', join(dir, 'probe.ptx'), '-o', join(dir, 'probe.cubin')]);
      expect(existsSync(join(dir, 'probe.cubin'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the printf probe child', () => {
  it('makes the primary context of device 0 current before it loads the probe module (a driver without a current context refuses the load)', async () => {
    const { FakeCudaDriver } = await import('@syclkit/runtime');
    const { printfProbe } = await import('./printf-probe.js');
    for (const space of PROBE_SPACES) {
      const driver = new FakeCudaDriver();
      const result = printfProbe(space, { driver });
      expect(result).toMatchObject({ space, threads: 4 });
      const order = driver.calls.map((c) => c.call);
      expect(order.indexOf('cuCtxSetCurrent')).toBeGreaterThanOrEqual(0);
      expect(order.indexOf('cuCtxSetCurrent')).toBeLessThan(order.indexOf('cuModuleLoadDataEx'));
      expect(order).toContain('cuLaunchKernel');
    }
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSyclkit } from '../../test/testing.js';

async function run(...argv: string[]) {
  return runSyclkit(['targets', ...argv]);
}

const dir = mkdtempSync(join(tmpdir(), 'syclkit-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('syclkit targets', () => {
  it('lists every target with name, aliases, architecture, sub-group sizes and aspects', async () => {
    const { code, out, err } = await run();
    expect(code).toBe(0);
    expect(err).toBe('');
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TARGET\s+ALIASES\s+ARCHITECTURE\s+SUB-GROUPS\s+ASPECTS$/);
    expect(lines.find((l) => l.startsWith('intel_gpu_pvc '))).toMatch(/^intel_gpu_pvc\s+intel_gpu_12_60_7\s+intel_gpu_pvc\s+16,32\s+ext_intel_esimd,fp16,fp64,atomic64$/);
    expect(lines.find((l) => l.startsWith('intel_gpu_dg1 '))).not.toContain('fp64');
    expect(lines.find((l) => l.startsWith('nvidia_gpu_sm_80 '))).toContain('(+ may support others)');
    expect(lines.find((l) => l.startsWith('intel_gpu_lnl_m '))).toContain('(no configuration entry: none guaranteed)');
    expect(lines.at(-1)).toMatch(/^x86_64 \(config only\)/);
  });

  it('lists only the targets named, resolving aliases', async () => {
    const { code, out } = await run('intel_gpu_tgl', 'spir64');
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['intel_gpu_tgllp', 'spir64']);
  });

  it('prints JSON with hexadecimal architecture values', async () => {
    const { code, out } = await run('--json', 'amd_gpu_gfx90a');
    expect(code).toBe(0);
    const [target] = JSON.parse(out) as [Record<string, unknown>];
    expect(target).toMatchObject({
      name: 'amd_gpu_gfx90a',
      kind: 'amd_gpu',
      triple: 'amdgcn-amd-amdhsa',
      offloadArch: 'gfx90a',
      architecture: { name: 'amd_gpu_gfx90a', value: '0x0200000000090a00', family: 'amd_gpu' },
      entry: { subGroupSizes: [64], maySupportOtherAspects: false, source: 'builtin' },
      simulated: { deviceType: 'gpu', backend: 'ext_oneapi_hip', maxWorkGroupSize: 1024 },
    });
  });

  it('shows targets added and overridden by a configuration file', async () => {
    const config = file('new.yaml', 'intel_gpu_dg1:\n  aspects: [fp64]\n  sub-group-sizes: [8]\nmy_accel:\n  aspects: [accelerator]\n  sub-group-sizes: [4]\n');
    const { code, out } = await run('--json', `-fsycl-device-config-file=${config}`, 'intel_gpu_dg1', 'my_accel');
    expect(code).toBe(0);
    const targets = JSON.parse(out) as { name: string; kind: string; entry: { aspects: string[]; source: string } }[];
    expect(targets.map((t) => [t.name, t.kind, t.entry.aspects, t.entry.source])).toEqual([
      ['intel_gpu_dg1', 'intel_gpu', ['fp64'], `${config}:1:1`],
      ['my_accel', 'custom', ['accelerator'], `${config}:4:1`],
    ]);
  });

  it('prints configuration-file warnings on stderr and still succeeds', async () => {
    const config = file('dup.yaml', 'a:\n  aspects: []\n  sub-group-sizes: [8]\na:\n  aspects: []\n  sub-group-sizes: [8]\n');
    const { code, err } = await run(`-fsycl-device-config-file=${config}`, 'a');
    expect(code).toBe(0);
    expect(err).toContain(`${config}:4:1: warning: target 'a' is defined more than once; the last definition is used`);
  });

  it('fails on a bad configuration file with file:line:col', async () => {
    const config = file('bad.yaml', 'intel_gpu_pvc:\n  aspects: [fp64, fp6]\n  sub-group-sizes: [16]\n');
    const { code, out, err } = await run(`-fsycl-device-config-file=${config}`);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`${config}:2:19: error: unknown aspect 'fp6' in target 'intel_gpu_pvc'; did you mean 'fp16'?\n`);
  });

  it('fails on an unknown target with a suggestion', async () => {
    const { code, err } = await run('intel_gpu_pvcc');
    expect(code).toBe(1);
    expect(err).toBe("syclkit targets: error: unknown target 'intel_gpu_pvcc'; did you mean 'intel_gpu_pvc'?\n");
  });

  it('fails on a missing configuration file without a stack trace', async () => {
    const { code, err } = await run(`-fsycl-device-config-file=${join(dir, 'missing.yaml')}`);
    expect(code).toBe(1);
    expect(err).toBe(`syclkit targets: error: ${join(dir, 'missing.yaml')}: no such file or directory\n`);
  });

  it('documents its options in --help', async () => {
    const { code, out } = await run('--help');
    expect(code).toBe(0);
    expect(out).toMatch(/^usage: syclkit targets \[options\] \[<target>\.\.\.\]/);
    for (const option of ['-json', '-fsycl-device-config-file=<file.yaml>', '-help']) expect(out).toContain(option);
  });

  it('is deterministic', async () => {
    expect((await run('--json')).out).toBe((await run('--json')).out);
  });
});

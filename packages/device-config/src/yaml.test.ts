import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyDeviceConfigYaml, DeviceConfig } from './index.js';

const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Runs `script` in a fresh node process (ESM) and returns what it printed. */
function inFreshProcess(script: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

describe('yaml is loaded lazily', () => {
  // the built package, in its own process: vitest's module graph would hide what node loads
  it.skipIf(!existsSync(dist))('importing the package does not load yaml; reading a configuration file does', () => {
    const script = `
      import { createRequire } from 'node:module';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((p) => /[\\\\/]yaml[\\\\/]/.test(p));
      const api = await import(${JSON.stringify(dist)});
      const before = loaded();
      api.applyDeviceConfigYaml(api.DeviceConfig.builtin(), 'intel_gpu_dg1:\\n  aspects: [fp16]\\n  sub-group-sizes: [8]\\n', { file: 'x.yaml' });
      console.log(JSON.stringify({ before, after: loaded() }));`;
    expect(JSON.parse(inFreshProcess(script))).toEqual({ before: false, after: true });
  });

  it('reads a configuration file through the lazily loaded parser', () => {
    const { config } = applyDeviceConfigYaml(DeviceConfig.builtin(), 'intel_gpu_dg1:\n  aspects: [fp16]\n  sub-group-sizes: [8]\n', { file: 'x.yaml' });
    expect(config.entry('intel_gpu_dg1')?.aspects).toEqual(['fp16']);
  });
});

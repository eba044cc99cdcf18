import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AspectTable } from './aspects.js';
import { applyDeviceConfigYaml, DeviceConfigFileError, loadDeviceConfigFile } from './config-file.js';
import { DeviceConfig } from './config.js';
import { formatDiagnostic, type Diagnostic } from '@syclkit/pass-manager';

/** Clang-style text of one diagnostic, without the trailing newline. */
const renderDiagnostic = (d: Diagnostic): string => formatDiagnostic(d, { showCodes: false }).replace(/\n$/, '');

const builtin = DeviceConfig.builtin();
const fixture = (name: string) => fileURLToPath(new URL(`../test/fixtures/${name}/config.yaml`, import.meta.url));

/** The rendered diagnostics of a file that must fail to load. */
function failure(text: string, file = 'user.yaml'): string[] {
  try {
    applyDeviceConfigYaml(builtin, text, { file });
  } catch (error) {
    expect(error).toBeInstanceOf(DeviceConfigFileError);
    return (error as DeviceConfigFileError).render().trimEnd().split('\n');
  }
  throw new Error('expected the file to be rejected');
}

describe('applyDeviceConfigYaml: valid files', () => {
  it('overrides a built-in target; the lookup returns the file entry with its location', () => {
    const { config, diagnostics } = applyDeviceConfigYaml(
      builtin,
      'intel_gpu_dg1:\n  aspects: [fp16, fp64]\n  may_support_other_aspects: true\n  sub-group-sizes: [8, 16]\n',
      { file: 'dg1.yaml' },
    );
    expect(diagnostics).toEqual([]);
    expect(config.entry('intel_gpu_dg1')).toEqual({
      name: 'intel_gpu_dg1',
      aspects: ['fp16', 'fp64'],
      maySupportOtherAspects: true,
      subGroupSizes: [8, 16],
      aotToolchain: 'ocloc',
      aotToolchainOptions: [{ name: 'ocloc-device', value: 'dg1' }],
      source: { kind: 'file', location: { file: 'dg1.yaml', line: 1, column: 1 } },
    });
  });

  it('returns a new configuration and applies nothing to the base', () => {
    const { config } = applyDeviceConfigYaml(builtin, 'intel_gpu_dg1:\n  aspects: [fp64]\n  sub-group-sizes: [8]\n');
    expect(config).not.toBe(builtin);
    expect(builtin.entry('intel_gpu_dg1')?.aspects).not.toContain('fp64');
  });

  it('defaults may_support_other_aspects to false, as the .td does', () => {
    const { config } = applyDeviceConfigYaml(builtin, 'nvidia_gpu_sm_80:\n  aspects: [gpu]\n  sub-group-sizes: [32]\n');
    expect(config.entry('nvidia_gpu_sm_80')?.maySupportOtherAspects).toBe(false);
  });

  it('auto-detects ocloc and the device for intel_gpu_* unless the file sets them', () => {
    const { config } = loadDeviceConfigFile(builtin, fixture('new-gpu'));
    expect(config.entry('intel_gpu_35_20_1')?.aotToolchain).toBe('ocloc');
    expect(config.entry('intel_gpu_35_20_1')?.aotToolchainOptions).toEqual([{ name: 'ocloc-device', value: '35_20_1' }]);
    expect(config.entry('intel_gpu_dg1')?.aotToolchainOptions).toEqual([{ name: 'ocloc-device', value: 'dg1_b0' }]);
    const other = applyDeviceConfigYaml(builtin, 'intel_gpu_x:\n  aspects: []\n  sub-group-sizes: [8]\n  aot-toolchain: mytool\n  aot-toolchain-mytool-level: 3\n').config;
    expect(other.entry('intel_gpu_x')).toMatchObject({ aotToolchain: 'mytool', aotToolchainOptions: [{ name: 'mytool-level', value: '3' }] });
  });

  it('makes a target the file adds selectable in -fsycl-targets', () => {
    const { config } = loadDeviceConfigFile(builtin, fixture('new-gpu'));
    expect(config.resolve('intel_gpu_35_20_1')).toMatchObject({ kind: 'intel_gpu', triple: 'spir64_gen-unknown-unknown' });
  });

  it('keeps the text of option values exactly as written', () => {
    const { config } = applyDeviceConfigYaml(builtin, 'foo:\n  aspects: []\n  sub-group-sizes: [8]\n  aot-toolchain: t\n  aot-toolchain-version: 1.10\n');
    expect(config.entry('foo')?.aotToolchainOptions).toEqual([{ name: 'version', value: '1.10' }]);
  });

  it('resolves YAML anchors and aliases', () => {
    const { config } = applyDeviceConfigYaml(builtin, 'a:\n  aspects: &common [fp16, fp64]\n  sub-group-sizes: [8]\nb:\n  aspects: *common\n  sub-group-sizes: [16]\n');
    expect(config.entry('b')?.aspects).toEqual(['fp16', 'fp64']);
  });

  it('warns about an empty file and changes nothing', () => {
    const { config, diagnostics } = applyDeviceConfigYaml(builtin, '# nothing here\n', { file: 'empty.yaml' });
    expect(diagnostics.map(renderDiagnostic)).toEqual(['empty.yaml:1:1: warning: the device configuration file defines no targets']);
    expect(config.entries()).toEqual(builtin.entries());
  });
});

describe('applyDeviceConfigYaml: targets named twice', () => {
  it('warns, points at both definitions, and keeps the last one', () => {
    const { config, diagnostics } = loadDeviceConfigFile(builtin, fixture('duplicate-targets'));
    const file = fixture('duplicate-targets');
    expect(diagnostics.map(renderDiagnostic)).toEqual([
      `${file}:4:1: warning: 'intel_gpu_12_0_0' names the same target as 'intel_gpu_tgllp' (intel_gpu_tgllp); the last definition is used\n${file}:1:1: note: previous definition of 'intel_gpu_tgllp' is here`,
    ]);
    expect(config.entry('intel_gpu_tgllp')?.subGroupSizes).toEqual([16]);
  });

  it('warns when the same spelling appears twice', () => {
    const { diagnostics } = applyDeviceConfigYaml(builtin, 'x:\n  aspects: []\n  sub-group-sizes: [8]\nx:\n  aspects: []\n  sub-group-sizes: [16]\n', { file: 'f.yaml' });
    expect(diagnostics[0]?.message).toBe("target 'x' is defined more than once; the last definition is used");
    expect(diagnostics[0]?.location).toEqual({ file: 'f.yaml', line: 4, column: 1 });
  });
});

describe('applyDeviceConfigYaml: bad files', () => {
  it('reports every problem at its line and column, naming the key or value', () => {
    const file = fixture('bad-entries');
    let error: unknown;
    try {
      loadDeviceConfigFile(builtin, file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeviceConfigFileError);
    expect((error as DeviceConfigFileError).render().trimEnd().split('\n')).toEqual([
      `${file}:1:1: error: target 'intel_gpu_pvc' is missing the required key 'sub-group-sizes'`,
      `${file}:2:19: error: unknown aspect 'fp46' in target 'intel_gpu_pvc'; did you mean 'fp16'?`,
      `${file}:3:3: error: unknown key 'sub_group_sizes' in the entry of target 'intel_gpu_pvc'; did you mean 'sub-group-sizes'?`,
      `${file}:5:12: error: 'aspects' of target 'nvidia_gpu_sm_100' must be a list of aspect names, e.g. [fp16, fp64]`,
      `${file}:6:30: error: 'may_support_other_aspects' must be true or false, got 'yes'`,
      `${file}:7:25: error: sub-group size must be a positive integer, got '-1'`,
    ]);
  });

  it('carries its diagnostics; the message is the first error, its location in the diagnostic', () => {
    let error: unknown;
    try {
      applyDeviceConfigYaml(builtin, 'a: 1\n', { file: 'f.yaml' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeviceConfigFileError);
    const message = "the entry of target 'a' must be a mapping of aspects, may_support_other_aspects, sub-group-sizes, aot-toolchain and aot-toolchain-<option>";
    expect((error as DeviceConfigFileError).message).toBe(message);
    expect((error as DeviceConfigFileError).diagnostic).toMatchObject({ severity: 'error', code: 'expected-mapping', message, location: { file: 'f.yaml', line: 1, column: 4 } });
  });

  it('reports YAML syntax errors with their position', () => {
    const lines = failure('a:\n  aspects: [fp16\n', 'syntax.yaml');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^syntax\.yaml:\d+:\d+: error: /);
  });

  it('requires the top level to be a mapping', () => {
    expect(failure('- intel_gpu_pvc\n')).toEqual(['user.yaml:1:1: error: the top level of a device configuration file must map target names to entries']);
  });

  it('rejects an entry without keys', () => {
    expect(failure('intel_gpu_pvc:\n')).toEqual(["user.yaml:1:1: error: target 'intel_gpu_pvc' has no entry; it needs at least 'aspects' and 'sub-group-sizes'"]);
  });

  it('rejects target names that -fsycl-targets could not carry', () => {
    expect(failure('"a,b":\n  aspects: []\n  sub-group-sizes: [8]\n')).toEqual([
      "user.yaml:1:1: error: invalid target name 'a,b': use letters, digits, '_', '-' and '.' only",
    ]);
  });

  it('rejects aspects given by number, naming the aspect', () => {
    expect(failure('a:\n  aspects: [6]\n  sub-group-sizes: [8]\n')).toEqual(["user.yaml:2:13: error: aspects must be given by name, got '6'; aspect 6 is 'fp64'"]);
  });

  it('rejects a key given twice inside an entry', () => {
    expect(failure('a:\n  aspects: []\n  aspects: [fp16]\n  sub-group-sizes: [8]\n')).toEqual([
      "user.yaml:3:3: error: key 'aspects' appears more than once in the entry of target 'a'",
    ]);
  });

  it('rejects sub-group sizes that are not plain positive integers', () => {
    expect(failure('a:\n  aspects: []\n  sub-group-sizes: [8.0, 0, x]\n')).toEqual([
      "user.yaml:3:21: error: sub-group size must be a positive integer, got '8.0'",
      "user.yaml:3:26: error: sub-group size must be a positive integer, got '0'",
      "user.yaml:3:29: error: sub-group size must be a positive integer, got 'x'",
    ]);
  });

  it('rejects a list where a single AOT value is expected', () => {
    expect(failure('a:\n  aspects: []\n  sub-group-sizes: [8]\n  aot-toolchain: [ocloc]\n')).toEqual([
      "user.yaml:4:18: error: 'aot-toolchain' must be a single value, got a list",
    ]);
  });

  it('applies nothing from a file with one bad entry among good ones', () => {
    expect(() => applyDeviceConfigYaml(builtin, 'good:\n  aspects: []\n  sub-group-sizes: [8]\nbad:\n  aspects: [nope]\n  sub-group-sizes: [8]\n')).toThrow(
      DeviceConfigFileError,
    );
    expect(builtin.resolve('good')).toBeUndefined();
  });
});

describe('applyDeviceConfigYaml: aspect names', () => {
  it('warns about deprecated and renamed aspect names but keeps them', () => {
    const { config, diagnostics } = applyDeviceConfigYaml(builtin, 'a:\n  aspects: [int64_base_atomics, ext_oneapi_interop_memory_import]\n  sub-group-sizes: [8]\n', {
      file: 'f.yaml',
    });
    expect(diagnostics.map(renderDiagnostic)).toEqual([
      "f.yaml:2:13: warning: aspect 'int64_base_atomics' is deprecated: use atomic64 instead",
      "f.yaml:2:33: warning: aspect 'ext_oneapi_interop_memory_import' is an alias: renamed to ext_oneapi_external_memory_import",
    ]);
    expect(config.entry('a')?.aspects).toEqual(['int64_base_atomics', 'ext_oneapi_interop_memory_import']);
  });

  it('drops a repeated aspect with a warning', () => {
    const { config, diagnostics } = applyDeviceConfigYaml(builtin, 'a:\n  aspects: [fp16, fp16]\n  sub-group-sizes: [8]\n');
    expect(diagnostics.map((d) => d.code)).toEqual(['duplicate-aspect']);
    expect(config.entry('a')?.aspects).toEqual(['fp16']);
  });

  it('checks names against the table it is given', () => {
    const table = AspectTable.fromPairs([['my_aspect', 1000]]);
    const { config } = applyDeviceConfigYaml(builtin, 'a:\n  aspects: [my_aspect]\n  sub-group-sizes: [8]\n', { aspectTable: table });
    expect(config.entry('a')?.aspects).toEqual(['my_aspect']);
    expect(() => applyDeviceConfigYaml(builtin, 'a:\n  aspects: [fp16]\n  sub-group-sizes: [8]\n', { aspectTable: table })).toThrow(/unknown aspect 'fp16'/);
  });
});

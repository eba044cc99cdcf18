import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeviceConfig, UnknownTargetError, applyDeviceConfigYaml, architectureByName } from '@syclkit/device-config';
import { afterAll, describe, expect, it } from 'vitest';
import { Device, DeviceError, deviceFromTarget, formatIpVersion, loadDeviceDescriptionFile, parseDeviceDescription, parseIpVersion } from './index.js';

describe('deviceFromTarget', () => {
  it('gives a built-in Intel GPU its entry aspects, sub-group sizes, simulated limits, architecture and IP version', () => {
    const pvc = deviceFromTarget('intel_gpu_pvc');
    expect(pvc.name).toBe('intel_gpu_pvc');
    expect(pvc.aspects).toEqual([2, 5, 6, 28, 53]); // gpu (device type), fp16, fp64, atomic64, ext_intel_esimd
    expect(pvc.subGroupSizes).toEqual([16, 32]);
    expect(pvc.maxWorkGroupSize).toBe(1024);
    expect(pvc.maxWorkItemSizes).toEqual([1024, 1024, 1024]);
    expect(pvc.backend).toBe('ext_oneapi_level_zero');
    expect(pvc.deviceType).toBe('gpu');
    expect(pvc.architecture?.name).toBe('intel_gpu_pvc');
    expect(formatIpVersion(pvc.ipVersion!)).toBe('12.60.7');
    expect(pvc.targetNames()).toEqual(expect.arrayContaining(['intel_gpu_pvc', 'intel_gpu_12_60_7']));
  });

  it('resolves aliases to the canonical target', () => {
    expect(deviceFromTarget('intel_gpu_12_60_7').name).toBe('intel_gpu_pvc');
  });

  it('answers has() by aspect name or number', () => {
    const dg1 = deviceFromTarget('intel_gpu_dg1');
    expect(dg1.has('fp16')).toBe(true);
    expect(dg1.has('fp64')).toBe(false);
    expect(dg1.has(6)).toBe(false);
    expect(dg1.has('no_such_aspect')).toBe(false);
  });

  it('gives NVIDIA targets the CUDA backend and only the aspects their entry lists', () => {
    const sm80 = deviceFromTarget('nvidia_gpu_sm_80');
    expect(sm80.backend).toBe('ext_oneapi_cuda');
    expect(sm80.subGroupSizes).toEqual([32]);
    expect(sm80.has('fp64')).toBe(true);
    expect(sm80.has('fp16')).toBe(true);
  });

  it('refuses generic targets, targets without an entry and unknown names', () => {
    expect(() => deviceFromTarget('spir64')).toThrow(DeviceError);
    expect(() => deviceFromTarget('spir64')).toThrow(/stands for many kinds of device/);
    expect(() => deviceFromTarget('intel_gpu_lnl_m')).toThrow(/has no configuration entry/);
    expect(() => deviceFromTarget('intel_gpu_pvx')).toThrow(UnknownTargetError);
  });

  it('uses a configuration file entry for a target', () => {
    const { config } = applyDeviceConfigYaml(DeviceConfig.builtin(), 'intel_gpu_dg1:\n  aspects: [fp16, fp64]\n  sub-group-sizes: [16]\n');
    const dg1 = deviceFromTarget('intel_gpu_dg1', config);
    expect(dg1.has('fp64')).toBe(true);
    expect(dg1.subGroupSizes).toEqual([16]);
  });

  it('gives every device a process-unique id', () => {
    expect(deviceFromTarget('intel_gpu_pvc').id).not.toBe(deviceFromTarget('intel_gpu_pvc').id);
  });

  it('rejects non-positive limits', () => {
    expect(() => new Device({ name: 'x', aspects: [], subGroupSizes: [0], maxWorkGroupSize: 8, backend: 'opencl', deviceType: 'cpu' })).toThrow(/sub-group size must be a positive integer/);
  });
});

describe('device description files', () => {
  it('describes hardware the table does not know', () => {
    const device = parseDeviceDescription(
      'name: future-gpu\nip-version: 30.1.4\ndevice-type: gpu\naspects: [fp16, atomic64]\nsub-group-sizes: [16, 32, 64]\nmax-work-group-size: 2048\nmax-work-item-sizes: [2048, 2048, 64]\n',
    );
    expect(device.name).toBe('future-gpu');
    expect(device.target).toBeUndefined();
    expect(device.architecture).toBeUndefined();
    expect(formatIpVersion(device.ipVersion!)).toBe('30.1.4');
    expect(device.aspects).toEqual([2, 5, 28]);
    expect(device.subGroupSizes).toEqual([16, 32, 64]);
    expect(device.maxWorkGroupSize).toBe(2048);
    expect(device.maxWorkItemSizes).toEqual([2048, 2048, 64]);
    expect(device.backend).toBe('ext_oneapi_level_zero');
  });

  it('starts from a target and overrides what the file lists', () => {
    const device = parseDeviceDescription('target: intel_gpu_pvc\nname: pvc-1100\nmax-work-group-size: 512\n');
    expect(device.target).toBe('intel_gpu_pvc');
    expect(device.aspects).toEqual(deviceFromTarget('intel_gpu_pvc').aspects);
    expect(device.maxWorkGroupSize).toBe(512);
    expect(device.maxWorkItemSizes).toEqual([512, 512, 512]);
  });

  it('derives the architecture and target from a known IP version', () => {
    const device = parseDeviceDescription('name: some-dg2\nip-version: 12.55.8\naspects: []\nmax-work-group-size: 1024\n');
    expect(device.architecture?.name).toBe('intel_gpu_acm_g10');
    expect(device.targetNames()).toEqual(expect.arrayContaining(['intel_gpu_acm_g10', 'intel_gpu_dg2_g10', 'intel_gpu_12_55_8']));
  });

  it('reads JSON and aspect enum values', () => {
    const device = parseDeviceDescription('{"name": "cpu0", "device-type": "cpu", "aspects": [6, "fp16"], "max-work-group-size": 8192}');
    expect(device.deviceType).toBe('cpu');
    expect(device.backend).toBe('opencl');
    expect(device.aspects).toEqual([1, 5, 6]);
  });

  it('takes the IP version of a named architecture and rejects a contradicting one', () => {
    expect(parseDeviceDescription('architecture: intel_gpu_pvc\nmax-work-group-size: 1\n').ipVersion).toBe(architectureByName('intel_gpu_pvc')!.gmdid);
    expect(() => parseDeviceDescription('architecture: intel_gpu_pvc\nip-version: 12.0.0\nmax-work-group-size: 1\n', { file: 'd.yaml' })).toThrow(
      expect.objectContaining({ message: "'ip-version' does not match architecture 'intel_gpu_pvc'", location: { file: 'd.yaml', line: 2, column: 13 } }),
    );
  });

  it.each([
    ['name: a\nmax-work-group-size: 1\ncolour: red\n', 3, 1, /unknown key "colour"/],
    ['name: a\nmax-work-group-size: 0\n', 2, 22, /'max-work-group-size' must be a positive integer, got 0/],
    ['name: a\nmax-work-group-size: 4\naspects: [fp16, warp_drive]\n', 3, 17, /unknown aspect 'warp_drive'/],
    ['name: a\nmax-work-group-size: 4\nbackend: vulkan\n', 3, 10, /'backend' must be one of/],
    ['name: a\naspects: []\n', 1, 1, /'max-work-group-size' is required when no 'target' is given/],
    ['target: spir64\n', 1, 9, /stands for many kinds of device/],
    ['name: [a\n', 2, 1, /invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a \]/],
    ['- a\n', 1, 1, /a device description is a mapping/],
  ])('reports %j at its line and column', (text, line, column, message) => {
    let error: unknown;
    try {
      parseDeviceDescription(text, { file: 'dev.yaml' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeviceError);
    expect((error as DeviceError).message).toMatch(message);
    expect((error as DeviceError).location).toEqual({ file: 'dev.yaml', line, column });
    expect((error as DeviceError).render()).toMatch(new RegExp(`^dev\\.yaml:${line}:${column}: error: `));
  });

  const dir = mkdtempSync(join(tmpdir(), 'syclkit-device-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a file, naming it in errors', () => {
    const path = join(dir, 'gpu.yaml');
    writeFileSync(path, 'name: g\nmax-work-group-size: 64\nsub-group-sizes: [8]\n');
    expect(loadDeviceDescriptionFile(path).subGroupSizes).toEqual([8]);
    writeFileSync(path, 'name: g\n');
    expect(() => loadDeviceDescriptionFile(path)).toThrow(expect.objectContaining({ location: expect.objectContaining({ file: path }) }));
  });
});

describe('parseIpVersion', () => {
  it('reads dotted versions, decimal and hexadecimal GMDIDs', () => {
    expect(parseIpVersion('12.60.7')).toBe(0x030f0007);
    expect(parseIpVersion('0x030f0007')).toBe(0x030f0007);
    expect(parseIpVersion(51314695)).toBe(0x030f0007);
    expect(parseIpVersion('12.300.0')).toBeUndefined();
    expect(parseIpVersion('pvc')).toBeUndefined();
  });
});

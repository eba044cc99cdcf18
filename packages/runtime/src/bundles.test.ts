import { DeviceConfig, applyDeviceConfigYaml } from '@syclkit/device-config';
import { describe, expect, it } from 'vitest';
import { Device, deviceFromTarget, ipVersionOfTarget, matchBundle, parseDeviceDescription } from './index.js';
import { ptxRunsOn, smOfTarget } from './bundles.js';

const config = DeviceConfig.builtin();
const pvc = deviceFromTarget('intel_gpu_pvc');
const cpu = deviceFromTarget('spir64_x86_64');
const sm80 = deviceFromTarget('nvidia_gpu_sm_80');

describe('matchBundle', () => {
  it('matches an AOT bundle for the device by name, alias or IP version', () => {
    expect(matchBundle('intel_gpu_pvc', pvc, config)).toBe('device');
    expect(matchBundle('intel_gpu_12_60_7', pvc, config)).toBe('device');
    expect(matchBundle(`intel_gpu_${pvc.ipVersion}`, pvc, config)).toBe('device');
    expect(matchBundle(`intel_gpu_0x${pvc.ipVersion!.toString(16)}`, pvc, config)).toBe('device');
    expect(matchBundle('intel_gpu_dg1', pvc, config)).toBeUndefined();
    expect(matchBundle('intel_gpu_12_10_0', pvc, config)).toBeUndefined();
  });

  it('matches a configuration-file target named by GMDID for an unreleased device of that IP version', () => {
    const device = parseDeviceDescription('name: next\nip-version: 20.1.0\nmax-work-group-size: 1024\n');
    const { config: withFile } = applyDeviceConfigYaml(config, 'intel_gpu_20_1_0:\n  aspects: [fp16]\n  sub-group-sizes: [16]\n');
    expect(matchBundle('intel_gpu_20_1_0', device, withFile)).toBe('device');
    expect(matchBundle('intel_gpu_20_1_1', device, withFile)).toBeUndefined();
  });

  it('matches generic AOT triples by device kind and backend', () => {
    expect(matchBundle('spir64_gen', pvc, config)).toBe('family');
    expect(matchBundle('spir64_gen-unknown-unknown', pvc, config)).toBe('family');
    expect(matchBundle('spir64_gen', cpu, config)).toBeUndefined();
    expect(matchBundle('spir64_x86_64', cpu, config)).toBe('device');
    expect(matchBundle('nvptx64-nvidia-cuda', sm80, config)).toBe('family');
    expect(matchBundle('nvptx64-nvidia-cuda', pvc, config)).toBeUndefined();
    expect(matchBundle('amdgcn-amd-amdhsa', deviceFromTarget('amd_gpu_gfx90a'), config)).toBe('family');
    const fpga = new Device({ name: 'fpga', aspects: [], subGroupSizes: [], maxWorkGroupSize: 1024, backend: 'opencl', deviceType: 'accelerator' });
    expect(matchBundle('spir64_fpga', fpga, config)).toBe('family');
  });

  it('offers SPIR-V to OpenCL and Level Zero devices only', () => {
    expect(matchBundle('spir64', pvc, config)).toBe('jit');
    expect(matchBundle('spir64', cpu, config)).toBe('jit');
    expect(matchBundle('spir64', sm80, config)).toBeUndefined();
    expect(matchBundle('made_up_target', pvc, config)).toBeUndefined();
  });
});

describe('NVIDIA sm levels', () => {
  const sm70 = deviceFromTarget('nvidia_gpu_sm_70');
  const sm90 = deviceFromTarget('nvidia_gpu_sm_90');

  it('PTX of an sm_NN bundle runs on that GPU and newer CUDA GPUs, not on older ones', () => {
    expect(matchBundle('nvidia_gpu_sm_80', sm80, config)).toBe('device');
    expect(matchBundle('nvidia_gpu_sm_80', sm90, config)).toBe('family');
    expect(matchBundle('nvidia_gpu_sm_80', sm70, config)).toBeUndefined();
    expect(matchBundle('nvidia_gpu_sm_80', pvc, config)).toBeUndefined();
    expect(matchBundle('nvidia_gpu_sm_90a', sm90, config)).toBe('family');
    expect(matchBundle('nvidia_gpu_sm_90a', deviceFromTarget('nvidia_gpu_sm_80'), config)).toBeUndefined();
  });

  it('reads the level of a target or compile target; arch-specific sm_90a runs on sm_90 only', () => {
    expect(smOfTarget('nvidia_gpu_sm_86')).toEqual({ level: 86, specific: false });
    expect(smOfTarget('sm_90a')).toEqual({ level: 90, specific: true });
    expect(smOfTarget('gfx90a')).toBeUndefined();
    expect(ptxRunsOn('sm_75', sm80)).toBe(true);
    expect(ptxRunsOn('sm_86', sm80)).toBe(false);
    expect(ptxRunsOn('sm_90a', sm90)).toBe(true);
    expect(ptxRunsOn('sm_80', pvc)).toBeUndefined();
  });
});

describe('ipVersionOfTarget', () => {
  it('reads dotted and numeric Intel GPU targets only', () => {
    expect(ipVersionOfTarget('intel_gpu_12_60_7')).toBe(0x030f0007);
    expect(ipVersionOfTarget('intel_gpu_51314695')).toBe(0x030f0007);
    expect(ipVersionOfTarget('intel_gpu_pvc')).toBeUndefined();
    expect(ipVersionOfTarget('nvidia_gpu_sm_80')).toBeUndefined();
    expect(ipVersionOfTarget('intel_gpu_99999999999')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { annotationsName, gpuTripleOf, kernelCallingConv } from './target.js';

describe('gpuTripleOf', () => {
  it('reads the architecture, pointer width, OS and the SYCL runtime of GPU triples', () => {
    expect(gpuTripleOf('nvptx64-nvidia-cuda')).toEqual({ arch: 'nvptx', pointerBits: 64, os: 'cuda', runtime: 'cuda' });
    expect(gpuTripleOf('nvptx-nvidia-cuda')).toEqual({ arch: 'nvptx', pointerBits: 32, os: 'cuda', runtime: 'cuda' });
    expect(gpuTripleOf('nvptx64-nvidia-cuda-sycldevice')?.runtime).toBe('cuda');
    expect(gpuTripleOf('nvptx64-nvidia-nvcl')?.runtime).toBeUndefined();
    expect(gpuTripleOf('amdgcn-amd-amdhsa')).toEqual({ arch: 'amdgcn', pointerBits: 64, os: 'amdhsa', runtime: 'hsa' });
    expect(gpuTripleOf('amdgcn-amd-amdpal')?.runtime).toBeUndefined();
  });

  it('is undefined for other targets', () => {
    for (const t of ['spir64-unknown-unknown', 'x86_64-pc-linux-gnu', '', 'spirv64']) expect(gpuTripleOf(t)).toBeUndefined();
  });

  it('names each target\'s kernel annotations and calling convention', () => {
    expect([annotationsName('nvptx'), kernelCallingConv('nvptx')]).toEqual(['nvvm.annotations', 'ptx_kernel']);
    expect([annotationsName('amdgcn'), kernelCallingConv('amdgcn')]).toEqual(['amdgcn.annotations', 'amdgpu_kernel']);
  });
});

import { describe, expect, it } from 'vitest';
import { parse } from '../test/ir.js';
import { llcTriple, syclCodegenPipeline, unselectableIntrinsic } from './codegen-pipeline.js';

describe('syclCodegenPipeline', () => {
  it('runs globaloffset (and localaccessortosharedmemory when asked) for CUDA and HSA only', () => {
    expect(syclCodegenPipeline('nvptx64-nvidia-cuda')).toBe('globaloffset');
    expect(syclCodegenPipeline('amdgcn-amd-amdhsa', { localAccessor: true })).toBe('localaccessortosharedmemory,globaloffset');
    for (const t of ['nvptx64-nvidia-nvcl', 'amdgcn-amd-amdpal', 'amdgcn-unknown-linux-gnu', 'spir64-unknown-unknown']) {
      expect(syclCodegenPipeline(t, { localAccessor: true })).toBe('');
    }
  });
});

describe('llcTriple', () => {
  it('takes -mtriple, else the module triple with -march as its architecture', () => {
    expect(llcTriple('nvptx64-nvidia-nvcl', { mtriple: 'nvptx64-nvidia-cuda' })).toBe('nvptx64-nvidia-cuda');
    expect(llcTriple('nvptx64-nvidia-cuda', { march: 'nvptx64' })).toBe('nvptx64-nvidia-cuda');
    expect(llcTriple('', { march: 'amdgcn' })).toBe('amdgcn-unknown-linux-gnu');
    expect(llcTriple('spir64-unknown-unknown', {})).toBe('spir64-unknown-unknown');
  });
});

describe('unselectableIntrinsic', () => {
  it('names an implicit offset intrinsic that is still called, and only then', () => {
    const called = parse('declare ptr addrspace(5) @llvm.amdgcn.implicit.offset()\ndefine void @f() {\n  %p = call ptr addrspace(5) @llvm.amdgcn.implicit.offset()\n  ret void\n}\n');
    expect(unselectableIntrinsic(called)).toBe('llvm.amdgcn.implicit.offset');
    expect(unselectableIntrinsic(parse('declare ptr @llvm.nvvm.implicit.offset()\n'))).toBeUndefined();
  });
});

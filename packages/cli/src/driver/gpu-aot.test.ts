import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findLlvmTool } from '@syclkit/gpu-targets';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { UsageError } from '../args.js';
import { compileProgram } from './compile.js';
import { extractBackendArgs, isGpuTarget, missingGpuTools } from './gpu-aot.js';
import { SAMPLE_UNITS } from './sample.js';

const s = scratchDir('gpu-aot');
afterAll(s.remove);

describe('extractBackendArgs', () => {
  it('takes -Xsycl-target-backend[=<target>] and the argument after it, keeping the rest in order', () => {
    const { rest, backendArgs } = extractBackendArgs(['a.ll', '-Xsycl-target-backend=amdgcn-amd-amdhsa', '--offload-arch=gfx90a', '-o', 'x', '--Xsycl-target-backend', '-O3']);
    expect(rest).toEqual(['a.ll', '-o', 'x']);
    expect([...backendArgs]).toEqual([
      ['amdgcn-amd-amdhsa', ['--offload-arch=gfx90a']],
      ['*', ['-O3']],
    ]);
  });

  it('refuses a missing target or argument', () => {
    expect(() => extractBackendArgs(['-Xsycl-target-backend=', 'x'])).toThrow(UsageError);
    expect(() => extractBackendArgs(['-Xsycl-target-backend'])).toThrow(/needs the arguments/);
  });
});

describe('GPU targets in compile', () => {
  it('knows the CUDA and HSA triples, and which LLVM 16 tools each needs', () => {
    expect(['nvptx64-nvidia-cuda', 'amdgcn-amd-amdhsa', 'spir64_gen-unknown-unknown', undefined].map(isGpuTarget)).toEqual([true, true, false, false]);
    const none = (): undefined => undefined;
    expect(missingGpuTools('amdgcn-amd-amdhsa', none)).toEqual(['llc-16', 'ld.lld-16']);
    expect(missingGpuTools('nvptx64-nvidia-cuda', none)).toEqual(['llc-16']);
    expect(missingGpuTools('nvptx64-nvidia-cuda', () => '/usr/bin/llc')).toEqual([]);
  });

  const tools = findLlvmTool('llc') !== undefined && findLlvmTool('ld.lld') !== undefined && findLlvmTool('llvm-readobj') !== undefined;
  it.skipIf(!tools)('compiles the demo program to PTX and code objects (needs llc-16, ld.lld-16 and llvm-readobj-16)', async () => {
    const result = await compileProgram({
      units: SAMPLE_UNITS,
      targets: 'nvidia_gpu_sm_80,amdgcn-amd-amdhsa',
      name: 'app',
      backendArgs: new Map([['amdgcn-amd-amdhsa', ['--offload-arch=gfx1030']]]),
    });
    expect(result.diagnostics.items.filter((d) => d.severity === 'error')).toEqual([]);
    const reader = ContainerReader.fromBytes(result.container!);
    try {
      const bundles = reader.readDescriptor().bundles;
      const nvidia = bundles.find((b) => b.target === 'nvidia_gpu_sm_80')!;
      for (const image of nvidia.images.filter((i) => i.image.length > 0)) {
        const ptx = Buffer.from(image.image).toString('utf8');
        expect(ptx).toMatch(/^\.target sm_80/m);
        for (const entry of image.entries) expect(ptx).toContain(`.entry ${entry}(`);
      }
      const amd = bundles.find((b) => b.target === 'amdgcn-amd-amdhsa')!;
      const objects = amd.images.filter((i) => i.image.length > 0);
      expect(objects.length).toBeGreaterThan(0);
      for (const image of objects) {
        expect([...image.image.slice(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
        // llvm-readobj's notes list every kernel of the image, for the GPU the backend arguments chose
        const file = join(s.dir, `${image.name}.hsaco`);
        writeFileSync(file, image.image);
        const notes = spawnSync(findLlvmTool('llvm-readobj')!, ['--notes', file], { encoding: 'utf8' }).stdout;
        expect(notes).toContain('amdhsa.target:   amdgcn-amd-amdhsa--gfx1030');
        const names = [...notes.matchAll(/^ {4}\.name:\s+(\S+)$/gm)].map((m) => m[1]);
        for (const entry of image.entries) expect(names).toContain(entry);
      }
    } finally {
      reader.close();
    }
  }, 120_000);

  it.skipIf(!tools)('names the GPU amdgcn-amd-amdhsa needs when no backend argument gives one', async () => {
    const result = await compileProgram({ units: SAMPLE_UNITS, targets: 'amdgcn-amd-amdhsa', name: 'app' }).catch((e: Error) => e);
    const text = result instanceof Error ? result.message : result.diagnostics.items.map((d) => d.message).join('\n');
    expect(text).toContain('needs a GPU architecture');
  }, 120_000);
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { llvm16, parse } from '../test/ir.js';
import { gpuAotCompilerFor, isGpuAotTarget } from './aot.js';
import { GpuCodegenError, compileGpuImage, parseBackendArgs, prepareGpuModule } from './codegen.js';
import { findLlvmTool } from './llvm-tools.js';

const FIXTURE = readFileSync(new URL('../test/fixtures/kernels.ll', import.meta.url), 'latin1');
const KERNELS = ['_ZTS5Scale', '_ZTS5Scale_with_offset', '_ZTS6Reduce', '_ZTS6Reduce_with_offset'];
const haveTools = findLlvmTool('llc') !== undefined && findLlvmTool('ld.lld') !== undefined && findLlvmTool('llvm-readobj') !== undefined;
const PTXAS = '/usr/local/cuda/bin/ptxas';
const scratch = mkdtempSync(join(tmpdir(), 'gpu-codegen-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('parseBackendArgs', () => {
  it('takes the GPU from --offload-arch/--cuda-gpu-arch, lld options from -Wl, and the rest for llc', () => {
    expect(parseBackendArgs(['--offload-arch=gfx90a -O3', '-Wl,--gc-sections,-z,now', '--lld=--no-undefined'])).toEqual({
      cpu: 'gfx90a',
      llc: ['-O3'],
      lld: ['--gc-sections', '-z', 'now', '--no-undefined'],
    });
    expect(parseBackendArgs(['--cuda-gpu-arch=sm_70'])).toEqual({ cpu: 'sm_70', llc: [], lld: [] });
  });
});

describe('prepareGpuModule', () => {
  it('retargets, lowers builtins and runs the SYCL codegen passes', () => {
    const m = prepareGpuModule(parse(FIXTURE), { target: 'nvptx64-nvidia-cuda' });
    expect(m.functions.filter((f) => f.callingConv === 'ptx_kernel').map((f) => f.name)).toEqual(KERNELS);
    // the local accessor became an offset into the kernel's shared array
    expect(m.getGlobalVariable('_ZTS6Reduce_shared_mem')).toBeDefined();
    expect(m.getFunction('_Z27__spirv_BuiltInGlobalOffseti')).toBeUndefined();
  });

  it('names the builtins it cannot lower, with the function using them', () => {
    const text = FIXTURE.replaceAll('_Z15__spirv_ocl_powdd', '_Z18__spirv_ocl_lgammad');
    let error: unknown;
    try {
      prepareGpuModule(parse(text), { target: 'amdgcn-amd-amdhsa' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GpuCodegenError);
    expect((error as GpuCodegenError).message).toContain("'_ZZ4mainENKUlN4sycl3_V12idILi1EEEE_clES2_' calls __spirv_ocl_lgamma");
    expect((error as GpuCodegenError).problems).toHaveLength(1);
  });
});

describe('gpuAotCompilerFor', () => {
  it('resolves device names and triples to a triple and GPU', () => {
    expect([gpuAotCompilerFor('nvidia_gpu_sm_80').triple, gpuAotCompilerFor('nvidia_gpu_sm_80').cpu]).toEqual(['nvptx64-nvidia-cuda', 'sm_80']);
    expect(gpuAotCompilerFor('amd_gpu_gfx90a').cpu).toBe('gfx90a');
    expect(gpuAotCompilerFor('nvptx64-nvidia-cuda').cpu).toBe('sm_50');
    expect(gpuAotCompilerFor('nvptx64-nvidia-cuda', { backendArgs: ['--offload-arch=sm_70'] }).cpu).toBe('sm_70');
    expect(() => gpuAotCompilerFor('amdgcn-amd-amdhsa')).toThrow(/needs a GPU architecture/);
    expect(gpuAotCompilerFor('amdgcn-amd-amdhsa', { backendArgs: ['--offload-arch=gfx1030'] }).cpu).toBe('gfx1030');
    expect(() => gpuAotCompilerFor('intel_gpu_pvc')).toThrow(GpuCodegenError);
  });

  it('knows which targets it serves', () => {
    expect(['nvidia_gpu_sm_80', 'amd_gpu_gfx90a', 'nvptx64-nvidia-cuda', 'amdgcn-amd-amdhsa'].map((t) => isGpuAotTarget(t))).toEqual([true, true, true, true]);
    expect(['spir64', 'intel_gpu_pvc', 'spir64_x86_64'].map((t) => isGpuAotTarget(t))).toEqual([false, false, false]);
  });
});

describe.skipIf(!haveTools)('images from LLVM 16 (needs llc-16, ld.lld-16 and llvm-readobj-16)', () => {
  it('PTX: .target sm_XX and an .entry for each kernel, clones included', async () => {
    const image = await compileGpuImage(parse(FIXTURE), { target: 'nvptx64-nvidia-cuda', cpu: 'sm_80' });
    const ptx = Buffer.from(image.bytes).toString('utf8');
    expect(image.format).toBe('ptx');
    expect(image.kernels).toEqual(KERNELS);
    expect(ptx).toMatch(/^\.target sm_80$/m);
    for (const k of KERNELS) expect(ptx).toMatch(new RegExp(`\\.entry ${k}\\(`));
    // the local accessor parameter is a 32-bit offset
    expect(ptx).toContain('.param .u32 _ZTS6Reduce_param_1');
  });

  it.skipIf(!existsSync(PTXAS))('PTX is accepted by ptxas (needs /usr/local/cuda/bin/ptxas)', async () => {
    for (const cpu of ['sm_80', 'sm_75']) {
      const image = await compileGpuImage(parse(FIXTURE), { target: 'nvptx64-nvidia-cuda', cpu });
      const file = join(scratch, `${cpu}.ptx`);
      writeFileSync(file, image.bytes);
      const r = spawnSync(PTXAS, [`-arch=${cpu}`, '-c', file, '-o', join(scratch, `${cpu}.cubin`)], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
  });

  it('AMDGPU: an ELF shared object whose notes list every kernel', async () => {
    const image = await compileGpuImage(parse(FIXTURE), { target: 'amdgcn-amd-amdhsa', cpu: 'gfx90a' });
    expect(image.format).toBe('hsaco');
    expect([...image.bytes.slice(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
    const file = join(scratch, 'image.hsaco');
    writeFileSync(file, image.bytes);
    const notes = spawnSync(findLlvmTool('llvm-readobj')!, ['--notes', file], { encoding: 'utf8' }).stdout;
    const names = [...notes.matchAll(/^\s+\.name:\s+(\S+)$/gm)].map((m) => m[1]).filter((n) => n!.startsWith('_ZTS'));
    expect(names.sort()).toEqual([...KERNELS].sort());
    expect(notes).toContain('amdhsa.target:   amdgcn-amd-amdhsa--gfx90a');
  });

  it('the AOT compiler takes bitcode too, and gives native images', async () => {
    const as = llvm16('llvm-as');
    if (as === undefined) return;
    const bitcode = spawnSync(as, ['-o', '-', '-'], { input: FIXTURE }).stdout;
    const result = await gpuAotCompilerFor('nvidia_gpu_sm_80').compile({ input: bitcode, inputPath: 'kernels.bc', target: 'nvidia_gpu_sm_80', name: 'img' });
    expect(result.format).toBe(1);
    expect(Buffer.from(result.image).toString('utf8')).toContain('.entry _ZTS5Scale(');
  });

  it('AMDGPU: kernels of one image get only the local memory their functions reach (64 KiB each)', async () => {
    // two kernels, each reaching a 40 KiB local array through a helper: 80 KiB if every kernel got both
    const helpers = [0, 1].map(
      (i) => `@lds${i} = internal addrspace(3) global [10240 x i32] undef, align 4
define internal spir_func void @touch${i}(i64 %i) {
  %p = getelementptr inbounds [10240 x i32], ptr addrspace(3) @lds${i}, i64 0, i64 %i
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}
define spir_kernel void @k${i}() {
  call spir_func void @touch${i}(i64 ${i})
  ret void
}
`,
    );
    const image = await compileGpuImage(parse(`target triple = "spir64-unknown-unknown"\n${helpers.join('')}`), { target: 'amdgcn-amd-amdhsa', cpu: 'gfx90a' });
    expect(image.kernels).toEqual(['k0', 'k1']);
  });

  it('reports an llc failure with its message', async () => {
    await expect(compileGpuImage(parse(FIXTURE), { target: 'amdgcn-amd-amdhsa', cpu: 'gfx9999' })).rejects.toThrow(/llc failed/);
  });
});

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LLVM16_BIN, LLVM16_MISSING, llc16 } from '../test/llvm.js';
import { aotCompilerFor, defaultToolDirs, findTool, keepIrCompiler, llcCompiler } from './aot.js';
import { ImageFormat } from './descriptor.js';
import { AotToolError } from './errors.js';

const dir = mkdtempSync(join(tmpdir(), 'syclkit-aot-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const emptyDir = join(dir, 'empty');
mkdirSync(emptyDir);

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../test/fixtures/two-targets/${name}`, import.meta.url)));
const request = (input: Uint8Array, target = 'spir64') => ({ input, inputPath: 'a_0.ll', target, name: 'a_0' });

/** A stand-in for llvm-spirv (LLVM 16) and its llvm-as, enough to be found and to say its version. */
function fakeLlvmSpirv(): string {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const script = join(bin, 'llvm-spirv');
  writeFileSync(script, '#!/bin/sh\n[ "$1" = "--version" ] && echo "LLVM version 16.0.6" && exit 0\nexit 1\n');
  chmodSync(script, 0o755);
  writeFileSync(join(bin, 'llvm-as-16'), '#!/bin/sh\ncat\n');
  chmodSync(join(bin, 'llvm-as-16'), 0o755);
  return bin;
}

describe('keepIrCompiler', () => {
  it('keeps the device IR as the image and records its format', async () => {
    const ir = keepIrCompiler();
    expect(ir.name).toBe('ir');
    const text = fixture('a_0.ll');
    expect(await ir.compile(request(text))).toEqual({ image: text, format: ImageFormat.NONE });
    const bitcode = Uint8Array.of(0x42, 0x43, 0xc0, 0xde, 0x35, 0x14);
    expect((await ir.compile(request(bitcode))).format).toBe(ImageFormat.LLVMIR_BITCODE);
    const spirv = Uint8Array.of(0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0);
    expect((await ir.compile(request(spirv))).format).toBe(ImageFormat.SPIRV);
  });
});

describe('tool lookup', () => {
  it('searches $SYCLKIT_LLVM_BIN, then LLVM 16 and 19, then PATH', () => {
    expect(defaultToolDirs({ SYCLKIT_LLVM_BIN: '/opt/llvm/bin', PATH: '/usr/bin:/bin' })).toEqual([
      '/opt/llvm/bin',
      '/usr/lib/llvm-16/bin',
      '/usr/lib/llvm-19/bin',
      '/usr/bin',
      '/bin',
    ]);
    expect(defaultToolDirs({})).toEqual(['/usr/lib/llvm-16/bin', '/usr/lib/llvm-19/bin']);
  });

  it('finds the first matching name in the first directory that has one', () => {
    const bin = fakeLlvmSpirv();
    expect(findTool(['llvm-spirv-19', 'llvm-spirv'], { dirs: [emptyDir, bin] })).toBe(join(bin, 'llvm-spirv'));
    expect(findTool(['llvm-spirv'], { dirs: [emptyDir] })).toBeUndefined();
  });
});

describe('missing tools', () => {
  it('says which tool llc needs, where it looked and what to do, before any image is compiled', () => {
    expect(() => llcCompiler({ triple: 'nvptx64-nvidia-cuda', fileType: 'asm', dirs: [emptyDir] })).toThrow(
      `the 'llc' AOT backend needs 'llc', which is not installed (looked for llc, llc-16, llc-19 in ${emptyDir}); install LLVM (e.g. apt-get install llvm-16) or use -aot=ir`,
    );
    expect(() => aotCompilerFor('llc', 'nvidia_gpu_sm_80', { dirs: [emptyDir] })).toThrow(AotToolError);
  });
});

describe('aotCompilerFor', () => {
  it('maps backends to targets and refuses combinations that cannot work', () => {
    expect(aotCompilerFor('ir', 'intel_gpu_pvc').name).toBe('ir');
    expect(() => aotCompilerFor('ocloc', 'intel_gpu_pvc')).toThrow("unknown AOT backend 'ocloc'; expected one of ir, llvm-spirv, llc");
    expect(() => aotCompilerFor('llvm-spirv', 'nvidia_gpu_sm_80')).toThrow(
      "-aot=llvm-spirv makes SPIR-V, which target 'nvidia_gpu_sm_80' (nvptx64-nvidia-cuda) does not run; use -aot=llc or -aot=ir",
    );
    expect(() => aotCompilerFor('llc', 'intel_gpu_pvc')).toThrow(
      "-aot=llc compiles for NVIDIA and AMD GPUs; target 'intel_gpu_pvc' (spir64_gen-unknown-unknown) is not one (use -aot=llvm-spirv or -aot=ir)",
    );
    expect(() => aotCompilerFor('llc', 'amdgcn')).toThrow("-aot=llc for 'amdgcn' needs a GPU architecture; use a device name such as amd_gpu_gfx90a");
    expect(aotCompilerFor('llvm-spirv', 'intel_gpu_pvc', { dirs: [fakeLlvmSpirv()] }).name).toBe('llvm-spirv');
  });
});

const PTX_KERNEL = `target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @_ZTS7KernelA(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @_ZTS7KernelA, !"kernel", i32 1}
`;

describe.skipIf(llc16 === undefined)(`llc backend with LLVM 16${llc16 === undefined ? ` (skipped: ${LLVM16_MISSING})` : ''}`, () => {
  it('compiles an NVPTX module to PTX for the target architecture', async () => {
    const compiler = aotCompilerFor('llc', 'nvidia_gpu_sm_80', { dirs: [LLVM16_BIN] });
    const result = await compiler.compile(request(new TextEncoder().encode(PTX_KERNEL), 'nvidia_gpu_sm_80'));
    expect(result.format).toBe(ImageFormat.NATIVE);
    const ptx = new TextDecoder().decode(result.image);
    expect(ptx).toContain('.target sm_80');
    expect(ptx).toMatch(/\.entry _ZTS7KernelA/);
  });

  it('compiles an AMDGCN module to an ELF object', async () => {
    const ir = PTX_KERNEL.replace('nvptx64-nvidia-cuda', 'amdgcn-amd-amdhsa')
      .replace(/target datalayout = .*\n/, '')
      .replace('define void', 'define amdgpu_kernel void')
      .replace(/\n!nvvm[\s\S]*$/, '\n');
    const compiler = aotCompilerFor('llc', 'amd_gpu_gfx90a', { dirs: [LLVM16_BIN] });
    const result = await compiler.compile(request(new TextEncoder().encode(ir), 'amd_gpu_gfx90a'));
    expect([...result.image.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
  });

  it('reports llc errors located at the input', async () => {
    const compiler = aotCompilerFor('llc', 'nvidia_gpu_sm_80', { dirs: [LLVM16_BIN] });
    await expect(compiler.compile(request(new TextEncoder().encode('define void @f( {'), 'nvidia_gpu_sm_80'))).rejects.toThrow(
      /^a_0\.ll: llc on a_0\.ll failed \(exit status 1\):\n.*error:/,
    );
  });
});

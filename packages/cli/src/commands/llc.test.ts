import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLlvmTool } from '@syclkit/gpu-targets';
import { describe, expect, it } from 'vitest';
import { runSyclkit } from '../../test/testing.js';

const llc = findLlvmTool('llc');
const bin = join(fileURLToPath(new URL('.', import.meta.url)), '../../bin/syclkit.js');

const OFFSET = (triple: string): string => `target triple = "${triple}"
declare ptr @llvm.nvvm.implicit.offset()
define i32 @f() {
  %p = call ptr @llvm.nvvm.implicit.offset()
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
define void @k() {
  %r = call i32 @f()
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
`;

const LOCAL = `target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(3) %a) {
  %v = load i32, ptr addrspace(3) %a, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
`;

describe('syclkit llc', () => {
  it('tells the truth in --help', async () => {
    const r = await runSyclkit(['llc', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('-sycl-enable-local-accessor');
    expect(r.out).toContain('LLVM ERROR: Cannot select');
  });

  describe.skipIf(llc === undefined)('with LLVM 16 llc (needs /usr/lib/llvm-16/bin/llc)', () => {
    it('runs globaloffset for CUDA modules, so the kernel and its _with_offset clone reach PTX', async () => {
      const r = await runSyclkit(['llc', '-march=nvptx64', '-mcpu=sm_70'], OFFSET('nvptx64-nvidia-cuda'));
      expect(r.code).toBe(0);
      expect(r.out).toContain('.target sm_70');
      expect(r.out).toMatch(/\.entry k\(/);
      expect(r.out).toMatch(/\.entry k_with_offset\(/);
    });

    it('stops like intel/llvm when the intrinsic survives (OpenCL nvcl triple), exiting by SIGABRT', () => {
      const p = spawnSync(process.execPath, [bin, 'llc', '-march=nvptx64', '-mcpu=sm_20', '-'], { input: OFFSET('nvptx64-nvidia-nvcl'), encoding: 'utf8' });
      expect(p.signal).toBe('SIGABRT');
      expect(p.stderr).toContain('LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.implicit.offset');
    });

    it('turns local pointer parameters into .u32 offsets only with -sycl-enable-local-accessor', async () => {
      const on = await runSyclkit(['llc', '-march=nvptx64', '-mcpu=sm_20', '-sycl-enable-local-accessor'], LOCAL);
      expect(on.out).toContain('.param .u32 k_param_0');
      const off = await runSyclkit(['llc', '-march=nvptx64', '-mcpu=sm_20', '-sycl-enable-local-accessor=false'], LOCAL);
      expect(off.out).toMatch(/\.param \.u64 (\.ptr \.shared \.align 1 )?k_param_0/);
    });

    it("passes llc's errors and exit status through", async () => {
      const r = await runSyclkit(['llc', '-march=nvptx64', '-mcpu=sm_70', '-no-such-llc-option'], LOCAL);
      expect(r.code).not.toBe(0);
      expect(r.err).toContain('no-such-llc-option');
    });
  });
});

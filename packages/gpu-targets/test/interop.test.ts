/**
 * Interop with the real tools on a DPC++-shaped program (tools/bench's generator): the module is
 * split per kernel and automatically (sycl-post-link's modes), and every image is compiled for
 * nvidia_gpu_sm_80 and amd_gpu_gfx90a. Every PTX image must say `.target sm_80` and have an
 * `.entry` for each of its kernels (ptxas must accept it when installed); every AMDGPU code object
 * must be an ELF whose `llvm-readobj --notes` lists its kernels.
 *
 * 12 kernels by default; SYCLKIT_GPU_INTEROP_KERNELS=1000 runs the 1,000-kernel module
 * (tens of minutes of llc on a small machine).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateModule } from '@syclkit/bench';
import { parseModule, type Module } from '@syclkit/ir';
import { splitModule } from '@syclkit/post-link';
import { afterAll, describe, expect, it } from 'vitest';
import { gpuAotCompilerFor } from '../src/aot.js';
import { compileGpuImage } from '../src/codegen.js';
import { findLlvmTool } from '../src/llvm-tools.js';

const KERNELS = Number(process.env['SYCLKIT_GPU_INTEROP_KERNELS'] ?? '12');
const PTXAS = '/usr/local/cuda/bin/ptxas';
const tools = ['llc', 'ld.lld', 'llvm-readobj'] as const;
const missing = tools.filter((t) => findLlvmTool(t) === undefined);
const scratch = mkdtempSync(join(tmpdir(), 'gpu-interop-'));
// thousands of images at the size: removing them takes a while on a loaded machine
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 300_000);

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

function images(mode: 'kernel' | 'auto'): { name: string; module: Module; kernels: string[] }[] {
  const module = parseModule(generateModule({ seed: 1, kernels: KERNELS }).text, { filename: `bench${KERNELS}.ll` });
  return [...splitModule(module, { mode })].map((image) => ({
    name: `${mode}_${image.id}`,
    module: image.module,
    kernels: image.entryPoints.filter((f) => f.callingConv === 'spir_kernel').map((f) => f.name),
  }));
}

/** `.entry` names of a PTX text. */
function entries(ptx: string): string[] {
  return [...ptx.matchAll(/\.entry (\S+)\(/g)].map((m) => m[1]!);
}

describe.skipIf(missing.length > 0)(`GPU images of a ${KERNELS}-kernel bench module (needs LLVM 16's ${tools.join(', ')})`, () => {
  for (const mode of ['kernel', 'auto'] as const) {
    it(`per ${mode === 'kernel' ? 'kernel' : 'auto split'}: PTX for sm_80 with an .entry per kernel`, async () => {
      const list = images(mode);
      const compiler = gpuAotCompilerFor('nvidia_gpu_sm_80');
      let checked = 0;
      await pool(list, Math.max(1, cpus().length), async (image) => {
        const result = await compileGpuImage(image.module, { target: compiler.triple, cpu: compiler.cpu });
        const ptx = Buffer.from(result.bytes).toString('utf8');
        expect(ptx, image.name).toMatch(/^\.target sm_80\b/m);
        const found = entries(ptx);
        for (const k of image.kernels) expect(found, `${image.name}: .entry ${k}`).toContain(k);
        for (const e of found) expect(image.kernels, `${image.name}: unexpected .entry ${e}`).toContain(e.replace(/_with_offset$/, ''));
        if (existsSync(PTXAS)) {
          const file = join(scratch, `${image.name}.ptx`);
          writeFileSync(file, result.bytes);
          const r = spawnSync(PTXAS, ['-arch=sm_80', '-c', file, '-o', '/dev/null'], { encoding: 'utf8' });
          expect(r.stderr, `${image.name}: ptxas`).toBe('');
        }
        checked++;
      });
      expect(checked).toBe(list.length);
      expect(list.flatMap((i) => i.kernels)).toHaveLength(KERNELS);
    }, 3_600_000);

    it(`per ${mode === 'kernel' ? 'kernel' : 'auto split'}: gfx90a code objects whose notes list the kernels`, async () => {
      const list = images(mode);
      let checked = 0;
      await pool(list, Math.max(1, cpus().length), async (image) => {
        const result = await compileGpuImage(image.module, { target: 'amdgcn-amd-amdhsa', cpu: 'gfx90a' });
        expect([...result.bytes.slice(0, 4)], image.name).toEqual([0x7f, 0x45, 0x4c, 0x46]);
        const file = join(scratch, `${image.name}.hsaco`);
        writeFileSync(file, result.bytes);
        const notes = spawnSync(findLlvmTool('llvm-readobj')!, ['--notes', file], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
        const names = [...notes.matchAll(/^ {4}\.name:\s+(\S+)$/gm)].map((m) => m[1]!);
        for (const k of image.kernels) expect(names, `${image.name}: notes list ${k}`).toContain(k);
        checked++;
      });
      expect(checked).toBe(list.length);
    }, 3_600_000);
  }
});

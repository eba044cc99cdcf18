import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPIRV_TOOLS, SPIRV_TOOLS_MISSING, spirvValErrors } from '@syclkit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { generateModule } from './generator.js';
import { defaultSyclkit } from './main.js';
import type { GeneratorOptions } from './options.js';

// Generated modules compiled for spir64 as `syclkit compile` does by default (SPIR-V images, as
// DPC++), per_kernel and auto: every image is SPIR-V, `inspect -extract` writes each one as `.spv`,
// and spirv-val accepts every one. The modules have what llvm-spirv-15 cannot take as syclkit's
// own IR: accessor `__init`s, `printf` formats in addrspace(2), one-size `!reqd_work_group_size`.
// SPIRV_IMAGES_KERNELS=N runs the first configuration at N kernels (the bench README's 1,000-kernel
// check: `SPIRV_IMAGES_KERNELS=1000 npx vitest run --project bench src/spirv-images.test.ts`).
const scale = Number(process.env['SPIRV_IMAGES_KERNELS'] ?? '0');
const configurations: (Partial<GeneratorOptions> & { name: string })[] = [
  scale > 0 ? { name: `${scale} kernels`, seed: 1, kernels: scale } : { name: 'default shape', seed: 1, kernels: 24, tus: 4, functions: 96 },
  { name: 'debug info', seed: 4, kernels: 6, tus: 3, functions: 60, debugInfo: true },
  { name: 'many TUs, few functions (inlined kernels)', seed: 2, kernels: 8, tus: 6, functions: 14 },
];

function syclkit(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env['SYCLKIT_DEVICE_OBJ']; // compile's own default
  const r = spawnSync(process.execPath, [defaultSyclkit, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, env });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ready = SPIRV_TOOLS !== undefined && existsSync(defaultSyclkit);
describe.skipIf(!ready)(`generated modules compiled to SPIR-V images${ready ? '' : ` (skipped: ${SPIRV_TOOLS === undefined ? SPIRV_TOOLS_MISSING : 'needs a built syclkit'})`}`, () => {
  for (const { name, ...options } of configurations) {
    for (const split of ['per_kernel', 'auto'] as const) {
      it(`${name}, -fsycl-device-code-split=${split}: every spir64 image is SPIR-V that spirv-val accepts, and inspect -extract writes it`, () => {
        const dir = mkdtempSync(join(tmpdir(), 'bench-spirv-'));
        dirs.push(dir);
        const input = join(dir, 'module.ll');
        writeFileSync(input, generateModule(options).text, 'latin1');
        const bin = join(dir, 'app.fatbin');
        const compiled = syclkit(['compile', input, '-fsycl-targets=spir64', `-fsycl-device-code-split=${split}`, '-Wno-sycl-aspect-mismatch', '-o', bin]);
        expect(compiled.stderr).toBe('');
        expect(compiled.status).toBe(0);
        const report = syclkit(['inspect', bin, '--json']);
        expect(report.status).toBe(0);
        const images = (JSON.parse(report.stdout) as { bundles: { images: { name: string; empty: boolean; format: string }[] }[] }).bundles.flatMap((b) => b.images).filter((i) => !i.empty);
        expect(images.length).toBeGreaterThan(0);
        if (split === 'per_kernel') expect(images.length).toBe(options.kernels);
        const out = join(dir, 'images');
        expect(syclkit(['inspect', bin, '-extract', out]).status).toBe(0);
        expect(readdirSync(out).sort()).toEqual(images.map((i) => `${i.name}.spv`).sort());
        const invalid = readdirSync(out)
          .map((file) => ({ file, errors: spirvValErrors(readFileSync(join(out, file))) }))
          .filter((r) => r.errors !== undefined);
        expect(invalid).toEqual([]);
        rmSync(dir, { recursive: true, force: true });
      }, Math.max(240_000, 600 * (options.kernels ?? 0)));
    }
  }
});

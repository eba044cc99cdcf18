import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateModule } from './generator.js';
import { defaultSyclkit } from './main.js';
import type { GeneratorOptions } from './options.js';
import { haveTool } from './testing.js';

// Generated modules, and the images `syclkit post-link -split=kernel` makes of them, printed for
// LLVM 15's reader by `syclkit opt -S -llvm-version=15`: LLVM 15's llvm-as reads every one; in
// two configurations also their typed-pointer form (`-typed-pointers`, read with
// `-opaque-pointers=0`, which checks every pointee type).
const as15 = '/usr/lib/llvm-15/bin/llvm-as';

const configurations: (Partial<GeneratorOptions> & { name: string; typed?: boolean })[] = [
  { name: 'default shape', seed: 1, kernels: 8, tus: 2, functions: 40, typed: true },
  { name: 'many TUs, few functions (inlined kernels)', seed: 2, kernels: 8, tus: 6, functions: 14 },
  { name: 'debug info', seed: 4, kernels: 6, tus: 3, functions: 60, debugInfo: true, typed: true },
  { name: 'typed pointers', seed: 5, kernels: 6, tus: 3, functions: 60, pointers: 'typed' },
  { name: 'no kernels (SYCL_EXTERNAL library)', seed: 7, kernels: 0, tus: 2, functions: 40 },
];

function syclkit(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [defaultSyclkit, ...args], { encoding: 'latin1', maxBuffer: 256 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function llvm15Reads(file: string, typed: boolean): string {
  const printed = syclkit(['opt', '-S', '-llvm-version=15', ...(typed ? ['-typed-pointers'] : []), file]);
  if (printed.status !== 0) return `syclkit opt -llvm-version=15 ${file}: ${printed.stderr}`;
  const r = spawnSync(as15, [...(typed ? ['-opaque-pointers=0'] : []), '-o', '/dev/null', '-'], { input: Buffer.from(printed.stdout, 'latin1'), encoding: 'utf8' });
  return r.status === 0 ? '' : `llvm-as-15 ${typed ? '(typed) ' : ''}${file}: ${r.stderr}`;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!haveTool(as15) || !existsSync(defaultSyclkit))(`LLVM 15 reads generated modules and their images printed for it (skipped: needs ${as15} and a built syclkit)`, () => {
  for (const { name, typed, ...options } of configurations) {
    it(`${name}: the module and every per-kernel image${typed ? ', also with typed pointers' : ''}`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'bench-llvm15-'));
      dirs.push(dir);
      const input = join(dir, 'module.ll');
      writeFileSync(input, generateModule(options).text, 'latin1');
      const split = syclkit(['post-link', '-split=kernel', '-symbols', '-S', '-o', join(dir, 'out.table'), input]);
      expect(split.stderr).toBe('');
      const images = readdirSync(dir).filter((f) => /^out_\d+\.ll$/.test(f));
      if (options.kernels !== 0) expect(images.length).toBeGreaterThan(0);
      const files = [input, ...images.map((f) => join(dir, f))];
      const problems = [...files.map((f) => llvm15Reads(f, false)), ...(typed ? files.map((f) => llvm15Reads(f, true)) : [])].filter((p) => p !== '');
      expect(problems).toEqual([]);
    }, 240_000);
  }
});

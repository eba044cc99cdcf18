/**
 * Writes that are fast and never partial: `syclkit post-link` writes images, symbols and
 * properties directly and the table last (temporary file + rename). Runs alternate between two
 * inputs with the same file names and different contents, each rewriting the output of the one
 * before, and are killed (SIGKILL) at points spread over a run: every table present must be
 * complete and every file it names whole and of one run, byte-identical to that input's
 * reference output.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileTable } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';

const BIN = fileURLToPath(new URL('../../bin/syclkit.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../../dist/main.js', import.meta.url)));

/** A module of `count` kernels, each calling a helper of its own (one image per kernel); `variant` changes the bodies only. */
function bigModule(count: number, variant: number): string {
  const lines = ['target triple = "spir64-unknown-unknown"', ''];
  for (let i = 0; i < count; i++) {
    lines.push(`define weak_odr spir_kernel void @kernel_${i}(ptr addrspace(1) %p) #0 {`, `  call spir_func void @helper_${i}(ptr addrspace(1) %p)`, '  ret void', '}');
    lines.push(`define internal spir_func void @helper_${i}(ptr addrspace(1) %p) {`, `  store i32 ${i + variant * 100000}, ptr addrspace(1) %p, align 4`, '  ret void', '}', '');
  }
  lines.push('attributes #0 = { "sycl-module-id"="big.cpp" }', '');
  return lines.join('\n');
}

/** Deterministic pseudo-random numbers in [0, 1) (xorshift). */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const KERNELS = 400;

const args = (input: string, table: string): string[] => [BIN, 'post-link', '-split=kernel', '-symbols', '-properties', '-S', input, '-o', table];

/** Runs post-link, kills it after `delayMs`; resolves when it has exited. */
function runAndKill(input: string, table: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args(input, table), { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe.runIf(built)('post-link killed at random points', () => {
  it('never leaves a table that names a missing or half-written file', async () => {
    const { dir, remove } = scratchDir('syclkit-kill-');
    try {
      const inputs = [0, 1].map((variant) => {
        const path = join(dir, `big${variant}.ll`);
        writeFileSync(path, bigModule(KERNELS, variant));
        return path;
      });
      // Reference outputs of both inputs; the first run is timed.
      let duration = 0;
      const references = inputs.map((input, variant) => {
        const refDir = join(dir, `ref${variant}`);
        mkdirSync(refDir);
        const start = performance.now();
        const ref = spawnSync(process.execPath, args(input, join(refDir, 'out.table')), { encoding: 'utf8' });
        duration ||= performance.now() - start;
        expect(ref.status, ref.stderr).toBe(0);
        return new Map(readdirSync(refDir).map((f) => [f, readFileSync(join(refDir, f))]));
      });
      const out = join(dir, 'out');
      mkdirSync(out);
      const table = join(out, 'out.table');
      expect(spawnSync(process.execPath, args(inputs[0]!, table)).status).toBe(0);

      const next = random(16);
      const states = { interrupted: 0, complete: 0 };
      for (let trial = 0; trial < 30 && (trial < 8 || states.interrupted === 0 || states.complete === 0); trial++) {
        await runAndKill(inputs[(trial + 1) % 2]!, table, duration * (0.2 + next()));
        if (!existsSync(table)) {
          states.interrupted++;
          continue;
        }
        states.complete++;
        const rows = readFileTable(readFileSync(table), { fileName: table }).rows;
        expect(rows.length).toBe(KERNELS);
        const cells = rows.flat();
        for (const cell of cells) expect(existsSync(cell), `${cell} named by the table`).toBe(true);
        // Every file the table names is whole and from the same run (one input's reference).
        const matches = references.map((reference) => cells.every((cell) => readFileSync(cell).equals(reference.get(basename(cell))!)));
        expect(matches.some(Boolean), `trial ${trial}: the files named by ${table} are one run's, whole`).toBe(true);
      }
      // Some kills landed between the first write and the commit, some after it.
      expect(states.interrupted).toBeGreaterThan(0);
      expect(states.complete).toBeGreaterThan(0);
    } finally {
      remove();
    }
  }, 600_000);
});

/** Helpers for the command tests: run `syclkit` in memory and make scratch directories. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../src/io.js';
import { main } from '../src/main.js';

/** A CliIO that collects stdout/stderr as strings and serves `stdin` to commands that read it. */
export function memoryIO(stdin = ''): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string | Uint8Array) => (out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1')) },
    stderr: { write: (chunk: string) => (err += chunk) },
    readStdin: async () => Buffer.from(stdin, 'latin1'),
    stdoutIsTTY: false,
    out: () => out,
    err: () => err,
  };
}

/** Runs `syclkit <argv...>` in process; returns the exit code and what it wrote. */
export async function runSyclkit(argv: readonly string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO(stdin);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** A fresh temporary directory and a function that removes it (call it from `afterAll`). */
export function scratchDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `syclkit-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `count` kernels; every third calls a SYCL_EXTERNAL function that uses fp64 without declaring
 * it, so the design's SYCL_EXTERNAL check warns in many images (diagnostics in image order).
 */
export function kernelsProgram(count: number): string {
  const lines = ['target triple = "spir64-unknown-unknown"', ''];
  for (let i = 0; i < count; i++) {
    lines.push(`define weak_odr spir_kernel void @kernel_${i}(ptr addrspace(1) %p) #0 {`);
    if (i % 3 === 0) lines.push(`  call spir_func void @external_${i}(ptr addrspace(1) %p)`);
    lines.push(`  store i32 ${i}, ptr addrspace(1) %p, align 4`, '  ret void', '}');
    if (i % 3 === 0) lines.push(`define spir_func void @external_${i}(ptr addrspace(1) %p) #1 !sycl_used_aspects !1 {`, '  ret void', '}');
  }
  lines.push('attributes #0 = { "sycl-module-id"="a.cpp" }', 'attributes #1 = { "sycl-module-id"="b.cpp" }', '!sycl_aspects = !{!0}', '!0 = !{!"fp64", i32 6}', '!1 = !{i32 6}', '');
  return lines.join('\n');
}

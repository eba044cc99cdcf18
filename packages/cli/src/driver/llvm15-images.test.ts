import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseModule, printModule } from '@syclkit/ir';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TARGETS } from '../commands/demo.js';
import { compileProgram, type DeviceCodeSplit } from './compile.js';
import { SAMPLE_UNITS } from './sample.js';

// Every image the demo program compiles to (all its targets, per kernel and auto) printed for
// LLVM 15's reader (`printModule(m, { llvmVersion: 15 })`, `syclkit opt -llvm-version=15`):
// LLVM 15's llvm-as reads it, and LLVM 16 reads the bitcode LLVM 15 writes as the same module.
const as15 = '/usr/lib/llvm-15/bin/llvm-as';
const as16 = '/usr/lib/llvm-16/bin/llvm-as';
const dis16 = '/usr/lib/llvm-16/bin/llvm-dis';
const haveLLVM = [as15, as16, dis16].every((t) => existsSync(t));

function through(as: string, text: string): string {
  const bc = execFileSync(as, ['-o', '-', '-'], { input: Buffer.from(text, 'latin1'), stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  return execFileSync(dis16, ['-o', '-', '-'], { input: bc, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString('latin1');
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!haveLLVM)(`the demo's images printed for LLVM 15 (skipped without ${as15}, ${as16} and ${dis16})`, () => {
  for (const split of ['per_kernel', 'auto'] as const satisfies readonly DeviceCodeSplit[]) {
    it(`-fsycl-device-code-split=${split}: LLVM 15 reads every image, and it means the same to LLVM 16`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'syclkit-llvm15-'));
      dirs.push(dir);
      const result = await compileProgram({ units: SAMPLE_UNITS, targets: DEMO_TARGETS, split, name: 'app', saveTemps: dir });
      expect(result.ok).toBe(true);
      const images = readdirSync(dir).filter((f) => f.endsWith('.ll') && f !== 'app.linked.ll');
      expect(images.length).toBeGreaterThan(10);
      const different: string[] = [];
      const lossy: string[] = [];
      for (const name of images) {
        const module = parseModule(readFileSync(join(dir, name), 'latin1'), { filename: name });
        const text = printModule(module, { llvmVersion: 15, onLossy: (note) => lossy.push(`${name}: ${note}`) });
        if (through(as15, text) !== through(as16, printModule(module))) different.push(name);
      }
      expect(different).toEqual([]);
      expect(lossy).toEqual([]);
    }, 120_000);
  }
});

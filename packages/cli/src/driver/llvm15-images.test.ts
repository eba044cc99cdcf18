import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseModule, printModule, replaceAllUsesWith, type Value } from '@syclkit/ir';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TARGETS } from '../commands/demo.js';
import { compileProgram, type DeviceCodeSplit } from './compile.js';
import { SAMPLE_UNITS } from './sample.js';

// Every image the demo program compiles to (all its targets, per kernel and auto) printed for
// LLVM 15's reader (`printModule(m, { llvmVersion: 15 })`, `syclkit opt -llvm-version=15`):
// LLVM 15's llvm-as reads it, and LLVM 16 reads the bitcode LLVM 15 writes as the same module.
// Likewise the typed-pointer form (`pointers: 'typed'`), read with `-opaque-pointers=0`: the
// same module once the no-op pointer casts it adds are gone.
const as15 = '/usr/lib/llvm-15/bin/llvm-as';
const as16 = '/usr/lib/llvm-16/bin/llvm-as';
const dis16 = '/usr/lib/llvm-16/bin/llvm-dis';
const haveLLVM = [as15, as16, dis16].every((t) => existsSync(t));

function through(as: string, text: string, flags: readonly string[] = []): string {
  const bc = execFileSync(as, [...flags, '-o', '-', '-'], { input: Buffer.from(text, 'latin1'), stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  return execFileSync(dis16, ['-o', '-', '-'], { input: bc, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString('latin1');
}

/** LLVM 16's text read again without `bitcast ptr %x to ptr` (the uses take `%x`), `llvm.*` declarations last by name. */
function withoutNoOpCasts(text: string): string {
  const m = parseModule(text, { filename: '<stdin>', odrTypeUniquing: false });
  const casts = new Map<Value, Value>();
  for (const f of m.functions) for (const b of f.blocks) for (const i of b.instructions) if (i.opcode === 'bitcast' && i.operands[0]!.type === i.type) casts.set(i, i.operands[0]!);
  for (const [cast, source] of casts) {
    let to = source;
    while (casts.has(to)) to = casts.get(to)!;
    casts.set(cast, to);
  }
  replaceAllUsesWith(m, casts);
  for (const f of m.functions) for (const b of f.blocks) b.instructions = b.instructions.filter((i) => !casts.has(i));
  // reading typed-pointer bitcode renames intrinsics (`.p0i8` -> `.p0`) into new declarations at the end
  const intrinsics = m.functions.filter((f) => f.isDeclaration && f.name.startsWith('llvm.')).sort((a, b) => (a.name < b.name ? -1 : 1));
  m.functions.splice(0, m.functions.length, ...m.functions.filter((f) => !intrinsics.includes(f)), ...intrinsics);
  return printModule(m);
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
      const result = await compileProgram({ units: SAMPLE_UNITS, targets: DEMO_TARGETS, split, name: 'app', saveTemps: dir, deviceObj: 'llvmir' });
      expect(result.ok).toBe(true);
      const images = readdirSync(dir).filter((f) => f.endsWith('.ll') && f !== 'app.linked.ll');
      expect(images.length).toBeGreaterThan(10);
      const different: string[] = [];
      const typedDifferent: string[] = [];
      const lossy: string[] = [];
      for (const name of images) {
        const module = parseModule(readFileSync(join(dir, name), 'latin1'), { filename: name });
        const text = printModule(module, { llvmVersion: 15, onLossy: (note) => lossy.push(`${name}: ${note}`) });
        const as16Text = through(as16, printModule(module));
        if (through(as15, text) !== as16Text) different.push(name);
        const typed = printModule(module, { llvmVersion: 15, pointers: 'typed' });
        if (withoutNoOpCasts(through(as15, typed, ['-opaque-pointers=0'])) !== withoutNoOpCasts(as16Text)) typedDifferent.push(name);
      }
      expect(different).toEqual([]);
      expect(typedDifferent).toEqual([]);
      expect(lossy).toEqual([]);
    }, 240_000);
  }
});

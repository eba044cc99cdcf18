/**
 * Properties of printing for LLVM 15 (`printModule(m, { llvmVersion: 15 })`), on random modules
 * whose functions, declarations and call sites carry random `memory(...)` effects and whose
 * instructions carry random flags LLVM 15 lacks (`nneg`, `disjoint`, `samesign`, `nuw`/`nsw` on
 * `trunc`, `nuw` on GEPs):
 * 1. No `memory(...)` and none of those flags is left in the text; reading it back gives, for every
 *    function and call, effects that allow at least what the original allowed, and exactly the
 *    original module when nothing was reported lost.
 * 2. Printing for LLVM 15 is a fixed point: the text, read back and printed for LLVM 15, is the same.
 * 3. When LLVM 15 and 16 are installed: LLVM 15's llvm-as reads the text, and LLVM 16 reads the
 *    bitcode LLVM 15 writes as the module syclkit reads the text as (both upgrade the legacy
 *    memory words the same way).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { llvm15, llvm16 } from '../test/support.js';
import { formatMemoryEffects, unpackMemoryEffects, type AttributeSet } from './attributes.js';
import { CallInst } from './instructions.js';
import type { Module } from './module.js';
import { parseModule } from './parser.js';
import { printModule } from './printer.js';

const effects = fc.option(fc.integer({ min: 0, max: 62 }), { nil: undefined });
const instruction = fc.oneof(
  fc.record({ kind: fc.constant('zext' as const), flag: fc.boolean() }),
  fc.record({ kind: fc.constant('or' as const), flag: fc.boolean() }),
  fc.record({ kind: fc.constant('trunc' as const), nuw: fc.boolean(), nsw: fc.boolean() }),
  fc.record({ kind: fc.constant('gep' as const), inbounds: fc.boolean(), nuw: fc.boolean() }),
  fc.record({ kind: fc.constant('icmp' as const), flag: fc.boolean() }),
  fc.record({ kind: fc.constant('call' as const), callee: fc.nat(), memory: effects }),
);
const fn = fc.record({ defined: fc.boolean(), memory: effects, body: fc.array(instruction, { maxLength: 6 }) });
const moduleSpec = fc.array(fn, { minLength: 1, maxLength: 5 });
type Spec = typeof moduleSpec extends fc.Arbitrary<infer T> ? T : never;

function memoryText(v: number | undefined): string {
  return v === undefined ? '' : ` ${formatMemoryEffects(v)}`;
}

function moduleText(spec: Spec): string {
  const out: string[] = [];
  spec.forEach((f, i) => {
    if (!f.defined) {
      out.push(`declare void @f${i}(i32, ptr)${memoryText(f.memory)}\n`);
      return;
    }
    const lines = f.body.map((inst, k) => {
      switch (inst.kind) {
        case 'zext':
          return `  %v${k} = zext${inst.flag ? ' nneg' : ''} i32 %x to i64`;
        case 'or':
          return `  %v${k} = or${inst.flag ? ' disjoint' : ''} i32 %x, 1`;
        case 'trunc':
          return `  %v${k} = trunc${inst.nuw ? ' nuw' : ''}${inst.nsw ? ' nsw' : ''} i32 %x to i8`;
        case 'gep':
          return `  %v${k} = getelementptr${inst.inbounds ? ' inbounds' : ''}${inst.nuw ? ' nuw' : ''} i8, ptr %p, i32 %x`;
        case 'icmp':
          return `  %v${k} = icmp${inst.flag ? ' samesign' : ''} ult i32 %x, 7`;
        case 'call':
          return `  call void @f${inst.callee % spec.length}(i32 %x, ptr %p)${memoryText(inst.memory)}`;
      }
    });
    out.push(`define void @f${i}(i32 %x, ptr %p)${memoryText(f.memory)} {\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}  ret void\n}\n`);
  });
  return out.join('\n');
}

function read(text: string): Module {
  return parseModule(text, { filename: 'm.ll' });
}

function memoryOf(set: AttributeSet): number {
  const a = set.get('memory');
  return a?.kind === 'int' ? (a.value as number) : 63;
}

/** Every memory attribute of the module: functions, then calls, in order. */
function memories(m: Module): number[] {
  const out: number[] = [];
  for (const f of m.functions) {
    out.push(memoryOf(f.attributes.fn));
    for (const b of f.blocks) for (const inst of b.instructions) if (inst instanceof CallInst) out.push(memoryOf(inst.attributes.fn));
  }
  return out;
}

function allowsAtLeast(weaker: number, original: number): boolean {
  const w = unpackMemoryEffects(weaker);
  const o = unpackMemoryEffects(original);
  return (['argmem', 'inaccessiblemem', 'other'] as const).every((loc) => (w[loc] & o[loc]) === o[loc]);
}

function for15(m: Module): { text: string; losses: string[] } {
  const losses: string[] = [];
  const text = printModule(m, { llvmVersion: 15, onLossy: (n) => losses.push(n) });
  return { text, losses };
}

describe('printing for LLVM 15', () => {
  it('1, 2: spells what LLVM 16 added the LLVM 15 way, allows at least what the module allowed, loses nothing unreported, and is a fixed point', () => {
    fc.assert(
      fc.property(moduleSpec, (spec) => {
        const original = read(moduleText(spec));
        const { text, losses } = for15(original);
        expect(text).not.toMatch(/memory\(| nneg | disjoint | samesign |trunc nuw|trunc nsw|getelementptr (inbounds )?nuw/);
        const back = read(text);
        const before = memories(original);
        const after = memories(back);
        expect(after.length).toBe(before.length);
        after.forEach((v, i) => expect(allowsAtLeast(v, before[i]!)).toBe(true));
        if (losses.length === 0) expect(printModule(back)).toBe(printModule(original));
        expect(for15(back).text).toBe(text);
      }),
      fcOptions(200),
    );
  });

  const as15 = llvm15('llvm-as');
  const as16 = llvm16('llvm-as');
  const dis16 = llvm16('llvm-dis');
  const through = (as: string, text: string): string => {
    const bc = execFileSync(as, ['-o', '-', '-'], { input: Buffer.from(text, 'latin1'), stdio: ['pipe', 'pipe', 'pipe'] });
    return execFileSync(dis16!, ['-o', '-', '-'], { input: bc, stdio: ['pipe', 'pipe', 'pipe'] }).toString('latin1');
  };
  it.skipIf(!as15 || !as16 || !dis16)('3: LLVM 15 reads it, and LLVM 16 reads the bitcode LLVM 15 writes as syclkit reads the text', () => {
    fc.assert(
      fc.property(moduleSpec, (spec) => {
        const { text } = for15(read(moduleText(spec)));
        expect(through(as15!, text)).toBe(through(as16!, printModule(read(text))));
      }),
      fcOptions(40),
    );
  }, 120_000);
});

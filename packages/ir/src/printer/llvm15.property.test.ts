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
 * And of the typed-pointer form (`pointers: 'typed'`), on random programs of pointers (allocas of
 * several types, loads and stores of integers and pointers, struct/array/byte GEPs, address-space
 * casts, `byval` arguments, direct and indirect calls, function pointers in globals, pointer
 * compares, selects and int/pointer casts, atomics):
 * 4. Read back (as LLVM 16 reads typed text: every pointer `ptr`), it is the module, once the
 *    no-op pointer casts it added are gone.
 * 5. When LLVM 15 and 16 are installed: LLVM 15 reads it with typed pointers
 *    (`-opaque-pointers=0`), which checks every pointee type, and LLVM 16 reads that bitcode as
 *    the module, once the no-op casts are gone.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { llvm15, llvm16 } from '../../test/support.js';
import { formatMemoryEffects, unpackMemoryEffects, type AttributeSet } from '../model/attributes.js';
import { CallInst } from '../model/instructions.js';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from './printer.js';
import { withoutNoOpCasts } from '../../test/casts.js';

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
  }, 60_000);

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

const pointerOp = fc.oneof(
  fc.record({ kind: fc.constant('alloca' as const), type: fc.constantFrom('i32', 'ptr', '%S', '[4 x i32]') }),
  fc.record({ kind: fc.constant('load' as const), type: fc.constantFrom('i32', 'ptr'), from: fc.nat() }),
  fc.record({ kind: fc.constant('store' as const), type: fc.constantFrom('i32', 'ptr'), value: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('gep' as const), shape: fc.constantFrom('struct', 'byte', 'array', 'global'), base: fc.nat(), index: fc.nat() }),
  fc.record({ kind: fc.constant('gep1' as const), base: fc.nat() }),
  fc.record({ kind: fc.constant('ascast' as const), from: fc.nat() }),
  fc.record({ kind: fc.constant('call' as const), callee: fc.nat(), a: fc.nat(), b: fc.nat(), byval: fc.nat() }),
  fc.record({ kind: fc.constant('indirect' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('storefn' as const), fn: fc.nat() }),
  fc.record({ kind: fc.constant('select' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('intcast' as const), from: fc.nat() }),
  fc.record({ kind: fc.constant('atomic' as const), at: fc.nat(), cmpxchg: fc.boolean() }),
);
const pointerProgram = fc.array(fc.record({ byval: fc.boolean(), body: fc.array(pointerOp, { maxLength: 10 }) }), { minLength: 1, maxLength: 4 });
type PointerProgram = typeof pointerProgram extends fc.Arbitrary<infer T> ? T : never;

function pointerProgramText(program: PointerProgram): string {
  const out = [
    '%S = type { i32, ptr, [2 x i64] }',
    '@g = global i32 5',
    '@gs = global %S zeroinitializer',
    '@fp = global ptr null',
    '@arr = global [4 x i32] zeroinitializer',
    'declare void @ext(ptr, ptr addrspace(1), i32)',
    '',
  ];
  const signature = (byval: boolean): string => `ptr %a, ptr addrspace(1) %b, i32 %n${byval ? ', ptr byval(%S) %s' : ''}`;
  program.forEach((fn, fi) => {
    const ptrs = ['%a', '@g', '@gs', '@arr', ...(fn.byval ? ['%s'] : [])];
    const ptrs1 = ['%b'];
    const ints = ['%n', '7'];
    const pick = (pool: string[], i: number): string => pool[i % pool.length]!;
    const lines: string[] = [];
    fn.body.forEach((op, k) => {
      const v = `%v${k}`;
      switch (op.kind) {
        case 'alloca':
          lines.push(`${v} = alloca ${op.type}, align 8`);
          ptrs.push(v);
          break;
        case 'load':
          lines.push(`${v} = load ${op.type}, ptr ${pick(ptrs, op.from)}, align 4`);
          (op.type === 'ptr' ? ptrs : ints).push(v);
          break;
        case 'store':
          lines.push(`store ${op.type} ${pick(op.type === 'ptr' ? ptrs : ints, op.value)}, ptr ${pick(ptrs, op.to)}, align 4`);
          break;
        case 'gep': {
          const base = pick(ptrs, op.base);
          if (op.shape === 'struct') lines.push(`${v} = getelementptr inbounds %S, ptr ${base}, i32 0, i32 ${op.index % 3}`);
          else if (op.shape === 'byte') lines.push(`${v} = getelementptr i8, ptr ${base}, i32 ${pick(ints, op.index)}`);
          else if (op.shape === 'array') lines.push(`${v} = getelementptr inbounds [4 x i32], ptr ${base}, i64 0, i64 ${op.index % 4}`);
          else lines.push(`${v} = getelementptr inbounds %S, ptr @gs, i32 0, i32 2, i64 ${op.index % 2}`);
          ptrs.push(v);
          break;
        }
        case 'gep1':
          lines.push(`${v} = getelementptr i32, ptr addrspace(1) ${pick(ptrs1, op.base)}, i64 1`);
          ptrs1.push(v);
          break;
        case 'ascast':
          lines.push(`${v} = addrspacecast ptr addrspace(1) ${pick(ptrs1, op.from)} to ptr`);
          ptrs.push(v);
          break;
        case 'call': {
          const callee = op.callee % (fi + 1);
          if (callee === fi) lines.push(`call void @ext(ptr ${pick(ptrs, op.a)}, ptr addrspace(1) ${pick(ptrs1, op.b)}, i32 %n)`);
          else {
            const byval = program[callee]!.byval ? `, ptr byval(%S) ${pick(ptrs, op.byval)}` : '';
            lines.push(`call void @f${callee}(ptr ${pick(ptrs, op.a)}, ptr addrspace(1) ${pick(ptrs1, op.b)}, i32 %n${byval})`);
          }
          break;
        }
        case 'indirect':
          lines.push(`${v} = load ptr, ptr @fp, align 8`);
          lines.push(`call void ${v}(ptr ${pick(ptrs, op.a)}, ptr addrspace(1) ${pick(ptrs1, op.b)}, i32 %n)`);
          break;
        case 'storefn':
          lines.push(`store ptr @f${op.fn % (fi + 1)}, ptr @fp, align 8`);
          break;
        case 'select':
          lines.push(`${v}.c = icmp eq ptr ${pick(ptrs, op.a)}, @g`);
          lines.push(`${v} = select i1 ${v}.c, ptr ${pick(ptrs, op.a)}, ptr ${pick(ptrs, op.b)}`);
          ptrs.push(v);
          break;
        case 'intcast':
          lines.push(`${v}.i = ptrtoint ptr ${pick(ptrs, op.from)} to i64`);
          lines.push(`${v} = inttoptr i64 ${v}.i to ptr`);
          ptrs.push(v);
          break;
        case 'atomic':
          if (op.cmpxchg) lines.push(`${v} = cmpxchg ptr ${pick(ptrs, op.at)}, i32 0, i32 1 seq_cst seq_cst, align 4`);
          else lines.push(`${v} = atomicrmw add ptr ${pick(ptrs, op.at)}, i32 1 seq_cst, align 4`);
          break;
      }
    });
    out.push(`define void @f${fi}(${signature(fn.byval)}) {`, 'entry:', ...lines.map((l) => `  ${l}`), '  ret void', '}', '');
  });
  return out.join('\n');
}

describe("typed pointers for LLVM 15 (pointers: 'typed')", () => {
  it('4: read back, the text is the module once the no-op pointer casts are gone', () => {
    fc.assert(
      fc.property(pointerProgram, (program) => {
        const m = read(pointerProgramText(program));
        const typed = printModule(m, { llvmVersion: 15, pointers: 'typed' });
        expect(typed).not.toMatch(/\bptr\b/);
        expect(withoutNoOpCasts(typed)).toBe(withoutNoOpCasts(printModule(m)));
      }),
      fcOptions(100),
    );
  }, 60_000);

  const as15 = llvm15('llvm-as');
  const as16 = llvm16('llvm-as');
  const dis16 = llvm16('llvm-dis');
  const meaning = (as: readonly string[], text: string): string => {
    const bc = execFileSync(as[0]!, [...as.slice(1), '-o', '-', '-'], { input: Buffer.from(text, 'latin1'), stdio: ['pipe', 'pipe', 'pipe'] });
    return withoutNoOpCasts(execFileSync(dis16!, ['-o', '-', '-'], { input: bc, stdio: ['pipe', 'pipe', 'pipe'] }).toString('latin1'));
  };
  it.skipIf(!as15 || !as16 || !dis16)('5: LLVM 15 reads it with typed pointers, and LLVM 16 reads that bitcode as the module', () => {
    fc.assert(
      fc.property(pointerProgram, (program) => {
        const m = read(pointerProgramText(program));
        const typed = printModule(m, { llvmVersion: 15, pointers: 'typed' });
        expect(meaning([as15!, '-opaque-pointers=0'], typed)).toBe(meaning([as16!], printModule(m)));
      }),
      fcOptions(40),
    );
  }, 180_000);
});

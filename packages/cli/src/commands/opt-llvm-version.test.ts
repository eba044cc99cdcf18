import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSyclkit, scratchDir } from '../../test/testing.js';

// `syclkit opt -llvm-version=15`: IR for LLVM 15's reader (see @syclkit/ir's llvmVersion option).
const scratch = scratchDir('opt-llvm-version');
afterAll(scratch.remove);

const as15 = '/usr/lib/llvm-15/bin/llvm-as';
const dis15 = '/usr/lib/llvm-15/bin/llvm-dis';

const INPUT = `declare void @g(ptr) memory(argmem: read)

define i64 @f(ptr %p, i32 %x) memory(read, argmem: readwrite) {
  call void @g(ptr %p) memory(argmem: read)
  %y = zext nneg i32 %x to i64
  ret i64 %y
}
`;

describe('syclkit opt -llvm-version', () => {
  it('15 -S writes the legacy memory words, leaves out flags LLVM 15 lacks, and warns about what it weakened', async () => {
    const r = await runSyclkit(['opt', '-S', '-llvm-version=15', '-'], INPUT);
    expect(r.code).toBe(0);
    expect(r.out).toContain('declare void @g(ptr) #0\n');
    expect(r.out).toContain('attributes #0 = { readonly argmemonly }');
    expect(r.out).toContain('  %y = zext i32 %x to i64\n');
    expect(r.out).not.toContain('memory(');
    expect(r.err).toBe(
      "syclkit opt: warning: for LLVM 15, @f: memory(read, argmem: readwrite, inaccessiblemem: read) is written as no memory attribute, which allows more accesses\n" +
        "syclkit opt: warning: for LLVM 15, @f: flags 'nneg'/'disjoint'/'samesign' are left out (LLVM 15 lacks them)\n",
    );
    if (existsSync(as15)) execFileSync(as15, ['-o', '/dev/null', '-'], { input: r.out });
  });

  it('16 is the default', async () => {
    const plain = await runSyclkit(['opt', '-S', '-'], INPUT);
    expect((await runSyclkit(['opt', '-S', '-llvm-version=16', '-'], INPUT)).out).toBe(plain.out);
    expect(plain.out).toContain('memory(argmem: read)');
  });

  it('refuses other versions', async () => {
    const r = await runSyclkit(['opt', '-S', '-llvm-version=14', '-'], INPUT);
    expect(r.code).toBe(2);
    expect(r.err).toBe("syclkit opt: error: -llvm-version must be 15 or 16, not '14'\n");
  });

  it('names what LLVM 15 cannot express, exits 1 and writes no output file', async () => {
    const out = join(scratch.dir, 'refused.ll');
    const r = await runSyclkit(['opt', '-S', '-llvm-version=15', '-', '-o', out], 'define void @f(ptr %p) {\n  %o = atomicrmw uinc_wrap ptr %p, i32 1 seq_cst\n  ret void\n}\n');
    expect(r.code).toBe(1);
    expect(r.err).toBe('<stdin>: error: cannot write this module for LLVM 15, which cannot express: @f: atomicrmw uinc_wrap (LLVM 15 lacks it)\n');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(scratch.dir).filter((f) => f.startsWith('refused'))).toEqual([]);
  });

  it.skipIf(!existsSync(as15) || !existsSync(dis15))('15 without -S writes bitcode LLVM 15 reads', async () => {
    const out = join(scratch.dir, 'f.bc');
    const r = await runSyclkit(['opt', '-llvm-version=15', '-', '-o', out], INPUT);
    expect(r.code).toBe(0);
    expect(execFileSync(dis15, ['-o', '-', out]).toString()).toContain('attributes #0 = { argmemonly readonly }');
    expect(readFileSync(out).subarray(0, 2).toString()).toBe('BC');
  });

  it('-typed-pointers writes every ptr as i8*, with the bitcasts instructions need, and needs -llvm-version=15', async () => {
    const r = await runSyclkit(['opt', '-S', '-llvm-version=15', '-typed-pointers', '-'], 'define void @f(ptr %p) {\n  store i32 1, ptr %p, align 4\n  ret void\n}\n');
    expect(r.code).toBe(0);
    expect(r.out).toContain('define void @f(i8* %p) {\n  %__typed15.0 = bitcast i8* %p to i32*\n  store i32 1, i32* %__typed15.0, align 4\n');
    const refused = await runSyclkit(['opt', '-S', '-typed-pointers', '-'], 'declare void @f()\n');
    expect(refused.code).toBe(2);
    expect(refused.err).toBe('syclkit opt: error: -typed-pointers needs -llvm-version=15\n');
  });

  it.skipIf(!existsSync(as15) || !existsSync(dis15))('-typed-pointers without -S writes typed LLVM 15 bitcode', async () => {
    const out = join(scratch.dir, 'typed.bc');
    const r = await runSyclkit(['opt', '-llvm-version=15', '-typed-pointers', '-', '-o', out], 'define void @f(ptr %p) {\n  store i32 1, ptr %p, align 4\n  ret void\n}\n');
    expect(r.code).toBe(0);
    expect(execFileSync(dis15, ['-opaque-pointers=0', '-o', '-', out]).toString()).toContain('store i32 1, i32* %');
  });
});

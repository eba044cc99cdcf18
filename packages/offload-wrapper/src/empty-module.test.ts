import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { IrSyntaxError } from '@syclkit/ir';
import { describe, expect, it } from 'vitest';
import { LLVM16_BIN, LLVM16_MISSING, llvmAs16 } from '../test/llvm.js';
import { classifyDeviceCode } from './empty-module.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../test/fixtures/two-targets/${name}`, import.meta.url)));
const text = (s: string) => new TextEncoder().encode(s);

describe('classifyDeviceCode', () => {
  it('takes a zero-byte file and a module without definitions as empty', () => {
    expect(classifyDeviceCode(new Uint8Array(0), 'empty.bc')).toEqual({ empty: true });
    expect(classifyDeviceCode(fixture('empty.ll'), 'empty.ll')).toEqual({ empty: true });
    expect(classifyDeviceCode(text('declare void @f()\n'), 'decls.ll')).toEqual({ empty: true });
    expect(classifyDeviceCode(text('  \n'), 'blank.ll')).toEqual({ empty: true });
  });

  it('takes modules with a function or global definition as code', () => {
    expect(classifyDeviceCode(fixture('a_0.ll'), 'a_0.ll')).toEqual({ empty: false });
    expect(classifyDeviceCode(text('@g = global i32 0\n'), 'g.ll')).toEqual({ empty: false });
  });

  it('takes SPIR-V and non-IR text (PTX after an AOT step) as code without parsing', () => {
    expect(classifyDeviceCode(Uint8Array.of(0x03, 0x02, 0x23, 0x07, 0, 0, 0, 0), 'a.spv')).toEqual({ empty: false });
    expect(classifyDeviceCode(text('//\n.version 7.0\n.target sm_80\n'), 'a_0.ptx')).toEqual({ empty: false });
    expect(classifyDeviceCode(Uint8Array.of(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0), 'a_0.o')).toEqual({ empty: false });
  });

  it('reports a syntax error in a text module at file:line:col', () => {
    let error: unknown;
    try {
      classifyDeviceCode(text('target triple = "spir64"\n@g = external globl i32\n'), 'bad.ll');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IrSyntaxError);
    expect((error as IrSyntaxError).render()).toMatch(/^bad\.ll:2:\d+: error: /);
  });

  it('takes bitcode as code, with a warning, when llvm-dis is not available', () => {
    expect(classifyDeviceCode(Uint8Array.of(0x42, 0x43, 0xc0, 0xde, 1, 2), 'x.bc', { dirs: [] })).toEqual({
      empty: false,
      warning: 'x.bc: cannot tell whether this bitcode is an empty module (llvm-dis is not installed); wrapping it as code',
    });
  });

  it.skipIf(llvmAs16 === undefined)(`disassembles bitcode with llvm-dis to tell${llvmAs16 === undefined ? ` (skipped: ${LLVM16_MISSING})` : ''}`, () => {
    const assemble = (source: Uint8Array) => new Uint8Array(execFileSync(llvmAs16!, ['-o', '-', '-'], { input: source }));
    expect(classifyDeviceCode(assemble(fixture('empty.ll')), 'empty.bc', { dirs: [LLVM16_BIN] })).toEqual({ empty: true });
    expect(classifyDeviceCode(assemble(fixture('a_1.ll')), 'a_1.bc', { dirs: [LLVM16_BIN] })).toEqual({ empty: false });
  });
});

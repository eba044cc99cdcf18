import { describe, expect, it } from 'vitest';
import { Context } from './context.js';
import { DataLayout, dataLayoutProblem } from './datalayout.js';
import { parseModule } from '../reader/parser.js';
import { IrSyntaxError } from '../errors.js';
import { llvmTool, runTool } from '../../test/llvm.js';

const ctx = new Context();

describe('data layout defaults used for alloca/load/store alignment', () => {
  const dl = DataLayout.parse('');
  it('gives i64 an ABI alignment of 4 and a preferred alignment of 8 by default', () => {
    expect(dl.abiAlign(ctx.i64)).toBe(4);
    expect(dl.prefAlign(ctx.i64)).toBe(8);
  });

  it('prefers 8-byte alignment for any struct and uses the largest member for its ABI alignment', () => {
    const s = ctx.literalStruct([ctx.i32]);
    expect(dl.prefAlign(s)).toBe(8);
    expect(dl.abiAlign(s)).toBe(4);
    expect(dl.abiAlign(ctx.literalStruct([ctx.i8, ctx.i32], true))).toBe(1);
  });

  it('rounds odd vectors and x86_fp80 up to a power of two', () => {
    expect(dl.abiAlign(ctx.vector(ctx.float, 3))).toBe(16);
    expect(dl.abiAlign(ctx.x86_fp80)).toBe(16);
  });

  it('reads integer, pointer and alloca-address-space specifications', () => {
    const spir = DataLayout.parse('e-i64:64-p3:32:32-A5');
    expect(spir.abiAlign(ctx.i64)).toBe(8);
    expect(spir.pointerSizeBits(3)).toBe(32);
    expect(spir.allocaAddressSpace).toBe(5);
  });

  it('lays out structs with padding', () => {
    const layout = dl.structLayout(ctx.literalStruct([ctx.i8, ctx.i32, ctx.i8]));
    expect(layout.offsets).toEqual([0, 4, 8]);
    expect(layout.size).toBe(12);
  });
});

/** `target datalayout` strings and LLVM 16's verdict (its message, or undefined when it reads it). */
const LAYOUTS: readonly (readonly [string, string | undefined])[] = [
  ["e", undefined],
  ["E", undefined],
  ["", undefined],
  ["e-", "Trailing separator in datalayout string"],
  ["-e", "Expected token before separator in datalayout string"],
  ["e--i64:64", "Expected token before separator in datalayout string"],
  [":32", "Expected token before separator in datalayout string"],
  ["x", "Unknown specifier in datalayout string"],
  ["e-x", "Unknown specifier in datalayout string"],
  ["p", "Missing size specification for pointer in datalayout string"],
  ["p:64", "Missing alignment specification for pointer in datalayout string"],
  ["p:64:64", undefined],
  ["p:64:64:64", undefined],
  ["p:64:64:32", "Preferred alignment cannot be less than the ABI alignment"],
  ["p:0:64", "Invalid pointer size of 0 bytes"],
  ["p:64:0", "Pointer ABI alignment must be a power of 2"],
  ["p:63:64", undefined],
  ["p:64:48", "Pointer ABI alignment must be a power of 2"],
  ["p:64:64:64:0", "Invalid index size of 0 bytes"],
  ["p:64:64:64:32", undefined],
  ["p16777216:64:64", "Invalid address space, must be a 24bit integer"],
  ["p16777215:64:64", undefined],
  ["p1:64:64", undefined],
  ["pa:64:64", "not a number, or does not fit in an unsigned int"],
  ["i64", "Missing alignment specification in datalayout string"],
  ["i64:64", undefined],
  ["i64:0", "ABI alignment specification must be >0 for non-aggregate types"],
  ["i64:64:32", "Preferred alignment cannot be less than the ABI alignment"],
  ["i64:64:128", undefined],
  ["i64:48", "Invalid ABI alignment, must be a power of 2"],
  ["i64:65536", undefined],
  ["i64:64:65536", undefined],
  ["i16777216:8", "Invalid bit width, must be a 24bit integer"],
  ["a:0:64", undefined],
  ["a64:64", "Sized aggregate specification in datalayout string"],
  ["a:8", undefined],
  ["a", "Missing alignment specification in datalayout string"],
  ["f80:128", undefined],
  ["v128:128:128", undefined],
  ["n8:16:32:64", undefined],
  ["n0", "Zero width native integer type in datalayout string"],
  ["n8:", "Trailing separator in datalayout string"],
  ["n8::16", "Expected token before separator in datalayout string"],
  ["S128", undefined],
  ["S0", undefined],
  ["S48", "Alignment is neither 0 nor a power of 2"],
  ["S7", "number of bits must be a byte width multiple"],
  ["Fi8", undefined],
  ["Fn32", undefined],
  ["Fx8", "Unknown function pointer alignment type in datalayout string"],
  ["F", "Unknown function pointer alignment type in datalayout string"],
  ["P1", undefined],
  ["A5", undefined],
  ["G1", undefined],
  ["A16777216", "Invalid address space, must be a 24-bit integer"],
  ["A", "not a number, or does not fit in an unsigned int"],
  ["m:e", undefined],
  ["m:x", undefined],
  ["m:ee", "Unknown mangling specifier in datalayout string"],
  ["m", "Expected mangling specifier in datalayout string"],
  ["mx:e", "Unexpected trailing characters after mangling specifier in datalayout string"],
  ["m:q", "Unknown mangling in datalayout string"],
  ["ni:1:2", undefined],
  ["ni:0", "Address space 0 can never be non-integral"],
  ["ni", "not a number, or does not fit in an unsigned int"],
  ["ni:a", "not a number, or does not fit in an unsigned int"],
  ["e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64", undefined],
  ["e-p:32:32-i64:64-n16:32:64", undefined],
  ["i4294967296:8", "not a number, or does not fit in an unsigned int"],
  ["i99999999999:8", "not a number, or does not fit in an unsigned int"],
  ["s", undefined],
  ["s0", undefined],
  ["e-p3:32:32:32:32-p5:32:32", undefined],
  ["p:64:64:64:64:64", undefined],
  ["i64:64:64:64", undefined],
  ["e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", undefined],
  ["i1:8", undefined],
  ["i1:4", "number of bits must be a byte width multiple"],
  ["v64:64:32", "Preferred alignment cannot be less than the ABI alignment"],
  ["v128:8:0", undefined],
  ["a:0:0", undefined],
  ["a:16:0", "Preferred alignment cannot be less than the ABI alignment"],
];

describe('datalayout strings are checked as LLVM 16 checks them', () => {
  it.each(LAYOUTS)('%j', (spec, message) => {
    expect(dataLayoutProblem(spec)).toBe(message);
  });

  it('reports a bad string at the string, as a syntax error', () => {
    let caught: unknown;
    try {
      parseModule('target triple = "spir64"\ntarget datalayout = "e-i64:48"\n', { filename: 'dl.ll' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(IrSyntaxError);
    expect((caught as IrSyntaxError).render()).toBe('dl.ll:2:21: error: Invalid ABI alignment, must be a power of 2\ntarget datalayout = "e-i64:48"\n                    ^\n');
  });
});

const opt16 = llvmTool('opt');
describe.skipIf(opt16 === undefined)('the datalayout table agrees with LLVM 16 opt', () => {
  it.each(LAYOUTS)('%j', (spec, message) => {
    const r = runTool(opt16!, ['-S', '-o', '/dev/null', '-'], `target datalayout = "${spec}"\n`);
    if (message === undefined) expect(r.status).toBe(0);
    else expect(r.stderr).toContain(`<stdin>:1:21: error: ${message}\n`);
  });
});

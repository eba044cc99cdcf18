import { describe, expect, it } from 'vitest';
import { Context } from './context.js';
import { DataLayout } from './datalayout.js';

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

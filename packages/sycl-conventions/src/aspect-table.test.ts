import { describe, expect, it } from 'vitest';
import { Context, getMetadata, parseModule } from '@syclkit/ir';
import { builtinAspectTable } from '@syclkit/device-config';
import { aspectOperandConstant, aspectOperandName, aspectTableOf, readAspectTable, readAspectValues } from './aspect-table.js';

const parse = (text: string) => parseModule(text, { filename: 'test.ll', context: new Context() });

describe('!sycl_aspects', () => {
  it('reads (name, value) pairs in order; names look up their last value, values their first name', () => {
    const m = parse(`!sycl_aspects = !{!0, !1, !2, !3}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
!2 = !{!"double", i32 6}
!3 = !{!"fp16", i32 50}
`);
    const table = readAspectTable(m);
    expect(table.pairs).toEqual([['fp16', 5], ['fp64', 6], ['double', 6], ['fp16', 50]]);
    expect(table.present).toBe(true);
    expect(table.malformed).toBe(0);
    expect(table.valueOf('fp16')).toBe(50);
    expect(table.nameOf(6)).toBe('fp64');
    expect(table.nameOf(50)).toBe('fp16');
    expect(table.uniquePairs()).toEqual([['fp16', 50], ['fp64', 6], ['double', 6]]);
  });

  it('reads values signed at their width, as getSExtValue does (internal aspects are negative)', () => {
    const m = parse(`!sycl_aspects = !{!0, !1}
!0 = !{!"internal", i32 -1}
!1 = !{!"wide", i64 4294967296}
`);
    expect(readAspectTable(m).pairs).toEqual([['internal', -1], ['wide', 4294967296]]);
  });

  it('skips and counts entries that are not !{!"name", iN value} pairs', () => {
    const m = parse(`!sycl_aspects = !{!0, !1, !2, !3, !4}
!0 = !{!"fp64", i32 6}
!1 = !{!"three", i32 1, i32 2}
!2 = !{i32 7, !"swapped"}
!3 = !{!"float", float 1.0}
!4 = !{}
`);
    const table = readAspectTable(m);
    expect(table.pairs).toEqual([['fp64', 6]]);
    expect(table.malformed).toBe(4);
  });

  it('is empty, not present, without the named metadata', () => {
    const table = readAspectTable(parse(''));
    expect(table.pairs).toEqual([]);
    expect(table.present).toBe(false);
    expect(table.nameOf(6)).toBeUndefined();
  });
});

describe('aspect lists', () => {
  const m = parse(`define void @f() !sycl_used_aspects !0 !sycl_declared_aspects !1 !sycl_fixed_targets !2 {
  ret void
}
!0 = !{i32 6, !3, i32 -1}
!1 = !{!"x", i32 1, float 2.0}
!2 = !{}
!3 = !{!"fp16", i32 5}
`);
  const fn = m.getFunction('f')!;
  const node = (kind: string) => getMetadata(fn, m.context, kind);

  it('reads bare and named-pair operands in order', () => {
    expect(readAspectValues(node('sycl_used_aspects'))).toEqual({ values: [6, 5, -1], malformed: 0 });
    expect(readAspectValues(node('sycl_fixed_targets'))).toEqual({ values: [], malformed: 0 });
  });

  it('counts operands of other shapes as malformed', () => {
    expect(readAspectValues(node('sycl_declared_aspects'))).toEqual({ values: [1], malformed: 2 });
  });

  it('gives no values for an absent list', () => {
    expect(readAspectValues(undefined)).toEqual({ values: [], malformed: 0 });
  });

  it('names a named-pair operand only', () => {
    const operands = (node('sycl_used_aspects') as { operands: Parameters<typeof aspectOperandName>[0][] }).operands;
    expect(operands.map(aspectOperandName)).toEqual([undefined, 'fp16', undefined]);
    expect(operands.map((op) => aspectOperandConstant(op)?.num)).toEqual([6, 5, -1]);
  });
});

describe('aspectTableOf', () => {
  const m = parse(`!sycl_aspects = !{!0, !1, !2}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
!2 = !{!"custom_one", i32 1000}
`);

  it("numbers with the module's pairs first, then the built-in names the module does not use", () => {
    const table = aspectTableOf(m);
    expect([table.valueOf('fp64'), table.valueOf('custom_one'), table.nameOf(1000)]).toEqual([6, 1000, 'custom_one']);
    expect(table.valueOf('atomic64')).toBe(builtinAspectTable.valueOf('atomic64'));
  });

  it('leaves out a built-in name whose number the module gave another name', () => {
    const table = aspectTableOf(parse('!sycl_aspects = !{!0, !1}\n!0 = !{!"fp64", i32 100}\n!1 = !{!"custom", i32 5}\n'));
    expect([table.valueOf('fp64'), table.valueOf('custom'), table.valueOf('fp16'), table.valueOf('atomic64')]).toEqual([100, 5, undefined, 28]);
  });

  it("with mergeBase false, the module's pairs alone", () => {
    const table = aspectTableOf(m, { mergeBase: false });
    expect(table.valueOf('fp64')).toBe(6);
    expect(table.valueOf('atomic64')).toBeUndefined();
  });

  it('gives the base table to a module without pairs, and one table per operand list', () => {
    expect(aspectTableOf(parse(''))).toBe(builtinAspectTable);
    expect(aspectTableOf(m)).toBe(aspectTableOf(m));
    expect(aspectTableOf(m, { mergeBase: false })).not.toBe(aspectTableOf(m));
  });

  it('takes the last value of a name given twice, as intel/llvm fills its map', () => {
    const dup = parse(`!sycl_aspects = !{!0, !1}
!0 = !{!"fp64", i32 6}
!1 = !{!"fp64", i32 60}
`);
    expect(aspectTableOf(dup, { mergeBase: false }).valueOf('fp64')).toBe(60);
  });
});

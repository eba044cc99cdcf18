import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { printModule } from '../printer/printer.js';

const HEADER = [
  '@arr = global [4 x i32] zeroinitializer',
  '@mat = global [2 x [3 x i32]] zeroinitializer',
  '@s = global { i32, [2 x i32] } zeroinitializer',
  '@ext = external global [0 x i32]',
  '@weak = extern_weak global [4 x i32]',
  '@i = global i32 0',
  '@vt = global { [4 x ptr] } zeroinitializer',
].join('\n');

/** The initializer of `@x` after reading `@x = global <type> <value>` (opaque mode) and printing. */
function folded(type: string, value: string, after = ''): string {
  const text = printModule(parseModule(`${HEADER}\n@x = global ${type} ${value}\n${after}`, { filename: 'x.ll' }));
  const line = text.split('\n').find((l) => l.startsWith('@x = global '))!;
  return line.slice(`@x = global ${type} `.length);
}

// Expected texts are what LLVM 16's `opt -S` prints for the same input.
describe('opaque mode folds constant GEPs as LLVM 16 does', () => {
  it('adds inbounds to a GEP of a global variable with in-range indices', () => {
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i64 0, i64 3)')).toBe('getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 3)');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i64 1)')).toBe('getelementptr inbounds ([4 x i32], ptr @arr, i64 1)');
  });

  it('counts any non-negative index of a [0 x T] as in range, also for an external global', () => {
    expect(folded('ptr', 'getelementptr ([0 x i32], ptr @ext, i64 0, i64 5)')).toBe('getelementptr inbounds ([0 x i32], ptr @ext, i64 0, i64 5)');
  });

  it("does not compare the GEP's source type with the global's value type (as LLVM 16)", () => {
    expect(folded('ptr', 'getelementptr ([8 x i32], ptr @i, i64 0, i64 1)')).toBe('getelementptr inbounds ([8 x i32], ptr @i, i64 0, i64 1)');
  });

  it('infers no inbounds for extern_weak globals, aliases, functions, negative or unknown indices', () => {
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @weak, i64 0, i64 1)')).toBe('getelementptr ([4 x i32], ptr @weak, i64 0, i64 1)');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @al, i64 0, i64 1)', '@al = alias [4 x i32], ptr @arr')).toBe(
      'getelementptr ([4 x i32], ptr @al, i64 0, i64 1)',
    );
    expect(folded('ptr', 'getelementptr (i8, ptr @f, i64 1)', 'declare void @f()')).toBe('getelementptr (i8, ptr @f, i64 1)');
    expect(folded('ptr', 'getelementptr (i32, ptr @i, i64 -1)')).toBe('getelementptr (i32, ptr @i, i64 -1)');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i64 ptrtoint (ptr @i to i64), i64 1)')).toBe(
      'getelementptr ([4 x i32], ptr @arr, i64 ptrtoint (ptr @i to i64), i64 1)',
    );
  });

  it('factors an out-of-range index into the one before it, widening to i64', () => {
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i64 0, i64 4)')).toBe('getelementptr inbounds ([4 x i32], ptr @arr, i64 1, i64 0)');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i64 0, i64 9)')).toBe('getelementptr ([4 x i32], ptr @arr, i64 2, i64 1)');
    expect(folded('ptr', 'getelementptr ([2 x [3 x i32]], ptr @mat, i64 0, i64 0, i64 7)')).toBe('getelementptr ([2 x [3 x i32]], ptr @mat, i64 1, i64 0, i64 1)');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i8 0, i8 100)')).toBe('getelementptr ([4 x i32], ptr @arr, i64 25, i8 0)');
  });

  it('factors an index of a [0 x T] past int64 by zero: both indices become poison, and the GEP may fold away', () => {
    // srem/sdiv by 0 are poison; a GEP whose indices are all zero or poison is its base
    expect(folded('ptr', 'getelementptr ([0 x i32], ptr @ext, i64 0, i128 18446744073709551616)')).toBe('@ext');
    expect(folded('ptr', 'getelementptr inbounds ([0 x i32], ptr null, i16 -1, i128 1180591620717411303424)')).toBe('null');
    expect(folded('ptr', 'getelementptr ([3 x [0 x i32]], ptr @z, i64 1, i64 2, i128 18446744073709551616)', '@z = global [3 x [0 x i32]] zeroinitializer')).toBe(
      'getelementptr ([3 x [0 x i32]], ptr @z, i64 1, i128 poison, i128 poison)',
    );
    // a factored index that is already poison stays poison when the next index is factored into it
    expect(folded('ptr', 'getelementptr ([3 x [0 x i32]], ptr @z, i64 0, i64 5, i128 18446744073709551616)', '@z = global [3 x [0 x i32]] zeroinitializer')).toBe(
      'getelementptr ([3 x [0 x i32]], ptr @z, i64 1, i128 poison, i128 poison)',
    );
    // negative: not factored
    expect(folded('ptr', 'getelementptr ([0 x i32], ptr @ext, i64 0, i128 -18446744073709551616)')).toBe('getelementptr ([0 x i32], ptr @ext, i64 0, i128 -18446744073709551616)');
  });

  it('leaves an out-of-range index after a struct field, or after an inrange index, where it is', () => {
    expect(folded('ptr', 'getelementptr ({ i32, [2 x i32] }, ptr @s, i64 0, i32 1, i64 3)')).toBe('getelementptr ({ i32, [2 x i32] }, ptr @s, i64 0, i32 1, i64 3)');
    expect(folded('ptr', 'getelementptr ({ [4 x ptr] }, ptr @vt, i32 0, inrange i32 0, i32 9)')).toBe(
      'getelementptr inbounds ({ [4 x ptr] }, ptr @vt, i32 0, inrange i32 0, i32 9)',
    );
  });

  it("merges a GEP of a GEP whose result element type is the outer GEP's source type", () => {
    expect(folded('ptr', 'getelementptr (i32, ptr getelementptr ([4 x i32], ptr @arr, i64 0, i64 1), i64 2)')).toBe(
      'getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 3)',
    );
    expect(folded('ptr', 'getelementptr ([2 x i32], ptr getelementptr ({ i32, [2 x i32] }, ptr @s, i32 0, i32 1), i64 0, i64 1)')).toBe(
      'getelementptr inbounds ({ i32, [2 x i32] }, ptr @s, i32 0, i32 1, i64 1)',
    );
    // indices of different types are added as i64; one of the same type wraps in that type
    expect(folded('ptr', 'getelementptr (i32, ptr getelementptr (i32, ptr @arr, i8 1), i32 1)')).toBe('getelementptr (i32, ptr @arr, i64 2)');
    expect(folded('ptr', 'getelementptr (i32, ptr getelementptr (i32, ptr @arr, i8 127), i8 1)')).toBe('getelementptr (i32, ptr @arr, i8 -128)');
  });

  it('keeps a GEP of a GEP of another element type, or stepping past a struct field', () => {
    expect(folded('ptr', 'getelementptr (i8, ptr getelementptr ([4 x i32], ptr @arr, i64 0, i64 1), i64 2)')).toBe(
      'getelementptr (i8, ptr getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 1), i64 2)',
    );
    expect(folded('ptr', 'getelementptr (i32, ptr getelementptr ({ i32, [2 x i32] }, ptr @s, i32 0, i32 1), i64 1)')).toBe(
      'getelementptr (i32, ptr getelementptr inbounds ({ i32, [2 x i32] }, ptr @s, i32 0, i32 1), i64 1)',
    );
  });

  it('adds a non-constant last index as an add expression, reassociating constant parts', () => {
    const inner = 'getelementptr ([4 x i32], ptr @arr, i64 0, i64 ptrtoint (ptr @i to i64))';
    expect(folded('ptr', `getelementptr (i32, ptr getelementptr (i32, ptr ${inner}, i64 1), i64 2)`)).toBe(
      'getelementptr ([4 x i32], ptr @arr, i64 0, i64 add (i64 ptrtoint (ptr @i to i64), i64 3))',
    );
    expect(folded('ptr', `getelementptr (i32, ptr getelementptr (i32, ptr ${inner}, i64 1), i64 -1)`)).toBe(inner);
    expect(folded('ptr', 'getelementptr (i32, ptr getelementptr ([4 x i32], ptr @arr, i32 0, i32 ptrtoint (ptr @i to i32)), i64 1)')).toBe(
      'getelementptr ([4 x i32], ptr @arr, i32 0, i64 add (i64 sext (i32 ptrtoint (ptr @i to i32) to i64), i64 1))',
    );
  });

  it('drops the outer inrange when merging, and the inner one when its index is added to', () => {
    expect(folded('ptr', 'getelementptr ({ [4 x ptr] }, ptr getelementptr ({ [4 x ptr] }, ptr @vt, i64 1), i64 0, inrange i32 0, i32 1)')).toBe(
      'getelementptr ({ [4 x ptr] }, ptr @vt, i64 1, i32 0, i32 1)',
    );
    expect(folded('ptr', 'getelementptr (ptr, ptr getelementptr ({ [4 x ptr] }, ptr @vt, i32 0, i32 0, inrange i32 2), i64 1)')).toBe(
      'getelementptr inbounds ({ [4 x ptr] }, ptr @vt, i32 0, i32 0, i64 3)',
    );
  });

  it('folds a GEP of null with zero/undef/poison indices to null, and poison indices select nothing', () => {
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr null, i64 0, i64 undef)')).toBe('null');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr @arr, i64 0, i64 poison)')).toBe('@arr');
    expect(folded('ptr', 'getelementptr ([4 x i32], ptr null, i64 0, i64 5)')).toBe('getelementptr ([4 x i32], ptr null, i64 1, i64 1)');
  });

  it('refolds a GEP of a forward-referenced global once it is defined (not for an extern_weak one)', () => {
    expect(folded('ptr', 'getelementptr ([3 x i32], ptr @later, i64 0, i64 1)', '@later = global [3 x i32] zeroinitializer')).toBe(
      'getelementptr inbounds ([3 x i32], ptr @later, i64 0, i64 1)',
    );
    expect(folded('ptr', 'getelementptr ([3 x i32], ptr @later, i64 0, i64 1)', '@later = extern_weak global [3 x i32]')).toBe(
      'getelementptr ([3 x i32], ptr @later, i64 0, i64 1)',
    );
  });

  it('keeps GEPs in LLVM 19 syntax (inrange(a, b), nusw, nuw) as written', () => {
    expect(folded('ptr', 'getelementptr nusw ([4 x i32], ptr @arr, i64 0, i64 9)')).toBe('getelementptr nusw ([4 x i32], ptr @arr, i64 0, i64 9)');
  });
});

describe('constant casts of casts combine as LLVM 16 does', () => {
  it.each([
    ['ptr', 'bitcast (ptr @i to ptr)', '@i'],
    ['ptr addrspace(4)', 'addrspacecast (ptr addrspace(1) addrspacecast (ptr @i to ptr addrspace(1)) to ptr addrspace(4))', 'addrspacecast (ptr @i to ptr addrspace(4))'],
    ['ptr', 'addrspacecast (ptr addrspace(1) addrspacecast (ptr @i to ptr addrspace(1)) to ptr)', '@i'],
    ['ptr', 'inttoptr (i64 ptrtoint (ptr @i to i64) to ptr)', '@i'],
    ['ptr', 'inttoptr (i32 ptrtoint (ptr @i to i32) to ptr)', 'inttoptr (i32 ptrtoint (ptr @i to i32) to ptr)'],
    ['ptr addrspace(1)', 'inttoptr (i64 ptrtoint (ptr @i to i64) to ptr addrspace(1))', 'inttoptr (i64 ptrtoint (ptr @i to i64) to ptr addrspace(1))'],
    ['i64', 'ptrtoint (ptr inttoptr (i64 12 to ptr) to i64)', '12'],
    ['i128', 'ptrtoint (ptr inttoptr (i128 12 to ptr) to i128)', 'ptrtoint (ptr inttoptr (i128 12 to ptr) to i128)'],
    ['i32', 'trunc (i64 ptrtoint (ptr @i to i64) to i32)', 'ptrtoint (ptr @i to i32)'],
    ['ptr', 'inttoptr (i64 zext (i32 ptrtoint (ptr @i to i32) to i64) to ptr)', 'inttoptr (i32 ptrtoint (ptr @i to i32) to ptr)'],
    ['i16', 'trunc (i64 zext (i32 ptrtoint (ptr @i to i32) to i64) to i16)', 'ptrtoint (ptr @i to i16)'],
    ['i64', 'trunc (i128 zext (i32 ptrtoint (ptr @i to i32) to i128) to i64)', 'zext (i32 ptrtoint (ptr @i to i32) to i64)'],
    ['i64', 'sext (i32 zext (i16 ptrtoint (ptr @i to i16) to i32) to i64)', 'zext (i16 ptrtoint (ptr @i to i16) to i64)'],
    ['i64', 'zext (i32 sext (i16 ptrtoint (ptr @i to i16) to i32) to i64)', 'zext (i32 sext (i16 ptrtoint (ptr @i to i16) to i32) to i64)'],
    ['i64', 'ptrtoint (ptr addrspace(1) addrspacecast (ptr @i to ptr addrspace(1)) to i64)', 'ptrtoint (ptr addrspace(1) addrspacecast (ptr @i to ptr addrspace(1)) to i64)'],
    ['ptr addrspace(1)', 'addrspacecast (ptr null to ptr addrspace(1))', 'addrspacecast (ptr null to ptr addrspace(1))'],
  ])('%s %s → %s', (type, value, expected) => {
    expect(folded(type, value)).toBe(expected);
  });
});

describe('typed-pointer mode (LLVM 14 folds the same way)', () => {
  const typed = (text: string): string => printModule(parseModule(text, { filename: 't.ll', pointers: 'preserve-typed' }));
  it('refolds a GEP of a forward-referenced global once it is defined', () => {
    const out = typed(
      [
        '@a = global i32* getelementptr ([4 x i32], [4 x i32]* @fwd, i64 0, i64 1)',
        '@b = global i32* getelementptr ([4 x i32], [4 x i32]* @fwdew, i64 0, i64 1)',
        '@fwd = global [4 x i32] zeroinitializer',
        '@fwdew = extern_weak global [4 x i32]',
      ].join('\n'),
    );
    expect(out).toContain('@a = global i32* getelementptr inbounds ([4 x i32], [4 x i32]* @fwd, i64 0, i64 1)');
    expect(out).toContain('@b = global i32* getelementptr ([4 x i32], [4 x i32]* @fwdew, i64 0, i64 1)');
  });
  it('combines integer casts of pointer casts', () => {
    const out = typed(['@i = global i32 0', '@a = global i32 trunc (i64 ptrtoint (i32* @i to i64) to i32)', '@b = global i32* inttoptr (i64 zext (i32 ptrtoint (i32* @i to i32) to i64) to i32*)'].join('\n'));
    expect(out).toContain('@a = global i32 ptrtoint (i32* @i to i32)');
    expect(out).toContain('@b = global i32* inttoptr (i32 ptrtoint (i32* @i to i32) to i32*)');
  });
});

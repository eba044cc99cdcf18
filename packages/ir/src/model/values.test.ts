import { describe, expect, it } from 'vitest';
import { parseModule } from '../reader/parser.js';
import { stripPointerCasts } from './values.js';

const source = `
@g = global [4 x i32] zeroinitializer

define ptr @f(ptr %p) {
  %cast = addrspacecast ptr %p to ptr addrspace(4)
  %back = addrspacecast ptr addrspace(4) %cast to ptr
  %zero = getelementptr [4 x i32], ptr %back, i64 0, i64 0
  %none = getelementptr i8, ptr %zero
  %moved = getelementptr i8, ptr %none, i64 1
  ret ptr %moved
}

define ptr @h() {
  ret ptr getelementptr ([4 x i32], ptr addrspacecast (ptr addrspace(1) addrspacecast (ptr @g to ptr addrspace(1)) to ptr), i64 0, i64 0)
}
`;

describe('stripPointerCasts', () => {
  const module = parseModule(source, { filename: 'casts.ll' });
  const f = module.getFunction('f')!;
  const instruction = (name: string) => f.blocks[0]!.instructions.find((i) => i.name === name)!;

  it('looks through address-space casts and GEPs whose indices are all zero, or absent, like LLVM', () => {
    expect(stripPointerCasts(instruction('none'))).toBe(f.args[0]);
  });

  it('stops at a GEP with a non-zero index', () => {
    expect(stripPointerCasts(instruction('moved'))).toBe(instruction('moved'));
  });

  it('looks through constant expressions down to the global', () => {
    const ret = module.getFunction('h')!.blocks[0]!.instructions[0]!;
    expect(stripPointerCasts(ret.operands[0]!)).toBe(module.getGlobalVariable('g'));
  });
});

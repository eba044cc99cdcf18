import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPtxText, readPtx } from './ptx.js';

const fixture = readFileSync(new URL('../../test/fixtures/cuda/scale.ptx', import.meta.url), 'utf8');

describe('readPtx on LLVM 16 NVPTX output', () => {
  const info = readPtx(fixture);

  it('reads the version, target and address size', () => {
    expect(info.version).toBe('7.8');
    expect(info.target).toEqual(['sm_90']);
    expect(info.addressSize).toBe(64);
  });

  it('reads each kernel with its parameters in order: pointer, three by-value structs, a float', () => {
    expect(info.entries.map((e) => e.name)).toEqual(['_ZTS5Scale', '_ZTS5Fixed']);
    expect(info.entries[0]!.params.map((p) => [p.type, p.size, p.align, p.arrayLength])).toEqual([
      ['u64', 8, 8, undefined],
      ['b8', 8, 8, 8],
      ['b8', 8, 8, 8],
      ['b8', 8, 8, 8],
      ['f32', 4, 4, undefined],
    ]);
  });

  it('reads .reqntid of a kernel with a required work-group size', () => {
    expect(info.entries[1]!.reqntid).toEqual([32, 2, 1]);
    expect(info.entries[0]!.reqntid).toBeUndefined();
  });

  it('lists defined functions and .extern declarations, not forward declarations', () => {
    expect(info.defined).toEqual(['_ZTS5Scale', 'scale', '_ZTS5Fixed']);
    expect(info.externs).toEqual(['external_helper']);
  });
});

describe('readPtx on hand-written PTX', () => {
  it('reads .ptr state spaces, .maxntid with missing sizes, and ignores comments', () => {
    const info = readPtx(`// .entry commented_out(\n.version 8.0\n.target sm_90a, debug\n.address_size 64\n/* .entry also_out() {} */\n.visible .entry k(\n  .param .u64 .ptr .global .align 16 k_param_0,\n  .param .s32 k_param_1\n)\n.maxntid 128\n{\n  ret;\n}\n`);
    expect(info.target).toEqual(['sm_90a', 'debug']);
    expect(info.entries).toEqual([
      {
        name: 'k',
        params: [
          { name: 'k_param_0', type: 'u64', size: 8, align: 16, pointer: true },
          { name: 'k_param_1', type: 's32', size: 4, align: 4, pointer: false },
        ],
        maxntid: [128, 1, 1],
      },
    ]);
  });

  it('reads a kernel without parameters', () => {
    expect(readPtx('.version 7.8\n.target sm_80\n.entry empty()\n{\n ret;\n}\n').entries).toEqual([{ name: 'empty', params: [] }]);
  });

  it('refuses a parameter it cannot size, naming the kernel', () => {
    expect(() => readPtx('.version 7.8\n.entry bad(\n .param .weird x\n)\n{\n}\n')).toThrow(/kernel bad: cannot read parameter '.param .weird x'/);
  });
});

describe('isPtxText', () => {
  it('accepts PTX after comments and refuses LLVM IR and SPIR-V', () => {
    expect(isPtxText(Buffer.from(fixture))).toBe(true);
    expect(isPtxText(Buffer.from('target triple = "nvptx64-nvidia-cuda"\n'))).toBe(false);
    expect(isPtxText(new Uint8Array([0x03, 0x02, 0x23, 0x07]))).toBe(false);
  });
});

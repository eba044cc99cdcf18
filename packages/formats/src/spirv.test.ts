import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpirvFormatError, isSpirv, readSpirvModule, spirvInstructions, spirvStringWords, spirvWords } from './spirv.js';
import { buildSpirv, buildSpirvWords, functionId, kernelModule, wordsToBytes } from '../test/spirv-builder.js';

/** Word offset of the first (or last) instruction with `opcode`. */
function offsetOf(words: readonly number[], opcode: number, last = false): number {
  const offsets = [...spirvInstructions(Uint32Array.from(words))].filter((inst) => inst.opcode === opcode).map((inst) => inst.offset);
  const offset = last ? offsets.at(-1) : offsets[0];
  if (offset === undefined) throw new Error(`no instruction with opcode ${opcode}`);
  return offset;
}

function errorOf(run: () => unknown): SpirvFormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof SpirvFormatError) return error;
    throw error;
  }
  throw new Error('expected a SpirvFormatError');
}

describe('readSpirvModule', () => {
  it('reads the header, capabilities, imports, memory model, entry points, names and functions', () => {
    const module = readSpirvModule(
      buildSpirv(
        kernelModule({
          capabilities: [4, 5, 6, 10, 12],
          extensions: ['SPV_KHR_linkonce_odr'],
          entryPoints: [{ model: 6, fn: 0, name: '_ZTS1K', modes: [{ mode: 35, operands: [16] }, { mode: 17, operands: [8, 4, 1] }] }],
        }),
      ),
    );
    expect(module.version).toEqual({ major: 1, minor: 4 });
    expect(module.generator).toEqual({ tool: 6, name: 'Khronos LLVM/SPIR-V Translator', version: 14 });
    expect(module.bigEndian).toBe(false);
    expect(module.capabilities.map((c) => c.name)).toEqual(['Addresses', 'Linkage', 'Kernel', 'Float64', 'Int64Atomics']);
    expect(module.extensions).toEqual(['SPV_KHR_linkonce_odr']);
    expect(module.extInstImports.map((i) => i.name)).toEqual(['OpenCL.std']);
    expect(module.addressingModel.name).toBe('Physical64');
    expect(module.memoryModel.name).toBe('OpenCL');
    expect(module.entryPoints).toHaveLength(1);
    const entry = module.entryPoints[0]!;
    expect(entry.executionModel.name).toBe('Kernel');
    expect(entry.name).toBe('_ZTS1K');
    expect(entry.id).toBe(functionId(0));
    expect(entry.executionModes.map((m) => [m.mode.name, m.operands])).toEqual([
      ['SubgroupSize', [16]],
      ['LocalSize', [8, 4, 1]],
    ]);
    expect(module.functions.map((fn) => [fn.name, fn.linkage, fn.defined, fn.calls])).toEqual([
      ['_ZTS1K', 'export', true, [functionId(1)]],
      ['helper', undefined, true, []],
    ]);
    expect(module.names.get(functionId(1))).toBe('helper');
  });

  it('names an enumerant it does not know by its number', () => {
    const module = readSpirvModule(buildSpirv(kernelModule({ capabilities: [6, 65000] })));
    expect(module.capabilities).toEqual([
      { value: 6, name: 'Kernel' },
      { value: 65000, name: '65000' },
    ]);
  });

  it('reads a big-endian module like the little-endian one', () => {
    const spec = kernelModule();
    const little = readSpirvModule(buildSpirv(spec));
    const big = readSpirvModule(buildSpirv({ ...spec, bigEndian: true }));
    expect(big.bigEndian).toBe(true);
    expect({ ...big, bigEndian: false }).toEqual(little);
  });

  it('tells declarations (no body) from definitions and reads import linkage', () => {
    const module = readSpirvModule(
      buildSpirv(kernelModule({ functions: [{ name: 'k', linkage: 'export', defined: true, calls: [1] }, { name: 'ext', linkage: 'import', defined: false, calls: [] }] })),
    );
    expect(module.functions.map((fn) => [fn.name, fn.linkage, fn.defined])).toEqual([
      ['k', 'export', true],
      ['ext', 'import', false],
    ]);
  });

  it('records functions whose address a function uses (SPV_INTEL_function_pointers)', () => {
    const words = buildSpirvWords(kernelModule({ functions: [{ name: 'k', defined: true, calls: [] }, { name: 'target', defined: true, calls: [] }] }));
    // Insert `%ptr = OpConstantFunctionPointerINTEL %void %target` before the first OpFunction
    // and a use of %ptr (OpFunctionPointerCallINTEL) in k's body.
    const bound = words[3]!;
    const firstFunction = offsetOf(words, 54);
    const withConstant = [...words.slice(0, firstFunction), (4 << 16) | 5600, 1, bound, functionId(1), ...words.slice(firstFunction)];
    const label = offsetOf(withConstant, 248);
    const final = [...withConstant.slice(0, label + 2), (4 << 16) | 5601, 1, bound + 1, bound, ...withConstant.slice(label + 2)];
    final[3] = bound + 2;
    const module = readSpirvModule(wordsToBytes(final));
    expect(module.functions[0]!.addressTaken).toEqual([functionId(1)]);
    expect(module.functions[1]!.addressTaken).toEqual([]);
  });
});

describe('readSpirvModule errors name the word offset', () => {
  it('refuses a length that is not whole words, and a short header', () => {
    expect(errorOf(() => readSpirvModule(new Uint8Array(22))).wordOffset).toBe(5);
    const short = errorOf(() => readSpirvModule(new Uint8Array(12), { fileName: 'a.spv' }));
    expect(short.message).toBe('a.spv: word 3: the module is 12 bytes, shorter than the 5-word header');
    expect(short.render()).toBe('a.spv: word 3: error: the module is 12 bytes, shorter than the 5-word header');
  });

  it('refuses a wrong magic number, version, bound or schema at their header word', () => {
    const words = buildSpirvWords(kernelModule());
    const at = (index: number, value: number): SpirvFormatError => {
      const copy = [...words];
      copy[index] = value;
      return errorOf(() => readSpirvModule(wordsToBytes(copy)));
    };
    expect(at(0, 0xdec04342)).toMatchObject({ wordOffset: 0, reason: 'not a SPIR-V module: the magic number is 0xdec04342, not 0x07230203' });
    expect(at(1, 0x00020000).wordOffset).toBe(1);
    expect(at(1, 0x00010700).wordOffset).toBe(1);
    expect(at(3, 0).reason).toBe('the id bound is 0');
    expect(at(4, 1).wordOffset).toBe(4);
  });

  it('refuses an instruction of word count 0 or one that runs past the end', () => {
    const words = buildSpirvWords(kernelModule());
    expect(errorOf(() => readSpirvModule(wordsToBytes([...words.slice(0, 5), 17, ...words.slice(5)])))).toMatchObject({ wordOffset: 5, reason: 'instruction (opcode 17) has a word count of 0' });
    const truncated = errorOf(() => readSpirvModule(wordsToBytes([...words, (3 << 16) | 17, 6])));
    expect(truncated.wordOffset).toBe(words.length);
    expect(truncated.reason).toMatch(/runs past the end of the module/);
  });

  it('refuses a string without a terminating NUL, at the operand word', () => {
    const words = buildSpirvWords(kernelModule({ extInstImports: [] }));
    const bad = [...words.slice(0, 5), (2 << 16) | 10, 0x41414141, ...words.slice(5)];
    expect(errorOf(() => readSpirvModule(wordsToBytes(bad)))).toMatchObject({ wordOffset: 6, reason: 'a string operand has no terminating NUL within its instruction' });
  });

  it('refuses a missing or repeated memory model', () => {
    const words = buildSpirvWords(kernelModule({ functions: [], entryPoints: [] }));
    const mm = offsetOf(words, 14);
    expect(errorOf(() => readSpirvModule(wordsToBytes([...words.slice(0, mm), ...words.slice(mm + 3)]))).reason).toBe('the module has no OpMemoryModel');
    expect(errorOf(() => readSpirvModule(wordsToBytes([...words.slice(0, mm + 3), ...words.slice(mm)])))).toMatchObject({ wordOffset: mm + 3, reason: 'a second OpMemoryModel (a module has exactly one)' });
  });

  it('refuses an entry point or call naming no function, and an unterminated function', () => {
    const words = buildSpirvWords(kernelModule());
    const end = offsetOf(words, 56, true);
    expect(errorOf(() => readSpirvModule(wordsToBytes(words.slice(0, end)))).reason).toMatch(/^function %\d+ has no OpFunctionEnd$/);
    const entry = offsetOf(words, 15);
    const badEntry = [...words];
    badEntry[entry + 2] = words[3]! - 1;
    expect(errorOf(() => readSpirvModule(wordsToBytes(badEntry)))).toMatchObject({ wordOffset: entry, reason: `OpEntryPoint '_ZTS1K' names %${words[3]! - 1}, which is no OpFunction of the module` });
    const call = offsetOf(words, 57);
    const badCall = [...words];
    badCall[call + 3] = 2;
    expect(errorOf(() => readSpirvModule(wordsToBytes(badCall)))).toMatchObject({ wordOffset: call, reason: 'OpFunctionCall calls %2, which is no OpFunction of the module' });
  });

  it('refuses an id outside the bound and a LinkageAttributes of an unknown type', () => {
    const words = buildSpirvWords(kernelModule());
    const name = offsetOf(words, 5);
    const outside = [...words];
    outside[name + 1] = words[3]!;
    expect(errorOf(() => readSpirvModule(wordsToBytes(outside))).wordOffset).toBe(name);
    const decorate = offsetOf(words, 71);
    const count = words[decorate]! >>> 16;
    const badType = [...words];
    badType[decorate + count - 1] = 7;
    expect(errorOf(() => readSpirvModule(wordsToBytes(badType)))).toMatchObject({ wordOffset: decorate, reason: 'OpDecorate LinkageAttributes has linkage type 7, not 0 (Export), 1 (Import) or 2 (LinkOnceODR)' });
  });
});

describe('SPIR-V helpers', () => {
  it('encodes strings as NUL-terminated, zero-padded UTF-8 words', () => {
    expect(spirvStringWords('')).toEqual([0]);
    expect(spirvStringWords('abc')).toEqual([0x00636261]);
    expect(spirvStringWords('abcd')).toEqual([0x64636261, 0]);
  });

  it('iterates instructions with their offsets', () => {
    const { words } = spirvWords(buildSpirv(kernelModule()));
    const instructions = [...spirvInstructions(words)];
    expect(instructions[0]).toMatchObject({ opcode: 17, offset: 5 });
    expect(instructions.at(-1)!.opcode).toBe(56);
  });

  it('recognizes SPIR-V by its magic number in either byte order', () => {
    expect(isSpirv(Uint8Array.of(0x03, 0x02, 0x23, 0x07))).toBe(true);
    expect(isSpirv(Uint8Array.of(0x07, 0x23, 0x02, 0x03))).toBe(true);
    expect(isSpirv(Uint8Array.of(0x42, 0x43, 0xc0, 0xde))).toBe(false);
  });
});

// Interop: what the reader says about modules the real tools wrote is what spirv-dis says.
const SPIRV_AS = ['/usr/bin/spirv-as'].find((p) => existsSync(p));
const SPIRV_DIS = ['/usr/bin/spirv-dis'].find((p) => existsSync(p));
const LLVM_SPIRV = ['/usr/bin/llvm-spirv-15', '/usr/lib/llvm-15/bin/llvm-spirv'].find((p) => existsSync(p));
const LLVM_AS = ['/usr/lib/llvm-15/bin/llvm-as'].find((p) => existsSync(p));

function disassembly(spv: string): string {
  return execFileSync(SPIRV_DIS!, ['--raw-id', spv], { encoding: 'utf8' });
}

function expectAgreesWithSpirvDis(bytes: Uint8Array, spv: string): void {
  const module = readSpirvModule(bytes);
  const text = disassembly(spv);
  const lines = (re: RegExp) => [...text.matchAll(re)].map((m) => m.slice(1));
  expect(module.capabilities.map((c) => c.name)).toEqual(lines(/^\s*OpCapability (\w+)$/gm).map(([name]) => name));
  expect(module.extensions).toEqual(lines(/^\s*OpExtension "([^"]*)"$/gm).map(([name]) => name));
  expect(module.entryPoints.map((e) => [e.executionModel.name, `%${e.id}`, e.name])).toEqual(lines(/^\s*OpEntryPoint (\w+) (%\d+) "([^"]*)"/gm));
  expect([`${module.addressingModel.name} ${module.memoryModel.name}`]).toEqual(lines(/^\s*OpMemoryModel (\w+ \w+)$/gm).map(([m]) => m));
  expect(module.functions.map((fn) => `%${fn.id}`)).toEqual(lines(/^\s*(%\d+) = OpFunction /gm).map(([id]) => id));
  const version = text.match(/^; Version: (\d+)\.(\d+)$/m)!;
  expect(module.version).toEqual({ major: Number(version[1]), minor: Number(version[2]) });
  const modes = lines(/^\s*OpExecutionMode (%\d+) (\w+)(.*)$/gm).map(([id, mode, rest]) => [id, mode, rest!.trim().split(' ').filter(Boolean).map(Number)]);
  expect(module.entryPoints.flatMap((e) => e.executionModes.map((m) => [`%${e.id}`, m.mode.name, m.operands]))).toEqual(modes);
}

describe.skipIf(SPIRV_AS === undefined || SPIRV_DIS === undefined)('reads what spirv-as writes as spirv-dis does (needs Debian spirv-tools)', () => {
  it('agrees on a kernel module with execution modes, function pointers and linkage', () => {
    const dir = mkdtempSync(join(tmpdir(), 'syclkit-spirv-'));
    try {
      writeFileSync(
        join(dir, 'm.spvasm'),
        `OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Float64
OpCapability SubgroupDispatch
OpCapability FunctionPointersINTEL
OpExtension "SPV_INTEL_function_pointers"
OpExtension "SPV_KHR_linkonce_odr"
%std = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "_ZTS6Kernel"
OpExecutionMode %k SubgroupSize 16
OpExecutionMode %k LocalSize 8 8 1
OpName %helper "helper"
OpDecorate %helper LinkageAttributes "helper" LinkOnceODR
OpDecorate %ext LinkageAttributes "ext" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fnptr = OpTypePointer CodeSectionINTEL %fn
%ptr = OpConstantFunctionPointerINTEL %fnptr %helper
%ext = OpFunction %void None %fn
OpFunctionEnd
%helper = OpFunction %void None %fn
%l1 = OpLabel
OpReturn
OpFunctionEnd
%k = OpFunction %void None %fn
%l2 = OpLabel
%c1 = OpFunctionCall %void %ext
%c2 = OpFunctionPointerCallINTEL %void %ptr
OpReturn
OpFunctionEnd
`,
      );
      execFileSync(SPIRV_AS!, ['--target-env', 'spv1.4', join(dir, 'm.spvasm'), '-o', join(dir, 'm.spv')]);
      const bytes = new Uint8Array(readFileSync(join(dir, 'm.spv')));
      expectAgreesWithSpirvDis(bytes, join(dir, 'm.spv'));
      const module = readSpirvModule(bytes);
      const helper = module.functions.find((fn) => fn.name === 'helper')!;
      expect(helper.linkage).toBe('linkonce_odr');
      expect(module.functions.find((fn) => fn.name === 'ext')).toMatchObject({ linkage: 'import', defined: false });
      const kernel = module.functions.find((fn) => fn.id === module.entryPoints[0]!.id)!;
      expect(kernel.addressTaken).toEqual([helper.id]);
      expect(kernel.calls).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(LLVM_SPIRV === undefined || LLVM_AS === undefined || SPIRV_DIS === undefined)('reads what llvm-spirv writes (needs Debian llvm-15, llvm-spirv-15, spirv-tools)', () => {
  it('agrees with spirv-dis on a translated kernel module', () => {
    const dir = mkdtempSync(join(tmpdir(), 'syclkit-spirv-'));
    try {
      writeFileSync(
        join(dir, 'k.ll'),
        `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define spir_kernel void @_ZTS5Scale(ptr addrspace(1) %p) !intel_reqd_sub_group_size !0 !reqd_work_group_size !1 {
  %v = load float, ptr addrspace(1) %p, align 4
  %r = call spir_func float @twice(float %v)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

define linkonce_odr spir_func float @twice(float %x) {
  %d = fpext float %x to double
  %m = fmul double %d, 2.0
  %f = fptrunc double %m to float
  ret float %f
}

!0 = !{i32 16}
!1 = !{i32 32, i32 2, i32 1}
`,
      );
      execFileSync(LLVM_AS!, [join(dir, 'k.ll'), '-o', join(dir, 'k.bc')]);
      execFileSync(LLVM_SPIRV!, ['--spirv-ext=+SPV_KHR_linkonce_odr', join(dir, 'k.bc'), '-o', join(dir, 'k.spv')]);
      const bytes = new Uint8Array(readFileSync(join(dir, 'k.spv')));
      expectAgreesWithSpirvDis(bytes, join(dir, 'k.spv'));
      const module = readSpirvModule(bytes);
      expect(module.capabilities.map((c) => c.name)).toContain('Float64');
      const entry = module.entryPoints.find((e) => e.name === '_ZTS5Scale')!;
      expect(entry.executionModes.map((m) => [m.mode.name, m.operands])).toEqual(expect.arrayContaining([['SubgroupSize', [16]], ['LocalSize', [32, 2, 1]]]));
      expect(module.functions.find((fn) => fn.name === 'twice')).toMatchObject({ linkage: 'linkonce_odr', defined: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

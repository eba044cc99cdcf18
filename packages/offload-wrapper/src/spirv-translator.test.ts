import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpirvOp, encodeSpirvInstruction, readSpirvModule, spirvInstructions, spirvStringWords, spirvWords } from '@syclkit/formats';
import { SPIRV_TOOLS, SPIRV_TOOLS_MISSING, spirvValErrors } from '@syclkit/testing';
import { ImageFormat } from './descriptor.js';
import { AotToolError } from './errors.js';
import { parseModule, printModule } from '@syclkit/ir';
import { DPCPP_LLVM_SPIRV_OPTIONS, findLlvmSpirvTools, llvmSpirvCompiler, prepareForLlvmSpirv, printForLlvmVersion, repairTranslatorDebugInfo, validateSpirv } from './spirv-translator.js';
import type { AotCompiler } from './aot.js';

const dir = mkdtempSync(join(tmpdir(), 'syclkit-spirv-translator-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const emptyDir = join(dir, 'empty');
mkdirSync(emptyDir);
const encoder = new TextEncoder();
const request = (text: string, name = 'a_0') => ({ input: encoder.encode(text), inputPath: `${name}.ll`, target: 'spir64', name });

function bytesOf(words: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setUint32(4 * i, word >>> 0, true));
  return bytes;
}

/** A minimal kernel module: Kernel, Addresses, Linkage, one entry point `K`. */
function minimalModule(): Uint8Array {
  const body = [
    ...encodeSpirvInstruction(SpirvOp.Capability, [4]),
    ...encodeSpirvInstruction(SpirvOp.Capability, [5]),
    ...encodeSpirvInstruction(SpirvOp.Capability, [6]),
    ...encodeSpirvInstruction(SpirvOp.MemoryModel, [2, 2]),
    ...encodeSpirvInstruction(SpirvOp.EntryPoint, [6, 3, ...spirvStringWords('K')]),
    ...encodeSpirvInstruction(SpirvOp.TypeVoid, [1]),
    ...encodeSpirvInstruction(33, [2, 1]),
    ...encodeSpirvInstruction(SpirvOp.Function, [1, 3, 0, 2]),
    ...encodeSpirvInstruction(SpirvOp.Label, [4]),
    ...encodeSpirvInstruction(253, []),
    ...encodeSpirvInstruction(SpirvOp.FunctionEnd, []),
  ];
  return bytesOf([0x07230203, 0x00010400, (6 << 16) | 14, 5, 0, ...body]);
}

/**
 * Stand-ins for llvm-spirv and llvm-as: the translator answers `--version` with LLVM `version`,
 * fails on input containing FAIL and otherwise writes `module.spv` to stdout whatever its input;
 * the assembler copies stdin to stdout. They check the plumbing (version lookup, the pipe, exit
 * status and stderr), not the translation.
 */
function fakeTools(version: number, name = `fake-${version}`, module: Uint8Array = minimalModule()): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'module.spv'), module);
  writeFileSync(
    join(bin, 'llvm-spirv'),
    `#!/bin/sh
if [ "$1" = "--version" ]; then echo "LLVM (http://llvm.org/):"; echo "  LLVM version ${version}.0.1"; exit 0; fi
input=$(cat)
case "$input" in *FAIL*) echo "error: cannot translate" >&2; exit 1;; esac
echo "$@" > "${bin}/args"
cat "${bin}/module.spv"
`,
  );
  writeFileSync(join(bin, `llvm-as-${version}`), '#!/bin/sh\ncat\n');
  chmodSync(join(bin, 'llvm-spirv'), 0o755);
  chmodSync(join(bin, `llvm-as-${version}`), 0o755);
  return bin;
}

describe('finding llvm-spirv', () => {
  it('names the Debian packages when the translator is missing', () => {
    expect(() => findLlvmSpirvTools({ dirs: [emptyDir] })).toThrow(AotToolError);
    expect(() => llvmSpirvCompiler({ dirs: [emptyDir] })).toThrow(
      `SPIR-V images need llvm-spirv, the Khronos LLVM/SPIR-V translator, which is not installed (looked for llvm-spirv, llvm-spirv-19, llvm-spirv-18, llvm-spirv-17, llvm-spirv-16, llvm-spirv-15 in ${emptyDir}); on Debian: apt-get install llvm-spirv-15 llvm-15; or keep LLVM IR (compile -fsycl-device-obj=llvmir, wrap -aot=ir)`,
    );
  });

  it("takes the translator's LLVM version from --version and the llvm-as of that version", () => {
    const bin = fakeTools(17);
    expect(findLlvmSpirvTools({ dirs: [bin] })).toEqual({ translator: join(bin, 'llvm-spirv'), llvmMajor: 17, assembler: join(bin, 'llvm-as-17') });
    rmSync(join(bin, 'llvm-as-17'));
    expect(() => findLlvmSpirvTools({ dirs: [bin] })).toThrow(/reads LLVM 17 bitcode, so text IR is assembled with LLVM 17's llvm-as, which is not installed .*apt-get install llvm-17$/);
  });
});

describe('llvm-spirv backend (with stand-in tools)', () => {
  it('pipes the IR through llvm-as into llvm-spirv with DPC++ options and stores SPIR-V', async () => {
    const bin = fakeTools(16);
    const result = await llvmSpirvCompiler({ dirs: [bin], validate: false }).compile(request('define void @f() {\n  ret void\n}\n'));
    expect(result.format).toBe(ImageFormat.SPIRV);
    expect(readSpirvModule(result.image).entryPoints.map((e) => e.name)).toEqual(['K']);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(bin, 'args'), 'utf8').trim()).toBe([...DPCPP_LLVM_SPIRV_OPTIONS, '-', '-o', '-'].join(' '));
  });

  it("prints the module for the translator's LLVM version, and says so when it cannot", async () => {
    const seen: number[] = [];
    const compiler = llvmSpirvCompiler({ dirs: [fakeTools(15)], validate: false, printForLlvm: (module, major) => (seen.push(major), printModule(module)) });
    await compiler.compile(request('define void @f() {\n  ret void\n}\n'));
    expect(seen).toEqual([15]);
    const module = parseModule('define void @f() {\n  ret void\n}\n');
    expect(printForLlvmVersion(module, 16, request(''))).toBe(printModule(module));
    // LLVM 15: typed pointers, which its translator needs (see the tests with the real translator)
    const pointers = parseModule('define void @g(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p, align 4\n  ret void\n}\n');
    expect(printForLlvmVersion(pointers, 15, request(''))).toBe(printModule(pointers, { llvmVersion: 15, pointers: 'typed' }));
    expect(printForLlvmVersion(pointers, 15, request(''))).toContain('define void @g(i8 addrspace(1)* %p)');
    expect(() => printForLlvmVersion(module, 14, request(''))).toThrow(/^a_0\.ll: llvm-spirv reads LLVM 14 IR, and syclkit prints IR for LLVM 15 and later only; install a translator built with LLVM 15 or later \(Debian: llvm-spirv-15\)/);
    const image = parseModule('define void @h(target("spirv.Image", void, 1) %i) {\n  ret void\n}\n');
    expect(() => printForLlvmVersion(image, 15, request(''))).toThrow(/^a_0\.ll: llvm-spirv reads LLVM 15 IR, which cannot express this image: .*target extension type.*keep LLVM IR for it/);
  });

  it('refuses input that is not IR, naming the file', async () => {
    await expect(llvmSpirvCompiler({ dirs: [fakeTools(16)], validate: false }).compile(request('not IR'))).rejects.toThrow(/^a_0\.ll: cannot read the device IR: /);
  });

  it('reports a failing translator with its exit status and stderr, located at the input', async () => {
    await expect(llvmSpirvCompiler({ dirs: [fakeTools(16)], validate: false }).compile(request('declare void @FAIL()\n'))).rejects.toThrow(/^a_0\.ll: llvm-spirv on a_0\.ll failed \(exit status 1\):\nerror: cannot translate$/);
  });

  it('refuses images with specialization-constant conditions, which llvm-spirv would drop', async () => {
    const text = 'define void @f() !sycl_requirement_condition !0 {\n  ret void\n}\n!0 = !{}\n';
    await expect(llvmSpirvCompiler({ dirs: [fakeTools(16)], validate: false }).compile(request(text))).rejects.toThrow(/need SPV_INTEL_spec_conditional/);
  });

  it('hands the SPIR-V to a native step (ocloc) when one is plugged in', async () => {
    const inputs: Uint8Array[] = [];
    const ocloc: AotCompiler = {
      name: 'ocloc',
      compile: async (req) => {
        inputs.push(req.input);
        return { image: Uint8Array.of(0x7f, 0x45, 0x4c, 0x46), format: ImageFormat.NATIVE };
      },
    };
    const result = await llvmSpirvCompiler({ dirs: [fakeTools(16)], validate: false, native: ocloc }).compile(request(''));
    expect(result).toEqual({ image: Uint8Array.of(0x7f, 0x45, 0x4c, 0x46), format: ImageFormat.NATIVE });
    expect(readSpirvModule(inputs[0]!).entryPoints[0]!.name).toBe('K');
  });
});

/** A module with the OpenCL.DebugInfo.100 shapes LLVM 15's translator writes. */
function debugInfoModule(): { bytes: Uint8Array; none: number; voidType: number } {
  const set = 1;
  const voidType = 2;
  const none = 10;
  const ext = (result: number, instruction: number, args: readonly number[]) => encodeSpirvInstruction(SpirvOp.ExtInst, [voidType, result, set, instruction, ...args]);
  const body = [
    ...encodeSpirvInstruction(SpirvOp.Capability, [6]),
    ...encodeSpirvInstruction(SpirvOp.ExtInstImport, [set, ...spirvStringWords('OpenCL.DebugInfo.100')]),
    ...encodeSpirvInstruction(SpirvOp.MemoryModel, [2, 2]),
    ...encodeSpirvInstruction(SpirvOp.String, [3, ...spirvStringWords('a.cpp')]),
    ...encodeSpirvInstruction(SpirvOp.TypeVoid, [voidType]),
    ...ext(none, 0, []),
    ...ext(11, 35, [3, none]), // DebugSource File Text=None
    ...ext(12, 8, [0, none]), // DebugTypeFunction Flags ReturnType=None
    ...ext(13, 8, [0, 12, 12]), // DebugTypeFunction with a real return type: unchanged
    ...ext(14, 20, [3, 12, 11, 1, 0, 11, 3, 0, 1, 15, none]), // DebugFunction … Declaration=None
  ];
  return { bytes: bytesOf([0x07230203, 0x00010100, (6 << 16) | 14, 16, 0, ...body]), none, voidType };
}

describe('prepareForLlvmSpirv', () => {
  it('gives kernel size metadata with fewer than three sizes the missing ones as 1', () => {
    const module = parseModule(`define spir_kernel void @K() !reqd_work_group_size !0 !work_group_size_hint !1 !max_work_group_size !2 {
  ret void
}
define spir_kernel void @L() !reqd_work_group_size !0 {
  ret void
}
!0 = !{i32 256}
!1 = !{i64 8, i64 4}
!2 = !{i32 4, i32 4, i32 4}
`);
    prepareForLlvmSpirv(module);
    const text = printModule(module);
    expect(text).toContain('define spir_kernel void @K() !reqd_work_group_size !0 !work_group_size_hint !1 !max_work_group_size !2 {');
    expect(text).toContain('define spir_kernel void @L() !reqd_work_group_size !0 {');
    expect(text).toMatch(/!0 = !\{i32 256, i32 1, i32 1\}\n!1 = !\{i64 8, i64 4, i64 1\}\n!2 = !\{i32 4, i32 4, i32 4\}\n/);
  });
});

describe('repairTranslatorDebugInfo', () => {
  it('drops a DebugInfoNone Text of DebugSource and Declaration of DebugFunction, and makes a DebugInfoNone return type OpTypeVoid', () => {
    const { bytes, none, voidType } = debugInfoModule();
    const repaired = repairTranslatorDebugInfo(bytes);
    const ext = [...spirvInstructions(spirvWords(repaired).words)].filter((i) => i.opcode === SpirvOp.ExtInst).map((i) => [...i.operands.subarray(1)]);
    expect(ext).toEqual([
      [none, 1, 0],
      [11, 1, 35, 3],
      [12, 1, 8, 0, voidType],
      [13, 1, 8, 0, 12, 12],
      [14, 1, 20, 3, 12, 11, 1, 0, 11, 3, 0, 1, 15],
    ]);
  });

  it('gives a DebugTypeComposite whose Linkage Name is DebugInfoNone an empty OpString: the module\'s own, else a new id added before its first OpString', () => {
    const module = (withEmpty: boolean): Uint8Array => {
      const body = [
        ...encodeSpirvInstruction(SpirvOp.Capability, [6]),
        ...encodeSpirvInstruction(11, [1, ...spirvStringWords('OpenCL.DebugInfo.100')]),
        ...encodeSpirvInstruction(SpirvOp.MemoryModel, [2, 2]),
        ...encodeSpirvInstruction(7, [3, ...spirvStringWords('a.cpp')]),
        ...(withEmpty ? encodeSpirvInstruction(7, [4, ...spirvStringWords('')]) : []),
        ...encodeSpirvInstruction(SpirvOp.TypeVoid, [2]),
        ...encodeSpirvInstruction(SpirvOp.ExtInst, [2, 10, 1, 0]),
        ...encodeSpirvInstruction(SpirvOp.ExtInst, [2, 11, 1, 35, 3]),
        // name, tag (Structure), source, line, column, parent, linkage name, size, flags
        ...encodeSpirvInstruction(SpirvOp.ExtInst, [2, 12, 1, 10, 3, 1, 11, 0, 0, 11, 10, 10, 4]),
      ];
      return bytesOf([0x07230203, 0x00010100, (6 << 16) | 14, 13, 0, ...body]);
    };
    const composite = (bytes: Uint8Array) => [...spirvInstructions(spirvWords(bytes).words)].find((i) => i.opcode === SpirvOp.ExtInst && i.operands[3] === 10)!.operands[10];
    const strings = (bytes: Uint8Array) => [...spirvInstructions(spirvWords(bytes).words)].filter((i) => i.opcode === 7).map((i) => [...i.operands]);
    const own = repairTranslatorDebugInfo(module(true));
    expect(composite(own)).toBe(4);
    expect(strings(own)).toEqual(strings(module(true)));
    const added = repairTranslatorDebugInfo(module(false));
    expect(spirvWords(added).words[3]).toBe(14); // the id bound grew by the new string's id
    expect(composite(added)).toBe(13);
    expect(strings(added)).toEqual([[13, 0], [3, ...spirvStringWords('a.cpp')]]);
    expect(readSpirvModule(added).extInstImports.map((i) => i.name)).toEqual(['OpenCL.DebugInfo.100']);
  });

  it('drops the DebugInfoNone lower bounds after the component counts of a DebugTypeArray, and keeps counts that are all there is', () => {
    const module = (counts: readonly number[]): Uint8Array => {
      const body = [
        ...encodeSpirvInstruction(SpirvOp.Capability, [6]),
        ...encodeSpirvInstruction(11, [1, ...spirvStringWords('OpenCL.DebugInfo.100')]),
        ...encodeSpirvInstruction(SpirvOp.MemoryModel, [2, 2]),
        ...encodeSpirvInstruction(SpirvOp.TypeVoid, [2]),
        ...encodeSpirvInstruction(SpirvOp.ExtInst, [2, 10, 1, 0]),
        ...encodeSpirvInstruction(SpirvOp.ExtInst, [2, 12, 1, 5, 11, ...counts]),
      ];
      return bytesOf([0x07230203, 0x00010100, (6 << 16) | 14, 20, 0, ...body]);
    };
    const array = (bytes: Uint8Array) => [...[...spirvInstructions(spirvWords(bytes).words)].find((i) => i.opcode === SpirvOp.ExtInst && i.operands[3] === 5)!.operands.subarray(4)];
    expect(array(repairTranslatorDebugInfo(module([13, 10])))).toEqual([11, 13]);
    expect(array(repairTranslatorDebugInfo(module([13, 14, 10, 10])))).toEqual([11, 13, 14]);
    const counts = module([13, 14]);
    expect(repairTranslatorDebugInfo(counts)).toBe(counts);
  });

  it('returns a module without those shapes unchanged, byte for byte', () => {
    const bytes = minimalModule();
    expect(repairTranslatorDebugInfo(bytes)).toBe(bytes);
    const repaired = repairTranslatorDebugInfo(debugInfoModule().bytes);
    expect(repairTranslatorDebugInfo(repaired)).toBe(repaired);
  });
});

/** IR that LLVM 15 reads as it is, with debug info as clang -g writes it, a double only in an uncalled function. */
const KERNEL_IR = `source_filename = "k.cpp"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

define weak_odr spir_kernel void @_ZTS6Kernel(ptr addrspace(1) %p) !dbg !5 {
entry:
  store float 1.0, ptr addrspace(1) %p, align 4, !dbg !8
  ret void
}

define spir_func double @_Z6unusedd(double %x) !dbg !9 {
entry:
  %m = fmul double %x, 2.0, !dbg !10
  ret double %m
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)
!1 = !DIFile(filename: "k.cpp", directory: "/work")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "_ZTS6Kernel", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 4, column: 3, scope: !5)
!9 = distinct !DISubprogram(name: "unused", linkageName: "_Z6unusedd", scope: !1, file: !1, line: 8, type: !6, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)
!10 = !DILocation(line: 8, column: 40, scope: !9)
`;

describe.skipIf(SPIRV_TOOLS === undefined)(`llvm-spirv backend with Debian's LLVM 15 translator${SPIRV_TOOLS === undefined ? ` (skipped: ${SPIRV_TOOLS_MISSING})` : ''}`, () => {
  // The input is LLVM 15 syntax already, so it goes to llvm-as-15 as it is.
  // The inputs use only what LLVM 15 reads, so printing them as LLVM 16 does is what LLVM 15 reads.
  const compiler = (): AotCompiler => llvmSpirvCompiler({ tool: SPIRV_TOOLS!.translator, assembler: SPIRV_TOOLS!.assembler, printForLlvm: (module) => printModule(module) });

  it('writes SPIR-V that spirv-val accepts for the environment DPC++ targets, debug info included', async () => {
    const { image } = await compiler().compile(request(KERNEL_IR));
    expect(spirvValErrors(image)).toBeUndefined();
    const module = readSpirvModule(image);
    expect(module.extInstImports.map((i) => i.name)).toContain('OpenCL.DebugInfo.100');
    expect(module.entryPoints.map((e) => e.name)).toEqual(['_ZTS6Kernel']);
    await validateSpirv(image, 'a_0.ll');
  });

  it('without the repair, spirv-val rejects what LLVM 15\'s translator writes for debug info', async () => {
    const { execFileSync } = await import('node:child_process');
    const bitcode = execFileSync(SPIRV_TOOLS!.assembler, ['-', '-o', '-'], { input: KERNEL_IR });
    const raw = execFileSync(SPIRV_TOOLS!.translator, [...DPCPP_LLVM_SPIRV_OPTIONS, '-', '-o', '-'], { input: bitcode });
    expect(spirvValErrors(new Uint8Array(raw))).toMatch(/DebugSource: expected operand Text must be a result id of OpString/);
  });

  it('declares Float64 for a double in a function no kernel calls (what the split must prevent)', async () => {
    const { image } = await compiler().compile(request(KERNEL_IR));
    expect(readSpirvModule(image).capabilities.map((c) => c.name)).toContain('Float64');
    const withoutUnused = KERNEL_IR.replace(/define spir_func double @_Z6unusedd[\s\S]*?\n}\n/, '');
    const { image: kernelOnly } = await compiler().compile(request(withoutUnused));
    expect(readSpirvModule(kernelOnly).capabilities.map((c) => c.name)).not.toContain('Float64');
  });

  it('fails validation with spirv-val\'s message for an invalid module', async () => {
    const invalid = minimalModule().slice(0, -8); // cut the OpReturn/OpFunctionEnd
    await expect(validateSpirv(invalid, 'bad.ll')).rejects.toThrow(/^bad\.ll: spirv-val --target-env spv1\.4 on the SPIR-V of bad\.ll failed \(exit status 1\)/);
  });

  it('with validation on (SYCLKIT_SPIRV_VAL=1 in the tests), fails a compile whose SPIR-V spirv-val rejects', async () => {
    // A module spirv-val rejects: the entry point's function has no body (no OpLabel, no OpReturn).
    const words = [...spirvWords(minimalModule()).words];
    const noBody = words.slice(0, -4);
    noBody.push(...encodeSpirvInstruction(SpirvOp.FunctionEnd, []));
    const bin = fakeTools(16, 'fake-invalid', bytesOf(noBody));
    expect(process.env['SYCLKIT_SPIRV_VAL']).toBe('1');
    await expect(llvmSpirvCompiler({ dirs: [bin, '/usr/bin'] }).compile(request(''))).rejects.toThrow(/spirv-val --target-env spv1\.4 on the SPIR-V of a_0\.ll failed/);
    expect((await llvmSpirvCompiler({ dirs: [bin], validate: false }).compile(request(''))).format).toBe(ImageFormat.SPIRV);
  });

  it('reports llvm-as errors with the assembler\'s message', async () => {
    // IR syclkit reads but LLVM 15 does not: a memory(...) attribute.
    const text = 'declare void @f() #0\nattributes #0 = { memory(none) }\n';
    await expect(compiler().compile(request(text))).rejects.toThrow(/^a_0\.ll: llvm-as \(LLVM 15\) on a_0\.ll failed \(exit status 1\):\n.*error/);
  });

  // Two kernel pointer arguments stored by one function (every accessor's __init does this) and a
  // printf format: LLVM 15's translator crashes on the first and writes SPIR-V spirv-val rejects
  // for the second when they come as opaque-pointer IR.
  const ACCESSOR_PRINTF_IR = `target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr addrspace(2) constant [4 x i8] c"%d\\0A\\00", align 1

define internal spir_func void @__init(ptr addrspace(4) %this, ptr addrspace(1) %p) {
entry:
  store ptr addrspace(1) %p, ptr addrspace(4) %this, align 8
  ret void
}

define weak_odr spir_kernel void @_ZTS4Copy(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %acc = alloca ptr addrspace(1), align 8
  %acc.ascast = addrspacecast ptr %acc to ptr addrspace(4)
  call spir_func void @__init(ptr addrspace(4) %acc.ascast, ptr addrspace(1) %in)
  call spir_func void @__init(ptr addrspace(4) %acc.ascast, ptr addrspace(1) %out)
  %v = load i32, ptr addrspace(1) %in, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  %r = call spir_func i32 (ptr addrspace(2), ...) @_Z18__spirv_ocl_printfPU3AS2Kcz(ptr addrspace(2) @.str, i32 %v)
  ret void
}

declare spir_func i32 @_Z18__spirv_ocl_printfPU3AS2Kcz(ptr addrspace(2), ...)
`;

  it('with the default printer, translates accessors and printf (typed-pointer IR for LLVM 15) into SPIR-V spirv-val accepts', async () => {
    const { image, format } = await llvmSpirvCompiler({ tool: SPIRV_TOOLS!.translator, assembler: SPIRV_TOOLS!.assembler, validate: false }).compile(request(ACCESSOR_PRINTF_IR));
    expect(format).toBe(ImageFormat.SPIRV);
    expect(spirvValErrors(image)).toBeUndefined();
    expect(readSpirvModule(image).entryPoints.map((e) => e.name)).toEqual(['_ZTS4Copy']);
  });

  it('as opaque-pointer IR, the same module is what LLVM 15\'s translator cannot take', async () => {
    const opaque = llvmSpirvCompiler({ tool: SPIRV_TOOLS!.translator, assembler: SPIRV_TOOLS!.assembler, validate: true, printForLlvm: (module) => printModule(module, { llvmVersion: 15 }) });
    await expect(opaque.compile(request(ACCESSOR_PRINTF_IR))).rejects.toThrow(/llvm-spirv on a_0\.ll failed|spirv-val --target-env spv1\.4 on the SPIR-V of a_0\.ll failed/);
  });

  it('translates a kernel whose !reqd_work_group_size has one size (LLVM 15\'s translator asserts on it as it is)', async () => {
    const text = KERNEL_IR.replace('define weak_odr spir_kernel void @_ZTS6Kernel(ptr addrspace(1) %p) !dbg !5 {', 'define weak_odr spir_kernel void @_ZTS6Kernel(ptr addrspace(1) %p) !dbg !5 !reqd_work_group_size !11 {') + '!11 = !{i32 256}\n';
    const { image } = await compiler().compile(request(text));
    const entry = readSpirvModule(image).entryPoints[0]!;
    expect(entry.executionModes.map((m) => [m.mode.name, m.operands])).toContainEqual(['LocalSize', [256, 1, 1]]);
  });
});

/**
 * The SPIR-V step of the DPC++ driver: each image sycl-post-link wrote, translated by the Khronos
 * LLVM/SPIR-V translator (`llvm-spirv`) with the options DPC++'s driver passes, one translation
 * per image as `llvm-foreach` runs it (the caller runs them in a pool, e.g. `packTables`' `jobs`).
 * For Intel AOT targets the SPIR-V is what the device compiler (`ocloc`) gets; that step is the
 * pluggable `native` compiler, and without one the SPIR-V is stored.
 *
 * The translator reads bitcode of its own LLVM version, so text IR is printed for that version
 * (`printForLlvm`) and assembled with the `llvm-as` of that version, piped into the translator: two
 * processes per image, no temporary files. Debian 12 ships `llvm-spirv-15`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readSpirvModule, spirvInstructions, spirvWords, SpirvFormatError } from '@syclkit/formats';
import { Context, IrError, parseModule, printModule, type IntegerType, type MDNode, type Module } from '@syclkit/ir';
import { defaultToolDirs, findTool, type AotCompiler, type AotRequest, type AotResult, type ToolSearch } from './aot.js';
import { detectImageFormat, ImageFormat } from './descriptor.js';
import { AotToolError } from './errors.js';

/**
 * What DPC++'s driver passes to llvm-spirv for `spir64` and `spir64_gen` (intel/llvm
 * clang/lib/Driver/ToolChains/Clang.cpp, `SPIRVTranslator`; clang/test/Driver/sycl-spirv-ext.c),
 * as far as LLVM 15's translator knows the options and extensions (see the package README for
 * what is left out and why):
 * - `-spirv-max-version=1.4`;
 * - `-spirv-debug-info-version=ocl-100` with `-spirv-allow-extra-diexpressions`: DPC++ uses these
 *   on Windows and used them everywhere before NonSemantic.Shader.DebugInfo.200, which LLVM 15's
 *   translator does not have;
 * - `-spirv-allow-unknown-intrinsics=llvm.genx.`;
 * - `-spirv-ext=-all,+…`: DPC++'s list, less the extensions LLVM 15's translator does not know.
 */
export const DPCPP_LLVM_SPIRV_OPTIONS: readonly string[] = [
  '-spirv-max-version=1.4',
  '-spirv-debug-info-version=ocl-100',
  '-spirv-allow-extra-diexpressions',
  '-spirv-allow-unknown-intrinsics=llvm.genx.',
  `-spirv-ext=-all,${[
    'SPV_EXT_shader_atomic_float_add',
    'SPV_EXT_shader_atomic_float_min_max',
    'SPV_KHR_no_integer_wrap_decoration',
    'SPV_KHR_float_controls',
    'SPV_KHR_expect_assume',
    'SPV_KHR_linkonce_odr',
    'SPV_INTEL_subgroups',
    'SPV_INTEL_media_block_io',
    'SPV_INTEL_device_side_avc_motion_estimation',
    'SPV_INTEL_fpga_loop_controls',
    'SPV_INTEL_unstructured_loop_controls',
    'SPV_INTEL_fpga_reg',
    'SPV_INTEL_blocking_pipes',
    'SPV_INTEL_function_pointers',
    'SPV_INTEL_kernel_attributes',
    'SPV_INTEL_io_pipes',
    'SPV_INTEL_inline_assembly',
    'SPV_INTEL_arbitrary_precision_integers',
    'SPV_INTEL_float_controls2',
    'SPV_INTEL_vector_compute',
    'SPV_INTEL_fast_composite',
    'SPV_INTEL_arbitrary_precision_fixed_point',
    'SPV_INTEL_arbitrary_precision_floating_point',
    'SPV_INTEL_variable_length_array',
    'SPV_INTEL_fp_fast_math_mode',
    'SPV_INTEL_long_constant_composite',
    'SPV_INTEL_arithmetic_fence',
    'SPV_INTEL_global_variable_decorations',
    'SPV_INTEL_fpga_buffer_location',
    'SPV_INTEL_fpga_invocation_pipelining_attributes',
    'SPV_INTEL_token_type',
    'SPV_INTEL_bfloat16_conversion',
    'SPV_INTEL_joint_matrix',
    'SPV_INTEL_hw_thread_queries',
    'SPV_KHR_uniform_group_instructions',
    'SPV_INTEL_optnone',
  ]
    .map((ext) => `+${ext}`)
    .join(',')}`,
];

/** The `spirv-val` environment that matches `-spirv-max-version=1.4` (see the package README). */
export const SPIRV_VAL_TARGET_ENV = 'spv1.4';

/** The Debian package of LLVM N's translator, and of LLVM N's tools. */
const translatorPackage = (major: number): string => `llvm-spirv-${major}`;
const llvmPackage = (major: number): string => `llvm-${major}`;

/** Where the translator and its LLVM's llvm-as were found. */
export interface LlvmSpirvTools {
  readonly translator: string;
  /** LLVM major version the translator is built against (its `--version`). */
  readonly llvmMajor: number;
  readonly assembler: string;
}

/** Translator names looked for, newest first; Debian ships `llvm-spirv-<N>` and `/usr/lib/llvm-<N>/bin/llvm-spirv`. */
const TRANSLATOR_NAMES = ['llvm-spirv', 'llvm-spirv-19', 'llvm-spirv-18', 'llvm-spirv-17', 'llvm-spirv-16', 'llvm-spirv-15'];
const DEBIAN_LLVM_DIRS = [19, 18, 17, 16, 15].map((n) => `/usr/lib/llvm-${n}/bin`);

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

const versionCache = new Map<string, number>();

/** The LLVM major version of a translator, from `llvm-spirv --version` ("LLVM version 15.0.6"). */
function translatorLlvmMajor(tool: string): number {
  const cached = versionCache.get(tool);
  if (cached !== undefined) return cached;
  let output: string;
  try {
    output = execFileSync(tool, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new AotToolError(`cannot run '${tool} --version': ${(error as Error).message.split('\n')[0]}`);
  }
  const match = /LLVM version (\d+)\./.exec(output);
  if (match === null) throw new AotToolError(`'${tool} --version' does not say which LLVM it was built with:\n${output.trim().split('\n').slice(0, 3).join('\n')}`);
  const major = Number(match[1]);
  versionCache.set(tool, major);
  return major;
}

/**
 * Finds llvm-spirv (as `llvm-spirv` or `llvm-spirv-<N>` in the search directories, then in Debian's
 * `/usr/lib/llvm-<N>/bin`) and the `llvm-as` of its LLVM version. Throws an AotToolError naming the
 * Debian package when one is missing.
 */
export function findLlvmSpirvTools(search: ToolSearch & { readonly tool?: string; readonly assembler?: string } = {}): LlvmSpirvTools {
  const dirs = search.dirs ?? [...defaultToolDirs(), ...DEBIAN_LLVM_DIRS];
  const translator = search.tool ?? findTool(TRANSLATOR_NAMES, { dirs });
  if (translator === undefined) {
    throw new AotToolError(
      `SPIR-V images need llvm-spirv, the Khronos LLVM/SPIR-V translator, which is not installed (looked for ${TRANSLATOR_NAMES.join(', ')} in ${dirs.length === 0 ? 'no directories' : dirs.join(', ')}); on Debian: apt-get install ${translatorPackage(15)} ${llvmPackage(15)}; or keep LLVM IR (compile -fsycl-device-obj=llvmir, wrap -aot=ir)`,
    );
  }
  const llvmMajor = translatorLlvmMajor(translator);
  const assembler =
    search.assembler ??
    [...(search.dirs === undefined ? [join(`/usr/lib/llvm-${llvmMajor}/bin`, 'llvm-as')] : []), ...dirs.map((dir) => join(dir, `llvm-as-${llvmMajor}`))].find(isFile);
  if (assembler === undefined) {
    throw new AotToolError(
      `llvm-spirv (${translator}) reads LLVM ${llvmMajor} bitcode, so text IR is assembled with LLVM ${llvmMajor}'s llvm-as, which is not installed (looked for ${search.dirs === undefined ? `/usr/lib/llvm-${llvmMajor}/bin/llvm-as and ` : ''}llvm-as-${llvmMajor} in ${dirs.length === 0 ? 'no directories' : dirs.join(', ')}); on Debian: apt-get install ${llvmPackage(llvmMajor)}`,
    );
  }
  return { translator, llvmMajor, assembler };
}

/** Whether llvm-spirv and its llvm-as are installed (what `findLlvmSpirvTools` would find). */
export function llvmSpirvAvailable(search: ToolSearch = {}): boolean {
  try {
    findLlvmSpirvTools(search);
    return true;
  } catch (error) {
    if (error instanceof AotToolError) return false;
    throw error;
  }
}

/** A module printed as the translator's LLVM reads it; `llvmMajor` is that version. */
export type PrintForLlvm = (module: Module, llvmMajor: number, request: AotRequest) => string;

export interface SpirvTranslatorOptions extends ToolSearch {
  /** Path of llvm-spirv (default: searched, see `findLlvmSpirvTools`). */
  readonly tool?: string;
  /** Path of the llvm-as matching the translator's LLVM (default: searched). */
  readonly assembler?: string;
  /** Translator options (default `DPCPP_LLVM_SPIRV_OPTIONS`). */
  readonly options?: readonly string[];
  /** Appended to `options`, e.g. `-spirv-ext=+SPV_INTEL_fpga_reg`. */
  readonly args?: readonly string[];
  /** Prints the module for the translator's LLVM (default: `printForLlvmVersion`). */
  readonly printForLlvm?: PrintForLlvm;
  /**
   * Validate each SPIR-V image with `spirv-val --target-env spv1.4` and fail on an invalid one
   * (default: on when the environment variable `SYCLKIT_SPIRV_VAL` is `1`). Needs spirv-tools.
   */
  readonly validate?: boolean;
  /** The device compiler that gets the SPIR-V (e.g. `ocloc` for an Intel GPU); default none: the SPIR-V is the image. */
  readonly native?: AotCompiler;
}

/** Whether `printForLlvmVersion` can print for LLVM `llvmMajor` (15 and later). */
export function canPrintForLlvm(llvmMajor: number): boolean {
  return llvmMajor >= 15;
}

/**
 * Prints a module for an LLVM version. LLVM 16 and later read syclkit's IR as it is. For LLVM 15
 * (Debian 12's `llvm-spirv-15`) it is `@syclkit/ir`'s LLVM 15 form with typed pointers: that
 * translator crashes or writes invalid SPIR-V on opaque-pointer IR (a function storing a pointer
 * argument called with two different kernel arguments, as every accessor's `__init` is; `printf`
 * formats), and its LLVM 15 `llvm-as` reads typed text as typed. What LLVM 15 cannot express
 * (target extension types) is an AotToolError naming it.
 */
export function printForLlvmVersion(module: Module, llvmMajor: number, request: AotRequest): string {
  if (llvmMajor >= 16) return printModule(module);
  if (llvmMajor === 15) {
    try {
      return printModule(module, { llvmVersion: 15, pointers: 'typed' });
    } catch (error) {
      if (error instanceof IrError) throw new AotToolError(`llvm-spirv reads LLVM 15 IR, which cannot express this image: ${error.message}; keep LLVM IR for it (compile -fsycl-device-obj=llvmir, wrap -aot=ir)`, request.inputPath);
      throw error;
    }
  }
  throw new AotToolError(
    `llvm-spirv reads LLVM ${llvmMajor} IR, and syclkit prints IR for LLVM 15 and later only; install a translator built with LLVM 15 or later (Debian: llvm-spirv-15), or keep LLVM IR (compile -fsycl-device-obj=llvmir, wrap -aot=ir)`,
    request.inputPath,
  );
}

/** Kernel metadata LLVM 15's translator reads as three sizes (it asserts on fewer). */
const SIZE_TRIPLES = ['reqd_work_group_size', 'work_group_size_hint', 'max_work_group_size'];

/**
 * Makes a module what the translator takes. `!reqd_work_group_size`, `!work_group_size_hint` and
 * `!max_work_group_size` with one or two sizes (clang writes as many as the kernel's dimensions)
 * get the missing sizes as 1, which is what they mean and what later translators do themselves;
 * LLVM 15's reads three operands regardless and fails an assertion on fewer.
 */
export function prepareForLlvmSpirv(module: Module): void {
  const md = module.context.md;
  const kinds = SIZE_TRIPLES.map((name) => md.kinds.lookup(name)).filter((kind): kind is number => kind !== undefined);
  if (kinds.length === 0) return;
  const padded = new Map<MDNode, MDNode>();
  for (const fn of module.functions) {
    fn.attachments.forEach((attachment, index) => {
      if (!kinds.includes(attachment.kind) || attachment.node.mk !== 'tuple') return;
      const ops = attachment.node.operands;
      if (ops.length === 0 || ops.length >= 3) return;
      const first = ops[0];
      if (first == null || first.mk !== 'value' || first.value.type.kind !== 'integer') return;
      let node = padded.get(attachment.node);
      if (node === undefined) {
        const one = md.value(module.context.constInt(first.value.type as IntegerType, 1n));
        node = md.tuple([...ops, ...new Array<typeof one>(3 - ops.length).fill(one)]);
        padded.set(attachment.node, node);
      }
      fn.attachments[index] = { kind: attachment.kind, node };
    });
  }
}

interface ProcessResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Runs `first | second` with `input` on the first one's stdin; collects the second's stdout. */
function pipeline(first: { tool: string; args: readonly string[] }, second: { tool: string; args: readonly string[] }, input: Uint8Array): Promise<{ first: ProcessResult; second: ProcessResult }> {
  return new Promise((resolve, reject) => {
    const a = spawn(first.tool, first.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const b = spawn(second.tool, second.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const errA: Buffer[] = [];
    const errB: Buffer[] = [];
    let pending = 2;
    let resultA: ProcessResult | undefined;
    let resultB: ProcessResult | undefined;
    const done = (): void => {
      if (--pending === 0) resolve({ first: resultA!, second: resultB! });
    };
    a.on('error', reject);
    b.on('error', reject);
    a.stdout.pipe(b.stdin);
    // A translator that exits early closes its stdin; the assembler then sees EPIPE, which its exit status reports.
    b.stdin.on('error', () => {});
    a.stdin.on('error', () => {});
    a.stderr.on('data', (chunk: Buffer) => errA.push(chunk));
    b.stderr.on('data', (chunk: Buffer) => errB.push(chunk));
    b.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    a.on('close', (status, signal) => {
      resultA = { stdout: Buffer.alloc(0), stderr: Buffer.concat(errA).toString('utf8'), status, signal };
      done();
    });
    b.on('close', (status, signal) => {
      resultB = { stdout: Buffer.concat(out), stderr: Buffer.concat(errB).toString('utf8'), status, signal };
      done();
    });
    a.stdin.end(input);
  });
}

function runTool(tool: string, args: readonly string[], input: Uint8Array): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('close', (status, signal) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), status, signal }));
    child.stdin.end(input);
  });
}

function failure(what: string, result: ProcessResult, file: string): AotToolError {
  const status = result.signal !== null ? `killed by ${result.signal}` : `exit status ${result.status}`;
  const detail = result.stderr.trim().split('\n').slice(0, 6).join('\n');
  return new AotToolError(`${what} failed (${status})${detail === '' ? '' : `:\n${detail}`}`, file);
}

const OPENCL_DEBUG_INFO = 'OpenCL.DebugInfo.100';
const DEBUG_INFO_NONE = 0;
const DEBUG_TYPE_ARRAY = 5;
const DEBUG_TYPE_FUNCTION = 8;
const DEBUG_TYPE_COMPOSITE = 10;
const DEBUG_TYPE_COMPOSITE_LINKAGE_NAME = 10; // operand index: result type, id, set, instruction, name, tag, source, line, column, parent
const OP_STRING = 7;
const DEBUG_FUNCTION = 20;
const DEBUG_SOURCE = 35;
const OP_EXT_INST_IMPORT = 11;
const OP_EXT_INST = 12;

/**
 * Corrects five known defects in the OpenCL.DebugInfo.100 instructions LLVM 15's translator
 * writes, which spirv-val rejects; each writes `DebugInfoNone` where the instruction set wants
 * an operand left out or another id (fixed in later translators):
 * - `DebugSource` with a `Text` of DebugInfoNone: the optional `Text` is dropped;
 * - `DebugTypeFunction` with a `Return Type` of DebugInfoNone (a void function): OpTypeVoid;
 * - `DebugFunction` with a `Declaration` of DebugInfoNone: the optional `Declaration` is dropped;
 * - `DebugTypeComposite` with a `Linkage Name` of DebugInfoNone (a struct without an ODR
 *   identifier): an empty OpString, the module's own or one added before its first OpString;
 * - `DebugTypeArray` with N component counts followed by N DebugInfoNone (the lower bounds of
 *   subranges that have none, which OpenCL.DebugInfo.100 has no operand for): those are dropped.
 * Anything else is copied word for word; a module without these is returned unchanged.
 */
export function repairTranslatorDebugInfo(bytes: Uint8Array): Uint8Array {
  const { words, bigEndian } = spirvWords(bytes);
  let set: number | undefined;
  let emptyString: number | undefined;
  const none = new Set<number>();
  for (const inst of spirvInstructions(words)) {
    if (inst.opcode === OP_EXT_INST_IMPORT && inst.operands.length >= 2) {
      const name = new TextDecoder().decode(new Uint8Array(inst.operands.buffer, inst.operands.byteOffset + 4, (inst.operands.length - 1) * 4)).replace(/\0.*$/s, '');
      if (name === OPENCL_DEBUG_INFO && !bigEndian) set = inst.operands[0];
    } else if (inst.opcode === OP_STRING && inst.operands.length === 2 && inst.operands[1] === 0) {
      emptyString ??= inst.operands[0];
    } else if (inst.opcode === OP_EXT_INST && set !== undefined && inst.operands[2] === set && inst.operands[3] === DEBUG_INFO_NONE) {
      none.add(inst.operands[1]!);
    }
  }
  if (set === undefined || none.size === 0) return bytes;
  const header = Array.from(words.subarray(0, 5));
  const out: number[] = [];
  let changed = false;
  let addedString: number | undefined;
  let firstString = -1;
  for (const inst of spirvInstructions(words)) {
    let operands: number[] = Array.from(inst.operands);
    if (inst.opcode === OP_STRING && firstString < 0) firstString = out.length;
    if (inst.opcode === OP_EXT_INST && operands[2] === set) {
      const args = operands.length - 4;
      const last = operands[operands.length - 1]!;
      if (operands[3] === DEBUG_SOURCE && args === 2 && none.has(last)) operands = operands.slice(0, -1);
      else if (operands[3] === DEBUG_FUNCTION && args === 11 && none.has(last)) operands = operands.slice(0, -1);
      else if (operands[3] === DEBUG_TYPE_FUNCTION && args >= 2 && none.has(operands[5]!)) operands[5] = operands[0]!; // the result type is OpTypeVoid
      else if (operands[3] === DEBUG_TYPE_ARRAY && args >= 3 && args % 2 === 1) {
        const counts = (args - 1) / 2;
        const bounds = operands.slice(5 + counts);
        if (bounds.every((id) => none.has(id)) && !operands.slice(5, 5 + counts).some((id) => none.has(id))) operands = operands.slice(0, 5 + counts);
      }
      else if (operands[3] === DEBUG_TYPE_COMPOSITE && operands.length > DEBUG_TYPE_COMPOSITE_LINKAGE_NAME && none.has(operands[DEBUG_TYPE_COMPOSITE_LINKAGE_NAME]!) && (emptyString !== undefined || firstString >= 0)) {
        if (emptyString === undefined) {
          addedString = header[3]!; // the module's id bound: the next free id
          header[3] = addedString + 1;
          emptyString = addedString;
        }
        operands[DEBUG_TYPE_COMPOSITE_LINKAGE_NAME] = emptyString;
      }
    }
    if (operands.length !== inst.operands.length || operands.some((w, i) => w !== inst.operands[i])) changed = true;
    out.push((((operands.length + 1) << 16) | inst.opcode) >>> 0, ...operands);
  }
  if (!changed) return bytes;
  // OpString "" (one zero word for the empty literal) where the debug strings begin
  if (addedString !== undefined) out.splice(firstString, 0, ((3 << 16) | OP_STRING) >>> 0, addedString, 0);
  const all = [...header, ...out];
  const result = new Uint8Array(all.length * 4);
  const view = new DataView(result.buffer);
  all.forEach((word, i) => view.setUint32(4 * i, word, true));
  return result;
}

/** Runs spirv-val on one image; an invalid image is an AotToolError with the validator's message. */
export async function validateSpirv(image: Uint8Array, file: string, search: ToolSearch & { readonly tool?: string } = {}): Promise<void> {
  const tool = search.tool ?? findTool(['spirv-val'], { dirs: [...(search.dirs ?? defaultToolDirs()), '/usr/bin'] });
  if (tool === undefined) throw new AotToolError('validating SPIR-V needs spirv-val, which is not installed; on Debian: apt-get install spirv-tools', file);
  const result = await runTool(tool, ['--target-env', SPIRV_VAL_TARGET_ENV, '-'], image);
  if (result.status !== 0) throw failure(`spirv-val --target-env ${SPIRV_VAL_TARGET_ENV} on the SPIR-V of ${file}`, { ...result, stderr: result.stderr + result.stdout.toString('utf8') }, file);
}

const latin1 = new TextDecoder('latin1');

/**
 * The llvm-spirv AOT backend (see the module comment). Tools are looked up when it is created, so
 * a missing one is reported before any work.
 */
export function llvmSpirvCompiler(options: SpirvTranslatorOptions = {}): AotCompiler {
  const tools = findLlvmSpirvTools(options);
  const translatorArgs = [...(options.options ?? DPCPP_LLVM_SPIRV_OPTIONS), ...(options.args ?? [])];
  const printFor = options.printForLlvm ?? printForLlvmVersion;
  const validate = options.validate ?? process.env['SYCLKIT_SPIRV_VAL'] === '1';
  return {
    name: 'llvm-spirv',
    async compile(request: AotRequest): Promise<AotResult> {
      const file = request.inputPath;
      let spirv: Uint8Array;
      if (detectImageFormat(request.input) === ImageFormat.LLVMIR_BITCODE) {
        // Bitcode goes to the translator as it is: it must be of the translator's LLVM or older.
        const result = await runTool(tools.translator, [...translatorArgs, '-', '-o', '-'], request.input);
        if (result.status !== 0) throw failure(`llvm-spirv on ${file}`, result, file);
        spirv = result.stdout;
      } else {
        let module: Module;
        try {
          module = parseModule(latin1.decode(request.input), { filename: file, context: new Context() });
        } catch (error) {
          throw new AotToolError(`cannot read the device IR: ${error instanceof Error ? error.message : String(error)}`, file);
        }
        if (module.context.md.kinds.lookup('sycl_requirement_condition') !== undefined && module.functions.some((fn) => fn.attachments.some((a) => a.kind === module.context.md.kinds.lookup('sycl_requirement_condition')))) {
          throw new AotToolError(
            "the image has specialization-constant conditions (!sycl_requirement_condition, post-link's spec-constant design), which need SPV_INTEL_spec_conditional; llvm-spirv does not write it, so the conditions would be lost: keep LLVM IR for this image (-aot=ir)",
            file,
          );
        }
        prepareForLlvmSpirv(module);
        const ir = Buffer.from(printFor(module, tools.llvmMajor, request), 'latin1');
        const { first, second } = await pipeline({ tool: tools.assembler, args: ['-', '-o', '-'] }, { tool: tools.translator, args: [...translatorArgs, '-', '-o', '-'] }, ir);
        if (first.status !== 0) throw failure(`llvm-as (LLVM ${tools.llvmMajor}) on ${file}`, first, file);
        if (second.status !== 0) throw failure(`llvm-spirv on ${file}`, second, file);
        spirv = second.stdout;
      }
      try {
        readSpirvModule(spirv, { fileName: `${request.name}.spv` });
      } catch (error) {
        if (error instanceof SpirvFormatError) throw new AotToolError(`llvm-spirv on ${file} wrote no valid SPIR-V module: ${error.message}`, file);
        throw error;
      }
      const image = repairTranslatorDebugInfo(new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength));
      if (validate) await validateSpirv(image, file, options.dirs === undefined ? {} : { dirs: options.dirs });
      if (options.native === undefined) return { image, format: ImageFormat.SPIRV };
      return options.native.compile({ ...request, input: image });
    },
  };
}

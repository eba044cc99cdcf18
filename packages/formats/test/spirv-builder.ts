// Builds SPIR-V binaries for the reader's tests from a small description: capabilities,
// extensions, imports, the memory model, functions (with calls and linkage) and entry points
// (with execution modes), laid out in the order the specification's section 2.4 requires.
import { SpirvOp, encodeSpirvInstruction, spirvStringWords } from '../src/spirv.js';

export interface FunctionSpec {
  readonly name?: string;
  readonly linkage?: 'export' | 'import' | 'linkonce_odr';
  readonly defined: boolean;
  /** Indices of the functions it calls (only for defined functions). */
  readonly calls: readonly number[];
}

export interface EntryPointSpec {
  readonly model: number;
  /** Index of its function. */
  readonly fn: number;
  readonly name: string;
  readonly modes: readonly { readonly mode: number; readonly operands: readonly number[] }[];
}

export interface ModuleSpec {
  readonly minor?: number;
  readonly generator?: number;
  readonly bigEndian?: boolean;
  readonly capabilities: readonly number[];
  readonly extensions: readonly string[];
  readonly extInstImports: readonly string[];
  readonly addressing: number;
  readonly memory: number;
  readonly functions: readonly FunctionSpec[];
  readonly entryPoints: readonly EntryPointSpec[];
}

const VOID = 1;
const FN_TYPE = 2;
const FIRST_FUNCTION = 3;
const LINKAGE = { export: 0, import: 1, linkonce_odr: 2 } as const;

/** The id the builder gives function `index`. */
export function functionId(index: number): number {
  return FIRST_FUNCTION + index;
}

/** The module's words (host order). */
export function buildSpirvWords(spec: ModuleSpec): number[] {
  const importBase = FIRST_FUNCTION + spec.functions.length;
  let next = importBase + spec.extInstImports.length;
  const body: number[] = [];
  const emit = (opcode: number, operands: readonly number[]): void => {
    body.push(...encodeSpirvInstruction(opcode, operands));
  };
  for (const cap of spec.capabilities) emit(SpirvOp.Capability, [cap]);
  for (const ext of spec.extensions) emit(SpirvOp.Extension, spirvStringWords(ext));
  spec.extInstImports.forEach((name, i) => emit(SpirvOp.ExtInstImport, [importBase + i, ...spirvStringWords(name)]));
  emit(SpirvOp.MemoryModel, [spec.addressing, spec.memory]);
  for (const entry of spec.entryPoints) emit(SpirvOp.EntryPoint, [entry.model, functionId(entry.fn), ...spirvStringWords(entry.name)]);
  for (const entry of spec.entryPoints) for (const mode of entry.modes) emit(SpirvOp.ExecutionMode, [functionId(entry.fn), mode.mode, ...mode.operands]);
  spec.functions.forEach((fn, i) => {
    if (fn.name !== undefined) emit(SpirvOp.Name, [functionId(i), ...spirvStringWords(fn.name)]);
  });
  spec.functions.forEach((fn, i) => {
    if (fn.linkage !== undefined) emit(SpirvOp.Decorate, [functionId(i), 41, ...spirvStringWords(fn.name ?? `f${i}`), LINKAGE[fn.linkage]]);
  });
  emit(SpirvOp.TypeVoid, [VOID]);
  emit(0x21, [FN_TYPE, VOID]); // OpTypeFunction %void
  spec.functions.forEach((fn, i) => {
    emit(SpirvOp.Function, [VOID, functionId(i), 0, FN_TYPE]);
    if (fn.defined) {
      emit(SpirvOp.Label, [next++]);
      for (const callee of fn.calls) emit(SpirvOp.FunctionCall, [VOID, next++, functionId(callee)]);
      emit(253, []); // OpReturn
    }
    emit(SpirvOp.FunctionEnd, []);
  });
  return [0x07230203, (1 << 16) | ((spec.minor ?? 4) << 8), ((spec.generator ?? 6) << 16) | 14, next, 0, ...body];
}

/** The module's bytes, little-endian unless `bigEndian`. */
export function buildSpirv(spec: ModuleSpec): Uint8Array {
  return wordsToBytes(buildSpirvWords(spec), spec.bigEndian === true);
}

export function wordsToBytes(words: readonly number[], bigEndian = false): Uint8Array {
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setUint32(4 * i, word >>> 0, !bigEndian));
  return bytes;
}

/** A kernel module as llvm-spirv writes one: Kernel, Addresses, Linkage, Physical64 OpenCL. */
export function kernelModule(overrides: Partial<ModuleSpec> = {}): ModuleSpec {
  return {
    capabilities: [4, 5, 6],
    extensions: [],
    extInstImports: ['OpenCL.std'],
    addressing: 2,
    memory: 2,
    functions: [
      { name: '_ZTS1K', linkage: 'export', defined: true, calls: [1] },
      { name: 'helper', defined: true, calls: [] },
    ],
    entryPoints: [{ model: 6, fn: 0, name: '_ZTS1K', modes: [] }],
    ...overrides,
  };
}

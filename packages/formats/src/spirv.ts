/**
 * A reader for SPIR-V binary modules (the SPIR-V specification, section 2.3 "Physical Layout"):
 * the header, the capabilities, extensions and extended-instruction imports, the memory model,
 * entry points with their execution modes, debug names, linkage decorations and, per function,
 * whether it has a body and which functions it calls or takes the address of. That is what the
 * DPC++ runtime's consumers need to know about an image (which capabilities a driver must
 * support, which kernels it defines); the reader does not validate the module as `spirv-val`
 * does, but refuses a malformed binary with a SpirvFormatError naming the word offset.
 */
import { FormatError } from './errors.js';
import {
  SPIRV_ADDRESSING_MODELS,
  SPIRV_CAPABILITIES,
  SPIRV_EXECUTION_MODELS,
  SPIRV_EXECUTION_MODES,
  SPIRV_GENERATORS,
  SPIRV_MEMORY_MODELS,
  spirvEnumName,
} from './spirv-names.js';

/** The first word of every SPIR-V module. */
export const SPIRV_MAGIC = 0x07230203;

/** Opcodes the reader decodes (SPIR-V specification, section 3.52). */
export const SpirvOp = {
  Nop: 0,
  SourceContinued: 2,
  Source: 3,
  SourceExtension: 4,
  Name: 5,
  MemberName: 6,
  String: 7,
  Line: 8,
  Extension: 10,
  ExtInstImport: 11,
  ExtInst: 12,
  MemoryModel: 14,
  EntryPoint: 15,
  ExecutionMode: 16,
  Capability: 17,
  TypeVoid: 19,
  TypeInt: 21,
  TypeFloat: 22,
  Function: 54,
  FunctionParameter: 55,
  FunctionEnd: 56,
  FunctionCall: 57,
  Decorate: 71,
  Label: 248,
  ModuleProcessed: 330,
  ExecutionModeId: 331,
  ConstantFunctionPointerINTEL: 5600,
  FunctionPointerCallINTEL: 5601,
} as const;

const DECORATION_LINKAGE_ATTRIBUTES = 41;
const LINKAGE_TYPES = ['export', 'import', 'linkonce_odr'] as const;

/** A malformed SPIR-V binary. `wordOffset` is the 32-bit word where the problem is (0 = the magic). */
export class SpirvFormatError extends FormatError {
  override readonly name: string = 'SpirvFormatError';

  constructor(
    reason: string,
    readonly wordOffset: number,
    readonly fileName?: string,
  ) {
    super(reason);
    this.message = `${fileName === undefined ? '' : `${fileName}: `}word ${wordOffset}: ${reason}`;
  }

  override render(): string {
    return `${this.fileName === undefined ? '' : `${this.fileName}: `}word ${this.wordOffset}: error: ${this.reason}`;
  }
}

/** An enumerant: its value and its specification name (the value in decimal when unknown). */
export interface SpirvEnumerant {
  readonly value: number;
  readonly name: string;
}

export interface SpirvExecutionMode {
  readonly mode: SpirvEnumerant;
  /** Literal operands (`OpExecutionMode`) or ids (`OpExecutionModeId`). */
  readonly operands: readonly number[];
  readonly byId: boolean;
}

export interface SpirvEntryPoint {
  readonly executionModel: SpirvEnumerant;
  /** Result id of the entry point's OpFunction. */
  readonly id: number;
  readonly name: string;
  /** Interface ids (global variables the entry point uses, SPIR-V 1.4 and later list all). */
  readonly interface: readonly number[];
  readonly executionModes: readonly SpirvExecutionMode[];
}

export type SpirvLinkage = (typeof LINKAGE_TYPES)[number];

export interface SpirvFunction {
  readonly id: number;
  /** The linkage name, else the OpName, else undefined. */
  readonly name: string | undefined;
  /** From a LinkageAttributes decoration; undefined for a function visible only in its module. */
  readonly linkage: SpirvLinkage | undefined;
  /** False for a declaration (no body: no OpLabel). */
  readonly defined: boolean;
  /** Functions it calls (OpFunctionCall), ids in first-call order. */
  readonly calls: readonly number[];
  /** Functions whose address it uses (SPV_INTEL_function_pointers constants), ids. */
  readonly addressTaken: readonly number[];
  /** Word offset of its OpFunction. */
  readonly offset: number;
}

export interface SpirvModule {
  readonly version: { readonly major: number; readonly minor: number };
  readonly generator: { readonly tool: number; readonly name: string | undefined; readonly version: number };
  readonly bound: number;
  readonly bigEndian: boolean;
  readonly capabilities: readonly SpirvEnumerant[];
  readonly extensions: readonly string[];
  readonly extInstImports: readonly { readonly id: number; readonly name: string }[];
  readonly addressingModel: SpirvEnumerant;
  readonly memoryModel: SpirvEnumerant;
  readonly entryPoints: readonly SpirvEntryPoint[];
  /** OpName, by target id. */
  readonly names: ReadonlyMap<number, string>;
  /** Functions in module order. */
  readonly functions: readonly SpirvFunction[];
  /** Words in the module (header included). */
  readonly wordCount: number;
}

export interface SpirvReadOptions {
  /** For messages. */
  readonly fileName?: string;
}

/** One instruction: its opcode, where it starts (word offset) and its operand words. */
export interface SpirvInstruction {
  readonly opcode: number;
  readonly offset: number;
  readonly operands: Uint32Array;
}

/** The words of a module, in host order, and whether the file was big-endian. */
export function spirvWords(bytes: Uint8Array, options: SpirvReadOptions = {}): { words: Uint32Array; bigEndian: boolean } {
  const fail = (reason: string, offset: number): never => {
    throw new SpirvFormatError(reason, offset, options.fileName);
  };
  if (bytes.length % 4 !== 0) fail(`the module is ${bytes.length} bytes, not a whole number of 32-bit words`, Math.floor(bytes.length / 4));
  if (bytes.length < 20) fail(`the module is ${bytes.length} bytes, shorter than the 5-word header`, Math.floor(bytes.length / 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let bigEndian: boolean;
  if (view.getUint32(0, true) === SPIRV_MAGIC) bigEndian = false;
  else if (view.getUint32(0, false) === SPIRV_MAGIC) bigEndian = true;
  else return fail(`not a SPIR-V module: the magic number is 0x${view.getUint32(0, true).toString(16).padStart(8, '0')}, not 0x07230203`, 0);
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(4 * i, !bigEndian);
  return { words, bigEndian };
}

/**
 * The instructions after the header. Throws a SpirvFormatError for a word count of 0 or an
 * instruction that runs past the end of the module.
 */
export function* spirvInstructions(words: Uint32Array, options: SpirvReadOptions = {}): Generator<SpirvInstruction, void, undefined> {
  let offset = 5;
  while (offset < words.length) {
    const first = words[offset]!;
    const count = first >>> 16;
    const opcode = first & 0xffff;
    if (count === 0) throw new SpirvFormatError(`instruction (opcode ${opcode}) has a word count of 0`, offset, options.fileName);
    if (offset + count > words.length) {
      throw new SpirvFormatError(`instruction (opcode ${opcode}) of ${count} words runs past the end of the module (${words.length} words)`, offset, options.fileName);
    }
    yield { opcode, offset, operands: words.subarray(offset + 1, offset + count) };
    offset += count;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A literal string operand starting at `start`: its text and the number of words it takes. */
function literalString(operands: Uint32Array, start: number, offset: number, fileName: string | undefined): { text: string; words: number } {
  const bytes: number[] = [];
  for (let i = start; i < operands.length; i++) {
    const word = operands[i]!;
    for (let b = 0; b < 4; b++) {
      const byte = (word >>> (8 * b)) & 0xff;
      if (byte === 0) {
        try {
          return { text: utf8.decode(Uint8Array.from(bytes)), words: i - start + 1 };
        } catch {
          throw new SpirvFormatError('a string operand is not valid UTF-8', offset + 1 + start, fileName);
        }
      }
      bytes.push(byte);
    }
  }
  throw new SpirvFormatError('a string operand has no terminating NUL within its instruction', offset + 1 + start, fileName);
}

/** The words of a literal string operand (UTF-8, NUL-terminated, zero-padded to a word). */
export function spirvStringWords(text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  const words = new Array<number>(Math.floor(bytes.length / 4) + 1).fill(0);
  bytes.forEach((byte, i) => {
    words[i >> 2] = (words[i >> 2]! | (byte << (8 * (i & 3)))) >>> 0;
  });
  return words;
}

/** One instruction's words: the first word (word count and opcode), then the operands. */
export function encodeSpirvInstruction(opcode: number, operands: readonly number[]): number[] {
  return [(((operands.length + 1) << 16) | opcode) >>> 0, ...operands];
}

function enumerant(table: Readonly<Record<number, string>>, value: number): SpirvEnumerant {
  return { value, name: spirvEnumName(table, value) };
}

interface FunctionBuilder {
  id: number;
  offset: number;
  defined: boolean;
  calls: number[];
  addressTaken: number[];
}

/** Reads a SPIR-V module; see the module comment. */
export function readSpirvModule(bytes: Uint8Array, options: SpirvReadOptions = {}): SpirvModule {
  const fileName = options.fileName;
  const fail = (reason: string, offset: number): never => {
    throw new SpirvFormatError(reason, offset, fileName);
  };
  const { words, bigEndian } = spirvWords(bytes, options);
  const versionWord = words[1]!;
  const major = (versionWord >>> 16) & 0xff;
  const minor = (versionWord >>> 8) & 0xff;
  if ((versionWord & 0xff0000ff) !== 0 || major !== 1 || minor > 6) {
    fail(`version word 0x${versionWord.toString(16).padStart(8, '0')} is not a SPIR-V version (1.0 to 1.6)`, 1);
  }
  const bound = words[3]!;
  if (bound === 0) fail('the id bound is 0', 3);
  if (words[4]! !== 0) fail(`the reserved schema word is ${words[4]!}, not 0`, 4);
  const checkId = (id: number, offset: number, what: string): number => (id === 0 || id >= bound ? fail(`${what} %${id} is outside the id bound ${bound}`, offset) : id);
  const need = (inst: SpirvInstruction, count: number, what: string): void => {
    if (inst.operands.length < count) fail(`${what} needs at least ${count} operand word${count === 1 ? '' : 's'}, has ${inst.operands.length}`, inst.offset);
  };

  const capabilities: SpirvEnumerant[] = [];
  const extensions: string[] = [];
  const extInstImports: { id: number; name: string }[] = [];
  let memory: { addressing: SpirvEnumerant; memory: SpirvEnumerant } | undefined;
  const entries: { executionModel: SpirvEnumerant; id: number; name: string; interface: number[]; offset: number }[] = [];
  const modes: { target: number; mode: SpirvExecutionMode; offset: number }[] = [];
  const names = new Map<number, string>();
  const linkage = new Map<number, { name: string; type: SpirvLinkage }>();
  const functionPointers = new Map<number, number>();
  const functions: FunctionBuilder[] = [];
  const callSites: { callee: number; offset: number }[] = [];
  let current: FunctionBuilder | undefined;

  for (const inst of spirvInstructions(words, options)) {
    const ops = inst.operands;
    switch (inst.opcode) {
      case SpirvOp.Capability:
        need(inst, 1, 'OpCapability');
        capabilities.push(enumerant(SPIRV_CAPABILITIES, ops[0]!));
        break;
      case SpirvOp.Extension:
        need(inst, 1, 'OpExtension');
        extensions.push(literalString(ops, 0, inst.offset, fileName).text);
        break;
      case SpirvOp.ExtInstImport:
        need(inst, 2, 'OpExtInstImport');
        extInstImports.push({ id: checkId(ops[0]!, inst.offset, 'OpExtInstImport result'), name: literalString(ops, 1, inst.offset, fileName).text });
        break;
      case SpirvOp.MemoryModel:
        need(inst, 2, 'OpMemoryModel');
        if (memory !== undefined) fail('a second OpMemoryModel (a module has exactly one)', inst.offset);
        memory = { addressing: enumerant(SPIRV_ADDRESSING_MODELS, ops[0]!), memory: enumerant(SPIRV_MEMORY_MODELS, ops[1]!) };
        break;
      case SpirvOp.EntryPoint: {
        need(inst, 3, 'OpEntryPoint');
        const name = literalString(ops, 2, inst.offset, fileName);
        const iface = [...ops.subarray(2 + name.words)];
        iface.forEach((id) => checkId(id, inst.offset, 'OpEntryPoint interface'));
        entries.push({ executionModel: enumerant(SPIRV_EXECUTION_MODELS, ops[0]!), id: checkId(ops[1]!, inst.offset, 'OpEntryPoint function'), name: name.text, interface: iface, offset: inst.offset });
        break;
      }
      case SpirvOp.ExecutionMode:
      case SpirvOp.ExecutionModeId: {
        const byId = inst.opcode === SpirvOp.ExecutionModeId;
        need(inst, 2, byId ? 'OpExecutionModeId' : 'OpExecutionMode');
        modes.push({ target: ops[0]!, mode: { mode: enumerant(SPIRV_EXECUTION_MODES, ops[1]!), operands: [...ops.subarray(2)], byId }, offset: inst.offset });
        break;
      }
      case SpirvOp.Name:
        need(inst, 2, 'OpName');
        names.set(checkId(ops[0]!, inst.offset, 'OpName target'), literalString(ops, 1, inst.offset, fileName).text);
        break;
      case SpirvOp.Decorate:
        need(inst, 2, 'OpDecorate');
        if (ops[1] === DECORATION_LINKAGE_ATTRIBUTES) {
          need(inst, 4, 'OpDecorate LinkageAttributes');
          const name = literalString(ops, 2, inst.offset, fileName);
          const typeWord = ops[2 + name.words];
          if (typeWord === undefined) fail('OpDecorate LinkageAttributes has no linkage type after its name', inst.offset);
          const type = LINKAGE_TYPES[typeWord!];
          if (type === undefined) fail(`OpDecorate LinkageAttributes has linkage type ${typeWord!}, not 0 (Export), 1 (Import) or 2 (LinkOnceODR)`, inst.offset);
          linkage.set(checkId(ops[0]!, inst.offset, 'OpDecorate target'), { name: name.text, type: type! });
        }
        break;
      case SpirvOp.ConstantFunctionPointerINTEL:
        need(inst, 3, 'OpConstantFunctionPointerINTEL');
        functionPointers.set(checkId(ops[1]!, inst.offset, 'OpConstantFunctionPointerINTEL result'), checkId(ops[2]!, inst.offset, 'OpConstantFunctionPointerINTEL function'));
        break;
      case SpirvOp.Function:
        need(inst, 4, 'OpFunction');
        if (current !== undefined) fail(`OpFunction inside function %${current.id}, which has no OpFunctionEnd yet`, inst.offset);
        current = { id: checkId(ops[1]!, inst.offset, 'OpFunction result'), offset: inst.offset, defined: false, calls: [], addressTaken: [] };
        functions.push(current);
        break;
      case SpirvOp.FunctionEnd:
        if (current === undefined) fail('OpFunctionEnd outside a function', inst.offset);
        current = undefined;
        break;
      case SpirvOp.Label:
        if (current === undefined) fail('OpLabel outside a function', inst.offset);
        current!.defined = true;
        break;
      case SpirvOp.FunctionCall:
        need(inst, 3, 'OpFunctionCall');
        if (current === undefined) fail('OpFunctionCall outside a function', inst.offset);
        if (!current!.calls.includes(ops[2]!)) current!.calls.push(ops[2]!);
        callSites.push({ callee: ops[2]!, offset: inst.offset });
        break;
      default:
        break;
    }
    // A function pointer constant may appear as any id operand; record the functions it names.
    if (current !== undefined && functionPointers.size > 0 && inst.opcode !== SpirvOp.Function) {
      for (const word of inst.operands) {
        const target = functionPointers.get(word);
        if (target !== undefined && !current.addressTaken.includes(target)) current.addressTaken.push(target);
      }
    }
  }
  if (current !== undefined) fail(`function %${current.id} has no OpFunctionEnd`, current.offset);
  if (memory === undefined) fail('the module has no OpMemoryModel', words.length);

  const functionIds = new Set(functions.map((fn) => fn.id));
  for (const site of callSites) {
    if (!functionIds.has(site.callee)) fail(`OpFunctionCall calls %${site.callee}, which is no OpFunction of the module`, site.offset);
  }
  const entryIds = new Set(entries.map((entry) => entry.id));
  for (const entry of entries) {
    if (!functionIds.has(entry.id)) fail(`OpEntryPoint '${entry.name}' names %${entry.id}, which is no OpFunction of the module`, entry.offset);
  }
  for (const mode of modes) {
    if (!entryIds.has(mode.target)) fail(`execution mode ${mode.mode.mode.name} for %${mode.target}, which is no entry point`, mode.offset);
  }
  return {
    version: { major, minor },
    generator: { tool: words[2]! >>> 16, name: SPIRV_GENERATORS[words[2]! >>> 16], version: words[2]! & 0xffff },
    bound,
    bigEndian,
    capabilities,
    extensions,
    extInstImports,
    addressingModel: memory!.addressing,
    memoryModel: memory!.memory,
    entryPoints: entries.map((entry) => ({
      executionModel: entry.executionModel,
      id: entry.id,
      name: entry.name,
      interface: entry.interface,
      executionModes: modes.filter((mode) => mode.target === entry.id).map((mode) => mode.mode),
    })),
    names,
    functions: functions.map((fn) => {
      const link = linkage.get(fn.id);
      return { id: fn.id, name: link?.name ?? names.get(fn.id), linkage: link?.type, defined: fn.defined, calls: fn.calls, addressTaken: fn.addressTaken, offset: fn.offset };
    }),
    wordCount: words.length,
  };
}

/** Whether bytes start with the SPIR-V magic number (either byte order). */
export function isSpirv(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const little = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
  const big = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  return little === SPIRV_MAGIC || big === SPIRV_MAGIC;
}

/**
 * Prints a module the way LLVM 16's `opt -S` does: the same section order, type discovery order,
 * `!N` numbering (depth-first, globals then named metadata then lazily per function), attribute
 * group numbering, attachment order (by metadata kind id), default spellings and escapes.
 * Typed pointers print as LLVM 14 does (`i32 addrspace(4)*`); the type finder then also walks
 * pointee types, as LLVM's does when pointers have them.
 */
import { AttributeList, AttributeSet, formatAllocKind, formatMemoryEffects, type Attribute } from '../model/attributes.js';
import { formatFP } from '../model/fp.js';
import {
  AggregateInst,
  AllocaInst,
  CallInst,
  CatchSwitchInst,
  CmpInst,
  FAST_MATH_MASK,
  Flag,
  GetElementPtrInst,
  LandingPadInst,
  MemoryInst,
  ShuffleVectorInst,
  gepIndexedType,
  type DebugRecord,
  type Instruction,
  type OperandBundle,
} from '../model/instructions.js';
import { printDINode } from './di-printer.js';
import { IrError } from '../errors.js';
import { TextValue, TypedFunctionState, typedFunctionType, typedIntrinsicName, typedPointerProblems } from './llvm15-typed.js';
import { assertWritableForLLVM15, attributeSetForLLVM15, DEBUG_RECORD_INTRINSICS, dwarfNameForLLVM15, flagsForLLVM15, llvm15Report } from './llvm15.js';
import { identifiedStructTypes, namedMetadataStructTypes, rootStructTypes, TypeFinder } from '../analysis/type-finder.js';
import type { Attachment, DIExpression, DINode, MDNode, Metadata, MetadataKinds } from '../model/metadata.js';
import { forEachDIOperand } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import type { FunctionType, StructType, Type } from '../model/types.js';
import {
  isConstant,
  isGlobalValue,
  predecessorEdges,
  type BasicBlock,
  type Comdat,
  type Constant,
  type GlobalAlias,
  type GlobalIFunc,
  type GlobalValue,
  type GlobalVariable,
  type IRFunction,
  type Value,
} from '../model/values.js';

/**
 * Prints `module` as textual IR: as LLVM 16's `opt -S` does, or for LLVM 15's reader with
 * `llvmVersion: 15` (see {@link PrintOptions}).
 */
export function printModule(module: Module, options: PrintOptions = {}): string {
  const chunks: Uint8Array[] = [];
  printModuleTo(module, (chunk) => chunks.push(chunk), options);
  return Buffer.concat(chunks).toString('latin1');
}

/**
 * Prints `module` as latin1 bytes (one byte per IR character), handing chunks of about 1 MiB to
 * `write`, so large modules can be written out without holding the text: LLVM 16 text goes out
 * once its type definitions (which come first) are known, after at most 2 MiB is held. Each
 * chunk is a fresh buffer the callee may keep.
 */
export function printModuleTo(module: Module, write: (chunk: Uint8Array) => void, options: PrintOptions = {}): void {
  const llvm15 = options.llvmVersion === 15;
  if (options.llvmVersion !== undefined && options.llvmVersion !== 15 && options.llvmVersion !== 16) {
    throw new IrError(`llvmVersion must be 15 or 16, not ${String(options.llvmVersion)}`);
  }
  const typed = options.pointers === 'typed' && !module.typedPointers;
  if (options.pointers !== undefined && options.pointers !== 'opaque' && options.pointers !== 'typed') throw new IrError(`pointers must be 'opaque' or 'typed', not ${String(options.pointers)}`);
  if (options.pointers === 'typed' && !llvm15) throw new IrError("pointers: 'typed' is for llvmVersion 15 (LLVM 16 reads opaque pointers)");
  if (llvm15) {
    // everything is checked before the first byte is written
    const report = llvm15Report(module);
    const problems = typed ? [...report.problems, ...typedPointerProblems(module)] : report.problems;
    assertWritableForLLVM15(module, { problems, losses: report.losses });
    if (options.onLossy) for (const loss of report.losses) options.onLossy(loss);
  }
  if (options.cache) {
    const version = llvm15 ? 15 : 16;
    if ((options.cache.version ??= version) !== version) throw new IrError('a PrintCache serves prints for one LLVM version; use another cache for the other');
  }
  const cache = typed ? undefined : options.cache;
  // LLVM 16 text finds types while it prints (see `deferred`); a module with a numbered struct is printed again the plain way
  let printer = new ModulePrinter(module, write, cache, llvm15, typed, !llvm15);
  printer.reuseOut = options.transientChunks === true;
  try {
    try {
      printer.print();
    } catch (e) {
      if (!(e instanceof NumberedStructs)) throw e;
      printer.releaseScratch();
      printer = new ModulePrinter(module, write, cache, llvm15, typed);
      printer.reuseOut = options.transientChunks === true;
      printer.print();
    }
  } finally {
    printer.releaseScratch();
  }
}

/**
 * @internal How much printed text a print that finds types while it prints holds at most (see
 * `ModulePrinter.deferred`); tests make it small. 2 MiB: split images fit whole, and a big
 * module's `opt -S` keeps its peak memory (16 MiB held added ~4 MB of peak RSS on a 10 MiB module
 * for no measurable time).
 */
export const printLimits = { hold: 2 << 20 };

/** Thrown by a print that finds types while it prints, when the module turns out to have a numbered struct. */
class NumberedStructs extends Error {}

/** A value to describe, with the function whose local numbering it is printed in. */
export interface ValueInFunction {
  readonly value: Value;
  readonly fn: IRFunction;
}

/** Options of {@link valueTexts}. */
export interface ValueTextsOptions {
  /** Print instructions' metadata attachments (`, !dbg !12`). (default: true) */
  readonly attachments?: boolean;
}

/**
 * The text of each value as the module's `opt -S` output has it: an instruction as its line(s)
 * (two-space indent, attribute groups and metadata numbered as in the whole module), any other
 * value as a typed operand in its function (`label %entry`, `i32 0`). Only the functions holding
 * the values are printed; the others are walked for their numbers, and only as far as a text
 * needs a number (an attribute group, a metadata node, a numbered struct type), so the cost follows those
 * functions, not the module.
 */
export function valueTexts(module: Module, values: readonly ValueInFunction[], options: ValueTextsOptions = {}): string[] {
  const printer = new ModulePrinter(module, () => {});
  return printer.captureTexts(values, options.attachments !== false);
}

export interface PrintOptions {
  /**
   * Reuse printed function bodies across prints of modules that share function objects (the
   * images of a device-code split). The caller promises the cached functions do not change while
   * the cache is in use, nor the names of the struct types they use. One cache serves one
   * `llvmVersion`.
   */
  readonly cache?: PrintCache;
  /**
   * The LLVM version whose reader the text is for: 16 (the default: exactly what LLVM 16's
   * `opt -S` prints) or 15, where what LLVM 16 added is spelled as LLVM 15 reads it
   * (`memory(...)` as `readnone`/`readonly`/`writeonly`/`argmemonly`/..., debug records as
   * `llvm.dbg.*` calls; see `src/llvm15.ts`). A module LLVM 15 cannot express (a target extension
   * type, `atomicrmw uinc_wrap`, assignment tracking, ...) throws an `IrError` naming each
   * construct and where it is, before anything is written.
   */
  readonly llvmVersion?: 15 | 16;
  /**
   * With `llvmVersion: 15`: told each thing LLVM 15 has no exact spelling for and that is left
   * out or weakened in a way that keeps the program's meaning (a flag or attribute that only
   * promises something, memory effects written with words that allow more).
   */
  readonly onLossy?: (note: string) => void;
  /**
   * With `llvmVersion: 15`: `'typed'` writes typed pointers, as tools of the typed-pointer era
   * read best (LLVM 15's SPIR-V translator crashes on some opaque-pointer IR): every `ptr` is
   * `i8*` (in its address space), and `bitcast`s give loads, stores, GEPs, calls and `byval`-like
   * arguments the pointer types they need (see `src/llvm15-typed.ts`). Default `'opaque'`.
   */
  readonly pointers?: 'opaque' | 'typed';
  /**
   * For {@link printModuleTo}: `write` is done with each chunk when it returns (writes it out
   * synchronously or copies it), so the printer may hand out the same buffer again. A large print
   * then reuses one buffer instead of leaving a dead 1 MiB buffer per chunk for the garbage
   * collector to free. Default false: each chunk is a fresh buffer the callee may keep.
   */
  readonly transientChunks?: boolean;
}

/** A function's printed text with holes for the numbers that differ between modules. */
interface FunctionTemplate {
  /** Text between holes; `segments.length === holes.length + 1`. */
  readonly segments: readonly Buffer[];
  /** Metadata nodes (printed `!N`) and call-site attribute sets (printed `#N`), in text order. */
  readonly holes: readonly (MDNode | AttributeSet)[];
}

/** A metadata node's body text between the `!N` of its operands (`segments.length === holes.length + 1`). */
interface MDTemplate {
  readonly segments: readonly string[];
  readonly holes: readonly MDNode[];
}

/**
 * The named metadata of a print (names and operands, in order), kept while later prints have the
 * same, with what follows from it alone.
 */
interface NamedMetadataRecord {
  readonly names: readonly string[];
  readonly operands: readonly (readonly MDNode[])[];
  /** The struct types the operands add to the type finder (`namedMetadataStructTypes`). */
  structs: readonly StructType[] | undefined;
  /** Nodes numbered before the operands in the print that numbered `added`; `!N` numbering of the operands from that state. */
  before: readonly MDNode[] | undefined;
  added: readonly MDNode[] | undefined;
}

/**
 * A greatest `!N` reference that is not known. A small integer (not Infinity): the printer's
 * field that holds it stays a small-integer field, and a double there would deoptimise the hot
 * writer methods once per process.
 */
const MAX_REF_UNKNOWN = 0x7fffffff;

/**
 * The metadata sections of one print: the `!name = !{...}` lines and each `!i = ...` line with
 * the greatest `!N` its body refers to. A later print whose first nodes are the same objects
 * writes those lines as they are: a line only holds its node's own text and the numbers of the
 * nodes it refers to, which are the same while those stay in the common first nodes.
 */
interface MetadataRun {
  /** `mdNodes` of that print. */
  readonly nodes: readonly MDNode[];
  /** The named metadata the `named` lines print; reused only while the cache's record is this one. */
  readonly named: NamedMetadataRecord | undefined;
  readonly namedText: Buffer | undefined;
  readonly namedMaxRef: number;
  /** The `!i = ...` lines; line i ends at `ends[i]`; `maxRefs[i]` is {@link MAX_REF_UNKNOWN} where it is not known. */
  readonly text: Buffer;
  readonly ends: readonly number[];
  readonly maxRefs: readonly number[];
}

/** Printed function bodies and type-discovery roots, reused across prints (see {@link PrintOptions}). */
export class PrintCache {
  /** @internal The LLVM version the cached texts were printed for. */
  version: 15 | 16 | undefined;
  /** @internal */ readonly templates = new WeakMap<IRFunction, FunctionTemplate>();
  /** @internal Functions printed once; a template is made on the second print. */
  readonly seen = new WeakSet<IRFunction>();
  /** @internal Identified struct types of a function or named metadata operand, in its own discovery order (see `identifiedStructTypes`). */
  readonly rootStructs = new WeakMap<IRFunction | MDNode, readonly StructType[]>();
  /** @internal Type-discovery roots met once; their lists are made on the second print. */
  readonly rootsSeen = new WeakSet<IRFunction | MDNode>();
  /** @internal Metadata node bodies with holes for the `!N` of their operands; made on the second print. */
  readonly mdTemplates = new WeakMap<MDNode, MDTemplate>();
  /** @internal Metadata nodes whose body was printed once. */
  readonly mdSeen = new WeakSet<MDNode>();
  /** @internal The nodes a node reaches, in the order `!N` numbering meets them from it alone; made on the second numbering. */
  readonly mdOrders = new WeakMap<MDNode, readonly MDNode[]>();
  /** @internal Metadata nodes numbered from once. */
  readonly mdOrderSeen = new WeakSet<MDNode>();
  /** @internal `%name = type { ... }` lines of named structs (the same in every module). */
  readonly structLines = new WeakMap<StructType, string>();
  /**
   * @internal Type texts of prints without numbered structs (a type's text then depends on nothing
   * but the type; types live as long as their context).
   */
  readonly typeTexts = new Map<Type, string>();
  /** @internal Attribute set texts: [in a parameter list, in an `attributes #N` group, a function's `; Function Attrs:` line]. */
  readonly attrTexts = new WeakMap<AttributeSet, [string | undefined, string | undefined, string | undefined]>();
  /** @internal The named metadata of the last print, while prints have the same. */
  named: NamedMetadataRecord | undefined;
  /** @internal Metadata sections of a recent print (see `MetadataRun`). */
  mdRun: MetadataRun | undefined;
  /** @internal Prints in a row that could reuse none of `mdRun`: it is made again after 1, 2, 4, ... of them. */
  mdRunMisses = 0;
  /**
   * @internal The buffer prints with this cache write into (one at a time; a print takes it and
   * gives it back), so that printing many small modules allocates only their right-sized texts.
   */
  scratch: Buffer | undefined;
}

/** Marks a hole while a template is recorded; raw control bytes never occur in printed IR. */
const HOLE_START = 1;
const HOLE_END = 2;

/** Whether a name prints without quotes: [-a-zA-Z._][-a-zA-Z0-9._]* (no '$', no leading digit). */
function isPlainName(name: string): boolean {
  const n = name.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 46 || c === 45) continue;
    if (c >= 48 && c <= 57 && i > 0) continue;
    return false;
  }
  return true;
}
const HEX = '0123456789ABCDEF';

/** LLVM's `printEscapedString`: `\\`, printable ASCII except `"`, else `\XX`. */
export function escapeString(s: string): string {
  let plain = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) {
      plain = false;
      break;
    }
  }
  if (plain) return s;
  const out = Buffer.allocUnsafe(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) & 0xff;
    if (c === 92) {
      out[n++] = 92;
      out[n++] = 92;
    } else if (c >= 0x20 && c <= 0x7e && c !== 34) out[n++] = c;
    else {
      out[n++] = 92;
      out[n++] = HEX_CODES[c >> 4]!;
      out[n++] = HEX_CODES[c & 15]!;
    }
  }
  return out.toString('latin1', 0, n);
}

const HEX_CODES = Buffer.from(HEX, 'latin1');

/** `PrintLLVMName`: the name with its prefix, quoted and escaped when needed. */
export function formatName(prefix: string, name: string): string {
  return isPlainName(name) ? prefix + name : `${prefix}"${escapeString(name)}"`;
}

/** `printMetadataIdentifier`: names of named metadata and attachment kinds. */
function metadataIdentifier(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    const ok = alpha || c === 45 || c === 36 || c === 46 || c === 95 || (i > 0 && c >= 48 && c <= 57);
    out += ok ? name[i] : '\\' + HEX[c >> 4]! + HEX[c & 15]!;
  }
  return out;
}

const LINKAGE_PREFIX: Record<string, string> = {
  external: '',
  private: 'private ',
  internal: 'internal ',
  available_externally: 'available_externally ',
  linkonce: 'linkonce ',
  weak: 'weak ',
  common: 'common ',
  appending: 'appending ',
  extern_weak: 'extern_weak ',
  linkonce_odr: 'linkonce_odr ',
  weak_odr: 'weak_odr ',
};

/**
 * A type as LLVM writes it in IR text: `i32`, `ptr addrspace(1)`, `[2 x <4 x half>]`,
 * `%"struct.with space"`, `{ i32, ptr }`, `target("spirv.Image", void, 1)`. Identified structs
 * without a name print as `%N` when `structNumber` knows them (the module printer's numbering),
 * else as `%<unnamed struct>`.
 */
export function formatType(
  t: Type,
  structNumber?: (struct: StructType) => number | undefined,
  sub: (t: Type) => string = (inner) => formatType(inner, structNumber),
): string {
  switch (t.kind) {
    case 'integer':
      return `i${t.bits}`;
    case 'float':
      return t.fp;
    case 'pointer':
      if (t.pointee !== undefined) return `${sub(t.pointee)}${t.addressSpace === 0 ? '' : ` addrspace(${t.addressSpace})`}*`;
      return t.addressSpace === 0 ? 'ptr' : `ptr addrspace(${t.addressSpace})`;
    case 'array':
      return `[${t.length} x ${sub(t.element)}]`;
    case 'vector':
      return `<${t.scalable ? 'vscale x ' : ''}${t.length} x ${sub(t.element)}>`;
    case 'function': {
      const params = t.params.map(sub);
      if (t.varArgs) params.push('...');
      return `${sub(t.returnType)} (${params.join(', ')})`;
    }
    case 'struct': {
      if (t.literal) {
        if (t.elements === undefined) return 'opaque';
        const body = t.elements.length === 0 ? '{}' : `{ ${t.elements.map(sub).join(', ')} }`;
        return t.packed ? `<${body}>` : body;
      }
      if (t.name !== '') return formatName('%', t.name);
      const n = structNumber?.(t);
      return n === undefined ? '%<unnamed struct>' : `%${n}`;
    }
    case 'target':
      return `target(${[`"${escapeString(t.name)}"`, ...t.typeParams.map(sub), ...t.intParams.map(String)].join(', ')})`;
    default:
      return t.kind;
  }
}

/** Attribute as written inside a parameter list (`inGroup` = inside `attributes #N = { }`). */
export function formatAttribute(a: Attribute, typeText: (t: Type) => string, inGroup = false): string {
  switch (a.kind) {
    case 'enum':
      return a.key;
    case 'string':
      return a.value === '' ? `"${escapeString(a.key)}"` : `"${escapeString(a.key)}"="${escapeString(a.value)}"`;
    case 'type':
      return a.type === undefined ? a.key : `${a.key}(${typeText(a.type)})`;
    case 'raw':
      return a.key + a.text;
    case 'int': {
      const v = a.value;
      switch (a.key) {
        case 'align':
          return inGroup ? `align=${v}` : `align ${v}`;
        case 'alignstack':
          return inGroup ? `alignstack=${v}` : `alignstack(${v})`;
        case 'uwtable':
          return v === 1 ? 'uwtable(sync)' : 'uwtable';
        case 'memory':
          return formatMemoryEffects(v as number);
        case 'allockind':
          return formatAllocKind(v as number);
        case 'allocsize': {
          const [x, y] = v as readonly [number, number | undefined];
          return y === undefined ? `allocsize(${x})` : `allocsize(${x},${y})`;
        }
        case 'vscale_range': {
          const [x, y] = v as readonly [number, number | undefined];
          return `vscale_range(${x},${y ?? 0})`;
        }
        default:
          return `${a.key}(${String(v)})`;
      }
    }
  }
}

/**
 * Buffer's own latin1 writer, without `buf.write`'s argument handling: printing the 10 MiB
 * benchmark module is ~4 % faster end to end when long strings go through it. A call into it
 * costs about what copying 20 characters byte by byte does, so shorter strings (most of what is
 * written: types like `ptr addrspace(4)`, opcodes, ` preds = `) are copied here. Not in Node's
 * typings or docs, so it is looked up once and the byte loop stays as the fallback.
 */
const latin1Write = (Buffer.prototype as unknown as { latin1Write?: (this: Buffer, s: string, offset: number, length: number) => number }).latin1Write;
const NATIVE_WRITE_MIN = 20;

const CHUNK = 1 << 20;
const EMPTY_BUFFER = Buffer.alloc(0);

/** The first `n` bytes of `buf` in a buffer of their own, exactly that size (not a pool slice). */
function copyOut(buf: Buffer, n: number): Buffer {
  const out = Buffer.allocUnsafeSlow(n);
  buf.copy(out, 0, 0, n);
  return out;
}
/** First buffer of a print: small, so printing many small modules (split images) stays cheap. */
const FIRST_CHUNK = 1 << 14;
/** `n` spaces and a `;`, for n up to 50: the pad before a block's `; preds = ...` comment. */
const PADDED_SEMICOLONS: readonly string[] = Array.from({ length: 51 }, (_, n) => ' '.repeat(n) + ';');
/** Decimal spellings of small numbers, reused instead of allocating a string per number. */
const SMALL_NUMBERS: readonly string[] = Array.from({ length: 1024 }, (_, i) => String(i));

class ModulePrinter {
  private out: Buffer;
  private n = 0;
  /** Set with `transientChunks`: a full buffer that goes to the sink (not held) is written again from its start. */
  reuseOut = false;
  /** Set while `out` is the cache's scratch buffer: what goes to the sink is copied out of it. */
  private scratchOf: PrintCache | undefined = undefined;
  private sink: (chunk: Uint8Array) => void;
  private readonly m: Module;
  /** Type texts: this print's, or the cache's when types are found during the print (no numbered structs then). */
  private readonly typeNames: Map<Type, string>;
  private readonly numberedTypes = new Map<StructType, number>();
  private readonly namedTypes: StructType[] = [];
  private readonly globalSlots = new Map<GlobalValue, number>();
  private readonly mdSlots = new Map<MDNode, number>();
  private readonly mdNodes: MDNode[] = [];
  private readonly attrSlots = new Map<string, number>();
  /** `attrSlots` by set: sets equal in content share a number, and each object asks once by its key. */
  private readonly attrSlotOf = new Map<AttributeSet, number>();
  private readonly attrSets: AttributeSet[] = [];
  /** Attachment kind id -> its name as printed. */
  private readonly kindIdentifiers: string[];
  /** Texts of attribute sets in parameter lists, this print's (see `attrSetText`). */
  private readonly paramAttrTexts = new Map<AttributeSet, string>();
  /** `; Function Attrs:` lines by function attribute set, this print's (see `functionAttrsComment`). */
  private readonly fnAttrComments = new Map<AttributeSet, string>();
  private localSlots = new Map<Value, number>();
  private preds: ReadonlyMap<BasicBlock, BasicBlock[]> = new Map<BasicBlock, BasicBlock[]>();
  private currentFunction: IRFunction | undefined;

  /** Set by captureTexts: the values whose text is wanted, and the texts found so far. */
  private capture:
    | {
        readonly values: readonly ValueInFunction[];
        readonly texts: string[];
        /** Positions in `values` of each wanted instruction, and of each function's other values. */
        readonly instructions: Map<Value, number[]>;
        readonly operands: Map<IRFunction, number[]>;
      }
    | undefined;

  /**
   * captureTexts numbers lazily: the numbered struct types (`findTypes`) when a text first needs
   * one, and the module-wide numbers of function bodies (metadata, call-site attribute groups) up
   * to the function being captured when a text first needs one of them. The numbers are those of
   * the eager walks: the same walks, in the same order, only later or not at all.
   */
  private typesFound = true;
  private slotsPending: (() => void) | undefined = undefined;
  /**
   * The function being printed whose module-wide numbers (metadata, call-site attribute groups)
   * are taken as its text reaches them, in the order SlotTracker's walk of it takes them: the text
   * meets an instruction's debug records, its call's operands and attribute group, then its
   * attachments in kind order, instruction after instruction, as that walk does. Taking a number
   * twice changes nothing, so where the text needs one ahead of the walk, the whole walk runs
   * (`finishFunctionSlots`).
   */
  private slotsFunction: IRFunction | undefined = undefined;
  /** captureTexts: whether instructions are printed with their metadata attachments. */
  private printAttachments = true;

  /** Set while a function template is being recorded: holes go here instead of numbers. */
  private recording: (MDNode | AttributeSet)[] | undefined;
  private readonly cache: PrintCache | undefined;
  /** Printing for LLVM 15's reader (see `src/llvm15.ts`). */
  private readonly llvm15: boolean;
  private readonly lists15 = new Map<AttributeList, AttributeList>();

  /** Typed pointers for LLVM 15 (see `src/llvm15-typed.ts`); the per-function state of that form. */
  private readonly typed15: boolean;
  // initialized here so that every printer has one shape (a field added later slows every access)
  private typedState: TypedFunctionState | undefined = undefined;
  /** With a cache: its record of this module's named metadata (see `namedRecord`). */
  private named: NamedMetadataRecord | undefined = undefined;
  /** The greatest `!N` the last `mdBody` text refers to; {@link MAX_REF_UNKNOWN} when not known. */
  private bodyMaxRef = 0;

  /**
   * Set when types are found while printing: each function's instructions are walked for their
   * struct types by the walk that numbers its slots, just before the function is printed, instead
   * of by a walk over the whole module first (which meets every instruction once more, long
   * before it is printed: for a large module that walk is mostly waiting on memory). The type
   * definitions, which come before everything the walk covers, are put in place at the end; until
   * then what is printed is held here (`held`) and nothing goes to the sink. Only for modules
   * without numbered structs: one met makes the print throw `NumberedStructs`, to be printed again
   * the plain way (a struct's number is needed where it is printed).
   */
  private deferred: TypeFinder | undefined = undefined;
  /** Chunks printed while `deferred`, in order; the current buffer follows them. */
  private held: Uint8Array[] | undefined = undefined;
  /** Where the type definitions go: chunk `typeDefsChunk` of `held` (or the current buffer) at byte `typeDefsAt`. */
  private typeDefsChunk = 0;
  private typeDefsAt = 0;
  private heldBytes = 0;

  constructor(m: Module, sink: (chunk: Uint8Array) => void, cache?: PrintCache, llvm15 = false, typed15 = false, deferTypes = false) {
    this.m = m;
    this.sink = sink;
    this.cache = cache;
    if (cache !== undefined) {
      this.out = cache.scratch ?? Buffer.allocUnsafeSlow(CHUNK);
      cache.scratch = undefined;
      this.scratchOf = cache;
    } else this.out = Buffer.allocUnsafe(FIRST_CHUNK);
    this.llvm15 = llvm15;
    this.typed15 = typed15;
    if (deferTypes) {
      const finder = new TypeFinder();
      // the images of a split share their metadata (TBAA, debug info): an attachment's types are its list, from the second image on
      if (cache !== undefined) finder.knownMD = (node) => knownRoot(cache, node);
      this.deferred = finder;
      this.held = [];
    }
    this.typeNames = deferTypes && cache !== undefined ? cache.typeTexts : new Map<Type, string>();
    this.kindIdentifiers = kindIdentifiersOf(m.context.md.kinds);
  }

  /** A function's or call's attributes as printed: LLVM 15's spelling when printing for it. */
  private attrList(list: AttributeList): AttributeList {
    return !this.llvm15 || list === AttributeList.empty ? list : this.attrList15(list);
  }

  // Hot methods hold no closures: a closure that captures `this` or a parameter makes V8 allocate
  // the method's context on every call, taken or not (one object per instruction printed).
  private attrList15(list: AttributeList): AttributeList {
    let out = this.lists15.get(list);
    if (out === undefined) {
      const fn = attributeSetForLLVM15(list.fn);
      const ret = attributeSetForLLVM15(list.ret);
      const params = list.params.map(attributeSetForLLVM15);
      out = fn === list.fn && ret === list.ret && params.every((p, i) => p === list.params[i]) ? list : new AttributeList(fn, ret, params);
      this.lists15.set(list, out);
    }
    return out;
  }

  private attrSetFor(set: AttributeSet): AttributeSet {
    return this.llvm15 ? attributeSetForLLVM15(set) : set;
  }

  /** `!N` for a numbered node, or a hole while recording. */
  private mdNumber(n: MDNode): string {
    if (this.recording !== undefined) {
      this.recording.push(n);
      return `\x01${this.recording.length - 1}\x02`;
    }
    return `!${this.mdSlots.get(n)}`;
  }

  /** `#N` for a call-site or function attribute set, or a hole while recording. */
  private attrNumber(set: AttributeSet): string {
    if (this.slotsPending !== undefined) this.catchUpSlots();
    if (this.recording !== undefined) {
      this.recording.push(set);
      return `\x01${this.recording.length - 1}\x02`;
    }
    return `#${this.attrSlot(set)}`;
  }

  /** Appends a latin1 string (cheaper than building ropes of small strings). */
  private w(s: string): void {
    const len = s.length;
    if (this.n + len > this.out.length) this.spill(len);
    if (len > NATIVE_WRITE_MIN && latin1Write !== undefined) {
      this.n += latin1Write.call(this.out, s, this.n, len);
      return;
    }
    const out = this.out;
    let n = this.n;
    for (let i = 0; i < len; i++) out[n++] = s.charCodeAt(i);
    this.n = n;
  }

  private ch(code: number): void {
    if (this.n === this.out.length) this.spill(1);
    this.out[this.n++] = code;
  }

  /** Integers without allocating a string when they fit 32 bits; small so that it inlines. */
  private num(v: number | bigint): void {
    if (typeof v === 'number' && v >= 0 && v < 1024 && (v | 0) === v) this.w(SMALL_NUMBERS[v]!);
    else this.numDigits(v);
  }

  private numDigits(v: number | bigint): void {
    if (typeof v !== 'number' || (v | 0) !== v) {
      this.w(String(v));
      return;
    }
    if (v < 0) {
      this.ch(45);
      v = -v; // 2^31 for -2^31: still exact, and the digit loop divides as doubles
      if (v < 1024) {
        this.w(SMALL_NUMBERS[v]!);
        return;
      }
    }
    const digits = decimalDigits(v);
    if (this.n + digits > this.out.length) this.spill(digits);
    const out = this.out;
    let at = this.n + digits;
    this.n = at;
    do {
      out[--at] = 48 + (v % 10);
      v = (v / 10) | 0;
    } while (v > 0);
  }

  /**
   * Makes room for `need` more bytes: a small first buffer grows by doubling up to 1 MiB; after
   * that, full 1 MiB chunks go to the sink and a fresh buffer starts.
   */
  private spill(need: number): void {
    if (this.scratchOf !== undefined) {
      if (this.n > 0) this.emit(copyOut(this.out, this.n));
      this.n = 0;
      if (need <= this.out.length) return;
      this.releaseScratch();
      this.out = Buffer.allocUnsafe(need);
      return;
    }
    const size = this.out.length;
    if (size < CHUNK && this.n + need <= CHUNK) {
      let next = size * 2;
      while (next < this.n + need) next *= 2;
      const grown = Buffer.allocUnsafe(Math.min(next, CHUNK));
      this.out.copy(grown, 0, 0, this.n);
      this.out = grown;
      return;
    }
    if (this.n > 0) this.emit(this.out.subarray(0, this.n));
    const sunk = this.held === undefined;
    this.n = 0;
    if (this.reuseOut && sunk && need <= size) return;
    this.out = Buffer.allocUnsafe(Math.max(CHUNK, need));
  }

  /** Hands over what is buffered; only used once, at the end. */
  private flush(force = false): void {
    if (force && this.n > 0) {
      this.emit(this.scratchOf !== undefined ? copyOut(this.out, this.n) : this.out.subarray(0, this.n));
      this.n = 0;
    }
  }

  /** A finished chunk: to the sink, or held while types are found during the print. */
  private emit(chunk: Uint8Array): void {
    if (this.held !== undefined) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
    } else this.sink(chunk);
  }

  /** Gives the cache's scratch buffer back (after the print; what it held has gone to the sink). */
  releaseScratch(): void {
    const cache = this.scratchOf;
    if (cache === undefined) return;
    cache.scratch = this.out;
    this.scratchOf = undefined;
    this.out = EMPTY_BUFFER;
    this.n = 0;
  }

  captureTexts(values: readonly ValueInFunction[], attachments = true): string[] {
    const texts = values.map(() => '');
    const instructions = new Map<Value, number[]>();
    const operands = new Map<IRFunction, number[]>();
    const add = <K>(map: Map<K, number[]>, key: K, i: number): void => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [i]);
      else list.push(i);
    };
    values.forEach((r, i) => (r.value.vk === 'instruction' ? add(instructions, r.value, i) : add(operands, r.fn, i)));
    this.capture = { values, texts, instructions, operands };
    this.printAttachments = attachments;
    const holding = new Set(values.map((r) => r.fn));
    try {
      // Numbers come from the walks (findTypes, initializeSlots, incorporateFunctionSlots), in
      // module order, never from printing: only the wanted instructions are printed, with their
      // function's local numbering set. The walks that number types and function bodies run when
      // a text first needs their numbers (see `typesFound`), up to the function being printed.
      this.typesFound = false;
      this.initializeSlots();
      const functions = this.m.functions;
      let walked = 0;
      for (let i = 0; i < functions.length; i++) {
        const fn = functions[i]!;
        if (!holding.has(fn)) continue;
        this.slotsPending = () => {
          while (walked <= i) this.incorporateFunctionSlots(functions[walked++]!);
        };
        this.incorporateFunctionLocals(fn);
        this.currentFunction = fn;
        for (const b of fn.blocks) for (const inst of b.instructions) if (instructions.has(inst)) this.captureInstruction(inst);
        this.captureOperands(fn);
        this.currentFunction = undefined;
      }
    } finally {
      this.capture = undefined;
      this.slotsPending = undefined;
      this.typesFound = true;
      this.printAttachments = true;
    }
    return texts;
  }

  /** Prints `inst` on its own into the capture (and nowhere else: a capture's sink discards). */
  private captureInstruction(inst: Instruction): void {
    this.flush(true);
    const sink = this.sink;
    const parts: string[] = [];
    this.sink = (chunk) => parts.push(Buffer.from(chunk).toString('latin1'));
    try {
      this.printInstruction(inst);
      this.flush(true);
    } finally {
      this.sink = sink;
    }
    const capture = this.capture!;
    const text = parts.join('');
    for (const i of capture.instructions.get(inst) ?? []) capture.texts[i] = text;
  }

  /** Operand texts of the captured non-instructions of `f`, while its local numbering is set. */
  private captureOperands(f: IRFunction): void {
    const capture = this.capture!;
    for (const i of capture.operands.get(f) ?? []) capture.texts[i] = this.typedOperand(capture.values[i]!.value);
  }

  print(): void {
    const m = this.m;
    const deferred = this.deferred;
    if (deferred === undefined) this.findTypes();
    else {
      if (this.cache !== undefined) this.namedRecord(this.cache);
      deferred.incGlobals(m);
      this.checkDeferred();
    }
    this.initializeSlots();
    if (m.id !== '' && !m.id.includes('\n')) this.w(`; ModuleID = '${m.id}'\n`);
    if (m.sourceFilename !== '') this.w(`source_filename = "${escapeString(m.sourceFilename)}"\n`);
    if (m.dataLayout !== '') this.w(`target datalayout = "${m.dataLayout}"\n`);
    if (m.triple !== '') this.w(`target triple = "${m.triple}"\n`);
    if (m.inlineAsm.length > 0) {
      this.w('\n');
      for (const line of m.inlineAsm) this.w(`module asm "${escapeString(line)}"\n`);
    }
    if (deferred === undefined) this.w(this.typeDefinitionsText());
    else {
      this.typeDefsChunk = this.held!.length;
      this.typeDefsAt = this.n;
    }
    this.printComdats();
    if (m.globals.length > 0) this.w('\n');
    for (const gv of m.globals) {
      this.printGlobal(gv);
      this.w('\n');
      this.flush();
    }
    if (m.aliases.length > 0) this.w('\n');
    for (const a of m.aliases) this.printAlias(a);
    if (m.ifuncs.length > 0) this.w('\n');
    for (const i of m.ifuncs) this.printIFunc(i);
    const functions = m.functions;
    for (let i = 0; i < functions.length; i++) {
      this.w('\n');
      this.printFunction(functions[i]!);
      this.flush();
      // held text is bounded: past the limit the rest is walked for types first, and printed as it comes
      if (this.deferred !== undefined && this.heldBytes + this.n > printLimits.hold) {
        this.endDeferred(i + 1);
        this.releaseHeld(true);
      }
    }
    if (this.deferred !== undefined) this.endDeferred(functions.length);
    if (this.llvm15) this.printRecordIntrinsicDeclarations();
    if (this.attrSets.length > 0) {
      this.w('\n');
      const sets = this.attrSets;
      for (let i = 0; i < sets.length; i++) {
        this.w('attributes #');
        this.num(i);
        this.w(' = { ');
        this.w(this.attrSetText(sets[i]!, true));
        this.w(' }\n');
      }
    }
    this.printMetadataSections();
    if (this.held !== undefined) this.releaseHeld(false);
    else this.flush(true);
  }

  /** Ends finding types during the print: the functions from `next` on and the named metadata are walked for theirs. */
  private endDeferred(next: number): void {
    const finder = this.deferred!;
    const cache = this.cache;
    const functions = this.m.functions;
    for (let i = next; i < functions.length; i++) {
      const f = functions[i]!;
      const list = cache === undefined ? undefined : knownRoot(cache, f);
      if (list !== undefined) finder.addStructs(list);
      else finder.incFunction(f);
    }
    if (cache === undefined) finder.incNamedMetadata(this.m);
    else finder.incNamedMetadata(this.m, undefined, (this.named!.structs ??= namedMetadataStructTypes(this.m)));
    this.checkDeferred();
    this.deferred = undefined;
    this.placeStructs(finder.structs);
  }

  /** While types are found during the print: a numbered struct ends the attempt (see `deferred`). */
  private checkDeferred(): void {
    if (this.deferred!.unnamed) throw new NumberedStructs('a numbered struct type');
  }

  /** Hands over what was held, with the type definitions in their place (see `deferred`); `more`: printing goes on. */
  private releaseHeld(more: boolean): void {
    const held = this.held!;
    const at = this.typeDefsAt;
    if (held.length === 0 && this.scratchOf !== undefined) {
      this.held = undefined;
      // the usual split image: one right-sized buffer, as `flush` gives, the definitions written into it
      const lines = this.typeDefinitionLines();
      let size = 0;
      for (let i = 0; i < lines.length; i++) size += lines[i]!.length;
      const n = this.n;
      const scratch = this.out;
      const out = Buffer.allocUnsafeSlow(n + size);
      scratch.copy(out, 0, 0, at);
      this.out = out;
      this.n = at;
      for (let i = 0; i < lines.length; i++) this.w(lines[i]!);
      scratch.copy(out, at + size, at, n);
      this.out = scratch;
      this.n = 0;
      if (out.length > 0) this.sink(out);
      return;
    }
    const defs = this.typeDefinitionLines().join('');
    this.flush(true);
    this.held = undefined;
    // what was flushed is handed over below: printing goes on in a buffer of its own (or in
    // this one, when the sink is done with each chunk before printing goes on)
    if (more && this.scratchOf === undefined && !this.reuseOut) this.out = Buffer.allocUnsafe(CHUNK);
    for (let i = 0; i < held.length; i++) {
      const chunk = held[i]!;
      if (i !== this.typeDefsChunk || defs === '') {
        this.sink(chunk);
        continue;
      }
      if (at > 0) this.sink(chunk.subarray(0, at));
      this.sink(Buffer.from(defs, 'latin1'));
      if (at < chunk.length) this.sink(chunk.subarray(at));
    }
  }

  /**
   * The named metadata and the `!N = ...` lines. With a cache, the lines a recent print wrote
   * for the same first nodes are written as they are (see `MetadataRun`): the images of a split
   * share the module's named metadata, whose nodes come first in each.
   */
  private printMetadataSections(): void {
    const m = this.m;
    // nodes are appended to mdNodes while printing bodies is impossible: slots are complete here
    const nodes = this.mdNodes;
    const cache = this.cacheable ? this.cache : undefined;
    const run = cache?.mdRun;
    let common = 0;
    if (run !== undefined) {
      const limit = Math.min(nodes.length, run.nodes.length);
      while (common < limit && nodes[common] === run.nodes[common]) common++;
    }
    let namedText: Buffer | undefined;
    let namedMaxRef = -1;
    if (m.namedMetadata.size > 0) {
      this.w('\n');
      if (run !== undefined && run.named === this.named && run.namedText !== undefined && run.namedMaxRef < common) {
        namedText = run.namedText;
        namedMaxRef = run.namedMaxRef;
        this.wBytes(namedText);
      } else {
        let text = '';
        for (const [name, ops] of m.namedMetadata) {
          text += `!${metadataIdentifier(name)} = !{`;
          for (let i = 0; i < ops.length; i++) {
            const op = ops[i]!;
            if (i > 0) text += ', ';
            text += this.mdRef(op);
            if (op.mk === 'tuple' || op.mk === 'di') namedMaxRef = Math.max(namedMaxRef, this.mdSlots.get(op) ?? MAX_REF_UNKNOWN);
          }
          text += '}\n';
        }
        this.w(text);
        if (cache !== undefined) namedText = Buffer.from(text, 'latin1');
      }
    }
    if (nodes.length === 0) return;
    this.w('\n');
    // lines of the run that refer only to the common first nodes
    let from = 0;
    if (run !== undefined) {
      while (from < common && run.maxRefs[from]! < common) from++;
      if (from > 0) this.wBytes(run.text.subarray(0, run.ends[from - 1]));
    }
    let record = false;
    if (cache !== undefined) {
      if (from > 0) cache.mdRunMisses = 0;
      else {
        const misses = ++cache.mdRunMisses;
        record = (misses & (misses - 1)) === 0;
      }
    }
    if (!record) {
      for (let i = from; i < nodes.length; i++) {
        this.ch(33);
        this.num(i);
        this.w(' = ');
        this.wMDBody(nodes[i]!);
        this.ch(10);
      }
      return;
    }
    let text = '';
    const ends: number[] = [];
    const maxRefs: number[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const line = `!${i} = ${this.mdBody(nodes[i]!)}\n`;
      this.w(line);
      text += line;
      ends.push(text.length);
      maxRefs.push(this.bodyMaxRef);
    }
    cache!.mdRun = { nodes: nodes.slice(), named: this.named, namedText, namedMaxRef, text: Buffer.from(text, 'latin1'), ends, maxRefs };
  }

  // --- types -------------------------------------------------------------------------------------

  /** LLVM's TypeFinder over the module: named structs print by name, unnamed ones get numbers in discovery order. */
  private findTypes(): void {
    let next = 0;
    const cache = this.cache;
    let named: NamedMetadataRecord | undefined;
    if (cache !== undefined) {
      named = this.namedRecord(cache);
      named.structs ??= namedMetadataStructTypes(this.m);
    }
    const structs = cache === undefined ? identifiedStructTypes(this.m) : identifiedStructTypes(this.m, (root) => knownRoot(cache, root), named!.structs);
    for (const s of structs) {
      if (s.name !== '') this.namedTypes.push(s);
      else this.numberedTypes.set(s, next++);
    }
  }

  /** The struct types found during the print (see `deferred`): all named. */
  private placeStructs(structs: readonly StructType[]): void {
    for (let i = 0; i < structs.length; i++) this.namedTypes.push(structs[i]!);
  }

  /** The cache's record of the named metadata, made anew when this module's differs from the last print's. */
  private namedRecord(cache: PrintCache): NamedMetadataRecord {
    const nm = this.m.namedMetadata;
    let record = cache.named;
    if (record === undefined || !sameNamedMetadata(record, nm)) {
      const names: string[] = [];
      const operands: MDNode[][] = [];
      for (const [name, ops] of nm) {
        names.push(name);
        operands.push(ops.slice());
      }
      record = { names, operands, structs: undefined, before: undefined, added: undefined };
      cache.named = record;
    }
    this.named = record;
    return record;
  }

  private structNumber(struct: StructType): number | undefined {
    // finding types during the print, a numbered struct printed before it is found
    if (this.deferred !== undefined) throw new NumberedStructs('a numbered struct type');
    if (!this.typesFound) {
      this.typesFound = true;
      this.findTypes();
    }
    return this.numberedTypes.get(struct);
  }

  private catchUpSlots(): void {
    const pending = this.slotsPending!;
    this.slotsPending = undefined;
    pending();
  }

  private type(t: Type): string {
    let s = this.typeNames.get(t);
    if (s === undefined) {
      s = this.typeText(t);
      this.typeNames.set(t, s);
    }
    return s;
  }

  private typeText(t: Type): string {
    if (this.typed15 && t.kind === 'pointer' && t.pointee === undefined) return t.addressSpace === 0 ? 'i8*' : `i8 addrspace(${t.addressSpace})*`;
    return formatType(t, (struct) => this.structNumber(struct), (sub) => this.type(sub));
  }

  /** A named struct's `%name = type { ... }` line; from the cache when it has one. */
  private structLine(t: StructType): string {
    // with a cache the module has no numbered structs (`cacheable`), so the text is the type's own
    const lines = this.cache !== undefined && this.cacheable ? this.cache.structLines : undefined;
    let text = lines?.get(t);
    if (text === undefined) {
      text = `${formatName('%', t.name)} = type ${this.structBodyText(t)}\n`;
      lines?.set(t, text);
    }
    return text;
  }

  private structBodyText(t: StructType): string {
    if (t.elements === undefined) return 'opaque';
    const body = t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => this.type(e)).join(', ')} }`;
    return t.packed ? `<${body}>` : body;
  }

  private typeDefinitionsText(): string {
    return this.typeDefinitionLines().join('');
  }

  /** The type definitions section, a line at a time (none when the module uses no identified struct). */
  private typeDefinitionLines(): string[] {
    if (this.numberedTypes.size === 0 && this.namedTypes.length === 0) return [];
    const lines = ['\n'];
    const numbered = [...this.numberedTypes.entries()].sort((a, b) => a[1] - b[1]);
    for (const [t, n] of numbered) lines.push(`%${n} = type ${this.structBodyText(t)}\n`);
    for (const t of this.namedTypes) lines.push(this.structLine(t));
    return lines;
  }

  // --- slots -------------------------------------------------------------------------------------

  private initializeSlots(): void {
    const m = this.m;
    let next = 0;
    for (const g of m.globals) {
      if (g.name === '') this.globalSlots.set(g, next++);
      for (const a of sortedAttachments(g.attachments)) this.mdSlot(a.node);
      if (g.attributes && !this.attrSetFor(g.attributes).isEmpty) this.attrSlot(this.attrSetFor(g.attributes));
    }
    for (const a of m.aliases) if (a.name === '') this.globalSlots.set(a, next++);
    for (const i of m.ifuncs) if (i.name === '') this.globalSlots.set(i, next++);
    this.namedMetadataSlots();
    for (const f of m.functions) {
      if (f.name === '') this.globalSlots.set(f, next++);
      const fnAttrs = this.attrList(f.attributes).fn;
      if (!fnAttrs.isEmpty) this.attrSlot(fnAttrs);
    }
  }

  /**
   * Numbers the named metadata operands. With a cache, a print that starts them from the nodes a
   * print before started from (none, typically) takes the numbers that print gave: the numbering
   * is the same walk from the same state.
   */
  private namedMetadataSlots(): void {
    const named = this.named;
    const nodes = this.mdNodes;
    if (named !== undefined && named.added !== undefined && sameNodes(nodes, named.before!)) {
      const slots = this.mdSlots;
      const added = named.added;
      for (let i = 0; i < added.length; i++) {
        slots.set(added[i]!, nodes.length);
        nodes.push(added[i]!);
      }
      return;
    }
    const before = named === undefined ? undefined : nodes.slice();
    for (const ops of this.m.namedMetadata.values()) for (const op of ops) this.mdSlot(op);
    if (named !== undefined) {
      named.before = before;
      named.added = nodes.slice(before!.length);
    }
  }

  private mdSlot(n: Metadata): void {
    if (n.mk !== 'tuple' && n.mk !== 'di') return;
    if (this.mdSlots.has(n)) return;
    const cache = this.cache;
    if (cache !== undefined) {
      // Numbered nodes are closed under "reaches" between calls, so what this call numbers is
      // the node's own order with the numbered ones left out.
      let order = cache.mdOrders.get(n);
      if (order === undefined && cache.mdOrderSeen.has(n)) {
        order = preorderFrom(n);
        cache.mdOrders.set(n, order);
      }
      if (order !== undefined) {
        const slots = this.mdSlots;
        const nodes = this.mdNodes;
        for (let i = 0; i < order.length; i++) {
          const node = order[i]!;
          if (slots.has(node)) continue;
          slots.set(node, nodes.length);
          nodes.push(node);
        }
        return;
      }
      cache.mdOrderSeen.add(n);
    }
    // iterative pre-order numbering (deep debug-info chains would overflow the stack)
    const stack: MDNode[] = [n];
    while (stack.length > 0) {
      const cur = stack.pop()!;
      if (this.mdSlots.has(cur)) continue;
      this.mdSlots.set(cur, this.mdNodes.length);
      this.mdNodes.push(cur);
      const children: MDNode[] = [];
      if (cur.mk === 'tuple') {
        for (const op of cur.operands) if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && !this.mdSlots.has(op)) children.push(op);
      } else unnumberedDIOperands(cur, this.mdSlots, children);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  private attrSlot(set: AttributeSet): number {
    // most calls ask again for a set already numbered (every call site of a function): by identity first
    const n = this.attrSlotOf.get(set);
    return n !== undefined ? n : this.newAttrSlot(set);
  }

  /** `attrSlot` of a set met for the first time: by its key, so sets equal in content share a number. */
  private newAttrSlot(set: AttributeSet): number {
    const key = set.key((t) => this.type(t));
    let n = this.attrSlots.get(key);
    if (n === undefined) {
      n = this.attrSets.length;
      this.attrSlots.set(key, n);
      this.attrSets.push(set);
    }
    this.attrSlotOf.set(set, n);
    return n;
  }

  /**
   * SlotTracker::processFunction: metadata, local numbers and call-site attribute groups. Local
   * numbers (which the text may need before their value: phis, branches) and the `; preds` lists
   * come from one pass over the instructions here. The module-wide numbers of the body (metadata,
   * call-site attribute groups) are taken as the text reaches them (see `slotsFunction`), except
   * in the typed form, whose text does not follow the instructions one by one.
   */
  private incorporateFunction(f: IRFunction, finder?: TypeFinder): void {
    if (f.attachments !== null) this.attachmentSlots(f.attachments);
    const eager = this.typed15;
    if (!eager && f.blocks.length > 0) this.slotsFunction = f;
    // finding types during the print: the finder's walk of the function, in its order, in this loop
    if (finder !== undefined) finder.incFunctionHeader(f);
    const locals = new Map<Value, number>();
    let next = 0;
    for (const a of f.args) if (a.name === '') locals.set(a, next++);
    const blocks = f.blocks;
    // the `; preds =` lists (`predecessorsInPrintOrder`), from the terminators this loop meets anyway
    const preds = blocks.length < 2 ? undefined : new Map<BasicBlock, BasicBlock[]>();
    for (let bi = 0; bi < blocks.length; bi++) {
      const block = blocks[bi]!;
      if (block.name === '') locals.set(block, next++);
      const insts = block.instructions;
      for (let ii = 0; ii < insts.length; ii++) {
        const inst = insts[ii]!;
        if (finder !== undefined) finder.incInstruction(inst);
        if (inst.name === '' && inst.type.kind !== 'void') locals.set(inst, next++);
        if (eager) this.instructionSlots(inst);
      }
      const last = insts[insts.length - 1];
      if (preds !== undefined && last !== undefined && last.isTerminator) {
        const ops = last.operands;
        for (let k = 0; k < ops.length; k++) {
          const op = ops[k]!;
          if (op.vk !== 'block') continue;
          const list = preds.get(op);
          if (list === undefined) preds.set(op, [block]);
          else list.push(block);
        }
      }
    }
    this.localSlots = locals;
    if (preds === undefined) this.preds = NO_PREDECESSORS;
    else {
      preds.forEach(reverseInPlace);
      this.preds = preds;
    }
    if (finder !== undefined) this.checkDeferred();
  }

  /** An instruction's module-wide numbers, in SlotTracker's order: debug records, call, attachments. */
  private instructionSlots(inst: Instruction): void {
    if (inst.debugRecords) for (const r of inst.debugRecords) this.debugRecordSlots(r);
    if (inst instanceof CallInst) this.callSlots(inst);
    if (inst.attachments !== null) this.attachmentSlots(inst.attachments);
  }

  /**
   * The text of `slotsFunction` needs a node that is not numbered yet: one that the function's
   * walk numbers later than where the text is (a call's metadata operand that only a later
   * instruction's attachment numbers), or never. The walk runs now for the whole function: what
   * is numbered already stays as it is, so the numbers are the walk's own.
   */
  private finishFunctionSlots(): void {
    const f = this.slotsFunction!;
    this.slotsFunction = undefined;
    this.incorporateFunctionSlots(f);
  }

  /** Numbers the nodes of an instruction's or function's attachments, in kind order. */
  private attachmentSlots(list: readonly Attachment[]): void {
    const sorted = sortedAttachments(list);
    for (let i = 0; i < sorted.length; i++) this.mdSlot(sorted[i]!.node);
  }

  /** The metadata operands of an intrinsic call and the call's function attribute group. */
  private callSlots(call: CallInst): void {
    if (call.calledFunction?.isIntrinsic) this.intrinsicOperandSlots(call);
    const fnAttrs = this.attrList(call.attributes).fn;
    if (!fnAttrs.isEmpty) this.attrSlot(fnAttrs);
  }

  private intrinsicOperandSlots(call: CallInst): void {
    const ops = call.operands;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.vk === 'metadata') this.mdSlot(op.metadata);
    }
  }

  /** The module-wide numbers a function's body takes: its metadata and call-site attribute groups. */
  private incorporateFunctionSlots(f: IRFunction): void {
    if (f.attachments !== null) this.attachmentSlots(f.attachments);
    // metadata and attribute groups are numbered apart, so one pass can do both in LLVM's order
    const blocks = f.blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const insts = blocks[bi]!.instructions;
      for (let ii = 0; ii < insts.length; ii++) {
        this.instructionSlots(insts[ii]!);
      }
    }
  }

  /** Local value numbers and block predecessors of a function (no module-wide numbering). */
  private incorporateFunctionLocals(f: IRFunction): void {
    const locals = new Map<Value, number>();
    let next = 0;
    for (const a of f.args) if (a.name === '') locals.set(a, next++);
    for (const b of f.blocks) {
      if (b.name === '') locals.set(b, next++);
      for (const inst of b.instructions) {
        if (inst.name === '' && inst.type.kind !== 'void') locals.set(inst, next++);
      }
    }
    this.localSlots = locals;
    this.preds = predecessorsInPrintOrder(f);
  }

  private debugRecordSlots(r: DebugRecord): void {
    // LLVM 19 order: location of an empty-metadata operand, variable, assign id, address, then the DILocation
    for (const op of r.operands) if (op !== null) this.mdSlot(op);
  }

  // --- global values -----------------------------------------------------------------------------

  private globalRef(g: GlobalValue): string {
    if (this.typed15 && g.vk === 'function' && g.name.startsWith('llvm.')) return formatName('@', typedIntrinsicName(g.name));
    if (g.name !== '') return formatName('@', g.name);
    const n = this.globalSlots.get(g);
    return n === undefined ? '<badref>' : `@${n}`;
  }

  private dsoLocal(g: GlobalValue): string {
    return g.dsoLocal && !g.isImplicitDSOLocal() ? 'dso_local ' : '';
  }

  private commonPrefix(g: GlobalValue): string {
    let s = LINKAGE_PREFIX[g.linkage] ?? '';
    s += this.dsoLocal(g);
    if (g.visibility !== 'default') s += g.visibility + ' ';
    if (g.dllStorage !== 'none') s += g.dllStorage + ' ';
    return s;
  }

  private threadLocal(g: GlobalValue): string {
    switch (g.threadLocal) {
      case 'none':
        return '';
      case 'generaldynamic':
        return 'thread_local ';
      default:
        return `thread_local(${g.threadLocal}) `;
    }
  }

  private printComdats(): void {
    let comdats: Comdat[] | undefined;
    let seen: Set<Comdat> | undefined;
    const add = (owners: readonly (IRFunction | GlobalVariable)[]): void => {
      for (let i = 0; i < owners.length; i++) {
        const c = owners[i]!.comdat;
        if (c === undefined) continue;
        if (comdats === undefined) {
          comdats = [c];
          seen = new Set([c]);
        } else if (!seen!.has(c)) {
          seen!.add(c);
          comdats.push(c);
        }
      }
    };
    add(this.m.functions);
    add(this.m.globals);
    if (comdats === undefined) return;
    this.w('\n');
    for (let i = 0; i < comdats.length; i++) {
      const c = comdats[i]!;
      if (i > 0) this.w('\n');
      this.wName(36, c.name);
      this.w(' = comdat ');
      this.w(c.selection);
      this.ch(10);
    }
  }

  private comdatSuffix(g: GlobalVariable | IRFunction): string {
    const c = g.comdat;
    if (c === undefined) return '';
    const lead = g.vk === 'global' ? ', comdat' : ' comdat';
    return c.name === g.name ? lead : `${lead}(${formatName('$', c.name)})`;
  }

  private printGlobal(g: GlobalVariable): void {
    let s = `${this.globalRef(g)} = `;
    if (g.initializer === undefined && g.linkage === 'external') s += 'external ';
    s += this.commonPrefix(g);
    s += this.threadLocal(g);
    if (g.unnamedAddr !== 'none') s += g.unnamedAddr + ' ';
    if (g.addressSpace !== 0) s += `addrspace(${g.addressSpace}) `;
    if (g.externallyInitialized) s += 'externally_initialized ';
    s += g.isConstant ? 'constant ' : 'global ';
    s += this.type(g.valueType);
    if (g.initializer !== undefined) s += ' ' + this.operand(g.initializer);
    if (g.section !== '') s += `, section "${escapeString(g.section)}"`;
    if (g.partition !== '') s += `, partition "${escapeString(g.partition)}"`;
    if (g.codeModel !== undefined) s += `, code_model "${g.codeModel}"`;
    if (g.sanitizer) {
      if (g.sanitizer.noAddress) s += ', no_sanitize_address';
      if (g.sanitizer.noHWAddress) s += ', no_sanitize_hwaddress';
      if (g.sanitizer.memtag) s += ', sanitize_memtag';
      if (g.sanitizer.isDynInit) s += ', sanitize_address_dyninit';
    }
    s += this.comdatSuffix(g);
    if (g.align !== undefined) s += `, align ${g.align}`;
    s += this.attachmentsText(g.attachments, ', ');
    if (g.attributes && !this.attrSetFor(g.attributes).isEmpty) s += ` #${this.attrSlot(this.attrSetFor(g.attributes))}`;
    this.w(s);
  }

  private printAlias(a: GlobalAlias): void {
    let s = `${this.globalRef(a)} = ${this.commonPrefix(a)}${this.threadLocal(a)}`;
    if (a.unnamedAddr !== 'none') s += a.unnamedAddr + ' ';
    s += `alias ${this.type(a.valueType)}, `;
    if (this.typed15) {
      const want = this.m.context.typedPtr(a.valueType, a.addressSpace);
      s += `${this.type(want)} ${this.constantAs(a.aliasee, want)}`;
    } else s += a.aliasee.vk === 'expr' ? this.operand(a.aliasee) : this.typedOperand(a.aliasee);
    if (a.partition !== '') s += `, partition "${escapeString(a.partition)}"`;
    this.w(s + '\n');
  }

  private printIFunc(i: GlobalIFunc): void {
    let s = `${this.globalRef(i)} = ${LINKAGE_PREFIX[i.linkage] ?? ''}${this.dsoLocal(i)}`;
    if (i.visibility !== 'default') s += i.visibility + ' ';
    s += `ifunc ${this.type(i.valueType)}, ${this.typedOperand(i.resolver)}`;
    if (i.partition !== '') s += `, partition "${escapeString(i.partition)}"`;
    this.w(s + '\n');
  }

  private attachmentsText(list: readonly Attachment[] | null, sep: string): string {
    if (list === null || list.length === 0) return '';
    let s = '';
    for (const a of sortedAttachments(list)) s += `${sep}!${this.kindIdentifier(a.kind)} ${this.mdRef(a.node)}`;
    return s;
  }

  /** An instruction's `, !kind !N` list, written directly (most loads and stores have one). */
  private wAttachments(list: readonly Attachment[], sep = ', !'): void {
    const sorted = sortedAttachments(list);
    for (let i = 0; i < sorted.length; i++) {
      const a = sorted[i]!;
      this.w(sep);
      this.w(this.kindIdentifier(a.kind));
      this.ch(32);
      this.wMDRef(a.node);
    }
  }

  /** `mdRef`, with a numbered node's `!N` written without making its string. */
  private wMDRef(node: Metadata): void {
    if ((node.mk === 'tuple' || node.mk === 'di') && this.recording === undefined && this.slotsPending === undefined) {
      const slot = this.mdSlots.get(node);
      if (slot !== undefined) {
        this.ch(33);
        this.num(slot);
        return;
      }
    }
    this.w(this.mdRef(node));
  }

  /** `tbaa` for the kind of `!tbaa`, escaped as LLVM prints it; one string per kind. */
  private kindIdentifier(kind: number): string {
    let text = this.kindIdentifiers[kind];
    if (text === undefined) {
      text = metadataIdentifier(this.m.context.md.kinds.name(kind));
      this.kindIdentifiers[kind] = text;
    }
    return text;
  }

  private attrSetText(set: AttributeSet, inGroup = false): string {
    const cache = this.cache;
    if (cache === undefined || !this.cacheable) {
      // a call's parameter attributes (`noundef`, `align 4`) repeat on every call: each text once
      // per print (a type's text, `byval(%0)`, does not change within one)
      if (inGroup) return this.attrSetTextOf(set, true);
      let text = this.paramAttrTexts.get(set);
      if (text === undefined) {
        text = this.attrSetTextOf(set, false);
        this.paramAttrTexts.set(set, text);
      }
      return text;
    }
    const texts = this.cachedAttrTexts(cache, set);
    const slot = inGroup ? 1 : 0;
    return (texts[slot] ??= this.attrSetTextOf(set, inGroup));
  }

  private cachedAttrTexts(cache: PrintCache, set: AttributeSet): [string | undefined, string | undefined, string | undefined] {
    let texts = cache.attrTexts.get(set);
    if (texts === undefined) {
      texts = [undefined, undefined, undefined];
      cache.attrTexts.set(set, texts);
    }
    return texts;
  }

  /**
   * The `; Function Attrs: ...` line of a function's attribute set ('' when it has only string
   * attributes); functions share a few sets, so each text is made once per print or cache.
   */
  private functionAttrsComment(set: AttributeSet): string {
    const cache = this.cache;
    if (cache !== undefined && this.cacheable) return (this.cachedAttrTexts(cache, set)[2] ??= this.functionAttrsCommentOf(set));
    let text = this.fnAttrComments.get(set);
    if (text === undefined) {
      text = this.functionAttrsCommentOf(set);
      this.fnAttrComments.set(set, text);
    }
    return text;
  }

  private functionAttrsCommentOf(set: AttributeSet): string {
    const nonString = set.attributes.filter((a) => a.kind !== 'string');
    return nonString.length === 0 ? '' : `; Function Attrs: ${nonString.map((a) => formatAttribute(a, (t) => this.type(t))).join(' ')}\n`;
  }

  private attrSetTextOf(set: AttributeSet, inGroup: boolean): string {
    const typeText = (t: Type): string => this.type(t);
    return set.attributes.map((a) => formatAttribute(a, typeText, inGroup)).join(' ');
  }

  private printFunction(f: IRFunction): void {
    const cache = this.cache;
    // finding types during the print: a function whose list the cache keeps adds that, another is walked with its slots
    let finder = this.deferred;
    if (finder !== undefined && cache !== undefined) {
      const list = knownRoot(cache, f);
      if (list !== undefined) {
        finder.addStructs(list);
        this.checkDeferred();
        finder = undefined;
      }
    }
    if (cache === undefined || !this.cacheable) {
      this.incorporateFunction(f, finder);
      this.printFunctionText(f);
      this.slotsFunction = undefined;
      if (this.capture !== undefined) this.captureOperands(f);
      return;
    }
    let template = cache.templates.get(f);
    if (template === undefined && !cache.seen.has(f)) {
      // keep templates only for functions printed more than once (shared between images)
      cache.seen.add(f);
      this.incorporateFunction(f, finder);
      this.printFunctionText(f);
      this.slotsFunction = undefined;
      return;
    }
    if (finder !== undefined) {
      finder.incFunction(f);
      this.checkDeferred();
    }
    if (template === undefined) {
      // print once into a private buffer with holes, then keep the pieces
      this.incorporateFunctionLocals(f);
      const saved = { out: this.out, n: this.n, sink: this.sink, scratchOf: this.scratchOf, held: this.held };
      const chunks: Uint8Array[] = [];
      this.sink = (c) => chunks.push(Buffer.from(c));
      this.out = Buffer.allocUnsafe(FIRST_CHUNK);
      this.n = 0;
      this.scratchOf = undefined;
      this.held = undefined;
      this.recording = [];
      try {
        this.printFunctionText(f);
        this.flush(true);
      } finally {
        const holes = this.recording;
        this.recording = undefined;
        this.out = saved.out;
        this.n = saved.n;
        this.sink = saved.sink;
        this.scratchOf = saved.scratchOf;
        this.held = saved.held;
        template = toTemplate(Buffer.concat(chunks), holes);
      }
      cache.templates.set(f, template);
    }
    // Number the holes in text order: the order LLVM's SlotTracker numbers them in.
    const { segments, holes } = template;
    for (let i = 0; i < holes.length; i++) {
      const hole = holes[i]!;
      if (!(hole instanceof AttributeSet)) this.mdSlot(hole);
    }
    for (let i = 0; i < holes.length; i++) {
      this.wBytes(segments[i]!);
      const hole = holes[i]!;
      if (hole instanceof AttributeSet) {
        this.ch(35);
        this.num(this.attrSlot(hole));
      } else {
        this.ch(33);
        this.num(this.mdSlots.get(hole)!);
      }
    }
    this.wBytes(segments[holes.length]!);
  }

  /** Holes stand only for metadata and attribute numbers; other per-module numbers disable the cache. */
  private get cacheable(): boolean {
    return this.numberedTypes.size === 0 && this.globalSlots.size === 0;
  }

  private wBytes(bytes: Buffer): void {
    if (this.n + bytes.length > this.out.length) this.spill(bytes.length);
    bytes.copy(this.out, this.n);
    this.n += bytes.length;
  }

  private printFunctionText(f: IRFunction): void {
    this.currentFunction = f;
    const attrs = this.attrList(f.attributes);
    if (!attrs.fn.isEmpty) this.w(this.functionAttrsComment(attrs.fn));
    let s: string;
    if (f.isDeclaration) s = 'declare' + this.attachmentsText(f.attachments, ' ') + ' ';
    else s = 'define ';
    s += this.commonPrefix(f);
    if (f.callingConv !== 'ccc') s += f.callingConv + ' ';
    if (!attrs.ret.isEmpty) s += this.attrSetText(attrs.ret) + ' ';
    s += this.type(f.returnType);
    this.w(s);
    this.ch(32);
    // the name written as it is checked (mangled names are long)
    if (f.name !== '' && !this.typed15) this.wName(64, f.name);
    else this.w(this.globalRef(f));
    this.ch(40);
    // parameters written directly: a function's header is otherwise a dozen short strings
    const paramTypes = this.typed15 ? typedFunctionType(this.m.context, f.functionType, f.attributes, f.isDeclaration ? f.name : undefined).params : f.functionType.params;
    const count = f.isDeclaration ? paramTypes.length : f.args.length;
    if (!f.isDeclaration && this.typed15) this.typedState = new TypedFunctionState(f, paramTypes);
    for (let i = 0; i < count; i++) {
      if (i > 0) this.w(', ');
      const pa = attrs.param(i);
      if (f.isDeclaration) this.w(this.type(paramTypes[i]!));
      else this.w(this.type(paramTypes[i] ?? f.args[i]!.type));
      if (!pa.isEmpty) {
        this.ch(32);
        this.w(this.attrSetText(pa));
      }
      if (!f.isDeclaration) {
        const a = f.args[i]!;
        this.ch(32);
        if (a.name !== '') this.wName(37, a.name);
        else {
          const slot = this.localSlots.get(a);
          this.ch(37);
          if (slot === undefined) this.w('<badref>');
          else this.num(slot);
        }
      }
    }
    if (f.functionType.varArgs) this.w(count > 0 ? ', ...' : '...');
    s = ')';
    if (f.unnamedAddr !== 'none') s += ' ' + f.unnamedAddr;
    if (f.addressSpace !== 0 || this.m.layout.programAddressSpace !== 0) s += ` addrspace(${f.addressSpace})`;
    if (!attrs.fn.isEmpty) s += ` ${this.attrNumber(attrs.fn)}`;
    if (f.section !== '') s += ` section "${escapeString(f.section)}"`;
    if (f.partition !== '') s += ` partition "${escapeString(f.partition)}"`;
    s += this.comdatSuffix(f);
    if (f.align !== undefined) s += ` align ${f.align}`;
    if (f.gc !== '') s += ` gc "${f.gc}"`;
    if (f.prefix) s += ' prefix ' + this.typedOperand(f.prefix);
    if (f.prologue) s += ' prologue ' + this.typedOperand(f.prologue);
    if (f.personality) s += ' personality ' + this.typedOperand(f.personality);
    if (f.isDeclaration) {
      this.w(s + '\n');
    } else {
      this.w(s);
      // a kernel's header carries several attachments: written as they come, like an instruction's
      if (f.attachments !== null) this.wAttachments(f.attachments, ' !');
      this.w(' {');
      const blocks = f.blocks;
      for (let i = 0; i < blocks.length; i++) this.printBlock(blocks[i]!, i === 0);
      this.w('}\n');
    }
    this.currentFunction = undefined;
    if (this.typed15) this.typedState = undefined;
  }

  private printBlock(b: BasicBlock, isEntry: boolean): void {
    // the label, written in pieces; `column` is where the `; preds` pad starts
    let column = 0;
    if (b.name !== '') {
      const name = formatName('', b.name);
      this.ch(10);
      this.w(name);
      this.ch(58);
      column = name.length + 1;
    } else if (!isEntry) {
      const slot = this.localSlots.get(b);
      this.ch(10);
      if (slot === undefined) this.w('<badref>');
      else this.num(slot);
      this.ch(58);
      column = (slot === undefined ? 8 : decimalDigits(slot)) + 1;
    }
    if (!isEntry) {
      const pad = Math.max(50 - column, 1);
      const preds = this.preds.get(b);
      this.w(PADDED_SEMICOLONS[pad]!);
      if (preds === undefined || preds.length === 0) this.w(' No predecessors!');
      else {
        this.w(' preds = ');
        for (let i = 0; i < preds.length; i++) {
          if (i > 0) this.w(', ');
          this.wLocal(preds[i]!);
        }
      }
    }
    this.ch(10);
    const insts = b.instructions;
    if (this.typed15) {
      this.printTypedInstructions(insts, isEntry);
      return;
    }
    for (let i = 0; i < insts.length; i++) {
      const inst = insts[i]!;
      if (inst.debugRecords) {
        if (this.slotsFunction !== undefined) for (const r of inst.debugRecords) this.debugRecordSlots(r);
        this.printDebugRecords(inst.debugRecords);
      }
      if (this.capture?.instructions.has(inst)) this.captureInstruction(inst);
      else this.printInstruction(inst);
      this.ch(10);
    }
  }

  private printDebugRecords(records: readonly DebugRecord[]): void {
    for (const r of records) this.w(this.llvm15 ? `  ${this.debugRecordCallText(r)}\n` : `    ${this.debugRecordText(r)}\n`);
  }

  /**
   * A block's instructions in the typed form; in the entry block the `i8*` casts of arguments and
   * of its leading allocas come after those allocas (SPIR-V wants a function's variables first).
   */
  private printTypedInstructions(insts: readonly Instruction[], isEntry: boolean): void {
    let leadingAllocas = 0;
    if (isEntry) {
      while (leadingAllocas < insts.length && insts[leadingAllocas] instanceof AllocaInst) leadingAllocas++;
      if (leadingAllocas === 0) this.printTypedArgumentCasts([]);
    }
    for (let i = 0; i < insts.length; i++) {
      const inst = insts[i]!;
      if (inst.debugRecords) this.printDebugRecords(inst.debugRecords);
      this.printTypedInstruction(inst, i < leadingAllocas);
      this.ch(10);
      if (i === leadingAllocas - 1) this.printTypedArgumentCasts(insts.slice(0, leadingAllocas));
    }
  }

  // --- direct writers for the hot path -----------------------------------------------------------

  /** `prefix` and `name` as formatName writes them; a plain name is checked while it is copied. */
  private wName(prefix: number, name: string): void {
    const len = name.length;
    if (this.n + len + 1 > this.out.length) this.spill(len + 1);
    const out = this.out;
    let n = this.n;
    out[n++] = prefix;
    for (let i = 0; i < len; i++) {
      const c = name.charCodeAt(i);
      // [-a-zA-Z._][-a-zA-Z0-9._]*, as isPlainName
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 46 || c === 45 || (c >= 48 && c <= 57 && i > 0)) out[n++] = c;
      else {
        // nothing is kept of the partial copy: `this.n` has not moved
        this.w(formatName(String.fromCharCode(prefix), name));
        return;
      }
    }
    if (len === 0) this.w(formatName(String.fromCharCode(prefix), name));
    else this.n = n;
  }

  private wLocal(v: Value): void {
    const name = (v as { name?: string }).name;
    if (name) this.wName(37, name);
    else {
      const n = this.localSlots.get(v);
      if (n === undefined) this.w('<badref>');
      else {
        this.ch(37);
        this.num(n);
      }
    }
  }

  private wOperand(v: Value): void {
    switch (v.vk) {
      case 'argument':
      case 'block':
      case 'instruction':
        this.wLocal(v);
        return;
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        if (v.name !== '') this.wName(64, v.name);
        else this.w(this.globalRef(v));
        return;
      case 'int':
        if (v.type.bits === 1) this.w(v.value === 0 ? 'false' : 'true');
        else this.num(v.value);
        return;
      default:
        this.w(this.operand(v));
    }
  }

  private wTyped(v: Value): void {
    this.w(this.type(v.type));
    this.ch(32);
    this.wOperand(v);
  }

  private debugRecordText(r: DebugRecord): string {
    const ops = r.operands.map((op) => (op === null ? 'null' : this.metadataOperand(op)));
    return `#dbg_${r.kind}(${ops.join(', ')})`;
  }

  /** A debug record as the `llvm.dbg.*` call it stands for (LLVM 15): its last operand is the `!dbg`. */
  private debugRecordCallText(r: DebugRecord): string {
    const intrinsic = DEBUG_RECORD_INTRINSICS[r.kind]!;
    const ops = r.operands.slice(0, -1).map((op) => (op === null ? 'metadata ptr null' : `metadata ${this.metadataOperand(op)}`));
    const location = r.operands[r.operands.length - 1];
    return `call void @${intrinsic.name}(${ops.join(', ')})${location ? `, !dbg ${this.metadataOperand(location)}` : ''}`;
  }

  /** Declarations of the `llvm.dbg.*` intrinsics that debug records were printed as (LLVM 15). */
  private printRecordIntrinsicDeclarations(): void {
    const kinds = new Set<string>();
    for (const f of this.m.functions) for (const b of f.blocks) for (const inst of b.instructions) if (inst.debugRecords) for (const r of inst.debugRecords) kinds.add(r.kind);
    for (const kind of ['declare', 'value', 'label']) {
      if (!kinds.has(kind)) continue;
      const { name, params } = DEBUG_RECORD_INTRINSICS[kind]!;
      if (this.m.getFunction(name) !== undefined) continue;
      this.w(`\ndeclare void @${name}(${Array.from({ length: params }, () => 'metadata').join(', ')})\n`);
    }
  }

  // --- typed pointers for LLVM 15 (see src/llvm15-typed.ts) --------------------------------------

  /** `T*` in `addressSpace`; `i8*` is the opaque pointer itself, which prints as `i8*` here. */
  private pointerTo(t: Type, addressSpace: number): Type {
    return t === this.m.context.i8 ? this.m.context.ptr(addressSpace) : this.m.context.typedPtr(t, addressSpace);
  }

  /** The type a local value has where it is defined in the typed form. */
  private naturalType(v: Value): Type {
    if (v.vk === 'argument') {
      const st = this.typedState;
      return st !== undefined && v.parent === st.fn ? (st.params[v.index] ?? v.type) : v.type;
    }
    if (v.type.kind !== 'pointer') return v.type;
    if (v instanceof AllocaInst) return this.pointerTo(v.allocatedType, v.addressSpace);
    if (v instanceof GetElementPtrInst) {
      const st = this.typedState!;
      let natural = st.gepTypes.get(v);
      if (natural === undefined) {
        const selected = gepIndexedType(v.sourceElementType, v.operands);
        natural = selected === undefined ? v.type : this.pointerTo(selected, v.type.addressSpace);
        st.gepTypes.set(v, natural);
      }
      return natural;
    }
    return v.type;
  }

  /** A constant's text and the type it has in the typed form (a global is `valueType*`, ...). */
  private naturalConstant(c: Constant): { type: Type; text: string } {
    const ctx = this.m.context;
    switch (c.vk) {
      case 'global':
      case 'alias':
        return { type: this.pointerTo(c.valueType, c.addressSpace), text: this.globalRef(c) };
      case 'function':
        return { type: ctx.typedPtr(typedFunctionType(ctx, c.functionType, c.attributes, c.isDeclaration ? c.name : undefined), c.addressSpace), text: this.globalRef(c) };
      case 'dso_local_equivalent':
      case 'no_cfi':
        return { type: isConstant(c.global) ? this.naturalConstant(c.global as Constant).type : c.type, text: this.constant(c) };
      case 'expr': {
        if (c.opcode !== 'getelementptr' || c.type.kind !== 'pointer') return { type: c.type, text: this.constant(c) };
        const e = c.extra;
        const source = e.sourceElementType!;
        const base = c.operands[0]!;
        const addressSpace = c.type.addressSpace;
        const baseType = this.pointerTo(source, addressSpace);
        const indices = c.operands.slice(1).map((o, i) => `${e.inRangeOperand === i + 1 ? 'inrange ' : ''}${this.type(o.type)} ${this.constantAs(o, o.type)}`);
        const inbounds = e.flags?.includes('inbounds') ? ' inbounds' : '';
        const text = `getelementptr${inbounds} (${this.type(source)}, ${this.type(baseType)} ${this.constantAs(base, baseType)}${indices.map((i) => `, ${i}`).join('')})`;
        const selected = gepIndexedType(source, c.operands);
        return { type: selected === undefined ? c.type : this.pointerTo(selected, addressSpace), text };
      }
      default:
        return { type: c.type, text: this.constant(c) };
    }
  }

  /** A constant written where a value of type `want` goes: cast to it when its typed form differs. */
  private constantAs(c: Constant, want: Type): string {
    if (want.kind === 'pointer' && (c.vk === 'null' || c.vk === 'undef' || c.vk === 'poison' || c.vk === 'zero')) return this.constant(c);
    const natural = this.naturalConstant(c);
    if (natural.type === want || want.kind !== 'pointer' || natural.type.kind !== 'pointer') return natural.text;
    const from = this.type(natural.type);
    const to = this.type(want);
    if (from === to) return natural.text;
    return `${natural.type.addressSpace === want.addressSpace ? 'bitcast' : 'addrspacecast'} (${from} ${natural.text} to ${to})`;
  }

  /** A value as a metadata operand: with the type it has where it is defined. */
  private naturalOperand(v: Value): string {
    if (isConstant(v)) {
      if (v.vk === 'null' || v.vk === 'undef' || v.vk === 'poison' || v.vk === 'zero') return this.typedOperand(v);
      const n = this.naturalConstant(v);
      return `${this.type(n.type)} ${n.text}`;
    }
    if (v.vk === 'argument' || v.vk === 'instruction') return `${this.type(this.naturalType(v))} ${this.localRef(v)}`;
    return this.typedOperand(v);
  }

  /** `v` where an operand of type `want` goes, after the casts that takes (written before the instruction). */
  private typedUse(v: Value, want: Type): Value {
    // the common case: an operand that is not a pointer and no constant holding one
    if (want === v.type && v.type.kind !== 'pointer' && (v.vk === 'argument' || v.vk === 'instruction' || !typeHasPointer(v.type))) return v;
    if (v.vk === 'argument' || v.vk === 'instruction') {
      const natural = this.naturalType(v);
      if (natural === want && want === v.type) return v;
      if (this.type(natural) === this.type(want)) return new TextValue(want, this.localRef(v)) as unknown as Value;
      const st = this.typedState!;
      if (this.type(want) === this.type(v.type)) {
        const cast = st.uniform.get(v);
        if (cast !== undefined) return new TextValue(want, cast) as unknown as Value;
      }
      const name = st.fresh();
      this.w(`  ${name} = bitcast ${this.type(natural)} ${this.localRef(v)} to ${this.type(want)}\n`);
      return new TextValue(want, name) as unknown as Value;
    }
    if (isConstant(v)) {
      if (want === v.type && !typeHasPointer(v.type)) return v;
      return new TextValue(want, this.constantAs(v, want)) as unknown as Value;
    }
    return v;
  }

  /** The operand types an instruction needs in the typed form (undefined: the operand's own). */
  private typedOperandTypes(inst: Instruction): readonly (Type | undefined)[] {
    const ops = inst.operands;
    const space = (v: Value): number => (v.type.kind === 'pointer' ? v.type.addressSpace : 0);
    switch (inst.opcode) {
      case 'load':
        return [this.pointerTo(inst.type, space(ops[0]!))];
      case 'store':
        return [undefined, this.pointerTo(ops[0]!.type, space(ops[1]!))];
      case 'cmpxchg':
      case 'atomicrmw':
        return [this.pointerTo(ops[1]!.type, space(ops[0]!))];
      case 'getelementptr':
        return [this.pointerTo((inst as GetElementPtrInst).sourceElementType, space(ops[0]!))];
      case 'call':
      case 'invoke':
      case 'callbr': {
        const c = inst as CallInst;
        const fnType = this.typedCallType(c);
        const callee = ops[0]!;
        return [callee.vk === 'asm' ? undefined : this.m.context.typedPtr(fnType, space(callee)), ...fnType.params];
      }
      default:
        return NO_TYPES;
    }
  }

  /** A call's function type in the typed form: its declared callee's, mangled pointees included, when they agree. */
  private typedCallType(c: CallInst): FunctionType {
    const callee = c.operands[0]!;
    const declared = callee.vk === 'function' && callee.isDeclaration && callee.functionType === c.functionType ? callee.name : undefined;
    return typedFunctionType(this.m.context, c.functionType, c.attributes, declared);
  }

  /** One instruction in the typed form: the casts its operands need, itself, and its own `i8*` cast. */
  private printTypedInstruction(inst: Instruction, deferCast = false): void {
    const wanted = this.typedOperandTypes(inst);
    const ops = inst.operands;
    let shown = inst;
    let typedOps: Value[] | undefined;
    for (let i = 0; i < ops.length; i++) {
      const v = ops[i]!;
      const u = this.typedUse(v, wanted[i] ?? v.type);
      if (u !== v) (typedOps ??= ops.slice())[i] = u;
    }
    const isCall = inst instanceof CallInst;
    const callType = isCall ? this.typedCallType(inst) : undefined;
    const bundles = isCall && inst.bundles.length > 0 ? inst.bundles.map((b) => ({ ...b, inputs: b.inputs.map((v) => this.typedUse(v, v.type)) })) : undefined;
    const bundlesChange = bundles !== undefined && bundles.some((b, i) => b.inputs.some((v, j) => v !== (inst as CallInst).bundles[i]!.inputs[j]));
    if (typedOps !== undefined || (isCall && (callType !== inst.functionType || bundlesChange))) {
      shown = Object.create(inst) as Instruction;
      shown.operands = typedOps ?? ops;
      if (isCall) {
        const s = shown as CallInst;
        s.functionType = callType!;
        if (bundlesChange) s.bundles = bundles!;
      }
      const slot = this.localSlots.get(inst);
      if (slot !== undefined) this.localSlots.set(shown, slot);
    }
    this.printInstruction(shown);
    if (deferCast) return;
    const natural = this.naturalType(inst);
    if (natural !== inst.type && this.type(natural) !== this.type(inst.type)) {
      const name = this.typedState!.fresh();
      this.w(`\n  ${name} = bitcast ${this.type(natural)} ${this.localRef(inst)} to ${this.type(inst.type)}`);
      this.typedState!.uniform.set(inst, name);
    }
  }

  /**
   * In the entry block, after its leading allocas: the `i8*` casts of the arguments typed `T*`
   * (byval and the like) and of those allocas.
   */
  private printTypedArgumentCasts(allocas: readonly Instruction[]): void {
    const st = this.typedState!;
    const cast = (v: Value, natural: Type): void => {
      if (natural === v.type || this.type(natural) === this.type(v.type)) return;
      const name = st.fresh();
      this.w(`  ${name} = bitcast ${this.type(natural)} ${this.localRef(v)} to ${this.type(v.type)}\n`);
      st.uniform.set(v, name);
    };
    st.fn.args.forEach((a, i) => cast(a, st.params[i] ?? a.type));
    for (const a of allocas) cast(a, this.naturalType(a));
  }

  // --- instructions ------------------------------------------------------------------------------

  private localRef(v: Value): string {
    if ((v as { name?: string }).name) return formatName('%', (v as { name: string }).name);
    const n = this.localSlots.get(v);
    return n === undefined ? '<badref>' : `%${n}`;
  }

  private printInstruction(inst: Instruction): void {
    this.ch(32);
    this.ch(32);
    if (inst.name !== '') {
      this.wName(37, inst.name);
      this.w(' = ');
    } else if (inst.type.kind !== 'void') {
      this.wLocal(inst);
      this.w(' = ');
    }
    const op = inst.opcode;
    const flags = inst.flags;
    if (op === 'call') {
      if (flags & Flag.MUSTTAIL) this.w('musttail ');
      else if (flags & Flag.TAIL) this.w('tail ');
      else if (flags & Flag.NOTAIL) this.w('notail ');
    }
    this.w(op);
    const isMemory = inst instanceof MemoryInst;
    if (isMemory) {
      if ((op === 'load' || op === 'store') && flags & Flag.ATOMIC) this.w(' atomic');
      if (op === 'cmpxchg' && flags & Flag.WEAK) this.w(' weak');
      if (flags & Flag.VOLATILE) this.w(' volatile');
    }
    if (flags !== 0) this.w(optimizationFlags(op, this.llvm15 ? flagsForLLVM15(op, flags) : flags));
    if (inst instanceof CmpInst) {
      this.ch(32);
      this.w(inst.predicate);
    }
    if (isMemory && op === 'atomicrmw') {
      this.ch(32);
      this.w((inst as MemoryInst).rmwOperation);
    }
    const ops = inst.operands;
    switch (op) {
      case 'br':
        this.ch(32);
        this.wTyped(ops[0]!);
        if (ops.length === 3) {
          this.w(', ');
          this.wTyped(ops[1]!);
          this.w(', ');
          this.wTyped(ops[2]!);
        }
        break;
      case 'switch': {
        this.ch(32);
        this.wTyped(ops[0]!);
        this.w(', ');
        this.wTyped(ops[1]!);
        this.w(' [');
        for (let i = 2; i < ops.length; i += 2) {
          this.w('\n    ');
          this.wTyped(ops[i]!);
          this.w(', ');
          this.wTyped(ops[i + 1]!);
        }
        this.w('\n  ]');
        break;
      }
      case 'indirectbr':
        this.ch(32);
        this.wTyped(ops[0]!);
        this.w(', [');
        this.wList(ops, 1, ops.length);
        this.ch(93);
        break;
      case 'phi': {
        this.ch(32);
        this.w(this.type(inst.type));
        this.ch(32);
        for (let i = 0; i < ops.length; i += 2) {
          if (i > 0) this.w(', ');
          this.w('[ ');
          this.wOperand(ops[i]!);
          this.w(', ');
          this.wOperand(ops[i + 1]!);
          this.w(' ]');
        }
        break;
      }
      case 'extractvalue':
      case 'insertvalue': {
        this.ch(32);
        this.wList(ops, 0, ops.length);
        for (const i of (inst as AggregateInst).indices) {
          this.w(', ');
          this.num(i);
        }
        break;
      }
      case 'landingpad': {
        const lp = inst as LandingPadInst;
        this.ch(32);
        this.w(this.type(inst.type));
        const cleanup = (flags & Flag.CLEANUP) !== 0;
        if (cleanup || ops.length > 0) this.ch(10);
        if (cleanup) this.w('          cleanup');
        for (let i = 0; i < ops.length; i++) {
          if (i !== 0 || cleanup) this.ch(10);
          this.w(`          ${lp.clauseKinds[i]} `);
          this.wTyped(ops[i]!);
        }
        break;
      }
      case 'catchswitch': {
        const cs = inst as CatchSwitchInst;
        this.w(' within ');
        this.wOperand(ops[0]!);
        this.w(' [');
        this.wList(ops, 1, 1 + cs.handlerCount);
        this.w('] unwind ');
        if (cs.hasUnwindDest) this.wTyped(ops[ops.length - 1]!);
        else this.w('to caller');
        break;
      }
      case 'catchpad':
      case 'cleanuppad':
        this.w(' within ');
        this.wOperand(ops[0]!);
        this.w(' [');
        this.wList(ops, 1, ops.length);
        this.ch(93);
        break;
      case 'catchret':
        this.w(' from ');
        this.wOperand(ops[0]!);
        this.w(' to ');
        this.wTyped(ops[1]!);
        break;
      case 'cleanupret':
        this.w(' from ');
        this.wOperand(ops[0]!);
        this.w(' unwind ');
        if (ops.length > 1) this.wTyped(ops[1]!);
        else this.w('to caller');
        break;
      case 'ret':
        if (ops.length === 0) this.w(' void');
        else {
          this.ch(32);
          this.wTyped(ops[0]!);
        }
        break;
      case 'call':
      case 'invoke':
      case 'callbr':
        this.printCall(inst as CallInst);
        break;
      case 'alloca': {
        const a = inst as AllocaInst;
        this.ch(32);
        if (flags & Flag.INALLOCA) this.w('inalloca ');
        if (flags & Flag.SWIFTERROR) this.w('swifterror ');
        this.w(this.type(a.allocatedType));
        const size = ops[0]!;
        const isOne = size.vk === 'int' && size.value === 1;
        if (!isOne || size.type.kind !== 'integer' || size.type.bits !== 32) {
          this.w(', ');
          this.wTyped(size);
        }
        if (a.align !== undefined) {
          this.w(', align ');
          this.num(a.align);
        }
        if (a.addressSpace !== 0) this.w(`, addrspace(${a.addressSpace})`);
        break;
      }
      case 'va_arg':
        this.ch(32);
        this.wTyped(ops[0]!);
        this.w(', ');
        this.w(this.type(inst.type));
        break;
      case 'shufflevector': {
        this.ch(32);
        this.wTyped(ops[0]!);
        this.w(', ');
        this.wTyped(ops[1]!);
        this.w(this.shuffleMaskText(inst.type, (inst as ShuffleVectorInst).mask));
        break;
      }
      default: {
        if (CAST_OPCODES.has(op)) {
          this.ch(32);
          this.wTyped(ops[0]!);
          this.w(' to ');
          this.w(this.type(inst.type));
          break;
        }
        if (ops.length === 0) break;
        if (inst instanceof GetElementPtrInst) {
          this.ch(32);
          this.w(this.type(inst.sourceElementType));
          this.ch(44);
        } else if (op === 'load') {
          this.ch(32);
          this.w(this.type(inst.type));
          this.ch(44);
        }
        let printAll = op === 'select' || op === 'store' || op === 'cmpxchg' || op === 'atomicrmw';
        if (!printAll) {
          const t0 = ops[0]!.type;
          for (let i = 1; i < ops.length; i++) if (ops[i]!.type !== t0) printAll = true;
        }
        if (!printAll) {
          this.ch(32);
          this.w(this.type(ops[0]!.type));
        }
        this.ch(32);
        for (let i = 0; i < ops.length; i++) {
          if (i > 0) this.w(', ');
          if (printAll) this.wTyped(ops[i]!);
          else this.wOperand(ops[i]!);
        }
      }
    }
    if (isMemory) {
      const mi = inst as MemoryInst;
      const scope = mi.syncScope !== '' ? ` syncscope("${escapeString(mi.syncScope)}")` : '';
      if (op === 'load' || op === 'store') {
        if (flags & Flag.ATOMIC) this.w(`${scope} ${mi.ordering}`);
        if (mi.align !== undefined) {
          this.w(', align ');
          this.num(mi.align);
        }
      } else if (op === 'cmpxchg') {
        this.w(`${scope} ${mi.ordering} ${mi.failureOrdering}, align ${mi.align}`);
      } else if (op === 'atomicrmw') {
        this.w(`${scope} ${mi.ordering}, align ${mi.align}`);
      } else if (op === 'fence') {
        this.w(`${scope} ${mi.ordering}`);
      }
    }
    const attachments = inst.attachments;
    if (attachments !== null) {
      if (this.slotsFunction !== undefined) this.attachmentSlots(attachments);
      if (attachments.length > 0 && this.printAttachments) this.wAttachments(attachments);
    }
  }

  /** Typed operands `from..to` separated by `, `. */
  private wList(ops: readonly Value[], from: number, to: number): void {
    for (let i = from; i < to; i++) {
      if (i > from) this.w(', ');
      this.wTyped(ops[i]!);
    }
  }

  private shuffleMaskText(t: Type, mask: readonly number[]): string {
    const n = mask.length;
    const scalable = t.kind === 'vector' && t.scalable;
    const maskType = `<${scalable ? 'vscale x ' : ''}${n} x i32>`;
    if (mask.every((m) => m === 0)) return `, ${maskType} zeroinitializer`;
    // LLVM 16 spells undefined lanes `undef` (LLVM 17+ says `poison`)
    if (mask.every((m) => m === -1)) return `, ${maskType} undef`;
    return `, ${maskType} <${mask.map((m) => (m === -1 ? 'i32 undef' : `i32 ${m}`)).join(', ')}>`;
  }

  private printCall(c: CallInst): void {
    // the metadata operands SlotTracker numbers (its attribute group is numbered where it is written)
    if (this.slotsFunction !== undefined && c.calledFunction?.isIntrinsic) this.intrinsicOperandSlots(c);
    if (c.callingConv !== 'ccc') {
      this.ch(32);
      this.w(c.callingConv);
    }
    const attrs = this.attrList(c.attributes);
    if (!attrs.ret.isEmpty) {
      this.ch(32);
      this.w(this.attrSetText(attrs.ret));
    }
    const callee = c.callee;
    const fnType = c.functionType;
    // addrspace(N) only when it differs from what the parser would assume
    const calleeAS = callee.type.kind === 'pointer' ? callee.type.addressSpace : 0;
    const programAS = this.m.layout.programAddressSpace;
    if (callee.vk !== 'function' ? calleeAS !== programAS : callee.addressSpace !== programAS) this.w(` addrspace(${calleeAS})`);
    this.ch(32);
    this.w(this.type(fnType.varArgs ? fnType : fnType.returnType));
    this.ch(32);
    this.wOperand(callee);
    this.ch(40);
    const n = c.argCount;
    const ops = c.operands;
    for (let i = 0; i < n; i++) {
      if (i > 0) this.w(', ');
      const a = ops[1 + i]!;
      const pa = attrs.param(i);
      this.w(this.type(a.type));
      this.ch(32);
      if (!pa.isEmpty) {
        this.w(this.attrSetText(pa));
        this.ch(32);
      }
      this.wOperand(a);
    }
    if (c.opcode === 'call' && c.flags & Flag.MUSTTAIL && this.currentFunction?.functionType.varArgs) this.w(n > 0 ? ', ...' : '...');
    this.ch(41);
    if (!attrs.fn.isEmpty) {
      this.ch(32);
      if (this.recording === undefined && this.slotsPending === undefined) {
        this.ch(35);
        this.num(this.attrSlot(attrs.fn));
      } else this.w(this.attrNumber(attrs.fn));
    }
    if (c.bundles.length > 0) this.w(this.bundlesText(c.bundles));
    if (c.opcode === 'invoke') {
      this.w('\n          to ');
      this.wTyped(ops[ops.length - 2]!);
      this.w(' unwind ');
      this.wTyped(ops[ops.length - 1]!);
    } else if (c.opcode === 'callbr') {
      const first = ops.length - c.indirectDestCount;
      this.w('\n          to ');
      this.wTyped(ops[first - 1]!);
      this.w(' [');
      this.wList(ops, first, ops.length);
      this.ch(93);
    }
  }

  private bundlesText(list: readonly OperandBundle[]): string {
    const bundles = list.map((b) => `"${escapeString(b.tag)}"(${this.typedOperandsText(b.inputs)})`);
    return ` [ ${bundles.join(', ')} ]`;
  }

  // --- operands and constants --------------------------------------------------------------------

  private typedOperand(v: Value): string {
    return `${this.type(v.type)} ${this.operand(v)}`;
  }

  /** A global's name as written in `blockaddress(@f, ...)` and the like (never cast). */
  private plainRef(v: Value): string {
    return isGlobalValue(v) ? this.globalRef(v) : this.operand(v);
  }

  /** `WriteAsOperandInternal` for values. */
  private operand(v: Value): string {
    switch (v.vk) {
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        return this.typed15 ? this.constantAs(v, v.type) : this.globalRef(v);
      case 'argument':
      case 'block':
      case 'instruction':
        return this.localRef(v);
      case 'metadata':
        return this.metadataOperand(v.metadata);
      case 'asm': {
        let s = 'asm ';
        if (v.flags.sideEffect) s += 'sideeffect ';
        if (v.flags.alignStack) s += 'alignstack ';
        if (v.flags.intelDialect) s += 'inteldialect ';
        if (v.flags.canThrow) s += 'unwind ';
        return `${s}"${escapeString(v.asm)}", "${escapeString(v.constraints)}"`;
      }
      default:
        // typed form: an operand already written (text15), a constant with its casts
        if (this.typed15) return (v as unknown as TextValue).vk === 'text15' ? (v as unknown as TextValue).text : this.constantAs(v, v.type);
        return this.constant(v);
    }
  }

  private constant(c: Constant): string {
    switch (c.vk) {
      case 'int':
        return c.type.bits === 1 ? (c.value === 0 ? 'false' : 'true') : String(c.value);
      case 'fp':
        return (c.printed ??= formatFP((c.type as { fp: import('../model/types.js').FloatKind }).fp, c.bits));
      case 'null':
        return 'null';
      case 'zero':
        return 'zeroinitializer';
      case 'undef':
        return 'undef';
      case 'poison':
        return 'poison';
      case 'none':
        return c.type.kind === 'target' ? 'zeroinitializer' : 'none';
      case 'string':
        return `c"${escapeString(c.bytes)}"`;
      case 'array':
        return `[${this.elementsText(c.type as { element: Type }, c.elements)}]`;
      case 'vector':
        return `<${this.elementsText(c.type as { element: Type }, c.elements)}>`;
      case 'struct': {
        const packed = c.type.kind === 'struct' && c.type.packed;
        const body = c.fields.length === 0 ? '{}' : `{ ${this.typedOperandsText(c.fields)} }`;
        return packed ? `<${body}>` : body;
      }
      case 'blockaddress': {
        const fn = c.fn;
        const block = c.block;
        let blockText: string;
        if (typeof block === 'string') blockText = '<badref>';
        else if (block.name !== '') blockText = formatName('%', block.name);
        else {
          const slots = this.functionLocalSlots(block.parent);
          blockText = `%${slots.get(block) ?? '<badref>'}`;
        }
        return `blockaddress(${this.plainRef(fn)}, ${blockText})`;
      }
      case 'dso_local_equivalent':
        return `dso_local_equivalent ${this.plainRef(c.global)}`;
      case 'no_cfi':
        return `no_cfi ${this.plainRef(c.global)}`;
      case 'expr':
        return this.exprText(c);
      default:
        return this.globalRef(c);
    }
  }

  /** A constant array's or vector's elements, `T v, T w`. */
  private elementsText(type: { element: Type }, elements: readonly Value[]): string {
    const et = this.type(type.element);
    let s = '';
    for (let i = 0; i < elements.length; i++) s += `${i > 0 ? ', ' : ''}${et} ${this.operand(elements[i]!)}`;
    return s;
  }

  private typedOperandsText(values: readonly Value[]): string {
    let s = '';
    for (let i = 0; i < values.length; i++) s += (i > 0 ? ', ' : '') + this.typedOperand(values[i]!);
    return s;
  }

  private exprText(c: Extract<Constant, { vk: 'expr' }>): string {
    const e = c.extra;
    let s = c.opcode;
    // LLVM 15 has neither GEP nuw/nusw nor LLVM 19's inrange(a, b): promises, left out
    if (e.flags) for (const f of e.flags) if (!(this.llvm15 && c.opcode === 'getelementptr' && (f === 'nuw' || f === 'nusw'))) s += ' ' + f;
    if (e.inRange && !this.llvm15) s += ` inrange(${e.inRange[0]}, ${e.inRange[1]})`;
    if (e.predicate) s += ' ' + e.predicate;
    s += ' (';
    if (e.sourceElementType) s += this.type(e.sourceElementType) + ', ';
    s += c.operands.map((o, i) => (e.inRangeOperand === i ? 'inrange ' : '') + this.typedOperand(o)).join(', ');
    if (CAST_OPCODES.has(c.opcode)) s += ' to ' + this.type(c.type);
    if (c.opcode === 'shufflevector' && e.mask) s += this.shuffleMaskText(c.type, e.mask);
    if (e.indices) s += e.indices.map((i) => `, ${i}`).join('');
    return s + ')';
  }

  private functionLocalSlots(f: IRFunction): Map<Value, number> {
    if (f === this.currentFunction) return this.localSlots;
    const locals = new Map<Value, number>();
    let next = 0;
    for (const a of f.args) if (a.name === '') locals.set(a, next++);
    for (const b of f.blocks) {
      if (b.name === '') locals.set(b, next++);
      for (const inst of b.instructions) if (inst.name === '' && inst.type.kind !== 'void') locals.set(inst, next++);
    }
    return locals;
  }

  // --- metadata ----------------------------------------------------------------------------------

  private mdRef(n: Metadata): string {
    if (n.mk === 'expr') return this.expressionText(n);
    if (n.mk === 'tuple' || n.mk === 'di') {
      if (this.slotsPending !== undefined) this.catchUpSlots();
      if (this.slotsFunction !== undefined && !this.mdSlots.has(n)) this.finishFunctionSlots();
      if (this.recording === undefined && !this.mdSlots.has(n)) return n.mk === 'di' && n.className === 'DILocation' ? this.mdBody(n) : '<badref>';
      return this.mdNumber(n);
    }
    return this.metadataOperand(n);
  }

  /** Metadata written as an operand (`WriteAsOperandInternal` for metadata). */
  private metadataOperand(md: Metadata): string {
    switch (md.mk) {
      case 'expr':
        return this.expressionText(md);
      case 'arglist':
        return this.argListText(md.args);
      case 'string':
        return `!"${escapeString(md.value)}"`;
      case 'value':
        return this.typed15 ? this.naturalOperand(md.value) : this.typedOperand(md.value);
      default:
        return this.mdRef(md);
    }
  }

  private argListText(args: readonly { readonly value: Value }[]): string {
    return `!DIArgList(${args.map((a) => (this.typed15 ? this.naturalOperand(a.value) : this.typedOperand(a.value))).join(', ')})`;
  }

  private expressionText(e: DIExpression): string {
    return `!DIExpression(${e.elements.map(String).join(', ')})`;
  }

  /** A node's body (`!{...}`, `distinct !DI...(...)`); from the print cache when it has one. */
  private mdBody(n: MDNode): string {
    const cache = this.cache;
    if (cache === undefined || this.recording !== undefined || !this.cacheable) return this.mdBodyUnknownRefs(n);
    let template = cache.mdTemplates.get(n);
    if (template === undefined) {
      if (!cache.mdSeen.has(n)) {
        cache.mdSeen.add(n);
        return this.mdBodyUnknownRefs(n);
      }
      const holes: MDNode[] = [];
      this.recording = holes;
      let text: string;
      try {
        text = this.mdBodyText(n);
      } finally {
        this.recording = undefined;
      }
      template = toMDTemplate(text, holes);
      cache.mdTemplates.set(n, template);
    }
    const { segments, holes } = template;
    let out = segments[0]!;
    let maxRef = -1;
    for (let i = 0; i < holes.length; i++) {
      const slot = this.mdSlots.get(holes[i]!);
      // an operand this module did not number prints as <badref> (or inline): only the full path knows
      if (slot === undefined) return this.mdBodyUnknownRefs(n);
      if (slot > maxRef) maxRef = slot;
      out += `!${slot}${segments[i + 1]!}`;
    }
    this.bodyMaxRef = maxRef;
    return out;
  }

  /** `mdBody` written out: a template's pieces and numbers go straight to the buffer. */
  private wMDBody(n: MDNode): void {
    const cache = this.cache;
    const template = cache !== undefined && this.recording === undefined && this.cacheable ? cache.mdTemplates.get(n) : undefined;
    if (template !== undefined) {
      const { segments, holes } = template;
      const slots = this.mdSlots;
      let numbered = true;
      for (let i = 0; i < holes.length; i++) {
        if (!slots.has(holes[i]!)) {
          numbered = false;
          break;
        }
      }
      if (numbered) {
        this.w(segments[0]!);
        for (let i = 0; i < holes.length; i++) {
          this.ch(33);
          this.num(slots.get(holes[i]!)!);
          this.w(segments[i + 1]!);
        }
        return;
      }
    }
    this.w(this.mdBody(n));
  }

  /** `mdBodyText`, for a body whose `!N` are not known afterwards (an inline DILocation may have been filled in). */
  private mdBodyUnknownRefs(n: MDNode): string {
    const text = this.mdBodyText(n);
    this.bodyMaxRef = MAX_REF_UNKNOWN;
    return text;
  }

  private mdBodyText(n: MDNode): string {
    const prefix = n.distinct ? 'distinct ' : '';
    if (n.mk === 'tuple') {
      const ops = n.operands.map((op) => (op === null ? 'null' : op.mk === 'value' ? this.typedOperand(op.value) : this.metadataOperand(op)));
      return `${prefix}!{${ops.join(', ')}}`;
    }
    return prefix + printDINode(n, (md) => (md === null ? 'null' : this.metadataOperand(md)), this.llvm15 ? dwarfNameForLLVM15 : undefined);
  }
}

/** Printed attachment kind names by kind id, per registry (a kind's id and name never change). */
const KIND_IDENTIFIERS = new WeakMap<MetadataKinds, string[]>();

function kindIdentifiersOf(kinds: MetadataKinds): string[] {
  let texts = KIND_IDENTIFIERS.get(kinds);
  if (texts === undefined) {
    texts = [];
    KIND_IDENTIFIERS.set(kinds, texts);
  }
  return texts;
}

const CAST_OPCODES: ReadonlySet<string> = new Set([
  'trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast',
]);

/** `WriteOptimizationInfo`: fast-math flags, nuw/nsw, exact, inbounds, disjoint, nneg. */
/** Texts of {@link optimizationFlags} by flags: of GEPs, and of other instructions. */
const GEP_FLAG_TEXTS = new Map<number, string>();
const FLAG_TEXTS = new Map<number, string>();

function optimizationFlags(op: string, flags: number): string {
  if (flags === 0) return '';
  const texts = op === 'getelementptr' ? GEP_FLAG_TEXTS : FLAG_TEXTS;
  let text = texts.get(flags);
  if (text === undefined) {
    text = optimizationFlagsText(op, flags);
    texts.set(flags, text);
  }
  return text;
}

function optimizationFlagsText(op: string, flags: number): string {
  let s = '';
  const fmf = flags & FAST_MATH_MASK;
  if (fmf !== 0) {
    if (fmf === FAST_MATH_MASK) s += ' fast';
    else {
      if (fmf & Flag.REASSOC) s += ' reassoc';
      if (fmf & Flag.NNAN) s += ' nnan';
      if (fmf & Flag.NINF) s += ' ninf';
      if (fmf & Flag.NSZ) s += ' nsz';
      if (fmf & Flag.ARCP) s += ' arcp';
      if (fmf & Flag.CONTRACT) s += ' contract';
      if (fmf & Flag.AFN) s += ' afn';
    }
  }
  if (op === 'getelementptr') {
    if (flags & Flag.INBOUNDS) s += ' inbounds';
    else if (flags & Flag.NUSW) s += ' nusw';
    if (flags & Flag.NUW) s += ' nuw';
    return s;
  }
  if (flags & Flag.DISJOINT) s += ' disjoint';
  if (flags & Flag.NNEG) s += ' nneg';
  if (flags & Flag.NUW) s += ' nuw';
  if (flags & Flag.NSW) s += ' nsw';
  if (flags & Flag.EXACT) s += ' exact';
  if (flags & Flag.SAMESIGN) s += ' samesign';
  return s;
}

const NO_PREDECESSORS: ReadonlyMap<BasicBlock, BasicBlock[]> = new Map();

function reverseInPlace(list: BasicBlock[]): void {
  list.reverse();
}

/** Each block's predecessors as a block's `; preds =` comment lists them: terminator uses in reverse textual order. */
function predecessorsInPrintOrder(f: IRFunction): ReadonlyMap<BasicBlock, BasicBlock[]> {
  // only blocks after the entry block print the comment
  if (f.blocks.length < 2) return NO_PREDECESSORS;
  const preds = predecessorEdges(f);
  for (const list of preds.values()) list.reverse();
  return preds;
}

/** The number of decimal digits of a non-negative integer. */
function decimalDigits(v: number): number {
  let digits = 1;
  for (let p = 10; p <= v; p *= 10) digits++;
  return digits;
}

/** Whether `nm` holds the names and operands `record` has, in the same order. */
function sameNamedMetadata(record: NamedMetadataRecord, nm: ReadonlyMap<string, readonly MDNode[]>): boolean {
  if (record.names.length !== nm.size) return false;
  let i = 0;
  for (const [name, ops] of nm) {
    if (record.names[i] !== name) return false;
    const old = record.operands[i++]!;
    if (old.length !== ops.length) return false;
    for (let j = 0; j < ops.length; j++) if (old[j] !== ops[j]) return false;
  }
  return true;
}

function sameNodes(a: readonly MDNode[], b: readonly MDNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Pushes the operands of `node` that are nodes not yet in `slots`, in numbering order. */
function unnumberedDIOperands(node: DINode, slots: ReadonlyMap<MDNode, number>, children: MDNode[]): void {
  forEachDIOperand(node, (op) => {
    if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && !slots.has(op)) children.push(op);
  });
}

const NO_ATTACHMENTS: readonly Attachment[] = [];

/** Attachments sorted by kind id (LLVM's `getAllMetadata` order). */
function sortedAttachments(list: readonly Attachment[] | null): readonly Attachment[] {
  if (list === null || list.length < 2) return list ?? NO_ATTACHMENTS;
  for (let i = 1; i < list.length; i++) if (list[i - 1]!.kind > list[i]!.kind) return [...list].sort((a, b) => a.kind - b.kind);
  return list;
}

/**
 * A type-discovery root's struct types from the cache (see `identifiedStructTypes`'s `known`):
 * undefined the first time a root is met (it is walked with the module then); its own list is
 * made the second time, and kept.
 */
function knownRoot(cache: PrintCache, root: IRFunction | MDNode): readonly StructType[] | undefined {
  let list = cache.rootStructs.get(root);
  if (list === undefined) {
    if (!cache.rootsSeen.has(root)) {
      cache.rootsSeen.add(root);
      return undefined;
    }
    list = rootStructTypes(root);
    cache.rootStructs.set(root, list);
  }
  return list;
}

/** Cuts recorded function text at its hole markers (`\x01<index>\x02`). */
function toTemplate(text: Buffer, holes: readonly (MDNode | AttributeSet)[]): FunctionTemplate {
  const segments: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== HOLE_START) continue;
    segments.push(text.subarray(from, i));
    let j = i + 1;
    while (text[j] !== HOLE_END) j++;
    from = j + 1;
    i = j;
  }
  segments.push(text.subarray(from));
  if (segments.length !== holes.length + 1) throw new Error('print cache: hole markers and holes disagree');
  return { segments, holes };
}

/** The nodes `n` reaches (itself first), in the depth-first pre-order `!N` numbering takes from it. */
function preorderFrom(n: MDNode): MDNode[] {
  const order: MDNode[] = [];
  const seen = new Set<MDNode>();
  const stack: MDNode[] = [n];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (seen.has(cur)) continue;
    seen.add(cur);
    order.push(cur);
    const children: MDNode[] = [];
    if (cur.mk === 'tuple') {
      for (const op of cur.operands) if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && !seen.has(op)) children.push(op);
    } else {
      forEachDIOperand(cur, (op) => {
        if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && !seen.has(op)) children.push(op);
      });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return order;
}

/** Cuts a recorded metadata body at its hole markers (`\x01<index>\x02`); the holes are all nodes. */
function toMDTemplate(text: string, holes: readonly (MDNode | AttributeSet)[]): MDTemplate {
  const segments: string[] = [];
  const nodes: MDNode[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('\x01', from);
    if (start < 0) break;
    const end = text.indexOf('\x02', start);
    segments.push(text.slice(from, start));
    // markers carry their hole's index: text order need not be the order operands were asked for
    const hole = holes[Number(text.slice(start + 1, end))];
    if (hole === undefined || hole instanceof AttributeSet) throw new Error('print cache: a metadata body hole that is not a node');
    nodes.push(hole);
    from = end + 1;
  }
  segments.push(text.slice(from));
  if (nodes.length !== holes.length) throw new Error('print cache: hole markers and holes disagree');
  return { segments, holes: nodes };
}

/** Whether a type is, or holds, a pointer. */
function typeHasPointer(t: Type): boolean {
  switch (t.kind) {
    case 'pointer':
      return true;
    case 'array':
    case 'vector':
      return typeHasPointer(t.element);
    case 'struct':
      return (t.elements ?? []).some(typeHasPointer);
    default:
      return false;
  }
}

const NO_TYPES: readonly (Type | undefined)[] = [];

/**
 * Instructions. One base class for the many instructions that need nothing beyond opcode,
 * operands and flags, and subclasses for those that carry more (alloca, memory operations, GEP,
 * compares, calls, aggregates, shuffles, landing pads, catchswitch), like LLVM's `isa<>` classes.
 *
 * Operand layout (our own, documented, chosen for printing and analysis):
 * - `br`: `[dest]` or `[cond, trueDest, falseDest]`
 * - `switch`: `[cond, defaultDest, caseValue0, caseDest0, ...]`
 * - `indirectbr`: `[address, dest...]`
 * - `ret`: `[]` or `[value]`
 * - `phi`: `[value0, block0, value1, block1, ...]`
 * - `call`: `[callee, args...]`; `invoke`: `[callee, args..., normalDest, unwindDest]`;
 *   `callbr`: `[callee, args..., defaultDest, indirectDest...]`
 * - `landingpad`: clauses; `catchswitch`: `[parentPad, handler..., unwindDest?]`;
 *   `catchpad`/`cleanuppad`: `[parentPad, args...]`; `catchret`: `[pad, dest]`;
 *   `cleanupret`: `[pad, unwindDest?]`
 * - `store`: `[value, pointer]`; `load`: `[pointer]`; `alloca`: `[arraySize]`;
 *   `getelementptr`: `[pointer, index...]`; `cmpxchg`: `[pointer, cmp, new]`; `atomicrmw`: `[pointer, value]`
 * - everything else: LLVM's operand order.
 */
import type { AttributeList } from './attributes.js';
import type { Attachment, Metadata } from './metadata.js';
import type { FunctionType, Type } from './types.js';
import type { BasicBlock, IRFunction, Value } from './values.js';

export type Opcode =
  | 'ret' | 'br' | 'switch' | 'indirectbr' | 'invoke' | 'resume' | 'unreachable' | 'cleanupret'
  | 'catchret' | 'catchswitch' | 'callbr'
  | 'fneg'
  | 'add' | 'fadd' | 'sub' | 'fsub' | 'mul' | 'fmul' | 'udiv' | 'sdiv' | 'fdiv' | 'urem' | 'srem'
  | 'frem' | 'shl' | 'lshr' | 'ashr' | 'and' | 'or' | 'xor'
  | 'alloca' | 'load' | 'store' | 'getelementptr' | 'fence' | 'cmpxchg' | 'atomicrmw'
  | 'trunc' | 'zext' | 'sext' | 'fptoui' | 'fptosi' | 'uitofp' | 'sitofp' | 'fptrunc' | 'fpext'
  | 'ptrtoint' | 'inttoptr' | 'bitcast' | 'addrspacecast'
  | 'cleanuppad' | 'catchpad'
  | 'icmp' | 'fcmp' | 'phi' | 'call' | 'select' | 'va_arg' | 'extractelement' | 'insertelement'
  | 'shufflevector' | 'extractvalue' | 'insertvalue' | 'landingpad' | 'freeze';

export const TERMINATORS: ReadonlySet<string> = new Set([
  'ret', 'br', 'switch', 'indirectbr', 'invoke', 'resume', 'unreachable', 'cleanupret', 'catchret',
  'catchswitch', 'callbr',
]);
export const BINARY_OPS: ReadonlySet<string> = new Set([
  'add', 'fadd', 'sub', 'fsub', 'mul', 'fmul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'shl',
  'lshr', 'ashr', 'and', 'or', 'xor',
]);
export const CAST_OPS: ReadonlySet<string> = new Set([
  'trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint',
  'inttoptr', 'bitcast', 'addrspacecast',
]);

/** Instruction flag bits. */
export const Flag = {
  NUW: 1,
  NSW: 2,
  EXACT: 4,
  INBOUNDS: 8,
  VOLATILE: 16,
  ATOMIC: 32,
  WEAK: 64,
  INALLOCA: 128,
  SWIFTERROR: 256,
  TAIL: 512,
  MUSTTAIL: 1024,
  NOTAIL: 2048,
  CLEANUP: 4096,
  DISJOINT: 8192,
  NNEG: 16384,
  NUSW: 32768,
  // fast-math flags
  NNAN: 1 << 16,
  NINF: 1 << 17,
  NSZ: 1 << 18,
  ARCP: 1 << 19,
  CONTRACT: 1 << 20,
  AFN: 1 << 21,
  REASSOC: 1 << 22,
  SAMESIGN: 1 << 23,
} as const;
export const FAST_MATH_MASK = 0x7f << 16;

/** An LLVM 19 debug record (`#dbg_value(...)`) attached before an instruction. */
export interface DebugRecord {
  /** `value`, `declare`, `assign` or `label`. */
  readonly kind: string;
  /** Operands as written: metadata (value operands as ValueAsMetadata / DIArgList). */
  readonly operands: readonly (Metadata | null)[];
}

/**
 * Debug records live beside the instructions, not in a field of each: only LLVM 19 `#dbg_*` input
 * has them, and a field would cost every instruction of every module 8 bytes. Keyed by identity,
 * they follow an instruction wherever it moves, like a field would.
 */
const debugRecordTable = new WeakMap<Instruction, DebugRecord[]>();
/** False until some instruction got records: the getter then skips the table lookup. */
let anyDebugRecords = false;

export class Instruction {
  /**
   * On the prototype, not on each instance (see below): the parsed model has hundreds of
   * thousands of instructions, and every own field is 8 bytes the garbage collector copies.
   */
  declare readonly vk: 'instruction';
  opcode: Opcode;
  type: Type;
  /** Empty for unnamed values (numbered when printed) and for void instructions. */
  name: string;
  operands: Value[];
  parent: BasicBlock | null = null;
  flags: number;
  /**
   * Metadata attachments, null when none. A list may be shared by many instructions (the reader
   * gives all instructions with the same lone attachment one frozen list): assign a new list to
   * change it, never change it in place.
   */
  attachments: readonly Attachment[] | null = null;

  constructor(opcode: Opcode, type: Type, operands: Value[], name = '', flags = 0) {
    this.opcode = opcode;
    this.type = type;
    this.operands = operands;
    this.name = name;
    this.flags = flags;
  }

  /** LLVM 19+ debug records that precede this instruction (kept in a side table, see above). */
  get debugRecords(): DebugRecord[] | null {
    return anyDebugRecords ? (debugRecordTable.get(this) ?? null) : null;
  }
  set debugRecords(records: DebugRecord[] | null) {
    if (records === null) {
      debugRecordTable.delete(this);
      return;
    }
    anyDebugRecords = true;
    debugRecordTable.set(this, records);
  }

  get isTerminator(): boolean {
    return TERMINATORS.has(this.opcode);
  }
  get function(): IRFunction | undefined {
    return this.parent?.parent;
  }
  hasFlag(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }
  /** Successor blocks of a terminator, in operand order. */
  successors(): BasicBlock[] {
    if (!this.isTerminator) return [];
    const out: BasicBlock[] = [];
    for (const op of this.operands) if (op.vk === 'block') out.push(op);
    return out;
  }
}

Object.defineProperty(Instruction.prototype, 'vk', { value: 'instruction' });

export class AllocaInst extends Instruction {
  declare opcode: 'alloca';
  constructor(
    type: Type,
    public allocatedType: Type,
    arraySize: Value,
    public align: number | undefined,
    public addressSpace: number,
    name = '',
    flags = 0,
  ) {
    super('alloca', type, [arraySize], name, flags);
  }
}

export type AtomicOrdering = 'unordered' | 'monotonic' | 'acquire' | 'release' | 'acq_rel' | 'seq_cst';

/** The atomic part of a memory instruction; plain loads and stores have none. */
interface AtomicParams {
  ordering: AtomicOrdering | undefined;
  failureOrdering: AtomicOrdering | undefined;
  syncScope: string;
  rmwOperation: string;
}

/**
 * load, store, cmpxchg, atomicrmw and fence. The atomic fields are accessors over one object
 * made on the first non-default write: most memory instructions are plain loads and stores, and
 * four own fields each would cost them 32 bytes.
 */
export class MemoryInst extends Instruction {
  declare opcode: 'load' | 'store' | 'cmpxchg' | 'atomicrmw' | 'fence';
  align: number | undefined = undefined;
  /** Null (on the prototype, see below) until made by {@link atomicParams}. */
  declare private atomic: AtomicParams | null;
  constructor(opcode: MemoryInst['opcode'], type: Type, operands: Value[], name = '', flags = 0) {
    super(opcode, type, operands, name, flags);
  }
  private atomicParams(): AtomicParams {
    return (this.atomic ??= { ordering: undefined, failureOrdering: undefined, syncScope: '', rmwOperation: '' });
  }
  get ordering(): AtomicOrdering | undefined {
    return this.atomic === null ? undefined : this.atomic.ordering;
  }
  set ordering(ordering: AtomicOrdering | undefined) {
    if (ordering !== undefined || this.atomic !== null) this.atomicParams().ordering = ordering;
  }
  get failureOrdering(): AtomicOrdering | undefined {
    return this.atomic === null ? undefined : this.atomic.failureOrdering;
  }
  set failureOrdering(ordering: AtomicOrdering | undefined) {
    if (ordering !== undefined || this.atomic !== null) this.atomicParams().failureOrdering = ordering;
  }
  /** Empty for the default (system) scope. */
  get syncScope(): string {
    return this.atomic === null ? '' : this.atomic.syncScope;
  }
  set syncScope(scope: string) {
    if (scope !== '' || this.atomic !== null) this.atomicParams().syncScope = scope;
  }
  /** atomicrmw operation (`add`, `xchg`, ...). */
  get rmwOperation(): string {
    return this.atomic === null ? '' : this.atomic.rmwOperation;
  }
  set rmwOperation(operation: string) {
    if (operation !== '' || this.atomic !== null) this.atomicParams().rmwOperation = operation;
  }
}

// The default on the prototype: a plain load or store (nearly all) has no atomic part and so no
// field for one; the first non-default write gives the instance its own.
Object.defineProperty(MemoryInst.prototype, 'atomic', { value: null, writable: true });

export class GetElementPtrInst extends Instruction {
  declare opcode: 'getelementptr';
  /** LLVM 19 `inrange(lo, hi)` is only on constant GEPs; kept for completeness of the model. */
  constructor(
    type: Type,
    public sourceElementType: Type,
    operands: Value[],
    name = '',
    flags = 0,
  ) {
    super('getelementptr', type, operands, name, flags);
  }
}

export class CmpInst extends Instruction {
  declare opcode: 'icmp' | 'fcmp';
  constructor(
    opcode: 'icmp' | 'fcmp',
    type: Type,
    public predicate: string,
    operands: Value[],
    name = '',
    flags = 0,
  ) {
    super(opcode, type, operands, name, flags);
  }
}

export interface OperandBundle {
  readonly tag: string;
  readonly inputs: Value[];
}

const NO_BUNDLES: readonly OperandBundle[] = Object.freeze([]);

/** call, invoke and callbr. */
export class CallInst extends Instruction {
  declare opcode: 'call' | 'invoke' | 'callbr';
  functionType: FunctionType;
  callingConv = 'ccc';
  attributes: AttributeList;
  /**
   * Shared and frozen while empty (nearly every call): assign a new array to add bundles. The
   * default is on the prototype (see below), like {@link indirectDestCount}'s.
   */
  declare bundles: readonly OperandBundle[];
  /** callbr only: number of indirect destinations at the end of the operands. */
  declare indirectDestCount: number;
  constructor(
    opcode: CallInst['opcode'],
    type: Type,
    functionType: FunctionType,
    operands: Value[],
    attributes: AttributeList,
    name = '',
    flags = 0,
  ) {
    super(opcode, type, operands, name, flags);
    this.functionType = functionType;
    this.attributes = attributes;
  }
  get callee(): Value {
    return this.operands[0]!;
  }
  set callee(v: Value) {
    this.operands[0] = v;
  }
  /** The called function when the call is direct (no casts looked through), like `getCalledFunction`. */
  get calledFunction(): IRFunction | undefined {
    const c = this.operands[0]!;
    return c.vk === 'function' ? c : undefined;
  }
  get argCount(): number {
    const trailing = this.opcode === 'invoke' ? 2 : this.opcode === 'callbr' ? 1 + this.indirectDestCount : 0;
    return this.operands.length - 1 - trailing;
  }
  get args(): Value[] {
    return this.operands.slice(1, 1 + this.argCount);
  }
  arg(i: number): Value {
    return this.operands[1 + i]!;
  }
}

// Defaults on the prototype, writable: nearly no call has bundles or is a callbr, and two own
// fields would cost each of the many thousands of calls of a module 16 bytes. An assignment makes
// an own property of the instance, as for any field.
Object.defineProperty(CallInst.prototype, 'bundles', { value: NO_BUNDLES, writable: true });
Object.defineProperty(CallInst.prototype, 'indirectDestCount', { value: 0, writable: true });

/** extractvalue and insertvalue. */
export class AggregateInst extends Instruction {
  declare opcode: 'extractvalue' | 'insertvalue';
  constructor(
    opcode: 'extractvalue' | 'insertvalue',
    type: Type,
    operands: Value[],
    public indices: number[],
    name = '',
  ) {
    super(opcode, type, operands, name, 0);
  }
}

export class ShuffleVectorInst extends Instruction {
  declare opcode: 'shufflevector';
  /** Mask elements; -1 is undef/poison. */
  constructor(
    type: Type,
    operands: Value[],
    public mask: number[],
    /** How the mask was written when it was a non-splat constant (for faithful printing). */
    public maskValue: Value,
    name = '',
  ) {
    super('shufflevector', type, operands, name, 0);
  }
}

export class LandingPadInst extends Instruction {
  declare opcode: 'landingpad';
  constructor(
    type: Type,
    clauses: Value[],
    public clauseKinds: ('catch' | 'filter')[],
    cleanup: boolean,
    name = '',
  ) {
    super('landingpad', type, clauses, name, cleanup ? Flag.CLEANUP : 0);
  }
}

export class CatchSwitchInst extends Instruction {
  declare opcode: 'catchswitch';
  constructor(
    type: Type,
    operands: Value[],
    public handlerCount: number,
    name = '',
  ) {
    super('catchswitch', type, operands, name, 0);
  }
  get hasUnwindDest(): boolean {
    return this.operands.length > 1 + this.handlerCount;
  }
}

export function isCall(i: Value): i is CallInst {
  return i instanceof CallInst;
}


/**
 * `GetElementPtrInst::getIndexedType` for `ops` = [pointer, index...]: the type the last index
 * selects (the first index steps over the pointer), or undefined for invalid indices. Struct
 * indices must be i32 constants (or splats) in range.
 */
export function gepIndexedType(source: Type, ops: readonly Value[]): Type | undefined {
  let cur = source;
  for (let i = 2; i < ops.length; i++) {
    const idx = ops[i]!;
    if (cur.kind === 'struct') {
      const field = structFieldIndex(idx);
      const elements = cur.elements;
      if (field === undefined || elements === undefined || field >= elements.length) return undefined;
      cur = elements[field]!;
      continue;
    }
    const it = idx.type.kind === 'vector' ? idx.type.element : idx.type;
    if (it.kind !== 'integer') return undefined;
    if (cur.kind === 'array' || cur.kind === 'vector') cur = cur.element;
    else return undefined;
  }
  return cur;
}

/** The field an i32 constant (or i32 splat) selects, as `StructType::indexValid` accepts. */
function structFieldIndex(idx: Value): number | undefined {
  const t = idx.type.kind === 'vector' ? idx.type.element : idx.type;
  if (t.kind !== 'integer' || t.bits !== 32) return undefined;
  let c: Value = idx;
  if (idx.vk === 'zero') return 0;
  if (idx.vk === 'vector') {
    const first = idx.elements[0];
    if (first === undefined || idx.elements.some((e) => e !== first)) return undefined;
    c = first;
  }
  return c.vk === 'int' && c.num >= 0 ? c.num : undefined;
}

/**
 * Values: constants, global values (variables, functions, aliases, ifuncs), arguments, basic
 * blocks, inline asm and metadata-as-value. Instructions live in `instructions.ts`.
 *
 * Every value has a `vk` discriminator and a `type`. Names are stored without the `@`/`%` sigil;
 * an empty name means an unnamed value, numbered when printed (`%0`, `@1`).
 */
import type { AttributeList, AttributeSet } from './attributes.js';
import type { Instruction } from './instructions.js';
import type { Attachment, Metadata, MDNode } from './metadata.js';
import type { Module } from './module.js';
import type { FunctionType, IntegerType, PointerType, Type } from './types.js';

// ---------------------------------------------------------------------------------------------
// Constants

export class ConstantInt {
  readonly vk = 'int' as const;
  /** The value in signed two's-complement form for the type's width (LLVM prints it signed). */
  /** @internal */ constructor(
    readonly type: IntegerType,
    readonly value: number | bigint,
  ) {}
  /** The value as a bigint (exact for any width). */
  get big(): bigint {
    return typeof this.value === 'bigint' ? this.value : BigInt(this.value);
  }
  /** The value as a JS number (exact for |v| < 2^53). */
  get num(): number {
    return Number(this.value);
  }
}

/**
 * A floating-point constant. `bits` holds the raw IEEE bits of the type's own format for half,
 * bfloat, float and double; for x86_fp80, fp128 and ppc_fp128 it holds the raw bits as written in
 * LLVM's hex form (`0xK...`, `0xL...`, `0xM...`).
 */
export class ConstantFP {
  readonly vk = 'fp' as const;
  /** @internal Its text as printed, kept by the printer (a constant never changes). */
  printed: string | undefined = undefined;
  /** @internal */ constructor(
    readonly type: Type,
    readonly bits: bigint,
  ) {}
}

export class ConstantPointerNull {
  readonly vk = 'null' as const;
  /** @internal */ constructor(readonly type: PointerType) {}
}

/** `zeroinitializer` of an aggregate or vector type. */
export class ConstantAggregateZero {
  readonly vk = 'zero' as const;
  /** @internal */ constructor(readonly type: Type) {}
}

export class UndefValue {
  readonly vk = 'undef' as const;
  /** @internal */ constructor(readonly type: Type) {}
}

export class PoisonValue {
  readonly vk = 'poison' as const;
  /** @internal */ constructor(readonly type: Type) {}
}

/** `none` of token type, or of a target extension type. */
export class ConstantNone {
  readonly vk = 'none' as const;
  /** @internal */ constructor(readonly type: Type) {}
}

export class ConstantArray {
  readonly vk = 'array' as const;
  constructor(
    readonly type: Type,
    readonly elements: readonly Constant[],
  ) {}
}

/** An `[N x i8]` array of integer bytes (LLVM's string `ConstantDataArray`), bytes as a latin1 string. */
export class ConstantString {
  readonly vk = 'string' as const;
  constructor(
    readonly type: Type,
    readonly bytes: string,
  ) {}
}

export class ConstantStruct {
  readonly vk = 'struct' as const;
  constructor(
    readonly type: Type,
    readonly fields: readonly Constant[],
  ) {}
}

export class ConstantVector {
  readonly vk = 'vector' as const;
  constructor(
    readonly type: Type,
    readonly elements: readonly Constant[],
  ) {}
}

export type ConstantExprOpcode =
  | 'getelementptr'
  | 'trunc'
  | 'zext'
  | 'sext'
  | 'fptrunc'
  | 'fpext'
  | 'fptoui'
  | 'fptosi'
  | 'uitofp'
  | 'sitofp'
  | 'ptrtoint'
  | 'inttoptr'
  | 'bitcast'
  | 'addrspacecast'
  | 'add'
  | 'sub'
  | 'mul'
  | 'udiv'
  | 'sdiv'
  | 'urem'
  | 'srem'
  | 'shl'
  | 'lshr'
  | 'ashr'
  | 'and'
  | 'or'
  | 'xor'
  | 'fneg'
  | 'fadd'
  | 'fsub'
  | 'fmul'
  | 'fdiv'
  | 'frem'
  | 'icmp'
  | 'fcmp'
  | 'select'
  | 'extractelement'
  | 'insertelement'
  | 'shufflevector'
  | 'extractvalue'
  | 'insertvalue';

/** A constant expression such as `getelementptr inbounds (...)` or `addrspacecast (...)`. */
export class ConstantExpr {
  readonly vk = 'expr' as const;
  constructor(
    readonly opcode: ConstantExprOpcode,
    readonly type: Type,
    readonly operands: readonly Constant[],
    readonly extra: ConstantExprExtra = {},
  ) {}
}

export interface ConstantExprExtra {
  /** nuw/nsw/exact/inbounds flags as written. */
  readonly flags?: readonly string[];
  readonly predicate?: string;
  readonly sourceElementType?: Type;
  /** Index of the operand marked `inrange` (GEP, LLVM <= 18 syntax), counting the pointer as 0. */
  readonly inRangeOperand?: number;
  /** LLVM 19 `inrange(lo, hi)` on the GEP itself. */
  readonly inRange?: readonly [bigint, bigint];
  readonly indices?: readonly number[];
  readonly mask?: readonly number[];
}

export class BlockAddress {
  readonly vk = 'blockaddress' as const;
  constructor(
    readonly type: Type,
    public fn: Value,
    public block: BasicBlock | string,
  ) {}
}

export class DSOLocalEquivalent {
  readonly vk = 'dso_local_equivalent' as const;
  constructor(
    readonly type: Type,
    public global: Value,
  ) {}
}

export class NoCFIValue {
  readonly vk = 'no_cfi' as const;
  constructor(
    readonly type: Type,
    public global: Value,
  ) {}
}

// ---------------------------------------------------------------------------------------------
// Global values

export type Linkage =
  | 'external'
  | 'private'
  | 'internal'
  | 'available_externally'
  | 'linkonce'
  | 'weak'
  | 'common'
  | 'appending'
  | 'extern_weak'
  | 'linkonce_odr'
  | 'weak_odr';

export type Visibility = 'default' | 'hidden' | 'protected';
export type DLLStorage = 'none' | 'dllimport' | 'dllexport';
export type UnnamedAddr = 'none' | 'unnamed_addr' | 'local_unnamed_addr';
export type ThreadLocal = 'none' | 'localdynamic' | 'initialexec' | 'localexec' | 'generaldynamic';

export type ComdatSelection = 'any' | 'exactmatch' | 'largest' | 'nodeduplicate' | 'samesize';

export class Comdat {
  constructor(
    public name: string,
    public selection: ComdatSelection = 'any',
  ) {}
}

/** Fields shared by variables, functions, aliases and ifuncs. */
abstract class GlobalValueBase {
  /** Pointer type of the global's address. */
  type: PointerType;
  name: string;
  linkage: Linkage = 'external';
  visibility: Visibility = 'default';
  dllStorage: DLLStorage = 'none';
  unnamedAddr: UnnamedAddr = 'none';
  threadLocal: ThreadLocal = 'none';
  /** `dso_local` as written; local linkage and non-default visibility imply it. */
  dsoLocal = false;
  partition = '';
  parent: Module | null = null;
  constructor(name: string, type: PointerType) {
    this.name = name;
    this.type = type;
  }
  get addressSpace(): number {
    return this.type.addressSpace;
  }
  hasLocalLinkage(): boolean {
    return this.linkage === 'internal' || this.linkage === 'private';
  }
  /** Discardable if unused: local, linkonce and available_externally linkages. */
  isDiscardableIfUnused(): boolean {
    const l = this.linkage;
    return l === 'internal' || l === 'private' || l === 'linkonce' || l === 'linkonce_odr' || l === 'available_externally';
  }
  /** True when `dso_local` is implied and so never printed (LLVM `isImplicitDSOLocal`). */
  isImplicitDSOLocal(): boolean {
    return this.hasLocalLinkage() || (this.visibility !== 'default' && this.linkage !== 'extern_weak');
  }
}

/** Sanitizer markers on globals (`no_sanitize_address`, ...). */
export interface SanitizerFlags {
  noAddress?: boolean;
  noHWAddress?: boolean;
  memtag?: boolean;
  isDynInit?: boolean;
}

export class GlobalVariable extends GlobalValueBase {
  readonly vk = 'global' as const;
  valueType: Type;
  isConstant = false;
  externallyInitialized = false;
  initializer: Constant | undefined = undefined;
  section = '';
  comdat: Comdat | undefined = undefined;
  align: number | undefined = undefined;
  attachments: Attachment[] = [];
  /** Attribute set of the variable (`#N` after a global), usually empty. */
  attributes: AttributeSet | undefined = undefined;
  sanitizer: SanitizerFlags | undefined = undefined;
  /** LLVM 17+ `code_model "..."`. */
  codeModel: string | undefined = undefined;
  constructor(name: string, valueType: Type, type: PointerType) {
    super(name, type);
    this.valueType = valueType;
  }
  get isDeclaration(): boolean {
    return this.initializer === undefined;
  }
}

export class GlobalAlias extends GlobalValueBase {
  readonly vk = 'alias' as const;
  valueType: Type;
  aliasee: Constant;
  constructor(name: string, valueType: Type, type: PointerType, aliasee: Constant) {
    super(name, type);
    this.valueType = valueType;
    this.aliasee = aliasee;
  }
  get isDeclaration(): boolean {
    return false;
  }
}

export class GlobalIFunc extends GlobalValueBase {
  readonly vk = 'ifunc' as const;
  valueType: Type;
  resolver: Constant;
  constructor(name: string, valueType: Type, type: PointerType, resolver: Constant) {
    super(name, type);
    this.valueType = valueType;
    this.resolver = resolver;
  }
  get isDeclaration(): boolean {
    return false;
  }
}

export class Argument {
  /** On the prototype, like Instruction's. */
  declare readonly vk: 'argument';
  constructor(
    public type: Type,
    public name: string,
    public parent: IRFunction,
  ) {}
  get index(): number {
    return this.parent.args.indexOf(this);
  }
}
Object.defineProperty(Argument.prototype, 'vk', { value: 'argument' });

/** A function (named `IRFunction` to stay clear of the JS global `Function`). */
export class IRFunction extends GlobalValueBase {
  readonly vk = 'function' as const;
  functionType: FunctionType;
  callingConv = 'ccc';
  attributes: AttributeList;
  section = '';
  comdat: Comdat | undefined = undefined;
  align: number | undefined = undefined;
  gc = '';
  prefix: Constant | undefined = undefined;
  prologue: Constant | undefined = undefined;
  personality: Constant | undefined = undefined;
  attachments: Attachment[] = [];
  args: Argument[] = [];
  /** Empty for a declaration. */
  blocks: BasicBlock[] = [];
  constructor(name: string, functionType: FunctionType, type: PointerType, attributes: AttributeList) {
    super(name, type);
    this.functionType = functionType;
    this.attributes = attributes;
  }
  get isDeclaration(): boolean {
    return this.blocks.length === 0;
  }
  get valueType(): FunctionType {
    return this.functionType;
  }
  get returnType(): Type {
    return this.functionType.returnType;
  }
  /** LLVM intrinsic (`llvm.*`). */
  get isIntrinsic(): boolean {
    return this.name.startsWith('llvm.');
  }
  /** All instructions in block order. */
  *instructions(): IterableIterator<Instruction> {
    for (const block of this.blocks) yield* block.instructions;
  }
}

export class BasicBlock {
  /** On the prototype, like Instruction's. */
  declare readonly vk: 'block';
  readonly type: Type;
  name: string;
  parent: IRFunction;
  instructions: Instruction[] = [];
  constructor(name: string, parent: IRFunction, labelType: Type) {
    this.name = name;
    this.parent = parent;
    this.type = labelType;
  }
  /** The last instruction, if it is a terminator. */
  get terminator(): Instruction | undefined {
    const last = this.instructions[this.instructions.length - 1];
    return last !== undefined && last.isTerminator ? last : undefined;
  }
}
Object.defineProperty(BasicBlock.prototype, 'vk', { value: 'block' });

/**
 * Each block's predecessors, once per edge (`br i1 %c, label %x, label %x` lists its block twice),
 * in block order. Blocks without predecessors have no entry.
 */
export function predecessorEdges(fn: IRFunction): Map<BasicBlock, BasicBlock[]> {
  const preds = new Map<BasicBlock, BasicBlock[]>();
  for (const block of fn.blocks) {
    const term = block.terminator;
    if (term === undefined) continue;
    for (const op of term.operands) {
      if (op.vk !== 'block') continue;
      const list = preds.get(op);
      if (list === undefined) preds.set(op, [block]);
      else list.push(block);
    }
  }
  return preds;
}

export interface InlineAsmFlags {
  sideEffect: boolean;
  alignStack: boolean;
  intelDialect: boolean;
  canThrow: boolean;
}

export class InlineAsm {
  readonly vk = 'asm' as const;
  constructor(
    /** The type of the value (a pointer), as seen by the call. */
    readonly type: Type,
    readonly functionType: FunctionType,
    readonly asm: string,
    readonly constraints: string,
    readonly flags: InlineAsmFlags,
  ) {}
}

/** Metadata used as an instruction operand (`metadata !5`, `metadata i32 0`). */
export class MetadataAsValue {
  readonly vk = 'metadata' as const;
  constructor(
    readonly type: Type,
    public metadata: Metadata,
  ) {}
}

export type GlobalValue = GlobalVariable | IRFunction | GlobalAlias | GlobalIFunc;
export type GlobalObject = GlobalVariable | IRFunction;

export type Constant =
  | ConstantInt
  | ConstantFP
  | ConstantPointerNull
  | ConstantAggregateZero
  | UndefValue
  | PoisonValue
  | ConstantNone
  | ConstantArray
  | ConstantString
  | ConstantStruct
  | ConstantVector
  | ConstantExpr
  | BlockAddress
  | DSOLocalEquivalent
  | NoCFIValue
  | GlobalValue;

export type Value = Constant | Argument | BasicBlock | Instruction | InlineAsm | MetadataAsValue;

export function isGlobalValue(v: Value): v is GlobalValue {
  return v.vk === 'global' || v.vk === 'function' || v.vk === 'alias' || v.vk === 'ifunc';
}

export function isConstant(v: Value): v is Constant {
  switch (v.vk) {
    case 'argument':
    case 'block':
    case 'instruction':
    case 'asm':
    case 'metadata':
      return false;
    default:
      return true;
  }
}

/** Constants that are not global values (printed inline). */
export function isPlainConstant(v: Value): boolean {
  return isConstant(v) && !isGlobalValue(v);
}

/** `Constant::isNullValue`: integer 0, +0.0, null, zeroinitializer, none. */
export function isNullValue(c: Value): boolean {
  switch (c.vk) {
    case 'int':
      return c.value === 0 || c.value === 0n;
    case 'fp':
      return c.bits === 0n;
    case 'null':
    case 'zero':
      return true;
    case 'none':
      return c.type.kind === 'token' || c.type.kind === 'target';
    default:
      return false;
  }
}

/** LLVM's `stripPointerCasts`: looks through bitcasts, addrspacecasts and all-zero GEPs (constant or instruction). */
export function stripPointerCasts(v: Value): Value {
  while (v.vk === 'expr' || v.vk === 'instruction') {
    const op = v.opcode;
    if (op !== 'bitcast' && op !== 'addrspacecast' && !(op === 'getelementptr' && allIndicesNull(v.operands))) break;
    v = v.operands[0]!;
  }
  return v;
}

function allIndicesNull(operands: readonly Value[]): boolean {
  for (let i = 1; i < operands.length; i++) if (!isNullValue(operands[i]!)) return false;
  return true;
}

export type { MDNode };

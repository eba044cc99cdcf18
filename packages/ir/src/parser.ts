/**
 * Parser for LLVM textual IR (the LLVM 16 dialect, plus the LLVM 17–19 syntax found in newer
 * DPC++ output such as debug records and `inrange(...)`). Typed pointers (`i32 addrspace(4)*`)
 * are read as opaque pointers, as LLVM 16 does, unless `pointers: 'preserve-typed'` asks to keep
 * them (LLVM 14/15 typed-pointer semantics: pointee types, pointee checks, typed GEP results).
 *
 * Structure follows LLParser: top-level entities, then per-function state with forward
 * references; forward references to globals and metadata are resolved at the end.
 */
import {
  ALLOC_KIND_FLAGS,
  AttributeList,
  AttributeSet,
  enumAttr,
  intAttr,
  isAttributeKeyword,
  attributeAppliesTo,
  type AttributePosition,
  packMemoryEffects,
  parseModRef,
  stringAttr,
  typeAttr,
  type Attribute,
} from './attributes.js';
import { callingConvFromNumber, isCallingConvKeyword } from './callingconv.js';
import { makeArray, makeConstantExpr, makeString, makeStruct, makeVector, nullValue } from './constfold.js';
import { Context } from './context.js';
import { dataLayoutProblem } from './datalayout.js';
import { IrSyntaxError } from './errors.js';
import { fpLiteralBits } from './fp.js';
import { lookupIntrinsic, upgradeDebugInfo, upgradeIntrinsics } from './upgrade.js';
import { checkDIFields, isKnownDIClass } from './di-printer.js';
import { diFieldExpected, diFieldProblem } from './di-fields.js';
import { formatType } from './printer.js';
import { castIsValid, compareOperandsProblem, extractElementValid, insertElementValid, isFPOrFPVector, isIntOrIntVector, selectOperandsProblem, shuffleVectorValid, type CastOpcode } from './operand-rules.js';
import {
  AggregateInst,
  AllocaInst,
  BINARY_OPS,
  CAST_OPS,
  CallInst,
  CatchSwitchInst,
  CmpInst,
  Flag,
  GetElementPtrInst,
  Instruction,
  LandingPadInst,
  MemoryInst,
  ShuffleVectorInst,
  type AtomicOrdering,
  type DebugRecord,
  type Opcode,
  type OperandBundle,
} from './instructions.js';
import { Lexer, Tok, intTokenNumber, intTokenValue, ownString } from './lexer.js';
import { directCalleeName } from './llvm-verifier.js';
import { NameTable } from './nametable.js';
import { constantOperands } from './uses.js';
import { DINode, type Attachment, type DIFieldValue, type MDNode, type MDTuple, type Metadata, type ValueAsMetadata } from './metadata.js';
import { Module } from './module.js';
import { isFirstClassType, isSized, type ArrayType, type FloatKind, type FunctionType, type PointerType, type StructType, type Type, type VectorType } from './types.js';
import {
  Argument,
  BasicBlock,
  BlockAddress,
  DSOLocalEquivalent,
  GlobalAlias,
  GlobalIFunc,
  GlobalVariable,
  IRFunction,
  InlineAsm,
  MetadataAsValue,
  NoCFIValue,
  type Comdat,
  type ComdatSelection,
  type Constant,
  type ConstantExprOpcode,
  type GlobalValue,
  type Linkage,
  type Value,
} from './values.js';

/**
 * How pointer types are read: `'opaque'` reads `T*` as `ptr` (LLVM 16); `'preserve-typed'` keeps
 * typed pointers when the first pointer type of the module is written `T*` (LLVM 14/15).
 */
export type PointerSyntax = 'opaque' | 'preserve-typed';

export interface ParseOptions {
  /** Name used in error messages and as the module id and default source filename. */
  readonly filename?: string;
  /** Context to create types and metadata in (share one to link modules). */
  readonly context?: Context;
  /** Receives warnings such as LLVM's "ignoring debug info with an invalid version". */
  readonly onWarning?: (message: string) => void;
  /**
   * Debug-type ODR uniquing as `opt` enables it (default true): a `DICompositeType` with an
   * `identifier:` becomes distinct. `llvm-as` does not do this; turn it off to compare with it.
   */
  readonly odrTypeUniquing?: boolean;
  /**
   * `'opaque'` (default): typed pointers are read as `ptr`, as LLVM 16 does. `'preserve-typed'`:
   * a module whose first pointer type is written `T*` keeps typed pointers (`Module.typedPointers`,
   * `PointerType.pointee`), as LLVM 14/15 read it; `ptr` in such a module is an error, and so is
   * `T*` in a module whose first pointer type is `ptr` (that module is read as with 'opaque').
   */
  readonly pointers?: PointerSyntax;
  /**
   * Called with each function definition as soon as its body is read and its local references
   * are resolved (global references may still be pending), in module order. Per-function checks
   * are cheapest here, while the function is fresh in the CPU caches: `syclkit opt` runs LLVM's
   * verifier checks (`llvmVerifierFunctionFailures`) this way.
   */
  readonly onFunction?: (fn: IRFunction, facts: ParsedFunctionFacts) => void;
}

/** What the parser learned about a function while reading it. */
export interface ParsedFunctionFacts {
  /**
   * The instructions that use a value defined in another block, or later (forward references),
   * in order. Every other instruction uses only values defined before it in its own block.
   */
  readonly nonLocalUsers: readonly Instruction[];
  /** The PHI nodes that come right after an instruction that is not a PHI node, in order. */
  readonly phisAfterOthers: readonly Instruction[];
  /**
   * The calls (and invokes, callbrs) whose attributes LLVM's verifier looks at, in order: those
   * with return or parameter attributes, and those of intrinsics (`immarg` parameters).
   */
  readonly callsToCheck: readonly CallInst[];
  /**
   * The calls with function attributes (`#N` or written out), in order. Their groups may be read
   * after the function, so the verifier looks at them once the parse is over.
   */
  readonly callsWithFunctionAttributes: readonly CallInst[];
}

/**
 * Parses textual IR. `source` should be decoded as latin1 so bytes map one-to-one to chars;
 * {@link decodeIRText} does that and gives the string the parser reads fastest.
 */
export function parseModule(source: string, options: ParseOptions = {}): Module {
  const filename = options.filename ?? '<stdin>';
  const parser = new Parser(source, filename, options.context ?? new Context());
  parser.odrTypeUniquing = options.odrTypeUniquing ?? true;
  if (options.pointers === 'preserve-typed') parser.decidePointerSyntax();
  parser.onFunction = options.onFunction;
  const m = parser.parseModule();
  const warning = parser.sawDebugInfo ? upgradeDebugInfo(m) : undefined;
  if (warning !== undefined) options.onWarning?.(warning);
  return m;
}

/** Placeholder for a global referenced before its definition. */
class ForwardGlobal {
  readonly vk = 'fwd' as const;
  /** References read, and how many of them were a call's callee (with the calls' type, null when they differ). */
  uses = 0;
  calleeUses = 0;
  calleeType: FunctionType | null | undefined;
  constructor(
    readonly type: Type,
    readonly name: string,
    readonly id: number,
    readonly loc: number,
  ) {}
}

/** Placeholder for a local value (instruction or argument) referenced before its definition. */
class ForwardLocal {
  readonly vk = 'fwdlocal' as const;
  constructor(
    readonly type: Type,
    readonly name: string,
    readonly id: number,
    readonly loc: number,
  ) {}
}

type AnyValue = Value | ForwardGlobal | ForwardLocal;

const LINKAGES = new Set<string>([
  'private', 'internal', 'available_externally', 'linkonce', 'weak', 'common', 'appending', 'extern_weak',
  'linkonce_odr', 'weak_odr', 'external',
]);
const ORDERINGS = new Set<string>(['unordered', 'monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst']);
const ICMP_PREDICATES = new Set(['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle']);
const FCMP_PREDICATES = new Set([
  'false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'uno', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'true',
]);
const RMW_OPERATIONS = new Set([
  'xchg', 'add', 'sub', 'and', 'nand', 'or', 'xor', 'max', 'min', 'umax', 'umin', 'fadd', 'fsub', 'fmax', 'fmin',
  'uinc_wrap', 'udec_wrap', 'usub_cond', 'usub_sat', 'fmaximum', 'fminimum',
]);
/** atomicrmw operations on floating point values (LLVM 19 also takes vectors of them). */
const FP_RMW_OPERATIONS: ReadonlySet<string> = new Set(['fadd', 'fsub', 'fmax', 'fmin', 'fmaximum', 'fminimum']);
const FLOAT_KINDS = new Set<string>(['half', 'bfloat', 'float', 'double', 'x86_fp80', 'fp128', 'ppc_fp128']);
const FMF_FLAGS: Record<string, number> = {
  nnan: Flag.NNAN,
  ninf: Flag.NINF,
  nsz: Flag.NSZ,
  arcp: Flag.ARCP,
  contract: Flag.CONTRACT,
  afn: Flag.AFN,
  reassoc: Flag.REASSOC,
  fast: Flag.NNAN | Flag.NINF | Flag.NSZ | Flag.ARCP | Flag.CONTRACT | Flag.AFN | Flag.REASSOC,
};
/** Legacy function attributes LLVM 16 upgrades into `memory(...)` (none, read, write per location). */
const MEMORY_UPGRADES: Record<string, [number, number, number]> = {
  readnone: [0, 0, 0],
  readonly: [1, 1, 1],
  writeonly: [2, 2, 2],
  argmemonly: [3, 0, 0],
  inaccessiblememonly: [0, 3, 0],
  inaccessiblemem_or_argmemonly: [3, 3, 0],
};

interface PendingAttrs {
  readonly target: IRFunction | CallInst | GlobalVariable;
  readonly inline: Attribute[];
  readonly groups: number[];
  readonly memory: number | undefined;
  readonly loc: number;
}

interface FunctionState {
  fn: IRFunction;
  named: NameTable<Value>;
  numbered: Value[];
  fwdNamed: Map<string, ForwardLocal>;
  fwdNumbered: Map<number, ForwardLocal>;
  blocksNamed: NameTable<BasicBlock>;
  blocksNumbered: Map<number, BasicBlock>;
  /** Blocks created by a forward reference that have not been defined yet (for errors). */
  blockRefLoc: Map<BasicBlock, number>;
  definedBlocks: Set<BasicBlock>;
  hasForwardLocals: boolean;
  /** The block being read. */
  block: BasicBlock | undefined;
  /** Set when the instruction being read uses a local defined in another block, or not yet. */
  usesNonLocal: boolean;
  /** Instructions that use a value defined in another block or later, in order. */
  nonLocalUsers: Instruction[];
  /** PHI nodes right after an instruction that is not one, in order. */
  phisAfterOthers: Instruction[];
  /** Calls with return or parameter attributes, and calls of intrinsics, in order. */
  callsToCheck: CallInst[];
  callsWithFunctionAttributes: CallInst[];
}

class Parser {
  private readonly lex: Lexer;
  private readonly ctx: Context;
  private readonly m: Module;
  private readonly namedTypes = new Map<string, { type: StructType; defined: boolean; loc: number }>();
  private readonly numberedTypes = new Map<number, { type: StructType; defined: boolean; loc: number }>();
  private readonly numberedGlobals: (GlobalValue | undefined)[] = [];
  private readonly fwdGlobals = new Map<string, ForwardGlobal>();
  private readonly fwdGlobalIds = new Map<number, ForwardGlobal>();
  private readonly mdSlots = new Map<number, MDNode>();
  private readonly mdDefined = new Set<number>();
  private readonly mdRefLoc = new Map<number, number>();
  private readonly attrGroups = new Map<number, { attrs: Attribute[]; memory: number | undefined }>();
  private readonly groupPlaceholders = new Map<number, AttributeSet>();
  private readonly pendingAttrs: PendingAttrs[] = [];
  private readonly wrappersOfForwardGlobals: ValueAsMetadata[] = [];
  private readonly blockAddresses: { ba: BlockAddress; loc: number }[] = [];
  /** Instructions and holders that reference forward globals, patched at the end. */
  private sawForwardGlobal = false;
  private pfs: FunctionState | undefined;
  /** Whether anything debug-info related was read (so stripping it can be skipped otherwise). */
  sawDebugInfo = false;
  /** Where the first debug record (LLVM 19 syntax) was read, and whether a `llvm.dbg.*` call was. */
  private sawDebugRecordAt: number | undefined;
  private sawDebugIntrinsicCall = false;
  odrTypeUniquing = true;
  onFunction: ParseOptions['onFunction'];
  /** The module keeps typed pointers (`preserve-typed` and its first pointer type is `T*`). */
  private typed = false;
  /** `preserve-typed` and the first pointer type is `ptr`: `T*` is an error. */
  private rejectTyped = false;
  /** Offset of the pointer type that decided the syntax (for errors). */
  private decidedAt = 0;

  constructor(
    source: string,
    private readonly filename: string,
    context: Context,
  ) {
    this.lex = new Lexer(source, filename);
    this.ctx = context;
    this.m = new Module(filename, context);
  }

  /**
   * `preserve-typed`: the first pointer type written in the module (`T*` / `T addrspace(N)*` or
   * `ptr`) decides how the whole module is read, as in LLVM 15 where the first pointer type fixed
   * the context's pointer mode. A token scan (no parsing) finds it before anything is built.
   */
  decidePointerSyntax(): void {
    const scan = new Lexer(this.lex.src, this.filename);
    try {
      for (let k = scan.next(); k !== Tok.Eof; k = scan.next()) {
        if (k === Tok.Star) {
          this.typed = true;
          this.m.typedPointers = true;
          this.decidedAt = scan.start;
          return;
        }
        if (k === Tok.Ident && scan.isIdent('ptr')) {
          this.rejectTyped = true;
          this.decidedAt = scan.start;
          return;
        }
      }
    } catch {
      // a lexical error: the parse reports it where it is
    }
  }

  /** Where the pointer syntax was decided, as `line:column`. */
  private decidedWhere(): string {
    const src = this.lex.src;
    let line = 1;
    let lineStart = 0;
    for (let i = src.indexOf('\n'); i >= 0 && i < this.decidedAt; i = src.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return `${line}:${this.decidedAt - lineStart + 1}`;
  }

  /** The pointer type to `pointee` in this module's pointer syntax. */
  private pointerTo(pointee: Type, addressSpace: number): PointerType {
    return this.typed ? this.ctx.typedPtr(pointee, addressSpace) : this.ctx.ptr(addressSpace);
  }

  // --- token helpers -----------------------------------------------------------------------------

  /** The current token kind (a method, so TypeScript does not keep stale narrowings). */
  private t(): Tok {
    return this.lex.kind;
  }
  private next(): Tok {
    return this.lex.next();
  }
  private error(message: string, at?: number): IrSyntaxError {
    return this.lex.error(message, at);
  }
  private isIdent(word: string): boolean {
    return this.lex.isIdent(word);
  }
  private eatIdent(word: string): boolean {
    if (this.isIdent(word)) {
      this.next();
      return true;
    }
    return false;
  }
  private expectIdent(word: string, message = `expected '${word}'`): void {
    if (!this.eatIdent(word)) throw this.error(message);
  }
  private eat(kind: Tok): boolean {
    if (this.lex.kind === kind) {
      this.next();
      return true;
    }
    return false;
  }
  private expect(kind: Tok, message: string): void {
    if (this.lex.kind !== kind) throw this.error(message);
    this.next();
  }
  /** Kind of the token after the current one, without consuming anything. */
  private peek(): Tok {
    const l = this.lex;
    l.save();
    const k = l.next();
    l.restore();
    return k;
  }
  /** A string constant; LLVM words every miss the same way. */
  private expectString(): string {
    if (this.t() !== Tok.String) throw this.error('expected string constant');
    const s = this.lex.text;
    this.next();
    return s;
  }
  private expectUInt(message: string): number {
    if (this.t() !== Tok.Int || this.lex.text.startsWith('-')) throw this.error(message);
    const v = this.lex.intNumber ?? Number(intTokenNumber(this.lex.text));
    this.next();
    return v;
  }
  private expectInt(message: string): bigint {
    if (this.t() !== Tok.Int) throw this.error(message);
    const v = intTokenValue(this.lex.text);
    this.next();
    return v;
  }

  // --- module ------------------------------------------------------------------------------------

  parseModule(): Module {
    this.next();
    while (this.t() !== Tok.Eof) this.parseTopLevelEntity();
    this.finish();
    return this.m;
  }

  private parseTopLevelEntity(): void {
    const l = this.lex;
    switch (l.kind) {
      case Tok.Ident:
        switch (l.text) {
          case 'declare':
            return this.parseDeclare();
          case 'define':
            return this.parseDefine();
          case 'source_filename':
            this.next();
            this.expect(Tok.Equal, "expected '=' after source_filename");
            this.m.sourceFilename = this.expectString();
            return;
          case 'target':
            return this.parseTargetDefinition();
          case 'module':
            this.next();
            this.expectIdent('asm', "expected 'module asm'");
            this.m.inlineAsm.push(...this.expectString().split('\n'));
            return;
          case 'deplibs':
            this.next();
            this.expect(Tok.Equal, "expected '=' after deplibs");
            this.expect(Tok.LSquare, "expected '['");
            if (!this.eat(Tok.RSquare)) {
              do this.expectString();
              while (this.eat(Tok.Comma));
              this.expect(Tok.RSquare, "expected ']'");
            }
            return;
          case 'attributes':
            return this.parseAttributeGroup();
          case 'uselistorder':
          case 'uselistorder_bb':
            return this.skipUseListOrder();
          default:
            throw this.error('expected top-level entity');
        }
      case Tok.LocalVar:
      case Tok.LocalVarID:
        return this.parseTypeDefinition();
      case Tok.GlobalVar:
      case Tok.GlobalID:
        return this.parseGlobalEntity();
      case Tok.ComdatVar:
        return this.parseComdat();
      case Tok.MetadataVar:
        return this.parseNamedMetadata();
      case Tok.Exclaim:
        return this.parseStandaloneMetadata();
      default:
        throw this.error('expected top-level entity');
    }
  }

  private parseTargetDefinition(): void {
    this.next();
    if (this.eatIdent('triple')) {
      this.expect(Tok.Equal, "expected '=' after target triple");
      this.m.triple = this.expectString();
    } else if (this.eatIdent('datalayout')) {
      this.expect(Tok.Equal, "expected '=' after target datalayout");
      const loc = this.lex.start;
      this.m.dataLayout = this.expectString();
      const problem = dataLayoutProblem(this.m.dataLayout);
      if (problem !== undefined) throw this.error(problem, loc);
    } else throw this.error('unknown target property');
  }

  private skipUseListOrder(): void {
    // uselistorder / uselistorder_bb only affect use-list order, which we do not model.
    this.next();
    const line = this.lex.src.indexOf('\n', this.lex.start);
    while (this.t() !== Tok.Eof && (line < 0 || this.lex.start < line)) this.next();
  }

  // --- types -------------------------------------------------------------------------------------

  private parseTypeDefinition(): void {
    const loc = this.lex.start;
    const isNamed = this.t() === Tok.LocalVar;
    const name = this.lex.text;
    const id = this.lex.num;
    this.next();
    this.expect(Tok.Equal, "expected '=' after name");
    this.expectIdent('type', isNamed ? "expected 'type' after name" : "expected 'type' after '='");
    const key = isNamed ? name : id;
    if (this.typeAliases.has(key)) throw this.error(`redefinition of type`, loc);
    const known = isNamed ? this.namedTypes.get(name) : this.numberedTypes.get(id);
    if (known?.defined) throw this.error(`redefinition of type`, loc);
    if (this.isIdent('opaque') || this.t() === Tok.LBrace || (this.t() === Tok.Less && this.peek() === Tok.LBrace)) {
      const entry = isNamed ? this.namedTypeEntry(name, loc) : this.numberedTypeEntry(id, loc);
      entry.defined = true;
      const t = entry.type;
      if (this.eatIdent('opaque')) return;
      const packed = this.eat(Tok.Less);
      t.setBody(this.parseStructBody(), packed);
      if (packed) this.expect(Tok.Greater, "expected '>' in packed struct");
      return;
    }
    // any other type: a name for it, which LLVM still reads from old files; it cannot be used before
    if (known !== undefined) throw this.error('forward references to non-struct type', loc);
    this.typeAliases.set(key, this.parseType());
  }
  /** `%T = type <non-struct type>`: the name stands for that type. */
  private readonly typeAliases = new Map<string | number, Type>();

  private namedTypeEntry(name: string, loc: number): { type: StructType; defined: boolean; loc: number } {
    let e = this.namedTypes.get(name);
    if (e === undefined) {
      e = { type: this.ctx.createStruct(name), defined: false, loc };
      this.namedTypes.set(name, e);
    }
    return e;
  }

  private numberedTypeEntry(id: number, loc: number): { type: StructType; defined: boolean; loc: number } {
    let e = this.numberedTypes.get(id);
    if (e === undefined) {
      e = { type: this.ctx.createStruct(''), defined: false, loc };
      this.numberedTypes.set(id, e);
    }
    return e;
  }

  /** Parses `{ T, T }` (current token is `{`). */
  private parseStructBody(): Type[] {
    this.expect(Tok.LBrace, "expected '{'");
    const elements: Type[] = [];
    if (this.eat(Tok.RBrace)) return elements;
    do elements.push(this.parseType());
    while (this.eat(Tok.Comma));
    this.expect(Tok.RBrace, "expected '}' at end of struct");
    return elements;
  }

  /** `missing`: the error when no type starts here (LLVM words it by context). */
  private parseType(allowVoid = false, missing = 'expected type'): Type {
    const loc = this.lex.start;
    const t = this.parseBaseType(missing);
    const k = this.lex.kind;
    if (k !== Tok.Star && k !== Tok.LParen && k !== Tok.Ident) {
      // no suffix (the common case)
      if (!allowVoid && t.kind === 'void') throw this.error('void type only allowed for function results', loc);
      return t;
    }
    return this.parseTypeSuffixes(t, loc, allowVoid);
  }

  /** Typed-pointer and function-type suffixes after the base type `t` (which starts at `loc`). */
  private parseTypeSuffixes(t: Type, loc: number, allowVoid: boolean): Type {
    for (;;) {
      if (this.t() === Tok.Star) {
        if (t.kind === 'label') throw this.error('basic block pointers are invalid');
        if (t.kind === 'void') throw this.error('pointers to void are invalid - use i8* instead');
        if (t.kind === 'pointer' && t.pointee === undefined && this.lex.src.slice(loc, loc + 3) === 'ptr')
          throw this.error('ptr* is invalid - use ptr instead');
        if (this.typed) {
          this.checkPointee(t);
          this.next();
          t = this.ctx.typedPtr(t, 0);
          continue;
        }
        if (this.rejectTyped) throw this.typedInOpaqueError(loc);
        this.next();
        t = this.ctx.ptr(0);
        continue;
      }
      if (this.isIdent('addrspace')) {
        if (this.typed) {
          if (t.kind === 'label') throw this.error('basic block pointers are invalid');
          if (t.kind === 'void') throw this.error('pointers to void are invalid; use i8* instead');
          this.checkPointee(t);
        }
        const as = this.parseAddrSpace();
        if (this.t() !== Tok.Star) throw this.error("expected '*' in address space");
        if (this.rejectTyped) throw this.typedInOpaqueError(loc);
        this.next();
        t = this.typed ? this.ctx.typedPtr(t, as) : this.ctx.ptr(as);
        continue;
      }
      if (this.t() === Tok.LParen) {
        if (t.kind === 'function' || t.kind === 'label' || t.kind === 'metadata') throw this.error('invalid function return type');
        t = this.parseFunctionTypeParams(t);
        continue;
      }
      break;
    }
    if (!allowVoid && t.kind === 'void') throw this.error('void type only allowed for function results', loc);
    return t;
  }

  /** Typed pointers; void and label have their own messages, checked before this. */
  private checkPointee(t: Type): void {
    if (!isValidPointerElementType(t)) throw this.error('pointer to this type is invalid');
  }

  private typedInOpaqueError(at: number): Error {
    return this.error(`typed pointer type in a module that uses opaque pointers (its first pointer type, 'ptr' at ${this.decidedWhere()}, decides)`, at);
  }

  private parseAddrSpace(): number {
    this.expectIdent('addrspace');
    this.expect(Tok.LParen, "expected '(' in address space");
    if (this.t() === Tok.String) {
      const s = this.lex.text;
      this.next();
      this.expect(Tok.RParen, "expected ')' in address space");
      const dl = this.m.layout;
      if (s === 'A') return dl.allocaAddressSpace;
      if (s === 'G') return dl.globalsAddressSpace;
      if (s === 'P') return dl.programAddressSpace;
      throw this.error(`invalid symbolic addrspace '${s}'`);
    }
    const as = this.expectUInt('expected integer or string constant');
    this.expect(Tok.RParen, "expected ')' in address space");
    return as;
  }

  private parseFunctionTypeParams(ret: Type): FunctionType {
    this.expect(Tok.LParen, "expected '('");
    const params: Type[] = [];
    let varArgs = false;
    let problem: { message: string; at: number } | undefined;
    if (!this.eat(Tok.RParen)) {
      for (;;) {
        if (this.eat(Tok.DotDotDot)) {
          varArgs = true;
          break;
        }
        // read like a parameter list; LLVM refuses names and attributes once the list is read
        const typeLoc = this.lex.start;
        const param = this.parseType();
        if (param.kind === 'function') throw this.error('invalid type for function argument', typeLoc);
        params.push(param);
        const attrs = this.parseParamAttributes('parameter');
        if (this.t() === Tok.LocalVar) {
          problem ??= { message: 'argument name invalid in function type', at: typeLoc };
          this.next();
        } else if (this.t() === Tok.LocalVarID) {
          if (this.lex.num !== params.length - 1) throw this.error(`argument expected to be numbered '%${params.length - 1}'`, typeLoc);
          this.next();
        }
        if (attrs.length > 0) problem ??= { message: 'argument attributes invalid in function type', at: typeLoc };
        if (!this.eat(Tok.Comma)) break;
      }
      this.expect(Tok.RParen, "expected ')' at end of argument list");
    }
    if (problem !== undefined) throw this.error(problem.message, problem.at);
    return this.ctx.fn(ret, params, varArgs);
  }

  private parseBaseType(missing: string): Type {
    const l = this.lex;
    const ctx = this.ctx;
    switch (l.kind) {
      case Tok.IntType: {
        const t = ctx.int(l.num);
        this.next();
        return t;
      }
      case Tok.Ident: {
        const w = l.text;
        if (FLOAT_KINDS.has(w)) {
          this.next();
          return ctx.floatType(w as FloatKind);
        }
        switch (w) {
          case 'void':
            this.next();
            return ctx.void;
          case 'label':
            this.next();
            return ctx.label;
          case 'metadata':
            this.next();
            return ctx.metadata;
          case 'token':
            this.next();
            return ctx.token;
          case 'x86_mmx':
            this.next();
            return ctx.x86_mmx;
          case 'x86_amx':
            this.next();
            return ctx.x86_amx;
          case 'ptr': {
            if (this.typed) throw this.error(`opaque pointer type 'ptr' in a module that uses typed pointers (its first pointer type, at ${this.decidedWhere()}, decides)`);
            this.next();
            const as = this.isIdent('addrspace') ? this.parseAddrSpace() : 0;
            return ctx.ptr(as);
          }
          case 'target':
            return this.parseTargetExtType();
          case 'opaque':
            throw this.error("'opaque' is only valid in a type definition");
          default:
            throw this.error(missing);
        }
      }
      case Tok.LBrace:
        return ctx.literalStruct(this.parseStructBody(), false);
      case Tok.LSquare: {
        this.next();
        const n = this.expectUInt('expected number in address space'); // sic: LLVM 16's message for both
        this.expectIdent('x', "expected 'x' after element count");
        const elem = this.parseType();
        this.expect(Tok.RSquare, 'expected end of sequential type');
        return ctx.array(elem, n);
      }
      case Tok.Less: {
        this.next();
        if (this.t() === Tok.LBrace) {
          const t = ctx.literalStruct(this.parseStructBody(), true);
          this.expect(Tok.Greater, "expected '>' at end of packed struct");
          return t;
        }
        const scalable = this.eatIdent('vscale');
        if (scalable) this.expectIdent('x', "expected 'x' after vscale");
        const n = this.expectUInt('expected number in address space');
        this.expectIdent('x', "expected 'x' after element count");
        const elem = this.parseType();
        this.expect(Tok.Greater, 'expected end of sequential type');
        return ctx.vector(elem, n, scalable);
      }
      case Tok.LocalVar: {
        const alias = this.typeAliases.size === 0 ? undefined : this.typeAliases.get(l.text);
        const t = alias ?? this.namedTypeEntry(l.text, l.start).type;
        this.next();
        return t;
      }
      case Tok.LocalVarID: {
        const alias = this.typeAliases.size === 0 ? undefined : this.typeAliases.get(l.num);
        const t = alias ?? this.numberedTypeEntry(l.num, l.start).type;
        this.next();
        return t;
      }
      default:
        throw this.error(missing);
    }
  }

  private parseTargetExtType(): Type {
    this.expectIdent('target');
    this.expect(Tok.LParen, "expected '(' in target extension type");
    const name = this.expectString();
    const types: Type[] = [];
    const ints: number[] = [];
    while (this.eat(Tok.Comma)) {
      if (this.t() === Tok.Int) ints.push(this.expectUInt('expected type parameter'));
      else {
        if (ints.length > 0) throw this.error('expected uint32 param');
        types.push(this.parseType(true));
      }
    }
    this.expect(Tok.RParen, "expected ')' in target extension type");
    return this.ctx.targetExt(name, types, ints);
  }

  // --- comdat, attribute groups ------------------------------------------------------------------

  private parseComdat(): void {
    const name = this.lex.text;
    const loc = this.lex.start;
    this.next();
    this.expect(Tok.Equal, "expected '=' here");
    this.expectIdent('comdat', 'expected comdat type');
    const kinds = ['any', 'exactmatch', 'largest', 'nodeduplicate', 'samesize', 'noduplicates'];
    if (this.t() !== Tok.Ident || !kinds.includes(this.lex.text)) throw this.error('unknown selection kind');
    let selection = this.lex.text;
    if (selection === 'noduplicates') selection = 'nodeduplicate';
    this.next();
    const existing = this.m.comdats.get(name);
    if (existing !== undefined && this.definedComdats.has(name)) throw this.error(`redefinition of comdat '$${name}'`, loc);
    this.definedComdats.add(name);
    this.m.getOrCreateComdat(name).selection = selection as ComdatSelection;
  }
  private readonly definedComdats = new Set<string>();

  private parseAttributeGroup(): void {
    const keywordAt = this.lex.start;
    this.next();
    if (this.t() !== Tok.AttrGrpID) throw this.error('expected attribute group id');
    const id = this.lex.num;
    this.next();
    this.expect(Tok.Equal, "expected '=' here");
    this.expect(Tok.LBrace, "expected '{' here");
    const { attrs, memory, groups } = this.parseFnAttributes(true);
    if (groups.length > 0) throw this.error('attribute groups cannot reference other groups');
    // LLVM reads attributes up to '}': anything else is where the group stops being one
    if (this.t() !== Tok.RBrace) throw this.error('unterminated attribute group');
    this.next();
    let group = this.attrGroups.get(id);
    if (group) {
      group.attrs.push(...attrs);
      if (memory !== undefined) group.memory = memory;
    } else this.attrGroups.set(id, (group = { attrs, memory }));
    if (group.attrs.length === 0 && group.memory === undefined) throw this.error('attribute group has no attributes', keywordAt);
  }

  // --- attributes --------------------------------------------------------------------------------

  /** LLVM's list of constants is empty at any of `} ] > )`, whichever closes it. */
  private atEndOfValueList(): boolean {
    const k = this.t();
    return k === Tok.RBrace || k === Tok.RSquare || k === Tok.Greater || k === Tok.RParen;
  }

  /** `(T)` after a type attribute; `optional`: a bare keyword is read too (typed-pointer IR before LLVM 16). */
  private parseAttrTypeArg(key: string, optional: boolean): Attribute {
    if (this.t() !== Tok.LParen) {
      if (optional) return typeAttr(key, undefined);
      throw this.error("expected '('");
    }
    this.next();
    const t = this.parseType();
    this.expect(Tok.RParen, "expected ')'");
    return typeAttr(key, t);
  }

  /**
   * `(N)`. `check`, when given, returns the error for a value LLVM refuses, reported (as LLVM
   * does) at the number.
   */
  private parseParenUInt(key: string, check?: (value: number) => string | undefined): number {
    this.expect(Tok.LParen, `expected '(' after ${key}`);
    const at = this.lex.start;
    const v = this.expectUInt(`expected integer in ${key}`);
    this.expect(Tok.RParen, "expected ')'");
    const problem = check?.(v);
    if (problem !== undefined) throw this.error(problem, at);
    return v;
  }

  /** The value after `align`: `N` or `(N)`; LLVM reports a bad one at the token after `align`. */
  private parseAlignValue(): number {
    const at = this.lex.start;
    const v = this.t() === Tok.LParen ? this.parseParenUInt('align') : this.expectUInt('expected integer');
    if (v === 0 || (v & (v - 1)) !== 0 || v > 2 ** 32) throw this.error('alignment is not a power of two', at);
    return v;
  }

  /**
   * `=N` after `align` or `alignstack` in an attribute group. LLVM 16 does not check the value
   * there: it keeps the power of two at or below it, and 0 gives no attribute (undefined).
   */
  private parseGroupAlignment(): number | undefined {
    this.expect(Tok.Equal, "expected '=' here");
    const at = this.lex.start;
    const v = this.expectUInt('expected integer');
    if (v > 0xffffffff) throw this.error('expected 32-bit integer (too large)', at);
    return v === 0 ? undefined : 2 ** (31 - Math.clz32(v));
  }

  /**
   * Attributes of a parameter or a return value. Stops at the first token that is not an
   * attribute; an attribute LLVM 16 does not take in this position is an error.
   */
  private parseParamAttributes(position: AttributePosition = 'parameter'): Attribute[] {
    if (this.lex.kind !== Tok.Ident && this.lex.kind !== Tok.String) return NO_ATTRS;
    const attrs: Attribute[] = [];
    for (;;) {
      const l = this.lex;
      if (l.kind === Tok.String) {
        attrs.push(this.parseStringAttribute());
        continue;
      }
      if (l.kind !== Tok.Ident) return attrs;
      const w = l.text;
      if (isAttributeKeyword(w) && !attributeAppliesTo(w, position))
        throw this.error(`this attribute does not apply to ${position === 'parameter' ? 'parameters' : 'return values'}`);
      switch (w) {
        case 'align':
          this.next();
          attrs.push(intAttr('align', this.parseAlignValue()));
          continue;
        case 'alignstack':
          this.next();
          attrs.push(intAttr('alignstack', this.parseParenUInt('alignstack', stackAlignmentProblem)));
          continue;
        case 'dereferenceable':
        case 'dereferenceable_or_null':
          this.next();
          attrs.push(intAttr(w, this.parseParenUInt(w, dereferenceableProblem)));
          continue;
        case 'byval':
        case 'sret':
        case 'inalloca':
        case 'preallocated':
        case 'byref':
        case 'elementtype':
          this.next();
          attrs.push(this.parseAttrTypeArg(w, this.typed && (w === 'byval' || w === 'sret' || w === 'inalloca')));
          continue;
        case 'nofpclass':
        case 'range':
        case 'initializes':
        case 'captures':
          this.next();
          attrs.push({ kind: 'raw', key: w, text: this.captureBalancedParens() });
          continue;
        default:
          // (a keyword that does not apply here was refused above)
          if (isAttributeKeyword(w) && !TYPE_ARG_ATTRS.has(w)) {
            this.next();
            attrs.push(enumAttr(w));
            continue;
          }
          return attrs;
      }
    }
  }

  /**
   * Parses parameter attributes into a set, sharing one set per distinct spelling (DPC++ code
   * repeats the same few attribute lists thousands of times).
   */
  private parseParamAttributeSet(): AttributeSet {
    const k = this.lex.kind;
    if (k !== Tok.Ident && k !== Tok.String) return AttributeSet.empty;
    const start = this.lex.start;
    const attrs = this.parseParamAttributes('parameter');
    if (attrs.length === 0) return AttributeSet.empty;
    const key = this.lex.src.slice(start, this.lex.start);
    let set = this.attrSetCache.get(key);
    if (set === undefined) {
      set = AttributeSet.of(attrs);
      this.attrSetCache.set(key, set);
    }
    return set;
  }
  private readonly attrSetCache = new Map<string, AttributeSet>();

  /** Captures `( ... )` verbatim (for attributes we carry without interpreting). */
  private captureBalancedParens(): string {
    if (this.t() !== Tok.LParen) throw this.error("expected '('");
    const start = this.lex.start;
    let depth = 0;
    do {
      if (this.t() === Tok.LParen) depth++;
      else if (this.t() === Tok.RParen) depth--;
      else if (this.t() === Tok.Eof) throw this.error('unterminated attribute');
      this.next();
    } while (depth > 0);
    return ownString(this.lex.src.slice(start, this.lex.start).trimEnd());
  }

  private parseStringAttribute(): Attribute {
    const key = this.lex.text;
    this.next();
    if (this.eat(Tok.Equal)) return stringAttr(key, this.expectString());
    return stringAttr(key, '');
  }

  /**
   * Function attributes (also used for call sites and attribute groups): keywords, string
   * attributes, `#N` group references, and LLVM 16's upgrade of legacy memory attributes.
   */
  private parseFnAttributes(inGroup: boolean, onFunction = false): { attrs: Attribute[]; groups: number[]; memory: number | undefined } {
    const attrs: Attribute[] = [];
    const groups: number[] = [];
    let memory: [number, number, number] | undefined;
    for (;;) {
      const l = this.lex;
      if (l.kind === Tok.AttrGrpID) {
        if (inGroup) throw this.error('cannot have an attribute group reference in an attribute group');
        groups.push(l.num);
        this.next();
        continue;
      }
      if (l.kind === Tok.String) {
        attrs.push(this.parseStringAttribute());
        continue;
      }
      if (l.kind !== Tok.Ident) break;
      const w = l.text;
      if (isAttributeKeyword(w) && !attributeAppliesTo(w, 'function')) throw this.error('this attribute does not apply to functions');
      if (w === 'builtin' && onFunction) throw this.error("'builtin' attribute not valid on function");
      const upgrade = MEMORY_UPGRADES[w];
      if (upgrade !== undefined) {
        this.next();
        // like `MemoryEffects &=`: the intersection of the allowed accesses per location
        memory = memory ? [memory[0] & upgrade[0], memory[1] & upgrade[1], memory[2] & upgrade[2]] : [...upgrade];
        continue;
      }
      switch (w) {
        case 'align':
        case 'alignstack': {
          this.next();
          const value = inGroup ? this.parseGroupAlignment() : w === 'align' ? this.parseAlignValue() : this.parseParenUInt(w, stackAlignmentProblem);
          if (value !== undefined) attrs.push(intAttr(w, value));
          continue;
        }
        case 'allocsize':
        case 'vscale_range': {
          this.next();
          this.expect(Tok.LParen, `expected '(' after ${w}`);
          const a = this.expectUInt(`expected integer in ${w}`);
          let b: number | undefined;
          if (this.eat(Tok.Comma)) b = this.expectUInt(`expected integer in ${w}`);
          this.expect(Tok.RParen, "expected ')'");
          // LLVM's "not present" value: vscale_range(0) and (0,0) leave no attribute
          if (w === 'vscale_range' && a === 0 && (b ?? a) === 0) continue;
          attrs.push(intAttr(w, [a, w === 'vscale_range' ? (b ?? a) : b]));
          continue;
        }
        case 'uwtable': {
          this.next();
          let kind = 2;
          if (this.eat(Tok.LParen)) {
            if (this.eatIdent('sync')) kind = 1;
            else if (this.eatIdent('async')) kind = 2;
            else throw this.error("expected 'sync' or 'async'");
            this.expect(Tok.RParen, "expected ')'");
          }
          attrs.push(intAttr('uwtable', kind));
          continue;
        }
        case 'memory':
          this.next();
          attrs.push(intAttr('memory', this.parseMemoryEffects()));
          continue;
        case 'allockind': {
          this.next();
          this.expect(Tok.LParen, "expected '('");
          const at = this.lex.start;
          const text = this.expectString();
          this.expect(Tok.RParen, "expected ')'");
          let bits = 0;
          for (const part of text.split(',')) {
            const i = (ALLOC_KIND_FLAGS as readonly string[]).indexOf(part);
            if (i < 0) throw this.error(`unknown allockind ${part}`, at);
            bits |= 1 << i;
          }
          attrs.push(intAttr('allockind', bits));
          continue;
        }
        case 'dereferenceable':
        case 'dereferenceable_or_null':
          this.next();
          attrs.push(intAttr(w, this.parseParenUInt(w)));
          continue;
        case 'nofpclass':
        case 'range':
          this.next();
          attrs.push({ kind: 'raw', key: w, text: this.captureBalancedParens() });
          continue;
        default:
          if (isAttributeKeyword(w) && !TYPE_ARG_ATTRS.has(w)) {
            this.next();
            attrs.push(enumAttr(w));
            continue;
          }
          if (TYPE_ARG_ATTRS.has(w) && (inGroup || w === 'preallocated')) {
            this.next();
            attrs.push(this.parseAttrTypeArg(w, false));
            continue;
          }
      }
      break;
    }
    return { attrs, groups, memory: memory === undefined ? undefined : packMemoryEffects({ argmem: memory[0], inaccessiblemem: memory[1], other: memory[2] }) };
  }

  /**
   * `memory(...)` as LLVM 16's parseMemoryAttr reads it: locations not named have no access
   * unless a default access kind comes first (`memory(read, argmem: readwrite)`).
   */
  private parseMemoryEffects(): number {
    this.expect(Tok.LParen, "expected '('");
    const effects = { argmem: 0, inaccessiblemem: 0, other: 0 };
    let seenLocation = false;
    for (;;) {
      let location: 'argmem' | 'inaccessiblemem' | undefined;
      const t = this.t();
      if ((t === Tok.Ident || t === Tok.LabelStr) && (this.lex.text === 'argmem' || this.lex.text === 'inaccessiblemem')) {
        location = this.lex.text;
        // `argmem:` lexes as a label (colon included); `argmem :` as an identifier and a colon
        this.next();
        if (t === Tok.Ident && !this.eat(Tok.Colon)) throw this.error("expected ':' after location");
      }
      if (this.t() === Tok.LabelStr && parseModRef(this.lex.text) !== undefined) {
        // `read:` is an access kind and a colon to LLVM: the colon ends nothing
        const colon = this.lex.start + this.lex.text.length;
        throw this.error(location === undefined && seenLocation ? 'default access kind must be specified first' : 'unterminated memory attribute', colon);
      }
      const mr = this.t() === Tok.Ident ? parseModRef(this.lex.text) : undefined;
      if (mr === undefined) {
        throw this.error(location === undefined ? 'expected memory location (argmem, inaccessiblemem) or access kind (none, read, write, readwrite)' : 'expected access kind (none, read, write, readwrite)');
      }
      this.next();
      if (location !== undefined) {
        seenLocation = true;
        effects[location] = mr;
      } else {
        if (seenLocation) throw this.error('default access kind must be specified first');
        effects.argmem = effects.inaccessiblemem = effects.other = mr;
      }
      if (this.eat(Tok.RParen)) return packMemoryEffects(effects);
      if (!this.eat(Tok.Comma)) throw this.error('unterminated memory attribute');
    }
  }

  private recordFnAttrs(target: IRFunction | CallInst | GlobalVariable, parsed: { attrs: Attribute[]; groups: number[]; memory: number | undefined }, loc: number): AttributeSet {
    if (parsed.groups.length === 1 && parsed.attrs.length === 0 && parsed.memory === undefined) {
      // just `#N`: share one set per group, completed when the group is read
      const id = parsed.groups[0]!;
      let set = this.groupPlaceholders.get(id);
      if (set === undefined) {
        set = AttributeSet.placeholder();
        this.groupPlaceholders.set(id, set);
      }
      return set;
    }
    if (parsed.groups.length > 0) {
      this.pendingAttrs.push({ target, inline: parsed.attrs, groups: parsed.groups, memory: parsed.memory, loc });
    }
    if (parsed.attrs.length === 0 && parsed.memory === undefined) return AttributeSet.empty;
    const all = parsed.memory === undefined ? parsed.attrs : [...parsed.attrs, intAttr('memory', parsed.memory)];
    return AttributeSet.of(all);
  }

  // --- globals -----------------------------------------------------------------------------------

  private parseOptionalLinkage(): { linkage: Linkage | undefined; dsoLocal: boolean; visibility: 'default' | 'hidden' | 'protected'; dll: 'none' | 'dllimport' | 'dllexport' } {
    let linkage: Linkage | undefined;
    if (this.t() === Tok.Ident && LINKAGES.has(this.lex.text)) {
      linkage = this.lex.text as Linkage;
      this.next();
    }
    let dsoLocal = false;
    if (this.eatIdent('dso_local')) dsoLocal = true;
    else this.eatIdent('dso_preemptable');
    let visibility: 'default' | 'hidden' | 'protected' = 'default';
    if (this.t() === Tok.Ident && (this.lex.text === 'default' || this.lex.text === 'hidden' || this.lex.text === 'protected')) {
      visibility = this.lex.text as typeof visibility;
      this.next();
    }
    let dll: 'none' | 'dllimport' | 'dllexport' = 'none';
    if (this.t() === Tok.Ident && (this.lex.text === 'dllimport' || this.lex.text === 'dllexport')) {
      dll = this.lex.text as typeof dll;
      this.next();
    }
    return { linkage, dsoLocal, visibility, dll };
  }

  private parseThreadLocal(): 'none' | 'localdynamic' | 'initialexec' | 'localexec' | 'generaldynamic' {
    if (!this.eatIdent('thread_local')) return 'none';
    if (!this.eat(Tok.LParen)) return 'generaldynamic';
    if (this.t() !== Tok.Ident || !['localdynamic', 'initialexec', 'localexec'].includes(this.lex.text)) throw this.error('expected localdynamic, initialexec or localexec');
    const mode = this.lex.text as 'localdynamic' | 'initialexec' | 'localexec';
    this.next();
    this.expect(Tok.RParen, "expected ')' after thread local model");
    return mode;
  }

  private parseUnnamedAddr(): 'none' | 'unnamed_addr' | 'local_unnamed_addr' {
    if (this.eatIdent('unnamed_addr')) return 'unnamed_addr';
    if (this.eatIdent('local_unnamed_addr')) return 'local_unnamed_addr';
    return 'none';
  }

  private parseGlobalEntity(): void {
    const loc = this.lex.start;
    const named = this.t() === Tok.GlobalVar;
    const name = named ? this.lex.text : '';
    const id = named ? -1 : this.lex.num;
    this.next();
    this.expect(Tok.Equal, "expected '=' in global variable");
    if (!named && id !== this.numberedGlobals.length) throw this.error(`variable expected to be numbered '@${this.numberedGlobals.length}'`, loc);
    const { linkage, dsoLocal, visibility, dll } = this.parseOptionalLinkage();
    const threadLocal = this.parseThreadLocal();
    const unnamedAddr = this.parseUnnamedAddr();
    if (this.isIdent('alias') || this.isIdent('ifunc')) {
      const isAlias = this.lex.text === 'alias';
      this.next();
      const valueTypeLoc = this.lex.start;
      const valueType = this.parseType();
      this.expect(Tok.Comma, "expected comma after alias or ifunc's type");
      const aliaseeLoc = this.lex.start;
      const aliaseeType = this.parseType();
      const aliasee = this.parseConstantValue(aliaseeType);
      let ptrType = aliaseeType.kind === 'pointer' ? aliaseeType : this.ctx.ptr(0);
      if (this.typed) {
        if (aliaseeType.kind !== 'pointer') throw this.error('An alias or ifunc must have pointer type', aliaseeLoc);
        const pointee = aliaseeType.pointee!;
        if (isAlias && pointee !== valueType)
          throw this.error(`explicit pointee type doesn't match operand's pointee type (${typeString(valueType)} vs ${typeString(pointee)})`, valueTypeLoc);
        if (!isAlias && pointee.kind !== 'function') throw this.error('explicit pointee type should be a function type', valueTypeLoc);
        ptrType = this.ctx.typedPtr(valueType, aliaseeType.addressSpace);
      }
      if (named && this.m.getGlobalValue(name) !== undefined) throw this.error(`redefinition of global '@${name}'`, loc);
      const gv = isAlias ? new GlobalAlias(name, valueType, ptrType, aliasee as Constant) : new GlobalIFunc(name, valueType, ptrType, aliasee as Constant);
      gv.linkage = linkage ?? 'external';
      gv.dsoLocal = dsoLocal || gv.isImplicitDSOLocal();
      gv.visibility = visibility;
      gv.dllStorage = dll;
      gv.threadLocal = threadLocal;
      gv.unnamedAddr = unnamedAddr;
      while (this.eat(Tok.Comma)) {
        if (this.eatIdent('partition')) gv.partition = this.expectString();
        else throw this.error('unknown alias or ifunc property!');
      }
      if (gv instanceof GlobalAlias) this.m.addAlias(gv);
      else this.m.addIFunc(gv);
      this.defineGlobal(gv, named, loc);
      return;
    }
    const addressSpace = this.isIdent('addrspace') ? this.parseAddrSpace() : this.m.layout.globalsAddressSpace;
    const externallyInitialized = this.eatIdent('externally_initialized');
    let isConstant: boolean;
    if (this.eatIdent('constant')) isConstant = true;
    else if (this.eatIdent('global')) isConstant = false;
    else throw this.error("expected 'global' or 'constant'");
    const typeLoc = this.lex.start;
    const valueType = this.parseType();
    // checked once the global's kind and type are read, as LLVM does
    if (named && this.m.getGlobalValue(name) !== undefined) throw this.error(`redefinition of global '@${name}'`, loc);
    const gv = new GlobalVariable(name, valueType, this.pointerTo(valueType, addressSpace));
    gv.linkage = linkage ?? 'external';
    gv.visibility = visibility;
    gv.dllStorage = dll;
    gv.threadLocal = threadLocal;
    gv.unnamedAddr = unnamedAddr;
    gv.isConstant = isConstant;
    gv.externallyInitialized = externallyInitialized;
    gv.dsoLocal = dsoLocal || gv.isImplicitDSOLocal();
    this.m.addGlobalVariable(gv);
    this.defineGlobal(gv, named, loc);
    if (linkage === undefined || (linkage !== 'extern_weak' && linkage !== 'external')) {
      // an opaque type takes zeroinitializer, as in LLVM; a type that holds itself has no value
      // at all (LLVM 16 crashes on one)
      if (!isSized(valueType) && containsItself(valueType)) throw this.error('global variable with a recursive type cannot have an initializer');
      gv.initializer = this.parseConstantValue(valueType) as Constant;
    }
    if (!isValidGlobalValueType(valueType)) throw this.error('invalid type for global variable', typeLoc);
    while (this.eat(Tok.Comma)) {
      if (this.isIdent('section')) {
        this.next();
        gv.section = this.expectString();
      } else if (this.isIdent('partition')) {
        this.next();
        gv.partition = this.expectString();
      } else if (this.isIdent('align')) {
        this.next();
        gv.align = this.parseAlignValue();
      } else if (this.isIdent('comdat')) {
        gv.comdat = this.parseComdatRef(gv.name);
      } else if (this.isIdent('code_model')) {
        this.next();
        gv.codeModel = this.expectString();
      } else if (this.t() === Tok.Ident && ['no_sanitize_address', 'no_sanitize_hwaddress', 'sanitize_memtag', 'sanitize_address_dyninit'].includes(this.lex.text)) {
        const f = (gv.sanitizer ??= {});
        const w = this.lex.text;
        if (w === 'no_sanitize_address') f.noAddress = true;
        else if (w === 'no_sanitize_hwaddress') f.noHWAddress = true;
        else if (w === 'sanitize_memtag') f.memtag = true;
        else f.isDynInit = true;
        this.next();
      } else if (this.t() === Tok.MetadataVar) {
        this.parseAttachment(gv.attachments);
      } else throw this.error('unknown global variable property!');
    }
    // attributes as in a function header; LLVM keeps an `align` among them as an attribute
    if (this.t() === Tok.AttrGrpID || (this.t() === Tok.String && this.peek() === Tok.Equal) || (this.t() === Tok.Ident && isAttributeKeyword(this.lex.text))) {
      const attrLoc = this.lex.start;
      gv.attributes = this.recordFnAttrs(gv, this.parseFnAttributes(false), attrLoc);
    }
  }

  private parseComdatRef(defaultName: string): Comdat {
    const keywordAt = this.lex.start;
    this.expectIdent('comdat');
    if (this.eat(Tok.LParen)) {
      if (this.t() !== Tok.ComdatVar) throw this.error('expected comdat variable');
      const name = this.lex.text;
      this.noteComdatUse(name, this.lex.start);
      this.next();
      this.expect(Tok.RParen, "expected ')' after comdat var");
      return this.m.getOrCreateComdat(name);
    }
    if (defaultName === '') throw this.error('comdat cannot be unnamed');
    this.noteComdatUse(defaultName, keywordAt);
    return this.m.getOrCreateComdat(defaultName);
  }

  /** The first use of each comdat not defined yet: one never defined is an error at the end. */
  private noteComdatUse(name: string, at: number): void {
    if (!this.definedComdats.has(name) && !this.comdatUses.has(name)) this.comdatUses.set(name, at);
  }
  private readonly comdatUses = new Map<string, number>();

  /** Registers a defined global, resolving an earlier forward reference of the same name. */
  private defineGlobal(gv: GlobalValue, named: boolean, loc: number): void {
    let fwd: ForwardGlobal | undefined;
    if (named) {
      this.globalIndex.set(gv.name, gv);
      fwd = this.fwdGlobals.get(gv.name);
      this.fwdGlobals.delete(gv.name);
    } else {
      const id = this.numberedGlobals.length;
      this.numberedGlobals.push(gv);
      fwd = this.fwdGlobalIds.get(id);
      this.fwdGlobalIds.delete(id);
    }
    if (fwd !== undefined) {
      if (fwd.type !== gv.type) throw this.error(`forward reference and definition of global have different types`, loc);
      this.resolvedForward.set(fwd, gv);
    }
  }
  private readonly resolvedForward = new Map<ForwardGlobal, GlobalValue>();
  /** Defined globals by name, probed with source spans (no string per reference). */
  private readonly globalIndex = new NameTable<GlobalValue>(1024);

  // --- functions ---------------------------------------------------------------------------------

  private parseDeclare(): void {
    this.next();
    const attachments: Attachment[] = [];
    while (this.t() === Tok.MetadataVar) this.parseAttachmentNoComma(attachments);
    const fn = this.parseFunctionHeader(false);
    fn.attachments = attachments;
  }

  private parseDefine(): void {
    this.next();
    const fn = this.parseFunctionHeader(true);
    while (this.t() === Tok.MetadataVar) this.parseAttachmentNoComma(fn.attachments);
    this.parseFunctionBody(fn);
  }

  private parseFunctionHeader(isDefine: boolean): IRFunction {
    const headerLoc = this.lex.start;
    const { linkage, dsoLocal, visibility, dll } = this.parseOptionalLinkage();
    if (!isDefine && linkage !== undefined && linkage !== 'external' && linkage !== 'extern_weak')
      throw this.error(`invalid linkage for function declaration`, headerLoc);
    const cc = this.parseOptionalCallingConv();
    const retAttrs = this.parseParamAttributes('return value');
    const retLoc = this.lex.start;
    const retType = this.parseType(true);
    if (retType.kind === 'function' || retType.kind === 'label' || retType.kind === 'metadata') throw this.error('invalid function return type', retLoc);
    const nameLoc = this.lex.start;
    let name = '';
    let numbered = false;
    if (this.t() === Tok.GlobalVar) name = this.lex.text;
    else if (this.t() === Tok.GlobalID) {
      numbered = true;
      if (this.lex.num !== this.numberedGlobals.length) throw this.error(`function expected to be numbered '%${this.numberedGlobals.length}'`);
    } else throw this.error('expected function name');
    this.next();
    this.expect(Tok.LParen, "expected '(' in function argument list");
    const params: Type[] = [];
    const paramAttrs: AttributeSet[] = [];
    const argNames: string[] = [];
    const argNameLocs: number[] = [];
    let varArgs = false;
    if (!this.eat(Tok.RParen)) {
      for (;;) {
        if (this.eat(Tok.DotDotDot)) {
          varArgs = true;
          break;
        }
        const typeLoc = this.lex.start;
        const t = this.parseType();
        if (t.kind === 'void') throw this.error('argument can not have void type');
        if (t.kind === 'function') throw this.error('invalid type for function argument', typeLoc);
        params.push(t);
        paramAttrs.push(this.parseParamAttributeSet());
        argNameLocs.push(this.lex.start);
        if (this.t() === Tok.LocalVar) {
          argNames.push(this.lex.text);
          this.next();
        } else if (this.t() === Tok.LocalVarID) {
          argNames.push('#' + this.lex.num);
          this.next();
        } else argNames.push('');
        if (!this.eat(Tok.Comma)) break;
      }
      this.expect(Tok.RParen, "expected ')' at end of argument list");
    }
    const unnamedAddr = this.parseUnnamedAddr();
    let addressSpace = this.m.layout.programAddressSpace;
    if (this.isIdent('addrspace')) addressSpace = this.parseAddrSpace();
    const fnAttrLoc = this.lex.start;
    const parsedFnAttrs = this.parseFnAttributes(false, true);
    let section = '';
    let partition = '';
    let comdat: Comdat | undefined;
    let align: number | undefined;
    let gc = '';
    let prefix: Constant | undefined;
    let prologue: Constant | undefined;
    let personality: Constant | undefined;
    if (this.eatIdent('section')) section = this.expectString();
    if (this.eatIdent('partition')) partition = this.expectString();
    if (this.isIdent('comdat')) comdat = this.parseComdatRef(name);
    if (this.isIdent('align')) {
      this.next();
      align = this.parseAlignValue();
    }
    if (this.eatIdent('gc')) gc = this.expectString();
    if (this.eatIdent('prefix')) prefix = this.parseTypeAndConstant();
    if (this.eatIdent('prologue')) prologue = this.parseTypeAndConstant();
    if (this.eatIdent('personality')) personality = this.parseTypeAndConstant();

    const fnType = this.ctx.fn(retType, params, varArgs);
    // An `align` among the function attributes is the function's alignment, not an attribute.
    const alignAttr = parsedFnAttrs.attrs.find((a) => a.key === 'align');
    if (alignAttr !== undefined) {
      parsedFnAttrs.attrs = parsedFnAttrs.attrs.filter((a) => a !== alignAttr);
      if (align === undefined && alignAttr.kind === 'int') align = alignAttr.value as number;
    }
    const fn = new IRFunction(name, fnType, this.pointerTo(fnType, addressSpace), AttributeList.empty);
    fn.attributes = new AttributeList(AttributeSet.empty, retAttrs.length === 0 ? AttributeSet.empty : AttributeSet.of(retAttrs), paramAttrs);
    fn.attributes = fn.attributes.withFn(this.recordFnAttrs(fn, parsedFnAttrs, fnAttrLoc));
    fn.linkage = linkage ?? 'external';
    fn.visibility = visibility;
    fn.dllStorage = dll;
    fn.dsoLocal = dsoLocal || fn.isImplicitDSOLocal();
    fn.callingConv = cc;
    fn.unnamedAddr = unnamedAddr;
    fn.section = section;
    fn.partition = partition;
    fn.comdat = comdat;
    fn.align = align;
    fn.gc = gc;
    fn.prefix = prefix;
    fn.prologue = prologue;
    fn.personality = personality;
    fn.args = params.map((t, i) => {
      const n = argNames[i]!;
      return new Argument(t, n.startsWith('#') ? '' : n, fn);
    });
    // Validate numbered argument names now (they must count from 0).
    let nextId = 0;
    argNames.forEach((n, i) => {
      if (n.startsWith('#')) {
        if (Number(n.slice(1)) !== nextId) throw this.error(`argument expected to be numbered '%${nextId}'`, argNameLocs[i]);
        nextId++;
      } else if (n === '') nextId++;
    });
    const existing = name === '' ? undefined : this.m.getGlobalValue(name);
    if (existing !== undefined) throw this.error(`invalid redefinition of function '${name}'`, nameLoc);
    this.m.addFunction(fn);
    this.defineGlobal(fn, !numbered, nameLoc);
    if (name.startsWith('llvm.dbg.')) this.sawDebugInfo = true;
    return fn;
  }

  private parseOptionalCallingConv(): string {
    if (this.t() !== Tok.Ident) return 'ccc';
    const w = this.lex.text;
    if (w === 'cc') {
      this.next();
      return callingConvFromNumber(this.expectUInt('expected calling convention number'));
    }
    if (isCallingConvKeyword(w)) {
      this.next();
      return w;
    }
    return 'ccc';
  }

  private parseTypeAndConstant(): Constant {
    const t = this.parseType();
    return this.parseConstantValue(t) as Constant;
  }

  /** Per-function name tables, emptied and reused for each function body. */
  private readonly localNames = new NameTable<Value>(64);
  private readonly blockNames = new NameTable<BasicBlock>(16);

  private parseFunctionBody(fn: IRFunction): void {
    this.expect(Tok.LBrace, "expected '{' in function body");
    this.localNames.clear();
    this.blockNames.clear();
    const st: FunctionState = {
      fn,
      named: this.localNames,
      numbered: [],
      fwdNamed: new Map(),
      fwdNumbered: new Map(),
      blocksNamed: this.blockNames,
      blocksNumbered: new Map(),
      blockRefLoc: new Map(),
      definedBlocks: new Set(),
      hasForwardLocals: false,
      block: undefined,
      usesNonLocal: false,
      nonLocalUsers: [],
      phisAfterOthers: [],
      callsToCheck: [],
      callsWithFunctionAttributes: [],
    };
    this.pfs = st;
    for (const a of fn.args) {
      if (a.name === '') st.numbered.push(a);
      else {
        if (st.named.has(a.name)) throw this.error(`redefinition of argument '%${a.name}'`);
        st.named.set(a.name, a);
      }
    }
    if (this.t() === Tok.RBrace) throw this.error('function body requires at least one basic block');
    while (this.t() !== Tok.RBrace) {
      if (this.t() === Tok.Eof) throw this.error('found end of file when expecting more instructions');
      this.parseBasicBlock(st);
    }
    this.next();
    for (const [b, loc] of st.blockRefLoc) {
      if (!st.definedBlocks.has(b)) throw this.error(`use of undefined value '%${b.name !== '' ? b.name : '?'}'`, loc);
    }
    if (st.fwdNamed.size > 0) {
      const [name, f] = st.fwdNamed.entries().next().value as [string, ForwardLocal];
      throw this.error(`use of undefined value '%${name}'`, f.loc);
    }
    if (st.fwdNumbered.size > 0) {
      const [id, f] = st.fwdNumbered.entries().next().value as [number, ForwardLocal];
      throw this.error(`use of undefined value '%${id}'`, f.loc);
    }
    if (st.hasForwardLocals) this.patchForwardLocals(st);
    this.pfs = undefined;
    this.onFunction?.(st.fn, { nonLocalUsers: st.nonLocalUsers, phisAfterOthers: st.phisAfterOthers, callsToCheck: st.callsToCheck, callsWithFunctionAttributes: st.callsWithFunctionAttributes });
  }

  private patchForwardLocals(st: FunctionState): void {
    const resolve = (v: AnyValue): Value => (v.vk === 'fwdlocal' ? this.resolvedLocals.get(v)! : (v as Value));
    for (const b of st.fn.blocks) {
      for (const inst of b.instructions) {
        const ops = inst.operands as AnyValue[];
        for (let i = 0; i < ops.length; i++) {
          const op = ops[i]!;
          if (op.vk === 'fwdlocal') ops[i] = resolve(op);
          else if (op.vk === 'metadata' && op.metadata.mk === 'value' && (op.metadata.value as AnyValue).vk === 'fwdlocal') {
            op.metadata = this.ctx.md.value(resolve(op.metadata.value as AnyValue));
          } else if (op.vk === 'metadata' && op.metadata.mk === 'arglist') {
            const args = op.metadata.args.map((a) => ((a.value as AnyValue).vk === 'fwdlocal' ? this.ctx.md.value(resolve(a.value as AnyValue)) : a));
            op.metadata = this.ctx.md.argList(args);
          }
        }
        if (inst instanceof CallInst) for (const bundle of inst.bundles) bundle.inputs.forEach((v, i) => (bundle.inputs[i] = resolve(v as AnyValue)));
        if (inst.debugRecords) {
          for (let r = 0; r < inst.debugRecords.length; r++) {
            const rec = inst.debugRecords[r]!;
            const operands = rec.operands.map((md) => {
              if (md !== null && md.mk === 'value' && (md.value as AnyValue).vk === 'fwdlocal') return this.ctx.md.value(resolve(md.value as AnyValue));
              if (md !== null && md.mk === 'arglist')
                return this.ctx.md.argList(md.args.map((a) => ((a.value as AnyValue).vk === 'fwdlocal' ? this.ctx.md.value(resolve(a.value as AnyValue)) : a)));
              return md;
            });
            inst.debugRecords[r] = { kind: rec.kind, operands };
          }
        }
      }
    }
  }
  private readonly resolvedLocals = new Map<ForwardLocal, Value>();

  private getBlock(st: FunctionState, nameOrId: string | number, loc: number): BasicBlock {
    if (typeof nameOrId === 'string') {
      let b = st.blocksNamed.get(nameOrId);
      if (b === undefined) {
        const v = st.named.get(nameOrId);
        if (v !== undefined) throw this.error(`'%${nameOrId}' is not a basic block`, loc);
        b = new BasicBlock(nameOrId, st.fn, this.ctx.label);
        st.blocksNamed.set(nameOrId, b);
        st.blockRefLoc.set(b, loc);
      }
      return b;
    }
    let b = st.blocksNumbered.get(nameOrId);
    if (b === undefined) {
      const v = st.numbered[nameOrId];
      if (v !== undefined) {
        if (v.vk === 'block') return v;
        throw this.error(`'%${nameOrId}' is not a basic block`, loc);
      }
      b = new BasicBlock('', st.fn, this.ctx.label);
      st.blocksNumbered.set(nameOrId, b);
      st.blockRefLoc.set(b, loc);
    }
    return b;
  }

  private parseBasicBlock(st: FunctionState): void {
    let block: BasicBlock;
    const loc = this.lex.start;
    if (this.t() === Tok.LabelStr) {
      const name = this.lex.text;
      this.next();
      block = this.getBlock(st, name, loc);
      if (st.definedBlocks.has(block)) throw this.error(`redefinition of label '%${name}'`, loc);
    } else {
      const id = st.numbered.length;
      if (this.t() === Tok.LabelID) {
        if (this.lex.num !== id) throw this.error(`label expected to be numbered '${id}'`, loc);
        this.next();
      }
      block = st.blocksNumbered.get(id) ?? new BasicBlock('', st.fn, this.ctx.label);
      st.blocksNumbered.delete(id);
      st.numbered.push(block);
    }
    st.definedBlocks.add(block);
    st.blockRefLoc.delete(block);
    st.fn.blocks.push(block);
    st.block = block;
    let records: DebugRecord[] | null = null;
    let previousIsPhi = true;
    for (;;) {
      if (this.t() === Tok.DbgRecord) {
        (records ??= []).push(this.parseDebugRecord());
        continue;
      }
      if (this.isIdent('uselistorder')) {
        this.skipUseListOrder();
        continue;
      }
      const inst = this.parseInstructionLine(st);
      inst.parent = block;
      if (st.usesNonLocal) {
        st.nonLocalUsers.push(inst);
        st.usesNonLocal = false;
      }
      const opcode = inst.opcode;
      if (opcode === 'phi') {
        if (!previousIsPhi) st.phisAfterOthers.push(inst);
        previousIsPhi = true;
      } else {
        previousIsPhi = false;
        if ((opcode === 'call' || opcode === 'invoke' || opcode === 'callbr') && inst instanceof CallInst) {
          const attrs = inst.attributes;
          if (!attrs.ret.isEmpty || attrs.params.length > 0 || directCalleeName(inst)?.startsWith('llvm.') === true) st.callsToCheck.push(inst);
          // a `#N` not read yet is an empty placeholder, but never the shared empty set
          if (attrs.fn !== AttributeSet.empty) st.callsWithFunctionAttributes.push(inst);
        }
      }
      if (records !== null) {
        inst.debugRecords = records;
        records = null;
      }
      block.instructions.push(inst);
      if (inst.isTerminator) break;
      if (this.t() === Tok.RBrace || this.t() === Tok.Eof || this.t() === Tok.LabelStr || this.t() === Tok.LabelID)
        throw this.error('expected instruction opcode');
    }
    block.instructions = exactCopy(block.instructions);
  }

  /**
   * An LLVM 19 debug record, read as LLVM 19's `parseDebugRecord` reads it:
   * `#dbg_value|declare(location, !variable, !expression, !DILocation)`,
   * `#dbg_assign(location, !variable, !expression, !assignID, address, !addressExpression,
   * !DILocation)` and `#dbg_label(!label, !DILocation)`. A location is any metadata operand
   * (`ptr %p`, `!DIArgList(...)`, `!{}`); the other operands are nodes.
   */
  private parseDebugRecord(): DebugRecord {
    this.sawDebugInfo = true;
    const kind = this.lex.text.startsWith('dbg_') ? this.lex.text.slice(4) : '';
    // LLVM's lexer makes an unknown `#word` an error token that starts after the `#`
    if (!DEBUG_RECORD_KINDS.has(kind)) throw this.error('expected debug record type here', this.lex.start + 1);
    if (this.sawDebugIntrinsicCall) throw this.error('debug record should not appear in a module containing debug info intrinsics');
    this.sawDebugRecordAt ??= this.lex.start;
    this.next();
    this.expect(Tok.LParen, "Expected '(' here");
    const operands: (Metadata | null)[] = [];
    const node = (): void => {
      operands.push(this.parseMDNodeOperand());
    };
    const comma = (): void => {
      this.expect(Tok.Comma, "Expected ',' here");
    };
    if (kind === 'label') {
      node();
      comma();
      node();
    } else {
      operands.push(this.parseValueAsMetadataOrNode(this.pfs, 'expected metadata operand'));
      comma();
      node();
      comma();
      node();
      comma();
      if (kind === 'assign') {
        node();
        comma();
        operands.push(this.parseValueAsMetadataOrNode(this.pfs, 'expected metadata operand'));
        comma();
        node();
        comma();
      }
      node();
    }
    this.expect(Tok.RParen, "Expected ')' here");
    return { kind, operands };
  }

  /** LLParser::parseMDNode: `!N`, `!{...}` or a specialized node such as `!DILocation(...)`. */
  private parseMDNodeOperand(): Metadata {
    if (this.t() !== Tok.MetadataVar && this.t() !== Tok.Exclaim) this.expect(Tok.Exclaim, "expected '!' here");
    if (this.t() === Tok.Exclaim && this.peek() === Tok.String) {
      // after `!`, a node is `{` or an id
      this.next();
      throw this.error('expected integer');
    }
    return this.parseMetadata();
  }

  // --- instructions ------------------------------------------------------------------------------

  private parseInstructionLine(st: FunctionState): Instruction {
    const loc = this.lex.start;
    let name = '';
    let id = -1;
    if (this.t() === Tok.LocalVar) {
      name = this.lex.text;
      this.next();
      this.expect(Tok.Equal, "expected '=' after instruction name");
    } else if (this.t() === Tok.LocalVarID) {
      id = this.lex.num;
      this.next();
      this.expect(Tok.Equal, "expected '=' after instruction id");
    }
    const forwardRefsBefore = this.forwardRefs;
    const inst = this.parseInstruction(st);
    if (this.forwardRefs !== forwardRefsBefore) this.instructionsWithForwardRefs.push(inst);
    // attachments: `, !kind !N` (an instruction parser stops before such a comma); LLVM takes
    // any comma left after an instruction as the start of one
    if (this.t() === Tok.Comma) {
      const list: Attachment[] = [];
      do {
        this.next();
        if (this.t() !== Tok.MetadataVar) throw this.error('expected metadata after comma');
        this.parseAttachmentNoComma(list);
      } while (this.t() === Tok.Comma);
      inst.attachments = exactCopy(list);
    }
    const isVoid = inst.type.kind === 'void';
    if (isVoid) {
      if (name !== '' || id >= 0) throw this.error(`instructions returning void cannot have a name`, loc);
      return inst;
    }
    if (name !== '') {
      if (st.named.has(name) || st.blocksNamed.has(name)) throw this.error(`multiple definition of local value named '${name}'`, loc);
      inst.name = name;
      st.named.set(name, inst);
      const fwd = st.fwdNamed.get(name);
      if (fwd !== undefined) {
        if (fwd.type !== inst.type) throw this.error(`instruction forward referenced with type '${typeString(fwd.type)}'`, loc);
        st.fwdNamed.delete(name);
        this.resolvedLocals.set(fwd, inst);
      }
    } else {
      const next = st.numbered.length;
      if (id >= 0 && id !== next) throw this.error(`instruction expected to be numbered '%${next}'`, loc);
      st.numbered.push(inst);
      const fwd = st.fwdNumbered.get(next);
      if (fwd !== undefined) {
        st.fwdNumbered.delete(next);
        this.resolvedLocals.set(fwd, inst);
      }
    }
    return inst;
  }

  private parseFastMathFlags(): number {
    let flags = 0;
    while (this.t() === Tok.Ident) {
      const f = FMF_FLAGS[this.lex.text];
      if (f === undefined) break;
      flags |= f;
      this.next();
    }
    return flags;
  }

  /**
   * One instruction after its `%name =`. A dispatcher: each opcode family is parsed by its own
   * small method, so V8 optimizes each one early and cheaply (one large function took until
   * ~1,500 functions into the 10 MiB benchmark module to get optimized code, and a compile of it
   * could be thrown away when a garbage collection changed an allocation site it inlined).
   */
  private parseInstruction(st: FunctionState): Instruction {
    if (this.t() !== Tok.Ident) throw this.error('expected instruction opcode');
    const op = this.lex.text;
    const loc = this.lex.start;
    this.next();
    if (BINARY_OPS.has(op)) return this.parseBinaryOp(op, st);
    if (CAST_OPS.has(op)) return this.parseCastOp(op, st);
    switch (op) {
      case 'ret':
        return this.parseRet(st);
      case 'br':
        return this.parseBr(st);
      case 'switch':
        return this.parseSwitch(st);
      case 'indirectbr':
        return this.parseIndirectBr(st);
      case 'unreachable':
        return new Instruction('unreachable', this.ctx.void, []);
      case 'resume':
        return new Instruction('resume', this.ctx.void, [this.parseTypeAndValue(st)]);
      case 'fneg':
        return this.parseFNeg(st);
      case 'icmp':
      case 'fcmp':
        return this.parseCompare(op, st);
      case 'select':
        return this.parseSelect(st);
      case 'va_arg':
        return this.parseVAArg(st);
      case 'extractelement':
        return this.parseExtractElement(st);
      case 'insertelement':
        return this.parseInsertElement(st);
      case 'shufflevector':
        return this.parseShuffleVector(st);
      case 'phi':
        return this.parsePhi(st);
      case 'landingpad':
        return this.parseLandingPad(st);
      case 'freeze':
        return this.parseFreeze(st);
      case 'call':
        return this.parseCall(st, 0);
      case 'tail':
      case 'musttail':
      case 'notail': {
        this.expectIdent('call', `expected 'call' after '${op}'`);
        return this.parseCall(st, op === 'tail' ? Flag.TAIL : op === 'musttail' ? Flag.MUSTTAIL : Flag.NOTAIL);
      }
      case 'invoke':
      case 'callbr':
        return this.parseCall(st, 0, op);
      case 'alloca':
        return this.parseAlloca(st);
      case 'load':
        return this.parseLoad(st);
      case 'store':
        return this.parseStore(st);
      case 'cmpxchg':
        return this.parseCmpXchg(st);
      case 'atomicrmw':
        return this.parseAtomicRMW(st);
      case 'fence': {
        const inst = new MemoryInst('fence', this.ctx.void, []);
        this.parseScopeAndOrdering(inst);
        return inst;
      }
      case 'getelementptr':
        return this.parseGEP(st);
      case 'extractvalue':
        return this.parseExtractValue(st);
      case 'insertvalue':
        return this.parseInsertValue(st);
      case 'cleanupret':
        return this.parseCleanupRet(st);
      case 'catchret':
        return this.parseCatchRet(st);
      case 'catchswitch':
        return this.parseCatchSwitch(st);
      case 'catchpad':
      case 'cleanuppad':
        return this.parsePad(op, st);
      default:
        throw this.error('expected instruction opcode', loc);
    }
  }

  private parseBinaryOp(op: string, st: FunctionState): Instruction {
    let flags = 0;
    if (op === 'add' || op === 'sub' || op === 'mul' || op === 'shl') {
      for (;;) {
        if (this.eatIdent('nuw')) flags |= Flag.NUW;
        else if (this.eatIdent('nsw')) flags |= Flag.NSW;
        else break;
      }
    } else if (op === 'udiv' || op === 'sdiv' || op === 'lshr' || op === 'ashr') {
      if (this.eatIdent('exact')) flags |= Flag.EXACT;
    } else if (op === 'or') {
      if (this.eatIdent('disjoint')) flags |= Flag.DISJOINT;
    } else if (op[0] === 'f') flags |= this.parseFastMathFlags();
    const typeLoc = this.lex.start;
    const lhs = this.parseTypeAndValue(st);
    const logical = op === 'and' || op === 'or' || op === 'xor';
    this.expect(Tok.Comma, logical ? "expected ',' in logical operation" : "expected ',' in arithmetic operation");
    const rhs = this.parseValue(lhs.type, st);
    if (logical) {
      if (!isIntOrIntVector(lhs.type)) throw this.error('instruction requires integer or integer vector operands', typeLoc);
    } else if (op[0] === 'f' ? !isFPOrFPVector(lhs.type) : !isIntOrIntVector(lhs.type)) {
      throw this.error('invalid operand type for instruction', typeLoc);
    }
    return new Instruction(op as Opcode, lhs.type, [lhs, rhs], '', flags);
  }

  private parseCastOp(op: string, st: FunctionState): Instruction {
    let flags = 0;
    if (op === 'zext' || op === 'uitofp') {
      if (this.eatIdent('nneg')) flags |= Flag.NNEG;
    } else if (op === 'trunc') {
      for (;;) {
        if (this.eatIdent('nuw')) flags |= Flag.NUW;
        else if (this.eatIdent('nsw')) flags |= Flag.NSW;
        else break;
      }
    }
    const castLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expectIdent('to', "expected 'to' after cast value");
    const dest = this.parseType();
    this.checkCast(op as CastOpcode, v.type, dest, castLoc);
    return new Instruction(op as Opcode, dest, [v], '', flags);
  }

  private parseRet(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const typeLoc = this.lex.start;
    const resultType = st.fn.valueType.returnType;
    const mismatch = (): IrSyntaxError => this.error(`value doesn't match function result type '${typeString(resultType)}'`, typeLoc);
    let v: Value;
    if (this.isIdent('void')) {
      this.next();
      if (this.t() !== Tok.LParen) {
        if (resultType !== ctx.void) throw mismatch();
        return new Instruction('ret', ctx.void, []);
      }
      // `ret void (i32)* @f`: a function pointer (typed pointers)
      v = this.parseValue(this.parseTypeSuffixes(ctx.void, typeLoc, true), st);
    } else {
      v = this.parseTypeAndValue(st);
    }
    if (v.type !== resultType) throw mismatch();
    return new Instruction('ret', ctx.void, [v]);
  }

  private parseBr(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const condLoc = this.lex.start;
    const first = this.parseTypeAndValue(st);
    if (first.vk === 'block') return new Instruction('br', ctx.void, [first]);
    if (first.type !== ctx.i1) throw this.error("branch condition must have 'i1' type", condLoc);
    this.expect(Tok.Comma, "expected ',' after branch condition");
    const t = this.parseTypeAndBlock(st);
    this.expect(Tok.Comma, "expected ',' after true destination");
    const f = this.parseTypeAndBlock(st);
    return new Instruction('br', ctx.void, [first, t, f]);
  }

  private parseSwitch(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const condLoc = this.lex.start;
    const cond = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after switch condition");
    const def = this.parseTypeAndBlock(st);
    this.expect(Tok.LSquare, "expected '[' with switch table");
    if (cond.type.kind !== 'integer') throw this.error('switch condition must have integer type', condLoc);
    const ops: Value[] = [cond, def];
    const seen = new Set<string>();
    while (this.t() !== Tok.RSquare) {
      const caseLoc = this.lex.start;
      const c = this.parseTypeAndValue(st);
      if (c.vk !== 'int') throw this.error('case value is not a constant integer', caseLoc);
      // the same constant: same type and value (cases of another type are the verifier's concern)
      const key = `${c.type.bits}:${c.big}`;
      if (seen.has(key)) throw this.error('duplicate case value in switch', caseLoc);
      seen.add(key);
      this.expect(Tok.Comma, "expected ',' after case value");
      ops.push(c, this.parseTypeAndBlock(st));
    }
    this.next();
    return new Instruction('switch', ctx.void, ops);
  }

  private parseIndirectBr(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const addrLoc = this.lex.start;
    const addr = this.parseTypeAndValue(st);
    if (addr.type.kind !== 'pointer') throw this.error('indirectbr address must have pointer type', addrLoc);
    this.expect(Tok.Comma, "expected ',' after indirectbr address");
    this.expect(Tok.LSquare, "expected '[' with indirectbr");
    const ops: Value[] = [addr];
    if (this.t() !== Tok.RSquare) {
      do ops.push(this.parseTypeAndBlock(st));
      while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RSquare, "expected ']' at end of block list");
    return new Instruction('indirectbr', ctx.void, ops);
  }

  private parseFNeg(st: FunctionState): Instruction {
    const flags = this.parseFastMathFlags();
    const typeLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    if (!isFPOrFPVector(v.type)) throw this.error('invalid operand type for instruction', typeLoc);
    return new Instruction('fneg', v.type, [v], '', flags);
  }

  private parseCompare(op: 'icmp' | 'fcmp', st: FunctionState): Instruction {
    const ctx = this.ctx;
    let flags = op === 'fcmp' ? this.parseFastMathFlags() : 0;
    if (op === 'icmp' && this.eatIdent('samesign')) flags |= Flag.SAMESIGN;
    const preds = op === 'icmp' ? ICMP_PREDICATES : FCMP_PREDICATES;
    if (this.t() !== Tok.Ident || !preds.has(this.lex.text)) throw this.error(predicateError(op));
    const pred = this.lex.text;
    this.next();
    const typeLoc = this.lex.start;
    const lhs = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after compare value");
    const rhs = this.parseValue(lhs.type, st);
    const problem = compareOperandsProblem(op, lhs.type, false);
    if (problem !== undefined) throw this.error(problem, typeLoc);
    const resultType = lhs.type.kind === 'vector' ? ctx.vector(ctx.i1, lhs.type.length, lhs.type.scalable) : ctx.i1;
    return new CmpInst(op, resultType, pred, [lhs, rhs], '', flags);
  }

  private parseSelect(st: FunctionState): Instruction {
    const flags = this.parseFastMathFlags();
    const condLoc = this.lex.start;
    const c = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after select condition");
    const a = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after select value");
    const b = this.parseTypeAndValue(st);
    const problem = selectOperandsProblem(c.type, a.type, b.type);
    if (problem !== undefined) throw this.error(problem, condLoc);
    return new Instruction('select', a.type, [c, a, b], '', flags);
  }

  private parseVAArg(st: FunctionState): Instruction {
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after vaarg operand");
    const t = this.parseType();
    return new Instruction('va_arg', t, [v]);
  }

  private parseExtractElement(st: FunctionState): Instruction {
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after extract value");
    const i = this.parseTypeAndValue(st);
    if (!extractElementValid(v.type, i.type)) throw this.error('invalid extractelement operands', vLoc);
    return new Instruction('extractelement', v.type.element, [v, i]);
  }

  private parseInsertElement(st: FunctionState): Instruction {
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after insertelement value");
    const e = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after insertelement value");
    const i = this.parseTypeAndValue(st);
    if (!insertElementValid(v.type, e.type, i.type)) throw this.error('invalid insertelement operands', vLoc);
    return new Instruction('insertelement', v.type, [v, e, i]);
  }

  private parseShuffleVector(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const aLoc = this.lex.start;
    const a = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after shuffle mask");
    const b = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after shuffle value");
    const mask = this.parseTypeAndValue(st);
    if (!shuffleVectorValid(a.type, b.type, mask)) throw this.error('invalid shufflevector operands', aLoc);
    const [input, maskType] = [a.type as VectorType, mask.type as VectorType];
    const resultType = ctx.vector(input.element, maskType.length, maskType.scalable);
    return new ShuffleVectorInst(resultType, [a, b], shuffleMaskOf(mask), mask);
  }

  private parsePhi(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const flags = this.parseFastMathFlags();
    const t = this.parseType();
    const ops: Value[] = [];
    do {
      this.expect(Tok.LSquare, "expected '[' in phi value list");
      ops.push(this.parseValue(t, st));
      this.expect(Tok.Comma, "expected ',' after insertelement value");
      ops.push(this.parseValue(ctx.label, st));
      this.expect(Tok.RSquare, "expected ']' in phi value list");
    } while (this.t() === Tok.Comma && this.peek() === Tok.LSquare && this.next() !== Tok.Eof);
    return new Instruction('phi', t, ops, '', flags);
  }

  private parseLandingPad(st: FunctionState): Instruction {
    const t = this.parseType();
    const cleanup = this.eatIdent('cleanup');
    const clauses: Value[] = [];
    const kinds: ('catch' | 'filter')[] = [];
    while (this.isIdent('catch') || this.isIdent('filter')) {
      kinds.push(this.lex.text as 'catch' | 'filter');
      this.next();
      clauses.push(this.parseTypeAndValue(st));
    }
    return new LandingPadInst(t, clauses, kinds, cleanup);
  }

  private parseFreeze(st: FunctionState): Instruction {
    const v = this.parseTypeAndValue(st);
    return new Instruction('freeze', v.type, [v]);
  }

  private parseExtractValue(st: FunctionState): Instruction {
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    const indices = this.parseIndexList();
    if (v.type.kind !== 'struct' && v.type.kind !== 'array') throw this.error('extractvalue operand must be aggregate type', vLoc);
    return new AggregateInst('extractvalue', indexedType(v.type, indices, () => this.error('invalid indices for extractvalue', vLoc)), [v], indices);
  }

  private parseInsertValue(st: FunctionState): Instruction {
    const aggLoc = this.lex.start;
    const agg = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected comma after insertvalue operand");
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    const indices = this.parseIndexList();
    if (agg.type.kind !== 'struct' && agg.type.kind !== 'array') throw this.error('insertvalue operand must be aggregate type', aggLoc);
    const field = indexedType(agg.type, indices, () => this.error('invalid indices for insertvalue', aggLoc));
    if (field !== v.type)
      throw this.error(`insertvalue operand and field disagree in type: '${typeString(v.type)}' instead of '${typeString(field)}'`, vLoc);
    return new AggregateInst('insertvalue', agg.type, [agg, v], indices);
  }

  private parseCleanupRet(st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('from', "expected 'from' after cleanupret");
    const pad = this.parseValue(ctx.token, st);
    this.expectIdent('unwind', "expected 'unwind' in cleanupret");
    const ops: Value[] = [pad];
    if (this.eatIdent('to')) this.expectIdent('caller', "expected 'caller' in cleanupret");
    else ops.push(this.parseTypeAndBlock(st));
    return new Instruction('cleanupret', ctx.void, ops);
  }

  private parseCatchRet(st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('from', "expected 'from' after catchret");
    const pad = this.parseValue(ctx.token, st);
    this.expectIdent('to', "expected 'to' in catchret");
    return new Instruction('catchret', ctx.void, [pad, this.parseTypeAndBlock(st)]);
  }

  private parseCatchSwitch(st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('within', "expected 'within' after catchswitch");
    const parent = this.parseExceptionPadParent(st);
    this.expect(Tok.LSquare, "expected '[' with catchswitch labels");
    const ops: Value[] = [parent];
    do ops.push(this.parseTypeAndBlock(st));
    while (this.eat(Tok.Comma));
    this.expect(Tok.RSquare, "expected ']' after catchswitch labels");
    const handlers = ops.length - 1;
    this.expectIdent('unwind', "expected 'unwind' after catchswitch scope");
    if (this.eatIdent('to')) this.expectIdent('caller', "expected 'caller' in catchswitch");
    else ops.push(this.parseTypeAndBlock(st));
    return new CatchSwitchInst(ctx.token, ops, handlers);
  }

  private parsePad(op: 'catchpad' | 'cleanuppad', st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('within', `expected 'within' after ${op}`);
    const parent = op === 'catchpad' ? this.parseValue(ctx.token, st) : this.parseExceptionPadParent(st);
    this.expect(Tok.LSquare, "expected '[' in pad arguments");
    const ops: Value[] = [parent];
    if (this.t() !== Tok.RSquare) {
      do {
        const t = this.parseType();
        ops.push(t.kind === 'metadata' ? this.parseMetadataAsValue(st) : this.parseValue(t, st));
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RSquare, "expected ']' in pad arguments");
    return new Instruction(op, ctx.token, ops);
  }

  private parseExceptionPadParent(st: FunctionState): Value {
    if (this.isIdent('none')) {
      this.next();
      return this.ctx.none(this.ctx.token);
    }
    return this.parseValue(this.ctx.token, st);
  }

  private parseIndexList(): number[] {
    const indices: number[] = [];
    while (this.t() === Tok.Comma && this.peek() === Tok.Int) {
      this.next();
      indices.push(this.expectUInt('expected index'));
    }
    if (indices.length === 0) throw this.error('expected index');
    return indices;
  }

  private parseTypeAndBlock(st: FunctionState): BasicBlock {
    const t = this.parseType();
    if (t.kind !== 'label') throw this.error('expected a basic block');
    const v = this.parseValue(t, st);
    if (v.vk !== 'block') throw this.error('expected a basic block');
    return v;
  }

  /**
   * LLVM's `parseOptionalCommaAlign` after a memory instruction: `, align N` (again after each
   * comma that does not start an attachment); the last one read, if any.
   */
  private parseOptionalCommaAlign(): number | undefined {
    let align: number | undefined;
    while (this.t() === Tok.Comma && this.peek() !== Tok.MetadataVar) {
      this.next();
      if (!this.eatIdent('align')) throw this.error("expected metadata or 'align'");
      align = this.parseAlignValue();
    }
    return align;
  }

  private parseAlloca(st: FunctionState): Instruction {
    let flags = 0;
    if (this.eatIdent('inalloca')) flags |= Flag.INALLOCA;
    if (this.eatIdent('swifterror')) flags |= Flag.SWIFTERROR;
    const loc = this.lex.start;
    const t = this.parseType();
    let size: Value = this.ctx.constI32(1);
    let align: number | undefined;
    let as = this.m.layout.allocaAddressSpace;
    while (this.t() === Tok.Comma && this.peek() !== Tok.MetadataVar) {
      this.next();
      if (this.eatIdent('align')) align = this.parseAlignValue();
      else if (this.isIdent('addrspace')) as = this.parseAddrSpace();
      else if (align !== undefined) throw this.error("expected metadata or 'addrspace'");
      else size = this.parseTypeAndValue(st);
    }
    if (align === undefined) {
      if (!isSized(t)) throw this.error('Cannot allocate unsized type', loc);
      align = this.m.layout.prefAlign(t);
    }
    return new AllocaInst(this.typed ? this.ctx.typedPtr(t, as) : this.ctx.ptr(as), t, size, align, as, '', flags);
  }

  private parseScopeAndOrdering(inst: MemoryInst, both = false): void {
    if (this.eatIdent('syncscope')) {
      this.expect(Tok.LParen, "expected '(' in syncscope");
      inst.syncScope = this.expectString();
      this.expect(Tok.RParen, "expected ')' in syncscope");
    }
    inst.ordering = this.parseOrdering();
    if (both) inst.failureOrdering = this.parseOrdering();
  }

  private parseOrdering(): AtomicOrdering {
    if (this.t() !== Tok.Ident || !ORDERINGS.has(this.lex.text)) throw this.error('Expected ordering on atomic instruction');
    const o = this.lex.text as AtomicOrdering;
    this.next();
    return o;
  }

  private parseLoad(st: FunctionState): Instruction {
    let flags = 0;
    const atomic = this.eatIdent('atomic');
    if (atomic) flags |= Flag.ATOMIC;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    const loc = this.lex.start;
    const t = this.parseType();
    this.expect(Tok.Comma, "expected comma after load's type");
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    const inst = new MemoryInst('load', t, [ptr], '', flags);
    if (atomic) this.parseScopeAndOrdering(inst);
    inst.align = this.parseOptionalCommaAlign();
    const pt = ptr.type;
    if (pt.kind !== 'pointer' || !isFirstClassType(t)) throw this.error('load operand must be a pointer to a first class type', ptrLoc);
    if (atomic && inst.align === undefined) throw this.error('atomic load must have explicit non-zero alignment', ptrLoc);
    if (inst.ordering === 'release' || inst.ordering === 'acq_rel') throw this.error('atomic load cannot use Release ordering', ptrLoc);
    if (this.typed && pt.pointee !== t)
      throw this.error(`explicit pointee type doesn't match operand's pointee type (${typeString(t)} vs ${typeString(pt.pointee!)})`, loc);
    if (inst.align === undefined) {
      if (!isSized(t)) throw this.error('loading unsized types is not allowed', loc);
      inst.align = this.m.layout.abiAlign(t);
    }
    return inst;
  }

  private parseStore(st: FunctionState): Instruction {
    let flags = 0;
    const atomic = this.eatIdent('atomic');
    if (atomic) flags |= Flag.ATOMIC;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    const valueLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after store operand");
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    const inst = new MemoryInst('store', this.ctx.void, [v, ptr], '', flags);
    if (atomic) this.parseScopeAndOrdering(inst);
    inst.align = this.parseOptionalCommaAlign();
    if (ptr.type.kind !== 'pointer') throw this.error('store operand must be a pointer', ptrLoc);
    if (!isFirstClassType(v.type)) throw this.error('store operand must be a first class value', valueLoc);
    if (this.typed && ptr.type.pointee !== v.type) throw this.error('stored value and pointer type do not match', valueLoc);
    if (atomic && inst.align === undefined) throw this.error('atomic store must have explicit non-zero alignment', valueLoc);
    if (inst.ordering === 'acquire' || inst.ordering === 'acq_rel') throw this.error('atomic store cannot use Acquire ordering', valueLoc);
    if (inst.align === undefined && !isSized(v.type)) throw this.error('storing unsized types is not allowed', valueLoc);
    inst.align ??= this.m.layout.abiAlign(v.type);
    return inst;
  }

  private parseCmpXchg(st: FunctionState): Instruction {
    let flags = 0;
    if (this.eatIdent('weak')) flags |= Flag.WEAK;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after cmpxchg address");
    const cmpLoc = this.lex.start;
    const cmp = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after cmpxchg cmp operand");
    const newLoc = this.lex.start;
    const nv = this.parseTypeAndValue(st);
    if (ptr.type.kind !== 'pointer') throw this.error('cmpxchg operand must be a pointer', ptrLoc);
    if (this.typed && ptr.type.pointee !== cmp.type) throw this.error('compare value and pointer type do not match', cmpLoc);
    if (cmp.type !== nv.type) throw this.error('compare value and new value type do not match', newLoc);
    if (!isFirstClassType(nv.type)) throw this.error('cmpxchg operand must be a first class value', newLoc);
    const inst = new MemoryInst('cmpxchg', this.ctx.literalStruct([cmp.type, this.ctx.i1]), [ptr, cmp, nv], '', flags);
    this.parseScopeAndOrdering(inst, true);
    inst.align = this.parseOptionalCommaAlign();
    inst.align ??= this.m.layout.storeSize(cmp.type);
    return inst;
  }

  private parseAtomicRMW(st: FunctionState): Instruction {
    let flags = 0;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    if (this.t() !== Tok.Ident || !RMW_OPERATIONS.has(this.lex.text)) throw this.error('expected binary operation in atomicrmw');
    const operation = this.lex.text;
    this.next();
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after atomicrmw address");
    const valueLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    if (ptr.type.kind !== 'pointer') throw this.error('atomicrmw operand must be a pointer', ptrLoc);
    if (this.typed && ptr.type.pointee !== v.type) throw this.error('atomicrmw value and pointer type do not match', valueLoc);
    const vt = v.type;
    if (operation === 'xchg') {
      if (vt.kind !== 'integer' && vt.kind !== 'float' && vt.kind !== 'pointer')
        throw this.error(`atomicrmw xchg operand must be an integer, floating point, or pointer type`, valueLoc);
    } else if (FP_RMW_OPERATIONS.has(operation)) {
      if (!isFPOrFPVector(vt)) throw this.error(`atomicrmw ${operation} operand must be a floating point type`, valueLoc);
    } else if (vt.kind !== 'integer') {
      throw this.error(`atomicrmw ${operation} operand must be an integer`, valueLoc);
    }
    const inst = new MemoryInst('atomicrmw', v.type, [ptr, v], '', flags);
    inst.rmwOperation = operation;
    this.parseScopeAndOrdering(inst);
    inst.align = this.parseOptionalCommaAlign();
    inst.align ??= this.m.layout.storeSize(v.type);
    return inst;
  }

  private parseGEP(st: FunctionState): Instruction {
    let flags = 0;
    for (;;) {
      if (this.eatIdent('inbounds')) flags |= Flag.INBOUNDS;
      else if (this.eatIdent('nusw')) flags |= Flag.NUSW;
      else if (this.eatIdent('nuw')) flags |= Flag.NUW;
      else break;
    }
    const sourceLoc = this.lex.start;
    const sourceType = this.parseType();
    this.expect(Tok.Comma, "expected comma after getelementptr's type");
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    let base: PointerType = this.gepBase(sourceType, ptr.type, sourceLoc, ptrLoc);
    const ops: Value[] = [ptr];
    let vectorLength = ptr.type.kind === 'vector' ? ptr.type.length : -1;
    while (this.t() === Tok.Comma && this.peek() !== Tok.MetadataVar) {
      this.next();
      const idxLoc = this.lex.start;
      const idx = this.parseTypeAndValue(st);
      vectorLength = this.gepIndex(idx.type, vectorLength, idxLoc);
      ops.push(idx);
    }
    const indexed = this.gepIndexedType(sourceType, ops, ptrLoc);
    if (this.typed) base = this.ctx.typedPtr(indexed, base.addressSpace);
    const resultType = vectorLength >= 0 ? this.ctx.vector(base, vectorLength) : base;
    return new GetElementPtrInst(resultType, sourceType, exactCopy(ops), '', flags);
  }

  /** LLParser's checks of a GEP's base (a pointer or a vector of them; typed: of the source type). */
  private gepBase(source: Type, baseType: Type, sourceLoc: number, loc: number): PointerType {
    const base = baseType.kind === 'vector' ? baseType.element : baseType;
    if (base.kind !== 'pointer') throw this.error('base of getelementptr must be a pointer', loc);
    if (this.typed && base.pointee !== source)
      throw this.error(`explicit pointee type doesn't match operand's pointee type (${typeString(source)} vs ${typeString(base.pointee!)})`, sourceLoc);
    return base;
  }

  /** LLParser's checks of one GEP index; returns the GEP's vector width so far (-1 while scalar). */
  private gepIndex(t: Type, vectorLength: number, loc: number): number {
    if (!isIntOrIntVector(t)) throw this.error('getelementptr index must be an integer', loc);
    if (t.kind !== 'vector') return vectorLength;
    if (vectorLength >= 0 && vectorLength !== t.length) throw this.error('getelementptr vector index has a wrong number of elements', loc);
    return t.length;
  }

  /** The type a GEP's indices select, checked as LLParser checks it (a sized source, valid indices). */
  private gepIndexedType(source: Type, ops: readonly Value[], loc: number): Type {
    if (ops.length > 1 && !isSized(source)) throw this.error('base element of getelementptr must be sized', loc);
    const indexed = gepIndexedType(source, ops);
    if (indexed === undefined) throw this.error('invalid getelementptr indices', loc);
    return indexed;
  }

  private checkCast(op: CastOpcode, from: Type, to: Type, loc: number): void {
    if (!castIsValid(op, from, to)) throw this.error(`invalid cast opcode for cast from '${typeString(from)}' to '${typeString(to)}'`, loc);
  }

  private parseCall(st: FunctionState, tailFlags: number, opcode: 'call' | 'invoke' | 'callbr' = 'call'): Instruction {
    const callLoc = this.lex.start;
    let flags = tailFlags;
    if (opcode === 'call') flags |= this.parseFastMathFlags();
    const cc = this.parseOptionalCallingConv();
    const retAttrs = this.parseParamAttributes('return value');
    let callAS = this.m.layout.programAddressSpace;
    if (this.isIdent('addrspace')) callAS = this.parseAddrSpace();
    const retLoc = this.lex.start;
    const retOrFnType = this.parseType(true);
    const calleeLoc = this.lex.start;
    // With opaque pointers the callee's type is `ptr addrspace(N)`, known before the arguments;
    // only inline asm needs the function type, so it is built after the argument list.
    // With typed pointers the callee's type is a pointer to the function type, which the short
    // form (`call void @f(i32 1)`) only gives after the arguments: the callee is skipped and read
    // again once they are known.
    let asmParts: { flags: InlineAsm['flags']; asm: string; constraints: string } | undefined;
    let callee: Value | undefined;
    let deferredCallee = false;
    if (opcode === 'call' && this.t() === Tok.GlobalVar && OLD_DEBUG_INTRINSICS.has(this.lex.text)) {
      // LLVM 19 reads a module in one debug-info format: intrinsic calls or records, not both
      if (this.sawDebugRecordAt !== undefined) throw this.error('llvm.dbg intrinsic should not appear in a module using non-intrinsic debug info', callLoc);
      this.sawDebugIntrinsicCall = true;
    }
    if (this.isIdent('asm')) asmParts = this.parseInlineAsmParts();
    else if (!this.typed) callee = this.parseValue(this.ctx.ptr(callAS), st);
    else if (retOrFnType.kind === 'function') callee = this.parseValue(this.ctx.typedPtr(retOrFnType, callAS), st);
    else {
      deferredCallee = true;
      this.skipCallee();
    }
    this.expect(Tok.LParen, "expected '(' in call");
    const args: Value[] = [];
    const argAttrs: AttributeSet[] = [];
    let anyArgAttrs = false;
    if (!this.eat(Tok.RParen)) {
      for (;;) {
        if (this.eat(Tok.DotDotDot)) {
          this.expect(Tok.RParen, "expected ')' at end of argument list");
          break;
        }
        const t = this.parseType();
        const set = this.parseParamAttributeSet();
        if (!set.isEmpty) anyArgAttrs = true;
        argAttrs.push(set);
        args.push(t.kind === 'metadata' ? this.parseMetadataAsValue(st) : this.parseValue(t, st));
        if (this.eat(Tok.RParen)) break;
        this.expect(Tok.Comma, "expected ',' in argument list");
      }
    }
    const fnAttrLoc = this.lex.start;
    const parsedFnAttrs = this.t() === Tok.Ident || this.t() === Tok.AttrGrpID || this.t() === Tok.String ? this.parseFnAttributes(false) : NO_FN_ATTRS;
    const bundles = this.t() === Tok.LSquare && opcode !== 'callbr' ? this.parseOperandBundles(st) : opcode === 'callbr' ? this.parseOperandBundles(st) : [];
    let fnType: FunctionType;
    if (retOrFnType.kind === 'function') fnType = retOrFnType;
    else {
      if (retOrFnType.kind === 'label') throw this.error('Invalid result type for LLVM function', retLoc);
      fnType = this.ctx.fnOfArgs(retOrFnType, args);
    }
    if (callee !== undefined && (callee as AnyValue).vk === 'fwd') {
      const f = callee as unknown as ForwardGlobal;
      f.calleeUses++;
      f.calleeType = f.calleeType === undefined || f.calleeType === fnType ? fnType : null;
    }
    if (deferredCallee) {
      const resume = this.lex.start;
      this.lex.seek(calleeLoc);
      callee = this.parseValue(this.ctx.typedPtr(fnType, callAS), st);
      this.lex.seek(resume);
    }
    if (asmParts !== undefined) callee = new InlineAsm(this.typed ? this.ctx.typedPtr(fnType, 0) : this.ctx.ptr(0), fnType, asmParts.asm, asmParts.constraints, asmParts.flags);
    if (fnType.params.length !== args.length && !fnType.varArgs) throw this.error('invalid number of arguments to function', calleeLoc);
    args.unshift(callee!);
    const operands = args;
    let indirectCount = 0;
    if (opcode === 'invoke') {
      this.expectIdent('to', "expected 'to' in invoke");
      operands.push(this.parseTypeAndBlock(st));
      this.expectIdent('unwind', "expected 'unwind' in invoke");
      operands.push(this.parseTypeAndBlock(st));
    } else if (opcode === 'callbr') {
      this.expectIdent('to', "expected 'to' in callbr");
      operands.push(this.parseTypeAndBlock(st));
      this.expect(Tok.LSquare, "expected '[' in callbr");
      if (this.t() !== Tok.RSquare) {
        do {
          operands.push(this.parseTypeAndBlock(st));
          indirectCount++;
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RSquare, "expected ']' at end of block list");
    }
    const retSet = retAttrs.length === 0 ? AttributeSet.empty : AttributeSet.of(retAttrs);
    const noAttrs = !anyArgAttrs && retSet.isEmpty && parsedFnAttrs === NO_FN_ATTRS;
    const attrs = noAttrs ? AttributeList.empty : new AttributeList(AttributeSet.empty, retSet, anyArgAttrs ? exactCopy(argAttrs) : []);
    const inst = new CallInst(opcode, fnType.returnType, fnType, exactCopy(operands), attrs, '', flags);
    inst.callingConv = cc;
    inst.bundles = bundles;
    inst.indirectDestCount = indirectCount;
    if (parsedFnAttrs !== NO_FN_ATTRS) inst.attributes = attrs.withFn(this.recordFnAttrs(inst, parsedFnAttrs, fnAttrLoc));
    return inst;
  }

  /** Steps over a callee operand without resolving it (typed pointers, see `parseCall`). */
  private skipCallee(): void {
    switch (this.t()) {
      case Tok.GlobalVar:
      case Tok.GlobalID:
      case Tok.LocalVar:
      case Tok.LocalVarID:
        this.next();
        return;
      case Tok.Ident: {
        if (this.isIdent('dso_local_equivalent') || this.isIdent('no_cfi')) {
          this.next();
          this.next();
          return;
        }
        // a keyword constant, or a constant expression: keyword, flag words, `( ... )`
        const single = this.isIdent('null') || this.isIdent('undef') || this.isIdent('poison') || this.isIdent('zeroinitializer');
        this.next();
        if (single) return;
        while (this.t() === Tok.Ident) this.next();
        if (this.t() !== Tok.LParen) throw this.error('expected value token');
        let depth = 0;
        do {
          if (this.t() === Tok.LParen) depth++;
          else if (this.t() === Tok.RParen) depth--;
          else if (this.t() === Tok.Eof) throw this.error("expected ')' in constantexpr");
          this.next();
        } while (depth > 0);
        return;
      }
      default:
        throw this.error('expected value token');
    }
  }

  private parseInlineAsmParts(): { flags: InlineAsm['flags']; asm: string; constraints: string } {
    this.expectIdent('asm');
    const flags = { sideEffect: false, alignStack: false, intelDialect: false, canThrow: false };
    for (;;) {
      if (this.eatIdent('sideeffect')) flags.sideEffect = true;
      else if (this.eatIdent('alignstack')) flags.alignStack = true;
      else if (this.eatIdent('inteldialect')) flags.intelDialect = true;
      else if (this.eatIdent('unwind')) flags.canThrow = true;
      else break;
    }
    const asm = this.expectString();
    this.expect(Tok.Comma, "expected comma in inline asm expression");
    const constraints = this.expectString();
    return { flags, asm, constraints };
  }

  private parseOperandBundles(st: FunctionState): OperandBundle[] {
    if (this.t() !== Tok.LSquare) return [];
    this.next();
    const bundles: OperandBundle[] = [];
    do {
      const tag = this.expectString();
      this.expect(Tok.LParen, "expected '(' in operand bundle");
      const inputs: Value[] = [];
      if (this.t() !== Tok.RParen) {
        do {
          const t = this.parseType();
          inputs.push(t.kind === 'metadata' ? this.parseMetadataAsValue(st) : this.parseValue(t, st));
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RParen, "expected ')' in operand bundle");
      bundles.push({ tag, inputs });
    } while (this.eat(Tok.Comma));
    this.expect(Tok.RSquare, "expected ']' at end of operand bundles");
    return bundles;
  }

  // --- values ------------------------------------------------------------------------------------

  private parseTypeAndValue(st: FunctionState | undefined): Value {
    const t = this.parseType();
    if (t.kind === 'metadata') return this.parseMetadataAsValue(st);
    return this.parseValue(t, st);
  }

  private parseMetadataAsValue(st: FunctionState | undefined): MetadataAsValue {
    const md = this.parseValueAsMetadataOrNode(st);
    return new MetadataAsValue(this.ctx.metadata, md);
  }

  /** After `metadata`: a node, string, DIArgList, or `<type> <value>` (possibly function-local). */
  private parseValueAsMetadataOrNode(st: FunctionState | undefined = this.pfs, missingType = 'expected type'): Metadata {
    if (this.t() === Tok.MetadataVar && this.lex.text === 'DIArgList') {
      this.next();
      this.expect(Tok.LParen, "expected '(' here");
      const args: ValueAsMetadata[] = [];
      if (this.t() !== Tok.RParen) {
        do {
          const t = this.parseType();
          args.push(this.ctx.md.value(this.parseValue(t, st)));
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RParen, "expected ')' here");
      return this.ctx.md.argList(args);
    }
    if (this.t() === Tok.Exclaim || this.t() === Tok.MetadataVar) return this.parseMetadata();
    const loc = this.lex.start;
    const t = this.parseType(false, missingType);
    if (t.kind === 'metadata') throw this.error('invalid metadata-value-metadata roundtrip', loc);
    const v = this.parseValue(t, st);
    return this.wrapValue(v);
  }

  private wrapValue(v: Value): ValueAsMetadata {
    const w = this.ctx.md.value(v);
    if ((v as AnyValue).vk === 'fwd' || this.containsForward(v)) this.wrappersOfForwardGlobals.push(w);
    return w;
  }

  /** Parses a value of type `t` (local or constant). */
  private parseValue(t: Type, st: FunctionState | undefined): Value {
    const l = this.lex;
    const loc = l.start;
    if (t.kind === 'function') throw this.error('functions are not values, refer to them as pointers', loc);
    switch (l.kind) {
      case Tok.LocalVar:
      case Tok.LocalVarID: {
        if (st === undefined) throw this.error('invalid use of function-local name');
        const named = l.kind === Tok.LocalVar;
        if (named && t.kind !== 'label') {
          // the common case: a defined local, looked up without slicing its name
          const found = l.textIsSpan ? st.named.getSpan(l.src, l.textStart, l.textEnd) : st.named.get(l.text);
          if (found !== undefined && found.type === t) {
            this.next();
            if (found.vk === 'instruction' && found.parent !== st.block) st.usesNonLocal = true;
            return found;
          }
        }
        const key = named ? l.text : l.num;
        this.next();
        if (t.kind === 'label') return this.getBlock(st, key, loc);
        const v = named ? st.named.get(key as string) : st.numbered[key as number];
        if (v !== undefined) {
          if (v.type !== t) throw this.error(`'%${key}' defined with type '${typeString(v.type)}' but expected '${typeString(t)}'`, loc);
          if (v.vk === 'instruction' && v.parent !== st.block) st.usesNonLocal = true;
          return v;
        }
        if (named && st.blocksNamed.has(key as string)) throw this.error(`'%${key}' is not a basic block`, loc);
        return this.forwardLocal(st, key, t, loc);
      }
      default:
        return this.parseConstantValue(t, st);
    }
  }

  private forwardLocal(st: FunctionState, key: string | number, t: Type, loc: number): Value {
    const map = typeof key === 'string' ? st.fwdNamed : st.fwdNumbered;
    let f = (map as Map<string | number, ForwardLocal>).get(key);
    if (f === undefined) {
      f = new ForwardLocal(t, typeof key === 'string' ? key : '', typeof key === 'number' ? key : -1, loc);
      (map as Map<string | number, ForwardLocal>).set(key, f);
    } else if (f.type !== t) throw this.error(`'%${key}' defined with type '${typeString(f.type)}' but expected '${typeString(t)}'`, loc);
    st.hasForwardLocals = true;
    st.usesNonLocal = true;
    return f as unknown as Value;
  }

  private globalRef(t: Type, loc: number): Value {
    const l = this.lex;
    const named = l.kind === Tok.GlobalVar;
    if (named && l.textIsSpan) {
      const found = this.globalIndex.getSpan(l.src, l.textStart, l.textEnd);
      if (found !== undefined && found.type === t) {
        this.next();
        return found;
      }
    }
    const name = l.text;
    const id = l.num;
    this.next();
    if (t.kind !== 'pointer') throw this.error('global variable reference must have pointer type', loc);
    const existing = named ? this.m.getGlobalValue(name) : this.numberedGlobals[id];
    if (existing !== undefined) {
      if (existing.type !== t) throw this.error(`'@${named ? name : id}' defined with type '${typeString(existing.type)}' but expected '${typeString(t)}'`, loc);
      return existing;
    }
    const map = named ? this.fwdGlobals : this.fwdGlobalIds;
    const key = named ? name : id;
    let f = (map as Map<string | number, ForwardGlobal>).get(key);
    if (f === undefined) {
      f = new ForwardGlobal(t, named ? name : '', named ? -1 : id, loc);
      (map as Map<string | number, ForwardGlobal>).set(key, f);
    }
    f.uses++;
    this.sawForwardGlobal = true;
    this.forwardRefs++;
    return f as unknown as Value;
  }

  /** Constants (and global references) of type `t`. */
  private parseConstantValue(t: Type, st?: FunctionState): Value {
    const l = this.lex;
    const ctx = this.ctx;
    const loc = l.start;
    switch (l.kind) {
      case Tok.GlobalVar:
      case Tok.GlobalID:
        return this.globalRef(t, loc);
      case Tok.Int: {
        const small = l.intNumber;
        if (small !== undefined && t.kind === 'integer') {
          this.next();
          return ctx.constInt(t, small);
        }
        const text = l.text;
        this.next();
        if (t.kind === 'integer') return ctx.constInt(t, intTokenNumber(text));
        throw this.error('integer constant must have integer type', loc);
      }
      case Tok.Float:
      case Tok.HexFloat: {
        const text = l.text;
        const hex = l.kind === Tok.HexFloat;
        this.next();
        if (t.kind !== 'float') throw this.error('floating point constant invalid for type', loc);
        return this.fpConstant(t.fp, text, hex, loc);
      }
      case Tok.LBrace: {
        this.next();
        const fields: Constant[] = [];
        if (!this.atEndOfValueList()) {
          do fields.push(this.parseTypeAndValue(st) as Constant);
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.RBrace, "expected end of struct constant");
        if (t.kind !== 'struct') throw this.error('constant expression type mismatch', loc);
        this.checkStructFields(t, fields, false, loc);
        return this.track(makeStruct(ctx, t, fields));
      }
      case Tok.Less: {
        this.next();
        if (this.eat(Tok.LBrace)) {
          const fields: Constant[] = [];
          if (!this.atEndOfValueList()) {
            do fields.push(this.parseTypeAndValue(st) as Constant);
            while (this.eat(Tok.Comma));
          }
          this.expect(Tok.RBrace, "expected end of packed struct");
          this.expect(Tok.Greater, "expected end of constant");
          if (t.kind !== 'struct') throw this.error('constant expression type mismatch', loc);
          this.checkStructFields(t, fields, true, loc);
          return this.track(makeStruct(ctx, t, fields));
        }
        const elements: Constant[] = [];
        const firstLoc = this.lex.start;
        if (!this.atEndOfValueList()) {
          do elements.push(this.parseTypeAndValue(st) as Constant);
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.Greater, "expected end of constant");
        if (elements.length === 0) throw this.error('constant vector must not be empty', loc);
        const first = elements[0]!.type;
        if (first.kind !== 'integer' && first.kind !== 'float' && first.kind !== 'pointer')
          throw this.error('vector elements must have integer, pointer or floating point type', firstLoc);
        this.checkSameElementTypes('vector', elements, firstLoc);
        this.literalTypeIs(ctx.vector(first, elements.length), t, loc);
        return this.track(makeVector(ctx, t as VectorType, elements));
      }
      case Tok.LSquare: {
        this.next();
        const elements: Constant[] = [];
        const firstLoc = this.lex.start;
        if (!this.atEndOfValueList()) {
          do elements.push(this.parseTypeAndValue(st) as Constant);
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.RSquare, "expected end of array constant");
        if (elements.length > 0) {
          const first = elements[0]!.type;
          if (!isFirstClassType(first) || first.kind === 'label') throw this.error(`invalid array element type: ${typeString(first)}`, firstLoc);
          this.checkSameElementTypes('array', elements, firstLoc);
          this.literalTypeIs(ctx.array(first, elements.length), t, loc);
        } else if (t.kind !== 'array' || t.length !== 0) {
          throw this.error('invalid empty array initializer', loc);
        }
        return this.track(makeArray(ctx, t as ArrayType, elements));
      }
      case Tok.Exclaim:
      case Tok.MetadataVar:
        // metadata where a value of another type belongs: LLVM has no value starting this way
        throw this.error('expected value token', loc);
      case Tok.Ident:
        return this.parseKeywordConstant(t, st, loc);
      default:
        throw this.error('expected value token', loc);
    }
  }

  /** Every element of a vector or array literal has the first one's type (LLVM's message lacks the closing quote). */
  private checkSameElementTypes(what: 'vector' | 'array', elements: readonly Constant[], loc: number): void {
    const first = elements[0]!.type;
    elements.forEach((e, i) => {
      if (e.type !== first) throw this.error(`${what} element #${i} is not of type '${typeString(first)}`, loc);
    });
  }

  /** A vector or array literal of type `got` where `expected` is wanted: LLVM's mismatch message. */
  private literalTypeIs(got: Type, expected: Type, loc: number): void {
    if (got !== expected) throw this.error(`constant expression type mismatch: got type '${typeString(got)}' but expected '${typeString(expected)}'`, loc);
  }

  private checkStructFields(t: StructType, fields: Constant[], packed: boolean, loc: number): void {
    const expected = t.elements ?? [];
    if (expected.length !== fields.length) throw this.error('initializer with struct type has wrong # elements', loc);
    if (t.packed !== packed) throw this.error("packed'ness of initializer and type don't match", loc);
    fields.forEach((f, i) => {
      if (f.type !== expected[i]) throw this.error(`element ${i} of struct initializer doesn't match struct element type`, loc);
    });
  }

  private fpConstant(kind: FloatKind, text: string, hex: boolean, loc: number): Value {
    const bits = fpLiteralBits(kind, text, hex);
    if (typeof bits === 'string') throw this.error(bits, loc);
    return this.ctx.constFP(this.ctx.floatType(kind), bits);
  }

  private parseKeywordConstant(t: Type, st: FunctionState | undefined, loc: number): Value {
    const ctx = this.ctx;
    const w = this.lex.text;
    switch (w) {
      case 'true':
      case 'false':
        this.next();
        if (t !== ctx.i1) throw this.error(`'${w}' must have i1 type (or vector of i1)`, loc);
        return ctx.bool(w === 'true');
      case 'null':
        this.next();
        if (t.kind !== 'pointer') throw this.error('null must be a pointer type', loc);
        return ctx.nullPtr(t);
      case 'undef':
        this.next();
        return ctx.undef(t);
      case 'poison':
        this.next();
        return ctx.poison(t);
      case 'zeroinitializer':
        this.next();
        if (t.kind === 'void' || t.kind === 'label' || t.kind === 'function') throw this.error('invalid type for null constant', loc);
        return nullValue(ctx, t);
      case 'none':
        this.next();
        if (t.kind !== 'token' && t.kind !== 'target') throw this.error('invalid type for none constant', loc);
        return ctx.none(t);
      case 'c': {
        this.next();
        if (this.t() !== Tok.String) throw this.error('expected string', loc);
        const bytes = this.lex.text;
        this.next();
        if (t.kind !== 'array' || t.element !== ctx.i8 || t.length !== bytes.length) throw this.error('constant expression type mismatch', loc);
        return makeString(ctx, t, bytes);
      }
      case 'asm':
        throw this.error('inline asm is only valid as a call operand', loc);
      case 'blockaddress': {
        this.next();
        this.expect(Tok.LParen, "expected '(' in block address expression");
        const fn = this.typed ? this.blockAddressFunction() : this.parseValue(ctx.ptr(this.m.layout.programAddressSpace), undefined);
        this.expect(Tok.Comma, "expected comma in block address expression");
        if (this.t() !== Tok.LocalVar && this.t() !== Tok.LocalVarID) throw this.error('expected basic block name in block address');
        const blockName = this.t() === Tok.LocalVar ? this.lex.text : `#${this.lex.num}`;
        this.next();
        this.expect(Tok.RParen, "expected ')' in block address expression");
        const ba = new BlockAddress(t, fn, blockName);
        this.blockAddresses.push({ ba, loc });
        return ba;
      }
      case 'dso_local_equivalent':
      case 'no_cfi': {
        this.next();
        const gv = this.parseValue(t, undefined);
        return this.track(w === 'no_cfi' ? new NoCFIValue(t, gv) : new DSOLocalEquivalent(t, gv));
      }
      case 'splat': {
        this.next();
        this.expect(Tok.LParen, "expected '(' after splat");
        const scalar = this.parseTypeAndValue(st) as Constant;
        this.expect(Tok.RParen, "expected ')' after splat");
        if (t.kind !== 'vector') throw this.error('splat must have vector type', loc);
        return this.track(makeVector(ctx, t, new Array<Constant>(t.length).fill(scalar)));
      }
      default:
        return this.parseConstantExpr(t, st, loc);
    }
  }

  /**
   * Typed pointers: the function of a `blockaddress` is named without a type, so it is looked up by
   * name (a function defined later is resolved at the end of the module).
   */
  private blockAddressFunction(): Value {
    const l = this.lex;
    const loc = l.start;
    if (l.kind !== Tok.GlobalVar && l.kind !== Tok.GlobalID) throw this.error('expected function name in blockaddress');
    const named = l.kind === Tok.GlobalVar;
    const key = named ? l.text : l.num;
    this.next();
    const existing = named ? this.m.getGlobalValue(key as string) : this.numberedGlobals[key as number];
    if (existing !== undefined) return existing;
    const placeholder = new ForwardGlobal(this.ctx.label, named ? (key as string) : '', named ? -1 : (key as number), loc);
    this.blockAddressForwards.push(placeholder);
    return placeholder as unknown as Value;
  }
  private readonly blockAddressForwards: ForwardGlobal[] = [];

  private parseConstantExpr(t: Type, st: FunctionState | undefined, loc: number): Value {
    const ctx = this.ctx;
    const op = this.lex.text;
    this.next();
    const typeAndConst = (): Constant => this.parseTypeAndValue(st) as Constant;
    if (CAST_OPS.has(op)) {
      this.expect(Tok.LParen, "expected '(' after constantexpr cast");
      const v = typeAndConst();
      this.expectIdent('to', "expected 'to' in constantexpr cast");
      const dest = this.parseType();
      this.expect(Tok.RParen, "expected ')' at end of constantexpr cast");
      if (dest !== t) throw this.error('constant expression type mismatch', loc);
      this.checkCast(op as CastOpcode, v.type, dest, loc);
      return this.track(makeConstantExpr(ctx, op as ConstantExprOpcode, dest, [v]));
    }
    if (op === 'getelementptr') {
      const flags: string[] = [];
      let inRange: [bigint, bigint] | undefined;
      for (;;) {
        if (this.isIdent('inbounds') || this.isIdent('nusw') || this.isIdent('nuw')) {
          flags.push(this.lex.text);
          this.next();
        } else if (this.isIdent('inrange')) {
          this.next();
          this.expect(Tok.LParen, "expected '('");
          const lo = this.expectInt('expected integer');
          this.expect(Tok.Comma, "expected ','");
          const hi = this.expectInt('expected integer');
          this.expect(Tok.RParen, "expected ')'");
          inRange = [lo, hi];
        } else break;
      }
      this.expect(Tok.LParen, "expected '(' in constantexpr");
      const sourceLoc = this.lex.start;
      const source = this.parseType();
      const ops: Constant[] = [];
      let inRangeOperand: number | undefined;
      while (this.eat(Tok.Comma)) {
        if (this.eatIdent('inrange')) inRangeOperand = ops.length;
        ops.push(typeAndConst());
      }
      this.expect(Tok.RParen, "expected ')' in constantexpr");
      const extra = { flags, sourceElementType: source, ...(inRangeOperand !== undefined ? { inRangeOperand } : {}), ...(inRange ? { inRange } : {}) };
      const baseType = ops[0]?.type;
      if (baseType === undefined) throw this.error('base of getelementptr must be a pointer', loc);
      const base = this.gepBase(source, baseType, sourceLoc, loc);
      let vectorLength = baseType.kind === 'vector' ? baseType.length : -1;
      for (let i = 1; i < ops.length; i++) vectorLength = this.gepIndex(ops[i]!.type, vectorLength, loc);
      const indexed = this.gepIndexedType(source, ops, loc);
      if (this.typed) {
        // the result type follows from the indices; it must be the type the context expects
        const resultPointer = ctx.typedPtr(indexed, base.addressSpace);
        const resultType = vectorLength >= 0 ? ctx.vector(resultPointer, vectorLength) : resultPointer;
        if (resultType !== t) throw this.error(`constant expression type mismatch: got type '${typeString(resultType)}' but expected '${typeString(t)}'`, loc);
      }
      return this.track(makeConstantExpr(ctx, 'getelementptr', t, ops, extra));
    }
    if (op === 'icmp' || op === 'fcmp') {
      const preds = op === 'icmp' ? ICMP_PREDICATES : FCMP_PREDICATES;
      if (this.t() !== Tok.Ident || !preds.has(this.lex.text)) throw this.error(predicateError(op));
      const predicate = this.lex.text;
      this.next();
      this.expect(Tok.LParen, "expected '(' in compare constantexpr");
      const a = typeAndConst();
      this.expect(Tok.Comma, "expected comma in compare constantexpr");
      const b = typeAndConst();
      this.expect(Tok.RParen, "expected ')' in compare constantexpr");
      if (a.type !== b.type) throw this.error('compare operands must have the same type', loc);
      const problem = compareOperandsProblem(op, a.type, true);
      if (problem !== undefined) throw this.error(problem, loc);
      return this.track(makeConstantExpr(ctx, op, t, [a, b], { predicate }));
    }
    const generic = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'fneg', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'select', 'extractelement', 'insertelement', 'shufflevector', 'extractvalue', 'insertvalue']);
    if (generic.has(op)) {
      if (REMOVED_CONSTEXPR_OPS.has(op)) throw this.error(`${op} constexprs are no longer supported`, loc);
      const flags: string[] = [];
      while (this.t() === Tok.Ident && ['nuw', 'nsw', 'exact'].includes(this.lex.text)) {
        flags.push(this.lex.text);
        this.next();
      }
      this.expect(Tok.LParen, "expected '(' in constantexpr");
      const ops: Constant[] = [];
      do ops.push(typeAndConst());
      while (this.eat(Tok.Comma) && this.t() !== Tok.Int);
      const indices: number[] = [];
      if (op === 'extractvalue' || op === 'insertvalue') while (this.t() === Tok.Int) {
        indices.push(this.expectUInt('expected index'));
        this.eat(Tok.Comma);
      }
      this.expect(Tok.RParen, "expected ')' in constantexpr");
      const problem = constantExprOperandProblem(op, ops);
      if (problem !== undefined) throw this.error(problem, loc);
      const extra: Record<string, unknown> = {};
      if (flags.length) extra['flags'] = flags;
      if (indices.length) extra['indices'] = indices;
      if (op === 'shufflevector') extra['mask'] = shuffleMaskOf(ops[2]!);
      return this.track(makeConstantExpr(ctx, op as ConstantExprOpcode, t, op === 'shufflevector' ? ops.slice(0, 2) : ops, extra));
    }
    throw this.error('expected value token', loc);
  }

  private containsForward(v: Value): boolean {
    return this.forwardConstants.has(v as Constant);
  }

  /** Remembers constants built from forward references so they can be rebuilt at the end. */
  private track(c: Value): Value {
    if (!this.sawForwardGlobal) return c;
    const ops = constantOperands(c);
    if (ops.some((o) => (o as AnyValue).vk === 'fwd' || this.forwardConstants.has(o as Constant))) {
      this.forwardConstants.add(c as Constant);
      this.forwardRefs++;
    }
    return c;
  }
  private readonly forwardConstants = new Set<Constant>();
  /** How many forward global references (and constants built on them) the parser has handed out. */
  private forwardRefs = 0;
  /** Instructions whose operands include such a reference: the only ones patched at the end. */
  private readonly instructionsWithForwardRefs: Instruction[] = [];

  // --- metadata ----------------------------------------------------------------------------------

  private mdSlot(id: number, loc: number): MDNode {
    let n = this.mdSlots.get(id);
    if (n === undefined) {
      n = this.ctx.md.shell('tuple', false);
      this.mdSlots.set(id, n);
      this.mdRefLoc.set(id, loc);
    }
    return n;
  }

  private parseNamedMetadata(): void {
    const name = this.lex.text;
    if (name.startsWith('llvm.dbg.') || name === 'llvm.gcov') this.sawDebugInfo = true;
    this.next();
    this.expect(Tok.Equal, "expected '=' here");
    this.expect(Tok.Exclaim, "Expected '!' here");
    this.expect(Tok.LBrace, "Expected '{' here");
    const ops: MDNode[] = [];
    if (this.t() !== Tok.RBrace) {
      do {
        if (this.t() === Tok.MetadataVar && this.lex.text === 'DIExpression') {
          ops.push(this.parseMetadata() as unknown as MDNode);
          continue;
        }
        this.expect(Tok.Exclaim, "Expected '!' here");
        const loc = this.lex.start;
        const id = this.expectUInt('expected integer');
        ops.push(this.mdSlot(id, loc));
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBrace, "expected end of metadata node");
    const existing = this.m.namedMetadata.get(name);
    if (existing) existing.push(...ops);
    else this.m.namedMetadata.set(name, ops);
  }

  private parseStandaloneMetadata(): void {
    this.next();
    const id = this.expectUInt('expected integer');
    this.expect(Tok.Equal, "expected '=' here");
    // LLVM reads the node first and reports a reused id after it
    const redefined = this.mdDefined.has(id);
    const distinct = this.eatIdent('distinct');
    let shell = redefined ? undefined : this.mdSlots.get(id);
    const bodyLoc = this.lex.start;
    if (this.t() === Tok.Exclaim && this.peek() === Tok.LBrace) {
      this.next();
      const ops = this.parseMDTupleBody();
      shell ??= this.ctx.md.shell('tuple', distinct);
      (shell as { distinct: boolean }).distinct = distinct;
      (shell as MDTuple).operands = ops;
    } else if (this.t() === Tok.MetadataVar) {
      const className = this.lex.text;
      if (className === 'DIExpression' || className === 'DIArgList') {
        // A numbered DIExpression is legal input; it is printed inline everywhere.
        const expr = this.parseMetadata();
        if (redefined) throw this.error('Metadata id is already used');
        this.exprSlots.set(id, expr);
        this.mdDefined.add(id);
        return;
      }
      this.next();
      const fields = this.parseDIFields(className, distinct, bodyLoc);
      const isDistinct = distinct || (this.odrTypeUniquing && becomesDistinct(className, fields));
      shell = shell === undefined ? this.ctx.md.shell('di', isDistinct, className) : convertShellToDI(shell, className, isDistinct);
      shell.fields = fields;
    } else {
      this.expect(Tok.Exclaim, "Expected '!' here");
      throw this.error("expected '{' here");
    }
    if (redefined) throw this.error('Metadata id is already used');
    this.mdSlots.set(id, shell);
    this.mdDefined.add(id);
  }
  private readonly exprSlots = new Map<number, Metadata>();

  private parseMDTupleBody(): (Metadata | null)[] {
    this.expect(Tok.LBrace, "expected '{' here");
    const ops: (Metadata | null)[] = [];
    if (this.t() !== Tok.RBrace) {
      do {
        if (this.isIdent('null')) {
          this.next();
          ops.push(null);
        } else if (this.t() === Tok.Exclaim || this.t() === Tok.MetadataVar) ops.push(this.parseMetadata());
        else {
          const typeLoc = this.lex.start;
          const t = this.parseType(false, 'expected metadata operand');
          if (t.kind === 'metadata') throw this.error('invalid metadata-value-metadata roundtrip', typeLoc);
          ops.push(this.wrapValue(this.parseValue(t, this.pfs)));
        }
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBrace, "expected end of metadata node");
    return ops;
  }

  /** `!N`, `!{...}`, `!"str"`, `!DIxxx(...)`, `distinct !{...}` inline. */
  private parseMetadata(): Metadata {
    const l = this.lex;
    const loc = l.start;
    if (this.isIdent('distinct')) {
      this.next();
      if (this.t() === Tok.Exclaim && this.peek() === Tok.LBrace) {
        this.next();
        return this.ctx.md.distinctTuple(this.parseMDTupleBody());
      }
      if (this.t() === Tok.MetadataVar) {
        const className = l.text;
        const classLoc = l.start;
        this.next();
        return this.ctx.md.di(className, this.parseDIFields(className, true, classLoc), true);
      }
      throw this.error('expected metadata node');
    }
    if (l.kind === Tok.MetadataVar) {
      const className = l.text;
      this.next();
      if (className === 'DIExpression') return this.parseDIExpressionBody();
      if (className === 'DIArgList') throw this.error('DIArgList is only valid as a call argument', loc);
      const fields = this.parseDIFields(className, false, loc);
      if (this.odrTypeUniquing && becomesDistinct(className, fields)) return this.ctx.md.di(className, fields, true);
      const node = this.ctx.md.shell('di', false, className);
      node.fields = fields;
      this.inlineNodes.push(node);
      return node;
    }
    this.expect(Tok.Exclaim, "expected '!' here");
    if (l.kind === Tok.String) {
      const s = l.text;
      this.next();
      return this.ctx.md.string(s);
    }
    if (l.kind === Tok.LBrace) {
      const node = this.ctx.md.shell('tuple', false);
      node.operands = this.parseMDTupleBody();
      this.inlineNodes.push(node);
      return node;
    }
    // `!N`: LLVM reads the number with its plain integer reader
    const idLoc = l.start;
    const id = this.expectUInt('expected integer');
    const expr = this.exprSlots.get(id);
    if (expr !== undefined) return expr;
    return this.mdSlot(id, idLoc);
  }
  /** Inline uniqued nodes (`!{...}` written in place), canonicalized with the numbered ones. */
  private readonly inlineNodes: MDNode[] = [];

  private parseDIExpressionBody(): Metadata {
    this.expect(Tok.LParen, "expected '(' here");
    const elements: (string | bigint)[] = [];
    if (this.t() !== Tok.RParen) {
      do {
        if (this.t() === Tok.Ident) {
          elements.push(this.lex.text);
          this.next();
        } else if (this.t() === Tok.Int) elements.push(this.expectInt('expected integer'));
        else throw this.error('expected unsigned integer');
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RParen, "expected ')' here");
    return this.ctx.md.expression(elements);
  }

  /** The fields of `!className(...)`; `nodeLoc` is where `!className` is. */
  private parseDIFields(className: string, distinct: boolean, nodeLoc: number): Map<string, DIFieldValue> {
    if (!isKnownDIClass(className)) throw this.error('expected metadata type', nodeLoc);
    if (!distinct && (className === 'DICompileUnit' || className === 'DIAssignID'))
      throw this.error(`missing 'distinct', required for !${className}${className === 'DIAssignID' ? '()' : ''}`, nodeLoc);
    this.expect(Tok.LParen, "expected '(' here");
    const fields = new Map<string, DIFieldValue>();
    if (this.t() !== Tok.RParen) {
      do {
        if (this.t() !== Tok.LabelStr) throw this.error(`expected field label here`);
        const name = this.lex.text;
        if (fields.has(name)) throw this.error(`field '${name}' cannot be specified more than once`);
        const problem = checkDIFields(className, new Map([[name, null]]));
        if (problem !== undefined && problem.startsWith('invalid field')) throw this.error(problem);
        this.next();
        const valueLoc = this.lex.start;
        const value = this.parseDIFieldValue(className, name);
        const wrongKind = diFieldProblem(className, name, value);
        if (wrongKind !== undefined) throw this.error(wrongKind, valueLoc);
        fields.set(name, value);
      } while (this.eat(Tok.Comma));
    }
    const missing = checkDIFields(className, fields);
    if (missing !== undefined) throw this.error(missing);
    this.expect(Tok.RParen, "expected ')' here");
    if (className === 'DISubprogram' && !distinct && isSubprogramDefinition(fields))
      throw this.error("missing 'distinct', required for !DISubprogram that is a Definition", nodeLoc);
    return fields;
  }

  private parseDIFieldValue(className: string, fieldName: string): DIFieldValue {
    const l = this.lex;
    switch (l.kind) {
      case Tok.Int:
        return { k: 'int', v: this.expectInt('expected integer') };
      case Tok.String: {
        const s = l.text;
        this.next();
        return { k: 'str', v: s };
      }
      case Tok.Exclaim:
      case Tok.MetadataVar:
        return { k: 'md', v: this.parseMetadata() };
      case Tok.IntType:
      case Tok.LBrace:
      case Tok.LSquare:
      case Tok.Less:
      case Tok.LocalVar:
      case Tok.LocalVarID: {
        const t = this.parseType();
        return { k: 'md', v: this.wrapValue(this.parseValue(t, this.pfs)) };
      }
      case Tok.Ident: {
        const w = l.text;
        if (w === 'true' || w === 'false') {
          this.next();
          return { k: 'bool', v: w === 'true' };
        }
        if (w === 'null') {
          this.next();
          return { k: 'md', v: null };
        }
        if (w === 'distinct') return { k: 'md', v: this.parseMetadata() };
        if (TYPE_KEYWORDS.has(w)) {
          // a typed value, e.g. `value: ptr @g` in DITemplateValueParameter
          const t = this.parseType();
          return { k: 'md', v: this.wrapValue(this.parseValue(t, this.pfs)) };
        }
        const parts: (string | bigint)[] = [];
        this.next();
        parts.push(w);
        let isFlags = false;
        while (this.eat(Tok.Bar)) {
          isFlags = true;
          if (this.t() === Tok.Int) parts.push(this.expectInt('expected integer'));
          else if (this.t() === Tok.Ident) {
            parts.push(this.lex.text);
            this.next();
          } else throw this.error('expected flag');
        }
        if (isFlags || fieldName === 'flags' || fieldName === 'spFlags') return { k: 'flags', v: parts };
        return { k: 'enum', v: w };
      }
      default:
        throw this.error(diFieldExpected(className, fieldName) ?? `invalid value for field '${fieldName}' of !${className}`);
    }
  }

  /** `!kind !N` (no leading comma). */
  private parseAttachmentNoComma(list: Attachment[]): void {
    if (this.t() !== Tok.MetadataVar) throw this.error('expected metadata attachment');
    const kind = this.ctx.md.kinds.id(this.lex.text);
    if (kind === 0 || kind === 38 || this.lex.text === 'heapallocsite') this.sawDebugInfo = true;
    this.next();
    const node = this.parseMetadata();
    if (node.mk !== 'tuple' && node.mk !== 'di') throw this.error('expected metadata node');
    const i = list.findIndex((a) => a.kind === kind);
    if (i >= 0) list[i] = { kind, node };
    else list.push({ kind, node });
  }

  /** `, !kind !N` after a global variable (comma already consumed). */
  private parseAttachment(list: Attachment[]): void {
    this.parseAttachmentNoComma(list);
  }

  // --- finishing ---------------------------------------------------------------------------------

  private finish(): void {
    // undefined types
    for (const [name, e] of this.namedTypes) if (!e.defined && e.type.elements === undefined && this.typeMustBeDefined(e)) throw this.error(`use of undefined type named '${name}'`, e.loc);
    for (const [id, e] of this.numberedTypes) if (!e.defined) throw this.error(`use of undefined type '%${id}'`, e.loc);
    // undefined comdats, the first by name as LLVM reports them
    const undefinedComdats = [...this.comdatUses.keys()].filter((name) => !this.definedComdats.has(name)).sort();
    if (undefinedComdats.length > 0) throw this.error(`use of undefined comdat '$${undefinedComdats[0]}'`, this.comdatUses.get(undefinedComdats[0]!));
    if (!this.typed) this.declareCalledIntrinsics();
    // undefined globals: LLVM keeps them in an ordered map and reports the first name (id)
    if (this.fwdGlobals.size > 0) {
      const name = [...this.fwdGlobals.keys()].sort()[0]!;
      throw this.error(`use of undefined value '@${name}'`, this.fwdGlobals.get(name)!.loc);
    }
    if (this.fwdGlobalIds.size > 0) {
      const id = Math.min(...this.fwdGlobalIds.keys());
      throw this.error(`use of undefined value '@${id}'`, this.fwdGlobalIds.get(id)!.loc);
    }
    // undefined metadata
    for (const [id, loc] of this.mdRefLoc) if (!this.mdDefined.has(id)) throw this.error(`use of undefined metadata '!${id}'`, loc);
    // attribute groups
    for (const [id, set] of this.groupPlaceholders) {
      const group = this.attrGroups.get(id);
      // LLVM reads a group that is never defined as an empty one
      if (group === undefined) continue;
      set.fill(group.memory === undefined ? group.attrs : [...group.attrs, intAttr('memory', group.memory)]);
    }
    const groupSets = new Map<string, AttributeSet>();
    for (const p of this.pendingAttrs) {
      const target = p.target;
      // the common case, `#N` and nothing else, shares one set per group list
      if (p.inline.length === 0 && p.memory === undefined) {
        const key = p.groups.join(',');
        let set = groupSets.get(key);
        if (set === undefined) {
          const merged: Attribute[] = [];
          let memory: number | undefined;
          for (const g of p.groups) {
            const group = this.attrGroups.get(g);
            if (group === undefined) continue;
            merged.push(...group.attrs);
            if (group.memory !== undefined) memory = group.memory;
          }
          if (memory !== undefined) merged.push(intAttr('memory', memory));
          set = AttributeSet.of(merged);
          groupSets.set(key, set);
        }
        if (target instanceof GlobalVariable) target.attributes = set;
        else target.attributes = target.attributes.withFn(set);
        continue;
      }
      const merged: Attribute[] = [...p.inline];
      let memory = p.memory;
      for (const g of p.groups) {
        const group = this.attrGroups.get(g);
        if (group === undefined) continue;
        merged.push(...group.attrs);
        if (group.memory !== undefined) memory = group.memory;
      }
      if (memory !== undefined) merged.push(intAttr('memory', memory));
      const set = AttributeSet.of(merged);
      if (target instanceof GlobalVariable) target.attributes = set;
      else target.attributes = target.attributes.withFn(set);
    }
    for (const fn of this.m.functions) {
      // an `align` from a group is the function's alignment, and wins over the header's
      const a = fn.attributes.fn.get('align');
      if (a?.kind === 'int') {
        fn.align = a.value as number;
        fn.attributes = fn.attributes.withFn(fn.attributes.fn.without('align'));
      }
    }
    if (this.blockAddressForwards.length > 0) {
      for (const f of this.blockAddressForwards) {
        const gv = f.id < 0 ? this.m.getGlobalValue(f.name) : this.numberedGlobals[f.id];
        if (gv === undefined) throw this.error(`use of undefined value '@${f.id < 0 ? f.name : f.id}'`, f.loc);
        this.resolvedForward.set(f, gv);
      }
    }
    if (this.resolvedForward.size > 0) this.patchForwardGlobals();
    this.resolveBlockAddresses();
    this.finishMetadata();
    upgradeIntrinsics(this.m);
  }

  /**
   * LLVM 19 declares an intrinsic that is called but never declared (validateEndOfModule), at the
   * end of the module, in name order. Only intrinsics that are not overloaded are declared here:
   * an overloaded one takes its name suffix from its signature table, which this library does not
   * have, so it stays an undefined value. The call's type is not checked against the
   * intrinsic's signature (LLVM's `invalid intrinsic signature`), only between the calls.
   */
  private declareCalledIntrinsics(): void {
    if (this.fwdGlobals.size === 0) return;
    const names = [...this.fwdGlobals.keys()].filter((n) => n.startsWith('llvm.')).sort();
    for (const name of names) {
      const f = this.fwdGlobals.get(name)!;
      const info = lookupIntrinsic(name);
      if (info === undefined || info.overloaded) continue;
      if (f.calleeUses !== f.uses) throw this.error('intrinsic can only be used as callee', f.loc);
      const fnType = f.calleeType;
      if (fnType === null || fnType === undefined) throw this.error('invalid intrinsic signature', f.loc);
      const fn = new IRFunction(name, fnType, f.type as PointerType, AttributeList.empty);
      fn.args = fnType.params.map((t) => new Argument(t, '', fn));
      this.m.addFunction(fn);
      this.fwdGlobals.delete(name);
      this.resolvedForward.set(f, fn);
    }
  }

  private typeMustBeDefined(e: { type: StructType; defined: boolean }): boolean {
    // A named type that is referenced but never defined is an error in LLVM.
    return !e.defined;
  }

  private patchForwardGlobals(): void {
    const resolved = this.resolvedForward;
    const rebuilt = new Map<Constant, Constant>();
    const fix = (v: Value): Value => {
      const any = v as AnyValue;
      if (any.vk === 'fwd') return resolved.get(any)!;
      if (this.forwardConstants.has(v as Constant)) return rebuild(v as Constant);
      return v;
    };
    const rebuild = (c: Constant): Constant => {
      let r = rebuilt.get(c);
      if (r !== undefined) return r;
      r = rebuildConstant(this.ctx, c, (o) => fix(o) as Constant);
      rebuilt.set(c, r);
      return r;
    };
    for (const gv of this.m.globals) if (gv.initializer) gv.initializer = fix(gv.initializer) as Constant;
    for (const a of this.m.aliases) a.aliasee = fix(a.aliasee) as Constant;
    for (const i of this.m.ifuncs) i.resolver = fix(i.resolver) as Constant;
    for (const fn of this.m.functions) {
      if (fn.personality) fn.personality = fix(fn.personality) as Constant;
      if (fn.prefix) fn.prefix = fix(fn.prefix) as Constant;
      if (fn.prologue) fn.prologue = fix(fn.prologue) as Constant;
    }
    // only the instructions that were handed a forward reference: walking every instruction
    // again after the parse costs a cache miss each
    for (const inst of this.instructionsWithForwardRefs) {
      const ops = inst.operands;
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i]!;
        const f = fix(op);
        if (f !== op) ops[i] = f;
      }
      if (inst instanceof CallInst) for (const bundle of inst.bundles) bundle.inputs.forEach((v, i) => (bundle.inputs[i] = fix(v)));
    }
    for (const { ba } of this.blockAddresses) ba.fn = fix(ba.fn);
    // metadata wrappers: point them at the real values
    for (const w of this.wrappersOfForwardGlobals) {
      (w as { value: Value }).value = fix(w.value);
    }
    this.valueWrapperFixups = this.wrappersOfForwardGlobals;
  }
  private valueWrapperFixups: ValueAsMetadata[] = [];

  private resolveBlockAddresses(): void {
    for (const { ba, loc } of this.blockAddresses) {
      const fn = ba.fn;
      if (fn.vk !== 'function') throw this.error('expected function name in blockaddress', loc);
      const name = ba.block as string;
      let block: BasicBlock | undefined;
      if (name.startsWith('#')) {
        const id = Number(name.slice(1));
        let n = fn.args.filter((a) => a.name === '').length;
        for (const b of fn.blocks) {
          if (b.name === '') {
            if (n === id) block = b;
            n++;
          }
          for (const i of b.instructions) if (i.name === '' && i.type.kind !== 'void') n++;
        }
      } else block = fn.blocks.find((b) => b.name === name);
      if (block === undefined) throw this.error(`referenced value is not a basic block`, loc);
      ba.block = block;
    }
  }

  private finishMetadata(): void {
    const md = this.ctx.md;
    // Value wrappers that became duplicates after forward globals were resolved.
    const wrapperDupes = new Map<Metadata, Metadata>();
    for (const w of this.valueWrapperFixups) {
      const canonical = md.value(w.value);
      if (canonical !== w) wrapperDupes.set(w, canonical);
    }
    if (wrapperDupes.size > 0) this.replaceMetadataEverywhere(wrapperDupes as Map<MDNode, MDNode>);
    // a uniqued node that is its own operand cannot be uniqued: LLVM makes it distinct
    for (const n of this.mdSlots.values()) if (!n.distinct && refersToItself(n)) (n as { distinct: boolean }).distinct = true;
    const shells: MDNode[] = [];
    for (const n of this.mdSlots.values()) if (!n.distinct) shells.push(n);
    for (const n of this.inlineNodes) shells.push(n);
    // distinct nodes also need their operands canonicalized
    const distinct: MDNode[] = [];
    for (const n of this.mdSlots.values()) if (n.distinct) distinct.push(n);
    const replacements = md.canonicalize([...shells, ...distinct]);
    if (replacements.size > 0) this.replaceMetadataEverywhere(replacements);
  }

  /** Rewrites every reference to a replaced metadata node (attachments, named metadata, operands). */
  private replaceMetadataEverywhere(map: Map<MDNode, MDNode>): void {
    const get = <T extends Metadata | null>(m: T): T => ((m !== null && (map.get(m as MDNode) as T | undefined)) || m);
    const fixNode = (n: MDNode): void => {
      if (n.mk === 'tuple') {
        for (let i = 0; i < n.operands.length; i++) n.operands[i] = get(n.operands[i]!);
      } else for (const [k, f] of n.fields) if (f.k === 'md') n.fields.set(k, { k: 'md', v: get(f.v) });
    };
    for (const n of this.mdSlots.values()) fixNode(n);
    for (const n of map.values()) fixNode(n);
    for (const n of this.inlineNodes) fixNode(n);
    for (const [id, n] of this.mdSlots) {
      const r = map.get(n);
      if (r) this.mdSlots.set(id, r);
    }
    const fixList = (list: Attachment[] | null): void => {
      if (list === null) return;
      for (let i = 0; i < list.length; i++) {
        const a = list[i]!;
        const r = map.get(a.node);
        if (r) list[i] = { kind: a.kind, node: r };
      }
    };
    for (const [name, ops] of this.m.namedMetadata) this.m.namedMetadata.set(name, ops.map((o) => get(o)));
    for (const g of this.m.globals) fixList(g.attachments);
    for (const f of this.m.functions) {
      fixList(f.attachments);
      for (const b of f.blocks) {
        for (const inst of b.instructions) {
          fixList(inst.attachments);
          for (const op of inst.operands) if (op.vk === 'metadata') op.metadata = get(op.metadata);
          if (inst.debugRecords) for (let r = 0; r < inst.debugRecords.length; r++) {
            const rec = inst.debugRecords[r]!;
            inst.debugRecords[r] = { kind: rec.kind, operands: rec.operands.map((o) => get(o)) };
          }
        }
      }
    }
  }
}

const DEBUG_RECORD_KINDS = new Set(['value', 'declare', 'assign', 'label']);
/** The intrinsics LLVM 19's debug records replace (`isOldDbgFormatIntrinsic`). */
const OLD_DEBUG_INTRINSICS = new Set(['llvm.dbg.value', 'llvm.dbg.declare', 'llvm.dbg.assign', 'llvm.dbg.label']);
const TYPE_ARG_ATTRS = new Set(['byval', 'sret', 'inalloca', 'preallocated', 'byref', 'elementtype']);
const NO_ATTRS: Attribute[] = [];
/** Words that start a typed value in a DI field (`void ()* @f` with typed pointers). */
const TYPE_KEYWORDS = new Set(['ptr', 'half', 'bfloat', 'float', 'double', 'x86_fp80', 'fp128', 'ppc_fp128', 'target', 'void']);
const NO_FN_ATTRS: { attrs: Attribute[]; groups: number[]; memory: number | undefined } = { attrs: [], groups: [], memory: undefined };


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

function indexedType(t: Type, indices: readonly number[], fail: () => Error): Type {
  let cur = t;
  for (const i of indices) {
    if (cur.kind === 'struct' && cur.elements && i < cur.elements.length) cur = cur.elements[i]!;
    else if (cur.kind === 'array' && i < cur.length) cur = cur.element;
    else throw fail();
  }
  return cur;
}

/** Constant expressions LLVM 16 no longer reads (LLVM 19 drops more: `and`, `or`, `lshr`, `select`...). */
const REMOVED_CONSTEXPR_OPS: ReadonlySet<string> = new Set(['udiv', 'sdiv', 'urem', 'srem', 'fneg', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'extractvalue', 'insertvalue']);
const INT_CONSTEXPR_OPS: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'shl', 'lshr', 'ashr']);

/** What LLParser says about the operand types of a constant expression, or undefined when fine. */
function constantExprOperandProblem(op: string, ops: readonly Constant[]): string | undefined {
  const [a, b, c] = ops.map((o) => o.type);
  if (INT_CONSTEXPR_OPS.has(op) || op === 'and' || op === 'or' || op === 'xor') {
    if (a !== b) return 'operands of constexpr must have same type';
    if (INT_CONSTEXPR_OPS.has(op)) return isIntOrIntVector(a!) ? undefined : 'constexpr requires integer operands';
    return isIntOrIntVector(a!) ? undefined : 'constexpr requires integer or integer vector operands';
  }
  switch (op) {
    case 'select':
      return ops.length === 3 ? selectOperandsProblem(a!, b!, c!) : 'expected three operands to select';
    case 'extractelement':
      return ops.length === 2 && extractElementValid(a!, b!) ? undefined : 'invalid extractelement operands';
    case 'insertelement':
      return ops.length === 3 && insertElementValid(a!, b!, c!) ? undefined : 'invalid insertelement operands';
    case 'shufflevector':
      return ops.length === 3 && shuffleVectorValid(a!, b!, ops[2]!) ? undefined : 'invalid operands to shufflevector';
    default:
      return undefined;
  }
}

/** Whether `n` has itself as a direct operand (a tuple element or a debug-info field). */
function refersToItself(n: MDNode): boolean {
  if (n.mk === 'tuple') return n.operands.includes(n);
  for (const f of n.fields.values()) if (f.k === 'md' && f.v === n) return true;
  return false;
}

/**
 * Whether a `!DISubprogram` is a definition: its `spFlags` has `DISPFlagDefinition`, or, in older
 * IR without `spFlags`, `isDefinition` is true (its default).
 */
function isSubprogramDefinition(fields: ReadonlyMap<string, DIFieldValue>): boolean {
  const sp = fields.get('spFlags');
  if (sp !== undefined) {
    const parts = sp.k === 'flags' ? sp.v : sp.k === 'enum' ? [sp.v] : sp.k === 'int' ? [sp.v] : [];
    return parts.some((p) => p === 'DISPFlagDefinition' || (typeof p === 'bigint' && (p & 8n) !== 0n));
  }
  const def = fields.get('isDefinition');
  return def === undefined || (def.k === 'bool' && def.v);
}

/** Mask elements of a shufflevector mask constant (-1 for undef/poison lanes). */
function shuffleMaskOf(mask: Value): number[] {
  const t = mask.type;
  const n = t.kind === 'vector' ? t.length : 0;
  switch (mask.vk) {
    case 'zero':
      return new Array<number>(n).fill(0);
    case 'undef':
    case 'poison':
      return new Array<number>(n).fill(-1);
    case 'vector':
      return mask.elements.map((e) => (e.vk === 'int' ? Number(e.value) : -1));
    default:
      return new Array<number>(n).fill(-1);
  }
}


/** Rebuilds a constant with its operands mapped (used to resolve forward global references). */
export function rebuildConstant(ctx: Context, c: Constant, map: (v: Constant) => Constant): Constant {
  switch (c.vk) {
    case 'array':
      return makeArray(ctx, c.type, c.elements.map(map));
    case 'vector':
      return makeVector(ctx, c.type, c.elements.map(map));
    case 'struct':
      return makeStruct(ctx, c.type, c.fields.map(map));
    case 'expr':
      // refolded, as LLVM's replaceAllUsesWith of a forward reference refolds its constant users
      return makeConstantExpr(ctx, c.opcode, c.type, c.operands.map(map), c.extra);
    case 'dso_local_equivalent':
      return new DSOLocalEquivalent(c.type, map(c.global as Constant));
    case 'no_cfi':
      return new NoCFIValue(c.type, map(c.global as Constant));
    default:
      return c;
  }
}

/**
 * A forward-referenced `!N` starts as an empty tuple shell; when its definition turns out to be a
 * specialized node, the same object becomes that node so no reference needs rewriting.
 */
function convertShellToDI(shell: MDNode, className: string, distinct: boolean): DINode {
  if (shell.mk === 'di') {
    (shell as { distinct: boolean }).distinct = distinct;
    return shell;
  }
  const node = shell as unknown as Record<string, unknown>;
  Object.setPrototypeOf(node, DINode.prototype);
  node['mk'] = 'di';
  delete node['operands'];
  node['className'] = className;
  node['fields'] = new Map<string, DIFieldValue>();
  node['distinct'] = distinct;
  return node as unknown as DINode;
}

/** With ODR type uniquing (opt's setting) a DICompositeType with an identifier is built distinct. */
function becomesDistinct(className: string, fields: ReadonlyMap<string, DIFieldValue>): boolean {
  if (className !== 'DICompositeType') return false;
  const id = fields.get('identifier');
  return id !== undefined && id.k === 'str' && id.v !== '';
}

/**
 * An exact-size copy of a list built by `push`: V8 grows such a list to at least 17 slots, and
 * parsed IR lives as long as the module (about 10 MB less heap on a 10 MB module).
 */
function exactCopy<T>(list: T[]): T[] {
  return list.slice();
}

function stackAlignmentProblem(value: number): string | undefined {
  return value === 0 || (value & (value - 1)) !== 0 ? 'stack alignment is not a power of two' : undefined;
}

function dereferenceableProblem(value: number): string | undefined {
  return value === 0 ? 'dereferenceable bytes must be non-zero' : undefined;
}

function predicateError(op: 'icmp' | 'fcmp'): string {
  return op === 'icmp' ? "expected icmp predicate (e.g. 'eq')" : "expected fcmp predicate (e.g. 'oeq')";
}

/** LLVM's `getTypeString`, which its reader's messages use: a named struct comes with its body. */
function typeString(t: Type): string {
  const text = formatType(t);
  if (t.kind !== 'struct' || t.literal) return text;
  if (t.elements === undefined) return `${text} = type opaque`;
  const body = t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => formatType(e)).join(', ')} }`;
  return `${text} = type ${t.packed ? `<${body}>` : body}`;
}

/** LLVM's `PointerType::isValidElementType`. */
function isValidPointerElementType(t: Type): boolean {
  return t.kind !== 'void' && t.kind !== 'label' && t.kind !== 'metadata' && t.kind !== 'token' && t.kind !== 'x86_amx';
}

/** LLVM's test for a global's value type: not a function, nor a type no pointer can point to. */
function isValidGlobalValueType(t: Type): boolean {
  return t.kind !== 'function' && isValidPointerElementType(t);
}

/** Whether a struct holds itself by value, through its elements (`%T = type { %T }`). */
function containsItself(t: Type, path: Set<Type> = new Set()): boolean {
  const elements = t.kind === 'struct' ? t.elements ?? [] : t.kind === 'array' || t.kind === 'vector' ? [t.element] : [];
  if (elements.length === 0) return false;
  if (path.has(t)) return true;
  path.add(t);
  const found = elements.some((e) => containsItself(e, path));
  path.delete(t);
  return found;
}

/**
 * The parser's state (symbol tables, forward references, the function being read, the pointer
 * syntax) and its token helpers: the base every section of the parser extends.
 */
import { AttributeSet, type Attribute, type AttributeList } from '../model/attributes.js';
import { Context } from '../model/context.js';
import { IrSyntaxError } from '../errors.js';
import { formatType } from '../printer/printer.js';
import { CallInst, Instruction } from '../model/instructions.js';
import { NameTable } from '../model/nametable.js';
import type { Attachment, MDNode, Metadata, ValueAsMetadata } from '../model/metadata.js';
import { Module } from '../model/module.js';
import type { FunctionType, PointerType, StructType, Type } from '../model/types.js';
import {
  BasicBlock,
  BlockAddress,
  GlobalVariable,
  IRFunction,
  type Constant,
  type GlobalValue,
  type Value,
} from '../model/values.js';
import { Lexer, Tok, intTokenNumber, intTokenValue, warmUpLexer } from './lexer.js';
import type { ParseOptions } from './parser.js';

/** Placeholder for a global referenced before its definition. */
export class ForwardGlobal {
  readonly vk = 'fwd' as const;
  /** References read, and how many of them were a call's callee (with the calls' type, null when they differ). */
  uses = 0;
  calleeUses = 0;
  calleeType: FunctionType | null | undefined = undefined;
  constructor(
    readonly type: Type,
    readonly name: string,
    readonly id: number,
    readonly loc: number,
  ) {}
}

/** Placeholder for a local value (instruction or argument) referenced before its definition. */
export class ForwardLocal {
  readonly vk = 'fwdlocal' as const;
  constructor(
    readonly type: Type,
    readonly name: string,
    readonly id: number,
    readonly loc: number,
  ) {}
}

export type AnyValue = Value | ForwardGlobal | ForwardLocal;

export interface PendingAttrs {
  readonly target: IRFunction | CallInst | GlobalVariable;
  readonly inline: Attribute[];
  readonly groups: number[];
  readonly memory: number | undefined;
  readonly loc: number;
}

export interface FunctionState {
  fn: IRFunction;
  named: NameTable<Value>;
  numbered: Value[];
  fwdNamed: Map<string, ForwardLocal>;
  fwdNumbered: Map<number, ForwardLocal>;
  blocksNamed: NameTable<BasicBlock>;
  /** Numbered blocks referenced before their label. */
  blocksNumbered: Map<number, BasicBlock>;
  /**
   * Blocks referenced before their label: where the first reference is, then -1 once the label is
   * read. Blocks defined before any reference are not in it.
   */
  blockStates: Map<BasicBlock, number>;
  /** How many blocks of `blockStates` are still waiting for their label. */
  pendingBlocks: number;
  hasForwardLocals: boolean;
  /** The block being read. */
  block: BasicBlock | undefined;
  /** Set when the instruction being read uses a local defined in another block, or not yet. */
  usesNonLocal: boolean;
  /** Set when the instruction being read (or a debug record before it) uses a local not defined yet. */
  usesForward: boolean;
  /** Instructions that use a value defined in another block or later, in order. */
  nonLocalUsers: Instruction[];
  /** PHI nodes right after an instruction that is not one, in order. */
  phisAfterOthers: Instruction[];
  /** Calls with return or parameter attributes, and calls of intrinsics, in order. */
  callsToCheck: CallInst[];
  callsWithFunctionAttributes: CallInst[];
}

export abstract class ParserState {
  protected readonly lex: Lexer;
  protected readonly ctx: Context;
  protected readonly m: Module;
  protected readonly namedTypes = new Map<string, { type: StructType; defined: boolean; loc: number }>();
  protected readonly numberedTypes = new Map<number, { type: StructType; defined: boolean; loc: number }>();
  protected readonly numberedGlobals: (GlobalValue | undefined)[] = [];
  protected readonly fwdGlobals = new Map<string, ForwardGlobal>();
  protected readonly fwdGlobalIds = new Map<number, ForwardGlobal>();
  protected readonly mdSlots = new Map<number, MDNode>();
  protected readonly mdDefined = new Set<number>();
  protected readonly mdRefLoc = new Map<number, number>();
  protected readonly attrGroups = new Map<number, { attrs: Attribute[]; memory: number | undefined }>();
  protected readonly groupPlaceholders = new Map<number, AttributeSet>();
  protected readonly pendingAttrs: PendingAttrs[] = [];
  protected readonly wrappersOfForwardGlobals: ValueAsMetadata[] = [];
  protected readonly blockAddresses: { ba: BlockAddress; loc: number }[] = [];
  /** Instructions and holders that reference forward globals, patched at the end. */
  protected sawForwardGlobal = false;
  protected pfs: FunctionState | undefined = undefined;
  /** Whether anything debug-info related was read (so stripping it can be skipped otherwise). */
  sawDebugInfo = false;
  /** Where the first debug record (LLVM 19 syntax) was read, and whether a `llvm.dbg.*` call was. */
  protected sawDebugRecordAt: number | undefined = undefined;
  protected sawDebugIntrinsicCall = false;
  odrTypeUniquing = true;
  onFunction: ParseOptions['onFunction'] = undefined;
  /** The module keeps typed pointers (`preserve-typed` and its first pointer type is `T*`). */
  protected typed = false;
  /** `preserve-typed` and the first pointer type is `ptr`: `T*` is an error. */
  protected rejectTyped = false;
  /** Offset of the pointer type that decided the syntax (for errors). */
  protected decidedAt = 0;
  /** `%T = type <non-struct type>`: the name stands for that type. */
  protected readonly typeAliases = new Map<string | number, Type>();
  protected readonly definedComdats = new Set<string>();
  /** Parameter attribute sets by their source text (see `parseParamAttributeSet`). */
  protected readonly attrSetCache = new NameTable<AttributeSet>(64);
  /** Parameter attribute sets of one enum keyword (`noundef`), by the keyword. */
  protected readonly singleAttributeSets = new Map<string, AttributeSet>();
  /** Call-site attribute lists by their sets: function, return, then each parameter (see `callAttributeList`). */
  protected readonly callAttributeLists = new IdentityTrie<AttributeSet, AttributeList>();
  /** Function types of calls written without one, by return type and argument types (see `parseCall`). */
  protected readonly callTypes = new IdentityTrie<Type, FunctionType>();
  /** Lists `parseCall` fills and copies, so a call leaves no grown lists behind. */
  protected readonly callOperands = new ScratchList<Value>();
  protected readonly callArgumentSets = new ScratchList<AttributeSet>();
  /** The list `parseGEP` gathers a GEP's operands in. */
  protected readonly gepOperands = new ScratchList<Value>();
  /** Instructions of the function being read that hold a forward reference to a local, in order. */
  protected readonly forwardLocalUsers = new ScratchList<Instruction>();
  /** The list `parseBasicBlock` gathers a block's instructions in. */
  protected readonly blockInstructions = new ScratchList<Instruction>();
  /**
   * One attachment per node (for the first kind it is attached with), in a frozen list of one:
   * `!tbaa !8` on thousands of loads and stores shares the attachment and the list.
   */
  protected readonly sharedAttachments = new Map<MDNode, readonly Attachment[]>();
  protected readonly comdatUses = new Map<string, number>();
  protected readonly resolvedForward = new Map<ForwardGlobal, GlobalValue>();
  /** Defined globals by name, probed with source spans (no string per reference). */
  protected readonly globalIndex = new NameTable<GlobalValue>(1024);
  /** Per-function name tables, emptied and reused for each function body. */
  protected readonly localNames = new NameTable<Value>(64);
  protected readonly blockNames = new NameTable<BasicBlock>(16);
  protected readonly forwardNamedLocals = new Map<string, ForwardLocal>();
  protected readonly forwardNumberedLocals = new Map<number, ForwardLocal>();
  protected readonly forwardNumberedBlocks = new Map<number, BasicBlock>();
  protected readonly blockStates = new Map<BasicBlock, number>();
  protected readonly resolvedLocals = new Map<ForwardLocal, Value>();
  protected readonly blockAddressForwards: ForwardGlobal[] = [];
  protected readonly forwardConstants = new Set<Constant>();
  /** How many forward global references (and constants built on them) the parser has handed out. */
  protected forwardRefs = 0;
  /** Instructions whose operands include such a reference: the only ones patched at the end. */
  protected readonly instructionsWithForwardRefs: Instruction[] = [];
  protected readonly exprSlots = new Map<number, Metadata>();
  /** Inline uniqued nodes (`!{...}` written in place), canonicalized with the numbered ones. */
  protected readonly inlineNodes: MDNode[] = [];
  protected valueWrapperFixups: ValueAsMetadata[] = [];

  constructor(
    source: string,
    private readonly filename: string,
    context: Context,
  ) {
    warmUpLexer();
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
  protected decidedWhere(): string {
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
  protected pointerTo(pointee: Type, addressSpace: number): PointerType {
    return this.typed ? this.ctx.typedPtr(pointee, addressSpace) : this.ctx.ptr(addressSpace);
  }

  // --- token helpers ------------------------------------------------------------------------------

  /** The current token kind (a method, so TypeScript does not keep stale narrowings). */
  protected t(): Tok {
    return this.lex.kind;
  }
  protected next(): Tok {
    return this.lex.next();
  }
  protected error(message: string, at?: number): IrSyntaxError {
    return this.lex.error(message, at);
  }
  protected isIdent(word: string): boolean {
    return this.lex.isIdent(word);
  }
  protected eatIdent(word: string): boolean {
    if (this.isIdent(word)) {
      this.next();
      return true;
    }
    return false;
  }
  protected expectIdent(word: string, message?: string): void {
    // the default message is made only for the error: a template default would build a string per call
    if (!this.eatIdent(word)) throw this.error(message ?? `expected '${word}'`);
  }
  protected eat(kind: Tok): boolean {
    if (this.lex.kind === kind) {
      this.next();
      return true;
    }
    return false;
  }
  protected expect(kind: Tok, message: string): void {
    if (this.lex.kind !== kind) throw this.error(message);
    this.next();
  }
  /**
   * Whether the token after the current one (a comma) is a metadata name: the `, !kind !N` of an
   * attachment rather than another operand. Looks at the next character first, so the common
   * answer (no) costs no second lexing of the next token.
   */
  protected commaStartsAttachment(): boolean {
    const l = this.lex;
    const src = l.src;
    let p = l.pos;
    let c = src.charCodeAt(p);
    while (c === 32 || c === 10 || c === 9 || c === 13 || c === 0) c = src.charCodeAt(++p);
    // a metadata name starts with '!'; comments (';', '/*') are left to the lexer
    if (c !== 33 && c !== 59 && c !== 47) return false;
    return this.peek() === Tok.MetadataVar;
  }
  /** Kind of the token after the current one, without consuming anything. */
  protected peek(): Tok {
    const l = this.lex;
    l.save();
    const k = l.next();
    l.restore();
    return k;
  }
  /** A string constant; LLVM words every miss the same way. */
  protected expectString(): string {
    if (this.t() !== Tok.String) throw this.error('expected string constant');
    const s = this.lex.text;
    this.next();
    return s;
  }
  protected expectUInt(message: string): number {
    // an integer token's text starts where the token does: its sign is that character
    if (this.t() !== Tok.Int || this.lex.src.charCodeAt(this.lex.start) === 45) throw this.error(message);
    const v = this.lex.intNumber ?? Number(intTokenNumber(this.lex.text));
    this.next();
    return v;
  }
  protected expectInt(message: string): bigint {
    if (this.t() !== Tok.Int) throw this.error(message);
    const v = intTokenValue(this.lex.text);
    this.next();
    return v;
  }
}

/**
 * An exact-size copy of the first `length` items of a list built by `push`: V8 grows such a list
 * to at least 17 slots, and parsed IR lives as long as the module (about 10 MB less heap on a
 * 10 MB module).
 *
 * Short lists (nearly all operand, attachment and block lists) are made by array literals, not
 * `slice`: a literal has an allocation site, V8 sees that what it makes survives and then
 * allocates it in the old generation directly, so the scavenger does not copy it twice (about
 * 12 % less garbage-collector work while parsing the 10 MiB module).
 */
export function exactCopy<T>(list: readonly T[], length = list.length): T[] {
  switch (length) {
    case 0:
      return [];
    case 1:
      return [list[0]!];
    case 2:
      return [list[0]!, list[1]!];
    case 3:
      return [list[0]!, list[1]!, list[2]!];
    case 4:
      return [list[0]!, list[1]!, list[2]!, list[3]!];
    case 5:
      return [list[0]!, list[1]!, list[2]!, list[3]!, list[4]!];
    case 6:
      return [list[0]!, list[1]!, list[2]!, list[3]!, list[4]!, list[5]!];
    case 7:
      return [list[0]!, list[1]!, list[2]!, list[3]!, list[4]!, list[5]!, list[6]!];
    case 8:
      return [list[0]!, list[1]!, list[2]!, list[3]!, list[4]!, list[5]!, list[6]!, list[7]!];
    default:
      return list.slice(0, length);
  }
}

/**
 * A list the parser fills again for each instruction (or block) and then copies at its exact size,
 * so a parse leaves no grown lists behind. It is emptied by resetting a count: `array.length = 0`
 * makes V8 drop the backing store, and every use would allocate (and discard) a new one.
 */
export class ScratchList<T> {
  private readonly items: T[] = [];
  length = 0;

  clear(): void {
    this.length = 0;
  }
  push(item: T): void {
    this.items[this.length++] = item;
  }
  get(index: number): T {
    return this.items[index]!;
  }
  set(index: number, item: T): void {
    this.items[index] = item;
  }
  /** The items from `start` on, as an array of their own (exact size; see {@link exactCopy}). */
  copy(start = 0): T[] {
    return start === 0 ? exactCopy(this.items, this.length) : this.items.slice(start, this.length);
  }
}

/**
 * A map from sequences of objects (compared by identity) to values: one node per prefix, so a
 * lookup takes one map probe per element and builds no key.
 */
export class IdentityTrie<K, V> {
  value: V | undefined = undefined;
  private children: Map<K, IdentityTrie<K, V>> | undefined = undefined;

  /** The node for this node's sequence followed by `key`, made on first use. */
  child(key: K): IdentityTrie<K, V> {
    let c = this.children?.get(key);
    if (c === undefined) {
      c = new IdentityTrie<K, V>();
      (this.children ??= new Map()).set(key, c);
    }
    return c;
  }
}

/** LLVM's `getTypeString`, which its reader's messages use: a named struct comes with its body. */
export function typeString(t: Type): string {
  const text = formatType(t);
  if (t.kind !== 'struct' || t.literal) return text;
  if (t.elements === undefined) return `${text} = type opaque`;
  const body = t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => formatType(e)).join(', ')} }`;
  return `${text} = type ${t.packed ? `<${body}>` : body}`;
}

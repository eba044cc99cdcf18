/**
 * Links modules the way `llvm-link` does (LLVM's ModuleLinker + IRMover), for the IR SYCL device
 * code contains. `linkModules([a, b, ...])` links every module into a fresh module named
 * `llvm-link`, so that printing the result gives what `llvm-link -S a.ll b.ll ...` prints:
 *
 * - symbol resolution: declarations bind to definitions; `linkonce`/`weak` definitions and
 *   comdats (`any`: the first module's copy wins) are deduplicated; two strong definitions are
 *   an error; local (`internal`/`private`) symbols that clash are renamed `name.N`;
 * - lazy linking: local and `linkonce` definitions are only brought in when referenced, in the
 *   order LLVM's value mapper discovers them (which decides the function order of the output);
 * - identified struct types of the linked-in module are mapped onto isomorphic destination types
 *   (`%struct.A.0` back to `%struct.A`), and every value is copied through that type map;
 * - named metadata is concatenated, `!llvm.module.flags` merged by behaviour (error, warning,
 *   require, override, append, append-unique, max, min), `appending` arrays concatenated.
 *
 * Source modules are copied, not consumed (unless `moveBodies` moves their function bodies, or
 * `consumeInputs` makes their globals the result's own); the one other visible change to them is
 * to struct type names: a source type merged into a destination type loses its name, and one the destination
 * needs a copy of hands its name over (as in LLVM, where the source module is consumed).
 *
 * Not done (LLVM does them): comdat selection kinds other than `any` and `nodeduplicate` across
 * modules, cloning a nodeduplicate variable defined in both modules, private copies of aliasees
 * that lose symbol resolution (aliases map to the resolved aliasee), intrinsic remangling after
 * struct renaming, ThinLTO import, and NVPTX's dot-less `.N` renaming.
 */
import { AttributeList } from '../model/attributes.js';
import type { Context } from '../model/context.js';
import { makeArray, makeStruct, nullValue } from '../model/constfold.js';
import { IrError } from '../errors.js';
import { ValueMapper } from '../transforms/mapper.js';
import type { Metadata, MDNode, MDString, MDTuple } from '../model/metadata.js';
import { Module } from '../model/module.js';
import { replaceAllUsesWith } from '../transforms/replace.js';
import type { CallInst } from '../model/instructions.js';
import { subtypes, type ArrayType, type FunctionType, type PointerType, type StructType, type Type } from '../model/types.js';
import { identifiedStructTypes } from '../analysis/type-finder.js';
import {
  Argument,
  GlobalAlias,
  GlobalIFunc,
  GlobalVariable,
  IRFunction,
  isGlobalValue,
  stripPointerCasts,
  type ComdatSelection,
  Comdat,
  type Constant,
  type GlobalValue,
  type UnnamedAddr,
  type Value,
  type Visibility,
} from '../model/values.js';

export interface LinkOptions {
  /** Receives warnings: module flag conflicts of `warning` behaviour, data layout or triple mismatches. */
  readonly onWarning?: (message: string) => void;
  /**
   * Accept a declaration and a definition of one symbol with different types (llvm-link accepts
   * them silently under opaque pointers). Off by default: such a pair is an {@link IrError}.
   */
  readonly allowTypeMismatch?: boolean;
  /**
   * `llvm-link --only-needed` (LLVM's `LinkOnlyNeeded`): bring in only definitions the
   * destination references (plus appending arrays), as DPC++ does for device libraries.
   * `linkModules` applies it from the second input on, as llvm-link does.
   */
  readonly onlyNeeded?: boolean;
  /**
   * Move function bodies out of the inputs instead of copying them: the result is the same, but
   * nothing is allocated per instruction, and the inputs are left with bodiless functions. For
   * callers that drop the inputs after linking (`syclkit compile`).
   */
  readonly moveBodies?: boolean;
  /**
   * The inputs are consumed: a source global that becomes a new global of the result is that
   * same object, taken over with its body, initializer or aliasee (an identity value map), instead
   * of a copy. What the link changes is still changed, in place: types of merged struct types,
   * references to globals that resolve elsewhere, names, linkage of declarations. Linking one
   * module this way costs a walk over its operands and allocates almost nothing. Implies
   * `moveBodies`; the inputs are left without their globals.
   */
  readonly consumeInputs?: boolean;
}

export interface LinkModulesOptions extends LinkOptions {
  /** Module id of the result (`llvm-link`, like llvm-link's composite module). */
  readonly id?: string;
  /** Receives what the link found out about its result, once it is made. */
  readonly onLinked?: (facts: LinkFacts) => void;
}

/** What a link knows about its result as it returns it (before anything else changes it). */
export interface LinkFacts {
  /**
   * Every global of the result is reached from `eraseUnused`'s default roots through operands,
   * initializers, aliasees and resolvers (references from metadata do not count), so
   * `eraseUnused` would erase nothing. Known for a link of one module into an empty one in which
   * no global came in through metadata alone: every global then came as a root (a definition
   * that is not discardable) or as a reference from a global already there. False when unknown.
   */
  readonly everyGlobalUsed: boolean;
  /**
   * Every function of the result is the input's own object with its body exactly as it was:
   * nothing of a body, argument, signature or attachment list was rewritten (merged struct types,
   * globals mapped elsewhere, nulled metadata) and no global was renamed. Dropping `nocallback`
   * from calls and functions does not count. Known for a link of one consumed module
   * (`consumeInputs`) into an empty one; false when unknown.
   */
  readonly bodiesUnchanged: boolean;
  /**
   * `bodiesUnchanged`, except that types may have changed: identified struct types merged into
   * isomorphic ones (or rebuilt) replaced the old ones in instruction, argument and signature
   * types and in type attributes. Every operand, bundle, attachment, debug record and name of
   * every function is as it was, and every function is the input's own object.
   */
  readonly valuesUnchanged: boolean;
}

/**
 * Links `inputs` (all in one {@link Context}) into a new module, in order, like
 * `llvm-link a.ll b.ll ...`. Throws an {@link IrError} naming the symbol on conflicts.
 *
 * An input may be a function that parses its module: it is called only when its turn comes,
 * after the previous inputs are linked, which is how llvm-link reads files. That matters for
 * struct type names: types merged away free their names, so a module read afterwards keeps
 * `%struct.C` where reading everything first would have made it `%struct.C.2`.
 */
export function linkModules(inputs: Iterable<Module | (() => Module)>, options: LinkModulesOptions = {}): Module {
  let dest: Module | undefined;
  let linker: Linker | undefined;
  const unknown: LinkFacts = { everyGlobalUsed: false, bodiesUnchanged: false, valuesUnchanged: false };
  let facts = unknown;
  for (const input of inputs) {
    const m = typeof input === 'function' ? input() : input;
    if (dest === undefined || linker === undefined) {
      dest = new Module(options.id ?? 'llvm-link', m.context);
      linker = new Linker(dest, options);
      // the first input always comes in whole: only-needed would find nothing needed yet
      facts = linker.link(m, { onlyNeeded: false });
    } else {
      // a later input may replace a definition whose references kept globals alive
      linker.link(m);
      facts = unknown;
    }
  }
  if (dest === undefined) throw new IrError('no modules to link');
  options.onLinked?.(facts);
  return dest;
}

/**
 * Links modules into `dest`, one at a time (LLVM's `Linker` over one composite module). The
 * struct types seen so far are remembered across calls, as LLVM's IRMover does.
 */
export class Linker {
  readonly dest: Module;
  /** @internal */ readonly structs: StructTypeSet;
  /** @internal */ readonly options: LinkOptions;

  constructor(dest: Module, options: LinkOptions = {}) {
    this.dest = dest;
    this.options = options;
    this.structs = new StructTypeSet();
    for (const t of identifiedStructTypes(dest)) {
      if (t.isOpaque) this.structs.addOpaque(t);
      else this.structs.addNonOpaque(t);
    }
  }

  /**
   * Links `src` into the destination module; `src` is left intact unless the options say it is
   * consumed (`moveBodies`, `consumeInputs`). `flags` override the options.
   */
  link(src: Module, flags: { readonly onlyNeeded?: boolean } = {}): LinkFacts {
    if (src.context !== this.dest.context) {
      throw new IrError(`cannot link '${src.id}' into '${this.dest.id}': the modules were parsed into different contexts; parse every input with the same Context (parseModule(text, { context }))`, src.id);
    }
    if (src === this.dest) throw new IrError('cannot link a module into itself', src.id);
    this.checkPointerSyntax(src);
    const step = new LinkStep(this, src, flags.onlyNeeded ?? this.options.onlyNeeded ?? false);
    step.run();
    this.pointerSyntaxFrom ??= src.id;
    return { everyGlobalUsed: step.everyGlobalUsed, bodiesUnchanged: step.bodiesUnchanged, valuesUnchanged: step.valuesUnchanged };
  }

  /** The module whose pointer syntax the destination has (the destination itself unless it was empty). */
  private pointerSyntaxFrom: string | undefined;

  /**
   * A typed-pointer module (`i8*`, read with `pointers: 'preserve-typed'`) and an opaque one
   * (`ptr`) do not make one consistent module: refuse, naming which is which. An empty
   * destination takes the syntax of the first module linked into it.
   */
  private checkPointerSyntax(src: Module): void {
    const dest = this.dest;
    if (this.pointerSyntaxFrom === undefined) {
      if (dest.globals.length + dest.functions.length + dest.aliases.length + dest.ifuncs.length === 0) return;
      this.pointerSyntaxFrom = dest.id;
    }
    if (src.typedPointers === dest.typedPointers) return;
    const syntax = (typed: boolean): string => (typed ? 'typed pointers (like i8*)' : "opaque pointers ('ptr')");
    const other = this.pointerSyntaxFrom === dest.id ? `'${dest.id}'` : `'${this.pointerSyntaxFrom}', linked before it,`;
    throw new IrError(
      `cannot link '${src.id}' into '${dest.id}': '${src.id}' uses ${syntax(src.typedPointers)} but ${other} uses ${syntax(dest.typedPointers)}; typed and opaque pointer modules cannot be linked together (read every input with one pointer syntax)`,
      src.id,
    );
  }
}

// --- struct types ---------------------------------------------------------------------------------

/** Identified struct types of the destination, non-opaque ones found by structure (IRMover's set). */
class StructTypeSet {
  private readonly nonOpaque = new Map<string, StructType>();
  private readonly opaque = new Set<StructType>();
  private readonly ids = new Map<Type, number>();

  private key(elements: readonly Type[], packed: boolean): string {
    let key = packed ? 'p' : 's';
    for (const e of elements) {
      let id = this.ids.get(e);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(e, id);
      }
      key += ',' + id;
    }
    return key;
  }

  addNonOpaque(t: StructType): void {
    const key = this.key(t.elements ?? [], t.packed);
    if (!this.nonOpaque.has(key)) this.nonOpaque.set(key, t);
  }
  addOpaque(t: StructType): void {
    this.opaque.add(t);
  }
  switchToNonOpaque(t: StructType): void {
    this.addNonOpaque(t);
    this.opaque.delete(t);
  }
  findNonOpaque(elements: readonly Type[], packed: boolean): StructType | undefined {
    return this.nonOpaque.get(this.key(elements, packed));
  }
  get size(): number {
    return this.nonOpaque.size + this.opaque.size;
  }
  hasType(t: StructType): boolean {
    if (t.isOpaque) return this.opaque.has(t);
    return this.nonOpaque.get(this.key(t.elements ?? [], t.packed)) === t;
  }
}

/** LLVM's type identity classes: what `getTypeID()` tells apart. */
function typeClass(t: Type): string {
  switch (t.kind) {
    case 'float':
      return t.fp;
    case 'vector':
      return t.scalable ? 'svector' : 'vector';
    default:
      return t.kind;
  }
}

/** The source → destination type map of one link step (IRMover's TypeMapTy). */
class TypeMap {
  private readonly mapped = new Map<Type, Type>();
  private speculative: Type[] = [];
  private speculativeDstOpaque: StructType[] = [];
  private readonly srcDefinitionsToResolve: StructType[] = [];
  private readonly dstResolvedOpaque = new Set<StructType>();

  constructor(
    private readonly ctx: Context,
    private readonly structs: StructTypeSet,
  ) {}

  /** Records that `dst` and `src` are the same type if they are recursively isomorphic. */
  addTypeMapping(dst: Type, src: Type): void {
    if (!this.isomorphic(dst, src)) {
      for (const t of this.speculative) this.mapped.delete(t);
      this.srcDefinitionsToResolve.length -= this.speculativeDstOpaque.length;
      for (const t of this.speculativeDstOpaque) this.dstResolvedOpaque.delete(t);
    } else {
      // the source types are now the destination's: free their names, as LLVM does, so that
      // modules read later do not get `.N` suffixes for them
      // (types the destination uses too — a source cloned from it shares them — keep their names)
      for (const t of this.speculative) {
        if (t.kind === 'struct' && !t.literal && t.name !== '' && !this.structs.hasType(t)) this.ctx.setStructName(t, '');
      }
    }
    this.speculative = [];
    this.speculativeDstOpaque = [];
  }

  private isomorphic(dst: Type, src: Type): boolean {
    if (typeClass(dst) !== typeClass(src)) return false;
    const entry = this.mapped.get(src);
    if (entry !== undefined) return entry === dst;
    if (dst === src) {
      this.mapped.set(src, dst);
      return true;
    }
    if (src.kind === 'struct' && dst.kind === 'struct') {
      if (src.isOpaque) {
        this.mapped.set(src, dst);
        this.speculative.push(src);
        return true;
      }
      if (dst.isOpaque) {
        if (this.dstResolvedOpaque.has(dst)) return false;
        this.dstResolvedOpaque.add(dst);
        this.srcDefinitionsToResolve.push(src);
        this.speculative.push(src);
        this.speculativeDstOpaque.push(dst);
        this.mapped.set(src, dst);
        return true;
      }
    }
    const srcSubs = subtypes(src);
    const dstSubs = subtypes(dst);
    if (srcSubs.length !== dstSubs.length) return false;
    switch (dst.kind) {
      case 'integer':
        return false;
      case 'pointer':
        if (dst.addressSpace !== (src as PointerType).addressSpace) return false;
        break;
      case 'function':
        if (dst.varArgs !== (src as FunctionType).varArgs) return false;
        break;
      case 'struct': {
        const s = src as StructType;
        if (dst.literal !== s.literal || dst.packed !== s.packed) return false;
        break;
      }
      case 'array':
        if (dst.length !== (src as ArrayType).length) return false;
        break;
      case 'vector':
        if (dst.length !== (src as { length: number }).length) return false;
        break;
      default:
        break;
    }
    this.mapped.set(src, dst);
    this.speculative.push(src);
    for (let i = 0; i < srcSubs.length; i++) if (!this.isomorphic(dstSubs[i]!, srcSubs[i]!)) return false;
    return true;
  }

  /** Gives opaque destination structs the (mapped) bodies of their source counterparts. */
  linkDefinedTypeBodies(): void {
    for (const src of this.srcDefinitionsToResolve) {
      const dst = this.mapped.get(src) as StructType;
      dst.setBody((src.elements ?? []).map((e) => this.get(e)), src.packed);
      this.structs.switchToNonOpaque(dst);
    }
    this.srcDefinitionsToResolve.length = 0;
    this.dstResolvedOpaque.clear();
  }

  get(t: Type): Type {
    // A type that holds no identified struct maps to itself: its leaves are interned, so resolve
    // rebuilds it as itself and isomorphic matches it only to itself. Most instructions' and
    // calls' types, with no lookup.
    if (!t.reachesStruct) return t;
    // most lookups hit: the set of structs being visited is made only for a type not mapped yet
    return this.mapped.get(t) ?? this.resolve(t, new Set());
  }

  private resolve(t: Type, visited: Set<StructType>): Type {
    const known = this.mapped.get(t);
    if (known !== undefined) return known;
    const identified = t.kind === 'struct' && !t.literal;
    if (identified) {
      if (visited.has(t)) {
        // a recursive reference: a placeholder that gets its body when the outer type finishes
        const placeholder = this.ctx.createStruct('');
        this.mapped.set(t, placeholder);
        return placeholder;
      }
      visited.add(t);
    }
    const subs = subtypes(t);
    if (subs.length === 0 && !identified) {
      this.mapped.set(t, t);
      return t;
    }
    let changed = false;
    const elements = subs.map((s) => {
      const m = this.resolve(s, visited);
      if (m !== s) changed = true;
      return m;
    });
    const during = this.mapped.get(t);
    if (during !== undefined) {
      if (during.kind === 'struct' && during.isOpaque && t.kind === 'struct') this.finishType(during, t, elements);
      return during;
    }
    if (!changed && !identified) {
      this.mapped.set(t, t);
      return t;
    }
    const ctx = this.ctx;
    let result: Type;
    switch (t.kind) {
      case 'array':
        result = ctx.array(elements[0]!, t.length);
        break;
      case 'vector':
        result = ctx.vector(elements[0]!, t.length, t.scalable);
        break;
      case 'pointer':
        result = ctx.typedPtr(elements[0]!, t.addressSpace);
        break;
      case 'function':
        result = ctx.fn(elements[0]!, elements.slice(1), t.varArgs);
        break;
      case 'target':
        result = ctx.targetExt(t.name, elements, t.intParams);
        break;
      case 'struct': {
        if (t.literal) {
          result = ctx.literalStruct(elements, t.packed);
          break;
        }
        if (t.isOpaque) {
          this.structs.addOpaque(t);
          result = t;
          break;
        }
        const existing = this.structs.findNonOpaque(elements, t.packed);
        if (existing !== undefined) {
          if (existing !== t) this.ctx.setStructName(t, '');
          result = existing;
          break;
        }
        if (!changed) {
          this.structs.addNonOpaque(t);
          result = t;
          break;
        }
        const copy = ctx.createStruct('');
        this.finishType(copy, t, elements);
        result = copy;
        break;
      }
      default:
        result = t;
    }
    this.mapped.set(t, result);
    return result;
  }

  /** Sets the body of a new destination struct and moves the source type's name onto it. */
  private finishType(dst: StructType, src: StructType, elements: readonly Type[]): void {
    dst.setBody(elements, src.packed);
    if (src.name !== '') {
      const name = src.name;
      this.ctx.setStructName(src, '');
      this.ctx.setStructName(dst, name);
    }
    this.structs.addNonOpaque(dst);
  }
}

/** `%foo.42` → `foo` (the name LLVM's context renaming started from). */
function typeNamePrefix(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.endsWith('.')) return name;
  const c = name.charCodeAt(dot + 1);
  return c >= 48 && c <= 57 ? name.slice(0, dot) : name;
}

// --- linkage helpers --------------------------------------------------------------------------------

function isDeclaration(gv: GlobalValue): boolean {
  return gv.vk === 'global' || gv.vk === 'function' ? gv.isDeclaration : false;
}
function isLocal(gv: GlobalValue): boolean {
  return gv.linkage === 'internal' || gv.linkage === 'private';
}
function isLinkOnce(gv: GlobalValue): boolean {
  return gv.linkage === 'linkonce' || gv.linkage === 'linkonce_odr';
}
function isWeakForLinker(gv: GlobalValue): boolean {
  switch (gv.linkage) {
    case 'linkonce':
    case 'linkonce_odr':
    case 'weak':
    case 'weak_odr':
    case 'common':
    case 'extern_weak':
      return true;
    default:
      return false;
  }
}
function minVisibility(a: Visibility, b: Visibility): Visibility {
  if (a === 'hidden' || b === 'hidden') return 'hidden';
  if (a === 'protected' || b === 'protected') return 'protected';
  return 'default';
}
function minUnnamedAddr(a: UnnamedAddr, b: UnnamedAddr): UnnamedAddr {
  if (a === 'none' || b === 'none') return 'none';
  if (a === 'local_unnamed_addr' || b === 'local_unnamed_addr') return 'local_unnamed_addr';
  return 'unnamed_addr';
}
/** The comdat of a global object, or of the object an alias points to. */
function comdatOf(gv: GlobalValue): Comdat | undefined {
  if (gv.vk === 'global' || gv.vk === 'function') return gv.comdat;
  if (gv.vk === 'alias') {
    const target = stripPointerCasts(gv.aliasee);
    if (target.vk === 'global' || target.vk === 'function') return target.comdat;
  }
  return undefined;
}
/** `setVisibility` / `setLinkage` imply dso_local for local linkage and non-default visibility. */
function impliedDsoLocal(gv: GlobalValue): void {
  if (isLocal(gv) || (gv.visibility !== 'default' && gv.linkage !== 'extern_weak')) gv.dsoLocal = true;
}

type LinkFrom = 'dst' | 'src' | 'both';

/** What LLVM's ModuleLinker changes on a source global before moving it (visibility, ...). */
interface SourceOverride {
  visibility?: Visibility;
  unnamedAddr?: UnnamedAddr;
  isConstant?: boolean;
  align?: number | undefined;
}

// --- one link step ----------------------------------------------------------------------------------

class LinkStep {
  private readonly dest: Module;
  private readonly ctx: Context;
  private readonly typeMap: TypeMap;
  private readonly mapper: ValueMapper;
  private readonly overrides = new Map<GlobalValue, SourceOverride>();
  private readonly comdatsChosen = new Map<Comdat, LinkFrom>();
  private readonly lazyComdatMembers = new Map<Comdat, GlobalValue[]>();
  /** The ModuleLinker's ordered set, then the IRLinker's set (lazily extended). */
  private readonly valuesToLink = new Set<GlobalValue>();
  private readonly worklist: GlobalValue[] = [];
  private readonly valueMap = new Map<GlobalValue, GlobalValue>();
  /** Destination globals whose body, initializer or aliasee is scheduled but not copied yet. */
  private readonly pendingBodies = new Set<GlobalValue>();
  /** Destination aliases and ifuncs created as prototypes that have no aliasee / resolver yet. */
  private readonly withoutTarget = new Set<GlobalValue>();
  /** Existing destination functions and aliases that moved to the end of their list. */
  private readonly moved = new Set<GlobalValue>();
  /** Destination globals replaced by a new object of another kind (or type), fixed up at the end. */
  private readonly replacedDest = new Map<Value, Value>();
  private doneLinkingBodies = false;
  /** Source globals become the destination's own objects (see {@link LinkOptions.consumeInputs}). */
  private readonly adopting: boolean;
  /** The destination had no globals before this step. */
  private readonly intoEmpty: boolean;
  /** A destination global was made for a reference from metadata (it may be used by nothing else). */
  private madeForMetadata = false;
  /** Something of a function (body copied or moved to another object, name, personality) changed outside the mapper's in-place walk. */
  private functionsTouched = false;
  /** A function's type or its own type attributes changed (merged struct types). */
  private signaturesRetyped = false;

  constructor(
    private readonly linker: Linker,
    private readonly src: Module,
    private readonly onlyNeeded: boolean,
  ) {
    this.dest = linker.dest;
    this.ctx = src.context;
    this.adopting = linker.options.consumeInputs === true;
    const d = this.dest;
    this.intoEmpty = d.globals.length + d.functions.length + d.aliases.length + d.ifuncs.length === 0;
    this.typeMap = new TypeMap(this.ctx, linker.structs);
    this.mapper = new ValueMapper({
      context: this.ctx,
      mapType: (t) => this.typeMap.get(t),
      mapGlobal: (gv) => this.materialize(gv),
    });
  }

  private error(message: string): IrError {
    return new IrError(message, this.src.id);
  }

  private warn(message: string): void {
    this.linker.options.onWarning?.(message);
  }

  /**
   * {@link LinkFacts.everyGlobalUsed} for this step: the destination was empty, so each of its
   * globals came as a root (`linkIfNeeded` takes exactly the definitions that are not
   * discardable, which are `eraseUnused`'s roots; comdat partners of roots stay with them) or was
   * made when the mapper met a reference to it in a global already linked, which is used then
   * too — unless that reference was in metadata.
   */
  get everyGlobalUsed(): boolean {
    return this.intoEmpty && !this.madeForMetadata;
  }

  /** {@link LinkFacts.valuesUnchanged} for this step. */
  get valuesUnchanged(): boolean {
    return this.intoEmpty && this.adopting && !this.functionsTouched && this.mapper.inPlaceValueRewrites === 0 && this.replacedDest.size === 0 && this.moved.size === 0;
  }

  /** {@link LinkFacts.bodiesUnchanged} for this step. */
  get bodiesUnchanged(): boolean {
    return this.valuesUnchanged && !this.signaturesRetyped && this.mapper.inPlaceRewrites === 0;
  }

  run(): void {
    const src = this.src;
    this.chooseComdats();
    this.collectLazyComdatMembers();
    for (const gv of this.src.globalValues()) this.linkIfNeeded(gv);
    for (const gv of this.valuesToLink) {
      const c = comdatOf(gv);
      if (c === undefined) continue;
      for (const member of this.lazyComdatMembers.get(c) ?? []) {
        const dgv = this.linkedToGlobal(member, false);
        if (dgv === undefined || this.shouldLinkFromSource(dgv, member)) this.valuesToLink.add(member);
      }
    }
    this.moveValues();
    if (this.adopting) {
      // the globals left behind are the ones the link dropped; the taken ones belong to the result now
      src.globals.length = 0;
      src.functions.length = 0;
      src.aliases.length = 0;
      src.ifuncs.length = 0;
    }
  }

  // --- ModuleLinker ------------------------------------------------------------------------------------

  private chooseComdats(): void {
    for (const c of this.src.comdats.values()) {
      if (this.comdatsChosen.has(c)) continue;
      const existing = this.dest.comdats.get(c.name);
      this.comdatsChosen.set(c, existing === undefined ? 'src' : this.comdatSelection(c.name, c.selection, existing.selection));
    }
  }

  private comdatSelection(name: string, src: ComdatSelection, dst: ComdatSelection): LinkFrom {
    const anyOrLargest = (s: ComdatSelection): boolean => s === 'any' || s === 'largest';
    let result: ComdatSelection;
    if (anyOrLargest(src) && anyOrLargest(dst)) result = src === 'largest' || dst === 'largest' ? 'largest' : 'any';
    else if (src === dst) result = dst;
    else throw this.error(`linking COMDATs named '${name}': invalid selection kinds (${src} in '${this.src.id}', ${dst} in '${this.dest.id}')`);
    switch (result) {
      case 'any':
        return 'dst';
      case 'nodeduplicate':
        return 'both';
      default:
        throw this.error(`linking COMDATs named '${name}': selection kind '${result}' is not supported by this linker (only 'any' and 'nodeduplicate')`);
    }
  }

  private collectLazyComdatMembers(): void {
    const add = (gv: GlobalValue): void => {
      if (!isLinkOnce(gv)) return;
      const c = comdatOf(gv);
      if (c === undefined) return;
      const list = this.lazyComdatMembers.get(c);
      if (list === undefined) this.lazyComdatMembers.set(c, [gv]);
      else list.push(gv);
    };
    for (const g of this.src.globals) add(g);
    for (const f of this.src.functions) add(f);
    for (const a of this.src.aliases) add(a);
  }

  /** The destination global a source global binds to by name (none for locals on either side). */
  private linkedToGlobal(sgv: GlobalValue, checkIntrinsic: boolean): GlobalValue | undefined {
    if (sgv.name === '' || isLocal(sgv)) return undefined;
    const dgv = this.dest.getGlobalValue(sgv.name);
    if (dgv === undefined || isLocal(dgv)) return undefined;
    if (checkIntrinsic && dgv.vk === 'function' && dgv.isIntrinsic && sgv.vk === 'function') {
      if (dgv.functionType !== this.typeMap.get(sgv.functionType)) return undefined;
    }
    return dgv;
  }

  private override(gv: GlobalValue): SourceOverride {
    let o = this.overrides.get(gv);
    if (o === undefined) {
      o = {};
      this.overrides.set(gv, o);
    }
    return o;
  }
  private srcVisibility(gv: GlobalValue): Visibility {
    return this.overrides.get(gv)?.visibility ?? gv.visibility;
  }
  private srcUnnamedAddr(gv: GlobalValue): UnnamedAddr {
    return this.overrides.get(gv)?.unnamedAddr ?? gv.unnamedAddr;
  }

  /** `isDeclarationForLinker`, counting scheduled bodies as already there (LLVM moves them eagerly). */
  private isDeclarationForLinker(gv: GlobalValue): boolean {
    if (gv.linkage === 'available_externally') return true;
    return isDeclaration(gv) && !this.pendingBodies.has(gv);
  }

  /** ModuleLinker::shouldLinkFromSource: whether the source copy replaces the destination's. */
  private shouldLinkFromSource(dest: GlobalValue, src: GlobalValue): boolean {
    if (src.linkage === 'appending' || dest.linkage === 'appending') return true;
    const srcIsDeclaration = this.isDeclarationForLinker(src);
    const destIsDeclaration = this.isDeclarationForLinker(dest);
    if (srcIsDeclaration) {
      if (src.dllStorage === 'dllimport') return destIsDeclaration;
      if (dest.linkage === 'extern_weak') return true;
      return !isDeclaration(src) && isDeclaration(dest);
    }
    if (destIsDeclaration) return true;
    if (src.linkage === 'common') {
      if (isLinkOnce(dest) || dest.linkage === 'weak' || dest.linkage === 'weak_odr') return true;
      if (dest.linkage !== 'common') return false;
      const layout = this.dest.layout;
      const size = (gv: GlobalValue): number => {
        try {
          return layout.allocSize(gv.valueType);
        } catch {
          return 0;
        }
      };
      return size(src) > size(dest);
    }
    if (isWeakForLinker(src)) return isLinkOnce(dest) && (src.linkage === 'weak' || src.linkage === 'weak_odr');
    if (isWeakForLinker(dest)) return true;
    throw this.error(`linking globals named '${src.name}': symbol multiply defined (in '${this.src.id}' and in '${this.dest.id}')`);
  }

  private linkIfNeeded(gv: GlobalValue): void {
    const dgv = this.linkedToGlobal(gv, false);
    // only-needed: a definition comes only to resolve a declaration the destination has
    if (this.onlyNeeded && gv.linkage !== 'appending' && (dgv === undefined || !isDeclaration(dgv))) return;
    if (dgv !== undefined && !isLocal(gv) && gv.linkage !== 'appending') {
      if (dgv.vk === 'global' && gv.vk === 'global') {
        if (dgv.isDeclaration && gv.isDeclaration && (!dgv.isConstant || !gv.isConstant)) {
          dgv.isConstant = false;
          this.override(gv).isConstant = false;
        }
        if (dgv.linkage === 'common' && gv.linkage === 'common' && (dgv.align !== undefined || gv.align !== undefined)) {
          const align = Math.max(dgv.align ?? 1, gv.align ?? 1);
          dgv.align = align;
          this.override(gv).align = align;
        }
      }
      const visibility = minVisibility(dgv.visibility, this.srcVisibility(gv));
      dgv.visibility = visibility;
      impliedDsoLocal(dgv);
      this.override(gv).visibility = visibility;
      const unnamedAddr = minUnnamedAddr(dgv.unnamedAddr, this.srcUnnamedAddr(gv));
      dgv.unnamedAddr = unnamedAddr;
      this.override(gv).unnamedAddr = unnamedAddr;
    }
    if (dgv === undefined && (isLocal(gv) || isLinkOnce(gv) || gv.linkage === 'available_externally')) return;
    if (isDeclaration(gv)) return;
    let from: LinkFrom = 'dst';
    const c = comdatOf(gv);
    if (c !== undefined) {
      from = this.comdatsChosen.get(c) ?? 'src';
      if (from === 'dst') return;
    }
    const linkFromSrc = dgv === undefined ? true : this.shouldLinkFromSource(dgv, gv);
    if (dgv !== undefined && from === 'both') {
      throw this.error(`linking '${gv.name}': members of a nodeduplicate comdat defined in both modules are not supported by this linker`);
    }
    if (linkFromSrc) this.valuesToLink.add(gv);
  }

  // --- IRMover -----------------------------------------------------------------------------------------

  private moveValues(): void {
    const { src, dest } = this;
    if (dest.dataLayout === '') dest.dataLayout = src.dataLayout;
    if (dest.triple === '' && src.triple !== '') dest.triple = src.triple;
    if (src.dataLayout !== dest.dataLayout) {
      this.warn(`Linking two modules of different data layouts: '${src.id}' is '${src.dataLayout}' whereas '${dest.id}' is '${dest.dataLayout}'`);
    }
    if (src.triple !== '' && src.triple !== dest.triple) {
      this.warn(`Linking two modules of different target triples: '${src.id}' is '${src.triple}' whereas '${dest.id}' is '${dest.triple}'`);
    }
    if (src.typedPointers) dest.typedPointers = true;
    this.computeTypeMapping();

    for (const gv of this.valuesToLink) this.worklist.push(gv);
    this.worklist.reverse();
    for (let gv = this.worklist.pop(); gv !== undefined; gv = this.worklist.pop()) {
      if (this.valueMap.has(gv)) continue;
      this.materialize(gv);
      this.mapper.flush();
    }
    this.doneLinkingBodies = true;

    for (const [name, ops] of src.namedMetadata) {
      if (name === 'llvm.module.flags') continue;
      let list = dest.namedMetadata.get(name);
      if (list === undefined) {
        list = [];
        dest.namedMetadata.set(name, list);
      }
      for (const op of ops) list.push(this.mapper.mapNode(op));
    }
    dest.inlineAsm.push(...src.inlineAsm);
    this.mapper.finish();
    this.reorderGlobals();
    this.finishLists();
    this.linkModuleFlags();
  }

  private computeTypeMapping(): void {
    const { src, typeMap } = this;
    for (const sgv of src.globals) {
      const dgv = this.linkedToGlobal(sgv, true);
      if (dgv === undefined) continue;
      if (dgv.linkage !== 'appending' || sgv.linkage !== 'appending') {
        typeMap.addTypeMapping(dgv.type, sgv.type);
        continue;
      }
      const dt = dgv.valueType;
      const st = sgv.valueType;
      if (dt.kind === 'array' && st.kind === 'array') typeMap.addTypeMapping(dt.element, st.element);
    }
    for (const sgv of src.functions) {
      const dgv = this.linkedToGlobal(sgv, true);
      if (dgv !== undefined && dgv.type !== sgv.type) typeMap.addTypeMapping(dgv.type, sgv.type);
    }
    for (const sgv of src.aliases) {
      const dgv = this.linkedToGlobal(sgv, true);
      if (dgv !== undefined) typeMap.addTypeMapping(dgv.type, sgv.type);
    }
    const structs = this.linker.structs;
    // With no destination struct yet (the first input), no renamed source struct can map back.
    for (const st of structs.size === 0 ? [] : identifiedStructTypes(src)) {
      if (st.name === '' || structs.hasType(st)) continue;
      const prefix = typeNamePrefix(st.name);
      if (prefix === st.name) continue;
      const dst = this.ctx.getStruct(prefix);
      if (dst !== undefined && structs.hasType(dst)) typeMap.addTypeMapping(dst, st);
    }
    typeMap.linkDefinedTypeBodies();
  }

  /** IRLinker::shouldLink: whether the source global's definition comes over. */
  private shouldLink(dgv: GlobalValue | undefined, sgv: GlobalValue): boolean {
    if (this.valuesToLink.has(sgv) || isLocal(sgv)) return true;
    if (dgv !== undefined && !this.isDeclarationForLinker(dgv)) return false;
    if (isDeclaration(sgv) || this.doneLinkingBodies) return false;
    return this.addLazy(sgv);
  }

  private maybeAdd(gv: GlobalValue): void {
    if (this.valuesToLink.has(gv)) return;
    this.valuesToLink.add(gv);
    this.worklist.push(gv);
  }

  /**
   * ModuleLinker::addLazyFor: linkonce and available_externally globals come when referenced
   * (any global, with only-needed).
   */
  private addLazy(gv: GlobalValue): boolean {
    if (!isLinkOnce(gv) && gv.linkage !== 'available_externally' && !this.onlyNeeded) return false;
    this.maybeAdd(gv);
    const c = comdatOf(gv);
    if (c !== undefined) {
      for (const member of this.lazyComdatMembers.get(c) ?? []) {
        const dgv = this.linkedToGlobal(member, false);
        if (dgv !== undefined && !this.shouldLinkFromSource(dgv, member)) continue;
        this.maybeAdd(member);
      }
    }
    return true;
  }

  /** Maps a source global to the destination (the value mapper's materializer). */
  private materialize(sgv: GlobalValue): Constant | null {
    if (sgv.parent === this.dest) return sgv;
    if (sgv.parent !== this.src) return sgv;
    const known = this.valueMap.get(sgv);
    if (known !== undefined) return known;
    const proto = this.linkPrototype(sgv);
    if (proto === undefined) return null;
    if (this.mapper.mappingMetadata) this.madeForMetadata = true;
    this.valueMap.set(sgv, proto);
    // a taken-over global is new to the destination, like a fresh prototype, though it has its body
    const adopted = proto === sgv;
    if (!adopted && this.hasBody(proto)) return proto;
    if (this.shouldLink(adopted ? undefined : proto, sgv)) this.linkBody(proto, sgv);
    if (proto.vk === 'function' && !proto.isIntrinsic) dropNoCallback(proto);
    return proto;
  }

  private hasBody(gv: GlobalValue): boolean {
    if (this.pendingBodies.has(gv)) return true;
    switch (gv.vk) {
      case 'function':
        return !gv.isDeclaration;
      case 'global':
        return gv.initializer !== undefined || gv.linkage === 'appending';
      case 'alias':
      case 'ifunc':
        return !this.withoutTarget.has(gv);
    }
  }

  /** IRLinker::linkGlobalValueProto: the destination global a source global maps to. */
  private linkPrototype(sgv: GlobalValue): GlobalValue | undefined {
    let dgv = this.linkedToGlobal(sgv, true);
    const shouldLink = this.shouldLink(dgv, sgv);
    if (shouldLink) {
      const known = this.valueMap.get(sgv);
      if (known !== undefined) return known;
    }
    if (sgv.linkage === 'appending' || dgv?.linkage === 'appending') {
      if (sgv.vk !== 'global' || (dgv !== undefined && dgv.vk !== 'global')) throw this.error(`linking globals named '${sgv.name}': can only link appending global with another appending global`);
      return this.linkAppending(dgv, sgv);
    }
    if (dgv !== undefined && !shouldLink) {
      this.checkCompatible(dgv, sgv);
      return dgv;
    }
    if (this.doneLinkingBodies) return undefined;
    // read before a taken-over global's comdat is reset
    const sc = shouldLink ? comdatOf(sgv) : undefined;
    let proto: GlobalValue;
    if (dgv === undefined && this.canAdopt(sgv, shouldLink)) {
      proto = this.adopt(sgv, shouldLink);
    } else if (dgv !== undefined && this.canReuse(dgv, sgv, shouldLink)) {
      // LLVM creates a fresh global, renames the old one out of the way and erases it after RAUW;
      // reusing the old object gives the same module without a use walk. The two renames still
      // consume two `.N` suffixes, as in LLVM.
      this.dest.uniqueGlobalName(sgv.name);
      this.dest.uniqueGlobalName(sgv.name);
      this.resetPrototype(dgv, sgv, shouldLink);
      if (dgv.vk === 'function' || dgv.vk === 'alias') this.moveToEnd(dgv);
      proto = dgv;
      dgv = undefined;
    } else {
      proto = this.createPrototype(sgv, shouldLink);
      this.forceRenaming(proto, sgv.name);
    }
    if (sc !== undefined && (proto.vk === 'global' || proto.vk === 'function')) {
      let dc = this.dest.comdats.get(sc.name);
      if (dc === undefined) {
        // a consumed input's comdat can serve as the destination's
        dc = this.adopting ? sc : new Comdat(sc.name);
        this.dest.comdats.set(sc.name, dc);
      }
      dc.selection = sc.selection;
      proto.comdat = dc;
    }
    if (dgv !== undefined && proto !== dgv) {
      // a different kind of global (or type) replaces the old one: its uses are rewritten at the end
      this.replacedDest.set(dgv, proto);
    }
    return proto;
  }

  /**
   * Whether the existing destination global can become the new definition in place. A global of
   * another kind with the same value type (a function declaration resolved by an alias or ifunc)
   * is replaced instead; different value types are an error unless mismatches are allowed.
   */
  private canReuse(dgv: GlobalValue, sgv: GlobalValue, forDefinition: boolean): boolean {
    const kind = forDefinition || sgv.vk === 'global' || sgv.vk === 'function' ? sgv.vk : sgv.valueType.kind === 'function' ? 'function' : 'global';
    const sameTypes = dgv.type === this.typeMap.get(sgv.type) && dgv.valueType === this.typeMap.get(sgv.valueType);
    if (!sameTypes && this.linker.options.allowTypeMismatch !== true) {
      throw this.error(`linking globals named '${sgv.name}': ${describeKind(dgv)} in '${this.dest.id}' and ${describeKind(sgv)} in '${this.src.id}' have different types`);
    }
    return sameTypes && dgv.vk === kind;
  }

  /** A source global bound to an existing destination global must agree with a definition. */
  private checkCompatible(dgv: GlobalValue, sgv: GlobalValue): void {
    if (this.linker.options.allowTypeMismatch === true) return;
    if (isDeclaration(dgv) && isDeclaration(sgv)) return;
    if (dgv.valueType !== this.typeMap.get(sgv.valueType)) {
      throw this.error(`linking globals named '${sgv.name}': ${describeKind(dgv)} in '${this.dest.id}' and ${describeKind(sgv)} in '${this.src.id}' have different types`);
    }
  }

  private moveToEnd(gv: GlobalValue): void {
    this.moved.add(gv);
    if (gv.vk === 'function') this.dest.functions.push(gv);
    else if (gv.vk === 'alias') this.dest.aliases.push(gv);
  }

  /** LLVM's forceRenaming: a non-local global takes its name back from whatever got it. */
  private forceRenaming(gv: GlobalValue, name: string): void {
    if (isLocal(gv) || gv.name === name) return;
    this.functionsTouched = true;
    const conflict = this.dest.getGlobalValue(name);
    if (conflict !== undefined) {
      this.dest.renameGlobal(conflict, '');
      this.dest.renameGlobal(gv, name);
      this.dest.renameGlobal(conflict, name);
    } else this.dest.renameGlobal(gv, name);
  }

  /**
   * Whether `sgv` can be its own prototype: the inputs are consumed and the prototype would be of
   * the same kind, with the body if `sgv` has one (a definition linked as a declaration is copied).
   */
  private canAdopt(sgv: GlobalValue, forDefinition: boolean): boolean {
    if (!this.adopting || sgv.parent !== this.src) return false;
    switch (sgv.vk) {
      case 'global':
      case 'function':
        return forDefinition || sgv.isDeclaration;
      default:
        return forDefinition;
    }
  }

  /**
   * {@link createPrototype} and {@link forceRenaming} for a global that becomes its own
   * prototype: it moves into the destination with its types mapped and what
   * `copyGlobalValueProto` would not copy reset; its body is mapped in place by {@link linkBody}.
   */
  private adopt(sgv: GlobalValue, forDefinition: boolean): GlobalValue {
    const name = sgv.name;
    // the same type-map order as createPrototype (it decides names of rebuilt struct types)
    const type = this.typeMap.get(sgv.type) as PointerType;
    if (type !== sgv.type) this.signaturesRetyped = true;
    sgv.type = type;
    switch (sgv.vk) {
      case 'global':
        sgv.valueType = this.typeMap.get(sgv.valueType);
        this.dest.addGlobalVariable(sgv);
        break;
      case 'function': {
        const functionType = this.typeMap.get(sgv.functionType) as FunctionType;
        if (functionType !== sgv.functionType) this.signaturesRetyped = true;
        sgv.functionType = functionType;
        this.dest.addFunction(sgv);
        break;
      }
      case 'alias':
        sgv.valueType = this.typeMap.get(sgv.valueType);
        this.dest.addAlias(sgv);
        break;
      case 'ifunc':
        sgv.valueType = this.typeMap.get(sgv.valueType);
        this.dest.addIFunc(sgv);
        break;
    }
    const o = this.overrides.get(sgv);
    if (o?.visibility !== undefined) sgv.visibility = o.visibility;
    if (o?.unnamedAddr !== undefined) sgv.unnamedAddr = o.unnamedAddr;
    if (!forDefinition && sgv.linkage !== 'extern_weak') sgv.linkage = 'external';
    impliedDsoLocal(sgv);
    switch (sgv.vk) {
      case 'global':
        sgv.comdat = undefined;
        if (o?.isConstant !== undefined) sgv.isConstant = o.isConstant;
        if (o !== undefined && 'align' in o) sgv.align = o.align;
        if (sgv.attributes !== undefined) sgv.attributes = this.mapper.mapAttributeSet(sgv.attributes);
        break;
      case 'function': {
        sgv.comdat = undefined;
        const attributes = this.mapper.mapAttributeList(sgv.attributes);
        if (attributes !== sgv.attributes) this.signaturesRetyped = true;
        sgv.attributes = attributes;
        if (sgv.isDeclaration) {
          // a prototype's arguments are new and unnamed; a definition keeps its own (see moveBody)
          sgv.args = sgv.functionType.params.map((t) => new Argument(t, '', sgv));
          sgv.personality = undefined;
          sgv.prefix = undefined;
          sgv.prologue = undefined;
        }
        break;
      }
      default:
        this.withoutTarget.add(sgv);
    }
    this.forceRenaming(sgv, name);
    return sgv;
  }

  /** IRLinker::copyGlobalValueProto: a new destination global shaped like `sgv`, without body. */
  private createPrototype(sgv: GlobalValue, forDefinition: boolean): GlobalValue {
    this.functionsTouched = true;
    const type = this.typeMap.get(sgv.type) as PointerType;
    const valueType = this.typeMap.get(sgv.valueType);
    let proto: GlobalValue;
    if (sgv.vk === 'global' || (!forDefinition && (sgv.vk === 'alias' || sgv.vk === 'ifunc') && valueType.kind !== 'function')) {
      proto = this.dest.addGlobalVariable(new GlobalVariable(sgv.name, valueType, type));
    } else if (sgv.vk === 'function' || !forDefinition) {
      const fn = new IRFunction(sgv.name, valueType as FunctionType, type, sgv.vk === 'function' ? sgv.attributes : AttributeList.empty);
      fn.args = fn.functionType.params.map((t) => new Argument(t, '', fn));
      proto = this.dest.addFunction(fn);
    } else if (sgv.vk === 'alias') {
      proto = this.dest.addAlias(new GlobalAlias(sgv.name, valueType, type, this.ctx.poison(type)));
      this.withoutTarget.add(proto);
    } else {
      proto = this.dest.addIFunc(new GlobalIFunc(sgv.name, valueType, type, this.ctx.poison(type)));
      this.withoutTarget.add(proto);
    }
    this.resetPrototype(proto, sgv, forDefinition);
    return proto;
  }

  /** Sets everything `copyGlobalValueProto` copies from `sgv` onto `gv`, dropping any old body. */
  private resetPrototype(gv: GlobalValue, sgv: GlobalValue, forDefinition: boolean): void {
    const o = this.overrides.get(sgv);
    gv.visibility = o?.visibility ?? sgv.visibility;
    gv.unnamedAddr = o?.unnamedAddr ?? sgv.unnamedAddr;
    gv.threadLocal = sgv.threadLocal;
    gv.dllStorage = sgv.dllStorage;
    gv.dsoLocal = sgv.dsoLocal;
    gv.partition = sgv.partition;
    gv.linkage = forDefinition ? sgv.linkage : sgv.linkage === 'extern_weak' ? 'extern_weak' : 'external';
    impliedDsoLocal(gv);
    if (gv.vk === 'global') {
      gv.initializer = undefined;
      gv.comdat = undefined;
      if (sgv.vk === 'global') {
        gv.isConstant = o?.isConstant ?? sgv.isConstant;
        gv.align = o !== undefined && 'align' in o ? o.align : sgv.align;
        gv.section = sgv.section;
        gv.externallyInitialized = sgv.externallyInitialized;
        gv.attributes = sgv.attributes === undefined ? undefined : this.mapper.mapAttributeSet(sgv.attributes);
        gv.sanitizer = sgv.sanitizer;
        gv.codeModel = sgv.codeModel;
        // metadata of variables is copied eagerly and remapped with the initializer
        gv.attachments = [...sgv.attachments];
      } else {
        gv.isConstant = false;
        gv.attachments = [];
      }
    } else if (gv.vk === 'function') {
      gv.blocks = [];
      gv.comdat = undefined;
      gv.personality = undefined;
      gv.prefix = undefined;
      gv.prologue = undefined;
      if (sgv.vk === 'function') {
        gv.callingConv = sgv.callingConv;
        gv.attributes = this.mapper.mapAttributeList(sgv.attributes);
        gv.gc = sgv.gc;
        gv.section = sgv.section;
        gv.align = sgv.align;
        gv.args = gv.functionType.params.map((t) => new Argument(t, '', gv));
        // metadata of declarations is copied eagerly; definitions bring theirs with the body
        gv.attachments = sgv.isDeclaration ? [...sgv.attachments] : [];
      } else gv.attachments = [];
    } else {
      this.withoutTarget.add(gv);
    }
  }

  /** IRLinker::linkGlobalValueBody: schedules the body, initializer or aliasee. */
  private linkBody(dst: GlobalValue, src: GlobalValue): void {
    const mapper = this.mapper;
    const constant = (c: Constant): Constant => {
      const m = mapper.mapConstant(c);
      if (m === null) throw this.error(`internal: no counterpart for a constant of @${src.name}`);
      return m;
    };
    this.pendingBodies.add(dst);
    if (dst.vk === 'function' && src.vk === 'function') {
      if (dst !== src) this.functionsTouched = true;
      mapper.schedule(() => {
        this.pendingBodies.delete(dst);
        const before = [dst.personality, dst.prefix, dst.prologue];
        if (src.personality) dst.personality = constant(src.personality);
        if (src.prefix) dst.prefix = constant(src.prefix);
        if (src.prologue) dst.prologue = constant(src.prologue);
        if (dst.personality !== before[0] || dst.prefix !== before[1] || dst.prologue !== before[2]) this.functionsTouched = true;
        dst.attachments = dst === src ? mapper.mapAttachmentsInPlace(src.attachments) : (mapper.mapAttachments(src.attachments) ?? []);
        const adjust = (call: CallInst): void => {
          if (call.opcode === 'call' && call.attributes.fn.has('nocallback')) call.attributes = call.attributes.withFn(call.attributes.fn.without('nocallback'));
        };
        const options = this.linker.options;
        if (dst === src || options.moveBodies === true || options.consumeInputs === true) mapper.moveBody(src, dst, adjust);
        else mapper.cloneBody(src, dst, adjust);
      });
    } else if (dst.vk === 'global' && src.vk === 'global') {
      mapper.schedule(() => {
        this.pendingBodies.delete(dst);
        if (src.initializer !== undefined) dst.initializer = constant(src.initializer);
        dst.attachments = dst === src ? mapper.mapAttachmentsInPlace(dst.attachments) : (mapper.mapAttachments(dst.attachments) ?? []);
      });
    } else if (dst.vk === 'alias' && src.vk === 'alias') {
      mapper.schedule(() => {
        this.pendingBodies.delete(dst);
        this.withoutTarget.delete(dst);
        dst.aliasee = constant(src.aliasee);
      });
    } else if (dst.vk === 'ifunc' && src.vk === 'ifunc') {
      mapper.schedule(() => {
        this.pendingBodies.delete(dst);
        this.withoutTarget.delete(dst);
        dst.resolver = constant(src.resolver);
      });
    } else this.pendingBodies.delete(dst);
  }

  /** IRLinker::linkAppendingVarProto: concatenates `appending` arrays (`@llvm.used`, ctors). */
  private linkAppending(dstGV: GlobalVariable | undefined, srcGV: GlobalVariable): GlobalVariable | undefined {
    const name = srcGV.name;
    if (dstGV !== undefined && !dstGV.isDeclaration && !srcGV.isDeclaration) {
      const fail = (what: string): IrError => this.error(`linking appending globals named '${name}': ${what}`);
      if (srcGV.linkage !== 'appending' || dstGV.linkage !== 'appending') throw fail('can only link appending global with another appending global');
      if (dstGV.isConstant !== srcGV.isConstant) throw fail('different constness');
      if (dstGV.align !== srcGV.align) throw fail('different alignment');
      if (dstGV.visibility !== srcGV.visibility) throw fail('different visibility');
      if ((dstGV.unnamedAddr === 'unnamed_addr') !== (srcGV.unnamedAddr === 'unnamed_addr')) throw fail('different unnamed_addr');
      if (dstGV.section !== srcGV.section) throw fail('different sections');
      if (dstGV.addressSpace !== srcGV.addressSpace) throw fail('different address spaces');
    }
    if (srcGV.isDeclaration) return dstGV;
    const srcType = this.typeMap.get(srcGV.valueType);
    if (srcType.kind !== 'array') throw this.error(`appending global '${name}' does not have an array type`);
    let elementType = srcType.element;
    const structor = name === 'llvm.global_ctors' || name === 'llvm.global_dtors';
    const isOldStructor = structor && elementType.kind === 'struct' && (elementType.elements?.length ?? 0) === 2;
    const isNewStructor = structor && !isOldStructor;
    if (isOldStructor && elementType.kind === 'struct') {
      const fields = elementType.elements ?? [];
      elementType = this.ctx.literalStruct([fields[0]!, fields[1]!, this.dest.pointerTo(this.ctx.i8)]);
    }
    let prefix: Constant[] = [];
    if (dstGV !== undefined && !dstGV.isDeclaration) {
      const dstType = dstGV.valueType;
      if (dstType.kind !== 'array' || dstType.element !== elementType) throw this.error(`linking appending globals named '${name}': different element types`);
      prefix = arrayElements(this.ctx, dstGV.initializer!);
    }
    let srcElements = arrayElements(this.ctx, srcGV.initializer!);
    if (isNewStructor) {
      srcElements = srcElements.filter((e) => {
        const key = e.vk === 'struct' ? e.fields[2] : undefined;
        const target = key === undefined ? undefined : stripPointerCasts(key);
        if (target === undefined || !isGlobalValue(target)) return true;
        return this.shouldLink(this.linkedToGlobal(target, true), target);
      });
    }
    const newType = this.ctx.array(elementType, prefix.length + srcElements.length);
    let ng: GlobalVariable;
    if (dstGV !== undefined) {
      // LLVM makes an unnamed variable before the old one, gives it the old one's name, renames
      // the old one out of the way (one `.N` suffix consumed) and erases it: same place
      this.dest.uniqueGlobalName(name);
      ng = dstGV;
      ng.attachments = [];
    } else {
      ng = this.dest.addGlobalVariable(new GlobalVariable(name, newType, this.typeMap.get(srcGV.type) as PointerType));
      this.forceRenaming(ng, name);
    }
    ng.valueType = newType;
    const srcPtrType = this.typeMap.get(srcGV.type) as PointerType;
    // a typed pointer to the list changes with its length
    ng.type = srcPtrType.pointee === undefined ? srcPtrType : this.ctx.typedPtr(newType, srcPtrType.addressSpace);
    ng.isConstant = srcGV.isConstant;
    ng.linkage = srcGV.linkage;
    ng.threadLocal = srcGV.threadLocal;
    ng.align = srcGV.align;
    ng.section = srcGV.section;
    ng.visibility = srcGV.visibility;
    ng.unnamedAddr = srcGV.unnamedAddr;
    ng.dllStorage = srcGV.dllStorage;
    ng.dsoLocal = srcGV.dsoLocal;
    ng.partition = srcGV.partition;
    ng.externallyInitialized = srcGV.externallyInitialized;
    ng.attributes = srcGV.attributes;
    ng.initializer = undefined;
    this.pendingBodies.add(ng);
    this.mapper.schedule(() => {
      this.pendingBodies.delete(ng);
      const elements = [...prefix];
      for (const e of srcElements) {
        let mapped = this.mapper.mapConstant(e);
        if (mapped === null) throw this.error(`internal: no counterpart for an element of '${name}'`);
        if (isOldStructor && mapped.vk === 'struct' && elementType.kind === 'struct') {
          mapped = makeStruct(this.ctx, elementType, [mapped.fields[0]!, mapped.fields[1]!, this.ctx.nullPtr(this.dest.pointerTo(this.ctx.i8))]);
        }
        elements.push(mapped);
      }
      ng.initializer = makeArray(this.ctx, newType, elements);
    });
    return ng;
  }

  // --- after the bodies ----------------------------------------------------------------------------

  /** Moves the destination globals of the source's variables to the end, in source order. */
  private reorderGlobals(): void {
    const order: GlobalVariable[] = [];
    for (const sgv of this.src.globals) {
      if (sgv.linkage === 'appending') continue;
      let target: GlobalValue | undefined = this.valueMap.get(sgv);
      if (target === undefined) {
        const dgv = this.linkedToGlobal(sgv, true);
        if (dgv !== undefined && !this.shouldLink(dgv, sgv)) {
          this.valueMap.set(sgv, dgv);
          target = dgv;
        }
      }
      if (target?.vk === 'global' && target.parent === this.dest) order.push(target);
    }
    if (order.length === 0) return;
    // a global moved twice ends where its last move put it
    const last = new Map<GlobalVariable, number>();
    order.forEach((g, i) => last.set(g, i));
    const globals = this.dest.globals;
    const kept = globals.filter((g) => !last.has(g));
    globals.length = 0;
    for (const g of kept) globals.push(g);
    order.forEach((g, i) => {
      if (last.get(g) === i) globals.push(g);
    });
  }

  /** Drops the earlier places of moved globals and applies replacements of another kind. */
  private finishLists(): void {
    const dest = this.dest;
    if (this.moved.size > 0) {
      const compact = <T extends GlobalValue>(list: T[]): void => {
        const lastIndex = new Map<T, number>();
        list.forEach((gv, i) => {
          if (this.moved.has(gv)) lastIndex.set(gv, i);
        });
        let w = 0;
        for (let i = 0; i < list.length; i++) {
          const gv = list[i]!;
          if (!this.moved.has(gv) || lastIndex.get(gv) === i) list[w++] = gv;
        }
        list.length = w;
      };
      compact(dest.functions);
      compact(dest.aliases);
    }
    if (this.replacedDest.size > 0) {
      replaceAllUsesWith(dest, this.replacedDest, { allowTypeMismatch: true });
      dest.removeAll(new Set(this.replacedDest.keys()) as Set<GlobalValue>);
    }
  }

  /** IRLinker::linkModuleFlagsMetadata. */
  private linkModuleFlags(): void {
    const srcFlags = this.src.namedMetadata.get('llvm.module.flags');
    if (srcFlags === undefined) return;
    const dest = this.dest;
    let dstFlags = dest.namedMetadata.get('llvm.module.flags');
    if (dstFlags === undefined) {
      dstFlags = [];
      dest.namedMetadata.set('llvm.module.flags', dstFlags);
    }
    if (dstFlags.length === 0) {
      dstFlags.push(...srcFlags);
      return;
    }
    const md = this.ctx.md;
    const flags = new Map<MDString, { op: MDNode; index: number }>();
    const requirements: MDNode[] = [];
    const requirementSet = new Set<MDNode>();
    const mins: number[] = [];
    const seenMin = new Set<MDString>();
    dstFlags.forEach((op, index) => {
      const flag = parseFlag(op);
      if (flag === undefined) return;
      if (flag.behavior === 3) {
        if (flag.value !== null && (flag.value.mk === 'tuple' || flag.value.mk === 'di') && !requirementSet.has(flag.value)) {
          requirementSet.add(flag.value);
          requirements.push(flag.value);
        }
        return;
      }
      if (flag.behavior === 8) mins.push(index);
      flags.set(flag.id, { op, index });
    });
    const fail = (id: MDString, what: string): IrError => this.error(`linking module flags '${id.value}': ${what} in '${this.src.id}' and '${dest.id}'`);
    for (const srcOp of srcFlags) {
      const s = parseFlag(srcOp);
      if (s === undefined) throw this.error(`invalid module flag ${describeFlag(srcOp)}`);
      const existing = flags.get(s.id);
      seenMin.add(s.id);
      if (s.behavior === 3) {
        const req = s.value;
        if (req !== null && (req.mk === 'tuple' || req.mk === 'di') && !requirementSet.has(req)) {
          requirementSet.add(req);
          requirements.push(req);
          dstFlags.push(srcOp);
        }
        continue;
      }
      if (existing === undefined) {
        if (s.behavior === 8) {
          mins.push(dstFlags.length);
          seenMin.delete(s.id);
        }
        flags.set(s.id, { op: srcOp, index: dstFlags.length });
        dstFlags.push(srcOp);
        continue;
      }
      const d = parseFlag(existing.op)!;
      const set = (op: MDNode): void => {
        dstFlags[existing.index] = op;
        existing.op = op;
      };
      if (d.behavior === 4) {
        if (s.behavior === 4 && s.value !== d.value) throw fail(s.id, 'IDs have conflicting override values');
        continue;
      }
      if (s.behavior === 4) {
        set(srcOp);
        continue;
      }
      if (s.behavior !== d.behavior) {
        const pair = (a: number, b: number): boolean => (s.behavior === a && d.behavior === b) || (s.behavior === b && d.behavior === a);
        if (!pair(8, 2) && !pair(7, 2)) throw fail(s.id, 'IDs have conflicting behaviors');
      }
      if ((d.behavior === 2 || s.behavior === 2) && s.value !== d.value) {
        this.warn(`linking module flags '${s.id.value}': IDs have conflicting values ('${describeFlagValue(s.value)}' from ${this.src.id} with '${describeFlagValue(d.value)}' from ${dest.id})`);
      }
      if (d.behavior === 8 || s.behavior === 8 || d.behavior === 7 || s.behavior === 7) {
        const isMin = d.behavior === 8 || s.behavior === 8;
        const which = isMin ? 8 : 7;
        const dv = flagInt(d.value);
        const sv = flagInt(s.value);
        const pick = isMin ? (sv < dv ? s : d) : sv > dv ? s : d;
        const behaviorSource = d.behavior !== which ? s : d;
        set(md.tuple([behaviorSource.behaviorMD, s.id, pick.value]));
        continue;
      }
      switch (s.behavior) {
        case 1:
          if (s.value !== d.value) throw fail(s.id, 'IDs have conflicting values');
          break;
        case 5:
        case 6: {
          const dstValue = this.distinctFlagValue(d, set);
          const srcValue = s.value;
          const srcOps = srcValue !== null && srcValue.mk === 'tuple' ? srcValue.operands : [];
          if (s.behavior === 5) dstValue.operands.push(...srcOps);
          else {
            const have = new Set(dstValue.operands);
            for (const o of srcOps) {
              if (have.has(o)) continue;
              have.add(o);
              dstValue.operands.push(o);
            }
          }
          break;
        }
        default:
          break;
      }
    }
    for (const index of mins) {
      const op = dstFlags[index]!;
      const f = parseFlag(op);
      if (f === undefined || seenMin.has(f.id)) continue;
      const v = f.value;
      const type = v !== null && v.mk === 'value' && v.value.vk === 'int' ? v.value.type : this.ctx.i32;
      dstFlags[index] = md.tuple([f.behaviorMD, f.id, md.value(this.ctx.constInt(type, 0))]);
    }
    for (const req of requirements) {
      const ops = req.mk === 'tuple' ? req.operands : [];
      const id = ops[0];
      const value = ops[1] ?? null;
      const current = id !== null && id !== undefined && id.mk === 'string' ? flags.get(id) : undefined;
      const currentValue = current === undefined ? undefined : parseFlag(current.op)?.value;
      if (currentValue !== value) {
        throw this.error(`linking module flags '${id?.mk === 'string' ? id.value : '?'}': does not have the required value`);
      }
    }
  }

  /** Append flags need a distinct tuple to grow (LLVM's ensureDistinctOp). */
  private distinctFlagValue(d: ParsedFlag, set: (op: MDNode) => void): MDTuple {
    const value = d.value;
    if (value !== null && value.mk === 'tuple' && value.distinct) return value;
    const md = this.ctx.md;
    const copy = md.distinctTuple(value !== null && value.mk === 'tuple' ? value.operands : []);
    const flag = md.distinctTuple([d.behaviorMD, d.id, copy]);
    set(flag);
    return copy;
  }
}

interface ParsedFlag {
  readonly behavior: number;
  readonly behaviorMD: Metadata;
  readonly id: MDString;
  readonly value: Metadata | null;
}

function parseFlag(op: MDNode): ParsedFlag | undefined {
  if (op.mk !== 'tuple' || op.operands.length < 3) return undefined;
  const [b, id, value] = op.operands;
  if (b === null || b === undefined || b.mk !== 'value' || b.value.vk !== 'int') return undefined;
  if (id === null || id === undefined || id.mk !== 'string') return undefined;
  return { behavior: b.value.num, behaviorMD: b, id, value: value ?? null };
}

function flagInt(md: Metadata | null): bigint {
  return md !== null && md.mk === 'value' && md.value.vk === 'int' ? BigInt.asUintN(64, md.value.big) : 0n;
}

function describeFlagValue(md: Metadata | null): string {
  if (md === null) return 'null';
  if (md.mk === 'value' && md.value.vk === 'int') return `i${md.value.type.bits} ${md.value.value}`;
  if (md.mk === 'string') return `!"${md.value}"`;
  return `!${md.mk}`;
}

function describeFlag(op: MDNode): string {
  return op.mk === 'tuple' ? `!{${op.operands.map((o) => (o === null ? 'null' : describeFlagValue(o))).join(', ')}}` : 'node';
}

function describeKind(gv: GlobalValue): string {
  const what = gv.vk === 'function' ? 'function' : gv.vk === 'global' ? 'variable' : gv.vk;
  return `${isDeclaration(gv) ? 'the declaration' : 'the definition'} (${what})`;
}

/** Elements of an array constant (LLVM's getAggregateElement over every index). */
function arrayElements(ctx: Context, c: Constant): Constant[] {
  const t = c.type;
  const n = t.kind === 'array' ? t.length : 0;
  const element = t.kind === 'array' ? t.element : t;
  switch (c.vk) {
    case 'array':
      return [...c.elements];
    case 'string': {
      const out: Constant[] = [];
      // a string's elements are i8 (ConstantString is only built for [N x i8])
      const byte = element.kind === 'integer' ? element : ctx.i8;
      for (let i = 0; i < c.bytes.length; i++) out.push(ctx.constInt(byte, c.bytes.charCodeAt(i)));
      return out;
    }
    case 'zero':
      return new Array<Constant>(n).fill(nullValue(ctx, element));
    case 'undef':
      return new Array<Constant>(n).fill(ctx.undef(element));
    case 'poison':
      return new Array<Constant>(n).fill(ctx.poison(element));
    default:
      return [];
  }
}

function dropNoCallback(fn: IRFunction): void {
  if (fn.attributes.fn.has('nocallback')) fn.attributes = fn.attributes.withFn(fn.attributes.fn.without('nocallback'));
}

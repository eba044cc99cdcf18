/**
 * Copies a module, or the part of it a module splitter selects, into a new module of the same
 * context (LLVM's `CloneModule` with `ShouldCloneDefinition`). Linear in the size of the copied
 * part: every value, constant and metadata node is visited once.
 */
import { AttributeList } from './attributes.js';
import { Module } from './module.js';
import { ValueMapper } from './mapper.js';
import { forEachReferenceOf } from './references.js';
import { ConstantGlobals } from './uses.js';
import {
  Argument,
  GlobalAlias,
  GlobalIFunc,
  GlobalVariable,
  IRFunction,
  type Comdat,
  type Constant,
  type GlobalValue,
  type Value,
} from './values.js';
import type { FunctionType } from './types.js';
import type { MDNode } from './metadata.js';

export interface CloneOptions {
  /**
   * Globals to copy (all when absent). A global that is not kept but is referenced by kept code
   * or initializers is still copied, as an external declaration (an alias becomes a function or
   * variable declaration), so the clone stays well formed. Unreferenced, unkept globals are left out.
   */
  readonly keep?: (gv: GlobalValue) => boolean;
  /** Kept functions whose bodies are copied (all when absent); the others become declarations. */
  readonly bodies?: (fn: IRFunction) => boolean;
  /** Module id of the clone (the source's by default). */
  readonly id?: string;
  /**
   * The source globals to look at, in source order (default: all of them). With `keep`, a
   * splitter that already knows an image's members passes them here, so cloning one image costs
   * the image, not the whole source.
   */
  readonly members?: readonly GlobalValue[];
  /** Operands of a named metadata node to map into the clone (default: all of them). */
  readonly namedMetadata?: (name: string, operands: readonly MDNode[]) => readonly MDNode[];
}

/** The result's globals keep the source order; `map` gives each copied global its copy. */
export interface CloneResult {
  readonly module: Module;
  readonly map: ReadonlyMap<GlobalValue, GlobalValue>;
}

/** Clones `m` (or the selected part) into a new module in the same context. */
export function cloneModule(m: Module, options: CloneOptions = {}): Module {
  return cloneModuleWithMap(m, options).module;
}

/** Like {@link cloneModule}, also returning the map from source globals to their copies. */
export function cloneModuleWithMap(m: Module, options: CloneOptions = {}): CloneResult {
  return new ModuleCloner(m, options).run();
}

/** Globals split by kind (variables, functions, aliases, ifuncs), each list in the order given. */
function byKind(members: readonly GlobalValue[]): readonly (readonly GlobalValue[])[] {
  const lists: GlobalValue[][] = [[], [], [], []];
  for (const gv of members) lists[gv.vk === 'global' ? 0 : gv.vk === 'function' ? 1 : gv.vk === 'alias' ? 2 : 3]!.push(gv);
  return lists;
}

class ModuleCloner {
  private readonly out: Module;
  private readonly map = new Map<GlobalValue, GlobalValue>();
  private readonly kept = new Set<GlobalValue>();
  private readonly mapper: ValueMapper;

  constructor(
    private readonly src: Module,
    private readonly options: CloneOptions,
  ) {
    const out = new Module(options.id ?? src.id, src.context);
    out.sourceFilename = src.sourceFilename;
    out.dataLayout = src.dataLayout;
    out.triple = src.triple;
    out.typedPointers = src.typedPointers;
    out.inlineAsm = [...src.inlineAsm];
    this.out = out;
    this.mapper = new ValueMapper({
      context: src.context,
      mapGlobal: (gv) => this.mapGlobal(gv),
      // metadata does not keep a global in the clone: references to left-out globals become null
      mapGlobalInMetadata: (gv) => this.map.get(gv) ?? (gv.parent === this.src ? null : gv),
    });
  }

  run(): CloneResult {
    const { src, out, options } = this;
    const keep = options.keep;
    const all = options.members === undefined ? ([src.globals, src.functions, src.aliases, src.ifuncs] as const) : byKind(options.members);
    if (keep !== undefined) for (const list of all) for (const gv of list) if (keep(gv)) this.kept.add(gv);
    const isKept = (gv: GlobalValue): boolean => keep === undefined || this.kept.has(gv);
    // Prototypes first (bodies and initializers refer to them), in source order: kept globals,
    // and declarations for the unkept ones that kept code or initializers reference. The kept
    // pairs are remembered in order so the later passes need no map lookups.
    const referenced = keep === undefined ? undefined : this.referencedByKept();
    const keptSources: GlobalValue[] = [];
    const keptCopies: GlobalValue[] = [];
    for (const list of all) {
      for (const gv of list) {
        if (isKept(gv)) {
          keptSources.push(gv);
          keptCopies.push(this.prototype(gv));
        } else if (referenced?.has(gv)) this.declaration(gv);
      }
    }
    const bodies = options.bodies;
    const mapper = this.mapper;
    for (let i = 0; i < keptSources.length; i++) {
      const gv = keptSources[i]!;
      const copy = keptCopies[i]!;
      if (gv.vk === 'global' && copy.vk === 'global') {
        if (gv.attachments.length > 0) copy.attachments = mapper.mapAttachments(gv.attachments) ?? [];
        if (gv.initializer !== undefined) copy.initializer = this.mapConstant(gv.initializer);
      } else if (gv.vk === 'function' && copy.vk === 'function') {
        if (gv.isDeclaration || (bodies !== undefined && !bodies(gv))) {
          this.completeDeclaration(gv, copy);
          continue;
        }
        if (gv.prefix) copy.prefix = this.mapConstant(gv.prefix);
        if (gv.prologue) copy.prologue = this.mapConstant(gv.prologue);
        if (gv.personality) copy.personality = this.mapConstant(gv.personality);
        if (gv.attachments.length > 0) copy.attachments = mapper.mapAttachments(gv.attachments) ?? [];
        mapper.cloneBody(gv, copy);
      } else if (gv.vk === 'alias' && copy.vk === 'alias') copy.aliasee = this.mapConstant(gv.aliasee);
      else if (gv.vk === 'ifunc' && copy.vk === 'ifunc') copy.resolver = this.mapConstant(gv.resolver);
    }
    mapper.finish();
    for (const [name, ops] of src.namedMetadata) {
      const chosen = options.namedMetadata === undefined ? ops : options.namedMetadata(name, ops);
      out.setNamedMetadata(name, chosen.map((op) => mapper.mapNode(op)));
    }
    if (this.declaredLate) this.restoreOrder();
    this.copyComdats();
    return { module: out, map: this.map };
  }

  /** Globals referenced by the kept definitions (metadata aside), found in one walk. */
  private referencedByKept(): Set<GlobalValue> {
    const found = new Set<GlobalValue>();
    const inConstants = new ConstantGlobals();
    const visit = (v: Value): void => {
      for (const g of inConstants.of(v)) found.add(g);
    };
    const bodies = this.options.bodies;
    for (const gv of this.kept) {
      if (gv.vk === 'function' && (gv.isDeclaration || (bodies !== undefined && !bodies(gv)))) continue;
      forEachReferenceOf(gv, visit);
    }
    return found;
  }

  private mapConstant(c: Constant): Constant {
    const mapped = this.mapper.mapConstant(c);
    if (mapped === null) throw new Error('unreachable: globals always map while cloning');
    return mapped;
  }

  /**
   * Kept globals map to their copies; the pre-pass declared the referenced unkept ones. A global
   * it could not see (e.g. referenced only through a block address's function) is declared on
   * first use, and the lists are put back in source order at the end.
   */
  private mapGlobal(gv: GlobalValue): Constant | null {
    const copy = this.map.get(gv);
    if (copy !== undefined) return copy;
    if (gv.parent !== this.src) return gv; // a global of another module: left as is (the verifier reports it)
    this.declaredLate = true;
    return this.declaration(gv);
  }
  private declaredLate = false;

  /** A copy of `gv` with everything but its body, initializer, aliasee or resolver, added to the clone. */
  private prototype(gv: GlobalValue): GlobalValue {
    const copy = copyPrototype(gv);
    this.add(gv, copy);
    return copy;
  }

  private add(gv: GlobalValue, copy: GlobalValue): void {
    if (copy.vk === 'global') this.out.addGlobalVariable(copy);
    else if (copy.vk === 'function') this.out.addFunction(copy);
    else if (copy.vk === 'alias') this.out.addAlias(copy);
    else this.out.addIFunc(copy);
    this.map.set(gv, copy);
  }

  /** An external declaration standing for a referenced global that is not kept. */
  private declaration(gv: GlobalValue): GlobalValue {
    if (gv.vk === 'alias' || gv.vk === 'ifunc') {
      // an alias cannot be a declaration: declare a function or variable of its value type
      let copy: GlobalValue;
      if (gv.valueType.kind === 'function') {
        const f = new IRFunction(gv.name, gv.valueType as FunctionType, gv.type, AttributeList.empty);
        f.args = f.functionType.params.map((t) => new Argument(t, '', f));
        copy = f;
      } else {
        const v = new GlobalVariable(gv.name, gv.valueType, gv.type);
        v.threadLocal = gv.threadLocal;
        copy = v;
      }
      this.add(gv, copy);
      return copy;
    }
    const copy = declarationOf(gv);
    this.add(gv, copy);
    this.completeDeclaration(gv, copy);
    return copy;
  }

  /** Maps what a declaration made from `gv` still shares with the source: attachments, prefix and prologue. */
  private completeDeclaration(gv: GlobalValue, copy: GlobalValue): void {
    if (copy.vk === 'function' && gv.vk === 'function') {
      if (!gv.isDeclaration) makeDeclaration(copy);
      copy.attachments = gv.isDeclaration && gv.attachments.length > 0 ? (this.mapper.mapAttachments(gv.attachments) ?? []) : [];
      copy.prefix = gv.prefix === undefined ? undefined : this.mapConstant(gv.prefix);
      copy.prologue = gv.prologue === undefined ? undefined : this.mapConstant(gv.prologue);
      if (copy.args.length === 0) copy.args = freshArguments(copy);
    } else if (copy.vk === 'global' && gv.vk === 'global') {
      copy.attachments = gv.attachments.length > 0 ? (this.mapper.mapAttachments(gv.attachments) ?? []) : [];
    }
  }

  /**
   * Puts the copies in the source's order. Needed only when a declaration was made on first use
   * (a reference the pre-pass could not see); declarations standing for aliases and ifuncs come
   * after the source's own variables and functions, as in LLVM's CloneModule.
   */
  private restoreOrder(): void {
    const { src, out, map } = this;
    const sources = [src.globals, src.functions, src.aliases, src.ifuncs] as const;
    const reorder = <T extends GlobalValue>(target: T[], kind: GlobalValue['vk']): void => {
      const copies: GlobalValue[] = [];
      for (const list of sources) {
        for (const gv of list) {
          const copy = map.get(gv);
          if (copy !== undefined && copy.vk === kind) copies.push(copy);
        }
      }
      if (copies.length !== target.length) throw new Error('internal: clone lists out of sync');
      for (let i = 0; i < copies.length; i++) target[i] = copies[i] as T;
    };
    reorder(out.globals, 'global');
    reorder(out.functions, 'function');
    reorder(out.aliases, 'alias');
    reorder(out.ifuncs, 'ifunc');
  }

  /** Comdats referenced by the copied objects, in the source's comdat order. */
  private copyComdats(): void {
    const used = new Set<unknown>();
    for (const g of this.out.globals) if (g.comdat) used.add(g.comdat);
    for (const f of this.out.functions) if (f.comdat) used.add(f.comdat);
    const copies = new Map<unknown, Comdat>();
    for (const c of this.src.comdats.values()) {
      if (!used.has(c)) continue;
      const copy = this.out.getOrCreateComdat(c.name);
      copy.selection = c.selection;
      copies.set(c, copy);
    }
    for (const g of this.out.globals) if (g.comdat) g.comdat = copies.get(g.comdat) ?? this.adopt(g.comdat);
    for (const f of this.out.functions) if (f.comdat) f.comdat = copies.get(f.comdat) ?? this.adopt(f.comdat);
  }

  /** A comdat object not registered in the source's table (built by hand): registered by name. */
  private adopt(c: Comdat): Comdat {
    const copy = this.out.getOrCreateComdat(c.name);
    copy.selection = c.selection;
    return copy;
  }
}

/** A new, unattached copy of `gv` with everything but its body, initializer, aliasee or resolver (arguments come with a body). */
function copyPrototype(gv: GlobalValue): GlobalValue {
  let copy: GlobalValue;
  switch (gv.vk) {
    case 'global': {
      const v = new GlobalVariable(gv.name, gv.valueType, gv.type);
      v.isConstant = gv.isConstant;
      v.externallyInitialized = gv.externallyInitialized;
      v.section = gv.section;
      v.align = gv.align;
      v.attributes = gv.attributes;
      v.sanitizer = gv.sanitizer;
      v.codeModel = gv.codeModel;
      v.comdat = gv.comdat;
      copy = v;
      break;
    }
    case 'function': {
      const f = new IRFunction(gv.name, gv.functionType, gv.type, gv.attributes);
      f.callingConv = gv.callingConv;
      f.section = gv.section;
      f.align = gv.align;
      f.gc = gv.gc;
      f.comdat = gv.comdat;
      copy = f;
      break;
    }
    case 'alias':
      copy = new GlobalAlias(gv.name, gv.valueType, gv.type, gv.aliasee);
      break;
    case 'ifunc':
      copy = new GlobalIFunc(gv.name, gv.valueType, gv.type, gv.resolver);
      break;
  }
  copy.linkage = gv.linkage;
  copy.visibility = gv.visibility;
  copy.dllStorage = gv.dllStorage;
  copy.unnamedAddr = gv.unnamedAddr;
  copy.threadLocal = gv.threadLocal;
  copy.dsoLocal = gv.dsoLocal;
  copy.partition = gv.partition;
  return copy;
}

/**
 * A new, unattached external declaration standing for `gv`: what LLVM's CloneModule makes of a
 * definition it does not clone. It keeps the name, types, attributes, calling convention,
 * visibility and other flags, section, alignment, GC, prefix and prologue; it has external
 * linkage (`extern_weak` stays), no body, initializer, comdat or personality, and fresh unnamed
 * arguments. A variable keeps its attachments, a function only when `gv` is a declaration. What it
 * keeps still refers to `gv`'s module: map it when the declaration goes into another module.
 */
export function declarationOf(gv: IRFunction): IRFunction;
export function declarationOf(gv: GlobalVariable): GlobalVariable;
export function declarationOf(gv: IRFunction | GlobalVariable): IRFunction | GlobalVariable;
export function declarationOf(gv: IRFunction | GlobalVariable): IRFunction | GlobalVariable {
  const copy = copyPrototype(gv) as IRFunction | GlobalVariable;
  if (copy.vk === 'function' && gv.vk === 'function') {
    makeDeclaration(copy);
    copy.prefix = gv.prefix;
    copy.prologue = gv.prologue;
    if (gv.isDeclaration) copy.attachments = [...gv.attachments];
    copy.args = freshArguments(copy);
  } else if (copy.vk === 'global' && gv.vk === 'global') {
    makeVariableDeclaration(copy);
    copy.attachments = [...gv.attachments];
  }
  return copy;
}

function freshArguments(f: IRFunction): Argument[] {
  return f.functionType.params.map((t) => new Argument(t, '', f));
}

/** Turns a function copy into an external declaration (LLVM's CloneModule rule; prefix and prologue stay). */
function makeDeclaration(f: IRFunction): void {
  f.blocks = [];
  f.linkage = externalLinkage(f);
  f.comdat = undefined;
  f.personality = undefined;
  f.attachments = [];
}

function makeVariableDeclaration(v: GlobalVariable): void {
  v.initializer = undefined;
  v.linkage = externalLinkage(v);
  v.comdat = undefined;
}

function externalLinkage(gv: GlobalValue): GlobalValue['linkage'] {
  return gv.linkage === 'extern_weak' ? 'extern_weak' : 'external';
}

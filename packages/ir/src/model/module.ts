/**
 * A module: globals, functions, aliases, ifuncs, comdats, named metadata and module-level strings,
 * in the order LLVM keeps them (which is the order they print in).
 */
import { AttributeList } from './attributes.js';
import { Context } from './context.js';
import type { Attachment, MDNode, Metadata } from './metadata.js';
import type { FunctionType, PointerType, Type } from './types.js';
import { DataLayout } from './datalayout.js';
import {
  Argument,
  Comdat,
  GlobalAlias,
  GlobalIFunc,
  GlobalVariable,
  IRFunction,
  type GlobalValue,
} from './values.js';

export class Module {
  readonly context: Context;
  /** `; ModuleID = '...'`: the input path (or `<stdin>`), like LLVM's module identifier. */
  id: string;
  sourceFilename: string;
  private dataLayoutString = '';
  private cachedLayout: DataLayout | undefined = undefined;
  triple = '';
  /** Module-level inline asm, one entry per `module asm` line. */
  inlineAsm: string[] = [];
  readonly globals: GlobalVariable[] = [];
  readonly functions: IRFunction[] = [];
  readonly aliases: GlobalAlias[] = [];
  readonly ifuncs: GlobalIFunc[] = [];
  readonly comdats = new Map<string, Comdat>();
  /** Named metadata in insertion order (`!name = !{...}`). */
  readonly namedMetadata = new Map<string, MDNode[]>();
  /** Global symbol table: name → global value (unnamed globals are not in it). */
  private readonly symbols = new Map<string, GlobalValue>();
  private uniqueCounter = 0;

  constructor(id: string, context: Context = new Context()) {
    this.context = context;
    this.id = id;
    this.sourceFilename = id;
  }

  get dataLayout(): string {
    return this.dataLayoutString;
  }
  set dataLayout(value: string) {
    this.dataLayoutString = value;
    this.cachedLayout = undefined;
  }
  /** Parsed data layout (sizes and alignments), shared by modules with the same string (device images). */
  get layout(): DataLayout {
    return (this.cachedLayout ??= sharedLayout(this.dataLayoutString));
  }

  // --- symbols ---------------------------------------------------------------------------------

  getGlobalValue(name: string): GlobalValue | undefined {
    return this.symbols.get(name);
  }
  getFunction(name: string): IRFunction | undefined {
    const v = this.symbols.get(name);
    return v?.vk === 'function' ? v : undefined;
  }
  getGlobalVariable(name: string): GlobalVariable | undefined {
    const v = this.symbols.get(name);
    return v?.vk === 'global' ? v : undefined;
  }

  /**
   * A name not used by any global of the module: `name` itself when free, else `name.N`
   * (LLVM's `ValueSymbolTable::makeUniqueName` for globals).
   */
  uniqueGlobalName(name: string): string {
    if (name === '' || !this.symbols.has(name)) return name;
    for (;;) {
      const candidate = `${name}.${++this.uniqueCounter}`;
      if (!this.symbols.has(candidate)) return candidate;
    }
  }

  /** Renames a global, keeping the symbol table in sync; clashes get a `.N` suffix. Returns the name used. */
  renameGlobal(gv: GlobalValue, name: string): string {
    if (gv.name === name) return name;
    if (gv.name !== '' && this.symbols.get(gv.name) === gv) this.symbols.delete(gv.name);
    const unique = this.uniqueGlobalName(name);
    gv.name = unique;
    if (unique !== '') this.symbols.set(unique, gv);
    return unique;
  }

  private register(gv: GlobalValue): void {
    gv.parent = this;
    if (gv.name !== '') {
      const unique = this.uniqueGlobalName(gv.name);
      gv.name = unique;
      this.symbols.set(unique, gv);
    }
  }

  // --- creation --------------------------------------------------------------------------------

  addGlobalVariable(gv: GlobalVariable, before?: GlobalVariable): GlobalVariable {
    this.register(gv);
    insertBefore(this.globals, gv, before);
    return gv;
  }

  addFunction(fn: IRFunction, before?: IRFunction): IRFunction {
    this.register(fn);
    insertBefore(this.functions, fn, before);
    return fn;
  }

  addAlias(alias: GlobalAlias): GlobalAlias {
    this.register(alias);
    this.aliases.push(alias);
    return alias;
  }

  addIFunc(ifunc: GlobalIFunc): GlobalIFunc {
    this.register(ifunc);
    this.ifuncs.push(ifunc);
    return ifunc;
  }

  /** Creates a function declaration with arguments of the function type's parameter types. */
  createFunction(name: string, type: FunctionType, options: { addressSpace?: number; attributes?: AttributeList } = {}): IRFunction {
    const ptr = this.pointerTo(type, options.addressSpace ?? this.layout.programAddressSpace);
    const fn = new IRFunction(name, type, ptr, options.attributes ?? AttributeList.empty);
    fn.args = type.params.map((t) => new Argument(t, '', fn));
    return this.addFunction(fn);
  }

  /** Pointer to `pointee` in the module's pointer style (typed if the module uses typed pointers). */
  pointerTo(pointee: Type, addressSpace = 0): PointerType {
    return this.typedPointers ? this.context.typedPtr(pointee, addressSpace) : this.context.ptr(addressSpace);
  }

  /** True when the module was written with typed pointers (`i8*`), as LLVM <= 16 allowed. */
  typedPointers = false;

  getOrCreateComdat(name: string): Comdat {
    let c = this.comdats.get(name);
    if (c === undefined) {
      c = new Comdat(name);
      this.comdats.set(name, c);
    }
    return c;
  }

  // --- removal ---------------------------------------------------------------------------------

  /** Removes a global value from the module (its uses must already be gone or be rewritten by the caller). */
  remove(gv: GlobalValue): void {
    const list: GlobalValue[] =
      gv.vk === 'function' ? this.functions : gv.vk === 'global' ? this.globals : gv.vk === 'alias' ? this.aliases : this.ifuncs;
    const i = list.indexOf(gv);
    if (i >= 0) list.splice(i, 1);
    if (gv.name !== '' && this.symbols.get(gv.name) === gv) this.symbols.delete(gv.name);
    gv.parent = null;
  }

  /** Removes many globals at once (linear time, for splitting and dead-code elimination). */
  removeAll(dead: ReadonlySet<GlobalValue>): void {
    if (dead.size === 0) return;
    const keep = <T extends GlobalValue>(list: T[]): void => {
      let w = 0;
      for (const gv of list) if (!dead.has(gv)) list[w++] = gv;
      list.length = w;
    };
    keep(this.functions);
    keep(this.globals);
    keep(this.aliases);
    keep(this.ifuncs);
    for (const gv of dead) {
      if (gv.name !== '' && this.symbols.get(gv.name) === gv) this.symbols.delete(gv.name);
      gv.parent = null;
    }
  }

  /** Comdats no global object refers to any more are dropped (LLVM drops them when printing). */
  pruneComdats(): void {
    const used = new Set<Comdat>();
    for (const f of this.functions) if (f.comdat) used.add(f.comdat);
    for (const g of this.globals) if (g.comdat) used.add(g.comdat);
    for (const [name, c] of this.comdats) if (!used.has(c)) this.comdats.delete(name);
  }

  // --- metadata --------------------------------------------------------------------------------

  getNamedMetadata(name: string): readonly MDNode[] | undefined {
    return this.namedMetadata.get(name);
  }
  setNamedMetadata(name: string, operands: MDNode[]): void {
    this.namedMetadata.set(name, operands);
  }
  /** Appends to named metadata, creating it at the end if absent. */
  addNamedMetadataOperand(name: string, operand: MDNode): void {
    const list = this.namedMetadata.get(name);
    if (list === undefined) this.namedMetadata.set(name, [operand]);
    else list.push(operand);
  }

  /** All global values in LLVM's printing order (variables, functions, aliases, ifuncs). */
  *globalValues(): IterableIterator<GlobalValue> {
    yield* this.globals;
    yield* this.functions;
    yield* this.aliases;
    yield* this.ifuncs;
  }
}

function insertBefore<T>(list: T[], item: T, before: T | undefined): void {
  if (before === undefined) {
    list.push(item);
    return;
  }
  const i = list.indexOf(before);
  if (i < 0) list.push(item);
  else list.splice(i, 0, item);
}

// --- metadata attachments on functions, globals and instructions --------------------------------

/** Something that carries metadata attachments. */
export interface HasAttachments {
  attachments: readonly Attachment[] | null;
}

/** The node attached under `kind`, registering the kind name like LLVM's string-based `getMetadata`. */
export function getMetadata(owner: { readonly attachments: readonly Attachment[] | null }, context: Context, kind: string): MDNode | undefined {
  const id = context.md.kinds.id(kind);
  const list = owner.attachments;
  if (list === null) return undefined;
  for (const a of list) if (a.kind === id) return a.node;
  return undefined;
}

/**
 * Attaches (or replaces, or with `undefined` removes) the node under `kind`. A frozen list (shared
 * by instructions) is replaced by a changed copy; any other list is changed in place.
 */
export function setMetadata(owner: { attachments: readonly Attachment[] | null }, context: Context, kind: string, node: MDNode | undefined): void {
  const id = context.md.kinds.id(kind);
  const current = owner.attachments;
  const list: Attachment[] = current === null ? [] : Object.isFrozen(current) ? current.slice() : (current as Attachment[]);
  const i = list.findIndex((a) => a.kind === id);
  if (node === undefined) {
    if (i >= 0) list.splice(i, 1);
  } else if (i >= 0) list[i] = { kind: id, node };
  else list.push({ kind: id, node });
  owner.attachments = list.length === 0 && owner.attachments === null ? null : list;
}

export type { Metadata };

/** Parsed layouts by string: a split makes thousands of modules with one layout. */
const layouts = new Map<string, DataLayout>();

function sharedLayout(text: string): DataLayout {
  let layout = layouts.get(text);
  if (layout === undefined) {
    if (layouts.size >= 64) layouts.clear();
    layout = DataLayout.parse(text);
    layouts.set(text, layout);
  }
  return layout;
}

/**
 * Rewriting references and removing globals: `replaceAllUsesWith` (LLVM's RAUW without use
 * lists: one walk of the module), `deleteFunctions` and `eraseUnused` (GlobalDCE-like).
 */
import { makeArray } from '../model/constfold.js';
import { IrError } from '../errors.js';
import { CallInst } from '../model/instructions.js';
import { ValueMapper, type LocalMap } from './mapper.js';
import type { Module } from '../model/module.js';
import type { Type } from '../model/types.js';
import { ConstantGlobals, computeUses, globalsInMetadata } from '../analysis/uses.js';
import {
  isConstant,
  isGlobalValue,
  stripPointerCasts,
  type Comdat,
  type Constant,
  type GlobalValue,
  type IRFunction,
  type Value,
} from '../model/values.js';

export interface ReplaceOptions {
  /** Allow a replacement of another type (the caller fixes types up). Off: a mismatch throws. */
  readonly allowTypeMismatch?: boolean;
}

/**
 * Replaces every use of each key of `replacements` by its value, everywhere in `m`: instruction
 * operands and operand bundles, constants (rebuilt through the folding constructors, so e.g.
 * `bitcast` of a replaced global may fold), initializers, aliasees, ifunc resolvers,
 * personality/prefix/prologue, block addresses, and metadata (value wrappers, the nodes holding
 * them, `DIArgList`s, debug records, attachments, named metadata).
 *
 * Keys may be global values, instructions, arguments, basic blocks or constant objects; a key
 * that appears inside a constant must be replaced by a constant. A replacement to `null`
 * (allowed only for metadata-only references, see {@link deleteFunctions}) is written as the
 * absence of the key; use {@link nullMetadataReferences} for that.
 */
export function replaceAllUsesWith(m: Module, replacements: ReadonlyMap<Value, Value>, options: ReplaceOptions = {}): void {
  if (replacements.size === 0) return;
  if (options.allowTypeMismatch !== true) {
    for (const [from, to] of replacements) {
      if (from.type !== to.type) throw new IrError(`cannot replace ${describe(from)} by ${describe(to)}: types differ (${typeText(from.type)} vs ${typeText(to.type)})`, m.id);
    }
  }
  const replaceConstant = (c: Constant): Constant | undefined => {
    const r = replacements.get(c);
    if (r === undefined) return undefined;
    if (!isConstant(r)) throw new IrError(`${describe(c)} is used in a constant and cannot be replaced by the non-constant ${describe(r)}`, m.id);
    return r;
  };
  const mapper = new ValueMapper({
    context: m.context,
    fold: true,
    mapGlobal: (gv) => replaceConstant(gv) ?? gv,
    replaceConstant,
  });
  rewriteModule(m, mapper, (v) => replacements.get(v) ?? v);
}

/**
 * Turns metadata references to `dead` globals into `null` operands (what LLVM does when a global
 * referenced from metadata is deleted). Other references are left alone.
 */
export function nullMetadataReferences(m: Module, dead: ReadonlySet<GlobalValue>): void {
  if (dead.size === 0) return;
  nullMetadataReferencesFromLive(m, dead);
}

/** Walks everything that can refer to a value and stores the mapped references back. */
function rewriteModule(m: Module, mapper: ValueMapper, local: (v: Value) => Value): void {
  const constant = (c: Constant): Constant => {
    const r = mapper.mapConstant(c);
    if (r === null) throw new Error('unreachable: replacement constants are never null');
    return r;
  };
  const operand = (v: Value, locals: LocalMap): Value => {
    if (v.vk === 'metadata') {
      const md = mapper.mapMetadataOperand(v.metadata, locals);
      if (md === v.metadata) return v;
      v.metadata = md ?? m.context.md.tuple([]);
      return v;
    }
    if (!isConstant(v)) return local(v);
    return constant(v);
  };
  const locals: LocalMap = { get: (v) => local(v) };
  for (const g of m.globals) {
    if (g.initializer !== undefined) g.initializer = constant(g.initializer);
    g.attachments = mapper.mapAttachments(g.attachments) ?? [];
  }
  for (const a of m.aliases) a.aliasee = constant(a.aliasee);
  for (const i of m.ifuncs) i.resolver = constant(i.resolver);
  for (const f of m.functions) {
    if (f.personality) f.personality = constant(f.personality);
    if (f.prefix) f.prefix = constant(f.prefix);
    if (f.prologue) f.prologue = constant(f.prologue);
    f.attachments = mapper.mapAttachments(f.attachments) ?? [];
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        const ops = inst.operands;
        for (let i = 0; i < ops.length; i++) {
          const op = ops[i]!;
          const r = operand(op, locals);
          if (r !== op) ops[i] = r;
        }
        if (inst instanceof CallInst) {
          for (const bundle of inst.bundles) {
            const inputs = bundle.inputs;
            for (let i = 0; i < inputs.length; i++) inputs[i] = operand(inputs[i]!, locals);
          }
        }
        if (inst.attachments) inst.attachments = mapper.mapAttachments(inst.attachments);
        if (inst.debugRecords) inst.debugRecords = mapper.mapDebugRecords(inst.debugRecords, locals);
      }
    }
  }
  for (const [name, ops] of m.namedMetadata) {
    const mapped = ops.map((op) => mapper.mapNode(op));
    if (mapped.some((op, i) => op !== ops[i])) m.namedMetadata.set(name, mapped);
  }
  mapper.finish();
}

export interface DeleteOptions {
  /**
   * What to do with a deleted function that is still referenced from outside the deleted set:
   * `declare` (default) keeps it as an external declaration; `poison` replaces those references
   * by `poison`; `error` throws an {@link IrError} naming the function and one user.
   * References from `@llvm.used` / `@llvm.compiler.used` are removed from those lists in every
   * mode, and metadata references become `null`.
   */
  readonly remainingUses?: 'declare' | 'poison' | 'error';
}

export interface DeleteResult {
  /** Functions removed from the module, in module order. */
  readonly deleted: IRFunction[];
  /** Functions kept as declarations because something outside the set still refers to them. */
  readonly declared: IRFunction[];
}

/** Removes functions from `m`, keeping the module consistent (see {@link DeleteOptions}). */
export function deleteFunctions(m: Module, functions: Iterable<IRFunction>, options: DeleteOptions = {}): DeleteResult {
  const dead = new Set<GlobalValue>();
  for (const f of functions) if (f.parent === m) dead.add(f);
  if (dead.size === 0) return { deleted: [], declared: [] };
  removeFromUsedLists(m, dead);
  const uses = computeUses(m);
  const mode = options.remainingUses ?? 'declare';
  const declared: IRFunction[] = [];
  const poisoned = new Map<Value, Value>();
  // Uses inside deleted bodies never count, even when their function ends up declared.
  const requested: ReadonlySet<GlobalValue> = new Set(dead);
  for (const f of m.functions) {
    if (!dead.has(f)) continue;
    const outside = uses.users(f).find((u) => {
      const owner = u.vk === 'instruction' ? u.function : u;
      return owner === undefined || !requested.has(owner);
    });
    if (outside === undefined) continue;
    if (mode === 'error') {
      const owner = outside.vk === 'instruction' ? outside.function : outside;
      throw new IrError(`cannot delete @${f.name}: still used by ${owner ? `@${owner.name}` : 'an instruction outside any function'}`, m.id);
    }
    if (mode === 'declare') {
      dead.delete(f);
      dropBody(f);
      declared.push(f);
    } else poisoned.set(f, m.context.poison(f.type));
  }
  if (poisoned.size > 0) replaceAllUsesWith(m, poisoned);
  const deleted = m.functions.filter((f) => dead.has(f));
  if (globalsInMetadata(m).size > 0) nullMetadataReferences(m, dead);
  m.removeAll(dead);
  m.pruneComdats();
  return { deleted, declared };
}

/** Makes a function an external declaration (body, comdat, personality and prefixes dropped). */
export function dropBody(f: IRFunction): void {
  f.blocks = [];
  if (f.linkage !== 'extern_weak') f.linkage = 'external';
  f.comdat = undefined;
  f.personality = undefined;
  f.prefix = undefined;
  f.prologue = undefined;
  f.attachments = [];
}

/**
 * Drops elements referring to `dead` globals from `@llvm.used` and `@llvm.compiler.used`
 * (the lists are rebuilt with their new length; an emptied list is removed).
 */
export function removeFromUsedLists(m: Module, dead: ReadonlySet<GlobalValue>): void {
  for (const name of ['llvm.used', 'llvm.compiler.used']) {
    const list = m.getGlobalVariable(name);
    const init = list?.initializer;
    if (list === undefined || init === undefined || init.vk !== 'array') continue;
    const kept = init.elements.filter((e) => {
      const target = stripPointerCasts(e);
      return !(isGlobalValue(target) && dead.has(target));
    });
    if (kept.length === init.elements.length) continue;
    if (kept.length === 0) {
      m.remove(list);
      continue;
    }
    const arrayType = m.context.array((init.type as { element: Type }).element, kept.length);
    list.valueType = arrayType;
    // a typed pointer to the list changes with its length
    if (list.type.pointee !== undefined) list.type = m.context.typedPtr(arrayType, list.addressSpace);
    list.initializer = makeArray(m.context, arrayType, kept);
  }
}

export interface EraseUnusedOptions {
  /**
   * Which globals are roots (kept with everything they reference). By default, as in LLVM's
   * GlobalDCE: definitions that are not discardable if unused (not local, linkonce or
   * available_externally) and every alias or ifunc that is not.
   */
  readonly roots?: (gv: GlobalValue) => boolean;
}

/**
 * Removes globals nothing live refers to (LLVM's GlobalDCE): marks from the roots through
 * initializers, bodies, aliasees, resolvers and personality/prefix/prologue, keeping whole
 * comdats (a live member keeps every member), then erases the rest, including unused
 * declarations. Metadata references do not keep a global alive; they become `null`.
 * Returns the erased globals in module order (variables, functions, aliases, ifuncs).
 */
export function eraseUnused(m: Module, options: EraseUnusedOptions = {}): GlobalValue[] {
  const erased = unusedGlobals(m, options);
  if (erased.length === 0) return erased;
  const dead = new Set(erased);
  if (globalsInMetadata(m).size > 0) nullMetadataReferencesFromLive(m, dead);
  m.removeAll(dead);
  m.pruneComdats();
  return erased;
}

/**
 * The globals {@link eraseUnused} would erase, in module order (variables, functions, aliases,
 * ifuncs), without changing anything.
 */
export function unusedGlobals(m: Module, options: EraseUnusedOptions = {}): GlobalValue[] {
  const comdatMembers = new Map<Comdat, GlobalValue[]>();
  for (const gv of m.globalValues()) {
    const c = gv.vk === 'global' || gv.vk === 'function' ? gv.comdat : undefined;
    if (c === undefined) continue;
    const list = comdatMembers.get(c);
    if (list === undefined) comdatMembers.set(c, [gv]);
    else list.push(gv);
  }
  const isRoot = options.roots ?? defaultRoot;
  const live = new Set<GlobalValue>();
  const work: GlobalValue[] = [];
  const markLive = (gv: GlobalValue): void => {
    if (live.has(gv) || gv.parent !== m) return;
    live.add(gv);
    work.push(gv);
  };
  for (const gv of m.globalValues()) if (isRoot(gv)) markLive(gv);
  const inConstants = new ConstantGlobals();
  // most operands that matter name a global directly: forEach makes no list for them
  const markIn = (v: Value): void => inConstants.forEach(v, markLive);
  while (work.length > 0) {
    const gv = work.pop()!;
    const c = gv.vk === 'global' || gv.vk === 'function' ? gv.comdat : undefined;
    if (c !== undefined) for (const member of comdatMembers.get(c) ?? []) markLive(member);
    switch (gv.vk) {
      case 'global':
        if (gv.initializer !== undefined) markIn(gv.initializer);
        break;
      case 'alias':
        markIn(gv.aliasee);
        break;
      case 'ifunc':
        markIn(gv.resolver);
        break;
      case 'function':
        if (gv.personality) markIn(gv.personality);
        if (gv.prefix) markIn(gv.prefix);
        if (gv.prologue) markIn(gv.prologue);
        for (const b of gv.blocks) {
          for (const inst of b.instructions) {
            const ops = inst.operands;
            for (let i = 0; i < ops.length; i++) {
              const op = ops[i]!;
              // most operands are locals or integers, which hold no global: no call for them
              switch (op.vk) {
                case 'instruction':
                case 'argument':
                case 'block':
                case 'int':
                  break;
                case 'global':
                case 'function':
                case 'alias':
                case 'ifunc':
                  markLive(op);
                  break;
                default:
                  markIn(op);
              }
            }
            if (inst instanceof CallInst) for (const bundle of inst.bundles) for (const v of bundle.inputs) markIn(v);
          }
        }
        break;
    }
  }
  const unused: GlobalValue[] = [];
  for (const gv of m.globalValues()) if (!live.has(gv)) unused.push(gv);
  return unused;
}

function defaultRoot(gv: GlobalValue): boolean {
  if (gv.vk === 'global' || gv.vk === 'function') {
    if (gv.isDeclaration || gv.linkage === 'available_externally') return false;
  }
  return !gv.isDiscardableIfUnused();
}

/**
 * Nulls metadata references to `dead` globals held by the other globals and by named metadata
 * (the dead globals' own attachments and bodies go away with them).
 */
function nullMetadataReferencesFromLive(m: Module, dead: ReadonlySet<GlobalValue>): void {
  const mapper = new ValueMapper({ context: m.context, mapGlobal: (gv) => (dead.has(gv) ? null : gv), distinctWhenNulled: true });
  const locals: LocalMap = { get: (v) => v };
  for (const g of m.globals) if (!dead.has(g)) g.attachments = mapper.mapAttachments(g.attachments) ?? [];
  for (const f of m.functions) {
    if (dead.has(f)) continue;
    f.attachments = mapper.mapAttachments(f.attachments) ?? [];
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        for (const op of inst.operands) {
          if (op.vk !== 'metadata') continue;
          const md = mapper.mapMetadataOperand(op.metadata, locals);
          if (md !== op.metadata) op.metadata = md ?? m.context.md.tuple([]);
        }
        if (inst.attachments) inst.attachments = mapper.mapAttachments(inst.attachments);
        if (inst.debugRecords) inst.debugRecords = mapper.mapDebugRecords(inst.debugRecords, locals);
      }
    }
  }
  for (const [name, ops] of m.namedMetadata) {
    const mapped = ops.map((op) => mapper.mapNode(op));
    if (mapped.some((op, i) => op !== ops[i])) m.namedMetadata.set(name, mapped);
  }
}

function describe(v: Value): string {
  const name = (v as { name?: string }).name;
  if (isGlobalValue(v)) return name ? `@${name}` : 'an unnamed global';
  return name ? `%${name}` : `a ${v.vk} value`;
}

function typeText(t: Type): string {
  switch (t.kind) {
    case 'integer':
      return `i${t.bits}`;
    case 'pointer':
      if (t.pointee !== undefined) return `${typeText(t.pointee)}${t.addressSpace === 0 ? '' : ` addrspace(${t.addressSpace})`}*`;
      return t.addressSpace === 0 ? 'ptr' : `ptr addrspace(${t.addressSpace})`;
    case 'struct':
      return t.name !== '' ? `%${t.name}` : 'a struct';
    case 'float':
      return t.fp;
    default:
      return t.kind;
  }
}

/**
 * Maps values, constants, metadata, attributes and function bodies from one module into another
 * (LLVM's ValueMapper, reduced to what cloning and linking need). The caller decides what a global
 * value maps to (`mapGlobal`) and may remap types (`mapType`, the linker's type map); everything
 * else is derived:
 *
 * - constants are rebuilt only when an operand or their type changes, otherwise shared (constants
 *   are immutable);
 * - metadata nodes are rebuilt only when they (transitively) reach a value that maps to something
 *   else; the rest is shared, since nodes are interned per context;
 * - instructions are copied with their operands mapped, visiting operands in LLVM's operand order
 *   (call arguments and bundles before the callee), which decides the order in which a linker
 *   discovers globals.
 */
import { AttributeList, AttributeSet, typeAttr, type Attribute } from '../model/attributes.js';
import type { Context } from '../model/context.js';
import { makeArray, makeConstantExpr, makeStruct, makeVector } from '../model/constfold.js';
import {
  AggregateInst,
  AllocaInst,
  CallInst,
  CatchSwitchInst,
  CmpInst,
  GetElementPtrInst,
  Instruction,
  LandingPadInst,
  MemoryInst,
  ShuffleVectorInst,
  type DebugRecord,
  type OperandBundle,
} from '../model/instructions.js';
import type { Attachment, DIFieldValue, MDNode, MDTuple, Metadata, ValueAsMetadata } from '../model/metadata.js';
import { forEachDIOperand } from '../model/metadata.js';
import type { FunctionType, PointerType, Type } from '../model/types.js';
import {
  Argument,
  BasicBlock,
  BlockAddress,
  ConstantArray,
  ConstantExpr,
  ConstantString,
  ConstantStruct,
  ConstantVector,
  DSOLocalEquivalent,
  InlineAsm,
  MetadataAsValue,
  NoCFIValue,
  type Constant,
  type GlobalValue,
  type IRFunction,
  type Value,
} from '../model/values.js';
import { IrError } from '../errors.js';

export interface MapperOptions {
  readonly context: Context;
  /**
   * What a global value of the source maps to; `null` when it has no counterpart (metadata
   * operands that refer to it become `null`, like LLVM's `RF_NullMapMissingGlobalValues`).
   */
  readonly mapGlobal: (gv: GlobalValue) => Constant | null;
  /** What a global referenced from metadata maps to (`mapGlobal` when absent). */
  readonly mapGlobalInMetadata?: (gv: GlobalValue) => Constant | null;
  /** Type remapping (the linker's struct type map); identity when absent. */
  readonly mapType?: (t: Type) => Type;
  /**
   * Rebuild changed constants through the folding constructors of `constfold.ts` (as LLVM's
   * `ConstantExpr::get*` would). Off by default: cloning keeps every constant's shape exactly.
   */
  readonly fold?: boolean;
  /** Constants (other than globals) replaced outright, checked before anything else. */
  readonly replaceConstant?: (c: Constant) => Constant | undefined;
  /**
   * A uniqued node with an operand whose value maps to `null` becomes distinct: what LLVM does
   * to nodes whose value is deleted ("drop uniquing for deleted constants"). For deletions only.
   */
  readonly distinctWhenNulled?: boolean;
}

/** Local values (arguments, blocks, instructions) of one function mapped to their copies. */
export interface LocalMap {
  get(v: Value): Value | undefined;
}

export class ValueMapper {
  readonly context: Context;
  private readonly mapGlobalHook: (gv: GlobalValue) => Constant | null;
  private readonly metadataGlobalHook: ((gv: GlobalValue) => Constant | null) | undefined;
  /** Set while mapping values held by metadata (they may use their own global hook and memo). */
  private inMetadata = false;
  private readonly typeHook: ((t: Type) => Type) | undefined;
  private readonly fold: boolean;
  private readonly replaceConstant: ((c: Constant) => Constant | undefined) | undefined;
  private readonly distinctWhenNulled: boolean;
  private readonly constants = new Map<Constant, Constant | null>();
  private readonly metadataConstants = new Map<Constant, Constant | null>();
  private readonly nodes = new Map<MDNode, MDNode>();
  /** Attribute sets and lists mapped so far (a set's types are visited when it is first mapped). */
  private readonly attributeSets = new Map<AttributeSet, AttributeSet>();
  private readonly attributeLists = new Map<AttributeList, AttributeList>();
  /** Copies of functions whose bodies were cloned (to resolve block addresses at the end). */
  private readonly bodies = new Map<IRFunction, IRFunction>();
  private readonly pendingBlockAddresses: { readonly copy: BlockAddress; readonly block: BasicBlock }[] = [];
  /** Locals of the body being copied (one map reused for every function). */
  private readonly locals = new Map<Value, Value>();
  private readonly sources: Instruction[] = [];
  private readonly copies: Instruction[] = [];
  private copyingBody = false;
  /** Set while bodies are moved in place (see {@link moveBody}). */
  private moving = false;
  /** Changes made to bodies moved in place so far (see {@link inPlaceRewrites}): of types, of anything else. */
  private typeRewrites = 0;
  private rewrites = 0;
  /** Deferred work (bodies, initializers), run last-in first-out like LLVM's mapper worklist. */
  private readonly scheduled: (() => void)[] = [];

  constructor(options: MapperOptions) {
    this.context = options.context;
    this.mapGlobalHook = options.mapGlobal;
    this.metadataGlobalHook = options.mapGlobalInMetadata;
    this.typeHook = options.mapType;
    this.fold = options.fold ?? false;
    this.replaceConstant = options.replaceConstant;
    this.distinctWhenNulled = options.distinctWhenNulled ?? false;
  }

  /**
   * How many times moving bodies in place ({@link moveBody}, {@link mapAttachmentsInPlace}) wrote
   * something new into a body: an argument's type, an instruction's operands, bundles, types,
   * call type or attributes, attachments or debug records (what `adjustCall` does is not counted).
   * Zero: every moved body is exactly as it was.
   */
  get inPlaceRewrites(): number {
    return this.rewrites + this.typeRewrites;
  }

  /** {@link inPlaceRewrites} that replaced something other than a type (or a call's type attributes). */
  get inPlaceValueRewrites(): number {
    return this.rewrites;
  }

  /** Whether a value held by metadata is being mapped: a global asked for now is referenced from metadata. */
  get mappingMetadata(): boolean {
    return this.inMetadata;
  }

  // --- scheduling ----------------------------------------------------------------------------------

  /** Queues work to run at the next {@link flush}. */
  schedule(work: () => void): void {
    this.scheduled.push(work);
  }

  /** Runs queued work, newest first, including work queued while flushing. */
  flush(): void {
    for (let work = this.scheduled.pop(); work !== undefined; work = this.scheduled.pop()) work();
  }

  /** Resolves block addresses whose blocks were copied after the constant was mapped. */
  finish(): void {
    for (const { copy, block } of this.pendingBlockAddresses) {
      const fnCopy = this.bodies.get(block.parent);
      const index = block.parent.blocks.indexOf(block);
      copy.block = (fnCopy !== undefined && index >= 0 ? fnCopy.blocks[index] : undefined) ?? block.name;
    }
    this.pendingBlockAddresses.length = 0;
  }

  // --- types and attributes ------------------------------------------------------------------------

  mapType<T extends Type>(t: T): T {
    return this.typeHook === undefined ? t : (this.typeHook(t) as T);
  }

  mapAttributeList(list: AttributeList): AttributeList {
    if (this.typeHook === undefined || list === AttributeList.empty) return list;
    // memoized: the reader shares one list among calls with the same sets (a function's own list
    // is its own; its sets are shared)
    const known = this.attributeLists.get(list);
    if (known !== undefined) return known;
    const mapped = this.mapAttributeListOnce(list);
    this.attributeLists.set(list, mapped);
    return mapped;
  }

  private mapAttributeListOnce(list: AttributeList): AttributeList {
    const fn = this.mapAttributeSet(list.fn);
    const ret = this.mapAttributeSet(list.ret);
    // a new parameter list only once a set changes
    let params: AttributeSet[] | undefined;
    for (let i = 0; i < list.params.length; i++) {
      const p = list.params[i]!;
      const m = this.mapAttributeSet(p);
      if (m !== p && params === undefined) params = list.params.slice(0, i);
      if (params !== undefined) params.push(m);
    }
    return fn === list.fn && ret === list.ret && params === undefined ? list : new AttributeList(fn, ret, params ?? list.params);
  }

  mapAttributeSet(set: AttributeSet): AttributeSet {
    if (this.typeHook === undefined || set.attributes.length === 0) return set;
    const known = this.attributeSets.get(set);
    if (known !== undefined) return known;
    const mapped = this.mapAttributeSetOnce(set);
    this.attributeSets.set(set, mapped);
    return mapped;
  }

  private mapAttributeSetOnce(set: AttributeSet): AttributeSet {
    const attributes = set.attributes;
    // a new set only once a type attribute's type changes
    let out: Attribute[] | undefined;
    for (let i = 0; i < attributes.length; i++) {
      const a = attributes[i]!;
      if (a.kind === 'type' && a.type !== undefined) {
        const t = this.mapType(a.type);
        if (t !== a.type) {
          out ??= attributes.slice(0, i);
          out.push(typeAttr(a.key, t));
          continue;
        }
      }
      if (out !== undefined) out.push(a);
    }
    return out === undefined ? set : AttributeSet.of(out);
  }

  // --- values --------------------------------------------------------------------------------------

  /** Maps an operand of an instruction of a function whose locals are in `locals`. */
  mapValue(v: Value, locals: LocalMap | undefined): Value {
    switch (v.vk) {
      case 'argument':
      case 'block':
      case 'instruction': {
        const local = locals?.get(v);
        if (local === undefined) throw new IrError(`operand ${describeLocal(v)} does not belong to the function being copied`);
        return local;
      }
      case 'metadata': {
        const md = this.mapMetadataOperand(v.metadata, locals);
        // a moved instruction keeps its operand object when the metadata is unchanged
        if (this.moving && md === v.metadata) return v;
        return new MetadataAsValue(v.type, md ?? this.context.md.tuple([]));
      }
      case 'asm':
        return this.mapInlineAsm(v);
      default: {
        const c = this.mapConstant(v);
        if (c === null) throw new IrError(`reference to ${describeGlobal(v)}, which has no counterpart in the destination module`);
        return c;
      }
    }
  }

  private mapInlineAsm(v: InlineAsm): InlineAsm {
    if (this.typeHook === undefined) return v;
    const type = this.mapType(v.type);
    const fnType = this.mapType(v.functionType);
    return type === v.type && fnType === v.functionType ? v : new InlineAsm(type, fnType, v.asm, v.constraints, v.flags);
  }

  /** Maps a constant; `null` when it is (or contains) a global without counterpart. */
  mapConstant(c: Constant): Constant | null {
    switch (c.vk) {
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        return this.inMetadata && this.metadataGlobalHook !== undefined ? this.metadataGlobalHook(c) : this.mapGlobalHook(c);
      default:
        if (this.replaceConstant !== undefined) {
          const r = this.replaceConstant(c);
          if (r !== undefined) return r;
        }
    }
    switch (c.vk) {
      case 'int':
        return c;
      case 'fp':
      case 'null':
      case 'zero':
      case 'undef':
      case 'poison':
      case 'none':
        return this.typeHook === undefined ? c : this.retypeSimple(c);
      default:
        break;
    }
    const memo = this.inMetadata && this.metadataGlobalHook !== undefined ? this.metadataConstants : this.constants;
    const known = memo.get(c);
    if (known !== undefined) return known;
    const mapped = this.mapCompound(c);
    memo.set(c, mapped);
    return mapped;
  }

  private retypeSimple(c: Constant): Constant {
    const t = this.mapType(c.type);
    if (t === c.type) return c;
    const ctx = this.context;
    switch (c.vk) {
      case 'fp':
        return ctx.constFP(t, c.bits);
      case 'null':
        return ctx.nullPtr(t as PointerType);
      case 'zero':
        return ctx.zero(t);
      // LLVM 16's value mapper retypes any undef-like constant as `undef`: llvm-link turns a
      // poison of a merged struct type into undef
      case 'undef':
      case 'poison':
        return ctx.undef(t);
      case 'none':
        return ctx.none(t);
      default:
        return c;
    }
  }

  private mapCompound(c: Constant): Constant | null {
    const ctx = this.context;
    switch (c.vk) {
      case 'string': {
        const t = this.mapType(c.type);
        return t === c.type ? c : new ConstantString(t, c.bytes);
      }
      case 'array':
      case 'vector':
      case 'struct': {
        const elements = c.vk === 'struct' ? c.fields : c.elements;
        const mapped = this.mapConstants(elements);
        if (mapped === null) return null;
        const t = this.mapType(c.type);
        if (mapped === elements && t === c.type) return c;
        if (this.fold) return c.vk === 'array' ? makeArray(ctx, t, mapped) : c.vk === 'vector' ? makeVector(ctx, t, mapped) : makeStruct(ctx, t, mapped);
        return c.vk === 'array' ? new ConstantArray(t, mapped) : c.vk === 'vector' ? new ConstantVector(t, mapped) : new ConstantStruct(t, mapped);
      }
      case 'expr': {
        const ops = this.mapConstants(c.operands);
        if (ops === null) return null;
        const t = this.mapType(c.type);
        const source = c.extra.sourceElementType;
        const mappedSource = source === undefined ? undefined : this.mapType(source);
        if (ops === c.operands && t === c.type && mappedSource === source) return c;
        const extra = mappedSource === source ? c.extra : { ...c.extra, sourceElementType: mappedSource };
        return this.fold ? makeConstantExpr(ctx, c.opcode, t, ops, extra) : new ConstantExpr(c.opcode, t, ops, extra);
      }
      case 'blockaddress': {
        const fn = this.mapConstant(c.fn as Constant);
        if (fn === null) return null;
        const copy = new BlockAddress(this.mapType(c.type), fn, typeof c.block === 'string' ? c.block : c.block.name);
        if (typeof c.block !== 'string') this.pendingBlockAddresses.push({ copy, block: c.block });
        return copy;
      }
      case 'dso_local_equivalent':
      case 'no_cfi': {
        const g = this.mapConstant(c.global as Constant);
        if (g === null) return null;
        if (g === c.global && this.mapType(c.type) === c.type) return c;
        return c.vk === 'no_cfi' ? new NoCFIValue(this.mapType(c.type), g) : new DSOLocalEquivalent(this.mapType(c.type), g);
      }
      default:
        return c;
    }
  }

  /** The same array when nothing changed, `null` when an element has no counterpart. */
  private mapConstants(list: readonly Constant[]): readonly Constant[] | null {
    let out: Constant[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      const m = this.mapConstant(e);
      if (m === null) return null;
      if (m !== e && out === undefined) out = list.slice(0, i);
      if (out !== undefined) out.push(m);
    }
    return out ?? list;
  }

  // --- metadata ------------------------------------------------------------------------------------

  /** Maps metadata written as an operand (may hold function-local values or a DIArgList). */
  mapMetadataOperand(md: Metadata | null, locals: LocalMap | undefined): Metadata | null {
    if (md === null) return null;
    const ctx = this.context.md;
    switch (md.mk) {
      case 'string':
      case 'expr':
        return md;
      case 'value': {
        const v = md.value;
        const mapped = isLocal(v) ? this.mapValue(v, locals) : this.mapValueInMetadata(v);
        return mapped === null ? null : mapped === v ? md : ctx.value(mapped);
      }
      case 'arglist': {
        const args: ValueAsMetadata[] = [];
        let changed = false;
        for (const a of md.args) {
          const mapped = this.mapMetadataOperand(a, locals);
          const wrapper = mapped !== null && mapped.mk === 'value' ? mapped : ctx.value(this.context.poison(a.value.type));
          if (wrapper !== a) changed = true;
          args.push(wrapper);
        }
        return changed ? ctx.argList(args) : md;
      }
      default:
        return this.mapNode(md);
    }
  }

  /** Maps a value held by metadata (constants and globals only; locals live in operands). */
  private mapValueInMetadata(v: Value): Value | null {
    if (v.vk === 'metadata' || v.vk === 'asm') return v;
    if (isLocal(v)) return null;
    const outer = this.inMetadata;
    this.inMetadata = true;
    try {
      return this.mapConstant(v as Constant);
    } finally {
      this.inMetadata = outer;
    }
  }

  mapAttachments(list: readonly Attachment[] | null): Attachment[] | null {
    if (list === null) return null;
    return list.map((a) => {
      const node = this.mapNode(a.node);
      return node === a.node ? a : { kind: a.kind, node };
    });
  }

  mapDebugRecords(records: readonly DebugRecord[] | null, locals: LocalMap): DebugRecord[] | null {
    if (records === null) return null;
    return records.map((r) => ({ kind: r.kind, operands: r.operands.map((op) => this.mapMetadataOperand(op, locals)) }));
  }

  /**
   * Maps a node: the node itself unless it reaches a value that maps to something else, in which
   * case a new node with mapped operands (uniqued ones interned again, distinct ones copied).
   * Linear over the nodes reached: each node is classified once.
   */
  mapNode(root: MDNode): MDNode {
    const known = this.nodes.get(root);
    if (known !== undefined) return known;
    if (root.mk === 'tuple' && this.isUnchangedLeaf(root)) {
      this.nodes.set(root, root);
      return root;
    }
    // 1. Collect the nodes reachable from root that are not classified yet.
    const fresh: MDNode[] = [];
    const index = new Map<MDNode, number>();
    const stack: MDNode[] = [root];
    index.set(root, 0);
    fresh.push(root);
    const directlyChanged: boolean[] = [];
    const nulled = new Set<MDNode>();
    const parents: number[][] = [];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const i = index.get(node)!;
      let changed = false;
      forEachOperand(node, (op) => {
        if (op === null) return;
        if (op.mk === 'tuple' || op.mk === 'di') {
          const mapped = this.nodes.get(op);
          if (mapped !== undefined) {
            if (mapped !== op) changed = true;
            return;
          }
          let j = index.get(op);
          if (j === undefined) {
            j = fresh.length;
            index.set(op, j);
            fresh.push(op);
            stack.push(op);
          }
          (parents[j] ??= []).push(i);
        } else {
          const mapped = this.mapMetadataOperand(op, undefined);
          if (mapped !== op) {
            changed = true;
            if (mapped === null && this.distinctWhenNulled) nulled.add(node);
          }
        }
      });
      directlyChanged[i] = changed;
    }
    // 2. Propagate "changed" from operands to the nodes that use them.
    const changed = new Uint8Array(fresh.length);
    const work: number[] = [];
    for (let i = 0; i < fresh.length; i++) {
      if (!directlyChanged[i]) continue;
      changed[i] = 1;
      work.push(i);
    }
    while (work.length > 0) {
      const i = work.pop()!;
      for (const p of parents[i] ?? []) {
        if (changed[p] !== 0) continue;
        changed[p] = 1;
        work.push(p);
      }
    }
    const rebuild: MDNode[] = [];
    for (let i = 0; i < fresh.length; i++) {
      const node = fresh[i]!;
      if (changed[i] === 0) this.nodes.set(node, node);
      else rebuild.push(node);
    }
    if (rebuild.length > 0) this.rebuildNodes(rebuild, nulled);
    return this.nodes.get(root)!;
  }

  /**
   * Whether a tuple that holds no node maps to itself (most attachments: `!{i32 1, i32 2}`),
   * found without the graph walk below; its operands are mapped in the walk's order.
   */
  private isUnchangedLeaf(node: MDTuple): boolean {
    for (const op of node.operands) {
      if (op === null || op.mk === 'string') continue;
      if (op.mk === 'tuple' || op.mk === 'di') return false;
      if (this.mapMetadataOperand(op, undefined) !== op) return false;
    }
    return true;
  }

  /**
   * Builds replacements for changed nodes. Distinct nodes get empty copies first so cycles
   * through them resolve; uniqued nodes are interned children first; a cycle made only of
   * uniqued nodes (rare) falls back to uninterned copies.
   */
  private rebuildNodes(changed: readonly MDNode[], nulled: ReadonlySet<MDNode>): void {
    const md = this.context.md;
    const toFill: [MDNode, MDNode][] = [];
    const shellOf = (n: MDNode, distinct = n.distinct): MDNode => (n.mk === 'tuple' ? md.shell('tuple', distinct) : md.shell('di', distinct, n.className));
    const pending = new Set<MDNode>(changed);
    for (const n of changed) {
      if (!n.distinct && !nulled.has(n)) continue;
      const copy = shellOf(n, true);
      this.nodes.set(n, copy);
      toFill.push([n, copy]);
      pending.delete(n);
    }
    const onStack = new Set<MDNode>();
    for (const start of changed) {
      if (!pending.has(start)) continue;
      // iterative post-order over the pending uniqued nodes
      const frames: { node: MDNode; children: MDNode[]; next: number }[] = [];
      const enter = (node: MDNode): void => {
        const children: MDNode[] = [];
        forEachOperand(node, (op) => {
          if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && pending.has(op)) children.push(op);
        });
        onStack.add(node);
        frames.push({ node, children, next: 0 });
      };
      enter(start);
      while (frames.length > 0) {
        const top = frames[frames.length - 1]!;
        if (top.next < top.children.length) {
          const child = top.children[top.next++]!;
          if (!pending.has(child)) continue;
          if (onStack.has(child)) {
            // a cycle of uniqued nodes: give the node on the stack an uninterned copy now
            if (!this.nodes.has(child)) {
              const copy = shellOf(child);
              this.nodes.set(child, copy);
              toFill.push([child, copy]);
            }
            continue;
          }
          enter(child);
          continue;
        }
        frames.pop();
        onStack.delete(top.node);
        pending.delete(top.node);
        if (this.nodes.has(top.node)) continue; // became a cycle copy, filled below
        this.nodes.set(top.node, this.internMapped(top.node));
      }
    }
    for (const [source, copy] of toFill) fillNode(copy, source, (op) => this.mapNodeOperand(op));
  }

  private internMapped(n: MDNode): MDNode {
    const md = this.context.md;
    if (n.mk === 'tuple') return md.tuple(n.operands.map((op) => this.mapNodeOperand(op)));
    return md.di(n.className, mapFields(n.fields, (op) => this.mapNodeOperand(op)));
  }

  private mapNodeOperand(op: Metadata | null): Metadata | null {
    if (op === null) return null;
    if (op.mk === 'tuple' || op.mk === 'di') return this.nodes.get(op) ?? op;
    return this.mapMetadataOperand(op, undefined);
  }

  // --- instructions and bodies ---------------------------------------------------------------------

  /**
   * Copies the body of `source` into `target` (which must have no blocks), with arguments,
   * blocks and instructions mapped. `adjustCall` may edit each copied call (the linker drops
   * `nocallback`).
   */
  cloneBody(source: IRFunction, target: IRFunction, adjustCall?: (call: CallInst) => void): void {
    // one map serves every body; a nested copy (never done by the cloner or linker) gets its own
    const nested = this.copyingBody;
    const locals = nested ? new Map<Value, Value>() : this.locals;
    this.copyingBody = true;
    this.bodies.set(source, target);
    const label = this.context.label;
    target.args = source.args.map((a) => {
      const copy = new Argument(this.mapType(a.type), a.name, target);
      locals.set(a, copy);
      return copy;
    });
    const blocks: BasicBlock[] = [];
    const sources = nested ? [] : this.sources;
    const copies = nested ? [] : this.copies;
    sources.length = 0;
    copies.length = 0;
    for (const b of source.blocks) {
      const nb = new BasicBlock(b.name, target, label);
      locals.set(b, nb);
      blocks.push(nb);
      for (const inst of b.instructions) {
        const copy = shallowCopy(inst);
        copy.parent = nb;
        nb.instructions.push(copy);
        locals.set(inst, copy);
        sources.push(inst);
        copies.push(copy);
      }
    }
    target.blocks = blocks;
    try {
      for (let i = 0; i < sources.length; i++) this.fillInstruction(sources[i]!, copies[i]!, locals, false, adjustCall);
    } finally {
      locals.clear();
      sources.length = 0;
      copies.length = 0;
      this.copyingBody = nested;
    }
  }

  /**
   * Moves the body of `source` into `target` (which must have no blocks): the same arguments,
   * blocks and instructions, with operands, types and metadata mapped in place as `cloneBody`
   * maps a copy's. `source` is left without a body. For callers that drop the source module:
   * nothing is allocated per instruction. A local operand maps to itself — if it belongs to the
   * function (checked through its parent, not a map of every local) — and an instruction's
   * operand list or attachment list is replaced only when a mapped entry differs.
   */
  moveBody(source: IRFunction, target: IRFunction, adjustCall?: (call: CallInst) => void): void {
    this.bodies.set(source, target);
    // the blocks' parent becomes `target`: a block address resolved later finds them there
    this.bodies.set(target, target);
    const args = source.args.slice();
    for (const a of args) {
      const type = this.mapType(a.type);
      if (type !== a.type) {
        a.type = type;
        this.typeRewrites++;
      }
      a.parent = target;
    }
    target.args = args;
    const blocks = source.blocks;
    source.blocks = [];
    for (const b of blocks) b.parent = target;
    target.blocks = blocks;
    const locals = new OwnLocals(target);
    const outer = this.moving;
    this.moving = true;
    try {
      for (const b of blocks) for (const inst of b.instructions) this.mapInPlace(inst, target, locals, adjustCall);
    } finally {
      this.moving = outer;
    }
  }

  /**
   * {@link fillInstruction} for an instruction of `owner` mapped in place: the same visits in the
   * same order, with the common operands (the function's own locals, integers) checked inline
   * and fields written only when their mapping differs. This walk is most of what linking a
   * single module costs.
   */
  private mapInPlace(inst: Instruction, owner: IRFunction, locals: LocalMap, adjustCall?: (call: CallInst) => void): void {
    const ops = inst.operands;
    let out: Value[] | undefined;
    if (inst instanceof CallInst) {
      // LLVM's operand order: arguments, bundle operands, destinations, then the callee.
      const argEnd = 1 + inst.argCount;
      for (let i = 1; i < argEnd; i++) out = this.mapOperandInPlace(ops, i, out, owner, locals);
      if (inst.bundles.length > 0) this.mapBundlesInPlace(inst, locals);
      for (let i = argEnd; i < ops.length; i++) out = this.mapOperandInPlace(ops, i, out, owner, locals);
      out = this.mapOperandInPlace(ops, 0, out, owner, locals);
      if (this.typeHook !== undefined) {
        const functionType = this.typeHook(inst.functionType) as FunctionType;
        if (functionType !== inst.functionType) {
          inst.functionType = functionType;
          this.typeRewrites++;
        }
        const attributes = this.mapAttributeList(inst.attributes);
        if (attributes !== inst.attributes) {
          inst.attributes = attributes;
          this.typeRewrites++;
        }
      }
      if (out !== undefined) {
        inst.operands = out;
        this.rewrites++;
      }
      if (adjustCall) adjustCall(inst);
    } else {
      for (let i = 0; i < ops.length; i++) out = this.mapOperandInPlace(ops, i, out, owner, locals);
      if (out !== undefined) {
        inst.operands = out;
        this.rewrites++;
      }
    }
    // (mapAttachmentsInPlace counts its own changes)
    if (inst.attachments !== null) inst.attachments = this.mapAttachmentsInPlace(inst.attachments);
    if (inst.debugRecords !== null) {
      const records = inst.debugRecords;
      const mapped = this.mapDebugRecords(records, locals)!;
      if (mapped.some((r, i) => r.operands.some((op, j) => op !== records[i]!.operands[j]))) this.rewrites++;
      inst.debugRecords = mapped;
    }
    const hook = this.typeHook;
    if (hook !== undefined) {
      const type = hook(inst.type);
      if (type !== inst.type) {
        inst.type = type;
        this.typeRewrites++;
      }
      if (inst instanceof AllocaInst) {
        const allocated = hook(inst.allocatedType);
        if (allocated !== inst.allocatedType) {
          inst.allocatedType = allocated;
          this.typeRewrites++;
        }
      } else if (inst instanceof GetElementPtrInst) {
        const source = hook(inst.sourceElementType);
        if (source !== inst.sourceElementType) {
          inst.sourceElementType = source;
          this.typeRewrites++;
        }
      } else if (inst instanceof ShuffleVectorInst) {
        const mask = this.mapValue(inst.maskValue, locals);
        if (mask !== inst.maskValue) {
          inst.maskValue = mask;
          this.rewrites++;
        }
      }
    }
  }

  /** A call's operand bundles mapped in place: a new list only when an input maps differently. */
  private mapBundlesInPlace(inst: CallInst, locals: LocalMap): void {
    let changed = false;
    const bundles = inst.bundles.map((b): OperandBundle => {
      const inputs = b.inputs.map((v) => this.mapValue(v, locals));
      if (inputs.every((v, i) => v === b.inputs[i])) return b;
      changed = true;
      return { tag: b.tag, inputs };
    });
    if (!changed) return;
    inst.bundles = bundles;
    this.rewrites++;
  }

  /** {@link mapOperand} in place, for an operand of a function `owner` whose locals map to themselves. */
  private mapOperandInPlace(ops: readonly Value[], i: number, out: Value[] | undefined, owner: IRFunction, locals: LocalMap): Value[] | undefined {
    const op = ops[i]!;
    switch (op.vk) {
      case 'instruction':
        if (op.parent !== null && op.parent.parent === owner) return out;
        break;
      case 'argument':
      case 'block':
        if (op.parent === owner) return out;
        break;
      case 'int':
        if (this.replaceConstant === undefined) return out;
        break;
      default:
        break;
    }
    // anything else, and a foreign local (which mapValue reports)
    const mapped = this.mapValue(op, locals);
    if (mapped === op) return out;
    out ??= ops.slice();
    out[i] = mapped;
    return out;
  }

  /**
   * Maps the operands (and attachments, debug records, types) of `inst` into `copy`. With
   * `inPlace` (`copy === inst`), unchanged lists are kept rather than rebuilt.
   */
  private fillInstruction(inst: Instruction, copy: Instruction, locals: LocalMap, inPlace: boolean, adjustCall?: (call: CallInst) => void): void {
    const ops = inst.operands;
    // In place, a new list only once an operand changes (the old one may be shared: never written).
    let out: Value[] | undefined = inPlace ? undefined : new Array<Value>(ops.length);
    if (inst instanceof CallInst) {
      // LLVM's operand order: arguments, bundle operands, destinations, then the callee.
      const c = copy as CallInst;
      const argEnd = 1 + inst.argCount;
      for (let i = 1; i < argEnd; i++) out = this.mapOperand(ops, i, out, locals);
      // the copy's constructor gave it an empty bundle list of its own
      if (inst.bundles.length > 0) c.bundles = inst.bundles.map((b): OperandBundle => ({ tag: b.tag, inputs: b.inputs.map((v) => this.mapValue(v, locals)) }));
      for (let i = argEnd; i < ops.length; i++) out = this.mapOperand(ops, i, out, locals);
      out = this.mapOperand(ops, 0, out, locals);
      c.functionType = this.mapType(inst.functionType) as FunctionType;
      c.attributes = this.mapAttributeList(inst.attributes);
      if (out !== undefined) copy.operands = out;
      if (adjustCall) adjustCall(c);
    } else {
      for (let i = 0; i < ops.length; i++) out = this.mapOperand(ops, i, out, locals);
      if (out !== undefined) copy.operands = out;
    }
    if (inst.attachments !== null) copy.attachments = inPlace ? this.mapAttachmentsInPlace(inst.attachments) : this.mapAttachments(inst.attachments);
    if (inst.debugRecords !== null) copy.debugRecords = this.mapDebugRecords(inst.debugRecords, locals);
    if (this.typeHook !== undefined) {
      copy.type = this.mapType(inst.type);
      if (inst instanceof AllocaInst) (copy as AllocaInst).allocatedType = this.mapType(inst.allocatedType);
      if (inst instanceof GetElementPtrInst) (copy as GetElementPtrInst).sourceElementType = this.mapType(inst.sourceElementType);
      if (inst instanceof ShuffleVectorInst) (copy as ShuffleVectorInst).maskValue = this.mapValue(inst.maskValue, locals);
    }
  }

  /** Maps `ops[i]` into `out`; without `out` (in place), returns a copy of `ops` only if it changed. */
  private mapOperand(ops: readonly Value[], i: number, out: Value[] | undefined, locals: LocalMap): Value[] | undefined {
    const op = ops[i]!;
    const mapped = this.mapValue(op, locals);
    if (out !== undefined) out[i] = mapped;
    else if (mapped !== op) {
      out = ops.slice();
      out[i] = mapped;
    }
    return out;
  }

  /** {@link mapAttachments} for an owner that keeps its list when no node changes (mapped in place). */
  mapAttachmentsInPlace<L extends readonly Attachment[]>(list: L): L | Attachment[] {
    let out: Attachment[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const a = list[i]!;
      const node = this.mapNode(a.node);
      if (node === a.node && out === undefined) continue;
      out ??= list.slice(0, i);
      out.push(node === a.node ? a : { kind: a.kind, node });
    }
    if (out === undefined) return list;
    this.rewrites++;
    return out;
  }
}

/** The locals of a function whose body moved into `target`: its own arguments, blocks and instructions. */
class OwnLocals implements LocalMap {
  constructor(private readonly target: IRFunction) {}
  get(v: Value): Value | undefined {
    switch (v.vk) {
      case 'argument':
      case 'block':
        return v.parent === this.target ? v : undefined;
      case 'instruction':
        return v.parent !== null && v.parent.parent === this.target ? v : undefined;
      default:
        return undefined;
    }
  }
}

/**
 * A copy of an instruction with every field of its class copied (arrays copied too); operands,
 * bundles, attachments and debug records are set by the caller. Fields are listed explicitly:
 * a generic `Object.assign` was the single largest cost of cloning large modules. The
 * `clone.test.ts` check that copies have exactly the source's own keys catches new fields.
 */
function shallowCopy(inst: Instruction): Instruction {
  let copy: Instruction;
  if (inst instanceof CallInst) {
    const c = new CallInst(inst.opcode, inst.type, inst.functionType, EMPTY, inst.attributes, inst.name, inst.flags);
    c.callingConv = inst.callingConv;
    if (inst.indirectDestCount !== 0) c.indirectDestCount = inst.indirectDestCount;
    copy = c;
  } else if (inst instanceof MemoryInst) {
    const c = new MemoryInst(inst.opcode, inst.type, EMPTY, inst.name, inst.flags);
    // fields without initializers may be absent (not just undefined) depending on the compiler
    if ('align' in inst) c.align = inst.align;
    if ('ordering' in inst) c.ordering = inst.ordering;
    if ('failureOrdering' in inst) c.failureOrdering = inst.failureOrdering;
    c.syncScope = inst.syncScope;
    c.rmwOperation = inst.rmwOperation;
    copy = c;
  } else if (inst instanceof GetElementPtrInst) {
    copy = new GetElementPtrInst(inst.type, inst.sourceElementType, EMPTY, inst.name, inst.flags);
  } else if (inst instanceof CmpInst) {
    copy = new CmpInst(inst.opcode, inst.type, inst.predicate, EMPTY, inst.name, inst.flags);
  } else if (inst instanceof AllocaInst) {
    copy = new AllocaInst(inst.type, inst.allocatedType, inst.operands[0]!, inst.align, inst.addressSpace, inst.name, inst.flags);
  } else if (inst instanceof AggregateInst) {
    copy = new AggregateInst(inst.opcode, inst.type, EMPTY, inst.indices.slice(), inst.name);
    copy.flags = inst.flags;
  } else if (inst instanceof ShuffleVectorInst) {
    copy = new ShuffleVectorInst(inst.type, EMPTY, inst.mask.slice(), inst.maskValue, inst.name);
    copy.flags = inst.flags;
  } else if (inst instanceof LandingPadInst) {
    copy = new LandingPadInst(inst.type, EMPTY, inst.clauseKinds.slice(), false, inst.name);
    copy.flags = inst.flags;
  } else if (inst instanceof CatchSwitchInst) {
    copy = new CatchSwitchInst(inst.type, EMPTY, inst.handlerCount, inst.name);
    copy.flags = inst.flags;
  } else {
    copy = new Instruction(inst.opcode, inst.type, EMPTY, inst.name, inst.flags);
  }
  copy.attachments = inst.attachments;
  copy.debugRecords = inst.debugRecords;
  return copy;
}

/** Placeholder operand list of a copy under construction (replaced before the copy is used). */
const EMPTY: Value[] = [];

function isLocal(v: Value): boolean {
  return v.vk === 'argument' || v.vk === 'block' || v.vk === 'instruction';
}

function describeLocal(v: Value): string {
  const name = (v as { name?: string }).name;
  return name ? `%${name}` : `(unnamed ${v.vk})`;
}

function describeGlobal(v: Value): string {
  const name = (v as { name?: string }).name;
  return name ? `@${name}` : 'a constant';
}

/** Calls `fn` for each metadata operand of a node (tuple operands, DI `md` fields). */
export function forEachOperand(node: MDNode, fn: (op: Metadata | null) => void): void {
  if (node.mk === 'tuple') for (const op of node.operands) fn(op);
  else forEachDIOperand(node, fn);
}

function mapFields(fields: ReadonlyMap<string, DIFieldValue>, map: (op: Metadata | null) => Metadata | null): Map<string, DIFieldValue> {
  const out = new Map<string, DIFieldValue>();
  for (const [name, f] of fields) out.set(name, f.k === 'md' ? { k: 'md', v: map(f.v) } : f);
  return out;
}

function fillNode(copy: MDNode, source: MDNode, map: (op: Metadata | null) => Metadata | null): void {
  if (copy.mk === 'tuple' && source.mk === 'tuple') copy.operands = source.operands.map(map);
  else if (copy.mk === 'di' && source.mk === 'di') copy.fields = mapFields(source.fields, map);
}

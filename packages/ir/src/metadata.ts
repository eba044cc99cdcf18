/**
 * LLVM metadata: strings, values wrapped as metadata, tuples, specialized debug-info nodes,
 * `DIExpression` and `DIArgList`. Uniqued (non-distinct) nodes are interned by their
 * {@link MetadataContext}, so identical tuples are one object — the same sharing LLVM does,
 * which decides how `!N` numbers come out when printing.
 */
import type { Type } from './types.js';
import type { Value } from './values.js';

export class MDString {
  readonly mk = 'string' as const;
  /** @internal */ constructor(
    readonly value: string,
    readonly uid: number,
  ) {}
}

/** A value used as metadata (`i32 6`, `ptr @f`, or a function-local `ptr %x`). */
export class ValueAsMetadata {
  readonly mk = 'value' as const;
  /** @internal */ constructor(
    readonly value: Value,
    readonly uid: number,
  ) {}
}

/** Generic tuple `!{...}` (possibly `distinct`). Operands are metadata or `null`. */
export class MDTuple {
  readonly mk = 'tuple' as const;
  /**
   * Operands. Mutable only while a node is being built (parser shells, distinct nodes);
   * a uniqued node must never change once interned.
   */
  operands: (Metadata | null)[];
  /** @internal */ constructor(
    operands: (Metadata | null)[],
    readonly distinct: boolean,
    public uid: number,
  ) {
    this.operands = operands;
  }
}

/**
 * A field value of a specialized node: metadata (or null), an integer, a boolean, a string, or
 * an enumerator/flag expression kept as written (e.g. `DW_TAG_member`, `DIFlagPrototyped | DIFlagPublic`).
 */
export type DIFieldValue =
  | { readonly k: 'md'; readonly v: Metadata | null }
  | { readonly k: 'int'; readonly v: bigint }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'enum'; readonly v: string }
  | { readonly k: 'flags'; readonly v: readonly (string | bigint)[] };

/** A specialized node such as `!DILocation(line: 3, scope: !5)`; fields in source order. */
export class DINode {
  readonly mk = 'di' as const;
  /** Fields in source order; mutable only while the node is being built (see {@link MDTuple.operands}). */
  fields: Map<string, DIFieldValue>;
  /** @internal */ constructor(
    readonly className: string,
    fields: Map<string, DIFieldValue>,
    readonly distinct: boolean,
    public uid: number,
  ) {
    this.fields = fields;
  }
  field(name: string): DIFieldValue | undefined {
    return this.fields.get(name);
  }
  /** Integer field as a number (lines, columns), or undefined. */
  intField(name: string): number | undefined {
    const f = this.fields.get(name);
    return f?.k === 'int' ? Number(f.v) : undefined;
  }
  mdField(name: string): Metadata | null | undefined {
    const f = this.fields.get(name);
    return f?.k === 'md' ? f.v : undefined;
  }
  strField(name: string): string | undefined {
    const f = this.fields.get(name);
    return f?.k === 'str' ? f.v : undefined;
  }
}

/** `!DIExpression(DW_OP_..., 1, ...)`; always printed inline, never numbered. */
export class DIExpression {
  readonly mk = 'expr' as const;
  /** @internal */ constructor(
    readonly elements: readonly (string | bigint)[],
    readonly uid: number,
  ) {}
}

/** `!DIArgList(i32 %a, ...)`; only appears as an intrinsic argument, printed inline. */
export class DIArgList {
  readonly mk = 'arglist' as const;
  /** @internal */ constructor(
    readonly args: readonly ValueAsMetadata[],
    readonly uid: number,
  ) {}
}

export type MDNode = MDTuple | DINode;
export type Metadata = MDString | ValueAsMetadata | MDTuple | DINode | DIExpression | DIArgList;

/** Nodes that get `!N` numbers when printed (everything but expressions and arg lists). */
export function isNumberedNode(md: Metadata): md is MDNode {
  return md.mk === 'tuple' || md.mk === 'di';
}

export function isMDNode(md: Metadata | null | undefined): md is MDNode {
  return md != null && (md.mk === 'tuple' || md.mk === 'di');
}

/**
 * The fields of each specialized node in the order LLVM stores them as operands
 * (DebugInfoMetadata.cpp's `Ops[]` of each `getImpl`), which is not the printed order: a
 * DIScope keeps `file` before `scope`, a DIVariable `scope` before `file`. LLVM walks operands
 * in this order wherever it enumerates a node's references, e.g. when numbering metadata for
 * printing (SlotTracker::CreateMetadataSlot). Only fields that can hold metadata matter; fields
 * LLVM keeps outside its operands (lines, flags, tags) are left out.
 */
const DI_OPERAND_ORDER: Record<string, readonly string[]> = {
  DILocation: ['scope', 'inlinedAt'],
  DISubrange: ['count', 'lowerBound', 'upperBound', 'stride'],
  DIGenericSubrange: ['count', 'lowerBound', 'upperBound', 'stride'],
  DIEnumerator: ['name'],
  DIBasicType: ['name'],
  DIStringType: ['name', 'stringLength', 'stringLengthExpression', 'stringLocationExpression'],
  DIDerivedType: ['file', 'scope', 'name', 'baseType', 'extraData', 'annotations'],
  DICompositeType: [
    'file', 'scope', 'name', 'baseType', 'elements', 'vtableHolder', 'templateParams', 'identifier', 'discriminator', 'dataLocation',
    'associated', 'allocated', 'rank', 'annotations', 'specification',
  ],
  DISubroutineType: ['types'],
  DIFile: ['filename', 'directory', 'checksum', 'source'],
  DICompileUnit: ['file', 'producer', 'flags', 'splitDebugFilename', 'enums', 'retainedTypes', 'globals', 'imports', 'macros', 'sysroot', 'sdk'],
  DISubprogram: [
    'file', 'scope', 'name', 'linkageName', 'type', 'unit', 'declaration', 'retainedNodes', 'containingType', 'templateParams',
    'thrownTypes', 'annotations', 'targetFuncName',
  ],
  DILexicalBlock: ['file', 'scope'],
  DILexicalBlockFile: ['file', 'scope'],
  DINamespace: ['scope', 'name'],
  DICommonBlock: ['scope', 'declaration', 'name', 'file'],
  DIModule: ['file', 'scope', 'name', 'configMacros', 'includePath', 'apinotes'],
  DITemplateTypeParameter: ['name', 'type'],
  DITemplateValueParameter: ['name', 'type', 'value'],
  DIGlobalVariable: ['scope', 'name', 'file', 'type', 'linkageName', 'declaration', 'templateParams', 'annotations'],
  DILocalVariable: ['scope', 'name', 'file', 'type', 'annotations'],
  DILabel: ['scope', 'name', 'file'],
  DIGlobalVariableExpression: ['var', 'expr'],
  DIObjCProperty: ['name', 'file', 'getter', 'setter', 'type'],
  DIImportedEntity: ['scope', 'entity', 'name', 'file', 'elements'],
  DIMacro: ['name', 'value'],
  DIMacroFile: ['file', 'nodes'],
  GenericDINode: ['header', 'operands'],
};

/**
 * Calls `fn` with each metadata-valued field of a specialized node, in LLVM's operand order
 * ({@link DI_OPERAND_ORDER}); fields the table does not place (a newer LLVM's) follow in
 * source order.
 */
export function forEachDIOperand(node: DINode, fn: (op: Metadata | null) => void): void {
  const order = DI_OPERAND_ORDER[node.className];
  const fields = node.fields;
  if (order === undefined) {
    for (const f of fields.values()) if (f.k === 'md') fn(f.v);
    return;
  }
  let placed = 0;
  for (let i = 0; i < order.length; i++) {
    const f = fields.get(order[i]!);
    if (f === undefined) continue;
    placed++;
    if (f.k === 'md') fn(f.v);
  }
  if (placed === fields.size) return;
  for (const [name, f] of fields) if (f.k === 'md' && !order.includes(name)) fn(f.v);
}

/** The fixed metadata kinds of LLVM 16 (FixedMetadataKinds.def), in ID order. */
export const FIXED_METADATA_KINDS: readonly string[] = [
  'dbg',
  'tbaa',
  'prof',
  'fpmath',
  'range',
  'tbaa.struct',
  'invariant.load',
  'alias.scope',
  'noalias',
  'nontemporal',
  'llvm.mem.parallel_loop_access',
  'nonnull',
  'dereferenceable',
  'dereferenceable_or_null',
  'make.implicit',
  'unpredictable',
  'invariant.group',
  'align',
  'llvm.loop',
  'type',
  'section_prefix',
  'absolute_symbol',
  'associated',
  'callees',
  'irr_loop',
  'llvm.access.group',
  'callback',
  'llvm.preserve.access.index',
  'vcall_visibility',
  'noundef',
  'annotation',
  'nosanitize',
  'func_sanitize',
  'exclude',
  'memprof',
  'callsite',
  'kcfi_type',
  'pcsections',
  'DIAssignID',
];

/** Metadata kind ids (like `LLVMContext::getMDKindID`): fixed kinds first, then first-seen order. */
export class MetadataKinds {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  constructor() {
    for (const name of FIXED_METADATA_KINDS) this.id(name);
  }
  /** The id of `name`, registering it if new (registration order decides attachment print order). */
  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }
  /** The id of `name` if registered, without registering it. */
  lookup(name: string): number | undefined {
    return this.ids.get(name);
  }
  /** Every registered kind name, in id order (a context made with them prints attachments in the same order). */
  list(): readonly string[] {
    return [...this.names];
  }
  name(id: number): string {
    const name = this.names[id];
    if (name === undefined) throw new RangeError(`unknown metadata kind #${id}`);
    return name;
  }
}

/** A metadata attachment: kind id and node. */
export interface Attachment {
  readonly kind: number;
  readonly node: MDNode;
}

/**
 * Interns metadata for one context. Uniqued tuples and DI nodes are keyed by their operands'
 * identities, so structurally equal nodes are the same object.
 */
export class MetadataContext {
  readonly kinds = new MetadataKinds();
  private nextUid = 1;
  private readonly strings = new Map<string, MDString>();
  /** Weak, so values of modules that are dropped (split parts, link inputs) can be collected. */
  private readonly valueWrappers = new WeakMap<Value, ValueAsMetadata>();
  private readonly uniqued = new Map<string, MDNode | DIExpression | DIArgList>();

  /** A fresh uid for a node (used for distinct nodes and placeholders). */
  newUid(): number {
    return this.nextUid++;
  }

  string(value: string): MDString {
    let s = this.strings.get(value);
    if (s === undefined) {
      s = new MDString(value, this.nextUid++);
      this.strings.set(value, s);
    }
    return s;
  }

  /** Wraps a value; constants and globals are interned, so `i32 6` is one wrapper per context. */
  value(value: Value): ValueAsMetadata {
    let w = this.valueWrappers.get(value);
    if (w === undefined) {
      w = new ValueAsMetadata(value, this.nextUid++);
      this.valueWrappers.set(value, w);
    }
    return w;
  }

  /** Uniqued tuple `!{...}`. */
  tuple(operands: readonly (Metadata | null)[]): MDTuple {
    const key = 't' + operandKey(operands);
    let n = this.uniqued.get(key) as MDTuple | undefined;
    if (n === undefined) {
      n = new MDTuple([...operands], false, this.nextUid++);
      this.uniqued.set(key, n);
    }
    return n;
  }

  distinctTuple(operands: readonly (Metadata | null)[]): MDTuple {
    return new MDTuple([...operands], true, this.nextUid++);
  }

  /** Uniqued (or distinct) specialized node. */
  di(className: string, fields: ReadonlyMap<string, DIFieldValue>, distinct = false): DINode {
    if (distinct) return new DINode(className, new Map(fields), true, this.nextUid++);
    const key = diKey(className, fields);
    let n = this.uniqued.get(key) as DINode | undefined;
    if (n === undefined) {
      n = new DINode(className, new Map(fields), false, this.nextUid++);
      this.uniqued.set(key, n);
    }
    return n;
  }

  /**
   * An empty node to be filled in later (the parser's forward references). Uniqued shells must
   * go through {@link canonicalize} once complete.
   */
  shell(kind: 'tuple', distinct: boolean): MDTuple;
  shell(kind: 'di', distinct: boolean, className: string): DINode;
  shell(kind: 'tuple' | 'di', distinct: boolean, className = ''): MDNode {
    return kind === 'tuple' ? new MDTuple([], distinct, this.nextUid++) : new DINode(className, new Map(), distinct, this.nextUid++);
  }

  /**
   * Interns completed shells, children before parents, so nodes that become equal once their
   * operands are merged are merged too (LLVM's uniquing on resolution). Returns the replacements
   * (shell → existing equal node); nodes in a cycle through uniqued nodes keep their identity.
   * Operands of the given nodes are rewritten to point at the canonical nodes.
   */
  canonicalize(nodes: Iterable<MDNode>): Map<MDNode, MDNode> {
    const replacement = new Map<MDNode, MDNode>();
    const state = new Map<MDNode, 1 | 2>(); // 1 = on stack, 2 = done
    const canon = (md: Metadata | null): Metadata | null => {
      if (md === null || (md.mk !== 'tuple' && md.mk !== 'di')) return md;
      visit(md);
      return replacement.get(md) ?? md;
    };
    const visit = (node: MDNode): void => {
      if (state.has(node)) return;
      state.set(node, 1);
      if (node.mk === 'tuple') {
        const ops = node.operands;
        for (let i = 0; i < ops.length; i++) ops[i] = canon(ops[i]!);
      } else {
        for (const [name, f] of node.fields) if (f.k === 'md') node.fields.set(name, { k: 'md', v: canon(f.v) });
      }
      state.set(node, 2);
      if (node.distinct || this.inCycle(node, state)) return;
      const key = node.mk === 'tuple' ? 't' + operandKey(node.operands) : diKey(node.className, node.fields);
      const existing = this.uniqued.get(key) as MDNode | undefined;
      if (existing === undefined) this.uniqued.set(key, node);
      else if (existing !== node) replacement.set(node, existing);
    };
    for (const node of nodes) visit(node);
    return replacement;
  }

  /** A uniqued node whose operands reach a node still being visited takes part in a cycle. */
  private inCycle(node: MDNode, state: Map<MDNode, 1 | 2>): boolean {
    const ops = node.mk === 'tuple' ? node.operands : [...node.fields.values()].map((f) => (f.k === 'md' ? f.v : null));
    for (const op of ops) if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && (state.get(op) === 1 || op === node)) return true;
    return false;
  }

  expression(elements: readonly (string | bigint)[]): DIExpression {
    const key = 'e' + elements.join(',');
    let n = this.uniqued.get(key) as DIExpression | undefined;
    if (n === undefined) {
      n = new DIExpression(elements, this.nextUid++);
      this.uniqued.set(key, n);
    }
    return n;
  }

  argList(args: readonly ValueAsMetadata[]): DIArgList {
    return new DIArgList(args, this.nextUid++);
  }

  /** Tuple of `i32` constants, the shape of `!sycl_used_aspects` and friends. */
  i32Tuple(values: readonly number[], int32: (v: number) => Value): MDTuple {
    return this.tuple(values.map((v) => this.value(int32(v))));
  }
}

function operandKey(operands: readonly (Metadata | null)[]): string {
  let key = '';
  for (const op of operands) key += op === null ? ',n' : ',' + op.uid;
  return key;
}

function diKey(className: string, fields: ReadonlyMap<string, DIFieldValue>): string {
  let key = 'd' + className;
  const names = [...fields.keys()].sort();
  for (const name of names) {
    const f = fields.get(name)!;
    key += '|' + name + '=';
    switch (f.k) {
      case 'md':
        key += f.v === null ? 'n' : 'm' + f.v.uid;
        break;
      case 'str':
        key += 's' + JSON.stringify(f.v);
        break;
      case 'flags':
        key += 'f' + f.v.join('|');
        break;
      default:
        key += f.k[0] + String(f.v);
    }
  }
  return key;
}

/** Metadata operands that are themselves nodes (for traversal). */
export function childNodes(md: Metadata): (Metadata | null)[] {
  switch (md.mk) {
    case 'tuple':
      return [...md.operands];
    case 'di': {
      const out: (Metadata | null)[] = [];
      forEachDIOperand(md, (op) => out.push(op));
      return out;
    }
    case 'arglist':
      return [...md.args];
    default:
      return [];
  }
}

export type { Type };

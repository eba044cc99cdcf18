/**
 * Metadata that points at globals an image does not have. When LLVM deletes a global, every
 * `ValueAsMetadata` wrapping it (or a constant expression over it) becomes `null` in the nodes
 * that hold it; this module computes the same result without mutating shared nodes: a node that
 * (transitively) refers to a missing global is rebuilt with `null` in its place, everything else
 * is returned as is.
 */
import type { DIFieldValue, GlobalValue, MDNode, Metadata, Module, Value } from '@syclkit/ir';

/** Per-module memo: does a metadata node transitively refer to any global value? */
export class GlobalRefIndex {
  readonly #refs = new Map<Metadata, boolean>();
  /** Nodes of the walk in progress (Tarjan's stack): a cycle's nodes get their answer together. */
  readonly #open: Metadata[] = [];
  readonly #order = new Map<Metadata, number>();
  readonly #partial = new Map<Metadata, boolean>();
  #next = 0;

  /** True when `md` may refer to a global (and so may need rewriting in an image). */
  refersToGlobals(md: Metadata): boolean {
    const leaf = leafAnswer(md);
    if (leaf !== undefined) return leaf;
    const cached = this.#refs.get(md);
    if (cached !== undefined) return cached;
    this.#visit(md);
    return this.#refs.get(md)!;
  }

  /**
   * Tarjan's strongly connected components: every node of a cycle reaches what any of them
   * reaches, so an answer is final only once its whole cycle is done (a node that met a cycle
   * still in progress must not be remembered as reaching nothing). Returns the lowest order reached.
   */
  #visit(md: Metadata): number {
    const order = this.#next++;
    this.#order.set(md, order);
    this.#open.push(md);
    let low = order;
    let result = false;
    const child = (op: Metadata): void => {
      const leaf = leafAnswer(op);
      if (leaf !== undefined) {
        if (leaf) result = true;
        return;
      }
      const done = this.#refs.get(op);
      if (done !== undefined) {
        if (done) result = true;
        return;
      }
      const seen = this.#order.get(op);
      if (seen === undefined) low = Math.min(low, this.#visit(op));
      else low = Math.min(low, seen);
      // an open node's own answer joins at its component's root; a finished one's is in #refs
      const reached = this.#refs.get(op) ?? this.#partial.get(op);
      if (reached === true) result = true;
    };
    switch (md.mk) {
      case 'value':
        result = valueRefersToGlobal(md.value);
        break;
      case 'tuple':
        for (const op of md.operands) if (op !== null) child(op);
        break;
      case 'di':
        for (const f of md.fields.values()) if (f.k === 'md' && f.v !== null) child(f.v);
        break;
      case 'arglist':
        for (const a of md.args) if (valueRefersToGlobal(a.value)) result = true;
        break;
      default:
        break;
    }
    this.#partial.set(md, result);
    if (low === order) {
      // md roots a component: the members are md and every node opened after it
      const open = this.#open;
      let at = open.length - 1;
      while (open[at] !== md) at--;
      let any = false;
      for (let i = at; i < open.length; i++) if (this.#partial.get(open[i]!) === true) any = true;
      for (let i = at; i < open.length; i++) {
        const member = open[i]!;
        this.#refs.set(member, any);
        this.#partial.delete(member);
        this.#order.delete(member);
      }
      open.length = at;
    }
    return low;
  }
}

/** The answer for a leaf (strings, plain numbers, globals), or undefined for what needs the walk. */
function leafAnswer(md: Metadata): boolean | undefined {
  switch (md.mk) {
    case 'tuple':
    case 'di':
    case 'arglist':
      return undefined;
    case 'value': {
      // constants with operands are walked once and remembered; the rest answer at once
      const kind = md.value.vk;
      return kind === 'expr' || kind === 'array' || kind === 'vector' || kind === 'struct' ? undefined : valueRefersToGlobal(md.value);
    }
    default:
      return false;
  }
}

function valueRefersToGlobal(v: Value): boolean {
  switch (v.vk) {
    case 'function':
    case 'global':
    case 'alias':
    case 'ifunc':
      return true;
    case 'expr':
      return v.operands.some(valueRefersToGlobal);
    case 'array':
    case 'vector':
      return v.elements.some(valueRefersToGlobal);
    case 'struct':
      return v.fields.some(valueRefersToGlobal);
    case 'blockaddress':
      return true;
    case 'dso_local_equivalent':
    case 'no_cfi':
      return true;
    default:
      return false;
  }
}

/** Does value `v` mention a global that `present` rejects? */
function mentionsMissing(v: Value, present: (gv: GlobalValue) => boolean): boolean {
  switch (v.vk) {
    case 'function':
    case 'global':
    case 'alias':
    case 'ifunc':
      return !present(v);
    case 'expr':
      return v.operands.some((o) => mentionsMissing(o, present));
    case 'array':
    case 'vector':
      return v.elements.some((o) => mentionsMissing(o, present));
    case 'struct':
      return v.fields.some((o) => mentionsMissing(o, present));
    case 'blockaddress':
      return mentionsMissing(v.fn, present);
    case 'dso_local_equivalent':
    case 'no_cfi':
      return mentionsMissing(v.global, present);
    default:
      return false;
  }
}

/** Rewrites metadata for one image. */
export class MetadataPruner {
  readonly #memo = new Map<Metadata, Metadata | null>();

  constructor(
    private readonly module: Module,
    private readonly index: GlobalRefIndex,
    private readonly present: (gv: GlobalValue) => boolean,
  ) {}

  /** `md` with references to missing globals replaced by null (the same object when nothing changes). */
  rewrite(md: Metadata | null): Metadata | null {
    if (md === null || !this.index.refersToGlobals(md)) return md;
    if (this.#memo.has(md)) return this.#memo.get(md)!;
    const ctx = this.module.context.md;
    switch (md.mk) {
      case 'value': {
        const out = mentionsMissing(md.value, this.present) ? null : md;
        this.#memo.set(md, out);
        return out;
      }
      case 'tuple': {
        this.#memo.set(md, md); // provisional, for cycles
        const ops = md.operands.map((op) => this.rewrite(op));
        const changed = ops.some((op, i) => op !== md.operands[i]);
        const out = !changed ? md : md.distinct ? ctx.distinctTuple(ops) : ctx.tuple(ops);
        this.#memo.set(md, out);
        return out;
      }
      case 'di': {
        this.#memo.set(md, md);
        const fields = new Map<string, DIFieldValue>();
        let changed = false;
        for (const [name, f] of md.fields) {
          if (f.k === 'md') {
            const v = this.rewrite(f.v);
            if (v !== f.v) changed = true;
            fields.set(name, { k: 'md', v });
          } else fields.set(name, f);
        }
        const out = changed ? ctx.di(md.className, fields, md.distinct) : md;
        this.#memo.set(md, out);
        return out;
      }
      default:
        return md;
    }
  }

  /** Rewrites a node that must stay a node (named-metadata operands, attachments). */
  rewriteNode(node: MDNode): MDNode {
    const out = this.rewrite(node);
    return out !== null && (out.mk === 'tuple' || out.mk === 'di') ? out : node;
  }
}

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

  /** True when `md` may refer to a global (and so may need rewriting in an image). */
  refersToGlobals(md: Metadata): boolean {
    // Leaves are answered without the memo: most operands are strings and plain numbers.
    switch (md.mk) {
      case 'tuple':
      case 'di':
      case 'arglist':
        break;
      case 'value':
        switch (md.value.vk) {
          case 'function':
          case 'global':
          case 'alias':
          case 'ifunc':
            return true;
          case 'expr':
          case 'array':
          case 'vector':
          case 'struct':
          case 'blockaddress':
          case 'dso_local_equivalent':
          case 'no_cfi':
            break;
          default:
            return false;
        }
        break;
      default:
        return false;
    }
    const cached = this.#refs.get(md);
    if (cached !== undefined) return cached;
    this.#refs.set(md, false); // cycles: assume no, corrected below when a reference is found
    let result = false;
    switch (md.mk) {
      case 'value':
        result = valueRefersToGlobal(md.value);
        break;
      case 'tuple':
        for (const op of md.operands) if (op !== null && this.refersToGlobals(op)) result = true;
        break;
      case 'di':
        for (const f of md.fields.values()) if (f.k === 'md' && f.v !== null && this.refersToGlobals(f.v)) result = true;
        break;
      case 'arglist':
        for (const a of md.args) if (valueRefersToGlobal(a.value)) result = true;
        break;
      default:
        break;
    }
    this.#refs.set(md, result);
    return result;
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

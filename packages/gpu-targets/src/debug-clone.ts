/**
 * Debug info of a function clone, as LLVM's `CloneFunctionInto` with `GlobalChanges` gives it: the
 * clone gets its own copy of the original's `DISubprogram`, and every node that leads to that
 * subprogram (local variables, lexical blocks, locations, `retainedNodes`) is copied to lead to the
 * copy instead. Compile units, types and other subprograms are shared, never copied.
 */
import { CallInst, getMetadata, type Context, type DIFieldValue, type IRFunction, type MDNode, type Metadata } from '@syclkit/ir';

const SHARED_CLASSES = new Set(['DICompileUnit', 'DIBasicType', 'DIDerivedType', 'DICompositeType', 'DISubroutineType', 'DIStringType', 'DISubrangeType']);

function isNode(m: Metadata | null | undefined): m is MDNode {
  return m != null && (m.mk === 'tuple' || m.mk === 'di');
}

function children(node: MDNode): MDNode[] {
  const out: MDNode[] = [];
  if (node.mk === 'tuple') {
    for (const op of node.operands) if (isNode(op)) out.push(op);
  } else {
    for (const f of node.fields.values()) if (f.k === 'md' && isNode(f.v)) out.push(f.v);
  }
  return out;
}

/** Metadata roots a function body refers to: attachments, debug records and `metadata` operands. */
function forEachRoot(fn: IRFunction, visit: (m: Metadata) => void): void {
  for (const a of fn.attachments) visit(a.node);
  for (const inst of fn.instructions()) {
    for (const a of inst.attachments ?? []) visit(a.node);
    for (const r of inst.debugRecords ?? []) for (const op of r.operands) if (op !== null) visit(op);
    if (inst instanceof CallInst) for (const op of inst.operands) if (op.vk === 'metadata') visit(op.metadata);
  }
}

/**
 * Rewrites the debug info of `clone` (a copy of `original`'s body whose metadata still refers to
 * the original's) so that it has a subprogram of its own. No-op when `original` has none.
 */
export function giveCloneItsOwnSubprogram(context: Context, original: IRFunction, clone: IRFunction): void {
  const sp = getMetadata(original, context, 'dbg');
  if (sp === undefined || sp.mk !== 'di' || sp.className !== 'DISubprogram') return;
  const md = context.md;

  // 1. The nodes reachable from the clone's metadata, without entering shared nodes.
  const parents = new Map<MDNode, MDNode[]>();
  const seen = new Set<MDNode>();
  const stack: MDNode[] = [];
  const enter = (node: MDNode): void => {
    if (seen.has(node)) return;
    seen.add(node);
    stack.push(node);
  };
  const enterMetadata = (m: Metadata): void => {
    if (isNode(m)) enter(m);
    else if (m.mk === 'arglist') for (const a of m.args) enterMetadata(a);
  };
  forEachRoot(clone, enterMetadata);
  enter(sp);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== sp && node.mk === 'di' && (SHARED_CLASSES.has(node.className) || node.className === 'DISubprogram')) continue;
    for (const child of children(node)) {
      const list = parents.get(child);
      if (list === undefined) parents.set(child, [node]);
      else list.push(node);
      enter(child);
    }
  }

  // 2. Nodes that lead to the subprogram are the ones to copy.
  const changed = new Set<MDNode>([sp]);
  const work: MDNode[] = [sp];
  while (work.length > 0) {
    for (const p of parents.get(work.pop()!) ?? []) {
      if (changed.has(p)) continue;
      changed.add(p);
      work.push(p);
    }
  }

  // 3. Shells first (so cycles through the subprogram resolve), then fields, then uniquing.
  const copies = new Map<MDNode, MDNode>();
  for (const node of changed) copies.set(node, node.mk === 'tuple' ? md.shell('tuple', node.distinct) : md.shell('di', node.distinct, node.className) as MDNode);
  const mapOperand = (m: Metadata | null): Metadata | null => (isNode(m) ? (copies.get(m) ?? m) : m);
  for (const [node, copy] of copies) {
    if (node.mk === 'tuple') {
      if (copy.mk === 'tuple') copy.operands = node.operands.map(mapOperand);
    } else if (copy.mk === 'di') {
      const fields = new Map<string, DIFieldValue>();
      for (const [name, f] of node.fields) fields.set(name, f.k === 'md' ? { k: 'md', v: mapOperand(f.v) } : f);
      copy.fields = fields;
    }
  }
  const merged = md.canonicalize(copies.values());
  const mapped = (node: MDNode): MDNode => {
    const copy = copies.get(node);
    return copy === undefined ? node : (merged.get(copy) ?? copy);
  };
  const mapMetadata = (m: Metadata | null): Metadata | null => {
    if (m === null) return null;
    if (isNode(m)) return mapped(m);
    return m;
  };

  // 4. Point the clone at the copies.
  clone.attachments = clone.attachments.map((a) => ({ kind: a.kind, node: mapped(a.node) }));
  for (const inst of clone.instructions()) {
    if (inst.attachments !== null) inst.attachments = inst.attachments.map((a) => ({ kind: a.kind, node: mapped(a.node) }));
    if (inst.debugRecords !== null) inst.debugRecords = inst.debugRecords.map((r) => ({ kind: r.kind, operands: r.operands.map(mapMetadata) }));
    if (inst instanceof CallInst) {
      for (const op of inst.operands) if (op.vk === 'metadata' && isNode(op.metadata)) op.metadata = mapped(op.metadata);
    }
  }
}

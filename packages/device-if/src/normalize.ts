/**
 * Normalization of Condition Expressions (DeviceIf.md leaves the algorithm as a TODO; this is our
 * definition, documented in the README under "Normalization").
 *
 * In short: push negations down to the leaves (negation normal form), flatten nested and/or into
 * n-ary junctions, then simplify every junction bottom-up until nothing changes:
 *   - constants: `x && true` → x, `x && false` → false (dually for or);
 *   - duplicates: `a && a` → a;
 *   - complements: `a && !a` → false, `a || !a` → true;
 *   - one architecture per device: `arch(X) && arch(Y)` → false, `arch(X) && !arch(Y)` → arch(X),
 *     `!arch(X) || !arch(Y)` → true, `!arch(X) || arch(Y)` → !arch(X) (X ≠ Y);
 *   - unit resolution: inside `l && (...)`, a literal known from `l` is replaced by its value, e.g.
 *     `a && (!a || b)` → `a && b`; inside `l || (...)` the literals of `l` are known false, e.g.
 *     `a || (!a && b)` → `a || b`;
 *   - absorption: `a && (a || b)` → a, `(a || b) && (a || b || c)` → `a || b`;
 * finally sort the operands of every junction into one total order and rebuild right-nested
 * binary nodes, so the result encodes like the header's builders do.
 *
 * Every rule keeps the value of the expression on every device that has at most one architecture,
 * which is every device. The rules are syntactic: equivalences that need distribution (e.g.
 * `a && (b || c)` vs `(a && b) || (a && c)`) are not unified.
 */
import { ConditionOpcode, type Condition } from './condition.js';

interface Literal {
  readonly leaf: 'aspect' | 'architecture';
  readonly value: number;
  readonly negated: boolean;
}

type Junction = 'and' | 'or';

/** A node of the working form: n-ary, negations on leaves only, with its canonical encoding. */
type Node =
  | { readonly t: 'lit'; readonly lit: Literal; readonly seq: readonly number[]; readonly key: string }
  | { readonly t: Junction; readonly ops: readonly Node[]; readonly seq: readonly number[]; readonly key: string }
  | { readonly t: 'const'; readonly value: boolean };

type LitNode = Extract<Node, { t: 'lit' }>;
type JunctionNode = Extract<Node, { t: Junction }>;

const dualOf = (kind: Junction): Junction => (kind === 'and' ? 'or' : 'and');
/** The constant that decides a junction on its own (false for and, true for or). */
const absorbingOf = (kind: Junction): boolean => kind === 'or';

function literalNode(lit: Literal): LitNode {
  const leaf = lit.leaf === 'aspect' ? ConditionOpcode.Aspect : ConditionOpcode.Architecture;
  const seq = lit.negated ? [ConditionOpcode.Not, leaf, lit.value] : [leaf, lit.value];
  return { t: 'lit', lit, seq, key: seq.join(',') };
}

/** `ops` must be sorted; the encoding is right-nested like `[-4, a, -4, b, c]`. */
function junctionNode(kind: Junction, ops: readonly Node[]): JunctionNode {
  const opcode = kind === 'and' ? ConditionOpcode.And : ConditionOpcode.Or;
  const seq: number[] = [];
  ops.forEach((op, i) => {
    if (i < ops.length - 1) seq.push(opcode);
    seq.push(...seqOf(op));
  });
  return { t: kind, ops, seq, key: seq.join(',') };
}

function seqOf(node: Node): readonly number[] {
  if (node.t === 'const') throw new Error('internal: constant inside a junction');
  return node.seq;
}

/**
 * The total order of operands: literals first (aspects before architectures, then by value, the
 * plain literal before its negation), then compound operands by their encoding, compared value by
 * value (a proper prefix first).
 */
function compareNodes(a: Node, b: Node): number {
  if (a.t === 'lit' && b.t === 'lit') {
    if (a.lit.leaf !== b.lit.leaf) return a.lit.leaf === 'aspect' ? -1 : 1;
    if (a.lit.value !== b.lit.value) return a.lit.value - b.lit.value;
    return Number(a.lit.negated) - Number(b.lit.negated);
  }
  if (a.t === 'lit') return -1;
  if (b.t === 'lit') return 1;
  const x = seqOf(a);
  const y = seqOf(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * The value of literal `x` when every literal in `known` holds, or undefined if that does not
 * decide it. Besides equality and complement, a known `arch(X)` makes every other `arch(Y)` false.
 */
function valueUnder(x: Literal, known: readonly Literal[]): boolean | undefined {
  for (const k of known) if (k.leaf === x.leaf && k.value === x.value) return k.negated === x.negated;
  if (x.leaf === 'architecture' && known.some((k) => k.leaf === 'architecture' && !k.negated && k.value !== x.value)) {
    return x.negated;
  }
  return undefined;
}

const complement = (lit: Literal): Literal => ({ ...lit, negated: !lit.negated });

/** Converts to negation normal form, simplifying every junction on the way up. */
function toNormalNode(condition: Condition, negate: boolean): Node {
  switch (condition.kind) {
    case 'aspect':
      return literalNode({ leaf: 'aspect', value: condition.aspect, negated: negate });
    case 'architecture':
      return literalNode({ leaf: 'architecture', value: condition.architecture, negated: negate });
    case 'constant':
      return { t: 'const', value: condition.value !== negate };
    case 'not':
      return toNormalNode(condition.operand, !negate);
    case 'and':
    case 'or': {
      // De Morgan: a negated and is an or of negations, and vice versa.
      const kind: Junction = (condition.kind === 'and') !== negate ? 'and' : 'or';
      return simplifyJunction(kind, [toNormalNode(condition.left, negate), toNormalNode(condition.right, negate)]);
    }
  }
}

/** Simplifies the junction `kind(operands)` whose operands are simplified already. */
function simplifyJunction(kind: Junction, operands: readonly Node[]): Node {
  const dual = dualOf(kind);
  const absorbing = absorbingOf(kind);
  let ops: Node[] = [];

  /** Adds an operand, flattening same-kind junctions; false when it decides the junction. */
  const add = (op: Node): boolean => {
    if (op.t === 'const') return op.value !== absorbing;
    if (op.t === kind) ops.push(...op.ops);
    else ops.push(op);
    return true;
  };
  for (const op of operands) if (!add(op)) return { t: 'const', value: absorbing };

  for (let changed = true; changed; ) {
    changed = false;
    ops.sort(compareNodes);
    ops = ops.filter((op, i) => i === 0 || compareNodes(ops[i - 1]!, op) !== 0);

    // Literals against each other: in an and, a literal implied by the others goes and one
    // contradicted by them makes the and false; in an or, the others are assumed false.
    const literals = ops.filter((op): op is LitNode => op.t === 'lit');
    const assume = (lit: Literal): Literal => (kind === 'and' ? lit : complement(lit));
    const kept: LitNode[] = [];
    for (const [i, op] of literals.entries()) {
      const others = [...kept, ...literals.slice(i + 1)].map((o) => assume(o.lit));
      const value = valueUnder(op.lit, others);
      if (value === absorbing) return { t: 'const', value: absorbing };
      if (value === undefined) kept.push(op);
      else changed = true;
    }

    // Unit resolution: evaluate the literal operands of each compound operand under what the
    // literals of this junction tell.
    const known = kept.map((op) => assume(op.lit));
    const next: Node[] = [...kept];
    for (const op of ops) {
      if (op.t !== dual) continue;
      const inner: Node[] = [];
      let decided = false;
      for (const d of op.ops) {
        const value = d.t === 'lit' ? valueUnder(d.lit, known) : undefined;
        if (value === absorbingOf(dual)) decided = true;
        else if (value === undefined) inner.push(d);
      }
      // A compound operand decided by its own absorbing value equals this junction's neutral
      // value, so it drops out.
      if (decided) {
        changed = true;
        continue;
      }
      if (inner.length === op.ops.length) {
        next.push(op);
        continue;
      }
      changed = true;
      const simplified = simplifyJunction(dual, inner);
      if (simplified.t === 'const') {
        if (simplified.value === absorbing) return simplified;
        continue;
      }
      if (simplified.t === kind) next.push(...simplified.ops);
      else next.push(simplified);
    }
    ops = next;

    // Absorption: drop a compound operand whose operand set contains another operand's set.
    // Unit resolution can just have made two operands equal; of equal sets the first stays.
    const setOf = (op: Node): Set<string> =>
      new Set(op.t === dual ? op.ops.map((o) => (o as LitNode | JunctionNode).key) : [(op as LitNode | JunctionNode).key]);
    const sets = ops.map(setOf);
    const contains = (outer: Set<string>, inner: Set<string>): boolean => [...inner].every((k) => outer.has(k));
    const absorbed = ops.map(
      (op, i) => op.t === dual && sets.some((s, j) => j !== i && contains(sets[i]!, s) && (s.size < sets[i]!.size || j < i)),
    );
    if (absorbed.some(Boolean)) {
      ops = ops.filter((_, i) => !absorbed[i]);
      changed = true;
    }
  }

  if (ops.length === 0) return { t: 'const', value: !absorbing };
  if (ops.length === 1) return ops[0]!;
  return junctionNode(kind, ops);
}

function toCondition(node: Node): Condition {
  switch (node.t) {
    case 'const':
      return { kind: 'constant', value: node.value };
    case 'lit': {
      const leaf: Condition =
        node.lit.leaf === 'aspect'
          ? { kind: 'aspect', aspect: node.lit.value }
          : { kind: 'architecture', architecture: node.lit.value };
      return node.lit.negated ? { kind: 'not', operand: leaf } : leaf;
    }
    default: {
      const ops = node.ops.map(toCondition);
      let result = ops[ops.length - 1]!;
      for (let i = ops.length - 2; i >= 0; i -= 1) result = { kind: node.t, left: ops[i]!, right: result };
      return result;
    }
  }
}

/**
 * The normal form of `condition`: equivalent on every device, with `not` only directly above
 * leaves, and/or right-nested over sorted, duplicate-free operands. When the expression folds to
 * always true or always false the result is a `constant` node, which `encodeCondition` refuses by
 * default. Normalizing a normal form returns it unchanged.
 */
export function normalizeCondition(condition: Condition): Condition {
  return toCondition(toNormalNode(condition, false));
}

/**
 * A string that is equal for two conditions exactly when their normal forms are equal: the normal
 * form's encoding, or `true` / `false`.
 */
export function normalizedConditionKey(condition: Condition): string {
  const node = toNormalNode(condition, false);
  return node.t === 'const' ? String(node.value) : node.key;
}

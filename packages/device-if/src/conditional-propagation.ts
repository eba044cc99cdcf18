/**
 * Conditionally used aspects over a call graph, for the aspect-propagation pass: which
 * (condition, aspects) pairs each function gets. The pass maps its IR to the small graph model
 * below; this module does not know about IR.
 *
 * Two semantics:
 * - `design` (default) follows DeviceIf.md: nested conditions are ANDed, then the pairs are
 *   simplified (see `simplifyConditionallyUsedAspects`).
 * - `intel-llvm-prototype` reproduces the unmerged intel/llvm PR #15646, whose outputs the
 *   conformance tests under `PropagateAspectsUsage/PropogateConditionalAspects/` check: conditions
 *   are *sets of integers* (the union of every condition argument on the path, not an expression),
 *   no merging or simplification, and the ordering described in the README.
 */
import { andConditions } from './builders.js';
import { ConditionError, decodeCondition, encodeCondition, type Condition } from './condition.js';
import {
  simplifyConditionallyUsedAspects,
  type ArchitectureAspects,
  type ConditionalAspectsPair,
  type ConditionallyUsedAspects,
} from './conditional-aspects.js';

/** A function of the call graph (declarations included), in module order. */
export interface AspectCallGraphFunction {
  readonly name: string;
  /** A kernel or exported (`sycl-module-id`) definition. */
  readonly entryPoint?: boolean;
  /** Has the attribute `"sycl-call-if-on-device-conditionally"`. */
  readonly conditionalCaller?: boolean;
  /** Aspects the function uses directly, in the order the pass found them. */
  readonly aspects?: readonly number[];
  /** Direct calls, in instruction order. */
  readonly calls?: readonly AspectCallGraphCall[];
}

export interface AspectCallGraphCall {
  readonly callee: string;
  /** For a call to a conditional caller: argument 0, when it is a function (the action). */
  readonly action?: string;
  /** For a call to a conditional caller: the constant integer arguments from position 2 on. */
  readonly condition?: readonly number[];
}

export type ConditionalAspectsSemantics = 'design' | 'intel-llvm-prototype';

export interface PropagateConditionalAspectsOptions {
  /** Default `design`. */
  readonly semantics?: ConditionalAspectsSemantics;
  /** Device configuration for the OR-of-architectures simplification (`design` only). */
  readonly architectureAspects?: ArchitectureAspects;
}

/**
 * The conditionally used aspects of every function that gets some, keyed by name, in module order.
 *
 * `design`: a function's pairs come from the conditional calls reachable from it through plain
 * calls. A conditional call with condition C and action A contributes (C, aspects A uses
 * unconditionally), then A's own conditional pairs with C ANDed in front. Contributions are listed
 * depth first in call order, simplified against the function's unconditional aspects; functions
 * whose list ends up empty are left out. A malformed condition throws {@link ConditionError}
 * naming the call.
 *
 * `intel-llvm-prototype`: see the module comment; `alwaysUsed` is always empty, and, like the
 * prototype, functions on a conditional call path can get an empty pair list (written as `!{}`).
 */
export function propagateConditionalAspects(
  functions: readonly AspectCallGraphFunction[],
  options: PropagateConditionalAspectsOptions = {},
): Map<string, ConditionallyUsedAspects> {
  const byName = new Map<string, AspectCallGraphFunction>();
  for (const fn of functions) {
    if (byName.has(fn.name)) throw new Error(`call graph: function '${fn.name}' is listed twice`);
    byName.set(fn.name, fn);
  }
  const lookup = (name: string, from: string): AspectCallGraphFunction => {
    const fn = byName.get(name);
    if (fn === undefined) throw new Error(`call graph: '${from}' calls '${name}', which is not in the graph`);
    return fn;
  };
  return options.semantics === 'intel-llvm-prototype'
    ? prototypeSemantics(functions, lookup)
    : designSemantics(functions, lookup, options.architectureAspects);
}

type Lookup = (name: string, from: string) => AspectCallGraphFunction;

interface Contribution {
  readonly condition: Condition;
  readonly aspects: readonly number[];
}

function designSemantics(
  functions: readonly AspectCallGraphFunction[],
  lookup: Lookup,
  architectureAspects: ArchitectureAspects | undefined,
): Map<string, ConditionallyUsedAspects> {
  const unconditionalMemo = new Map<string, number[]>();
  /** Aspects of `fn` and of everything it reaches through plain calls. */
  const unconditionalAspects = (fn: AspectCallGraphFunction): number[] => {
    const memo = unconditionalMemo.get(fn.name);
    if (memo !== undefined) return memo;
    // A walk per function rather than memoized recursion, so that recursion in the graph (which
    // SYCL forbids, but a broken input may have) cannot give a partial answer.
    const aspects = new Set<number>();
    const seen = new Set([fn.name]);
    const pending = [fn];
    while (pending.length > 0) {
      const current = pending.pop()!;
      for (const aspect of current.aspects ?? []) aspects.add(aspect);
      for (const call of current.calls ?? []) {
        const callee = lookup(call.callee, current.name);
        if (callee.conditionalCaller || seen.has(callee.name)) continue;
        seen.add(callee.name);
        pending.push(callee);
      }
    }
    const result = [...aspects].sort((x, y) => x - y);
    unconditionalMemo.set(fn.name, result);
    return result;
  };

  const contributionsMemo = new Map<string, Contribution[]>();
  const inProgress = new Set<string>();
  /** Pairs relative to `fn` itself, depth first in call order. */
  const contributions = (fn: AspectCallGraphFunction): Contribution[] => {
    const memo = contributionsMemo.get(fn.name);
    if (memo !== undefined) return memo;
    if (inProgress.has(fn.name)) return []; // recursion (SYCL forbids it): cut the cycle here
    inProgress.add(fn.name);
    const out: Contribution[] = [];
    for (const call of fn.calls ?? []) {
      const callee = lookup(call.callee, fn.name);
      if (!callee.conditionalCaller) {
        out.push(...contributions(callee));
        continue;
      }
      if (call.action === undefined) continue; // no known action: nothing is called
      const action = lookup(call.action, fn.name);
      const condition = decodeCall(call.condition ?? [], fn.name, callee.name);
      out.push({ condition, aspects: unconditionalAspects(action) });
      for (const nested of contributions(action)) {
        out.push({ condition: andConditions(condition, nested.condition), aspects: nested.aspects });
      }
    }
    inProgress.delete(fn.name);
    contributionsMemo.set(fn.name, out);
    return out;
  };

  const result = new Map<string, ConditionallyUsedAspects>();
  for (const fn of functions) {
    const pairs = contributions(fn).map((c) => ({ condition: encodeCondition(c.condition), aspects: c.aspects }));
    if (pairs.length === 0) continue;
    const simplified = simplifyConditionallyUsedAspects(pairs, {
      usedAspects: unconditionalAspects(fn),
      ...(architectureAspects === undefined ? {} : { architectureAspects }),
    });
    if (simplified.pairs.length > 0 || simplified.alwaysUsed.length > 0) result.set(fn.name, simplified);
  }
  return result;
}

function decodeCall(condition: readonly number[], caller: string, callee: string): Condition {
  try {
    return decodeCondition(condition);
  } catch (error) {
    if (error instanceof ConditionError) {
      throw new ConditionError(
        error.code,
        error.position,
        `call from '${caller}' to '${callee}': ${error.message}`,
        error.sequence,
      );
    }
    throw error;
  }
}

/**
 * LLVM `SmallSet<int, 4>` as the prototype uses it: first-insertion order while it holds at most 4
 * values, ascending from the 5th on (it moves into a `std::set` and stays there).
 */
class LlvmSmallSet {
  private constructor(private values: number[], private large: boolean) {}

  static empty(): LlvmSmallSet {
    return new LlvmSmallSet([], false);
  }

  get size(): number {
    return this.values.length;
  }

  list(): number[] {
    return [...this.values];
  }

  insert(value: number): void {
    if (this.values.includes(value)) return;
    this.values.push(value);
    if (this.large || this.values.length > 4) {
      this.large = true;
      this.values.sort((x, y) => x - y);
    }
  }

  insertAll(values: Iterable<number>): void {
    for (const value of values) this.insert(value);
  }

  clone(): LlvmSmallSet {
    return new LlvmSmallSet([...this.values], this.large);
  }

  /** Set equality, as `SmallSet::operator==`. */
  equals(other: LlvmSmallSet): boolean {
    return this.size === other.size && this.values.every((v) => other.values.includes(v));
  }
}

interface PrototypePair {
  readonly condition: LlvmSmallSet;
  readonly aspects: LlvmSmallSet;
}

/** A map whose `at` creates an empty entry like `DenseMap::operator[]`. */
class DefaultMap<V> extends Map<string, V> {
  constructor(private readonly create: () => V) {
    super();
  }

  at(key: string): V {
    let value = this.get(key);
    if (value === undefined) {
      value = this.create();
      this.set(key, value);
    }
    return value;
  }
}

/**
 * PR #15646's algorithm, step by step (our reading of it; the README gives the resulting ordering
 * rules). Deviations: callee sets iterate in first-call order even past 8 callees (LLVM's
 * SmallPtrSet then iterates in pointer-hash order), and recursion is cut where the prototype would
 * not terminate.
 */
function prototypeSemantics(
  functions: readonly AspectCallGraphFunction[],
  lookup: Lookup,
): Map<string, ConditionallyUsedAspects> {
  const isConditionalCaller = (name: string): boolean => lookup(name, name).conditionalCaller === true;

  // Call graph: a call to a conditional caller whose argument 0 is a function gives the edges
  // caller → conditional caller → action; such a call without a function argument gives none.
  const graph = new Map<string, string[]>();
  const addEdge = (from: string, to: string): void => {
    const callees = graph.get(from) ?? [];
    if (!callees.includes(to)) callees.push(to);
    graph.set(from, callees);
  };
  for (const fn of functions) {
    for (const call of fn.calls ?? []) {
      const callee = lookup(call.callee, fn.name);
      if (!callee.conditionalCaller) addEdge(fn.name, callee.name);
      else if (call.action !== undefined) {
        addEdge(fn.name, callee.name);
        addEdge(callee.name, lookup(call.action, fn.name).name);
      }
    }
  }
  const calleesOf = (name: string): string[] => graph.get(name) ?? [];
  const entryPoints = functions.filter((fn) => fn.entryPoint === true).map((fn) => fn.name);

  // Functions reached through a conditional caller are "called conditionally"; the walk recurses
  // into each function only the first time it is reached, from any entry point.
  const unconditional = new Set<string>();
  const conditional = new Set<string>();
  const classifyAlone = (name: string): void => void (isConditionalCaller(name) ? conditional : unconditional).add(name);
  const visited = new Set<string>();
  const classify = (name: string): void => {
    for (const callee of calleesOf(name)) {
      if (!isConditionalCaller(callee) && unconditional.has(name)) unconditional.add(callee);
      if (isConditionalCaller(callee) || conditional.has(name)) conditional.add(callee);
      if (!visited.has(callee)) {
        visited.add(callee);
        classify(callee);
      }
    }
  };
  for (const entry of entryPoints) {
    classifyAlone(entry);
    classify(entry);
  }
  for (const fn of functions) if (!visited.has(fn.name)) classifyAlone(fn.name);

  const conditionallyUsed = new DefaultMap(LlvmSmallSet.empty);
  for (const fn of functions) if (conditional.has(fn.name)) conditionallyUsed.at(fn.name).insertAll(fn.aspects ?? []);

  // Conditions: every callee gets its caller's set, plus the integer arguments of the caller's
  // calls to it when it is a conditional caller. A plain tree walk: the last path to reach a
  // function wins.
  const conditions = new DefaultMap(LlvmSmallSet.empty);
  const propagateConditions = (name: string, stack: Set<string>): void => {
    if (!graph.has(name)) return;
    const local = new DefaultMap(LlvmSmallSet.empty);
    for (const call of lookup(name, name).calls ?? []) {
      if (isConditionalCaller(call.callee)) local.at(call.callee).insertAll(call.condition ?? []);
    }
    for (const callee of calleesOf(name)) {
      if (stack.has(callee)) continue;
      const next = conditions.at(name).clone();
      if (isConditionalCaller(callee)) next.insertAll(local.at(callee).list());
      conditions.set(callee, next);
      stack.add(callee);
      propagateConditions(callee, stack);
      stack.delete(callee);
    }
  };

  // Root-to-leaf paths (a leaf has no callees) that pass through a conditional caller. A function
  // whose callees are all on the path already ends it too, where the prototype would recurse forever.
  const paths: string[][] = [];
  const collectPaths = (name: string, path: string[]): void => {
    path.push(name);
    const callees = calleesOf(name).filter((callee) => !path.includes(callee));
    if (callees.length === 0) {
      if (path.some(isConditionalCaller)) paths.push([...path]);
    } else {
      for (const callee of callees) collectPaths(callee, path);
    }
    path.pop();
  };
  for (const entry of entryPoints) {
    propagateConditions(entry, new Set([entry]));
    collectPaths(entry, []);
  }

  // Along each path, from the leaf up: a function accumulates its callee's conditional aspects
  // (and its condition when it has none), adds its own (condition, aspects) pair, then the callee's
  // pairs it does not have yet.
  const pairs = new DefaultMap<PrototypePair[]>(() => []);
  const contains = (list: readonly PrototypePair[], pair: PrototypePair): boolean =>
    list.some((p) => p.condition.equals(pair.condition) && p.aspects.equals(pair.aspects));
  for (const path of paths) {
    for (let i = path.length - 1; i >= 0; i -= 1) {
      const name = path[i]!;
      const callee = path[i + 1];
      if (callee !== undefined) {
        conditionallyUsed.at(name).insertAll(conditionallyUsed.at(callee).list());
        if (conditions.at(name).size === 0) conditions.set(name, conditions.at(callee).clone());
      }
      const own = { condition: conditions.at(name).clone(), aspects: conditionallyUsed.at(name).clone() };
      if (own.condition.size > 0 && own.aspects.size > 0 && !contains(pairs.at(name), own)) pairs.at(name).push(own);
      if (callee !== undefined) {
        for (const pair of pairs.at(callee)) if (!contains(pairs.at(name), pair)) pairs.at(name).push(pair);
      }
    }
  }

  const result = new Map<string, ConditionallyUsedAspects>();
  for (const fn of functions) {
    const list = pairs.get(fn.name);
    if (list === undefined) continue;
    const converted: ConditionalAspectsPair[] = list.map((p) => ({ condition: p.condition.list(), aspects: p.aspects.list() }));
    result.set(fn.name, { pairs: converted, alwaysUsed: [] });
  }
  return result;
}

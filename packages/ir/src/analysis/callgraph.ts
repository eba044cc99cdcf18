/**
 * Call graph of a module, built in one walk over its instructions.
 *
 * Nodes are the module's functions in module order. An edge f → g exists when f calls g:
 * - directly (`call`/`invoke`/`callbr` whose callee is g, or g seen through pointer casts such as
 *   `addrspacecast (ptr @g to ptr addrspace(4))`, or through an alias of g);
 * - possibly, through an indirect call whose function type is g's when g is address-taken
 *   (conservative resolution; the call also marks f as calling an unknown callee).
 *
 * "Address-taken" here means used other than as a (possibly cast) callee: stored, passed as an
 * argument, in a global initializer, an aliasee, a resolver or a personality. Metadata does not
 * count. Inline asm is not a call edge. Orders are deterministic: callees in first-call order,
 * callers in module order.
 */
import { CallInst } from '../model/instructions.js';
import type { Module } from '../model/module.js';
import type { FunctionType } from '../model/types.js';
import { forEachReferenceOf, type ReferenceHolder } from './references.js';
import { ConstantGlobals } from './uses.js';
import { stripPointerCasts, type IRFunction, type Value } from '../model/values.js';

export interface CallGraphOptions {
  /**
   * `conservative` (default): an indirect call gets an edge to every address-taken function of
   * its function type. `unknown-only`: indirect calls only set {@link CallGraph.hasIndirectCall}.
   */
  readonly indirectCalls?: 'conservative' | 'unknown-only';
  /** Uses in `@llvm.used` / `@llvm.compiler.used` do not make a function address-taken. */
  readonly ignoreLLVMUsed?: boolean;
}

export class CallGraph {
  readonly module: Module;
  /** The nodes: the module's functions in module order (a function's index is its node id). */
  readonly functions: readonly IRFunction[];
  private readonly ids: Map<IRFunction, number>;
  private readonly calleeStart: Int32Array;
  private readonly calleeList: Int32Array;
  private readonly callerStart: Int32Array;
  private readonly callerList: Int32Array;
  private readonly indirect: Uint8Array;
  private readonly taken: Uint8Array;
  private readonly directCalleeList: Int32Array;
  private readonly directStart: Int32Array;

  /** @internal */ constructor(
    module: Module,
    functions: readonly IRFunction[],
    ids: Map<IRFunction, number>,
    calleeStart: Int32Array,
    calleeList: Int32Array,
    directStart: Int32Array,
    directCalleeList: Int32Array,
    indirect: Uint8Array,
    taken: Uint8Array,
  ) {
    this.module = module;
    this.functions = functions;
    this.ids = ids;
    this.calleeStart = calleeStart;
    this.calleeList = calleeList;
    this.directStart = directStart;
    this.directCalleeList = directCalleeList;
    this.indirect = indirect;
    this.taken = taken;
    // reverse edges, callers in module order (counting sort by callee)
    const n = functions.length;
    const counts = new Int32Array(n + 1);
    for (let i = 0; i < calleeList.length; i++) counts[calleeList[i]! + 1]!++;
    for (let i = 0; i < n; i++) counts[i + 1]! += counts[i]!;
    this.callerStart = counts.slice();
    const fill = counts.slice(0, n);
    const callers = new Int32Array(calleeList.length);
    for (let caller = 0; caller < n; caller++) {
      for (let e = calleeStart[caller]!; e < calleeStart[caller + 1]!; e++) {
        const callee = calleeList[e]!;
        callers[fill[callee]!++] = caller;
      }
    }
    this.callerList = callers;
  }

  /** Node id of `fn`, or -1 when it is not a function of this module. */
  indexOf(fn: IRFunction): number {
    return this.ids.get(fn) ?? -1;
  }

  private id(fn: IRFunction): number {
    const id = this.ids.get(fn);
    if (id === undefined) throw new RangeError(`@${fn.name} is not a function of this call graph's module`);
    return id;
  }

  private slice(start: Int32Array, list: Int32Array, id: number): IRFunction[] {
    const out: IRFunction[] = [];
    for (let e = start[id]!; e < start[id + 1]!; e++) out.push(this.functions[list[e]!]!);
    return out;
  }

  /** Distinct callees of `fn` (direct and resolved indirect), in first-call order. */
  callees(fn: IRFunction): IRFunction[] {
    return this.slice(this.calleeStart, this.calleeList, this.id(fn));
  }

  /** Distinct direct callees of `fn` (casts and aliases looked through), in first-call order. */
  directCallees(fn: IRFunction): IRFunction[] {
    return this.slice(this.directStart, this.directCalleeList, this.id(fn));
  }

  /** Distinct callers of `fn` (reverse edges), in module order. */
  callers(fn: IRFunction): IRFunction[] {
    return this.slice(this.callerStart, this.callerList, this.id(fn));
  }

  /** Whether `fn` makes an indirect call (to an unknown callee, possibly outside the module). */
  hasIndirectCall(fn: IRFunction): boolean {
    return this.indirect[this.id(fn)] === 1;
  }

  /** Whether `fn` may be called indirectly (see the module comment for what counts). */
  isAddressTaken(fn: IRFunction): boolean {
    return this.taken[this.id(fn)] === 1;
  }

  /** Address-taken functions in module order. */
  addressTakenFunctions(): IRFunction[] {
    return this.functions.filter((_, i) => this.taken[i] === 1);
  }

  /** Number of distinct edges. */
  get edgeCount(): number {
    return this.calleeList.length;
  }

  /**
   * Functions reachable from `roots` (the roots included), in breadth-first order: roots in the
   * given order, then callees in first-call order.
   */
  reachableFrom(roots: Iterable<IRFunction>): IRFunction[] {
    const seen = new Uint8Array(this.functions.length);
    const queue: number[] = [];
    for (const r of roots) {
      const id = this.id(r);
      if (seen[id] === 0) {
        seen[id] = 1;
        queue.push(id);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const id = queue[head]!;
      for (let e = this.calleeStart[id]!; e < this.calleeStart[id + 1]!; e++) {
        const c = this.calleeList[e]!;
        if (seen[c] === 0) {
          seen[c] = 1;
          queue.push(c);
        }
      }
    }
    return queue.map((id) => this.functions[id]!);
  }

  /**
   * Strongly connected components (Tarjan's algorithm, iterative), in reverse topological order:
   * every component comes after the components it calls into. Roots are tried in module order,
   * callees in first-call order; members are listed in discovery order.
   */
  stronglyConnectedComponents(): IRFunction[][] {
    return stronglyConnectedComponentsOf(this.calleeStart, this.calleeList).map((members) => members.map((w) => this.functions[w]!));
  }

  /** Whether `fn` can reach itself through calls (linear in the graph size per query). */
  isRecursive(fn: IRFunction): boolean {
    const id = this.id(fn);
    for (let e = this.calleeStart[id]!; e < this.calleeStart[id + 1]!; e++) if (this.calleeList[e] === id) return true;
    const reachableBack = this.reachableFrom(this.callees(fn));
    return reachableBack.includes(fn);
  }
}

/**
 * Strongly connected components of a graph given in compressed form (the successors of node `v`
 * are `list[start[v]]` up to `list[start[v + 1]]`, exclusive): Tarjan's algorithm, iterative, in
 * reverse topological order, so every component comes after the components it reaches. Roots are
 * tried in node order, successors in list order; members are listed in discovery order.
 */
export function stronglyConnectedComponentsOf(start: ArrayLike<number>, list: ArrayLike<number>): number[][] {
  const n = start.length - 1;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const result: number[][] = [];
  const callStack = new Int32Array(n);
  const edgeCursor = new Int32Array(n);
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    callStack[0] = root;
    index[root] = low[root] = counter++;
    edgeCursor[root] = start[root]!;
    stack.push(root);
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callStack[depth]!;
      if (edgeCursor[v]! < start[v + 1]!) {
        const w = list[edgeCursor[v]!++]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          edgeCursor[w] = start[w]!;
          stack.push(w);
          onStack[w] = 1;
          callStack[++depth] = w;
        } else if (onStack[w] === 1 && index[w]! < low[v]!) low[v] = index[w]!;
        continue;
      }
      if (low[v] === index[v]) {
        const members = stack.splice(stack.lastIndexOf(v));
        for (const w of members) onStack[w] = 0;
        result.push(members);
      }
      depth--;
      if (depth >= 0) {
        const parent = callStack[depth]!;
        if (low[v]! < low[parent]!) low[parent] = low[v]!;
      }
    }
  }
  return result;
}

/** Builds the call graph of `m` (see the module comment for the edges it records). */
export function buildCallGraph(m: Module, options: CallGraphOptions = {}): CallGraph {
  const functions = m.functions.slice();
  const n = functions.length;
  const ids = new Map<IRFunction, number>();
  for (let i = 0; i < n; i++) ids.set(functions[i]!, i);
  const taken = new Uint8Array(n);
  const indirect = new Uint8Array(n);
  const inConstants = new ConstantGlobals();
  const takeAddresses = (v: Value): void => {
    if (v.vk === 'instruction' || v.vk === 'argument' || v.vk === 'block') return;
    if (v.vk === 'function') {
      const id = ids.get(v);
      if (id !== undefined) taken[id] = 1;
      return;
    }
    for (const g of inConstants.of(v)) {
      if (g.vk !== 'function') continue;
      const id = ids.get(g);
      if (id !== undefined) taken[id] = 1;
    }
  };
  const ignoreUsed = options.ignoreLLVMUsed ?? false;
  for (const g of m.globals) {
    if (ignoreUsed && (g.name === 'llvm.used' || g.name === 'llvm.compiler.used')) continue;
    forEachReferenceOf(g, takeAddresses);
  }
  for (const a of m.aliases) forEachReferenceOf(a, takeAddresses);
  for (const i of m.ifuncs) forEachReferenceOf(i, takeAddresses);

  // Per caller, the call sequence: callee id (>= 0) or an indirect call's type (-1 - typeIndex).
  const sequenceStart = new Int32Array(n + 1);
  const sequence: number[] = [];
  const typeIndex = new Map<FunctionType, number>();
  const types: FunctionType[] = [];
  let caller = 0;
  const visit = (value: Value, holder: ReferenceHolder, operand: number): void => {
    if (operand !== 0 || !(holder instanceof CallInst)) {
      takeAddresses(value);
      return;
    }
    const target = calledFunction(value);
    if (target !== undefined) {
      const id = ids.get(target);
      if (id !== undefined) sequence.push(id);
      else takeAddresses(value);
    } else if (value.vk !== 'asm') {
      indirect[caller] = 1;
      let t = typeIndex.get(holder.functionType);
      if (t === undefined) {
        t = types.length;
        typeIndex.set(holder.functionType, t);
        types.push(holder.functionType);
      }
      sequence.push(-1 - t);
      takeAddresses(value);
    }
  };
  for (; caller < n; caller++) {
    sequenceStart[caller] = sequence.length;
    forEachReferenceOf(functions[caller]!, visit);
  }
  sequenceStart[n] = sequence.length;

  // Address-taken functions by function type, in module order.
  const takenByType = new Map<FunctionType, number[]>();
  if ((options.indirectCalls ?? 'conservative') === 'conservative') {
    for (let i = 0; i < n; i++) {
      if (taken[i] !== 1) continue;
      const t = functions[i]!.functionType;
      if (!typeIndex.has(t)) continue;
      const list = takenByType.get(t);
      if (list === undefined) takenByType.set(t, [i]);
      else list.push(i);
    }
  }
  const stamp = new Int32Array(n).fill(-1);
  const directStamp = new Int32Array(n).fill(-1);
  const calleeStart = new Int32Array(n + 1);
  const directStart = new Int32Array(n + 1);
  const callees: number[] = [];
  const direct: number[] = [];
  for (let caller = 0; caller < n; caller++) {
    calleeStart[caller] = callees.length;
    directStart[caller] = direct.length;
    for (let s = sequenceStart[caller]!; s < sequenceStart[caller + 1]!; s++) {
      const item = sequence[s]!;
      if (item >= 0) {
        if (stamp[item] !== caller) {
          stamp[item] = caller;
          callees.push(item);
        }
        if (directStamp[item] !== caller) {
          directStamp[item] = caller;
          direct.push(item);
        }
        continue;
      }
      for (const target of takenByType.get(types[-1 - item]!) ?? []) {
        if (stamp[target] !== caller) {
          stamp[target] = caller;
          callees.push(target);
        }
      }
    }
  }
  calleeStart[n] = callees.length;
  directStart[n] = direct.length;
  return new CallGraph(m, functions, ids, calleeStart, Int32Array.from(callees), directStart, Int32Array.from(direct), indirect, taken);
}

/** The function a callee operand designates, looking through pointer casts and aliases. */
export function calledFunction(callee: Value): IRFunction | undefined {
  if (callee.vk === 'function') return callee;
  let v = stripPointerCasts(callee);
  for (let hops = 0; v.vk === 'alias' && hops < 64; hops++) v = stripPointerCasts(v.aliasee);
  return v.vk === 'function' ? v : undefined;
}

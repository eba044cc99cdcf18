/**
 * Propagation of aspect sets up a call graph given as adjacency lists over node indices (no IR
 * here, so property tests can drive it directly).
 *
 * intel/llvm walks the graph depth first from each entry point with one `Visited` set shared by
 * all entry points. On a graph without cycles that gives every function reachable from an entry
 * point the union of its own aspects and those of everything it calls. With a cycle it does not:
 * a function reached again while its own walk is still on the stack contributes the partial set it
 * has at that moment, so which members of a cycle see which aspects depends on the order of the
 * walk. Functions no entry point reaches keep only their own aspects.
 *
 * We compute the true closure instead, for every function (the design: "each function lists the
 * aspects used by that function and by any functions it calls"): strongly connected components in
 * reverse topological order (Tarjan), so each component is finished before its callers. On an
 * acyclic graph the values *and their order* are intel/llvm's; see {@link closeOverCallGraph}.
 * Linear in nodes + edges (times the size of the aspect sets, which is small).
 */
import { AspectSet } from './aspect-set.js';

/**
 * Strongly connected components, each listed in ascending node order, in reverse topological
 * order: a component comes after every component it can reach. Iterative (no recursion limit).
 */
export function stronglyConnectedComponents(successors: readonly (readonly number[])[]): number[][] {
  const count = successors.length;
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const components: number[][] = [];
  const frames: number[] = []; // node of each active frame
  const positions: number[] = []; // next successor to look at, per frame
  let next = 0;
  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue;
    index[root] = next;
    low[root] = next;
    next++;
    stack.push(root);
    onStack[root] = 1;
    frames.push(root);
    positions.push(0);
    while (frames.length > 0) {
      const top = frames.length - 1;
      const v = frames[top]!;
      const succ = successors[v]!;
      const p = positions[top]!;
      if (p < succ.length) {
        positions[top] = p + 1;
        const w = succ[p]!;
        if (index[w] === -1) {
          index[w] = next;
          low[w] = next;
          next++;
          stack.push(w);
          onStack[w] = 1;
          frames.push(w);
          positions.push(0);
        } else if (onStack[w] === 1 && index[w]! < low[v]!) {
          low[v] = index[w]!;
        }
        continue;
      }
      frames.pop();
      positions.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1]!;
        if (low[v]! < low[parent]!) low[parent] = low[v]!;
      }
      if (low[v] === index[v]) {
        const component: number[] = [];
        for (;;) {
          const w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
          if (w === v) break;
        }
        component.sort((a, b) => a - b);
        components.push(component);
      }
    }
  }
  return components;
}

/**
 * For every node: its own set, then the union of what its callees end up with, inserted the way
 * intel/llvm does it (`SmallSet<int, 4>` order, see {@link AspectSet}): the callees' final sets
 * are gathered into one local set, callee by callee in the order of `successors[node]`, and that
 * local set is appended to the node's own set.
 *
 * Members of a cycle all get the same content: the union of the members' own sets and of the final
 * sets of the cycle's callees outside it. Inside the local set, a callee in the same cycle stands
 * for that union (members taken in ascending index order, each with its own set then its outside
 * callees). On an acyclic graph this is exactly intel/llvm's result.
 *
 * `own[i]` undefined means empty. `closed[i]` false leaves node i with its own set (nothing flows
 * into it), which the intel-llvm-prototype conditional semantics need. Result sets may be shared
 * (with `own` or with each other) when nothing is added: treat them as read-only.
 */
export function closeOverCallGraph(
  successors: readonly (readonly number[])[],
  own: readonly (AspectSet | undefined)[],
  closed?: (node: number) => boolean,
): (AspectSet | undefined)[] {
  const result: (AspectSet | undefined)[] = new Array<AspectSet | undefined>(successors.length);
  const inComponent = new Int32Array(successors.length).fill(-1);
  const propagates = (node: number): boolean => closed === undefined || closed(node);
  for (const component of stronglyConnectedComponents(successors)) {
    const head = component[0]!;
    const cyclic = component.length > 1 || successors[head]!.includes(head);
    if (!cyclic) {
      result[head] = propagates(head) ? withCallees(own[head], successors[head]!, (c) => result[c]) : own[head];
      continue;
    }
    for (const member of component) inComponent[member] = head;
    // The union of everything the cycle reaches.
    let union: AspectSet | undefined;
    for (const member of component) {
      if (!propagates(member)) continue;
      union = addTo(union, own[member]);
      for (const callee of successors[member]!) if (inComponent[callee] !== head) union = addTo(union, result[callee]);
    }
    for (const member of component) {
      result[member] = propagates(member)
        ? withCallees(own[member], successors[member]!, (c) => (inComponent[c] === head ? union : result[c]))
        : own[member];
    }
  }
  return result;
}

function withCallees(
  own: AspectSet | undefined,
  callees: readonly number[],
  setOf: (callee: number) => AspectSet | undefined,
): AspectSet | undefined {
  let local: AspectSet | undefined;
  let single: AspectSet | undefined; // the only non-empty callee set so far (no copy needed yet)
  for (const callee of callees) {
    const set = setOf(callee);
    if (set === undefined || set.size === 0 || set === single) continue;
    if (single === undefined && local === undefined) {
      single = set;
      continue;
    }
    if (local === undefined) {
      local = single!.clone();
      single = undefined;
    }
    local.addAll(set);
  }
  const gathered = local ?? single;
  if (gathered === undefined) return own;
  if (own === undefined || own.size === 0) return gathered;
  let grows = false;
  for (const value of gathered) {
    if (!own.has(value)) {
      grows = true;
      break;
    }
  }
  if (!grows) return own;
  const out = own.clone();
  out.addAll(gathered);
  return out;
}

function addTo(target: AspectSet | undefined, values: AspectSet | undefined): AspectSet | undefined {
  if (values === undefined || values.size === 0) return target;
  const out = target ?? new AspectSet();
  out.addAll(values);
  return out;
}

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
import { stronglyConnectedComponentsOf } from '@syclkit/ir';
import { AspectSet } from './aspect-set.js';

/**
 * Strongly connected components, each listed in ascending node order, in reverse topological
 * order: a component comes after every component it can reach (`@syclkit/ir`'s Tarjan over the
 * lists in compressed form).
 */
export function stronglyConnectedComponents(successors: readonly (readonly number[])[]): number[][] {
  const start = new Int32Array(successors.length + 1);
  for (let v = 0; v < successors.length; v++) start[v + 1] = start[v]! + successors[v]!.length;
  const list = new Int32Array(start[successors.length]!);
  for (let v = 0; v < successors.length; v++) list.set(successors[v]!, start[v]!);
  const components = stronglyConnectedComponentsOf(start, list);
  // Most components are one function: nothing to sort.
  for (let i = 0; i < components.length; i++) if (components[i]!.length > 1) components[i]!.sort(ascending);
  return components;
}

function ascending(a: number, b: number): number {
  return a - b;
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
 * (with `own` or with each other) when nothing is added: treat them as read-only. `components`:
 * `stronglyConnectedComponents(successors)`, for a caller that closes several sets over one graph.
 */
export function closeOverCallGraph(
  successors: readonly (readonly number[])[],
  own: readonly (AspectSet | undefined)[],
  closed?: (node: number) => boolean,
  components?: readonly (readonly number[])[],
): (AspectSet | undefined)[] {
  // Plain indexed loops and no closure per node: this runs once per pass over every function,
  // mostly before the JIT has optimized it.
  const result: (AspectSet | undefined)[] = new Array<AspectSet | undefined>(successors.length);
  const inComponent = new Int32Array(successors.length).fill(-1);
  const all = components ?? stronglyConnectedComponents(successors);
  for (let c = 0; c < all.length; c++) {
    const component = all[c]!;
    const head = component[0]!;
    if (component.length === 1 && !successors[head]!.includes(head)) {
      result[head] = closed === undefined || closed(head) ? withCallees(own[head], successors[head]!, result, inComponent, -1, undefined) : own[head];
      continue;
    }
    for (const member of component) inComponent[member] = head;
    // The union of everything the cycle reaches.
    let union: AspectSet | undefined;
    for (const member of component) {
      if (closed !== undefined && !closed(member)) continue;
      union = addTo(union, own[member]);
      for (const callee of successors[member]!) if (inComponent[callee] !== head) union = addTo(union, result[callee]);
    }
    for (const member of component) {
      result[member] = closed === undefined || closed(member) ? withCallees(own[member], successors[member]!, result, inComponent, head, union) : own[member];
    }
  }
  return result;
}

/**
 * `own` with the sets of `callees` added (see {@link closeOverCallGraph}); a callee in the cycle
 * `cycle` (its head, -1 for none) stands for `union`, any other for its result.
 */
function withCallees(
  own: AspectSet | undefined,
  callees: readonly number[],
  result: readonly (AspectSet | undefined)[],
  inComponent: Int32Array,
  cycle: number,
  union: AspectSet | undefined,
): AspectSet | undefined {
  let local: AspectSet | undefined;
  let single: AspectSet | undefined; // the only non-empty callee set so far (no copy needed yet)
  for (let i = 0; i < callees.length; i++) {
    const callee = callees[i]!;
    const set = cycle >= 0 && inComponent[callee] === cycle ? union : result[callee];
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

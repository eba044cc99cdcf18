/**
 * Conditionally used aspects (DeviceIf.md, "Changes to the aspect propagation pass"): aspects
 * reached through a call to a _Conditional Caller_ are used only on devices where the call's
 * _Condition Expression_ holds. They stay out of `!sycl_used_aspects` of the callers and go to
 * `!sycl_conditionally_used_aspects`.
 *
 * The (condition, aspects) pairs come from `@syclkit/device-if`'s `propagateConditionalAspects`,
 * in one of two semantics:
 *
 * - `design` (DeviceIf.md): nested conditions are ANDed, pairs are merged and simplified (AND of
 *   aspects; OR of architectures, with the device configuration). Actions keep their own
 *   `!sycl_used_aspects`. Every function with pairs gets the metadata.
 * - `intel-llvm-prototype` (intel/llvm PR #15646, closed unmerged; what the conformance tests
 *   under `PropogateConditionalAspects/` check): a condition is the *set* of the integer arguments
 *   on the path, functions reached only through a conditional caller get no `!sycl_used_aspects`
 *   of their own, and every function on a path through a conditional caller gets the list (maybe
 *   empty).
 *
 * `auto` (the default) uses `design` when every conditional call's condition is a constant that
 * decodes as a Condition Expression — what the headers always emit — and falls back to the
 * prototype, with a warning, otherwise.
 */
import {
  ConditionError,
  architectureAspectsFromTable,
  decodeCondition,
  propagateConditionalAspects,
  type AspectCallGraphCall,
  type AspectCallGraphFunction,
  type ArchitectureAspects,
  type ConditionallyUsedAspects,
} from '@syclkit/device-if';
import { ARCHITECTURES, syclTargetForArchitecture, targetAspectValues, type AspectTable, type DeviceConfig } from '@syclkit/device-config';
import type { AspectSet } from './aspect-set.js';
import type { ConditionalCall, FunctionFacts } from './function-facts.js';

export type ConditionalSemantics = 'design' | 'intel-llvm-prototype';
export type ConditionalSemanticsOption = 'auto' | ConditionalSemantics;

/** A conditional call whose condition cannot be used by the design semantics. */
export interface ConditionProblem {
  readonly caller: FunctionFacts;
  readonly call: ConditionalCall;
  readonly message: string;
}

/** Conditional calls that are not constant Condition Expressions, in module order. */
export function conditionProblems(facts: readonly FunctionFacts[]): ConditionProblem[] {
  const problems: ConditionProblem[] = [];
  for (const caller of facts) {
    for (const call of caller.conditionalCalls) {
      if (!call.constant) {
        problems.push({ caller, call, message: 'a condition argument is not an integer constant' });
        continue;
      }
      try {
        decodeCondition(call.condition);
      } catch (error) {
        if (!(error instanceof ConditionError)) throw error;
        problems.push({ caller, call, message: error.message });
      }
    }
  }
  return problems;
}

/**
 * The functions the prototype treats as called unconditionally: those an entry point reaches
 * through plain calls (entry points included), and those no entry point reaches at all unless they
 * are conditional callers.
 */
export function unconditionallyCalled(facts: readonly FunctionFacts[]): Uint8Array {
  const count = facts.length;
  const unconditional = new Uint8Array(count);
  const reached = new Uint8Array(count);
  const plain: number[] = [];
  const any: number[] = [];
  for (const f of facts) {
    if (!f.entryPoint) continue;
    reached[f.index] = 1;
    any.push(f.index);
    if (!f.conditionalCaller) {
      unconditional[f.index] = 1;
      plain.push(f.index);
    }
  }
  while (plain.length > 0) {
    const f = facts[plain.pop()!]!;
    for (const callee of f.callees) {
      if (unconditional[callee] === 0) {
        unconditional[callee] = 1;
        plain.push(callee);
      }
    }
  }
  while (any.length > 0) {
    const f = facts[any.pop()!]!;
    const visit = (node: number | undefined): void => {
      if (node === undefined || reached[node] === 1) return;
      reached[node] = 1;
      any.push(node);
    };
    for (const callee of f.callees) visit(callee);
    for (const call of f.conditionalCalls) {
      visit(call.callee);
      visit(call.action);
    }
  }
  for (const f of facts) if (reached[f.index] === 0 && !f.conditionalCaller) unconditional[f.index] = 1;
  return unconditional;
}

/** The device configuration's guarantees per architecture operand (for the OR-of-architectures rule). */
export function architectureAspects(config: DeviceConfig, aspectTable: AspectTable): ArchitectureAspects {
  const rows: [bigint, number[]][] = [];
  for (const architecture of ARCHITECTURES) {
    const target = syclTargetForArchitecture(architecture.value);
    let aspects: number[] = [];
    if (target !== undefined && config.resolve(target) !== undefined) {
      aspects = [...targetAspectValues(config, target, { aspectTable })];
    }
    rows.push([architecture.value, aspects]);
  }
  return architectureAspectsFromTable(rows);
}

export interface ConditionalInput {
  readonly facts: readonly FunctionFacts[];
  readonly semantics: ConditionalSemantics;
  /** `design`: the aspects each function will have in `!sycl_used_aspects` (its closure). */
  readonly saved: readonly (AspectSet | undefined)[];
  readonly architectureAspects?: ArchitectureAspects;
}

/**
 * The conditionally used aspects of every function that gets some, by function index. In `design`
 * only the calls that lead to a conditional call are handed to device-if (the others add nothing:
 * `saved` already holds each function's unconditional closure).
 */
export function conditionalAspects(input: ConditionalInput): Map<number, ConditionallyUsedAspects> {
  const { facts, semantics } = input;
  // The prototype walks every path below an action, so it needs the whole graph.
  const relevant = semantics === 'design' ? leadsToConditionalCall(facts) : undefined;
  const graph: AspectCallGraphFunction[] = facts.map((f) => {
    const aspects = semantics === 'design' ? input.saved[f.index] : f.direct;
    const calls: AspectCallGraphCall[] = [];
    if (relevant === undefined || relevant[f.index] === 1) {
      // Plain and conditional calls in order of first call.
      let next = 0;
      const plainUpTo = (end: number): void => {
        for (; next < end; next++) {
          const callee = f.callees[next]!;
          if (relevant === undefined || relevant[callee] === 1) calls.push({ callee: String(callee) });
        }
      };
      for (const call of f.conditionalCalls) {
        plainUpTo(call.plainCallsBefore);
        calls.push({
          callee: String(call.callee),
          ...(call.action === undefined ? {} : { action: String(call.action) }),
          condition: call.condition,
        });
      }
      plainUpTo(f.callees.length);
    }
    return {
      name: String(f.index),
      ...(f.entryPoint ? { entryPoint: true } : {}),
      ...(f.conditionalCaller ? { conditionalCaller: true } : {}),
      ...(aspects === undefined ? {} : { aspects: aspects.toArray() }),
      ...(calls.length > 0 ? { calls } : {}),
    };
  });
  const result = propagateConditionalAspects(graph, {
    semantics,
    ...(semantics === 'design' && input.architectureAspects !== undefined ? { architectureAspects: input.architectureAspects } : {}),
  });
  const byIndex = new Map<number, ConditionallyUsedAspects>();
  for (const [name, value] of result) byIndex.set(Number(name), value);
  return byIndex;
}

/** 1 for functions with a conditional call, or a plain call to such a function (transitively). */
function leadsToConditionalCall(facts: readonly FunctionFacts[]): Uint8Array {
  const count = facts.length;
  const callers: number[][] = Array.from({ length: count }, () => []);
  const marked = new Uint8Array(count);
  const pending: number[] = [];
  for (const f of facts) {
    for (const callee of f.callees) callers[callee]!.push(f.index);
    if (f.conditionalCalls.length > 0) {
      marked[f.index] = 1;
      pending.push(f.index);
    }
  }
  // Actions with conditional calls of their own are reached through the conditional call itself.
  while (pending.length > 0) {
    const node = pending.pop()!;
    for (const caller of callers[node]!) {
      if (marked[caller] === 0) {
        marked[caller] = 1;
        pending.push(caller);
      }
    }
  }
  return marked;
}

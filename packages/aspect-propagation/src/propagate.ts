/**
 * The SYCLPropagateAspectsUsage pass as a library function: find the aspects each function uses,
 * propagate them up the call graph, write `!sycl_used_aspects`, `!sycl_conditionally_used_aspects`
 * and `!sycl_fixed_targets`, and report mismatches.
 */
import { setMetadata, type MDNode, type Module } from '@syclkit/ir';
import type { DiagnosticInput } from '@syclkit/pass-manager';
import { DeviceConfig } from '@syclkit/device-config';
import { AspectSet } from './aspect-set.js';
import { closeOverCallGraph, stronglyConnectedComponents } from './call-graph.js';
import {
  architectureAspects,
  conditionProblems,
  conditionalAspects,
  unconditionallyCalled,
  type ConditionalSemantics,
  type ConditionalSemanticsOption,
} from './conditional.js';
import { DirectUseWalker } from './direct-uses.js';
import { collectFunctionFacts, type FunctionFacts } from './function-facts.js';
import { displayName, instructionLocation } from './locations.js';
import { carryFacts, componentsOf, type ModuleWalk } from './module-walk.js';
import { SyclMetadata, aspectTableOf } from '@syclkit/sycl-conventions';
import { aspectListNode, type MetadataProblem } from './metadata.js';
import { DEFAULT_FP64, readModuleRules } from './module-rules.js';
import { checkDeclaredAspects, checkFixedTargets, type ValidationInput } from './validate.js';

/** Options of {@link propagateAspectsUsage} (and of the pass). */
export interface PropagateAspectsOptions {
  /**
   * Aspects not to save (pre-optimization run), by `!sycl_aspects` name or by number. They still
   * drive warnings, and a function keeps them if its `!sycl_used_aspects` had them before.
   * Aspects from `!sycl_declared_aspects` are always saved. (default: none)
   */
  readonly excludeAspects?: readonly string[];
  /**
   * Targets all device code must run on (`-fsycl-fixed-targets`). Written to `!sycl_fixed_targets`
   * as intel/llvm does (the `!sycl_aspects` value of each name it finds there) and checked against
   * the device configuration. (default: none)
   */
  readonly fixedTargets?: readonly string[];
  /** Report warnings; the post-optimization run turns this off. (default: true) */
  readonly validate?: boolean;
  /** `-fsycl-fp64-conv-emu`: do not record fp64 for conversions of double. (default: false) */
  readonly fp64ConvEmu?: boolean;
  /** How conditionally used aspects are computed; see README. (default: `'auto'`) */
  readonly conditionalSemantics?: ConditionalSemanticsOption;
  /** Device configuration for fixed targets and conditional simplification. (default: built-in) */
  readonly deviceConfig?: DeviceConfig;
}

export interface PropagateAspectsResult {
  /** Diagnostics, in a deterministic order (module order of functions). */
  readonly diagnostics: readonly DiagnosticInput[];
  /** Whether any metadata was added or replaced. */
  readonly changed: boolean;
  /** The semantics used for conditional calls, when the module has any. */
  readonly conditionalSemantics: ConditionalSemantics | undefined;
}

/** Runs the pass over `module`, changing its metadata in place. */
export function propagateAspectsUsage(module: Module, options: PropagateAspectsOptions = {}): PropagateAspectsResult {
  return propagateWithFacts(module, options, undefined);
}

/**
 * The pass, with the module's function facts from a walk already made (the `aspect-function-facts`
 * analysis; only without `fp64ConvEmu`, which that walk does not do): of the module as it is now,
 * or of a module whose function bodies it holds unchanged (see {@link carryFacts}).
 */
export function propagateWithFacts(module: Module, options: PropagateAspectsOptions, walk: ModuleWalk | undefined): PropagateAspectsResult {
  const diagnostics: DiagnosticInput[] = [];
  const report = (d: DiagnosticInput): void => void diagnostics.push(d);
  const context = module.context;
  // Kinds are registered in intel/llvm's order (they decide the order attachments print in).
  context.md.kinds.id(SyclMetadata.usedAspects);
  context.md.kinds.id(SyclMetadata.declaredAspects);

  const problems: MetadataProblem[] = [];
  const { table, fp64, fp64Missing, types } = readModuleRules(module, problems);
  for (const p of problems) report({ code: 'malformed-aspect-metadata', message: p.message });
  if (fp64Missing) report({ code: 'missing-fp64-aspect', message: `!sycl_aspects has no 'fp64' entry; double is taken to use aspect ${DEFAULT_FP64}` });
  const deviceAspectTable = aspectTableOf(module, { mergeBase: false });
  const aspectName = (value: number): string => deviceAspectTable.nameOf(value) ?? String(value);

  const excluded = excludedValues(options.excludeAspects ?? [], table, report);
  const fp64ConvEmu = options.fp64ConvEmu === true;
  const collect = { types, fp64, fp64ConvEmu };
  const walked = walk === undefined || fp64ConvEmu ? undefined : walk.module === module ? walk.facts : carryFacts(walk, module, collect);
  const facts = walked ?? collectFunctionFacts(module, collect);
  for (const f of facts) {
    if (f.malformedMetadata > 0) {
      report({
        code: 'malformed-aspect-metadata',
        message: `aspect metadata of function '${displayName(f.fn)}' has ${f.malformedMetadata} operand(s) that are not i32 values; they are ignored`,
        location: { function: f.fn.name },
      });
    }
  }

  // Conditional calls: which semantics.
  const semantics = chooseSemantics(facts, options.conditionalSemantics ?? 'auto', report);
  const recordsUsed = semantics === 'intel-llvm-prototype' ? unconditionallyCalled(facts) : undefined;

  // Own aspects (a function's existing !sycl_used_aspects counts as used), then their closure
  // over plain calls and virtual-function sets.
  const own: (AspectSet | undefined)[] = facts.map((f) => {
    const usedMd = f.usedMetadata === undefined || f.usedMetadata.length === 0 ? undefined : new AspectSet(f.usedMetadata);
    const direct = recordsUsed === undefined || recordsUsed[f.index] === 1 ? f.direct : undefined;
    if (usedMd === undefined) return direct;
    if (direct === undefined) return usedMd;
    const merged = direct.clone();
    merged.addAll(usedMd);
    return merged;
  });
  const declaredOwn = facts.map((f) => (f.declaredMetadata === undefined || f.declaredMetadata.length === 0 ? undefined : new AspectSet(f.declaredMetadata)));
  const successors = callGraphSuccessors(facts);
  const closed = recordsUsed === undefined ? undefined : (node: number): boolean => recordsUsed[node] === 1;
  const components = componentsOf(successors, walked === undefined ? undefined : walk);
  // Most programs declare no aspect: then the closure is each function's own (empty) set.
  const declared = declaredOwn.some((set) => set !== undefined) ? closeOverCallGraph(successors, declaredOwn, closed, components) : declaredOwn;
  const used = closeOverCallGraph(successors, own, closed, components);

  // What `!sycl_used_aspects` will hold: used minus excluded, plus declared, plus what it had.
  const saved: (AspectSet | undefined)[] = facts.map((f) => {
    // Nothing to take out or add (the list it had is part of what it uses): the used set itself.
    const usedSet = used[f.index];
    const declaredSet = declared[f.index];
    if (usedSet === undefined && declaredSet === undefined) return undefined;
    if (usedSet !== undefined && (declaredSet?.size ?? 0) === 0 && !containsAny(usedSet, excluded)) return usedSet;
    let out: AspectSet | undefined;
    for (const aspect of usedSet ?? []) {
      if (excluded.has(aspect)) continue;
      out ??= new AspectSet();
      out.add(aspect);
    }
    for (const aspect of declaredSet ?? []) {
      out ??= new AspectSet();
      out.add(aspect);
    }
    if (out !== undefined && f.usedMetadata !== undefined) out.addAll(f.usedMetadata);
    return out;
  });

  if (options.validate !== false) {
    const directUses = new DirectUseWalker(module, types, fp64, options.fp64ConvEmu === true);
    const input: ValidationInput = { module, facts, successors, own, used, declared, directUses, aspectName, report };
    checkDeclaredAspects(input);
    const targets = options.fixedTargets ?? [];
    if (targets.length > 0) {
      checkFixedTargets({ ...input, targets, config: options.deviceConfig ?? DeviceConfig.builtin(), aspectTable: deviceAspectTable });
    }
  }

  let changed = false;
  // Conditionally used aspects.
  if (semantics !== undefined) {
    const condKind = SyclMetadata.conditionallyUsedAspects;
    const byFunction = conditionalAspects({
      facts,
      semantics,
      saved,
      ...(semantics === 'design' ? { architectureAspects: architectureAspects(options.deviceConfig ?? DeviceConfig.builtin(), deviceAspectTable) } : {}),
    });
    for (const [index, result] of byFunction) {
      if (result.alwaysUsed.length > 0) {
        const set = saved[index]?.clone() ?? new AspectSet();
        set.addAll(result.alwaysUsed);
        saved[index] = set;
      }
      const pairs = result.pairs
        .map((p) => ({ condition: p.condition, aspects: p.aspects.filter((a) => !excluded.has(a)) }))
        .filter((p) => p.aspects.length > 0);
      if (semantics === 'design' && pairs.length === 0) continue;
      const node = context.md.tuple(
        pairs.map((p) => context.md.tuple([aspectListNode(context, p.condition), aspectListNode(context, p.aspects)])),
      );
      changed = attach(facts[index]!, condKind, context.md.kinds.id(condKind), node, module) || changed;
    }
  }

  // Functions share sets (a caller that adds nothing to its callee's): one node per set.
  const nodes = new Map<AspectSet, MDNode>();
  const usedId = context.md.kinds.id(SyclMetadata.usedAspects);
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    const set = saved[f.index];
    if (set === undefined || set.size === 0) continue;
    let node = nodes.get(set);
    if (node === undefined) nodes.set(set, (node = aspectListNode(context, set)));
    changed = attach(f, SyclMetadata.usedAspects, usedId, node, module) || changed;
  }

  // !sycl_fixed_targets on every entry point (only when the module has an aspect table: the
  // target names are looked up there, as intel/llvm does).
  if (table.present) {
    const values: number[] = [];
    for (const target of options.fixedTargets ?? []) {
      if (target === '') continue;
      const value = table.valueOf(target);
      if (value !== undefined) values.push(value);
    }
    const node = aspectListNode(context, values);
    // The kind is registered at its first attachment (registration order decides printing order).
    let fixedId: number | undefined;
    for (let i = 0; i < facts.length; i++) {
      if (facts[i]!.entryPoint) changed = attach(facts[i]!, SyclMetadata.fixedTargets, (fixedId ??= context.md.kinds.id(SyclMetadata.fixedTargets)), node, module) || changed;
    }
  }
  return { diagnostics, changed, conditionalSemantics: semantics };
}

function containsAny(set: AspectSet, values: ReadonlySet<number>): boolean {
  if (values.size === 0) return false;
  for (const value of set) if (values.has(value)) return true;
  return false;
}

/** Attaches `node` under `kind` (whose id is `id`) unless it is already there; true when something changed. */
function attach(f: FunctionFacts, kind: string, id: number, node: MDNode, module: Module): boolean {
  const attachments = f.fn.attachments;
  for (let i = 0; i < attachments.length; i++) {
    if (attachments[i]!.kind !== id) continue;
    if (attachments[i]!.node === node) return false;
    break;
  }
  setMetadata(f.fn, module.context, kind, node);
  return true;
}

/** Excluded aspect values: names looked up in `!sycl_aspects`, or decimal numbers. */
function excludedValues(
  items: readonly string[],
  table: { valueOf(name: string): number | undefined },
  report: (d: DiagnosticInput) => void,
): Set<number> {
  const values = new Set<number>();
  for (const raw of items) {
    const item = raw.trim();
    if (item === '') continue;
    const byName = table.valueOf(item);
    if (byName !== undefined) values.add(byName);
    else if (/^-?\d+$/.test(item)) values.add(Number(item));
    else {
      report({
        code: 'unknown-excluded-aspect',
        message: `excluded aspect '${item}' is not in !sycl_aspects; it is ignored`,
      });
    }
  }
  return values;
}

/** The semantics for conditional calls, or undefined when the module has none. */
function chooseSemantics(
  facts: readonly FunctionFacts[],
  option: ConditionalSemanticsOption,
  report: (d: DiagnosticInput) => void,
): ConditionalSemantics | undefined {
  if (!facts.some((f) => f.conditionalCalls.length > 0)) return undefined;
  if (option === 'intel-llvm-prototype') return option;
  const problems = conditionProblems(facts);
  if (problems.length === 0) return 'design';
  if (option === 'design') {
    for (const p of problems) {
      report({
        code: 'invalid-condition',
        message: `the condition of the call from '${displayName(p.caller.fn)}' to '${displayName(facts[p.call.callee]!.fn)}' is not a Condition Expression: ${p.message}`,
        location: instructionLocation(p.call.instruction, p.caller.fn),
      });
    }
    return undefined;
  }
  const first = problems[0]!;
  report({
    code: 'conditional-aspects-prototype',
    message:
      `the condition of the call from '${displayName(first.caller.fn)}' to '${displayName(facts[first.call.callee]!.fn)}' is not a Condition Expression (${first.message})` +
      (problems.length > 1 ? ` and ${problems.length - 1} more are not either` : '') +
      '; conditionally used aspects follow the intel/llvm prototype (sets of integers) instead of DeviceIf.md',
    location: instructionLocation(first.call.instruction, first.caller.fn),
  });
  return 'intel-llvm-prototype';
}

/**
 * Successors for propagation: plain direct calls, then — for a function with `"calls-indirectly"`
 * that uses those sets — every function of the named `"indirectly-callable"` sets (sets in the
 * order listed, functions in module order).
 *
 * A function uses its sets when its static call graph makes a virtual call (a call marked
 * `"virtual-call"`), as in intel/llvm today: "construction" kernels, which only store a vtable and
 * to which SYCLVirtualFunctionsAnalysis adds `"calls-indirectly"`, must not pull in the aspects of
 * the virtual functions (VirtualFunctions.md). A function with the attribute that neither makes a
 * virtual call nor uses a vtable cannot have got it from that analysis, so the attribute is the
 * user's `calls_indirectly` property, and the design says such a kernel uses the sets.
 */
function callGraphSuccessors(facts: readonly FunctionFacts[]): (readonly number[])[] {
  const successors = facts.map((f) => f.callees);
  const sets = new Map<string, number[]>();
  for (const f of facts) {
    if (f.indirectlyCallable === undefined) continue;
    const members = sets.get(f.indirectlyCallable) ?? [];
    members.push(f.index);
    sets.set(f.indirectlyCallable, members);
  }
  if (sets.size === 0 || !facts.some((f) => f.callsIndirectly.length > 0)) return successors;

  // Which functions reach a virtual call, or a vtable, through plain calls.
  const virtualCall = reachesThroughCalls(successors, (i) => facts[i]!.makesVirtualCall);
  const vtable = reachesThroughCalls(successors, (i) => facts[i]!.referencesVtable);

  const withSets = successors.slice();
  for (const f of facts) {
    if (f.callsIndirectly.length === 0) continue;
    if (virtualCall[f.index] === 0 && vtable[f.index] === 1) continue;
    const list = f.callees.slice();
    const present = new Set(list);
    for (const setName of f.callsIndirectly) {
      for (const member of sets.get(setName) ?? []) {
        if (present.has(member)) continue;
        present.add(member);
        list.push(member);
      }
    }
    withSets[f.index] = list;
  }
  return withSets;
}

/** 1 for nodes that satisfy `holds` themselves or call (transitively) one that does. */
function reachesThroughCalls(successors: readonly (readonly number[])[], holds: (node: number) => boolean): Uint8Array {
  const reaches = new Uint8Array(successors.length);
  for (const component of stronglyConnectedComponents(successors)) {
    let any = false;
    for (const member of component) {
      if (holds(member) || successors[member]!.some((c) => reaches[c] === 1)) {
        any = true;
        break;
      }
    }
    if (any) for (const member of component) reaches[member] = 1;
  }
  return reaches;
}

/** One run of the two-run scheme (OptionalDeviceFeatures.md, "Pre- and post-optimization aspect propagation"). */
export interface PropagationRun {
  /** Options for {@link propagateAspectsUsage}. */
  readonly options: PropagateAspectsOptions;
  /** The same run as pipeline text. */
  readonly pipeline: string;
}

/**
 * Before optimization: fp64 is not saved (the optimizer may remove a use, such as a `3.14` literal
 * that becomes a float) but still drives the warnings.
 */
export const PRE_OPTIMIZATION: PropagationRun = Object.freeze({
  options: Object.freeze({ excludeAspects: Object.freeze(['fp64']), validate: true }),
  pipeline: 'sycl-propagate-aspects-usage<exclude-aspects=fp64>',
});

/** After optimization: every aspect is saved and nothing is reported again. */
export const POST_OPTIMIZATION: PropagationRun = Object.freeze({
  options: Object.freeze({ validate: false }),
  pipeline: 'sycl-propagate-aspects-usage<no-validate>',
});

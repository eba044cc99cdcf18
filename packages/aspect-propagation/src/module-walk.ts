/**
 * One walk over a module for both users of its direct aspect uses: the pass's per-function facts
 * (function-facts.ts, as `collectFunctionFacts` gives them without `-fsycl-fp64-conv-emu`) and the
 * provenance of every use (direct-uses.ts, as `directAspectUses` gives them). A driver that
 * explains aspect uses (syclkit compile's explanation facts) walks a translation unit before the
 * pass runs on it; as the `aspect-function-facts` analysis, that walk is handed to the pass, which
 * takes it instead of walking again while the module is unchanged (every pass in between
 * preserved the analysis; `sycl-conditional-call-on-device` does when it finds no conditional
 * call).
 */
import { moduleKind, type Instruction, type Module } from '@syclkit/ir';
import { defineAnalysis } from '@syclkit/pass-manager';
import type { AspectSet } from './aspect-set.js';
import { DirectUseWalker, type AspectUse, type FunctionAspectUses } from './direct-uses.js';
import { FactsCollector, type CollectOptions, type FunctionFacts } from './function-facts.js';
import { readModuleRules } from './module-rules.js';
import { isEntryPoint } from '@syclkit/sycl-conventions';
import type { TypeAspects } from './type-aspects.js';
import { stronglyConnectedComponents } from './call-graph.js';

/** What one walk over a module found. */
export interface ModuleWalk {
  /** The module walked (its function order is that of {@link facts} and {@link uses}). */
  readonly module: Module;
  /** The pass's facts (`collectFunctionFacts` with the module's rules, fp64 conversions not emulated). */
  readonly facts: readonly FunctionFacts[];
  /** The provenance of each function's direct uses (`directAspectUses` with its defaults). */
  readonly uses: readonly FunctionAspectUses[];
  /** The types' aspects the walk used (the module's rules then). */
  readonly types: TypeAspects;
}

const NO_USES = Object.freeze([]) as unknown as AspectUse[];

/** Walks `module` once for both (reading only: no metadata kind is registered). */
export function walkModule(module: Module): ModuleWalk {
  const { types, fp64 } = readModuleRules(module, []);
  const walker = new DirectUseWalker(module, types, fp64, false);
  const current: AspectUse[] = [];
  const aspectsOf = (inst: Parameters<DirectUseWalker['instructionUses']>[0]): AspectSet | undefined => walker.instructionUses(inst, current);
  const collector = new FactsCollector(module, { types, fp64, fp64ConvEmu: false }, aspectsOf, true);
  const functions = module.functions;
  const facts: FunctionFacts[] = new Array<FunctionFacts>(functions.length);
  const uses: FunctionAspectUses[] = new Array<FunctionAspectUses>(functions.length);
  for (let index = 0; index < functions.length; index++) {
    const fn = functions[index]!;
    walker.signatureUses(fn, current);
    facts[index] = collector.factsOf(fn, index);
    // The uses live as long as the walk: a list of their exact size, one shared empty list for
    // the many functions with none (no metadata to add either).
    const found = current.length > 0 ? current.slice() : fn.attachments.length > 0 ? [] : NO_USES;
    current.length = 0;
    uses[index] = walker.functionUses(fn, found);
  }
  return { module, facts, uses, types };
}

/**
 * `aspect-function-facts`: {@link walkModule} as a module analysis. The pass only takes a cached
 * result (it never computes it): any pass that changes the module drops it.
 */
export const moduleWalkAnalysis = defineAnalysis({
  name: 'aspect-function-facts',
  unit: moduleKind,
  summary: "Per function: the aspects it uses itself and where from, its calls and aspect metadata (one walk for the aspect pass and explanations).",
  run: (module: Module): ModuleWalk => walkModule(module),
});

/**
 * The pass's facts for `module` (what `collectFunctionFacts(module, options)` gives) from `walk`,
 * a walk of another module with the same function bodies: `module` holds exactly the walked
 * function objects, in any order, and the caller promises that nothing of their bodies changed
 * since but types, and those only for isomorphic ones (a single translation unit linked into the
 * program: llvm-link merges isomorphic struct types, `LinkFacts.valuesUnchanged`). Only the
 * signatures and the instructions the walk found aspects in are looked at again, under `module`'s
 * rules, which must find no more than the walk's did (the linked program has no
 * `!sycl_types_that_use_aspects`; `double` is found the same way through isomorphic types); the
 * calls are the walk's, renumbered.
 *
 * Undefined (walk the module instead) when the functions differ, the rules could find more, or
 * the module has conditional callers or virtual functions (their facts depend on more than bodies).
 */
export function carryFacts(walk: ModuleWalk, module: Module, options: CollectOptions): FunctionFacts[] | undefined {
  const walked = walk.facts;
  const functions = module.functions;
  if (options.fp64ConvEmu || walked.length !== functions.length || !walk.types.covers(options.types)) return undefined;
  const collector = new FactsCollector(module, options);
  if (collector.hasConditionalCallers || collector.hasIndirectlyCallable) return undefined;
  for (let k = 0; k < walked.length; k++) {
    const w = walked[k]!;
    if (w.conditionalCaller || w.conditionalCalls.length > 0 || w.indirectlyCallable !== undefined || w.referencesVtable) return undefined;
  }
  // Where each walked function is now (undefined: where it was, and the calls keep their numbers).
  let at: Int32Array | undefined;
  for (let k = 0; k < walked.length; k++) {
    if (functions[k] === walked[k]!.fn) continue;
    at = new Int32Array(walked.length);
    const placed = new Uint8Array(walked.length);
    for (let j = 0; j < walked.length; j++) {
      const index = collector.indexOfFunction(walked[j]!.fn);
      if (index === undefined || placed[index] === 1) return undefined;
      placed[index] = 1;
      at[j] = index;
    }
    break;
  }
  const facts = new Array<FunctionFacts>(functions.length);
  for (let k = 0; k < walked.length; k++) {
    const w = walked[k]!;
    const fn = w.fn;
    const index = at === undefined ? k : at[k]!;
    const { callsIndirectly, indirectlyCallable } = collector.virtualSets(fn);
    const lists = collector.aspectLists(fn);
    const uses = walk.uses[k]!.uses;
    facts[index] = {
      fn,
      index,
      entryPoint: isEntryPoint(fn),
      conditionalCaller: false,
      direct: bodyUses(uses) ? collector.directOf(fn, aspectInstructions(uses)) : undefined,
      usedMetadata: lists?.used,
      declaredMetadata: lists?.declared,
      callees: at === undefined ? w.callees : w.callees.map((c) => at[c]!),
      calleeCalls: w.calleeCalls,
      conditionalCalls: w.conditionalCalls,
      makesVirtualCall: w.makesVirtualCall,
      referencesVtable: false,
      callsIndirectly,
      indirectlyCallable,
      malformedMetadata: lists?.malformed ?? 0,
    };
  }
  return facts;
}

const walkComponents = new WeakMap<ModuleWalk, number[][]>();

/**
 * `stronglyConnectedComponents(successors)`, made once per walk when `successors` are the walk's
 * own call lists (the same arrays): both propagation runs over one unit's bodies share them.
 * Treat the result as read-only.
 */
export function componentsOf(successors: readonly (readonly number[])[], walk: ModuleWalk | undefined): number[][] {
  if (walk === undefined || !sameLists(successors, walk.facts)) return stronglyConnectedComponents(successors);
  let components = walkComponents.get(walk);
  if (components === undefined) walkComponents.set(walk, (components = stronglyConnectedComponents(successors)));
  return components;
}

function sameLists(successors: readonly (readonly number[])[], facts: readonly FunctionFacts[]): boolean {
  if (successors.length !== facts.length) return false;
  for (let i = 0; i < successors.length; i++) if (successors[i] !== facts[i]!.callees) return false;
  return true;
}

/**
 * Whether the walk found a use in the signature or an instruction: without one, nothing there has
 * an aspect under the walk's rules, nor (see TypeAspects.covers) under rules that find no more.
 */
function bodyUses(uses: readonly AspectUse[]): boolean {
  for (let i = 0; i < uses.length; i++) if (uses[i]!.kind !== 'function-metadata') return true;
  return false;
}

/** The instructions of a function's uses, each once, in order (a walk records an instruction's uses together). */
function aspectInstructions(uses: readonly AspectUse[]): Instruction[] {
  const out: Instruction[] = [];
  for (const use of uses) {
    if (use.kind !== 'instruction' && use.kind !== 'instruction-metadata') continue;
    if (out[out.length - 1] !== use.instruction) out.push(use.instruction);
  }
  return out;
}

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
import { moduleKind, type Module } from '@syclkit/ir';
import { defineAnalysis } from '@syclkit/pass-manager';
import type { AspectSet } from './aspect-set.js';
import { DirectUseWalker, type AspectUse, type FunctionAspectUses } from './direct-uses.js';
import { FactsCollector, type FunctionFacts } from './function-facts.js';
import { readModuleRules } from './module-rules.js';

/** What one walk over a module found. */
export interface ModuleWalk {
  /** The pass's facts (`collectFunctionFacts` with the module's rules, fp64 conversions not emulated). */
  readonly facts: readonly FunctionFacts[];
  /** The provenance of each function's direct uses (`directAspectUses` with its defaults). */
  readonly uses: readonly FunctionAspectUses[];
}

/** Walks `module` once for both (reading only: no metadata kind is registered). */
export function walkModule(module: Module): ModuleWalk {
  const { types, fp64 } = readModuleRules(module, []);
  const walker = new DirectUseWalker(module, types, fp64, false);
  let current: AspectUse[] = [];
  const aspectsOf = (inst: Parameters<DirectUseWalker['instructionUses']>[0]): AspectSet | undefined => walker.instructionUses(inst, current);
  const collector = new FactsCollector(module, { types, fp64, fp64ConvEmu: false }, aspectsOf, true);
  const functions = module.functions;
  const facts: FunctionFacts[] = new Array<FunctionFacts>(functions.length);
  const uses: FunctionAspectUses[] = new Array<FunctionAspectUses>(functions.length);
  for (let index = 0; index < functions.length; index++) {
    const fn = functions[index]!;
    current = [];
    walker.signatureUses(fn, current);
    facts[index] = collector.factsOf(fn, index);
    uses[index] = walker.functionUses(fn, current);
  }
  return { facts, uses };
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

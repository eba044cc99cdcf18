/**
 * device_if in sycl-post-link (DeviceIf.md).
 *
 * Non-AOT ("add-on images"): the split does not follow the action pointer of a call to a
 * _Conditional Caller_, so actions stay out of main images. For each image, every
 * `call @cc(@Action, %this, N1, N2, …)` becomes `call @Action(%this)` (or `@Action.G` for a
 * duplicate), with an association table per image (action, condition, generation):
 * - a new action the image does not define gets generation 1;
 * - the same action with the same condition reuses its entry;
 * - otherwise (another condition, or the image also calls the action directly) a fresh
 *   generation G makes `@Action.G` globally unique.
 * Actions are then grouped by (condition, used aspects); each group gets a pair of add-on images
 * with a shared id: the real one (the actions and their call trees, external linkage, processed
 * again as a main image) and a stub one (empty bodies). The main image lists the pairs in
 * `SYCL/add on images` (id → int32 condition), each add-on image says which one it is in
 * `SYCL/add on image` (id → 1 real / 0 stub).
 *
 * AOT: conditions are decided for the target before the split (device-if's
 * `resolveConditionalCallsForTarget`), which also gives the kernels the actions' aspects.
 */
import {
  conditionalCallerForm,
  conditionalCallSite,
  resolveConditionalCallsForTarget,
  targetDeviceFacts,
} from '@syclkit/device-if';
import type { DeviceConfig } from '@syclkit/device-config';
import { boolValue, uint32ArrayValue, type PropertyValue } from '@syclkit/formats';
import { AttributeList, CallInst, Instruction, computeUses, deleteFunctions, type IRFunction, type Module, type Value } from '@syclkit/ir';
import { isEntryPoint } from '@syclkit/sycl-conventions';
import { stubModule } from './stubs.js';
import type { DependencyGraphOptions } from './dependency-graph.js';
import type { ImageProcessor, PostLinkDiagnostic, ProcessedImage, ProcessorContext } from './post-link.js';
import type { SplitImage, SplitPlan } from './split.js';
import { functionFeatures } from './sycl-metadata.js';

/** Names of the two property sets of DeviceIf.md. */
export const ADD_ON_IMAGES_SET = 'SYCL/add on images';
export const ADD_ON_IMAGE_SET = 'SYCL/add on image';

/** A call to a conditional caller in declaration form (after `sycl-conditional-call-on-device`). */
export function isConditionalCallerDeclaration(fn: IRFunction | undefined): boolean {
  return fn !== undefined && conditionalCallerForm(fn) === 'declaration';
}

/** Dependency-graph options for non-AOT device_if: do not follow the action pointer. */
export function deviceIfGraphOptions(): DependencyGraphOptions {
  return { ignoreCallOperand: (call, index) => index === 1 && isConditionalCallerDeclaration(call.calledFunction) };
}

/** Whether a module has calls to conditional callers in declaration form. */
export function hasConditionalCalls(module: Module): boolean {
  for (const fn of module.functions) {
    if (!isConditionalCallerDeclaration(fn)) continue;
    for (const f of module.functions) for (const inst of f.instructions()) if (inst instanceof CallInst && inst.calledFunction === fn) return true;
  }
  return false;
}

interface TableEntry {
  readonly action: IRFunction;
  readonly condition: readonly number[];
  readonly conditionKey: string;
  readonly name: string;
}

/** Images produced for device_if, and the diagnostics found on the way. */
export class AddOnImageProcessor implements ImageProcessor {
  /** Generation numbers already given out, per action name (gen 1 is the action's own name). */
  readonly #generations = new Map<string, number>();
  /** Add-on pairs already emitted: content key → pair id (identical pairs are shared). */
  readonly #pairs = new Map<string, string>();
  #nextPair = 1;

  constructor(
    private readonly source: Module,
    private readonly plan: () => SplitPlan,
  ) {}

  process(image: SplitImage, context: ProcessorContext): ProcessedImage[] {
    return this.processImage(image.module, image.entryPoints.map((fn) => fn.name), image.esimd, () => image.materialize(), context);
  }

  private processImage(view: Module, entryNames: readonly string[], esimd: boolean, materialize: () => Module, context: ProcessorContext): ProcessedImage[] {
    if (!hasConditionalCalls(view)) return [{ module: view, entryPoints: entries(view, entryNames), esimd }];
    const module = materialize();
    const table = new Map<string, TableEntry[]>();
    const sites: { call: CallInst; entry: TableEntry; callable: Value }[] = [];
    for (const fn of module.functions) {
      for (const block of fn.blocks) {
        for (const inst of block.instructions) {
          if (!(inst instanceof CallInst) || !isConditionalCallerDeclaration(inst.calledFunction)) continue;
          const site = conditionalCallSite(inst, inst.calledFunction!, 'declaration');
          const condition = site.conditionArgs.map((v) => (v.vk === 'int' ? Number(v.value) : Number.NaN));
          if (site.action === undefined || site.callable === undefined || condition.some(Number.isNaN)) {
            context.report(problem('bad-conditional-call', `in function '${fn.name}': a call to '${inst.calledFunction!.name}' needs a function, a callable object and constant condition operands`));
            continue;
          }
          const action = this.source.getFunction(site.action.name) ?? site.action;
          const conditionKey = condition.join(',');
          const list = table.get(action.name) ?? [];
          let entry = list.find((e) => e.conditionKey === conditionKey);
          if (entry === undefined) {
            const definedHere = module.getFunction(action.name)?.isDeclaration === false;
            const name = list.length === 0 && !definedHere ? action.name : this.freshName(action.name);
            entry = { action, condition, conditionKey, name };
            list.push(entry);
            table.set(action.name, list);
          }
          sites.push({ call: inst, entry, callable: site.callable });
        }
      }
    }
    for (const { call, entry, callable } of sites) rewriteCall(module, call, entry, callable);
    removeUnusedCallers(module);

    // Group the actions by (condition, used aspects) into add-on image pairs.
    const groups = new Map<string, TableEntry[]>();
    for (const list of table.values()) {
      for (const entry of list) {
        const aspects = functionFeatures(this.source, entry.action).usedAspects.map((a) => a.value).sort((a, b) => a - b).join(',');
        const key = `${entry.conditionKey}|${aspects}`;
        const group = groups.get(key) ?? [];
        group.push(entry);
        groups.set(key, group);
      }
    }
    const mainSet: [string, PropertyValue][] = [];
    const extra: ProcessedImage[] = [];
    for (const group of groups.values()) {
      const contentKey = `${group[0]!.conditionKey}|${group.map((e) => `${e.action.name}=${e.name}`).sort().join(';')}`;
      let pair = this.#pairs.get(contentKey);
      if (pair === undefined) {
        pair = String(this.#nextPair++);
        this.#pairs.set(contentKey, pair);
        extra.push(...this.realImage(group, pair, context), this.stubImage(group, pair));
      }
      mainSet.push([pair, uint32ArrayValue(group[0]!.condition)]);
    }
    mainSet.sort((a, b) => Number(a[0]) - Number(b[0]));
    return [{ module, entryPoints: entries(module, entryNames), esimd, extraSets: [[ADD_ON_IMAGES_SET, mainSet]] }, ...extra];
  }

  /** The add-on image with the actions' real definitions (processed again as a main image). */
  private realImage(group: readonly TableEntry[], pair: string, context: ProcessorContext): ProcessedImage[] {
    const actions = [...new Set(group.map((e) => e.action))];
    const split = this.plan().imageFor(actions, -1, `<ADD-ON ${pair}>`);
    const materialize = (): Module => {
      const module = split.materialize();
      for (const entry of group) {
        const fn = module.getFunction(entry.action.name);
        if (fn === undefined) continue;
        if (entry.name !== entry.action.name) module.renameGlobal(fn, entry.name);
        fn.linkage = 'external';
        fn.comdat = undefined;
      }
      return module;
    };
    const names = group.map((e) => e.name);
    // Renaming or linkage changes need a private copy even without nested conditional calls.
    const processed = this.processImage(materialize(), names, false, materialize, context);
    const [main, ...nested] = processed;
    const withSet: ProcessedImage = { ...main!, extraSets: [...(main!.extraSets ?? []), [ADD_ON_IMAGE_SET, [[pair, boolValue(true)]]]] };
    return [withSet, ...nested];
  }

  /** The add-on image with empty definitions of the actions. */
  private stubImage(group: readonly TableEntry[], pair: string): ProcessedImage {
    const { module, stubs } = stubModule(this.source, group.map((e) => [e.action, e.name] as const));
    return { module, entryPoints: stubs, esimd: false, extraSets: [[ADD_ON_IMAGE_SET, [[pair, boolValue(false)]]]] };
  }

  private freshName(actionName: string): string {
    let gen = this.#generations.get(actionName) ?? 1;
    let name: string;
    do {
      gen++;
      name = `${actionName}.${gen}`;
    } while (this.source.getGlobalValue(name) !== undefined);
    this.#generations.set(actionName, gen);
    return name;
  }

}

function entries(module: Module, names: readonly string[]): IRFunction[] {
  return names.map((n) => module.getFunction(n)).filter((fn): fn is IRFunction => fn !== undefined && !fn.isDeclaration);
}

function problem(code: string, message: string): PostLinkDiagnostic {
  return { severity: 'error', code, message };
}

/** `call @cc(@Action, %this, cond…)` → `call @Action.G(%this)`, casting `this` when its pointer type differs. */
function rewriteCall(module: Module, call: CallInst, entry: TableEntry, callable: Value): void {
  const action = entry.action;
  let target = module.getFunction(entry.name);
  if (target === undefined) {
    target = module.createFunction(entry.name, action.functionType, { addressSpace: action.addressSpace, attributes: action.attributes });
    target.callingConv = action.callingConv;
    target.dsoLocal = action.dsoLocal;
  }
  const block = call.parent!;
  const at = block.instructions.indexOf(call);
  const param = action.functionType.params[0];
  let arg: Value = callable;
  const added: Instruction[] = [];
  if (param !== undefined && param !== callable.type && param.kind === 'pointer' && callable.type.kind === 'pointer') {
    // another address space needs an addrspacecast (it may change a typed pointee too); typed
    // pointers of one address space differ in their pointee only, which is a bitcast
    const opcode = param.addressSpace === callable.type.addressSpace ? 'bitcast' : 'addrspacecast';
    const cast = new Instruction(opcode, param, [callable]);
    cast.parent = block;
    added.push(cast);
    arg = cast;
  }
  const args = param === undefined ? [] : [arg];
  const direct = new CallInst('call', action.functionType.returnType, action.functionType, [target, ...args], AttributeList.empty);
  direct.callingConv = action.callingConv;
  direct.attachments = call.attachments === null ? null : call.attachments.filter((a) => a.kind === 0);
  direct.parent = block;
  added.push(direct);
  block.instructions.splice(at, 1, ...added);
}

/** Conditional caller declarations nothing calls any more are dropped. */
function removeUnusedCallers(module: Module): void {
  const used = new Set<IRFunction>();
  for (const fn of module.functions) {
    for (const inst of fn.instructions()) {
      for (const op of inst.operands) if (op.vk === 'function') used.add(op);
    }
  }
  const dead = new Set(module.functions.filter((fn) => isConditionalCallerDeclaration(fn) && !used.has(fn)));
  module.removeAll(dead);
}

/** AOT: decides every conditional call for `target` in `module` (changed in place). */
export function resolveForTarget(module: Module, config: DeviceConfig, target: string): PostLinkDiagnostic[] {
  const facts = targetDeviceFacts(config, target);
  const actions = conditionalActions(module);
  const result = resolveConditionalCallsForTarget(module, facts, { updateAspects: true, targetName: `'${target}'` });
  // An action whose condition is false on the target is now unreferenced; left in the module (as a
  // split-less run would leave it) its aspects would count against the image.
  const uses = computeUses(module);
  // Device code has no outside callers besides entry points (kernels, SYCL_EXTERNAL), so an
  // unreferenced action that is not one is dead whatever its linkage.
  const dead = [...actions].filter((f) => f.parent === module && !uses.isUsed(f) && !isEntryPoint(f));
  if (dead.length > 0) deleteFunctions(module, dead);
  return result.diagnostics.map((d) => ({ severity: d.severity === 'error' ? 'error' : 'warning', code: d.code, message: d.message }));
}

/** The action functions of the module's conditional calls. */
function conditionalActions(module: Module): Set<IRFunction> {
  const actions = new Set<IRFunction>();
  for (const fn of module.functions) {
    for (const inst of fn.instructions()) {
      if (!(inst instanceof CallInst)) continue;
      const caller = inst.calledFunction;
      const form = caller === undefined ? undefined : conditionalCallerForm(caller);
      if (caller === undefined || form === undefined) continue;
      const action = conditionalCallSite(inst, caller, form).action;
      if (action !== undefined) actions.add(action);
    }
  }
  return actions;
}

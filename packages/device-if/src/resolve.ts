/**
 * AOT resolution of conditional calls for one target: DeviceIf.md's `sycl-post-link` step for AOT
 * targets, and its "Alternate design for AOT targets" (a pass before aspect propagation).
 *
 * Each call to a _Conditional Caller_ has its _Condition Expression_ decided for the target: true
 * turns it into a direct call of the _Conditional Action_ with the callable object, false deletes
 * it. The actions' `!sycl_used_aspects` then become unconditional uses of every function that now
 * reaches them.
 */
import {
  ARCHITECTURES,
  DeviceConfig,
  UnknownTargetError,
  resolveTarget,
  type AspectTable,
} from '@syclkit/device-config';
import {
  AttributeList,
  CallInst,
  Instruction,
  moduleKind,
  type IRFunction,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';
import { PreservedAnalyses, definePass, option, type Diagnostic } from '@syclkit/pass-manager';
import { SyclMetadata, aspectTableOf, readAspectTable } from '@syclkit/sycl-conventions';
import { ambiguousArchitectureOperands, truncateArchitecture } from './architecture.js';
import { ConditionError, decodeCondition, type Condition } from './condition.js';
import { conditionalCallSite, conditionalCallers, type ConditionalCallSite } from './conditional-calls.js';
import { decideCondition, type DeviceFacts } from './evaluate.js';
import { createConditionNames, formatCondition, type ConditionNames } from './format.js';
import {
  appendUsedAspects,
  debugAttachmentOf,
  debugLocationOf,
  dropFunctionMetadata,
  eraseInstruction,
  functionReferences,
  insertBefore,
  int32Value,
  readUsedAspects,
  replaceInstruction,
} from './ir-utils.js';
import { RESOLVE_DEVICE_IF_DIAGNOSTICS, deviceIfDiagnostic, type DeviceIfDiagnosticCode } from './diagnostics.js';
import { targetDeviceFacts } from './targets.js';

export interface ResolveConditionalCallsOptions {
  /**
   * Add each called action's `!sycl_used_aspects` to every function that now reaches it, and drop
   * `!sycl_conditionally_used_aspects` everywhere once no conditional call is left. Needed after
   * aspect propagation (post-link); harmless before it, where actions carry no such metadata yet.
   * (default: `true`)
   */
  readonly updateAspects?: boolean;
  /**
   * `enum architecture` names and 64-bit values, for the warning about ambiguous architecture
   * operands and for printing conditions in messages.
   * (default: device-config's `ARCHITECTURES` without `unknown`)
   */
  readonly architectures?: Iterable<readonly [name: string, value: bigint]>;
  /**
   * Names for aspects in messages and for new `!{!"name", i32 N}` entries of `!sycl_used_aspects`
   * lists that use that form.
   * (default: the module's `!sycl_aspects`, then device-config's built-in table)
   */
  readonly aspectTable?: AspectTable;
  /** Name of the target for messages (default: `the target`, or the `target` field of the facts). */
  readonly targetName?: string;
}

/** What happened to one call to a conditional caller. */
export type ConditionalCallOutcome = 'called' | 'removed' | 'kept';

export interface ResolvedConditionalCall {
  /** The function the call is in. */
  readonly function: string;
  /** The conditional caller it called. */
  readonly caller: string;
  /** The action, when it could be found. */
  readonly action: string | undefined;
  /** The condition's integers, when they are constants. */
  readonly condition: readonly number[] | undefined;
  /** `called`: now a direct call of the action; `removed`: deleted; `kept`: left alone (see the diagnostics). */
  readonly outcome: ConditionalCallOutcome;
}

export interface ConditionalCallResolution {
  readonly changed: boolean;
  /** Every call to a conditional caller, in module order. */
  readonly calls: readonly ResolvedConditionalCall[];
  readonly diagnostics: readonly Diagnostic[];
  /** Aspects added to `!sycl_used_aspects`, by function name, in the order added. */
  readonly addedAspects: ReadonlyMap<string, readonly number[]>;
  /** Conditional callers deleted because nothing referred to them any more. */
  readonly removedCallers: readonly string[];
}

const DEFAULT_ARCHITECTURES: readonly (readonly [string, bigint])[] = ARCHITECTURES.filter((info) => info.family !== 'unknown').map(
  (info) => [info.name, info.value] as const,
);

/**
 * Resolves every call to a conditional caller for one AOT target.
 *
 * Calls in both shapes are handled (see `conditional-calls.ts`): to the declarations
 * `sycl-conditional-call-on-device` leaves (`cc(@action, this, cond…)`) and to caller definitions
 * the pass has not rewritten (`cc(this, cond…)`, the action being the one call in `cc`'s body).
 *
 * - The condition is decided with {@link decideCondition}. When it is true the call becomes
 *   `call @action(this)` (with an `addrspacecast` when the action takes `this` in another address
 *   space, as SPIR-V's `ptr addrspace(4)` does), keeping the old call's debug location; when it is
 *   false the call is deleted. A call whose condition is not constant, does not decode or cannot be
 *   decided for the target is kept and reported; so is a call whose action cannot take the callable.
 * - Conditional callers nothing refers to any more are deleted (caller definitions only when their
 *   linkage lets them be discarded).
 * - With `updateAspects`, see {@link ResolveConditionalCallsOptions.updateAspects}.
 *
 * The result does not depend on the order of the module's functions beyond the order of the lists
 * it returns.
 */
export function resolveConditionalCallsForTarget(
  module: Module,
  target: DeviceFacts,
  options: ResolveConditionalCallsOptions = {},
): ConditionalCallResolution {
  const context = module.context;
  const updateAspects = options.updateAspects ?? true;
  const architectures = [...(options.architectures ?? DEFAULT_ARCHITECTURES)];
  const aspectTable = options.aspectTable ?? aspectTableOf(module);
  const names: ConditionNames = createConditionNames({
    aspects: aspectTable.values().map((value) => [aspectTable.nameOf(value)!, value] as const),
    architectures,
  });
  const targetName =
    options.targetName ?? ('target' in target && typeof target.target === 'string' ? `'${target.target}'` : 'the target');
  const diagnostics: Diagnostic[] = [];
  const calls: ResolvedConditionalCall[] = [];
  const callers = conditionalCallers(module);

  // Collect first, then rewrite: rewriting must not disturb the walk.
  const sites: ConditionalCallSite[] = [];
  for (const fn of module.functions) {
    for (const inst of fn.instructions()) {
      if (inst.opcode !== 'call' && inst.opcode !== 'invoke' && inst.opcode !== 'callbr') continue;
      const callee = (inst as CallInst).calledFunction;
      const form = callee === undefined ? undefined : callers.get(callee);
      if (callee === undefined || form === undefined) continue;
      if (inst.opcode !== 'call') {
        diagnostics.push(diagnosticAt('conditional-call-unsupported', `@${callee.name} is reached through ${inst.opcode}; only call is supported`, fn, inst));
        calls.push({ function: fn.name, caller: callee.name, action: undefined, condition: undefined, outcome: 'kept' });
        continue;
      }
      sites.push(conditionalCallSite(inst as CallInst, callee, form));
    }
  }

  const calledActions: IRFunction[] = [];
  let changed = false;
  for (const site of sites) {
    const record = (outcome: ConditionalCallOutcome, condition: readonly number[] | undefined): void => {
      calls.push({ function: site.function.name, caller: site.caller.name, action: site.action?.name, condition, outcome });
    };
    const report = (code: DeviceIfDiagnosticCode, message: string): void => {
      diagnostics.push(diagnosticAt(code, message, site.function, site.call));
    };
    if (site.action === undefined) {
      report(
        'conditional-caller-malformed',
        site.form === 'definition'
          ? `conditional caller '${site.caller.name}' must contain exactly one direct call (intrinsics aside)`
          : `the first argument of the call to '${site.caller.name}' is not a function`,
      );
      record('kept', undefined);
      continue;
    }
    const values = site.conditionArgs.map(int32Value);
    if (values.length === 0 || values.some((value) => value === undefined)) {
      report('condition-not-constant', `the condition of the call to '${site.caller.name}' is not a list of integer constants`);
      record('kept', undefined);
      continue;
    }
    const sequence = values as number[];
    let condition: Condition;
    try {
      condition = decodeCondition(sequence);
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      report('condition-undecodable', `the condition [${sequence.join(', ')}] of the call to '${site.caller.name}' does not decode: ${error.message}`);
      record('kept', sequence);
      continue;
    }
    const decision = decideCondition(condition, target);
    if (decision === undefined) {
      report(
        'condition-undecided',
        `${targetName} cannot decide '${formatCondition(condition, names)}' (the call to '${site.caller.name}' with action '${site.action.name}'): it may or may not hold on its devices`,
      );
      record('kept', sequence);
      continue;
    }
    if (target.architecture !== undefined) {
      const operand = truncateArchitecture(target.architecture);
      const ambiguous = ambiguousArchitectureOperands(condition, architectures.map(([, value]) => value)).get(operand);
      if (ambiguous !== undefined) {
        const spelled = ambiguous.map((value) => architectures.find(([, v]) => v === value)![0]);
        report(
          'condition-ambiguous-architecture',
          `architecture operand ${operand} in the condition of the call to '${site.caller.name}' stands for ${spelled.join(', ')}; ${targetName} matches it, so the condition is resolved as ${String(decision)}`,
        );
      }
    }
    if (decision) {
      const direct = directCall(site, module);
      if (typeof direct === 'string') {
        report('conditional-action-mismatch', direct);
        record('kept', sequence);
        continue;
      }
      replaceInstruction(site.call, direct.call);
      if (direct.cast !== undefined) insertBefore(direct.cast, direct.call);
      if (!calledActions.includes(site.action)) calledActions.push(site.action);
      record('called', sequence);
    } else {
      eraseInstruction(site.call, context);
      record('removed', sequence);
    }
    changed = true;
  }

  const removedCallers = removeDeadCallers(module, callers);
  if (removedCallers.length > 0) changed = true;

  const addedAspects = new Map<string, number[]>();
  if (updateAspects) {
    const aspectNames = new Map<number, string>();
    for (const [name, value] of readAspectTable(module).pairs) if (!aspectNames.has(value)) aspectNames.set(value, name);
    for (const value of aspectTable.values()) if (!aspectNames.has(value)) aspectNames.set(value, aspectTable.nameOf(value)!);
    for (const [fn, aspects] of propagateActionAspects(module, calledActions)) {
      appendUsedAspects(fn, context, aspects, aspectNames);
      addedAspects.set(fn.name, aspects);
      changed = true;
    }
    if (!hasConditionalCalls(module)) {
      for (const fn of module.functions) if (dropFunctionMetadata(fn, context, SyclMetadata.conditionallyUsedAspects)) changed = true;
    }
  }

  return { changed, calls, diagnostics, addedAspects, removedCallers };
}

function diagnosticAt(code: DeviceIfDiagnosticCode, message: string, fn: IRFunction, inst: Instruction): Diagnostic {
  return deviceIfDiagnostic(code, message, { function: fn.name, debugLoc: debugLocationOf(inst) }, RESOLVE_DEVICE_IF_DIAGNOSTICS[code]!.severity === 'warning' ? 'warning' : 'error');
}

/** The direct call that replaces a conditional call whose condition holds, or why there is none. */
function directCall(site: ConditionalCallSite, module: Module): { call: CallInst; cast: Instruction | undefined } | string {
  const action = site.action!;
  const params = action.functionType.params;
  const callee = `action '${action.name}' of the call to '${site.caller.name}'`;
  if (action.functionType.varArgs) return `the ${callee} is variadic`;
  if (params.length > 1) return `the ${callee} takes ${params.length} parameters; expected at most the callable object`;
  const oldType = site.call.type;
  if (oldType.kind !== 'void' && oldType !== action.returnType) return `the ${callee} returns a different type than the conditional caller`;
  const context = module.context;
  const debug = debugAttachmentOf(site.call, context);
  let cast: Instruction | undefined;
  const args: Value[] = [];
  if (params.length === 1) {
    const callable = site.callable;
    if (callable === undefined) return `the call to '${site.caller.name}' has no callable object for the ${callee}`;
    const wanted = params[0]!;
    if (callable.type === wanted) args.push(callable);
    else {
      const opcode = castOpcode(callable.type, wanted);
      if (opcode === undefined) return `the ${callee} takes ${typeText(wanted)}, but the callable object is ${typeText(callable.type)}`;
      cast = new Instruction(opcode, wanted, [callable]);
      cast.attachments = debug;
      args.push(cast);
    }
  }
  const call = new CallInst('call', action.returnType, action.functionType, [action, ...args], AttributeList.empty);
  call.callingConv = action.callingConv;
  call.attachments = debug;
  return { call, cast };
}

function castOpcode(from: Type, to: Type): 'addrspacecast' | 'bitcast' | undefined {
  if (from.kind !== 'pointer' || to.kind !== 'pointer') return undefined;
  return from.addressSpace !== to.addressSpace ? 'addrspacecast' : 'bitcast';
}

function typeText(type: Type): string {
  if (type.kind === 'pointer') return type.addressSpace === 0 ? 'a pointer' : `a pointer in address space ${type.addressSpace}`;
  return type.kind === 'integer' ? `an i${type.bits}` : `a value of kind ${type.kind}`;
}

/** Deletes conditional callers nothing refers to; returns their names. */
function removeDeadCallers(module: Module, callers: ReadonlyMap<IRFunction, string>): string[] {
  const candidates = new Set([...callers.keys()].filter((fn) => fn.parent === module && (fn.isDeclaration || fn.isDiscardableIfUnused())));
  const references = functionReferences(module, candidates);
  const dead = new Set([...candidates].filter((fn) => references.get(fn)!.length === 0));
  // A caller definition's body may hold the only call to another dead caller's action; that is fine.
  module.removeAll(dead);
  return [...dead].map((fn) => fn.name);
}

function hasConditionalCalls(module: Module): boolean {
  const callers = conditionalCallers(module);
  if (callers.size === 0) return false;
  for (const fn of module.functions) {
    for (const inst of fn.instructions()) {
      const callee = (inst as CallInst).calledFunction;
      if ((inst.opcode === 'call' || inst.opcode === 'invoke' || inst.opcode === 'callbr') && callee !== undefined && callers.has(callee)) {
        return true;
      }
    }
  }
  return false;
}

/**
 * For each function that now reaches a called action (through any chain of direct calls), the
 * action aspects it does not list yet, in the order the actions were first called and each
 * action's list order.
 */
function propagateActionAspects(module: Module, actions: readonly IRFunction[]): Map<IRFunction, number[]> {
  const callersOf = new Map<IRFunction, Set<IRFunction>>();
  for (const fn of module.functions) {
    for (const inst of fn.instructions()) {
      if (inst.opcode !== 'call' && inst.opcode !== 'invoke') continue;
      const callee = (inst as CallInst).calledFunction;
      if (callee === undefined) continue;
      let set = callersOf.get(callee);
      if (set === undefined) callersOf.set(callee, (set = new Set()));
      set.add(fn);
    }
  }
  const context = module.context;
  const current = new Map<IRFunction, Set<number>>();
  const added = new Map<IRFunction, number[]>();
  const listed = (fn: IRFunction): Set<number> => {
    let set = current.get(fn);
    if (set === undefined) current.set(fn, (set = new Set(readUsedAspects(fn, context))));
    return set;
  };
  for (const action of actions) {
    const aspects = readUsedAspects(action, context);
    if (aspects.length === 0) continue;
    const seen = new Set<IRFunction>([action]);
    const queue = [...(callersOf.get(action) ?? [])];
    while (queue.length > 0) {
      const fn = queue.shift()!;
      if (seen.has(fn)) continue;
      seen.add(fn);
      const have = listed(fn);
      for (const aspect of aspects) {
        if (have.has(aspect)) continue;
        have.add(aspect);
        let list = added.get(fn);
        if (list === undefined) added.set(fn, (list = []));
        list.push(aspect);
      }
      for (const caller of callersOf.get(fn) ?? []) if (!seen.has(caller)) queue.push(caller);
    }
  }
  // Module order, so that the metadata written does not depend on the order actions were met in.
  return new Map(module.functions.filter((fn) => added.has(fn)).map((fn) => [fn, added.get(fn)!]));
}

/**
 * `sycl-resolve-device-if<target=…>`: {@link resolveConditionalCallsForTarget} for a target of
 * device-config's built-in configuration, with the module's `!sycl_aspects` numbering.
 */
export const resolveDeviceIfPass = definePass({
  name: 'sycl-resolve-device-if',
  unit: moduleKind,
  summary: 'Resolves conditional calls (device_if / device_architecture) for one AOT target: direct call when the condition holds, none when it does not.',
  options: {
    target: option.string({ doc: 'The AOT target (a -fsycl-targets name or alias, e.g. intel_gpu_pvc)', valueName: 'target' }),
    updateAspects: option.boolean({
      doc: "Add called actions' !sycl_used_aspects to the functions that reach them; drop !sycl_conditionally_used_aspects when no conditional call is left",
      default: true,
    }),
  },
  preserves: 'none',
  diagnostics: RESOLVE_DEVICE_IF_DIAGNOSTICS,
  validate(options) {
    if (options.target === '') return 'needs a target, e.g. sycl-resolve-device-if<target=intel_gpu_pvc>';
    try {
      const resolved = resolveTarget(DeviceConfig.builtin(), options.target);
      if (!resolved.aot) return `'${options.target}' is not an AOT target: its conditional calls are resolved at run time`;
    } catch (error) {
      if (error instanceof UnknownTargetError) return error.message;
      throw error;
    }
    return undefined;
  },
  create: (options) => {
    const config = DeviceConfig.builtin();
    const target = resolveTarget(config, options.target);
    return (module, ctx) => {
      const aspectTable = aspectTableOf(module);
      const facts = targetDeviceFacts(config, target, { aspectTable });
      const result = resolveConditionalCallsForTarget(module, facts, { updateAspects: options.updateAspects, aspectTable });
      for (const diagnostic of result.diagnostics) ctx.report(diagnostic);
      return result.changed ? PreservedAnalyses.none() : PreservedAnalyses.all();
    };
  },
});

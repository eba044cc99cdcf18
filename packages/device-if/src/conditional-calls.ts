/**
 * Conditional callers and calls to them, in both shapes they take in the IR.
 *
 * Before `sycl-conditional-call-on-device` a _Conditional Caller_ is a definition carrying the
 * `"sycl-call-if-on-device-conditionally"` attribute whose body calls the _Conditional Action_:
 *
 *     call void @cc(ptr byval(%fn) %callable, i32 -2, i32 251660032)       ; args: this, condition…
 *
 * After it, the caller is a declaration and the action travels as the first argument:
 *
 *     call void @cc_PREFIX_1(ptr @Action, ptr %callable, i32 -2, i32 251660032)
 */
import { stripPointerCasts, type CallInst, type IRFunction, type Module, type Value } from '@syclkit/ir';
import { SyclAttribute, isKernel } from '@syclkit/sycl-conventions';

/** How a function takes part as a conditional caller, if it does. */
export type ConditionalCallerForm = 'definition' | 'declaration';

/**
 * `definition`: a non-kernel definition with the attribute (what the headers emit). `declaration`:
 * a declaration with the attribute (syclkit's `sycl-conditional-call-on-device` keeps it, as the
 * intel/llvm prototype of conditional aspect propagation expects), or — for output of intel/llvm's
 * own pass, which copies no attributes — a declaration named like `…call_if_on_device_conditionally…`
 * (not `…_helper…`) whose first parameter is a pointer and which has at least two parameters.
 */
export function conditionalCallerForm(fn: IRFunction): ConditionalCallerForm | undefined {
  const marked = fn.attributes.fn.hasString(SyclAttribute.conditionalCaller);
  if (!fn.isDeclaration) return marked && !isKernel(fn) ? 'definition' : undefined;
  if (marked) return 'declaration';
  const params = fn.functionType.params;
  const named = fn.name.includes('call_if_on_device_conditionally') && !fn.name.includes('call_if_on_device_conditionally_helper');
  return named && params.length >= 2 && params[0]!.kind === 'pointer' ? 'declaration' : undefined;
}

/** The calls in a caller definition that count when looking for its action: `call`s, intrinsics aside. */
export function actionCallsOf(caller: IRFunction): CallInst[] {
  const calls: CallInst[] = [];
  for (const inst of caller.instructions()) {
    if (inst.opcode !== 'call') continue;
    const call = inst as CallInst;
    if (call.calledFunction?.isIntrinsic === true) continue;
    calls.push(call);
  }
  return calls;
}

/** One call to a conditional caller, taken apart. */
export interface ConditionalCallSite {
  readonly call: CallInst;
  /** The function the call is in. */
  readonly function: IRFunction;
  readonly caller: IRFunction;
  readonly form: ConditionalCallerForm;
  /** The conditional action, or undefined when it cannot be found (reported by the user of the site). */
  readonly action: IRFunction | undefined;
  /** The callable object (`this` of the action). */
  readonly callable: Value | undefined;
  /** The arguments that carry the Condition Expression. */
  readonly conditionArgs: readonly Value[];
}

/** The action of a caller definition: the callee of its only call, when that call is direct. */
export function actionOfDefinition(caller: IRFunction): IRFunction | undefined {
  const calls = actionCallsOf(caller);
  return calls.length === 1 ? calls[0]!.calledFunction : undefined;
}

/** Takes a call to a conditional caller apart (see the module comment for the two shapes). */
export function conditionalCallSite(call: CallInst, caller: IRFunction, form: ConditionalCallerForm): ConditionalCallSite {
  const args = call.args;
  const fn = call.parent!.parent;
  if (form === 'definition') {
    return { call, function: fn, caller, form, action: actionOfDefinition(caller), callable: args[0], conditionArgs: args.slice(1) };
  }
  const first = args[0] === undefined ? undefined : stripPointerCasts(args[0]);
  return {
    call,
    function: fn,
    caller,
    form,
    action: first?.vk === 'function' ? first : undefined,
    callable: args[1],
    conditionArgs: args.slice(2),
  };
}

/** The conditional callers of a module, in module order, with their form. */
export function conditionalCallers(module: Module): Map<IRFunction, ConditionalCallerForm> {
  const callers = new Map<IRFunction, ConditionalCallerForm>();
  for (const fn of module.functions) {
    const form = conditionalCallerForm(fn);
    if (form !== undefined) callers.set(fn, form);
  }
  return callers;
}

/**
 * `sycl-conditional-call-on-device` (DeviceIf.md, "New IR pass"): every _Conditional Caller_
 * definition becomes an external declaration that receives its _Conditional Action_ as a new first
 * argument, so that nothing can inline the action into its caller or fold the condition away before
 * aspect propagation and post-link see them.
 */
import {
  AttributeList,
  AttributeSet,
  CallInst,
  moduleKind,
  stringAttr,
  type IRFunction,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';
import { PreservedAnalyses, definePass, flag, option, type Diagnostic } from '@syclkit/pass-manager';
import { SyclAttribute, isKernel } from '@syclkit/sycl-conventions';
import { ConditionError, decodeCondition, encodeCondition } from './condition.js';
import { actionCallsOf } from './conditional-calls.js';
import {
  debugAttachmentOf,
  debugLocationOf,
  functionReferences,
  int32Value,
  replaceInstruction,
} from './ir-utils.js';
import { normalizeCondition } from './normalize.js';
import { CONDITIONAL_CALL_ON_DEVICE_DIAGNOSTICS, deviceIfDiagnostic } from './diagnostics.js';

export interface RewriteConditionalCallersOptions {
  /**
   * The translation unit's unique prefix (clang's `-fsycl-unique-prefix`), the `GUID` of
   * `<caller>_<GUID>_<N>`.
   * (default: `''`, which gives `<caller>__<N>`)
   */
  readonly uniquePrefix?: string;
  /**
   * Rewrite each condition to its normal form ({@link normalizeCondition}). intel/llvm keeps the
   * arguments as written. A normal form may be shorter than the original (`else_if_architecture_is`
   * chains shrink), so a caller whose calls end up with different lengths gets one declaration per
   * length: `<caller>_<GUID>_<N>`, then `<caller>_<GUID>_<N>_2`, … in call order. Always-true and
   * always-false conditions are written as `[-5,-1,0,-3,-1,0]` and `[-4,-1,0,-3,-1,0]`.
   * (default: `false`)
   */
  readonly normalize?: boolean;
  /**
   * Give each new declaration the caller's `"sycl-call-if-on-device-conditionally"` attribute, so
   * that aspect propagation and AOT resolution can find it (the intel/llvm prototype of conditional
   * aspect propagation expects it there). intel/llvm's pass copies no attributes; `false` gives
   * its output exactly.
   * (default: `true`)
   */
  readonly markDeclarations?: boolean;
}

/** What became of one caller. */
export interface RewrittenConditionalCaller {
  /** The caller's old name (it is gone from the module). */
  readonly caller: string;
  readonly action: string;
  /** The new declarations, the `<caller>_<GUID>_<N>` one first. */
  readonly declarations: readonly string[];
  /** How many calls were rewritten. */
  readonly calls: number;
}

export interface RewriteConditionalCallersResult {
  readonly changed: boolean;
  /** Rewritten callers, in module order (which is also their numbering). */
  readonly callers: readonly RewrittenConditionalCaller[];
  readonly diagnostics: readonly Diagnostic[];
}

interface Plan {
  readonly caller: IRFunction;
  readonly action: IRFunction;
}

/**
 * The transformation of `sycl-conditional-call-on-device`, as a function.
 *
 * 1. Callers are the definitions, other than `spir_kernel`s, with `"sycl-call-if-on-device-conditionally"`,
 *    in module order. Each must hold exactly one `call` (intrinsics aside) and it must be direct;
 *    its callee is the action. A caller that breaks this, or that is used other than as a callee,
 *    is reported and left alone.
 * 2. The callers left are numbered N = 1, 2, … For each a declaration `<caller>_<prefix>_<N>` is
 *    appended to the module: external linkage, the caller's calling convention, parameters
 *    `(<action's pointer type>, <caller's parameters>…)`, the caller's return type and varargs.
 * 3. Each call `caller(args…)` is replaced, in place, by `declaration(@action, args…)` with the old
 *    call's calling convention and debug location, and no other attributes or metadata.
 * 4. The caller is deleted.
 */
export function rewriteConditionalCallers(module: Module, options: RewriteConditionalCallersOptions = {}): RewriteConditionalCallersResult {
  const prefix = options.uniquePrefix ?? '';
  const normalize = options.normalize ?? false;
  const mark = options.markDeclarations ?? true;
  const context = module.context;
  const diagnostics: Diagnostic[] = [];

  const plans: Plan[] = [];
  for (const fn of module.functions) {
    if (fn.isDeclaration || isKernel(fn) || !fn.attributes.fn.hasString(SyclAttribute.conditionalCaller)) continue;
    const calls = actionCallsOf(fn);
    const action = calls.length === 1 ? calls[0]!.calledFunction : undefined;
    if (action === undefined) {
      diagnostics.push(
        deviceIfDiagnostic(
          'conditional-caller-malformed',
          calls.length === 1
            ? `conditional caller '${fn.name}' does not call its action directly`
            : `conditional caller '${fn.name}' must contain exactly one call (intrinsics aside), found ${calls.length}`,
          { function: fn.name },
        ),
      );
      continue;
    }
    plans.push({ caller: fn, action });
  }

  const references = functionReferences(module, new Set(plans.map((plan) => plan.caller)));
  const callers: RewrittenConditionalCaller[] = [];
  let number = 1;
  for (const { caller, action } of plans) {
    const refs = references.get(caller)!;
    const other = refs.find((ref) => ref.kind === 'other');
    if (other !== undefined) {
      diagnostics.push(
        deviceIfDiagnostic('conditional-caller-address-taken', `conditional caller '${caller.name}' is used in ${other.where}, not only called; it is left alone`, {
          function: caller.name,
        }),
      );
      continue;
    }
    const baseName = `${caller.name}_${prefix}_${number++}`;
    const oldType = caller.functionType;
    const originalParams: Type[] = [action.type, ...oldType.params];

    // New argument lists first: with `normalize` they decide which declarations are needed.
    const rewrites = refs.map((ref) => {
      const call = (ref as { call: CallInst }).call;
      const args: Value[] = [action, ...call.args];
      if (!normalize || oldType.varArgs) return { call, args, params: originalParams };
      const normalized = normalizedConditionArgs(call, caller, diagnostics, module);
      if (normalized === undefined) return { call, args, params: originalParams };
      return {
        call,
        args: [action, call.args[0]!, ...normalized],
        params: [action.type, oldType.params[0]!, ...normalized.map(() => context.i32)] as Type[],
      };
    });

    const declarations = new Map<number, IRFunction>();
    const declare = (params: readonly Type[]): IRFunction => {
      const existing = declarations.get(params.length);
      if (existing !== undefined) return existing;
      const name = declarations.size === 0 ? baseName : `${baseName}_${declarations.size + 1}`;
      const marker = caller.attributes.fn.getString(SyclAttribute.conditionalCaller)!;
      const declaration = module.createFunction(name, context.fn(oldType.returnType, params, oldType.varArgs), {
        attributes: mark ? AttributeList.empty.withFn(AttributeSet.of([stringAttr(SyclAttribute.conditionalCaller, marker)])) : AttributeList.empty,
      });
      declaration.callingConv = caller.callingConv;
      declarations.set(params.length, declaration);
      return declaration;
    };
    if (rewrites.length === 0) declare(originalParams);

    for (const { call, args, params } of rewrites) {
      const declaration = declare(params);
      const replacement = new CallInst('call', call.type, declaration.functionType, [declaration, ...args], AttributeList.empty);
      replacement.callingConv = call.callingConv;
      replacement.attachments = debugAttachmentOf(call, context);
      replaceInstruction(call, replacement);
    }
    module.remove(caller);
    callers.push({
      caller: caller.name,
      action: action.name,
      declarations: [...declarations.values()].map((d) => d.name),
      calls: rewrites.length,
    });
  }
  return { changed: callers.length > 0, callers, diagnostics };
}

/** The normalized condition of a call as `i32` constants, or undefined (with a warning) when it has none. */
function normalizedConditionArgs(call: CallInst, caller: IRFunction, diagnostics: Diagnostic[], module: Module): Value[] | undefined {
  const args = call.args.slice(1);
  const where = call.parent!.parent.name;
  const at = { function: where, debugLoc: debugLocationOf(call) };
  const values = args.map(int32Value);
  if (args.length === 0 || values.some((v) => v === undefined) || args.some((a) => a.type !== module.context.i32)) {
    diagnostics.push(
      deviceIfDiagnostic('condition-not-constant', `the condition of a call to '${caller.name}' is not a list of i32 constants; it is kept as written`, at, 'warning'),
    );
    return undefined;
  }
  try {
    const condition = normalizeCondition(decodeCondition(values as number[]));
    return encodeCondition(condition, { constants: 'tautology' }).map((v) => module.context.constI32(v));
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    diagnostics.push(
      deviceIfDiagnostic(
        'condition-undecodable',
        `the condition [${values.join(', ')}] of a call to '${caller.name}' does not decode (${error.message}); it is kept as written`,
        at,
        'warning',
      ),
    );
    return undefined;
  }
}

/**
 * The `sycl-conditional-call-on-device` pass. The flag `-sycl-conditional-call-on-device-unique-prefix`
 * overrides the `unique-prefix` option when it is not empty, as the cl::opt overrides the pass
 * constructor's prefix in intel/llvm.
 */
export const conditionalCallOnDevicePass = definePass({
  name: 'sycl-conditional-call-on-device',
  unit: moduleKind,
  summary: 'Turns conditional callers (device_if / device_architecture) into external declarations that take their action as the first argument.',
  options: {
    uniquePrefix: option.string({ doc: 'Unique prefix of the translation unit (the -fsycl-unique-prefix value)', valueName: 'prefix' }),
    normalize: option.boolean({ doc: 'Rewrite each condition to its normal form (intel/llvm keeps it as written)' }),
    markDeclarations: option.boolean({
      doc: 'Keep the sycl-call-if-on-device-conditionally attribute on the new declarations (intel/llvm drops it)',
      default: true,
    }),
  },
  flags: {
    uniquePrefix: flag.string('sycl-conditional-call-on-device-unique-prefix', {
      doc: 'Set unique prefix for a translation unit, required for funtions with external linkage',
      hidden: true,
    }),
  },
  preserves: 'none',
  diagnostics: CONDITIONAL_CALL_ON_DEVICE_DIAGNOSTICS,
  create:
    (options, { flags }) =>
    (module, ctx) => {
      const result = rewriteConditionalCallers(module, {
        uniquePrefix: flags.uniquePrefix !== '' ? flags.uniquePrefix : options.uniquePrefix,
        normalize: options.normalize,
        markDeclarations: options.markDeclarations,
      });
      for (const diagnostic of result.diagnostics) ctx.report(diagnostic);
      return result.changed ? PreservedAnalyses.none() : PreservedAnalyses.all();
    },
});

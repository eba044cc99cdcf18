/**
 * One walk over the module: for every function (declarations included) the aspects it uses
 * directly, its existing aspect metadata, and its calls.
 *
 * Direct uses, in the order intel/llvm inserts them (which decides the order of the output lists):
 * the return type; each argument's type; then for every instruction what {@link walkInstruction}
 * visits (its types in intel/llvm's order, then its own `!sycl_used_aspects`) — gathered per
 * instruction, then added to the function's set. The rules here (`walkInstruction`, the
 * `-fsycl-fp64-conv-emu` exceptions, `functionAspectLists`) are also those of the provenance walk
 * behind the public `directAspectUses` (direct-uses.ts); this walk keeps only the sets.
 *
 * Calls: only `call` instructions with a direct callee make call-graph edges (`invoke`, `callbr`
 * and indirect calls do not), callees in order of first call. Calls to a conditional caller
 * (DeviceIf.md) are kept apart with their action and condition.
 */
import {
  AllocaInst,
  type AttributeSet,
  CallInst,
  GetElementPtrInst,
  isGlobalValue,
  stripPointerCasts,
  type GlobalVariable,
  type Instruction,
  type IRFunction,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';
import { conditionalCallerForm, conditionalCallSite, type ConditionalCallerForm } from '@syclkit/device-if';
import { SyclAttribute, SyclMetadata, isEntryPoint, readAspectValues } from '@syclkit/sycl-conventions';
import { AspectSet } from './aspect-set.js';
import type { TypeAspects } from './type-aspects.js';

/** A call to a conditional caller. */
export interface ConditionalCall {
  /** Index of the conditional caller. */
  readonly callee: number;
  /** Index of the _Conditional Action_, when known. */
  readonly action: number | undefined;
  /** The constant integer arguments that make the _Condition Expression_, in order. */
  readonly condition: readonly number[];
  /** False when some condition argument is not an integer constant (it is then left out). */
  readonly constant: boolean;
  /** How many plain callees the caller had called before this call (to merge both in call order). */
  readonly plainCallsBefore: number;
  readonly instruction: CallInst;
}

export interface FunctionFacts {
  readonly fn: IRFunction;
  readonly index: number;
  readonly entryPoint: boolean;
  readonly conditionalCaller: boolean;
  /** Aspects from types and instruction metadata, in insertion order. */
  direct: AspectSet | undefined;
  /** Values of the function's existing `!sycl_used_aspects`. */
  usedMetadata: number[] | undefined;
  /** Values of the function's existing `!sycl_declared_aspects`. */
  declaredMetadata: number[] | undefined;
  /** Direct plain callees (not conditional callers), first-call order, no repeats. */
  readonly callees: readonly number[];
  /** The first call of each of {@link callees}, at the same index. */
  readonly calleeCalls: readonly CallInst[];
  readonly conditionalCalls: readonly ConditionalCall[];
  /** Contains a call marked `"virtual-call"`. */
  makesVirtualCall: boolean;
  /**
   * Uses a vtable: an operand refers (through constant expressions) to a global variable whose
   * initializer refers to an `"indirectly-callable"` function.
   */
  referencesVtable: boolean;
  /** Set names of `"calls-indirectly"`. */
  readonly callsIndirectly: readonly string[];
  /** Set name of `"indirectly-callable"`, if any. */
  readonly indirectlyCallable: string | undefined;
  /** Malformed operands found in the function's aspect metadata. */
  malformedMetadata: number;
}

export interface CollectOptions {
  readonly types: TypeAspects;
  readonly fp64: number;
  /** FP64 conversion emulation (`-fsycl-fp64-conv-emu`): see {@link collectFunctionFacts}. */
  readonly fp64ConvEmu: boolean;
}

/**
 * Facts for every function of `module`, in module order (`facts[i].fn === module.functions[i]`).
 *
 * With `fp64ConvEmu`, `fp64` is not recorded where intel/llvm's `-fsycl-fp64-conv-emu` skips it:
 * for a return or argument type that contains `double`, and for an instruction that involves
 * `double` and is a conversion-like instruction (alloca, GEP, load, store, fpext, fptrunc,
 * [su]itofp, fpto[su]i, fcmp, phi, extract/insertvalue, ret, and calls to definitions or to memory
 * intrinsics). Arithmetic on `double` still records it.
 */
export function collectFunctionFacts(module: Module, options: CollectOptions): FunctionFacts[] {
  const collector = new FactsCollector(module, options);
  const functions = module.functions;
  const facts: FunctionFacts[] = new Array<FunctionFacts>(functions.length);
  // One call per function (not one loop over the module): small functions get optimized code
  // early in a cold process, where one long loop would run unoptimized until on-stack replacement.
  for (let index = 0; index < functions.length; index++) facts[index] = collector.factsOf(functions[index]!, index);
  return facts;
}

/**
 * The state of one walk for {@link collectFunctionFacts}. `aspectsOf`, when given, replaces the
 * pass's sink as the source of an instruction's aspects (module-walk.ts records provenance with
 * it); `lookupKinds` reads the aspect-list kinds without registering them.
 */
export class FactsCollector {
  private readonly usedKind: number;
  private readonly declaredKind: number;
  private readonly indexOf = new Map<IRFunction, number>();
  private readonly lastCaller: Int32Array;
  private readonly types: TypeAspects;
  private readonly fp64: number;
  private readonly fp64ConvEmu: boolean;
  private readonly vtables: VtableFinder | undefined;
  private readonly callerForms: (ConditionalCallerForm | undefined)[];
  private readonly gatherer: Gatherer;
  private readonly attributeMemo = new Map<AttributeSet, SetAttributes>();
  private readonly virtualCallMemo = new Map<AttributeSet, boolean>();
  /** The calls of the function being walked (see factsOf). */
  private readonly callees: number[] = [];
  private readonly calleeCalls: CallInst[] = [];
  private readonly conditionalCalls: ConditionalCall[] = [];

  constructor(
    module: Module,
    options: CollectOptions,
    private readonly aspectsOf?: (inst: Instruction) => AspectSet | undefined,
    lookupKinds = false,
  ) {
    const kinds = module.context.md.kinds;
    this.usedKind = lookupKinds ? (kinds.lookup(SyclMetadata.usedAspects) ?? -1) : kinds.id(SyclMetadata.usedAspects);
    this.declaredKind = lookupKinds ? (kinds.lookup(SyclMetadata.declaredAspects) ?? -1) : kinds.id(SyclMetadata.declaredAspects);
    const functions = module.functions;
    functions.forEach((fn, i) => this.indexOf.set(fn, i));
    this.lastCaller = new Int32Array(functions.length).fill(-1);
    this.types = options.types;
    this.fp64 = options.fp64;
    this.fp64ConvEmu = options.fp64ConvEmu;
    let anyIndirectlyCallable = false;
    for (let i = 0; i < functions.length && !anyIndirectlyCallable; i++) anyIndirectlyCallable = this.setAttributes(functions[i]!).indirectlyCallable !== undefined;
    this.vtables = anyIndirectlyCallable ? new VtableFinder() : undefined;
    this.callerForms = functions.map(conditionalCallerForm);
    this.gatherer = new Gatherer(options.types);
  }

  /** The virtual-function attributes of `fn`, read once per attribute set (functions share them). */
  private setAttributes(fn: IRFunction): SetAttributes {
    const attributes = fn.attributes.fn;
    let known = this.attributeMemo.get(attributes);
    if (known === undefined) {
      const callsIndirectly = attributes.getString(SyclAttribute.callsIndirectly);
      known = {
        callsIndirectly: callsIndirectly === undefined ? NO_SETS : Object.freeze(callsIndirectly.split(',').filter((s) => s !== '')),
        indirectlyCallable: attributes.getString(SyclAttribute.indirectlyCallable),
      };
      this.attributeMemo.set(attributes, known);
    }
    return known;
  }

  /** Whether a call-site attribute set has `"virtual-call"` (read once per set: calls share them). */
  private marksVirtualCall(attributes: AttributeSet): boolean {
    if (attributes.isEmpty) return false;
    let known = this.virtualCallMemo.get(attributes);
    if (known === undefined) this.virtualCallMemo.set(attributes, (known = attributes.hasString('virtual-call')));
    return known;
  }

  factsOf(fn: IRFunction, index: number): FunctionFacts {
    const { callsIndirectly, indirectlyCallable } = this.setAttributes(fn);
    const record: FunctionFacts = {
      fn,
      index,
      entryPoint: isEntryPoint(fn),
      conditionalCaller: this.callerForms[index] !== undefined,
      direct: undefined,
      usedMetadata: undefined,
      declaredMetadata: undefined,
      callees: NO_CALLEES,
      calleeCalls: NO_CALLS,
      conditionalCalls: NO_CONDITIONAL_CALLS,
      makesVirtualCall: false,
      referencesVtable: false,
      callsIndirectly,
      indirectlyCallable,
      malformedMetadata: 0,
    };
    let direct = this.signatureDirect(fn);
    const blocks = fn.blocks;
    for (let b = 0; b < blocks.length; b++) {
      const instructions = blocks[b]!.instructions;
      for (let i = 0; i < instructions.length; i++) direct = this.instruction(instructions[i]!, record, direct);
    }
    record.direct = direct;
    // The lists live as long as the facts: copies of their exact size (a list grown by push
    // keeps room for 17), none for the many functions without calls.
    const { callees, calleeCalls, conditionalCalls } = this;
    if (callees.length > 0) {
      (record as { callees: readonly number[] }).callees = callees.slice();
      (record as { calleeCalls: readonly CallInst[] }).calleeCalls = calleeCalls.slice();
      callees.length = 0;
      calleeCalls.length = 0;
    }
    if (conditionalCalls.length > 0) {
      (record as { conditionalCalls: readonly ConditionalCall[] }).conditionalCalls = conditionalCalls.slice();
      conditionalCalls.length = 0;
    }

    const lists = this.aspectLists(fn);
    if (lists !== undefined) {
      record.usedMetadata = lists.used;
      record.declaredMetadata = lists.declared;
      record.malformedMetadata = lists.malformed;
    }
    return record;
  }

  /** The aspects of the function's return and parameter types, into a fresh `direct`. */
  private signatureDirect(fn: IRFunction): AspectSet | undefined {
    const { types, fp64ConvEmu } = this;
    const returnType = fn.returnType;
    let direct = this.record(undefined, types.of(returnType), fp64ConvEmu && signatureSkipsFp64(returnType, types));
    for (const arg of fn.args) direct = this.record(direct, types.of(arg.type), fp64ConvEmu && signatureSkipsFp64(arg.type, types));
    return direct;
  }

  /**
   * The aspects `fn` uses directly (its signature, then `instructions`, in order), as
   * {@link factsOf} finds them when every other instruction of `fn` has none: for facts carried
   * over from a walk that found which instructions have aspects (see module-walk.ts' carryFacts).
   */
  directOf(fn: IRFunction, instructions: readonly Instruction[]): AspectSet | undefined {
    const { types, fp64ConvEmu } = this;
    let direct = this.signatureDirect(fn);
    const gatherer = this.gatherer;
    for (let i = 0; i < instructions.length; i++) {
      const inst = instructions[i]!;
      gatherer.reset();
      walkInstruction(inst, this.usedKind, gatherer);
      const aspects = gatherer.result();
      if (aspects !== undefined) direct = this.record(direct, aspects, fp64ConvEmu && aspects.has(this.fp64) && skipsFp64(inst, types));
    }
    return direct;
  }

  /** The index of `fn` in the module (undefined: not one of its functions). */
  indexOfFunction(fn: IRFunction): number | undefined {
    return this.indexOf.get(fn);
  }

  /** Whether a function of the module is a conditional caller (DeviceIf.md). */
  get hasConditionalCallers(): boolean {
    return this.callerForms.some((form) => form !== undefined);
  }

  /** Whether a function of the module is `"indirectly-callable"` (then vtables are looked for). */
  get hasIndirectlyCallable(): boolean {
    return this.vtables !== undefined;
  }

  /** `callsIndirectly` and `indirectlyCallable` of `fn` (see {@link FunctionFacts}). */
  virtualSets(fn: IRFunction): { readonly callsIndirectly: readonly string[]; readonly indirectlyCallable: string | undefined } {
    return this.setAttributes(fn);
  }

  /** The function's own aspect lists, as {@link factsOf} records them. */
  aspectLists(fn: IRFunction): { used: number[] | undefined; declared: number[] | undefined; malformed: number } | undefined {
    return fn.attachments.length > 0 ? functionAspectLists(fn, this.usedKind, this.declaredKind) : undefined;
  }

  /** One instruction: its aspects into `direct` (returned), its call into the record. */
  private instruction(inst: Instruction, record: FunctionFacts, direct: AspectSet | undefined): AspectSet | undefined {
    let aspects: AspectSet | undefined;
    if (this.aspectsOf !== undefined) aspects = this.aspectsOf(inst);
    else {
      const gatherer = this.gatherer;
      gatherer.reset();
      walkInstruction(inst, this.usedKind, gatherer);
      aspects = gatherer.result();
    }
    if (this.vtables !== undefined && !record.referencesVtable && this.vtables.referencedBy(inst)) record.referencesVtable = true;
    if (aspects !== undefined) {
      direct = this.record(direct, aspects, this.fp64ConvEmu && aspects.has(this.fp64) && skipsFp64(inst, this.types));
    }
    if (inst instanceof CallInst) this.call(inst, record);
    return direct;
  }

  private call(inst: CallInst, record: FunctionFacts): void {
    if (this.marksVirtualCall(inst.attributes.fn)) record.makesVirtualCall = true;
    if (inst.opcode !== 'call') return;
    const callee = inst.calledFunction;
    if (callee === undefined) return;
    const calleeIndex = this.indexOf.get(callee);
    if (calleeIndex === undefined) return;
    const form = this.callerForms[calleeIndex];
    if (form !== undefined) {
      this.conditionalCalls.push(conditionalCall(inst, callee, form, calleeIndex, this.indexOf, this.callees.length));
    } else if (this.lastCaller[calleeIndex] !== record.index) {
      this.lastCaller[calleeIndex] = record.index;
      this.callees.push(calleeIndex);
      this.calleeCalls.push(inst);
    }
  }

  /** `direct` with `aspects` added (created on the first aspect), fp64 left out when `skipFp64`. */
  private record(direct: AspectSet | undefined, aspects: AspectSet | undefined, skipFp64: boolean): AspectSet | undefined {
    if (aspects === undefined) return direct;
    for (const aspect of aspects) {
      if (skipFp64 && aspect === this.fp64) continue;
      direct ??= new AspectSet();
      direct.add(aspect);
    }
    return direct;
  }
}

/** The call lists of functions without calls (shared: the lists are never changed after the walk). */
const NO_CALLEES: readonly number[] = Object.freeze([]);
const NO_CALLS: readonly CallInst[] = Object.freeze([]);
const NO_CONDITIONAL_CALLS: readonly ConditionalCall[] = Object.freeze([]);

/** What the walk reads of a function attribute set. */
interface SetAttributes {
  readonly callsIndirectly: readonly string[];
  readonly indirectlyCallable: string | undefined;
}

/** `callsIndirectly` of the many functions without the attribute (shared: read-only). */
const NO_SETS: readonly string[] = Object.freeze([]);

/**
 * What an instruction uses, in the order intel/llvm gathers it: {@link walkInstruction} calls
 * `type` for every type the instruction uses and `metadata` for each of its `!sycl_used_aspects`
 * lists. The pass's sink only collects aspects; the provenance walk (direct-uses.ts) also records
 * which type carried each one.
 */
export interface InstructionSink {
  type(type: Type): void;
  metadata(values: readonly number[]): void;
}

/**
 * Walks what `inst` uses, in intel/llvm's order: its result type (for `alloca`, the allocated
 * type); each operand's type in LLVM operand order (for calls: arguments, bundle inputs, other
 * operands, then the callee), where an operand that is a global value after stripping pointer casts
 * counts with its value type; a GEP's source element type; then its `!sycl_used_aspects`.
 */
export function walkInstruction(inst: Instruction, usedKind: number, sink: InstructionSink): void {
  sink.type(inst instanceof AllocaInst ? inst.allocatedType : inst.type);
  const ops = inst.operands;
  if (inst instanceof CallInst) {
    const argEnd = 1 + inst.argCount;
    for (let i = 1; i < argEnd; i++) sink.type(operandType(ops[i]!));
    for (const bundle of inst.bundles) for (const input of bundle.inputs) sink.type(operandType(input));
    for (let i = argEnd; i < ops.length; i++) sink.type(operandType(ops[i]!));
    sink.type(operandType(ops[0]!));
  } else {
    for (let i = 0; i < ops.length; i++) sink.type(operandType(ops[i]!));
  }
  if (inst instanceof GetElementPtrInst) sink.type(inst.sourceElementType);
  const attachments = inst.attachments;
  if (attachments !== null) {
    for (const attachment of attachments) {
      if (attachment.kind === usedKind) sink.metadata(readAspectValues(attachment.node).values);
    }
  }
}

/** The type an operand counts with: its value type when it is a global value (after stripping casts). */
function operandType(op: Value): Type {
  switch (op.vk) {
    case 'function':
    case 'global':
    case 'alias':
    case 'ifunc':
      return op.valueType;
    case 'instruction': {
      // Only these instructions can be stripped (stripPointerCasts' first step): most operands stop here.
      const opcode = op.opcode;
      if (opcode !== 'bitcast' && opcode !== 'addrspacecast' && opcode !== 'getelementptr') return op.type;
      const stripped = stripPointerCasts(op);
      return isGlobalValue(stripped) ? stripped.valueType : op.type;
    }
    case 'expr': {
      const stripped = stripPointerCasts(op);
      return isGlobalValue(stripped) ? stripped.valueType : op.type;
    }
    default:
      return op.type;
  }
}

/**
 * The pass's sink: the aspects of one instruction as intel/llvm's per-instruction `SmallSet` holds
 * them, without copying until a second non-empty set arrives. Reusable (`reset`).
 */
class Gatherer implements InstructionSink {
  private single: AspectSet | undefined = undefined;
  private gathered: AspectSet | undefined = undefined;

  constructor(private readonly types: TypeAspects) {}

  reset(): void {
    this.single = undefined;
    this.gathered = undefined;
  }

  type(type: Type): void {
    const aspects = this.types.of(type);
    if (aspects === undefined || aspects === this.single) return;
    if (this.gathered !== undefined) {
      this.gathered.addAll(aspects);
    } else if (this.single === undefined) {
      this.single = aspects;
    } else {
      this.gathered = this.single.clone();
      this.single = undefined;
      this.gathered.addAll(aspects);
    }
  }

  metadata(values: readonly number[]): void {
    if (values.length === 0) return;
    if (this.gathered === undefined) {
      this.gathered = this.single === undefined ? new AspectSet() : this.single.clone();
      this.single = undefined;
    }
    this.gathered.addAll(values);
  }

  result(): AspectSet | undefined {
    return this.gathered ?? this.single;
  }
}

/** A function's own aspect lists: the last `!sycl_used_aspects` and `!sycl_declared_aspects` attached. */
export function functionAspectLists(
  fn: IRFunction,
  usedKind: number,
  declaredKind: number,
): { used: number[] | undefined; declared: number[] | undefined; malformed: number } {
  let used: number[] | undefined;
  let declared: number[] | undefined;
  let malformed = 0;
  for (const attachment of fn.attachments) {
    if (attachment.kind === usedKind) {
      const list = readAspectValues(attachment.node);
      used = list.values;
      malformed += list.malformed;
    } else if (attachment.kind === declaredKind) {
      const list = readAspectValues(attachment.node);
      declared = list.values;
      malformed += list.malformed;
    }
  }
  return { used, declared, malformed };
}

/**
 * `-fsycl-fp64-conv-emu` for a return or argument type: fp64 is not recorded for a type that
 * contains `double`.
 */
export function signatureSkipsFp64(type: Type, types: TypeAspects): boolean {
  return types.containsDouble(type);
}

/**
 * `-fsycl-fp64-conv-emu` for an instruction that uses fp64: it is not recorded when the
 * instruction involves `double` (any type it uses contains it) and is conversion-like (see
 * {@link collectFunctionFacts}).
 */
export function skipsFp64(inst: Instruction, types: TypeAspects): boolean {
  return isFp64ConversionInstruction(inst) && hasDoubleType(inst, types);
}

/** Whether a type `inst` uses (see {@link walkInstruction}) is or contains `double`. */
function hasDoubleType(inst: Instruction, types: TypeAspects): boolean {
  const finder = new DoubleFinder(types);
  walkInstruction(inst, -1, finder);
  return finder.found;
}

class DoubleFinder implements InstructionSink {
  found = false;
  constructor(private readonly types: TypeAspects) {}
  type(type: Type): void {
    if (!this.found && this.types.containsDouble(type)) this.found = true;
  }
  metadata(): void {}
}

const FP64_CONVERSION_OPCODES: ReadonlySet<string> = new Set([
  'alloca',
  'getelementptr',
  'load',
  'store',
  'fpext',
  'fptrunc',
  'sitofp',
  'uitofp',
  'fptoui',
  'fptosi',
  'fcmp',
  'phi',
  'extractvalue',
  'insertvalue',
  'ret',
]);

function isFp64ConversionInstruction(inst: Instruction): boolean {
  if (FP64_CONVERSION_OPCODES.has(inst.opcode)) return true;
  if (inst.opcode !== 'call' || !(inst instanceof CallInst)) return false;
  const callee = inst.calledFunction;
  // intel/llvm dereferences the callee here (and would crash on an indirect call): we say "no".
  if (callee === undefined) return false;
  if (!callee.isDeclaration) return true;
  return /^llvm\.(memcpy|memcpy\.inline|memmove|memset|memset\.inline)(\.|$)/.test(callee.name);
}

function conditionalCall(
  inst: CallInst,
  callee: IRFunction,
  form: ConditionalCallerForm,
  calleeIndex: number,
  indexOf: ReadonlyMap<IRFunction, number>,
  plainCallsBefore: number,
): ConditionalCall {
  const site = conditionalCallSite(inst, callee, form);
  const action = site.action === undefined ? undefined : indexOf.get(site.action);
  const condition: number[] = [];
  let constant = true;
  for (const arg of site.conditionArgs) {
    if (arg.vk === 'int') condition.push(typeof arg.value === 'number' ? arg.value : Number(arg.value));
    else constant = false;
  }
  return { callee: calleeIndex, action, condition, constant, plainCallsBefore, instruction: inst };
}

/** Finds vtables: global variables whose initializer refers to an `"indirectly-callable"` function. */
class VtableFinder {
  private readonly isVtable = new Map<GlobalVariable, boolean>();

  /** Whether an operand of `inst` refers to a vtable (through constant expressions). */
  referencedBy(inst: Instruction): boolean {
    for (const op of inst.operands) if (this.refersToVtable(op, 0)) return true;
    return false;
  }

  private refersToVtable(value: Value, depth: number): boolean {
    if (depth > 32) return false;
    switch (value.vk) {
      case 'global':
        return this.vtable(value);
      case 'expr':
        return value.operands.some((op) => this.refersToVtable(op, depth + 1));
      default:
        return false;
    }
  }

  private vtable(gv: GlobalVariable): boolean {
    let known = this.isVtable.get(gv);
    if (known === undefined) {
      this.isVtable.set(gv, false);
      known = gv.initializer !== undefined && refersToIndirectlyCallable(gv.initializer, 0);
      this.isVtable.set(gv, known);
    }
    return known;
  }
}

function refersToIndirectlyCallable(value: Value, depth: number): boolean {
  if (depth > 32) return false;
  switch (value.vk) {
    case 'function':
      return value.attributes.fn.hasString(SyclAttribute.indirectlyCallable);
    case 'expr':
      return value.operands.some((op) => refersToIndirectlyCallable(op, depth + 1));
    case 'array':
    case 'vector':
      return value.elements.some((op) => refersToIndirectlyCallable(op, depth + 1));
    case 'struct':
      return value.fields.some((op) => refersToIndirectlyCallable(op, depth + 1));
    default:
      return false;
  }
}

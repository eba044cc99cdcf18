/**
 * The checks of LLVM's IR verifier that LLVM 16's `opt` makes on its input and that a module can
 * fail after it parsed: `opt` refuses such a module ("input module is broken!") before running
 * any pass. Each failure has LLVM's message and the values LLVM's verifier writes after it.
 *
 * Checked, in the verifier's order (per function: the function, then each block, then each of its
 * instructions):
 * - return and parameter attributes of functions (declarations too) and of calls: attributes that
 *   exclude each other, attributes on types they do not apply to, `immarg` and `elementtype`
 *   outside intrinsics, and where `nest`, `returned`, `sret`, `swift*` and `inalloca` may stand
 *   (`attribute-verifier.ts`);
 * - the entry block has no predecessors;
 * - the leading PHI nodes of a block have one entry per predecessor edge, with the same value for
 *   repeated blocks, and their blocks are the predecessors;
 * - PHI nodes come first in their block (each one right after another, or first);
 * - only PHI nodes use their own value (in blocks reachable from the entry);
 * - every instruction operand dominates its use (`Instruction does not dominate all uses!`, once
 *   per operand): PHI uses happen at the end of the incoming block, invoke and callbr results
 *   exist on the edge to the normal destination, uses in unreachable blocks always pass;
 * - `switch` case values have the condition's type;
 * - `resume` is only used in functions with a personality.
 *
 * Where LLVM sorts by pointer (the predecessor and PHI-entry comparison), blocks are ordered as
 * LLVM's parser creates them: by first mention (a branch to the block, or its label).
 */
import { attributeListProblems, functionAttributeListProblems, functionAttributeRulesApply } from './attribute-verifier.js';
import type { AttributeList, AttributeSet } from '../model/attributes.js';
import { CallInst, Flag, type Instruction, type Opcode } from '../model/instructions.js';
import { intrinsicAttributes, lookupIntrinsic } from '../model/upgrade.js';
import type { ParsedFunctionFacts } from '../reader/parser.js';
import type { Module } from '../model/module.js';
import { valueTexts } from '../printer/printer.js';
import type { FunctionType } from '../model/types.js';
import { BasicBlock, type IRFunction, type Value } from '../model/values.js';

export interface LLVMVerifierFailure {
  /** LLVM's message, e.g. `PHI node entries do not match predecessors!`. */
  readonly message: string;
  /** The function the failure is in. */
  readonly fn: IRFunction;
  /** The values LLVM writes after the message, in its order. */
  readonly values: readonly Value[];
}

/** The failures of `module`, in the order LLVM's verifier reports them; empty when it passes. */
export function llvmVerifierFailures(module: Module): LLVMVerifierFailure[] {
  const failures: LLVMVerifierFailure[] = [];
  for (const fn of module.functions) checkFunction(fn, failures);
  return failures;
}

/**
 * The failures of one function (of a declaration: its attributes only). Called from
 * `parseModule`'s `onFunction` with the parser's facts, it gives the same failures as
 * {@link llvmVerifierFailures} on the parsed module at a fraction of the cost: the function is
 * still in the CPU caches, and only the instructions the parser saw using values of other blocks
 * (or later ones), and calls with attributes, need looking at. `onFunction` sees definitions
 * only: check the declarations after the parse, in module order.
 */
export function llvmVerifierFunctionFailures(fn: IRFunction, facts?: ParsedFunctionFacts): LLVMVerifierFailure[] {
  const failures: LLVMVerifierFailure[] = [];
  checkFunction(fn, failures, facts);
  return failures;
}

/**
 * What one parse's verifier learned about attribute lists, shared by the calls that use them:
 * the parser gives all calls with the same attribute sets one list (and a callee's list is the
 * same object at each of its calls), so most calls repeat a verdict. Lists and their return and
 * parameter sets do not change (only `#N` function sets are completed after the parse, and
 * those are not looked at while parsing), so a verdict holds for the whole parse.
 */
class AttributeVerdicts {
  /** Per list and call type: a bit per kind of call (see {@link callKindBit}) whose own attributes passed. */
  private readonly clean = new Map<AttributeList, Map<FunctionType, number>>();
  /** Per list: `immarg`/`preallocated` bits of its parameter sets, all or'ed. */
  private readonly special = new Map<AttributeList, number>();

  passed(list: AttributeList, fnType: FunctionType, kindBit: number): boolean {
    const byType = this.clean.get(list);
    return byType !== undefined && ((byType.get(fnType) ?? 0) & kindBit) !== 0;
  }

  notePassed(list: AttributeList, fnType: FunctionType, kindBit: number): void {
    let byType = this.clean.get(list);
    if (byType === undefined) this.clean.set(list, (byType = new Map()));
    byType.set(fnType, (byType.get(fnType) ?? 0) | kindBit);
  }

  /**
   * Per callee (a function, a forward reference, inline asm or an indirect callee's value): the
   * call attribute list and call type with which its last call passed {@link callProblems} with
   * nothing to look at per argument. A call with the same three passes too: everything those
   * checks read (the callee's name, kind and attributes, the list, the type) is the same.
   */
  private readonly cleanCalls = new Map<Value | object, { readonly attrs: AttributeList; readonly fnType: FunctionType }>();

  callPassed(call: CallInst): boolean {
    const clean = this.cleanCalls.get(call.operands[0]!);
    return clean !== undefined && clean.attrs === call.attributes && clean.fnType === call.functionType;
  }

  noteCallPassed(call: CallInst): void {
    this.cleanCalls.set(call.operands[0]!, { attrs: call.attributes, fnType: call.functionType });
  }

  /**
   * Per function type: headers (return and parameter sets, function set, intrinsic or not) that
   * passed the checks of a definition's own attributes and types while parsing. Definitions
   * mostly share a few; a few per type are kept.
   */
  private readonly cleanHeaders = new Map<FunctionType, CleanHeader[]>();

  headerPassed(fn: IRFunction): boolean {
    const headers = this.cleanHeaders.get(fn.functionType);
    if (headers === undefined) return false;
    const attrs = fn.attributes;
    const isIntrinsic = fn.isIntrinsic;
    for (let h = 0; h < headers.length; h++) {
      const header = headers[h]!;
      if (header.ret !== attrs.ret || header.fn !== attrs.fn || header.isIntrinsic !== isIntrinsic || header.params.length !== attrs.params.length) continue;
      let same = true;
      for (let i = 0; i < attrs.params.length && same; i++) same = header.params[i] === attrs.params[i];
      if (same) return true;
    }
    return false;
  }

  noteHeaderPassed(fn: IRFunction): void {
    let headers = this.cleanHeaders.get(fn.functionType);
    if (headers === undefined) this.cleanHeaders.set(fn.functionType, (headers = []));
    const attrs = fn.attributes;
    if (headers.length < MAX_HEADERS_PER_TYPE) headers.push({ ret: attrs.ret, fn: attrs.fn, params: attrs.params, isIntrinsic: fn.isIntrinsic });
  }

  specialBits(list: AttributeList): number {
    let bits = this.special.get(list);
    if (bits === undefined) {
      bits = 0;
      for (const set of list.params) bits |= specialBits(set);
      this.special.set(list, bits);
    }
    return bits;
  }
}

interface CleanHeader {
  readonly ret: AttributeSet;
  readonly fn: AttributeSet;
  readonly params: readonly AttributeSet[];
  readonly isIntrinsic: boolean;
}

/** Headers kept per function type (a search of them stays cheaper than the checks). */
const MAX_HEADERS_PER_TYPE = 8;

/** One bit for each combination of the site facts besides the list and type that attribute rules read. */
function callKindBit(isIntrinsic: boolean, isInlineAsm: boolean): number {
  return 1 << ((isIntrinsic ? 1 : 0) | (isInlineAsm ? 2 : 0));
}

/** LLVM's verifier run while a module is parsed; see {@link verifyWhileParsing}. */
export interface ParseVerifier {
  /** Give this to `parseModule` as its `onFunction`. */
  readonly onFunction: (fn: IRFunction, facts: ParsedFunctionFacts) => void;
  /** After the parse: the failures of `module`, in LLVM's order (those of {@link llvmVerifierFailures}). */
  failures(module: Module): LLVMVerifierFailure[];
}

/**
 * LLVM's verifier, run on each function as it is parsed (while it is still in the CPU caches),
 * then, after the parse, on the declarations and on the function attributes, whose `#N` groups
 * usually come after the functions that use them. A definition whose function attributes break
 * a rule is checked again, whole, so the messages come in LLVM's order; so is one that calls a
 * function (not an intrinsic) with `immarg` or `preallocated` parameters, whose calls the parser
 * does not name when they have no attributes of their own (and whose callee may come later).
 */
export function verifyWhileParsing(): ParseVerifier {
  const bodyFailures = new Map<IRFunction, LLVMVerifierFailure[]>();
  // The function sets of calls, read while each definition is parsed (while its calls are in the
  // CPU caches): the distinct pairs of set and call type (a few per module), each with the
  // definitions whose calls have it. After the parse, each pair is judged once.
  const callSets = new Map<AttributeSet, Map<FunctionType, IRFunction[]>>();
  const verdicts = new AttributeVerdicts();
  const noteCallSets = (fn: IRFunction, calls: readonly CallInst[]): void => {
    let lastSet: AttributeSet | undefined;
    let lastType: FunctionType | undefined;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const set = call.attributes.fn;
      const type = call.functionType;
      if (set === lastSet && type === lastType) continue;
      lastSet = set;
      lastType = type;
      let byType = callSets.get(set);
      if (byType === undefined) callSets.set(set, (byType = new Map()));
      const users = byType.get(type);
      if (users === undefined) byType.set(type, [fn]);
      else if (users[users.length - 1] !== fn) users.push(fn);
    }
  };
  return {
    onFunction: (fn, facts) => {
      const found: LLVMVerifierFailure[] = [];
      checkFunction(fn, found, facts, verdicts);
      if (found.length > 0) bodyFailures.set(fn, found);
      if (facts.callsWithFunctionAttributes.length > 0) noteCallSets(fn, facts.callsWithFunctionAttributes);
    },
    failures: (module) => {
      const specialCallees = new Set<Value>();
      for (const fn of module.functions) if (!fn.isIntrinsic && verdicts.specialBits(fn.attributes) !== 0) specialCallees.add(fn);
      // the `#N` sets are complete now: a set's verdict for a type holds for the rest of this call
      const sets = new FunctionSetVerdicts();
      const brokenCalls = new Set<IRFunction>();
      for (const [set, byType] of callSets) for (const [type, users] of byType) if (sets.broken(set, type, false)) for (const fn of users) brokenCalls.add(fn);
      const failures: LLVMVerifierFailure[] = [];
      for (const fn of module.functions) {
        if (fn.isDeclaration) {
          // its header only: checkFunction's walk of blocks would meet an empty list
          checkHeader(fn, failures, true, undefined);
        } else if (brokenCalls.has(fn) || sets.broken(fn.attributes.fn, fn.functionType, fn.unnamedAddr === 'unnamed_addr') || callsAny(fn, specialCallees)) {
          failures.push(...llvmVerifierFunctionFailures(fn));
        } else {
          const found = bodyFailures.size === 0 ? undefined : bodyFailures.get(fn);
          if (found !== undefined) failures.push(...found);
        }
      }
      return failures;
    },
  };
}

/** Whether `fn` calls one of `callees` directly (none: false at once). */
function callsAny(fn: IRFunction, callees: ReadonlySet<Value>): boolean {
  if (callees.size === 0) return false;
  for (const block of fn.blocks) for (const inst of block.instructions) if (inst instanceof CallInst && callees.has(inst.operands[0]!)) return true;
  return false;
}

/**
 * Verdicts of the function-attribute rules per set, function type and `unnamed_addr`: functions
 * and calls share a few `#N` sets (and a module a few function types), so most repeat one. Only
 * for sets that no longer change (the parse is over).
 */
class FunctionSetVerdicts {
  /**
   * Per set (null: no rule looks at it, as for most sets) and type: bit 0 set once asked
   * without `unnamed_addr`, bit 1 its answer; bits 2 and 3 the same with it.
   */
  private readonly known = new Map<AttributeSet, Map<FunctionType, number> | null>();
  /** The set asked about last, when no rule looks at it: calls in a row mostly share one. */
  private lastRuleless: AttributeSet | undefined;

  broken(set: AttributeSet, fnType: FunctionType, unnamedAddr: boolean): boolean {
    if (set === this.lastRuleless) return false;
    let byType = this.known.get(set);
    if (byType === undefined) {
      byType = functionAttributeRulesApply(set) ? new Map() : null;
      this.known.set(set, byType);
    }
    if (byType === null) {
      this.lastRuleless = set;
      return false;
    }
    const shift = unnamedAddr ? 2 : 0;
    const bits = byType.get(fnType) ?? 0;
    if (((bits >> shift) & 1) !== 0) return ((bits >> shift) & 2) !== 0;
    const broken = functionAttributeListProblems(set, fnType, unnamedAddr).length > 0;
    byType.set(fnType, bits | ((broken ? 3 : 1) << shift));
    return broken;
  }
}

/**
 * Whether the function attributes of `fn`, or of one of its calls, break a rule of LLVM 16's
 * verifier (then {@link llvmVerifierFunctionFailures} without facts reports it, in order).
 * `calls`: the parser's `callsWithFunctionAttributes`, else every call of `fn` is looked at.
 * `sets`: verdicts to share with other functions of the same module.
 */
export function functionAttributeRulesBroken(fn: IRFunction, calls?: readonly CallInst[], sets = new FunctionSetVerdicts()): boolean {
  if (sets.broken(fn.attributes.fn, fn.functionType, fn.unnamedAddr === 'unnamed_addr')) return true;
  const check = (call: CallInst): boolean => sets.broken(call.attributes.fn, call.functionType, false);
  if (calls !== undefined) {
    for (let i = 0; i < calls.length; i++) if (check(calls[i]!)) return true;
    return false;
  }
  for (const block of fn.blocks) for (const inst of block.instructions) if (inst instanceof CallInst && check(inst)) return true;
  return false;
}

/** Types only intrinsics (names starting `llvm.`) take or return: visitFunction's first such failure. */
function nonIntrinsicTypeProblem(fn: IRFunction): { message: string; values: Value[] } | undefined {
  if (fn.name.startsWith('llvm.')) return undefined;
  for (const arg of fn.args) {
    const k = arg.type.kind;
    if (k === 'metadata' || k === 'token' || k === 'x86_amx') return { message: `Function takes ${k} but isn't an intrinsic`, values: [arg, fn] };
  }
  const r = fn.functionType.returnType.kind;
  if (r === 'token' || r === 'x86_amx') return { message: `Function returns a ${r} but isn't an intrinsic`, values: [fn] };
  return undefined;
}

/** Whether `elementtype` is among a function's attributes (LLVM allows it on call sites only). */
function hasElementTypeAttribute(attrs: AttributeList): boolean {
  return attrs.ret.has('elementtype') || attrs.fn.has('elementtype') || attrs.params.some((set) => set.has('elementtype'));
}

/** A call's failures, and whether visitCallBase stopped at one (then its operands are not checked). */
interface CallProblems {
  readonly failures: readonly { readonly message: string; readonly values: readonly Value[] }[];
  readonly stop: boolean;
}

const NO_CALL_PROBLEMS: CallProblems = { failures: [], stop: false };
/** {@link NO_CALL_PROBLEMS} where no argument needed looking at: the arguments do not matter. */
const CLEAN_CALL: CallProblems = { failures: [], stop: false };

/**
 * visitCallBase's attribute checks: verifyFunctionAttrs with the call's function type, then, per
 * argument, `immarg` (only where the callee has it too, and only on constants) and
 * `preallocated` (a `preallocated` bundle or `musttail`, not both). An argument has an attribute
 * when the call or the callee gives it; an intrinsic callee has LLVM's attributes for it.
 */
function callProblems(call: CallInst, functionAttributes: boolean, verdicts?: AttributeVerdicts): CallProblems {
  const attrs = call.attributes;
  const ownAttributes = !attrs.ret.isEmpty || attrs.params.length > 0 || (functionAttributes && functionAttributeRulesApply(attrs.fn));
  const calleeAttrs = calleeAttributes(call);
  const calleeParams = calleeAttrs?.params ?? NO_PARAMETERS;
  if (!ownAttributes && calleeParams.length === 0) return CLEAN_CALL;
  const failures: { message: string; values: Value[] }[] = [];
  if (ownAttributes) {
    const isIntrinsic = directCalleeName(call)?.startsWith('llvm.') === true;
    const isInlineAsm = call.operands[0]!.vk === 'asm';
    // verdicts are kept for return and parameter attributes only (not function attributes)
    const kindBit = verdicts !== undefined && !functionAttributes ? callKindBit(isIntrinsic, isInlineAsm) : 0;
    if (kindBit === 0 || !verdicts!.passed(attrs, call.functionType, kindBit)) {
      const site = { isIntrinsic, isInlineAsm, unnamedAddr: false, functionAttributes };
      const problems = attributeListProblems(call.functionType, attrs, site);
      for (const p of problems) failures.push({ message: p.message, values: p.namesValue ? [call] : [] });
      if (problems.length === 0 && kindBit !== 0) verdicts!.notePassed(attrs, call.functionType, kindBit);
    }
  }
  // no `immarg` or `preallocated` on either side: nothing more to look at
  if (verdicts !== undefined && (verdicts.specialBits(attrs) | (calleeAttrs === undefined ? 0 : verdicts.specialBits(calleeAttrs))) === 0) {
    return failures.length === 0 ? CLEAN_CALL : { failures, stop: false };
  }
  const params = call.functionType.params.length;
  for (let i = 0; i < params; i++) {
    const own = i < attrs.params.length ? specialBits(attrs.params[i]!) : 0;
    const theirs = i < calleeParams.length ? specialBits(calleeParams[i]!) : 0;
    const either = own | theirs;
    if (either === 0) continue;
    const arg = call.operands[1 + i]!;
    if ((own & IMMARG) !== 0 && (theirs & IMMARG) === 0) {
      failures.push({ message: 'immarg may not apply only to call sites', values: [arg, call] });
      return { failures, stop: true };
    }
    if ((either & IMMARG) !== 0 && arg.vk !== 'int' && arg.vk !== 'fp') {
      failures.push({ message: 'immarg operand has non-immediate parameter', values: [arg, call] });
      return { failures, stop: true };
    }
    if ((either & PREALLOCATED) !== 0) {
      const bundle = call.bundles.some((b) => b.tag === 'preallocated');
      const mustTail = (call.flags & Flag.MUSTTAIL) !== 0;
      if (bundle === mustTail) {
        failures.push({ message: 'preallocated operand either requires a preallocated bundle or the call to be musttail (but not both)', values: [arg, call] });
        return { failures, stop: true };
      }
    }
  }
  return failures.length === 0 ? NO_CALL_PROBLEMS : { failures, stop: false };
}

const IMMARG = 1;
const PREALLOCATED = 2;
const NO_PARAMETERS: readonly AttributeSet[] = [];

/** `immarg` and `preallocated` in one attribute set, as bits. */
function specialBits(set: AttributeSet): number {
  let bits = 0;
  const attrs = set.attributes;
  for (let i = 0; i < attrs.length; i++) {
    const key = attrs[i]!.key;
    if (key === 'immarg') bits |= IMMARG;
    else if (key === 'preallocated') bits |= PREALLOCATED;
  }
  return bits;
}

/** lookupIntrinsic by callee name (null: not an intrinsic LLVM 16 knows). */
const intrinsicsByName = new Map<string, ReturnType<typeof lookupIntrinsic> | null>();

/**
 * The callee's attributes as the verifier sees them: an intrinsic's are LLVM's (the parser gives
 * its declarations those), a declared or defined function's its own; undefined for an indirect
 * call, inline asm, or a function the parser has not read yet (while it is still parsing).
 */
function calleeAttributes(call: CallInst): AttributeList | undefined {
  const name = directCalleeName(call);
  if (name === undefined) return undefined;
  if (name.startsWith('llvm.')) {
    let info = intrinsicsByName.get(name);
    if (info === undefined) intrinsicsByName.set(name, (info = lookupIntrinsic(name) ?? null));
    if (info !== null) return intrinsicAttributes(info.list, call.functionType.params.length);
  }
  const callee = call.operands[0]!;
  return callee.vk === 'function' ? callee.attributes : undefined;
}

/**
 * The name of a call's direct callee: a function, or (while the parser is still reading) one it
 * has not reached yet; undefined for indirect calls and inline asm.
 */
export function directCalleeName(call: CallInst): string | undefined {
  const callee = call.operands[0]! as Value | { readonly vk: 'fwd'; readonly name: string };
  return callee.vk === 'function' || callee.vk === 'fwd' ? callee.name : undefined;
}

/**
 * The report as LLVM's verifier writes it: each message on its line, then each value (an
 * instruction as printed in the module, anything else as a typed operand), one per line.
 */
export function formatLLVMVerifierFailures(module: Module, failures: readonly LLVMVerifierFailure[]): string {
  const texts = valueTexts(
    module,
    failures.flatMap((f) => f.values.map((value) => ({ value, fn: f.fn }))),
  );
  let next = 0;
  let out = '';
  for (const f of failures) {
    out += f.message + '\n';
    for (let i = 0; i < f.values.length; i++) out += texts[next++] + '\n';
  }
  return out;
}

/**
 * visitFunction's checks of the function's own attributes and types; true when a failed one ends
 * visitFunction before its entry-block check (the blocks are still visited).
 */
function checkHeader(fn: IRFunction, failures: LLVMVerifierFailure[], functionAttributes: boolean, verdicts: AttributeVerdicts | undefined): boolean {
  let stopped = false;
  if (verdicts === undefined || !verdicts.headerPassed(fn)) {
    const before = failures.length;
    const site = { isIntrinsic: fn.isIntrinsic, isInlineAsm: false, unnamedAddr: fn.unnamedAddr === 'unnamed_addr', functionAttributes };
    for (const p of attributeListProblems(fn.functionType, fn.attributes, site)) failures.push({ message: p.message, fn, values: p.namesValue ? [fn] : [] });
    stopped = hasElementTypeAttribute(fn.attributes);
    if (stopped) failures.push({ message: "Attribute 'elementtype' can only be applied to a callsite.", fn, values: [fn] });
    else {
      const problem = nonIntrinsicTypeProblem(fn);
      if (problem !== undefined) {
        failures.push({ message: problem.message, fn, values: problem.values });
        stopped = true;
      }
    }
    // without function attributes (facts), these checks read only what the header's key holds
    if (verdicts !== undefined && !functionAttributes && failures.length === before) verdicts.noteHeaderPassed(fn);
  }
  return stopped;
}

/**
 * `facts`, when the parser gives them, name the only instructions that can fail the checks made
 * per instruction (besides terminators): the others are visited without being looked at.
 */
function checkFunction(fn: IRFunction, failures: LLVMVerifierFailure[], facts?: ParsedFunctionFacts, verdicts?: AttributeVerdicts): void {
  // with facts, the parse is still going on, and the `#N` groups may not have been read yet
  const functionAttributes = facts === undefined;
  const stopped = checkHeader(fn, failures, functionAttributes, verdicts);
  const blocks = fn.blocks;
  const entry = blocks[0];
  if (entry === undefined) return;
  // one walk for the cheap checks that also makes the predecessor edges (predecessorEdges), which
  // PHI nodes and most uses of values of other blocks need
  // (instructions are of many classes: each of their properties read here is a megamorphic load,
  // so blocks that start with PHI nodes are noted in this walk, not looked up again)
  let phiBlocks: BasicBlock[] | undefined;
  let entryHasPredecessor = false;
  let edges: Map<BasicBlock, BasicBlock[]> | undefined;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const insts = block.instructions;
    const last = insts[insts.length - 1];
    if (last === undefined) continue;
    if (insts[0]!.opcode === 'phi') (phiBlocks ??= []).push(block);
    const ops = last.operands;
    // asked of every block, not only at a block operand: feedback from all blocks early keeps
    // this site from meeting a new instruction class after it is optimized (a deopt)
    const isTerminator = last.isTerminator;
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k]!;
      if (op === entry) entryHasPredecessor = true;
      // `instanceof`, not `op.vk`: values of ever more classes come here (returned values, branch
      // conditions), and optimized code that reads a property of one it has not met deopts
      if (!isTerminator || !(op instanceof BasicBlock)) continue;
      const list = (edges ??= new Map()).get(op);
      if (list === undefined) edges.set(op, [block]);
      else list.push(block);
    }
  }
  if (entryHasPredecessor && !stopped) failures.push({ message: 'Entry block to function must not have predecessors!', fn, values: [entry] });
  const check = new FunctionCheck(fn, failures, edges ?? NO_EDGES, functionAttributes, verdicts);
  const preds = check.preds;
  let nextPhiBlock = 0;
  if (facts === undefined) {
    for (let b = 0; b < blocks.length; b++) {
      const block = blocks[b]!;
      const insts = block.instructions;
      nextPhiBlock = checkPhiEntriesAt(check, block, preds, phiBlocks, nextPhiBlock);
      let previousIsPhi = true;
      for (let i = 0; i < insts.length; i++) {
        const inst = insts[i]!;
        const isPhi = inst.opcode === 'phi';
        visitInstruction(check, inst, i, block, isPhi && !previousIsPhi, true, true);
        previousIsPhi = isPhi;
      }
    }
    return;
  }
  // with facts, the calls whose attributes fail are known before the walk (badCalls below): the
  // others pass, or are rechecked whole after the parse (a callee with `immarg`/`preallocated`
  // parameters, see verifyWhileParsing), so their checks are not made twice
  let badCalls: CallInst[] | undefined;
  const calls = facts.callsToCheck;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    if (verdicts?.callPassed(call) === true) continue;
    const found = callProblems(call, false, verdicts);
    if (found === CLEAN_CALL) verdicts?.noteCallPassed(call);
    else if (found.failures.length > 0) (badCalls ??= []).push(call);
  }
  // only the instructions the parser named, and the terminator, in block order
  const users = facts.nonLocalUsers;
  const phis = facts.phisAfterOthers;
  let nextUser = 0;
  let nextPhi = 0;
  let nextBadCall = 0;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const insts = block.instructions;
    nextPhiBlock = checkPhiEntriesAt(check, block, preds, phiBlocks, nextPhiBlock);
    const firstUser = nextUser;
    while (nextUser < users.length && users[nextUser]!.parent === block) nextUser++;
    const firstPhi = nextPhi;
    while (nextPhi < phis.length && phis[nextPhi]!.parent === block) nextPhi++;
    const firstBadCall = nextBadCall;
    if (badCalls !== undefined) while (nextBadCall < badCalls.length && badCalls[nextBadCall]!.parent === block) nextBadCall++;
    const last = insts.length - 1;
    const term = insts[last]!;
    if (firstPhi === nextPhi && firstBadCall === nextBadCall) {
      // the common case: users are in block order already, so their positions are found in one scan
      let at = 0;
      for (let k = firstUser; k < nextUser; k++) {
        const user = users[k]!;
        while (at < last && insts[at] !== user) at++;
        visitInstruction(check, user, at, block, false, true, false);
      }
      // a terminator that is not a user has only the checks of its opcode to pass
      if ((firstUser === nextUser || users[nextUser - 1] !== term) && hasOpcodeChecks(term)) visitInstruction(check, term, last, block, false, false, false);
    } else {
      visitNamed(check, block, users, firstUser, nextUser, phis, firstPhi, nextPhi, badCalls ?? NO_CALLS, firstBadCall, nextBadCall);
    }
  }
}

const NO_CALLS: readonly CallInst[] = [];

/** Whether visitInstruction checks `inst` for its opcode alone (without operands or call attributes). */
function hasOpcodeChecks(inst: Instruction): boolean {
  const opcode = inst.opcode;
  return opcode === 'switch' || opcode === 'resume';
}

/** The named instructions of a block that has misplaced PHI nodes or failing calls, in block order. */
function visitNamed(
  check: FunctionCheck,
  block: BasicBlock,
  users: readonly Instruction[],
  firstUser: number,
  endUser: number,
  phis: readonly Instruction[],
  firstPhi: number,
  endPhi: number,
  badCalls: readonly CallInst[],
  firstBadCall: number,
  endBadCall: number,
): void {
  const insts = block.instructions;
  const term = insts[insts.length - 1]!;
  const visits = new Map<Instruction, { misplacedPhi: boolean; operands: boolean; call: boolean }>();
  for (let k = firstUser; k < endUser; k++) visits.set(users[k]!, { misplacedPhi: false, operands: true, call: false });
  for (let k = firstPhi; k < endPhi; k++) {
    const seen = visits.get(phis[k]!);
    if (seen !== undefined) seen.misplacedPhi = true;
    else visits.set(phis[k]!, { misplacedPhi: true, operands: false, call: false });
  }
  for (let k = firstBadCall; k < endBadCall; k++) {
    const seen = visits.get(badCalls[k]!);
    if (seen !== undefined) seen.call = true;
    else visits.set(badCalls[k]!, { misplacedPhi: false, operands: false, call: true });
  }
  if (!visits.has(term)) visits.set(term, { misplacedPhi: false, operands: false, call: false });
  const ordered = [...visits].map(([inst, how]) => ({ inst, how, index: positionOf(insts, inst) })).sort((x, y) => x.index - y.index);
  for (const { inst, how, index } of ordered) visitInstruction(check, inst, index, block, how.misplacedPhi, how.operands, how.call);
}

/**
 * Both walks of `checkFunction` go through the blocks in order, and `phiBlocks` (from its first
 * walk) lists the blocks that start with a PHI node in that order: when `block` is the next of
 * them, its PHI checks are made here, in their place among the block's other failures. Returns the
 * index of the next PHI block.
 */
function checkPhiEntriesAt(
  check: FunctionCheck,
  block: BasicBlock,
  preds: ReadonlyMap<BasicBlock, readonly BasicBlock[]>,
  phiBlocks: readonly BasicBlock[] | undefined,
  next: number,
): number {
  if (phiBlocks === undefined || phiBlocks[next] !== block) return next;
  checkPhiEntries(check, block, preds);
  return next + 1;
}

/** visitBasicBlock's PHI checks of `block` (its first instruction is a PHI node). */
function checkPhiEntries(check: FunctionCheck, block: BasicBlock, preds: ReadonlyMap<BasicBlock, readonly BasicBlock[]>): void {
  const problem = phiEntriesProblem(block, preds.get(block) ?? NO_BLOCKS);
  if (problem !== undefined) check.fail(problem.message, problem.values);
}

const NO_BLOCKS: readonly BasicBlock[] = [];

/**
 * visitInstruction for one instruction at `index` of `block`: its call attributes (`checkCall`),
 * the checks of its opcode, then (`checkOperands`) whether its operands dominate it.
 */
function visitInstruction(check: FunctionCheck, inst: Instruction, index: number, block: BasicBlock, misplacedPhi: boolean, checkOperands: boolean, checkCall: boolean): void {
  const opcode = inst.opcode;
  if (checkCall && (opcode === 'call' || opcode === 'invoke' || opcode === 'callbr')) {
    const found = callProblems(inst as CallInst, check.functionAttributes, check.verdicts);
    for (const f of found.failures) check.fail(f.message, f.values);
    if (found.stop) return;
  }
  if (opcode === 'phi') {
    // visitPHINode returns at a failed check, before the checks every instruction gets
    if (misplacedPhi) return check.fail('PHI nodes not grouped at top of basic block!', [inst, block]);
  } else if (opcode === 'switch' && !caseTypesMatch(inst)) {
    return check.fail('Switch constants must all be same type as switch value!', [inst]);
  } else if (opcode === 'resume' && check.fn.personality === undefined) {
    return check.fail('ResumeInst needs to be in a function with a personality.', [inst]);
  }
  if (!checkOperands) return;
  const problems = operandProblems(inst, opcode, index, block, check);
  if (problems === 'self') check.fail('Only PHI nodes may reference their own value!', [inst]);
  else for (let k = 0; k < problems.length; k++) check.fail('Instruction does not dominate all uses!', [problems[k]!, inst]);
}

/** The position of `inst` in its block. */
function positionOf(insts: readonly Instruction[], inst: Instruction): number {
  if (inst === insts[insts.length - 1]) return insts.length - 1;
  if (insts.length <= 64) return insts.indexOf(inst);
  return positionsOf(insts).get(inst)!;
}

/**
 * visitInstruction's operand checks: `'self'` when a non-PHI instruction in a reachable block
 * uses itself (which ends the checks), else each operand, in LLVM's operand order, that does not
 * dominate its use (one failure per operand, as LLVM reports them).
 */
function operandProblems(inst: Instruction, opcode: Opcode, index: number, block: BasicBlock, check: FunctionCheck): 'self' | readonly Instruction[] {
  const ops = inst.operands;
  // nearly every instruction passes: no list is made for those
  let bad: Instruction[] | undefined;
  if (opcode === 'phi') {
    for (let k = 0; k < ops.length; k += 2) {
      const op = ops[k]!;
      if (op.vk === 'instruction' && !dominatesUse(op, op.parent!, inst, true, ops[k + 1] as BasicBlock, index, check)) (bad ??= []).push(op);
    }
    return bad ?? NONE_BAD;
  }
  if (usesItself(ops, inst) && check.tree.isReachable(block)) return 'self';
  if (opcode === 'call' || opcode === 'invoke' || opcode === 'callbr') {
    // LLVM keeps the callee last: arguments, bundle inputs, callee
    const call = inst as CallInst;
    const args = call.argCount;
    for (let k = 1; k <= args; k++) if (!usable(ops[k]!, inst, index, block, check)) (bad ??= []).push(ops[k] as Instruction);
    for (const bundle of call.bundles) for (const v of bundle.inputs) if (!usable(v, inst, index, block, check)) (bad ??= []).push(v as Instruction);
    if (!usable(ops[0]!, inst, index, block, check)) (bad ??= []).push(ops[0] as Instruction);
  } else {
    for (let k = 0; k < ops.length; k++) if (!usable(ops[k]!, inst, index, block, check)) (bad ??= []).push(ops[k] as Instruction);
  }
  return bad ?? NONE_BAD;
}

const NONE_BAD: readonly Instruction[] = [];

/**
 * Whether operand `op` of the non-PHI `user` (at `index` of `block`) passes verifyDominatesUse.
 * Values of several classes meet here, so each property is read once (a megamorphic load each).
 */
function usable(op: Value, user: Instruction, index: number, block: BasicBlock, check: FunctionCheck): boolean {
  if (op.vk !== 'instruction') return true;
  const defBlock = op.parent!;
  // a definition earlier in the same block needs no dominator tree
  if (defBlock === block && definedBefore(block.instructions, op, index)) return true;
  return dominatesUse(op, defBlock, user, false, block, index, check);
}

/** Positions of the instructions of long blocks, where searching them would be slow. */
const positionsOfLongBlocks = new WeakMap<readonly Instruction[], Map<Instruction, number>>();

function positionsOf(insts: readonly Instruction[]): Map<Instruction, number> {
  let positions = positionsOfLongBlocks.get(insts);
  if (positions === undefined) {
    positions = new Map(insts.map((inst, i) => [inst, i]));
    positionsOfLongBlocks.set(insts, positions);
  }
  return positions;
}

/** Whether `def` is among the instructions before position `index` of the block. */
function definedBefore(insts: readonly Instruction[], def: Instruction, index: number): boolean {
  if (index <= 64) {
    // searched backwards: uses are usually near their definitions
    for (let i = index - 1; i >= 0; i--) if (insts[i] === def) return true;
    return false;
  }
  const at = positionsOf(insts).get(def);
  return at !== undefined && at < index;
}

/**
 * LLVM's `DominatorTree::dominates(Def, Use)`: `useBlock` is the PHI's incoming block for PHI
 * uses; `defBlock` is the parent of `def`, `userIsPhi` whether `user` is a PHI node.
 */
function dominatesUse(def: Instruction, defBlock: BasicBlock, user: Instruction, userIsPhi: boolean, useBlock: BasicBlock, userIndex: number, check: FunctionCheck): boolean {
  const opcode = def.opcode;
  if (opcode === 'invoke' || opcode === 'callbr') return edgeResultDominatesUse(def, opcode, defBlock, user, userIsPhi, useBlock, check);
  if (defBlock === useBlock) {
    // a PHI entry from the defining block itself
    if (userIsPhi) return true;
  } else if (defBlock === defBlock.parent.blocks[0] || check.singlePredecessorChainReaches(defBlock, useBlock)) {
    // the entry block dominates every block (unreachable ones too, by LLVM's rule); a chain of
    // single predecessors from the use up to the definition settles most other uses without a tree
    return true;
  }
  const tree = check.tree;
  if (!tree.isReachable(useBlock)) return true;
  if (!tree.isReachable(defBlock)) return false;
  if (defBlock !== useBlock) return tree.dominates(defBlock, useBlock);
  return definedBefore(defBlock.instructions, def, userIndex);
}

/** {@link dominatesUse} for the result of an invoke or callbr, which exists on the edge to the normal (default) destination only. */
function edgeResultDominatesUse(def: Instruction, opcode: Opcode, defBlock: BasicBlock, user: Instruction, userIsPhi: boolean, useBlock: BasicBlock, check: FunctionCheck): boolean {
  const ops = def.operands;
  // an invoke whose normal and unwind destinations are the same is refused elsewhere, not here
  if (opcode === 'invoke' && ops[ops.length - 1] === ops[ops.length - 2]) return true;
  const tree = check.tree;
  if (!tree.isReachable(useBlock)) return true;
  if (!tree.isReachable(defBlock)) return false;
  const normal = (opcode === 'invoke' ? ops[ops.length - 2] : ops[ops.length - 1 - (def as CallInst).indirectDestCount]) as BasicBlock;
  if (userIsPhi && user.parent === normal && useBlock === defBlock) return true;
  return tree.edgeDominates(defBlock, normal, useBlock);
}

const NO_EDGES: ReadonlyMap<BasicBlock, readonly BasicBlock[]> = new Map();

/**
 * What the checks of one function share: where failures go, its predecessor lists (those of
 * predecessorEdges) and its dominator tree, made when first needed. An object rather than
 * closures over checkFunction's locals, which would make each of its calls allocate a context.
 */
class FunctionCheck {
  private treeCache: DominatorTree | undefined;

  constructor(
    readonly fn: IRFunction,
    private readonly failures: LLVMVerifierFailure[],
    readonly preds: ReadonlyMap<BasicBlock, readonly BasicBlock[]>,
    /** Whether function attributes are checked (not while parsing: their `#N` groups may come later). */
    readonly functionAttributes: boolean,
    readonly verdicts: AttributeVerdicts | undefined,
  ) {}

  fail(message: string, values: readonly Value[]): void {
    this.failures.push({ message, fn: this.fn, values });
  }

  get tree(): DominatorTree {
    return (this.treeCache ??= new DominatorTree(this.fn, this.preds));
  }

  /**
   * Whether following single predecessors up from `b` meets `a`: then every path to `b` passes
   * through `a`, so `a` dominates it. The entry block ends the walk (it is reached without its
   * predecessors). A cheap sufficient test; `false` says nothing.
   */
  singlePredecessorChainReaches(a: BasicBlock, b: BasicBlock): boolean {
    const entry = this.fn.blocks[0];
    const preds = this.preds;
    let current = b;
    for (let steps = this.fn.blocks.length; steps > 0 && current !== entry; steps--) {
      const list = preds.get(current);
      if (list === undefined || list.length !== 1) return false;
      current = list[0]!;
      if (current === a) return true;
    }
    return false;
  }
}

/**
 * Dominators of a function's blocks (Cooper, Harvey and Kennedy's iterative algorithm over the
 * reverse postorder), answering "does A dominate B" by DFS intervals of the dominator tree.
 * Blocks are numbered by their position in the function; unreachable ones get no interval.
 * Edge lists are kept flat in typed arrays (a start per block, CSR style): no list per block.
 */
export class DominatorTree {
  private readonly blocks: readonly BasicBlock[];
  private readonly number = new Map<BasicBlock, number>();
  /** Predecessor edges by block number (a block once per edge): those of block i at predStart[i]..predStart[i+1]. */
  private readonly predStart: Int32Array;
  private readonly predList: Int32Array;
  private readonly enter: Int32Array;
  private readonly exit: Int32Array;

  constructor(fn: IRFunction, predecessors: ReadonlyMap<BasicBlock, readonly BasicBlock[]>) {
    const blocks = fn.blocks;
    this.blocks = blocks;
    const n = blocks.length;
    const number = this.number;
    for (let i = 0; i < n; i++) number.set(blocks[i]!, i);
    // the same edges by block number, both ways
    const predStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) predStart[i + 1] = predStart[i]! + (predecessors.get(blocks[i]!)?.length ?? 0);
    const predList = new Int32Array(predStart[n]!);
    const succStart = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) {
      const list = predecessors.get(blocks[j]!);
      if (list === undefined) continue;
      for (let k = 0; k < list.length; k++) {
        const i = number.get(list[k]!)!;
        predList[predStart[j]! + k] = i;
        succStart[i + 1]!++;
      }
    }
    for (let i = 0; i < n; i++) succStart[i + 1]! += succStart[i]!;
    const succList = new Int32Array(succStart[n]!);
    const succFill = succStart.slice(0, n);
    for (let j = 0; j < n; j++) for (let k = predStart[j]!; k < predStart[j + 1]!; k++) succList[succFill[predList[k]!]!++] = j;
    this.predStart = predStart;
    this.predList = predList;
    // reverse postorder from the entry
    const post = new Int32Array(n);
    let reached = 0;
    const visited = new Uint8Array(n);
    const stack = new Int32Array(n);
    const cursor = succStart.slice(0, n);
    let depth = 1;
    stack[0] = 0;
    visited[0] = 1;
    while (depth > 0) {
      const b = stack[depth - 1]!;
      if (cursor[b]! < succStart[b + 1]!) {
        const next = succList[cursor[b]!++]!;
        if (visited[next] === 0) {
          visited[next] = 1;
          stack[depth++] = next;
        }
      } else {
        post[reached++] = b;
        depth--;
      }
    }
    // order[i]: the block at reverse-postorder position i; rpoIndex the other way (-1: unreachable)
    const order = new Int32Array(reached);
    const rpoIndex = new Int32Array(n).fill(-1);
    for (let i = 0; i < reached; i++) {
      const b = post[reached - 1 - i]!;
      order[i] = b;
      rpoIndex[b] = i;
    }
    // immediate dominators, by reverse-postorder position
    const idom = new Int32Array(reached).fill(-1);
    idom[0] = 0;
    for (let changed = true; changed; ) {
      changed = false;
      for (let i = 1; i < reached; i++) {
        let next = -1;
        const b = order[i]!;
        for (let k = predStart[b]!; k < predStart[b + 1]!; k++) {
          let a = rpoIndex[predList[k]!]!;
          if (a < 0 || idom[a] === -1) continue;
          if (next !== -1) {
            let c = next;
            while (a !== c) {
              while (a > c) a = idom[a]!;
              while (c > a) c = idom[c]!;
            }
          }
          next = a;
        }
        if (next !== idom[i]) {
          idom[i] = next;
          changed = true;
        }
      }
    }
    // DFS intervals of the dominator tree, by block number; children by reverse-postorder position
    const childStart = new Int32Array(reached + 1);
    for (let i = 1; i < reached; i++) childStart[idom[i]! + 1]!++;
    for (let i = 0; i < reached; i++) childStart[i + 1]! += childStart[i]!;
    const children = new Int32Array(Math.max(reached - 1, 0));
    const childFill = childStart.slice(0, reached);
    for (let i = 1; i < reached; i++) children[childFill[idom[i]!]!++] = i;
    this.enter = new Int32Array(n).fill(-1);
    this.exit = new Int32Array(n).fill(-1);
    let clock = 0;
    const childCursor = childStart.slice(0, reached);
    depth = 1;
    stack[0] = 0;
    this.enter[order[0]!] = clock++;
    while (depth > 0) {
      const top = stack[depth - 1]!;
      if (childCursor[top]! < childStart[top + 1]!) {
        const child = children[childCursor[top]!++]!;
        this.enter[order[child]!] = clock++;
        stack[depth++] = child;
      } else {
        this.exit[order[top]!] = clock++;
        depth--;
      }
    }
  }

  isReachable(b: BasicBlock): boolean {
    const i = this.number.get(b);
    return i !== undefined && this.enter[i]! >= 0;
  }

  /** LLVM's block dominance: every block dominates itself; unreachable blocks are dominated by all. */
  dominates(a: BasicBlock, b: BasicBlock): boolean {
    const bi = this.number.get(b);
    if (bi === undefined || this.enter[bi]! < 0) return true;
    const ai = this.number.get(a);
    if (ai === undefined || this.enter[ai]! < 0) return false;
    return this.enter[ai]! <= this.enter[bi]! && this.exit[bi]! <= this.exit[ai]!;
  }

  /** LLVM's `dominates(BasicBlockEdge, BasicBlock)`: the edge start→end dominates `use`. */
  edgeDominates(start: BasicBlock, end: BasicBlock, use: BasicBlock): boolean {
    if (!this.dominates(end, use)) return false;
    const endNumber = this.number.get(end)!;
    const first = this.predStart[endNumber]!;
    const stop = this.predStart[endNumber + 1]!;
    if (stop - first === 1) return true;
    const startNumber = this.number.get(start);
    let edgesFromStart = 0;
    for (let k = first; k < stop; k++) {
      const p = this.predList[k]!;
      if (p === startNumber) {
        if (edgesFromStart++ > 0) return false;
        continue;
      }
      if (!this.dominates(end, this.blockAt(p))) return false;
    }
    return true;
  }

  private blockAt(i: number): BasicBlock {
    return this.blocks[i]!;
  }
}

function caseTypesMatch(sw: Instruction): boolean {
  const ops = sw.operands;
  const conditionType = ops[0]!.type;
  for (let k = 2; k < ops.length; k += 2) if (ops[k]!.type !== conditionType) return false;
  return true;
}

/**
 * LLVM's visitBasicBlock checks of the leading PHI nodes of `block` (the first failure only).
 * Entries that match the predecessor edges one to one need no order; only a failure is located
 * the way LLVM's sorted walk finds it.
 */
function phiEntriesProblem(block: BasicBlock, preds: readonly BasicBlock[]): { message: string; values: Value[] } | undefined {
  let edges: Map<BasicBlock, number> | undefined;
  for (const phi of block.instructions) {
    if (phi.opcode !== 'phi') break;
    if (phi.operands.length / 2 !== preds.length) return locatePhiProblem(block, phi, preds);
    if (preds.length <= SMALL_PHI ? matchesFewEdges(phi, preds) : matchesEdges(phi, (edges ??= edgeCounts(preds)))) continue;
    return locatePhiProblem(block, phi, preds);
  }
  return undefined;
}

/** Up to this many predecessor edges, PHI entries are matched by searching the lists (no maps). */
const SMALL_PHI = 8;

/**
 * {@link matchesEdges} for a PHI node with as many entries as `preds` has edges: each entry's
 * block comes as often among the entries as among the edges, and with the value of its first entry.
 */
function matchesFewEdges(phi: Instruction, preds: readonly BasicBlock[]): boolean {
  const ops = phi.operands;
  for (let k = 0; k < ops.length; k += 2) {
    const incoming = ops[k + 1];
    let entries = 0;
    for (let j = 1; j < ops.length; j += 2) {
      if (ops[j] !== incoming) continue;
      if (ops[j - 1] !== ops[k]) return false;
      entries++;
    }
    let count = 0;
    for (let i = 0; i < preds.length; i++) if (preds[i] === incoming) count++;
    if (count !== entries) return false;
  }
  return true;
}

function edgeCounts(preds: readonly BasicBlock[]): Map<BasicBlock, number> {
  const edges = new Map<BasicBlock, number>();
  for (const p of preds) edges.set(p, (edges.get(p) ?? 0) + 1);
  return edges;
}

/** Whether the entries of `phi` name each predecessor once per edge, with one value per block. */
function matchesEdges(phi: Instruction, edges: ReadonlyMap<BasicBlock, number>): boolean {
  const ops = phi.operands;
  const seen = new Map<BasicBlock, { count: number; value: Value }>();
  for (let k = 0; k < ops.length; k += 2) {
    const incoming = ops[k + 1] as BasicBlock;
    const entry = seen.get(incoming);
    if (entry === undefined) seen.set(incoming, { count: 1, value: ops[k]! });
    else if (entry.value !== ops[k]) return false;
    else entry.count++;
  }
  for (const [incoming, { count }] of seen) if (edges.get(incoming) !== count) return false;
  return true;
}

/** The failure LLVM reports for `phi`: its walk over entries and predecessors sorted by block. */
function locatePhiProblem(block: BasicBlock, phi: Instruction, preds: readonly BasicBlock[]): { message: string; values: Value[] } {
  const ops = phi.operands;
  if (ops.length / 2 !== preds.length) return { message: 'PHINode should have one entry for each predecessor of its parent basic block!', values: [phi] };
  const order = creationOrder(block.parent);
  const rank = (b: BasicBlock): number => order.get(b) ?? Number.MAX_SAFE_INTEGER;
  const sortedPreds = [...preds].sort((a, b) => rank(a) - rank(b));
  const entries: [BasicBlock, Value][] = [];
  for (let k = 0; k < ops.length; k += 2) entries.push([ops[k + 1] as BasicBlock, ops[k]!]);
  entries.sort((a, b) => rank(a[0]) - rank(b[0]));
  for (let i = 0; i < entries.length; i++) {
    const [incoming, value] = entries[i]!;
    if (i > 0 && incoming === entries[i - 1]![0] && value !== entries[i - 1]![1]) {
      return {
        message: 'PHI node has multiple entries for the same basic block with different incoming values!',
        values: [phi, incoming, value, entries[i - 1]![1]],
      };
    }
    if (incoming !== sortedPreds[i]) return { message: 'PHI node entries do not match predecessors!', values: [phi, incoming, sortedPreds[i]!] };
  }
  // unreachable: matchesEdges found a difference the sorted walk must meet
  return { message: 'PHI node entries do not match predecessors!', values: [phi] };
}

/** Blocks in the order LLVM's parser creates them: a block's label, or an earlier operand naming it. */
function creationOrder(fn: IRFunction): Map<BasicBlock, number> {
  const order = new Map<BasicBlock, number>();
  const note = (b: BasicBlock): void => {
    if (!order.has(b) && b.parent === fn) order.set(b, order.size);
  };
  for (const block of fn.blocks) {
    note(block);
    for (const inst of block.instructions) for (const op of inst.operands) if (op.vk === 'block') note(op);
  }
  return order;
}

function usesItself(ops: readonly Value[], inst: Instruction): boolean {
  for (let i = 0; i < ops.length; i++) if (ops[i] === inst) return true;
  return false;
}

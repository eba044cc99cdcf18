/**
 * The checks of LLVM's IR verifier that LLVM 16's `opt` makes on its input and that a module can
 * fail after it parsed: `opt` refuses such a module ("input module is broken!") before running
 * any pass. Each failure has LLVM's message and the values LLVM's verifier writes after it.
 *
 * Checked, in the verifier's order (per function: the function, then each block, then each of its
 * instructions):
 * - the entry block has no predecessors;
 * - the leading PHI nodes of a block have one entry per predecessor edge, with the same value for
 *   repeated blocks, and their blocks are the predecessors;
 * - PHI nodes come first in their block (each one right after another, or first);
 * - only PHI nodes use their own value (in blocks reachable from the entry);
 * - `switch` case values have the condition's type;
 * - `resume` is only used in functions with a personality.
 *
 * Where LLVM sorts by pointer (the predecessor and PHI-entry comparison), blocks are ordered as
 * LLVM's parser creates them: by first mention (a branch to the block, or its label).
 */
import type { Instruction } from './instructions.js';
import type { Module } from './module.js';
import { verifierValueTexts } from './printer.js';
import type { BasicBlock, IRFunction, Value } from './values.js';

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
  for (const fn of module.functions) if (!fn.isDeclaration) checkFunction(fn, failures);
  return failures;
}

/**
 * The failures of one function definition. Calling it for each function as `parseModule`'s
 * `onFunction` gives the same failures as {@link llvmVerifierFailures} on the parsed module,
 * at a fraction of the cost (the function's instructions are still in the CPU caches).
 */
export function llvmVerifierFunctionFailures(fn: IRFunction): LLVMVerifierFailure[] {
  const failures: LLVMVerifierFailure[] = [];
  if (!fn.isDeclaration) checkFunction(fn, failures);
  return failures;
}

/**
 * The report as LLVM's verifier writes it: each message on its line, then each value (an
 * instruction as printed in the module, anything else as a typed operand), one per line.
 */
export function formatLLVMVerifierFailures(module: Module, failures: readonly LLVMVerifierFailure[]): string {
  const texts = verifierValueTexts(
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

function checkFunction(fn: IRFunction, failures: LLVMVerifierFailure[]): void {
  const fail = (message: string, ...values: Value[]): void => {
    failures.push({ message, fn, values });
  };
  const blocks = fn.blocks;
  const entry = blocks[0];
  if (entry === undefined) return;
  // one walk for the cheap checks; predecessors only for functions with PHI nodes
  let hasPhis = false;
  let entryHasPredecessor = false;
  for (let b = 0; b < blocks.length; b++) {
    const insts = blocks[b]!.instructions;
    if (insts[0]?.opcode === 'phi') hasPhis = true;
    const ops = insts[insts.length - 1]?.operands;
    if (ops !== undefined && !entryHasPredecessor) for (let k = 0; k < ops.length; k++) if (ops[k] === entry) entryHasPredecessor = true;
  }
  if (entryHasPredecessor) fail('Entry block to function must not have predecessors!', entry);
  const preds = hasPhis ? predecessorLists(fn) : undefined;
  let reachable: Set<BasicBlock> | undefined;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    const insts = block.instructions;
    if (preds !== undefined && insts[0]!.opcode === 'phi') {
      const problem = phiEntriesProblem(block, preds.get(block) ?? []);
      if (problem !== undefined) fail(problem.message, ...problem.values);
    }
    const last = insts.length - 1;
    let previousIsPhi = true;
    for (let i = 0; i < last; i++) {
      const inst = insts[i]!;
      if (inst.opcode === 'phi') {
        // LLVM looks at the instruction before only, so one misplaced group is reported once;
        // visitPHINode returns at a failed check, before the checks every instruction gets
        if (!previousIsPhi) fail('PHI nodes not grouped at top of basic block!', inst, block);
        previousIsPhi = true;
        continue;
      }
      previousIsPhi = false;
      if (usesItself(inst)) {
        reachable ??= reachableBlocks(fn, entry);
        if (reachable.has(block)) fail('Only PHI nodes may reference their own value!', inst);
      }
    }
    // terminators: no PHI nodes, and the only ones with checks of their own
    const term = insts[last]!;
    if (term.opcode === 'switch' && !caseTypesMatch(term)) fail('Switch constants must all be same type as switch value!', term);
    else if (term.opcode === 'resume' && fn.personality === undefined) fail('ResumeInst needs to be in a function with a personality.', term);
    else if (usesItself(term)) {
      reachable ??= reachableBlocks(fn, entry);
      if (reachable.has(block)) fail('Only PHI nodes may reference their own value!', term);
    }
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
  const edges = new Map<BasicBlock, number>();
  for (const p of preds) edges.set(p, (edges.get(p) ?? 0) + 1);
  for (const phi of block.instructions) {
    if (phi.opcode !== 'phi') break;
    if (phi.operands.length / 2 !== preds.length || !matchesEdges(phi, edges)) return locatePhiProblem(block, phi, preds);
  }
  return undefined;
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

function terminatorOf(block: BasicBlock): Instruction | undefined {
  const last = block.instructions[block.instructions.length - 1];
  return last !== undefined && last.isTerminator ? last : undefined;
}

/** Predecessor edges of every block: a block appears once per edge (`br i1 %c, label %x, label %x` twice). */
function predecessorLists(fn: IRFunction): Map<BasicBlock, BasicBlock[]> {
  const preds = new Map<BasicBlock, BasicBlock[]>();
  for (const block of fn.blocks) {
    const term = terminatorOf(block);
    if (term === undefined) continue;
    for (const op of term.operands) {
      if (op.vk !== 'block') continue;
      const list = preds.get(op);
      if (list === undefined) preds.set(op, [block]);
      else list.push(block);
    }
  }
  return preds;
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

function usesItself(inst: Instruction): boolean {
  const ops = inst.operands;
  for (let i = 0; i < ops.length; i++) if (ops[i] === inst) return true;
  return false;
}

function reachableBlocks(fn: IRFunction, entry: BasicBlock): Set<BasicBlock> {
  const seen = new Set<BasicBlock>([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    const term = terminatorOf(stack.pop()!);
    if (term === undefined) continue;
    for (const op of term.operands) {
      if (op.vk === 'block' && op.parent === fn && !seen.has(op)) {
        seen.add(op);
        stack.push(op);
      }
    }
  }
  return seen;
}

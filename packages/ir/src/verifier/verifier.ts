/**
 * A light module verifier for the checks a pass pipeline needs after each pass: references that
 * outlived what they point to (globals removed from the module, instructions erased from their
 * block, values of another function), block structure (terminators, phi placement), call
 * signatures, and the global symbol table. It returns problems instead of throwing, in a
 * deterministic order (module walk order), and never stops at the first one.
 */
import { diagnosticOf, type Diagnostic } from '@syclkit/pass-manager';
import { irDiagnostics } from '../errors.js';
import { CallInst, type Instruction } from '../model/instructions.js';
import type { Metadata, MDNode } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import { forEachOperand } from '../transforms/mapper.js';
import { constantOperands } from '../analysis/uses.js';
import { isGlobalValue, type BasicBlock, type Constant, type GlobalValue, type IRFunction, type Value } from '../model/values.js';

/** A `broken-module` diagnostic of {@link irDiagnostics}, with the place it is about. */
export interface VerifierProblem extends Diagnostic {
  /** `@name` of the function or global where the problem is, or `module`. */
  readonly where: string;
}

export interface VerifyOptions {
  /** Stop collecting after this many problems (default 100). */
  readonly maxProblems?: number;
}

/** Problems found in `m`; empty when the module passes. */
export function verifyModule(m: Module, options: VerifyOptions = {}): VerifierProblem[] {
  return new Verifier(m, options.maxProblems ?? 100).run();
}

/** `where: message` lines, one per problem. */
export function formatProblems(problems: readonly VerifierProblem[]): string {
  return problems.map((p) => `${p.where}: ${p.message}\n`).join('');
}

/** `where: message` strings, the form the pass manager's verify-after-each hook takes. */
export function moduleProblems(m: Module): string[] {
  return verifyModule(m).map((p) => `${p.where}: ${p.message}`);
}

class TooManyProblems extends Error {}

class Verifier {
  private readonly problems: VerifierProblem[] = [];
  private readonly checkedConstants = new Set<Constant>();
  private readonly checkedMetadata = new Set<Metadata>();
  private where = 'module';
  /** Blocks and instructions of the function being checked. */
  private blocks = new Set<BasicBlock>();
  private instructions = new Set<Instruction>();
  private fn: IRFunction | undefined;

  constructor(
    private readonly m: Module,
    private readonly max: number,
  ) {}

  run(): VerifierProblem[] {
    try {
      this.checkSymbolTable();
      for (const g of this.m.globals) {
        this.where = ref(g);
        if (g.initializer !== undefined) {
          this.constant(g.initializer, 'initializer');
          if (g.initializer.type !== g.valueType) this.report(`initializer type does not match the variable's value type`);
        }
        for (const a of g.attachments) this.metadata(a.node);
      }
      for (const a of this.m.aliases) {
        this.where = ref(a);
        this.constant(a.aliasee, 'aliasee');
      }
      for (const i of this.m.ifuncs) {
        this.where = ref(i);
        this.constant(i.resolver, 'resolver');
      }
      for (const f of this.m.functions) this.checkFunction(f);
      this.where = 'module';
      for (const [name, ops] of this.m.namedMetadata) {
        this.where = `!${name}`;
        for (const op of ops) this.metadata(op);
      }
    } catch (e) {
      if (!(e instanceof TooManyProblems)) throw e;
    }
    return this.problems;
  }

  private report(message: string): void {
    this.problems.push({ ...diagnosticOf(irDiagnostics, 'broken-module', message), where: this.where });
    if (this.problems.length >= this.max) throw new TooManyProblems();
  }

  private checkSymbolTable(): void {
    const seen = new Set<GlobalValue>();
    for (const gv of this.m.globalValues()) {
      this.where = ref(gv);
      if (seen.has(gv)) this.report('listed twice in the module');
      seen.add(gv);
      if (gv.parent !== this.m) this.report('listed in the module but its parent is another module (or none)');
      if (gv.name !== '' && this.m.getGlobalValue(gv.name) !== gv) this.report(`the symbol table maps '${gv.name}' to another value (or nothing)`);
      const c = gv.vk === 'global' || gv.vk === 'function' ? gv.comdat : undefined;
      if (c !== undefined && this.m.comdats.get(c.name) !== c) this.report(`comdat $${c.name} is not the module's comdat of that name`);
    }
  }

  private checkFunction(f: IRFunction): void {
    this.where = ref(f);
    this.fn = f;
    const params = f.functionType.params;
    if (!f.isDeclaration) {
      if (f.args.length !== params.length) this.report(`has ${f.args.length} arguments but its type has ${params.length} parameters`);
      f.args.forEach((a, i) => {
        if (a.parent !== f) this.report(`argument ${i} belongs to another function`);
        if (params[i] !== undefined && a.type !== params[i]) this.report(`argument ${i} does not have the parameter's type`);
      });
    }
    if (f.personality !== undefined) this.constant(f.personality, 'personality');
    if (f.prefix !== undefined) this.constant(f.prefix, 'prefix');
    if (f.prologue !== undefined) this.constant(f.prologue, 'prologue');
    for (const a of f.attachments) this.metadata(a.node);
    this.blocks = new Set(f.blocks);
    this.instructions = new Set();
    for (const b of f.blocks) for (const inst of b.instructions) this.instructions.add(inst);
    const localNames = new Set<string>();
    const named = (name: string, what: string): void => {
      if (name === '') return;
      if (localNames.has(name)) this.report(`local name %${name} is used twice (${what})`);
      localNames.add(name);
    };
    for (const a of f.args) named(a.name, 'argument');
    for (const b of f.blocks) {
      named(b.name, 'block');
      if (b.parent !== f) this.report(`block ${blockName(b)} has another parent function`);
      const insts = b.instructions;
      if (insts.length === 0) {
        this.report(`block ${blockName(b)} is empty (no terminator)`);
        continue;
      }
      let seenNonPhi = false;
      for (let i = 0; i < insts.length; i++) {
        const inst = insts[i]!;
        named(inst.name, 'instruction');
        if (inst.parent !== b) this.report(`instruction ${instName(inst)} in block ${blockName(b)} has another parent block`);
        if (inst.opcode === 'phi') {
          if (seenNonPhi) this.report(`phi ${instName(inst)} in block ${blockName(b)} is not grouped at the top of the block`);
        } else seenNonPhi = true;
        if (inst.isTerminator && i !== insts.length - 1) this.report(`terminator ${inst.opcode} in the middle of block ${blockName(b)}`);
        if (i === insts.length - 1 && !inst.isTerminator) this.report(`block ${blockName(b)} does not end with a terminator`);
        this.checkInstruction(inst);
      }
    }
    this.fn = undefined;
  }

  private checkInstruction(inst: Instruction): void {
    for (const op of inst.operands) this.value(op, inst);
    if (inst instanceof CallInst) {
      for (const bundle of inst.bundles) for (const v of bundle.inputs) this.value(v, inst);
      const fnType = inst.functionType;
      const args = inst.argCount;
      const params = fnType.params.length;
      if (args < params || (args > params && !fnType.varArgs)) {
        this.report(`${inst.opcode} ${instName(inst)} passes ${args} arguments to a function type with ${params} parameters`);
      }
      for (let i = 0; i < Math.min(args, params); i++) {
        if (inst.arg(i).type !== fnType.params[i]) this.report(`${inst.opcode} ${instName(inst)}: argument ${i} does not have the parameter's type`);
      }
      if (inst.type !== fnType.returnType) this.report(`${inst.opcode} ${instName(inst)}: result type is not the function type's return type`);
    }
    if (inst.attachments) for (const a of inst.attachments) this.metadata(a.node);
    if (inst.debugRecords) for (const r of inst.debugRecords) for (const op of r.operands) if (op !== null) this.metadata(op);
  }

  /** An operand: locals must belong to the current function, constants are checked deeply. */
  private value(v: Value, user: Instruction | undefined): void {
    const f = this.fn;
    switch (v.vk) {
      case 'argument':
        if (f === undefined || v.parent !== f || !f.args.includes(v)) this.report(`${describeUser(user)} uses argument %${v.name || '?'} of another function`);
        return;
      case 'block':
        if (!this.blocks.has(v)) this.report(`${describeUser(user)} refers to block ${blockName(v)}, which is not in this function`);
        return;
      case 'instruction':
        if (!this.instructions.has(v)) this.report(`${describeUser(user)} uses ${instName(v)}, which is not in this function (erased or foreign)`);
        return;
      case 'metadata':
        this.metadata(v.metadata);
        return;
      case 'asm':
        return;
      default:
        this.constant(v, describeUser(user));
    }
  }

  /** Checks a constant used by `user`; a constant already found sound is not walked again. */
  private constant(c: Constant, user: string): void {
    if (isGlobalValue(c)) {
      if (c.parent !== this.m) this.report(`${user} refers to ${ref(c)}, which is not in this module`);
      return;
    }
    if (this.checkedConstants.has(c)) return;
    const before = this.problems.length;
    if (c.vk === 'blockaddress') {
      const fn = c.fn;
      if (typeof c.block === 'string' || fn.vk !== 'function' || c.block.parent !== fn || !fn.blocks.includes(c.block)) {
        this.report(`${user} uses a blockaddress of a block that is not in its function`);
      }
    }
    for (const op of constantOperands(c)) this.constant(op as Constant, user);
    if (this.problems.length === before) this.checkedConstants.add(c);
  }

  private metadata(md: Metadata): void {
    if (this.checkedMetadata.has(md)) return;
    const stack: Metadata[] = [md];
    this.checkedMetadata.add(md);
    while (stack.length > 0) {
      const cur = stack.pop()!;
      switch (cur.mk) {
        case 'value': {
          const v = cur.value;
          if (v.vk === 'argument' || v.vk === 'instruction' || v.vk === 'block') {
            // function-local metadata: only valid as an operand of the current function; checked uncached
            this.checkedMetadata.delete(cur);
            this.value(v, undefined);
          } else if (v.vk !== 'metadata' && v.vk !== 'asm') this.constant(v, 'metadata');
          break;
        }
        case 'arglist':
          this.checkedMetadata.delete(cur);
          for (const a of cur.args) stack.push(a);
          break;
        case 'tuple':
        case 'di':
          forEachOperand(cur as MDNode, (op) => {
            if (op !== null && !this.checkedMetadata.has(op)) {
              this.checkedMetadata.add(op);
              stack.push(op);
            }
          });
          break;
        default:
          break;
      }
    }
  }
}

function ref(gv: GlobalValue): string {
  return gv.name === '' ? '@<unnamed>' : `@${gv.name}`;
}

function blockName(b: BasicBlock): string {
  return b.name === '' ? '<unnamed>' : `%${b.name}`;
}

function instName(inst: Instruction): string {
  return inst.name === '' ? `(unnamed ${inst.opcode})` : `%${inst.name}`;
}

function describeUser(user: Instruction | undefined): string {
  return user === undefined ? 'metadata' : `${user.opcode} ${instName(user)}`;
}

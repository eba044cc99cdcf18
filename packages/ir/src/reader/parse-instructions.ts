/**
 * Instructions: one instruction line, its operands, flags and operand checks.
 */
import { AttributeList, AttributeSet, type Attribute } from '../model/attributes.js';
import { IrSyntaxError } from '../errors.js';
import {
  castIsValid,
  compareOperandsProblem,
  extractElementValid,
  insertElementValid,
  isFPOrFPVector,
  isIntOrIntVector,
  selectOperandsProblem,
  shuffleVectorValid,
  type CastOpcode,
} from '../verifier/operand-rules.js';
import {
  AggregateInst,
  AllocaInst,
  BINARY_OPS,
  CAST_OPS,
  CallInst,
  CatchSwitchInst,
  CmpInst,
  Flag,
  GetElementPtrInst,
  Instruction,
  LandingPadInst,
  MemoryInst,
  ShuffleVectorInst,
  type AtomicOrdering,
  type Opcode,
  type OperandBundle,
  gepIndexedType,
} from '../model/instructions.js';
import {
  isFirstClassType,
  isSized,
  type FunctionType,
  type PointerType,
  type Type,
  type VectorType,
} from '../model/types.js';
import { BasicBlock, InlineAsm, type Value } from '../model/values.js';
import { Tok } from './lexer.js';
import { NameTable } from '../model/nametable.js';
import { ForwardGlobal, exactCopy, type AnyValue, type FunctionState, type ScratchList, typeString } from './parser-state.js';
import { ICMP_PREDICATES, FCMP_PREDICATES, predicateError, shuffleMaskOf, ValueParser } from './parse-values.js';

const ORDERINGS = new Set<string>(['unordered', 'monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst']);

const RMW_OPERATIONS = new Set([
  'xchg', 'add', 'sub', 'and', 'nand', 'or', 'xor', 'max', 'min', 'umax', 'umin', 'fadd', 'fsub', 'fmax', 'fmin',
  'uinc_wrap', 'udec_wrap', 'usub_cond', 'usub_sat', 'fmaximum', 'fminimum',
]);

/** atomicrmw operations on floating point values (LLVM 19 also takes vectors of them). */
const FP_RMW_OPERATIONS: ReadonlySet<string> = new Set(['fadd', 'fsub', 'fmax', 'fmin', 'fmaximum', 'fminimum']);

const FMF_FLAGS: Record<string, number> = {
  nnan: Flag.NNAN,
  ninf: Flag.NINF,
  nsz: Flag.NSZ,
  arcp: Flag.ARCP,
  contract: Flag.CONTRACT,
  afn: Flag.AFN,
  reassoc: Flag.REASSOC,
  fast: Flag.NNAN | Flag.NINF | Flag.NSZ | Flag.ARCP | Flag.CONTRACT | Flag.AFN | Flag.REASSOC,
};

/** The intrinsics LLVM 19's debug records replace (`isOldDbgFormatIntrinsic`). */
const OLD_DEBUG_INTRINSICS = new Set(['llvm.dbg.value', 'llvm.dbg.declare', 'llvm.dbg.assign', 'llvm.dbg.label']);

/** How {@link InstructionParser.parseInstruction} reads each opcode keyword. */
const enum Dispatch {
  // the terminators (TERMINATORS), Ret to Resume
  Ret, Br, Switch, IndirectBr, Unreachable, Invoke, CleanupRet, CatchRet, CatchSwitch, Resume,
  Binary, Cast, FNeg, Compare, Select, VAArg, ExtractElement, InsertElement,
  ShuffleVector, Phi, LandingPad, Freeze, Call, TailCall, Alloca, Load, Store, CmpXchg, AtomicRMW, Fence, GEP,
  ExtractValue, InsertValue, Pad,
}

const OPCODE_DISPATCH = new Map<string, Dispatch>([
  ...[...BINARY_OPS].map((op) => [op, Dispatch.Binary] as const),
  ...[...CAST_OPS].map((op) => [op, Dispatch.Cast] as const),
  ['ret', Dispatch.Ret], ['br', Dispatch.Br], ['switch', Dispatch.Switch], ['indirectbr', Dispatch.IndirectBr],
  ['unreachable', Dispatch.Unreachable], ['resume', Dispatch.Resume], ['fneg', Dispatch.FNeg], ['icmp', Dispatch.Compare],
  ['fcmp', Dispatch.Compare], ['select', Dispatch.Select], ['va_arg', Dispatch.VAArg], ['extractelement', Dispatch.ExtractElement],
  ['insertelement', Dispatch.InsertElement], ['shufflevector', Dispatch.ShuffleVector], ['phi', Dispatch.Phi],
  ['landingpad', Dispatch.LandingPad], ['freeze', Dispatch.Freeze], ['call', Dispatch.Call], ['tail', Dispatch.TailCall],
  ['musttail', Dispatch.TailCall], ['notail', Dispatch.TailCall], ['invoke', Dispatch.Invoke], ['callbr', Dispatch.Invoke],
  ['alloca', Dispatch.Alloca], ['load', Dispatch.Load], ['store', Dispatch.Store], ['cmpxchg', Dispatch.CmpXchg],
  ['atomicrmw', Dispatch.AtomicRMW], ['fence', Dispatch.Fence], ['getelementptr', Dispatch.GEP],
  ['extractvalue', Dispatch.ExtractValue], ['insertvalue', Dispatch.InsertValue], ['cleanupret', Dispatch.CleanupRet],
  ['catchret', Dispatch.CatchRet], ['catchswitch', Dispatch.CatchSwitch], ['catchpad', Dispatch.Pad], ['cleanuppad', Dispatch.Pad],
]);

const NO_FN_ATTRS: { attrs: Attribute[]; groups: number[]; memory: number | undefined } = { attrs: [], groups: [], memory: undefined };

export abstract class InstructionParser extends ValueParser {
  protected abstract parseOptionalCallingConv(): string;
  /**
   * Whether the instruction `parseInstruction` read last is a terminator, known from its opcode
   * keyword: cheaper than asking the instruction (a getter, on objects of many classes).
   */
  protected readTerminator = false;

  protected parseInstructionLine(st: FunctionState): Instruction {
    const loc = this.lex.start;
    let name = '';
    let nameHash = 0;
    let id = -1;
    if (this.t() === Tok.LocalVar) {
      const spanHash = this.lex.textIsSpan ? this.lex.textHash : undefined;
      name = this.lex.text;
      nameHash = spanHash ?? NameTable.hashSpan(name, 0, name.length);
      this.next();
      this.expect(Tok.Equal, "expected '=' after instruction name");
    } else if (this.t() === Tok.LocalVarID) {
      id = this.lex.num;
      this.next();
      this.expect(Tok.Equal, "expected '=' after instruction id");
    }
    const forwardRefsBefore = this.forwardRefs;
    const inst = this.parseInstruction(st);
    if (this.forwardRefs !== forwardRefsBefore) this.instructionsWithForwardRefs.push(inst);
    // attachments: `, !kind !N` (an instruction parser stops before such a comma); LLVM takes
    // any comma left after an instruction as the start of one
    if (this.t() === Tok.Comma) {
      this.next();
      if (this.t() !== Tok.MetadataVar) throw this.error('expected metadata after comma');
      // usually one (`!tbaa !8`): the shared frozen list of that one
      const first = this.parseOneAttachmentList();
      if (this.t() !== Tok.Comma) inst.attachments = first;
      else {
        const list = [first[0]!];
        do {
          this.next();
          if (this.t() !== Tok.MetadataVar) throw this.error('expected metadata after comma');
          this.parseAttachmentNoComma(list);
        } while (this.t() === Tok.Comma);
        inst.attachments = exactCopy(list);
      }
    }
    const isVoid = inst.type === this.ctx.void;
    if (isVoid) {
      if (name !== '' || id >= 0) throw this.error(`instructions returning void cannot have a name`, loc);
      return inst;
    }
    if (name !== '') {
      const len = name.length;
      if (st.named.getHashed(name, 0, len, nameHash) !== undefined || st.blocksNamed.getHashed(name, 0, len, nameHash) !== undefined)
        throw this.error(`multiple definition of local value named '${name}'`, loc);
      inst.name = name;
      st.named.setHashed(name, inst, nameHash);
      const fwd = st.fwdNamed.size === 0 ? undefined : st.fwdNamed.get(name);
      if (fwd !== undefined) {
        if (fwd.type !== inst.type) throw this.error(`instruction forward referenced with type '${typeString(fwd.type)}'`, loc);
        st.fwdNamed.delete(name);
        this.resolvedLocals.set(fwd, inst);
      }
    } else {
      const next = st.numbered.length;
      if (id >= 0 && id !== next) throw this.error(`instruction expected to be numbered '%${next}'`, loc);
      st.numbered.push(inst);
      const fwd = st.fwdNumbered.size === 0 ? undefined : st.fwdNumbered.get(next);
      if (fwd !== undefined) {
        if (fwd.type !== inst.type) throw this.error(`instruction forward referenced with type '${typeString(fwd.type)}'`, loc);
        st.fwdNumbered.delete(next);
        this.resolvedLocals.set(fwd, inst);
      }
    }
    return inst;
  }

  protected parseFastMathFlags(): number {
    let flags = 0;
    while (this.t() === Tok.Ident) {
      const f = FMF_FLAGS[this.lex.text];
      if (f === undefined) break;
      flags |= f;
      this.next();
    }
    return flags;
  }

  /**
   * One instruction after its `%name =`. A dispatcher: each opcode family is parsed by its own
   * small method, so V8 optimizes each one early and cheaply (one large function took until
   * ~1,500 functions into the 10 MiB benchmark module to get optimized code, and a compile of it
   * could be thrown away when a garbage collection changed an allocation site it inlined).
   */
  protected parseInstruction(st: FunctionState): Instruction {
    if (this.t() !== Tok.Ident) throw this.error('expected instruction opcode');
    const op = this.lex.text;
    const loc = this.lex.start;
    // one map probe instead of two set lookups and a chain of string comparisons
    const dispatch = OPCODE_DISPATCH.get(op);
    // the next token first, as LLVM reads it (its lexical errors come before this one)
    this.next();
    if (dispatch === undefined) throw this.error('expected instruction opcode', loc);
    this.readTerminator = dispatch >= Dispatch.Ret && dispatch <= Dispatch.Resume;
    switch (dispatch) {
      case Dispatch.Binary:
        return this.parseBinaryOp(op, st);
      case Dispatch.Cast:
        return this.parseCastOp(op, st);
      case Dispatch.Ret:
        return this.parseRet(st);
      case Dispatch.Br:
        return this.parseBr(st);
      case Dispatch.Switch:
        return this.parseSwitch(st);
      case Dispatch.IndirectBr:
        return this.parseIndirectBr(st);
      case Dispatch.Unreachable:
        return new Instruction('unreachable', this.ctx.void, []);
      case Dispatch.Resume:
        return new Instruction('resume', this.ctx.void, [this.parseTypeAndValue(st)]);
      case Dispatch.FNeg:
        return this.parseFNeg(st);
      case Dispatch.Compare:
        return this.parseCompare(op as 'icmp' | 'fcmp', st);
      case Dispatch.Select:
        return this.parseSelect(st);
      case Dispatch.VAArg:
        return this.parseVAArg(st);
      case Dispatch.ExtractElement:
        return this.parseExtractElement(st);
      case Dispatch.InsertElement:
        return this.parseInsertElement(st);
      case Dispatch.ShuffleVector:
        return this.parseShuffleVector(st);
      case Dispatch.Phi:
        return this.parsePhi(st);
      case Dispatch.LandingPad:
        return this.parseLandingPad(st);
      case Dispatch.Freeze:
        return this.parseFreeze(st);
      case Dispatch.Call:
        return this.parseCall(st, 0);
      case Dispatch.TailCall: {
        this.expectIdent('call', `expected 'call' after '${op}'`);
        return this.parseCall(st, op === 'tail' ? Flag.TAIL : op === 'musttail' ? Flag.MUSTTAIL : Flag.NOTAIL);
      }
      case Dispatch.Invoke:
        return this.parseCall(st, 0, op as 'invoke' | 'callbr');
      case Dispatch.Alloca:
        return this.parseAlloca(st);
      case Dispatch.Load:
        return this.parseLoad(st);
      case Dispatch.Store:
        return this.parseStore(st);
      case Dispatch.CmpXchg:
        return this.parseCmpXchg(st);
      case Dispatch.AtomicRMW:
        return this.parseAtomicRMW(st);
      case Dispatch.Fence: {
        const inst = new MemoryInst('fence', this.ctx.void, []);
        this.parseScopeAndOrdering(inst);
        return inst;
      }
      case Dispatch.GEP:
        return this.parseGEP(st);
      case Dispatch.ExtractValue:
        return this.parseExtractValue(st);
      case Dispatch.InsertValue:
        return this.parseInsertValue(st);
      case Dispatch.CleanupRet:
        return this.parseCleanupRet(st);
      case Dispatch.CatchRet:
        return this.parseCatchRet(st);
      case Dispatch.CatchSwitch:
        return this.parseCatchSwitch(st);
      case Dispatch.Pad:
        return this.parsePad(op as 'catchpad' | 'cleanuppad', st);
    }
  }

  protected parseBinaryOp(op: string, st: FunctionState): Instruction {
    let flags = 0;
    if (op === 'add' || op === 'sub' || op === 'mul' || op === 'shl') {
      for (;;) {
        if (this.eatIdent('nuw')) flags |= Flag.NUW;
        else if (this.eatIdent('nsw')) flags |= Flag.NSW;
        else break;
      }
    } else if (op === 'udiv' || op === 'sdiv' || op === 'lshr' || op === 'ashr') {
      if (this.eatIdent('exact')) flags |= Flag.EXACT;
    } else if (op === 'or') {
      if (this.eatIdent('disjoint')) flags |= Flag.DISJOINT;
    } else if (op[0] === 'f') flags |= this.parseFastMathFlags();
    const typeLoc = this.lex.start;
    const lhs = this.parseTypeAndValue(st);
    const logical = op === 'and' || op === 'or' || op === 'xor';
    this.expect(Tok.Comma, logical ? "expected ',' in logical operation" : "expected ',' in arithmetic operation");
    const rhs = this.parseValue(lhs.type, st);
    if (logical) {
      if (!isIntOrIntVector(lhs.type)) throw this.error('instruction requires integer or integer vector operands', typeLoc);
    } else if (op[0] === 'f' ? !isFPOrFPVector(lhs.type) : !isIntOrIntVector(lhs.type)) {
      throw this.error('invalid operand type for instruction', typeLoc);
    }
    return new Instruction(op as Opcode, lhs.type, [lhs, rhs], '', flags);
  }

  protected parseCastOp(op: string, st: FunctionState): Instruction {
    let flags = 0;
    if (op === 'zext' || op === 'uitofp') {
      if (this.eatIdent('nneg')) flags |= Flag.NNEG;
    } else if (op === 'trunc') {
      for (;;) {
        if (this.eatIdent('nuw')) flags |= Flag.NUW;
        else if (this.eatIdent('nsw')) flags |= Flag.NSW;
        else break;
      }
    }
    const castLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expectIdent('to', "expected 'to' after cast value");
    const dest = this.parseType();
    this.checkCast(op as CastOpcode, v.type, dest, castLoc);
    return new Instruction(op as Opcode, dest, [v], '', flags);
  }

  protected parseRet(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const typeLoc = this.lex.start;
    const resultType = st.fn.valueType.returnType;
    let v: Value;
    if (this.isIdent('void')) {
      this.next();
      if (this.t() !== Tok.LParen) {
        if (resultType !== ctx.void) throw this.returnMismatch(resultType, typeLoc);
        return new Instruction('ret', ctx.void, []);
      }
      // `ret void (i32)* @f`: a function pointer (typed pointers)
      v = this.parseValue(this.parseTypeSuffixes(ctx.void, typeLoc, true), st);
    } else {
      v = this.parseTypeAndValue(st);
    }
    if (v.type !== resultType) throw this.returnMismatch(resultType, typeLoc);
    return new Instruction('ret', ctx.void, [v]);
  }

  /** (A method, not a closure in `parseRet`: V8 would allocate the closure's context for every `ret`.) */
  protected returnMismatch(resultType: Type, at: number): IrSyntaxError {
    return this.error(`value doesn't match function result type '${typeString(resultType)}'`, at);
  }

  protected parseBr(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const condLoc = this.lex.start;
    const first = this.parseTypeAndValue(st);
    if (first.vk === 'block') return new Instruction('br', ctx.void, [first]);
    if (first.type !== ctx.i1) throw this.error("branch condition must have 'i1' type", condLoc);
    this.expect(Tok.Comma, "expected ',' after branch condition");
    const t = this.parseTypeAndBlock(st);
    this.expect(Tok.Comma, "expected ',' after true destination");
    const f = this.parseTypeAndBlock(st);
    return new Instruction('br', ctx.void, [first, t, f]);
  }

  protected parseSwitch(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const condLoc = this.lex.start;
    const cond = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after switch condition");
    const def = this.parseTypeAndBlock(st);
    this.expect(Tok.LSquare, "expected '[' with switch table");
    if (cond.type.kind !== 'integer') throw this.error('switch condition must have integer type', condLoc);
    const ops: Value[] = [cond, def];
    const seen = new Set<string>();
    while (this.t() !== Tok.RSquare) {
      const caseLoc = this.lex.start;
      const c = this.parseTypeAndValue(st);
      if (c.vk !== 'int') throw this.error('case value is not a constant integer', caseLoc);
      // the same constant: same type and value (cases of another type are the verifier's concern)
      const key = `${c.type.bits}:${c.big}`;
      if (seen.has(key)) throw this.error('duplicate case value in switch', caseLoc);
      seen.add(key);
      this.expect(Tok.Comma, "expected ',' after case value");
      ops.push(c, this.parseTypeAndBlock(st));
    }
    this.next();
    return new Instruction('switch', ctx.void, ops);
  }

  protected parseIndirectBr(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const addrLoc = this.lex.start;
    const addr = this.parseTypeAndValue(st);
    if (addr.type.kind !== 'pointer') throw this.error('indirectbr address must have pointer type', addrLoc);
    this.expect(Tok.Comma, "expected ',' after indirectbr address");
    this.expect(Tok.LSquare, "expected '[' with indirectbr");
    const ops: Value[] = [addr];
    if (this.t() !== Tok.RSquare) {
      do ops.push(this.parseTypeAndBlock(st));
      while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RSquare, "expected ']' at end of block list");
    return new Instruction('indirectbr', ctx.void, ops);
  }

  protected parseFNeg(st: FunctionState): Instruction {
    const flags = this.parseFastMathFlags();
    const typeLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    if (!isFPOrFPVector(v.type)) throw this.error('invalid operand type for instruction', typeLoc);
    return new Instruction('fneg', v.type, [v], '', flags);
  }

  protected parseCompare(op: 'icmp' | 'fcmp', st: FunctionState): Instruction {
    const ctx = this.ctx;
    let flags = op === 'fcmp' ? this.parseFastMathFlags() : 0;
    if (op === 'icmp' && this.eatIdent('samesign')) flags |= Flag.SAMESIGN;
    const preds = op === 'icmp' ? ICMP_PREDICATES : FCMP_PREDICATES;
    if (this.t() !== Tok.Ident || !preds.has(this.lex.text)) throw this.error(predicateError(op));
    const pred = this.lex.text;
    this.next();
    const typeLoc = this.lex.start;
    const lhs = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after compare value");
    const rhs = this.parseValue(lhs.type, st);
    const problem = compareOperandsProblem(op, lhs.type, false);
    if (problem !== undefined) throw this.error(problem, typeLoc);
    const resultType = lhs.type.kind === 'vector' ? ctx.vector(ctx.i1, lhs.type.length, lhs.type.scalable) : ctx.i1;
    return new CmpInst(op, resultType, pred, [lhs, rhs], '', flags);
  }

  protected parseSelect(st: FunctionState): Instruction {
    const flags = this.parseFastMathFlags();
    const condLoc = this.lex.start;
    const c = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after select condition");
    const a = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after select value");
    const b = this.parseTypeAndValue(st);
    const problem = selectOperandsProblem(c.type, a.type, b.type);
    if (problem !== undefined) throw this.error(problem, condLoc);
    return new Instruction('select', a.type, [c, a, b], '', flags);
  }

  protected parseVAArg(st: FunctionState): Instruction {
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after vaarg operand");
    const t = this.parseType();
    return new Instruction('va_arg', t, [v]);
  }

  protected parseExtractElement(st: FunctionState): Instruction {
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after extract value");
    const i = this.parseTypeAndValue(st);
    if (!extractElementValid(v.type, i.type)) throw this.error('invalid extractelement operands', vLoc);
    return new Instruction('extractelement', v.type.element, [v, i]);
  }

  protected parseInsertElement(st: FunctionState): Instruction {
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after insertelement value");
    const e = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after insertelement value");
    const i = this.parseTypeAndValue(st);
    if (!insertElementValid(v.type, e.type, i.type)) throw this.error('invalid insertelement operands', vLoc);
    return new Instruction('insertelement', v.type, [v, e, i]);
  }

  protected parseShuffleVector(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const aLoc = this.lex.start;
    const a = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after shuffle mask");
    const b = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after shuffle value");
    const mask = this.parseTypeAndValue(st);
    if (!shuffleVectorValid(a.type, b.type, mask)) throw this.error('invalid shufflevector operands', aLoc);
    const [input, maskType] = [a.type as VectorType, mask.type as VectorType];
    const resultType = ctx.vector(input.element, maskType.length, maskType.scalable);
    return new ShuffleVectorInst(resultType, [a, b], shuffleMaskOf(mask), mask);
  }

  protected parsePhi(st: FunctionState): Instruction {
    const ctx = this.ctx;
    const flags = this.parseFastMathFlags();
    const t = this.parseType();
    const ops: Value[] = [];
    do {
      this.expect(Tok.LSquare, "expected '[' in phi value list");
      ops.push(this.parseValue(t, st));
      this.expect(Tok.Comma, "expected ',' after insertelement value");
      ops.push(this.parseValue(ctx.label, st));
      this.expect(Tok.RSquare, "expected ']' in phi value list");
    } while (this.t() === Tok.Comma && this.peek() === Tok.LSquare && this.next() !== Tok.Eof);
    return new Instruction('phi', t, ops, '', flags);
  }

  protected parseLandingPad(st: FunctionState): Instruction {
    const t = this.parseType();
    const cleanup = this.eatIdent('cleanup');
    const clauses: Value[] = [];
    const kinds: ('catch' | 'filter')[] = [];
    while (this.isIdent('catch') || this.isIdent('filter')) {
      kinds.push(this.lex.text as 'catch' | 'filter');
      this.next();
      clauses.push(this.parseTypeAndValue(st));
    }
    return new LandingPadInst(t, clauses, kinds, cleanup);
  }

  protected parseFreeze(st: FunctionState): Instruction {
    const v = this.parseTypeAndValue(st);
    return new Instruction('freeze', v.type, [v]);
  }

  protected parseExtractValue(st: FunctionState): Instruction {
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    const indices = this.parseIndexList();
    if (v.type.kind !== 'struct' && v.type.kind !== 'array') throw this.error('extractvalue operand must be aggregate type', vLoc);
    return new AggregateInst('extractvalue', indexedType(v.type, indices, () => this.error('invalid indices for extractvalue', vLoc)), [v], indices);
  }

  protected parseInsertValue(st: FunctionState): Instruction {
    const aggLoc = this.lex.start;
    const agg = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected comma after insertvalue operand");
    const vLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    const indices = this.parseIndexList();
    if (agg.type.kind !== 'struct' && agg.type.kind !== 'array') throw this.error('insertvalue operand must be aggregate type', aggLoc);
    const field = indexedType(agg.type, indices, () => this.error('invalid indices for insertvalue', aggLoc));
    if (field !== v.type)
      throw this.error(`insertvalue operand and field disagree in type: '${typeString(v.type)}' instead of '${typeString(field)}'`, vLoc);
    return new AggregateInst('insertvalue', agg.type, [agg, v], indices);
  }

  protected parseCleanupRet(st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('from', "expected 'from' after cleanupret");
    const pad = this.parseValue(ctx.token, st);
    this.expectIdent('unwind', "expected 'unwind' in cleanupret");
    const ops: Value[] = [pad];
    if (this.eatIdent('to')) this.expectIdent('caller', "expected 'caller' in cleanupret");
    else ops.push(this.parseTypeAndBlock(st));
    return new Instruction('cleanupret', ctx.void, ops);
  }

  protected parseCatchRet(st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('from', "expected 'from' after catchret");
    const pad = this.parseValue(ctx.token, st);
    this.expectIdent('to', "expected 'to' in catchret");
    return new Instruction('catchret', ctx.void, [pad, this.parseTypeAndBlock(st)]);
  }

  protected parseCatchSwitch(st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('within', "expected 'within' after catchswitch");
    const parent = this.parseExceptionPadParent(st);
    this.expect(Tok.LSquare, "expected '[' with catchswitch labels");
    const ops: Value[] = [parent];
    do ops.push(this.parseTypeAndBlock(st));
    while (this.eat(Tok.Comma));
    this.expect(Tok.RSquare, "expected ']' after catchswitch labels");
    const handlers = ops.length - 1;
    this.expectIdent('unwind', "expected 'unwind' after catchswitch scope");
    if (this.eatIdent('to')) this.expectIdent('caller', "expected 'caller' in catchswitch");
    else ops.push(this.parseTypeAndBlock(st));
    return new CatchSwitchInst(ctx.token, ops, handlers);
  }

  protected parsePad(op: 'catchpad' | 'cleanuppad', st: FunctionState): Instruction {
    const ctx = this.ctx;
    this.expectIdent('within', `expected 'within' after ${op}`);
    const parent = op === 'catchpad' ? this.parseValue(ctx.token, st) : this.parseExceptionPadParent(st);
    this.expect(Tok.LSquare, "expected '[' in pad arguments");
    const ops: Value[] = [parent];
    if (this.t() !== Tok.RSquare) {
      do {
        const t = this.parseType();
        ops.push(t.kind === 'metadata' ? this.parseMetadataAsValue(st) : this.parseValue(t, st));
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RSquare, "expected ']' in pad arguments");
    return new Instruction(op, ctx.token, ops);
  }

  protected parseExceptionPadParent(st: FunctionState): Value {
    if (this.isIdent('none')) {
      this.next();
      return this.ctx.none(this.ctx.token);
    }
    return this.parseValue(this.ctx.token, st);
  }

  protected parseIndexList(): number[] {
    const indices: number[] = [];
    while (this.t() === Tok.Comma && this.peek() === Tok.Int) {
      this.next();
      indices.push(this.expectUInt('expected index'));
    }
    if (indices.length === 0) throw this.error('expected index');
    return indices;
  }

  protected parseTypeAndBlock(st: FunctionState): BasicBlock {
    const t = this.parseType();
    if (t.kind !== 'label') throw this.error('expected a basic block');
    const v = this.parseValue(t, st);
    if (v.vk !== 'block') throw this.error('expected a basic block');
    return v;
  }

  /**
   * LLVM's `parseOptionalCommaAlign` after a memory instruction: `, align N` (again after each
   * comma that does not start an attachment); the last one read, if any.
   */
  protected parseOptionalCommaAlign(): number | undefined {
    let align: number | undefined;
    while (this.t() === Tok.Comma && !this.commaStartsAttachment()) {
      this.next();
      if (!this.eatIdent('align')) throw this.error("expected metadata or 'align'");
      align = this.parseAlignValue();
    }
    return align;
  }

  protected parseAlloca(st: FunctionState): Instruction {
    let flags = 0;
    if (this.eatIdent('inalloca')) flags |= Flag.INALLOCA;
    if (this.eatIdent('swifterror')) flags |= Flag.SWIFTERROR;
    const loc = this.lex.start;
    const t = this.parseType();
    let size: Value = this.ctx.constI32(1);
    let align: number | undefined;
    let as = this.m.layout.allocaAddressSpace;
    while (this.t() === Tok.Comma && !this.commaStartsAttachment()) {
      this.next();
      if (this.eatIdent('align')) align = this.parseAlignValue();
      else if (this.isIdent('addrspace')) as = this.parseAddrSpace();
      else if (align !== undefined) throw this.error("expected metadata or 'addrspace'");
      else size = this.parseTypeAndValue(st);
    }
    if (align === undefined) {
      if (!isSized(t)) throw this.error('Cannot allocate unsized type', loc);
      align = this.m.layout.prefAlign(t);
    }
    return new AllocaInst(this.typed ? this.ctx.typedPtr(t, as) : this.ctx.ptr(as), t, size, align, as, '', flags);
  }

  protected parseScopeAndOrdering(inst: MemoryInst, both = false): void {
    if (this.eatIdent('syncscope')) {
      this.expect(Tok.LParen, "expected '(' in syncscope");
      inst.syncScope = this.expectString();
      this.expect(Tok.RParen, "expected ')' in syncscope");
    }
    inst.ordering = this.parseOrdering();
    if (both) inst.failureOrdering = this.parseOrdering();
  }

  protected parseOrdering(): AtomicOrdering {
    if (this.t() !== Tok.Ident || !ORDERINGS.has(this.lex.text)) throw this.error('Expected ordering on atomic instruction');
    const o = this.lex.text as AtomicOrdering;
    this.next();
    return o;
  }

  protected parseLoad(st: FunctionState): Instruction {
    let flags = 0;
    const atomic = this.eatIdent('atomic');
    if (atomic) flags |= Flag.ATOMIC;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    const loc = this.lex.start;
    const t = this.parseType();
    this.expect(Tok.Comma, "expected comma after load's type");
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    const inst = new MemoryInst('load', t, [ptr], '', flags);
    if (atomic) this.parseScopeAndOrdering(inst);
    inst.align = this.parseOptionalCommaAlign();
    const pt = ptr.type;
    if (pt.kind !== 'pointer' || !isFirstClassType(t)) throw this.error('load operand must be a pointer to a first class type', ptrLoc);
    if (atomic && inst.align === undefined) throw this.error('atomic load must have explicit non-zero alignment', ptrLoc);
    if (inst.ordering === 'release' || inst.ordering === 'acq_rel') throw this.error('atomic load cannot use Release ordering', ptrLoc);
    if (this.typed && pt.pointee !== t)
      throw this.error(`explicit pointee type doesn't match operand's pointee type (${typeString(t)} vs ${typeString(pt.pointee!)})`, loc);
    if (inst.align === undefined) {
      if (!isSized(t)) throw this.error('loading unsized types is not allowed', loc);
      inst.align = this.m.layout.abiAlign(t);
    }
    return inst;
  }

  protected parseStore(st: FunctionState): Instruction {
    let flags = 0;
    const atomic = this.eatIdent('atomic');
    if (atomic) flags |= Flag.ATOMIC;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    const valueLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after store operand");
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    const inst = new MemoryInst('store', this.ctx.void, [v, ptr], '', flags);
    if (atomic) this.parseScopeAndOrdering(inst);
    inst.align = this.parseOptionalCommaAlign();
    if (ptr.type.kind !== 'pointer') throw this.error('store operand must be a pointer', ptrLoc);
    if (!isFirstClassType(v.type)) throw this.error('store operand must be a first class value', valueLoc);
    if (this.typed && ptr.type.pointee !== v.type) throw this.error('stored value and pointer type do not match', valueLoc);
    if (atomic && inst.align === undefined) throw this.error('atomic store must have explicit non-zero alignment', valueLoc);
    if (inst.ordering === 'acquire' || inst.ordering === 'acq_rel') throw this.error('atomic store cannot use Acquire ordering', valueLoc);
    if (inst.align === undefined && !isSized(v.type)) throw this.error('storing unsized types is not allowed', valueLoc);
    inst.align ??= this.m.layout.abiAlign(v.type);
    return inst;
  }

  protected parseCmpXchg(st: FunctionState): Instruction {
    let flags = 0;
    if (this.eatIdent('weak')) flags |= Flag.WEAK;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after cmpxchg address");
    const cmpLoc = this.lex.start;
    const cmp = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after cmpxchg cmp operand");
    const newLoc = this.lex.start;
    const nv = this.parseTypeAndValue(st);
    if (ptr.type.kind !== 'pointer') throw this.error('cmpxchg operand must be a pointer', ptrLoc);
    if (this.typed && ptr.type.pointee !== cmp.type) throw this.error('compare value and pointer type do not match', cmpLoc);
    if (cmp.type !== nv.type) throw this.error('compare value and new value type do not match', newLoc);
    if (!isFirstClassType(nv.type)) throw this.error('cmpxchg operand must be a first class value', newLoc);
    const inst = new MemoryInst('cmpxchg', this.ctx.literalStruct([cmp.type, this.ctx.i1]), [ptr, cmp, nv], '', flags);
    this.parseScopeAndOrdering(inst, true);
    inst.align = this.parseOptionalCommaAlign();
    inst.align ??= this.m.layout.storeSize(cmp.type);
    return inst;
  }

  protected parseAtomicRMW(st: FunctionState): Instruction {
    let flags = 0;
    if (this.eatIdent('volatile')) flags |= Flag.VOLATILE;
    if (this.t() !== Tok.Ident || !RMW_OPERATIONS.has(this.lex.text)) throw this.error('expected binary operation in atomicrmw');
    const operation = this.lex.text;
    this.next();
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    this.expect(Tok.Comma, "expected ',' after atomicrmw address");
    const valueLoc = this.lex.start;
    const v = this.parseTypeAndValue(st);
    if (ptr.type.kind !== 'pointer') throw this.error('atomicrmw operand must be a pointer', ptrLoc);
    if (this.typed && ptr.type.pointee !== v.type) throw this.error('atomicrmw value and pointer type do not match', valueLoc);
    const vt = v.type;
    if (operation === 'xchg') {
      if (vt.kind !== 'integer' && vt.kind !== 'float' && vt.kind !== 'pointer')
        throw this.error(`atomicrmw xchg operand must be an integer, floating point, or pointer type`, valueLoc);
    } else if (FP_RMW_OPERATIONS.has(operation)) {
      if (!isFPOrFPVector(vt)) throw this.error(`atomicrmw ${operation} operand must be a floating point type`, valueLoc);
    } else if (vt.kind !== 'integer') {
      throw this.error(`atomicrmw ${operation} operand must be an integer`, valueLoc);
    }
    const inst = new MemoryInst('atomicrmw', v.type, [ptr, v], '', flags);
    inst.rmwOperation = operation;
    this.parseScopeAndOrdering(inst);
    inst.align = this.parseOptionalCommaAlign();
    inst.align ??= this.m.layout.storeSize(v.type);
    return inst;
  }

  protected parseGEP(st: FunctionState): Instruction {
    let flags = 0;
    for (;;) {
      if (this.eatIdent('inbounds')) flags |= Flag.INBOUNDS;
      else if (this.eatIdent('nusw')) flags |= Flag.NUSW;
      else if (this.eatIdent('nuw')) flags |= Flag.NUW;
      else break;
    }
    const sourceLoc = this.lex.start;
    const sourceType = this.parseType();
    this.expect(Tok.Comma, "expected comma after getelementptr's type");
    const ptrLoc = this.lex.start;
    const ptr = this.parseTypeAndValue(st);
    let base: PointerType = this.gepBase(sourceType, ptr.type, sourceLoc, ptrLoc);
    const list = this.gepOperands;
    list.clear();
    list.push(ptr);
    let vectorLength = ptr.type.kind === 'vector' ? ptr.type.length : -1;
    while (this.t() === Tok.Comma && !this.commaStartsAttachment()) {
      this.next();
      const idxLoc = this.lex.start;
      const idx = this.parseTypeAndValue(st);
      vectorLength = this.gepIndex(idx.type, vectorLength, idxLoc);
      list.push(idx);
    }
    const ops = list.copy();
    const indexed = this.gepIndexedType(sourceType, ops, ptrLoc);
    if (this.typed) base = this.ctx.typedPtr(indexed, base.addressSpace);
    const resultType = vectorLength >= 0 ? this.ctx.vector(base, vectorLength) : base;
    return new GetElementPtrInst(resultType, sourceType, ops, '', flags);
  }

  /** LLParser's checks of a GEP's base (a pointer or a vector of them; typed: of the source type). */
  protected gepBase(source: Type, baseType: Type, sourceLoc: number, loc: number): PointerType {
    const base = baseType.kind === 'vector' ? baseType.element : baseType;
    if (base.kind !== 'pointer') throw this.error('base of getelementptr must be a pointer', loc);
    if (this.typed && base.pointee !== source)
      throw this.error(`explicit pointee type doesn't match operand's pointee type (${typeString(source)} vs ${typeString(base.pointee!)})`, sourceLoc);
    return base;
  }

  /** LLParser's checks of one GEP index; returns the GEP's vector width so far (-1 while scalar). */
  protected gepIndex(t: Type, vectorLength: number, loc: number): number {
    if (!isIntOrIntVector(t)) throw this.error('getelementptr index must be an integer', loc);
    if (t.kind !== 'vector') return vectorLength;
    if (vectorLength >= 0 && vectorLength !== t.length) throw this.error('getelementptr vector index has a wrong number of elements', loc);
    return t.length;
  }

  /** The type a GEP's indices select, checked as LLParser checks it (a sized source, valid indices). */
  protected gepIndexedType(source: Type, ops: readonly Value[], loc: number): Type {
    if (ops.length > 1 && !isSized(source)) throw this.error('base element of getelementptr must be sized', loc);
    const indexed = gepIndexedType(source, ops);
    if (indexed === undefined) throw this.error('invalid getelementptr indices', loc);
    return indexed;
  }

  protected checkCast(op: CastOpcode, from: Type, to: Type, loc: number): void {
    if (!castIsValid(op, from, to)) throw this.error(`invalid cast opcode for cast from '${typeString(from)}' to '${typeString(to)}'`, loc);
  }

  protected parseCall(st: FunctionState, tailFlags: number, opcode: 'call' | 'invoke' | 'callbr' = 'call'): Instruction {
    const callLoc = this.lex.start;
    let flags = tailFlags;
    if (opcode === 'call') flags |= this.parseFastMathFlags();
    const cc = this.parseOptionalCallingConv();
    const retSet = this.parseParamAttributeSet('return value');
    let callAS = this.m.layout.programAddressSpace;
    if (this.isIdent('addrspace')) callAS = this.parseAddrSpace();
    const retLoc = this.lex.start;
    const retOrFnType = this.parseType(true);
    const calleeLoc = this.lex.start;
    // With opaque pointers the callee's type is `ptr addrspace(N)`, known before the arguments;
    // only inline asm needs the function type, so it is built after the argument list.
    // With typed pointers the callee's type is a pointer to the function type, which the short
    // form (`call void @f(i32 1)`) only gives after the arguments: the callee is skipped and read
    // again once they are known.
    let asmParts: { flags: InlineAsm['flags']; asm: string; constraints: string } | undefined;
    let callee: Value | undefined;
    let deferredCallee = false;
    // the prefix first: asking for the text of every callee would take it out of the span lookup
    if (opcode === 'call' && this.t() === Tok.GlobalVar && this.lex.textStartsWith('llvm.dbg.') && OLD_DEBUG_INTRINSICS.has(this.lex.text)) {
      // LLVM 19 reads a module in one debug-info format: intrinsic calls or records, not both
      if (this.sawDebugRecordAt !== undefined) throw this.error('llvm.dbg intrinsic should not appear in a module using non-intrinsic debug info', callLoc);
      this.sawDebugIntrinsicCall = true;
    }
    if (this.isIdent('asm')) asmParts = this.parseInlineAsmParts();
    else if (!this.typed) callee = this.parseValue(this.ctx.ptr(callAS), st);
    else if (retOrFnType.kind === 'function') callee = this.parseValue(this.ctx.typedPtr(retOrFnType, callAS), st);
    else {
      deferredCallee = true;
      this.skipCallee();
    }
    this.expect(Tok.LParen, "expected '(' in call");
    // operands[0] is the callee, set below; filled in a list kept for every call, then copied
    const operands = this.callOperands;
    const argAttrs = this.callArgumentSets;
    operands.clear();
    argAttrs.clear();
    operands.push(callee!);
    let anyArgAttrs = false;
    if (!this.eat(Tok.RParen)) {
      for (;;) {
        if (this.eat(Tok.DotDotDot)) {
          this.expect(Tok.RParen, "expected ')' at end of argument list");
          break;
        }
        const t = this.parseType();
        const set = this.parseParamAttributeSet();
        if (!set.isEmpty) anyArgAttrs = true;
        argAttrs.push(set);
        operands.push(t.kind === 'metadata' ? this.parseMetadataAsValue(st) : this.parseValue(t, st));
        if (this.eat(Tok.RParen)) break;
        this.expect(Tok.Comma, "expected ',' in argument list");
      }
    }
    const argCount = operands.length - 1;
    const fnAttrLoc = this.lex.start;
    // a lone `#N` (the usual case) is its group's shared set, without the general reading
    const groupSet = this.t() === Tok.AttrGrpID && !this.attributeFollowsGroup() ? this.groupPlaceholder(this.lex.num) : undefined;
    if (groupSet !== undefined) this.next();
    const parsedFnAttrs = groupSet === undefined && this.startsFnAttribute() ? this.parseFnAttributes(false) : NO_FN_ATTRS;
    const bundles = this.t() === Tok.LSquare && opcode !== 'callbr' ? this.parseOperandBundles(st) : opcode === 'callbr' ? this.parseOperandBundles(st) : [];
    let fnType: FunctionType;
    if (retOrFnType.kind === 'function') fnType = retOrFnType;
    else {
      if (retOrFnType.kind === 'label') throw this.error('Invalid result type for LLVM function', retLoc);
      let node = this.callTypes.child(retOrFnType);
      for (let i = 1; i <= argCount; i++) node = node.child(operands.get(i).type);
      fnType = node.value ??= this.ctx.fnOfArgs(retOrFnType, operands.copy(1));
    }
    if (callee !== undefined && (callee as AnyValue).vk === 'fwd') {
      const f = callee as unknown as ForwardGlobal;
      f.calleeUses++;
      f.calleeType = f.calleeType === undefined || f.calleeType === fnType ? fnType : null;
    }
    if (deferredCallee) {
      const resume = this.lex.start;
      this.lex.seek(calleeLoc);
      callee = this.parseValue(this.ctx.typedPtr(fnType, callAS), st);
      this.lex.seek(resume);
    }
    if (asmParts !== undefined) callee = new InlineAsm(this.typed ? this.ctx.typedPtr(fnType, 0) : this.ctx.ptr(0), fnType, asmParts.asm, asmParts.constraints, asmParts.flags);
    if (fnType.params.length !== argCount && !fnType.varArgs) throw this.error('invalid number of arguments to function', calleeLoc);
    operands.set(0, callee!);
    let indirectCount = 0;
    if (opcode === 'invoke') {
      this.expectIdent('to', "expected 'to' in invoke");
      operands.push(this.parseTypeAndBlock(st));
      this.expectIdent('unwind', "expected 'unwind' in invoke");
      operands.push(this.parseTypeAndBlock(st));
    } else if (opcode === 'callbr') {
      this.expectIdent('to', "expected 'to' in callbr");
      operands.push(this.parseTypeAndBlock(st));
      this.expect(Tok.LSquare, "expected '[' in callbr");
      if (this.t() !== Tok.RSquare) {
        do {
          operands.push(this.parseTypeAndBlock(st));
          indirectCount++;
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RSquare, "expected ']' at end of block list");
    }
    const noAttrs = !anyArgAttrs && retSet.isEmpty && groupSet === undefined && parsedFnAttrs === NO_FN_ATTRS;
    const inst = new CallInst(opcode, fnType.returnType, fnType, operands.copy(), AttributeList.empty, '', flags);
    inst.callingConv = cc;
    if (bundles.length > 0) inst.bundles = bundles;
    if (indirectCount > 0) inst.indirectDestCount = indirectCount;
    if (!noAttrs) {
      const fnSet = groupSet ?? (parsedFnAttrs === NO_FN_ATTRS ? AttributeSet.empty : this.recordFnAttrs(inst, parsedFnAttrs, fnAttrLoc));
      inst.attributes = this.callAttributeList(fnSet, retSet, anyArgAttrs ? argAttrs : undefined);
    }
    return inst;
  }

  /**
   * The attribute list of a call: one list per distinct combination of sets (lists are
   * immutable), so the thousands of calls that pass `noundef` arguments to a `#N` group share
   * one, as their sets are already shared (see `parseParamAttributeSet`).
   */
  protected callAttributeList(fn: AttributeSet, ret: AttributeSet, params: ScratchList<AttributeSet> | undefined): AttributeList {
    let node = this.callAttributeLists.child(fn).child(ret);
    if (params === undefined) return (node.value ??= new AttributeList(fn, ret, []));
    for (let i = 0; i < params.length; i++) node = node.child(params.get(i));
    return (node.value ??= new AttributeList(fn, ret, params.copy()));
  }

  /**
   * Whether a function attribute may follow the current `#N` token: the next token (on any line,
   * as the lexer reads it) starts like a keyword, a string or another group, or a comment comes
   * first. Looks at characters only; `true` leaves the decision to {@link parseFnAttributes}.
   */
  protected attributeFollowsGroup(): boolean {
    const src = this.lex.src;
    let p = this.lex.pos;
    let c = src.charCodeAt(p);
    while (c === 32 || c === 10 || c === 9 || c === 13 || c === 0) c = src.charCodeAt(++p);
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 34 || c === 35 || c === 59 || c === 47;
  }

  /** Steps over a callee operand without resolving it (typed pointers, see `parseCall`). */
  protected skipCallee(): void {
    switch (this.t()) {
      case Tok.GlobalVar:
      case Tok.GlobalID:
      case Tok.LocalVar:
      case Tok.LocalVarID:
        this.next();
        return;
      case Tok.Ident: {
        if (this.isIdent('dso_local_equivalent') || this.isIdent('no_cfi')) {
          this.next();
          this.next();
          return;
        }
        // a keyword constant, or a constant expression: keyword, flag words, `( ... )`
        const single = this.isIdent('null') || this.isIdent('undef') || this.isIdent('poison') || this.isIdent('zeroinitializer');
        this.next();
        if (single) return;
        while (this.t() === Tok.Ident) this.next();
        if (this.t() !== Tok.LParen) throw this.error('expected value token');
        let depth = 0;
        do {
          if (this.t() === Tok.LParen) depth++;
          else if (this.t() === Tok.RParen) depth--;
          else if (this.t() === Tok.Eof) throw this.error("expected ')' in constantexpr");
          this.next();
        } while (depth > 0);
        return;
      }
      default:
        throw this.error('expected value token');
    }
  }

  protected parseInlineAsmParts(): { flags: InlineAsm['flags']; asm: string; constraints: string } {
    this.expectIdent('asm');
    const flags = { sideEffect: false, alignStack: false, intelDialect: false, canThrow: false };
    for (;;) {
      if (this.eatIdent('sideeffect')) flags.sideEffect = true;
      else if (this.eatIdent('alignstack')) flags.alignStack = true;
      else if (this.eatIdent('inteldialect')) flags.intelDialect = true;
      else if (this.eatIdent('unwind')) flags.canThrow = true;
      else break;
    }
    const asm = this.expectString();
    this.expect(Tok.Comma, "expected comma in inline asm expression");
    const constraints = this.expectString();
    return { flags, asm, constraints };
  }

  protected parseOperandBundles(st: FunctionState): OperandBundle[] {
    if (this.t() !== Tok.LSquare) return [];
    this.next();
    const bundles: OperandBundle[] = [];
    do {
      const tag = this.expectString();
      this.expect(Tok.LParen, "expected '(' in operand bundle");
      const inputs: Value[] = [];
      if (this.t() !== Tok.RParen) {
        do {
          const t = this.parseType();
          inputs.push(t.kind === 'metadata' ? this.parseMetadataAsValue(st) : this.parseValue(t, st));
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RParen, "expected ')' in operand bundle");
      bundles.push({ tag, inputs });
    } while (this.eat(Tok.Comma));
    this.expect(Tok.RSquare, "expected ']' at end of operand bundles");
    return bundles;
  }
}

function indexedType(t: Type, indices: readonly number[], fail: () => Error): Type {
  let cur = t;
  for (const i of indices) {
    if (cur.kind === 'struct' && cur.elements && i < cur.elements.length) cur = cur.elements[i]!;
    else if (cur.kind === 'array' && i < cur.length) cur = cur.element;
    else throw fail();
  }
  return cur;
}


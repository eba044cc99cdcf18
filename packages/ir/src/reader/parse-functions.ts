/**
 * Function declarations and definitions: headers, arguments, blocks and the per-function state.
 */
import { AttributeList, AttributeSet } from '../model/attributes.js';
import { callingConvFromNumber, isCallingConvKeyword } from '../model/callingconv.js';
import { CallInst, type DebugRecord, type Instruction } from '../model/instructions.js';
import { directCalleeName } from '../verifier/llvm-verifier.js';
import type { Attachment, Metadata } from '../model/metadata.js';
import type { Type } from '../model/types.js';
import { Argument, BasicBlock, IRFunction, type Comdat, type Constant, type Value } from '../model/values.js';
import { Tok } from './lexer.js';
import { exactCopy, ForwardLocal, type AnyValue, type FunctionState } from './parser-state.js';
import { GlobalParser } from './parse-globals.js';

const DEBUG_RECORD_KINDS = new Set(['value', 'declare', 'assign', 'label']);

/** The number a numbered block was referenced by (it is still in `blocksNumbered`, never defined). */
function numberOf(blocksNumbered: ReadonlyMap<number, BasicBlock>, block: BasicBlock): number | undefined {
  for (const [id, b] of blocksNumbered) if (b === block) return id;
  return undefined;
}

/** A block's state in `FunctionState.blockStates` once its label is read (before: where it was first referenced). */
const BLOCK_DEFINED = -1;

export abstract class FunctionParser extends GlobalParser {
  protected abstract skipUseListOrder(): void;

  protected parseDeclare(): void {
    this.next();
    const attachments: Attachment[] = [];
    while (this.t() === Tok.MetadataVar) this.parseAttachmentNoComma(attachments);
    const fn = this.parseFunctionHeader(false);
    fn.attachments = attachments;
  }

  protected parseDefine(): void {
    this.next();
    const fn = this.parseFunctionHeader(true);
    while (this.t() === Tok.MetadataVar) this.parseAttachmentNoComma(fn.attachments);
    this.parseFunctionBody(fn);
  }

  protected parseFunctionHeader(isDefine: boolean): IRFunction {
    const headerLoc = this.lex.start;
    const { linkage, dsoLocal, visibility, dll } = this.parseOptionalLinkage();
    if (!isDefine && linkage !== undefined && linkage !== 'external' && linkage !== 'extern_weak')
      throw this.error(`invalid linkage for function declaration`, headerLoc);
    const cc = this.parseOptionalCallingConv();
    const retAttrs = this.parseParamAttributes('return value');
    const retLoc = this.lex.start;
    const retType = this.parseType(true);
    if (retType.kind === 'function' || retType.kind === 'label' || retType.kind === 'metadata') throw this.error('invalid function return type', retLoc);
    const nameLoc = this.lex.start;
    let name = '';
    let numbered = false;
    if (this.t() === Tok.GlobalVar) name = this.lex.text;
    else if (this.t() === Tok.GlobalID) {
      numbered = true;
      if (this.lex.num !== this.numberedGlobals.length) throw this.error(`function expected to be numbered '%${this.numberedGlobals.length}'`);
    } else throw this.error('expected function name');
    this.next();
    this.expect(Tok.LParen, "expected '(' in function argument list");
    const params: Type[] = [];
    const paramAttrs: AttributeSet[] = [];
    const argNames: string[] = [];
    const argNameLocs: number[] = [];
    let varArgs = false;
    if (!this.eat(Tok.RParen)) {
      for (;;) {
        if (this.eat(Tok.DotDotDot)) {
          varArgs = true;
          break;
        }
        const typeLoc = this.lex.start;
        const t = this.parseType();
        if (t.kind === 'void') throw this.error('argument can not have void type');
        if (t.kind === 'function') throw this.error('invalid type for function argument', typeLoc);
        params.push(t);
        paramAttrs.push(this.parseParamAttributeSet());
        argNameLocs.push(this.lex.start);
        if (this.t() === Tok.LocalVar) {
          argNames.push(this.lex.text);
          this.next();
        } else if (this.t() === Tok.LocalVarID) {
          argNames.push('#' + this.lex.num);
          this.next();
        } else argNames.push('');
        if (!this.eat(Tok.Comma)) break;
      }
      this.expect(Tok.RParen, "expected ')' at end of argument list");
    }
    const unnamedAddr = this.parseUnnamedAddr();
    let addressSpace = this.m.layout.programAddressSpace;
    if (this.isIdent('addrspace')) addressSpace = this.parseAddrSpace();
    const fnAttrLoc = this.lex.start;
    const parsedFnAttrs = this.parseFnAttributes(false, true);
    let section = '';
    let partition = '';
    let comdat: Comdat | undefined;
    let align: number | undefined;
    let gc = '';
    let prefix: Constant | undefined;
    let prologue: Constant | undefined;
    let personality: Constant | undefined;
    if (this.eatIdent('section')) section = this.expectString();
    if (this.eatIdent('partition')) partition = this.expectString();
    if (this.isIdent('comdat')) comdat = this.parseComdatRef(name);
    if (this.isIdent('align')) {
      this.next();
      align = this.parseAlignValue();
    }
    if (this.eatIdent('gc')) gc = this.expectString();
    if (this.eatIdent('prefix')) prefix = this.parseTypeAndConstant();
    if (this.eatIdent('prologue')) prologue = this.parseTypeAndConstant();
    if (this.eatIdent('personality')) personality = this.parseTypeAndConstant();

    const fnType = this.ctx.fn(retType, params, varArgs);
    // An `align` among the function attributes is the function's alignment, not an attribute.
    const alignAttr = parsedFnAttrs.attrs.find((a) => a.key === 'align');
    if (alignAttr !== undefined) {
      parsedFnAttrs.attrs = parsedFnAttrs.attrs.filter((a) => a !== alignAttr);
      if (align === undefined && alignAttr.kind === 'int') align = alignAttr.value as number;
    }
    const fn = new IRFunction(name, fnType, this.pointerTo(fnType, addressSpace), AttributeList.empty);
    // (the list grew by push: keep an exact copy, it lives as long as the function)
    fn.attributes = new AttributeList(AttributeSet.empty, retAttrs.length === 0 ? AttributeSet.empty : AttributeSet.of(retAttrs), exactCopy(paramAttrs));
    fn.attributes = fn.attributes.withFn(this.recordFnAttrs(fn, parsedFnAttrs, fnAttrLoc));
    fn.linkage = linkage ?? 'external';
    fn.visibility = visibility;
    fn.dllStorage = dll;
    fn.dsoLocal = dsoLocal || fn.isImplicitDSOLocal();
    fn.callingConv = cc;
    fn.unnamedAddr = unnamedAddr;
    fn.section = section;
    fn.partition = partition;
    fn.comdat = comdat;
    fn.align = align;
    fn.gc = gc;
    fn.prefix = prefix;
    fn.prologue = prologue;
    fn.personality = personality;
    fn.args = params.map((t, i) => {
      const n = argNames[i]!;
      return new Argument(t, n.startsWith('#') ? '' : n, fn);
    });
    // Validate numbered argument names now (they must count from 0).
    let nextId = 0;
    argNames.forEach((n, i) => {
      if (n.startsWith('#')) {
        if (Number(n.slice(1)) !== nextId) throw this.error(`argument expected to be numbered '%${nextId}'`, argNameLocs[i]);
        nextId++;
      } else if (n === '') nextId++;
    });
    const existing = name === '' ? undefined : this.m.getGlobalValue(name);
    if (existing !== undefined) throw this.error(`invalid redefinition of function '${name}'`, nameLoc);
    this.m.addFunction(fn);
    this.defineGlobal(fn, !numbered, nameLoc);
    if (name.startsWith('llvm.dbg.')) this.sawDebugInfo = true;
    return fn;
  }

  protected parseOptionalCallingConv(): string {
    if (this.t() !== Tok.Ident) return 'ccc';
    const w = this.lex.text;
    if (w === 'cc') {
      this.next();
      return callingConvFromNumber(this.expectUInt('expected calling convention number'));
    }
    if (isCallingConvKeyword(w)) {
      this.next();
      return w;
    }
    return 'ccc';
  }

  protected parseTypeAndConstant(): Constant {
    const t = this.parseType();
    return this.parseConstantValue(t) as Constant;
  }


  protected parseFunctionBody(fn: IRFunction): void {
    this.expect(Tok.LBrace, "expected '{' in function body");
    this.localNames.clear();
    this.blockNames.clear();
    // the per-function maps are the parser's, reused: a function read to its end leaves the
    // forward-reference maps empty (a reference never defined is an error)
    if (this.blockStates.size > 0) this.blockStates.clear();
    this.forwardLocalUsers.clear();
    const st: FunctionState = {
      fn,
      named: this.localNames,
      numbered: [],
      fwdNamed: this.forwardNamedLocals,
      fwdNumbered: this.forwardNumberedLocals,
      blocksNamed: this.blockNames,
      blocksNumbered: this.forwardNumberedBlocks,
      blockStates: this.blockStates,
      pendingBlocks: 0,
      hasForwardLocals: false,
      block: undefined,
      usesNonLocal: false,
      usesForward: false,
      nonLocalUsers: [],
      phisAfterOthers: [],
      callsToCheck: [],
      callsWithFunctionAttributes: [],
    };
    this.pfs = st;
    for (const a of fn.args) {
      if (a.name === '') st.numbered.push(a);
      else {
        if (st.named.has(a.name)) throw this.error(`redefinition of argument '%${a.name}'`);
        st.named.set(a.name, a);
      }
    }
    if (this.t() === Tok.RBrace) throw this.error('function body requires at least one basic block');
    while (this.t() !== Tok.RBrace) {
      if (this.t() === Tok.Eof) throw this.error('found end of file when expecting more instructions');
      this.parseBasicBlock(st);
    }
    this.next();
    // blocks were pushed one by one: an exact copy drops the grown list's spare slots
    fn.blocks = exactCopy(fn.blocks);
    if (st.pendingBlocks > 0) {
      for (const [b, loc] of st.blockStates) {
        if (loc !== BLOCK_DEFINED) throw this.error(`use of undefined value '%${b.name !== '' ? b.name : numberOf(st.blocksNumbered, b)}'`, loc);
      }
    }
    if (st.fwdNamed.size > 0) {
      const [name, f] = st.fwdNamed.entries().next().value as [string, ForwardLocal];
      throw this.error(`use of undefined value '%${name}'`, f.loc);
    }
    if (st.fwdNumbered.size > 0) {
      const [id, f] = st.fwdNumbered.entries().next().value as [number, ForwardLocal];
      throw this.error(`use of undefined value '%${id}'`, f.loc);
    }
    if (st.hasForwardLocals) this.patchForwardLocals();
    this.pfs = undefined;
    this.onFunction?.(st.fn, { nonLocalUsers: st.nonLocalUsers, phisAfterOthers: st.phisAfterOthers, callsToCheck: st.callsToCheck, callsWithFunctionAttributes: st.callsWithFunctionAttributes });
  }

  /** Replaces the forward references to locals by the values defined later in the function. */
  protected patchForwardLocals(): void {
    // only the instructions that took a forward reference (their debug records included) can hold one
    const users = this.forwardLocalUsers;
    for (let u = 0; u < users.length; u++) this.patchForwardLocalsOf(users.get(u));
  }

  private resolveLocal(v: AnyValue): Value {
    return v.vk === 'fwdlocal' ? this.resolvedLocals.get(v)! : (v as Value);
  }

  private patchForwardLocalsOf(inst: Instruction): void {
    const ops = inst.operands as AnyValue[];
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.vk === 'fwdlocal') ops[i] = this.resolveLocal(op);
      else if (op.vk === 'metadata' && op.metadata.mk === 'value' && (op.metadata.value as AnyValue).vk === 'fwdlocal') {
        op.metadata = this.ctx.md.value(this.resolveLocal(op.metadata.value as AnyValue));
      } else if (op.vk === 'metadata' && op.metadata.mk === 'arglist') {
        const args = op.metadata.args.map((a) => ((a.value as AnyValue).vk === 'fwdlocal' ? this.ctx.md.value(this.resolveLocal(a.value as AnyValue)) : a));
        op.metadata = this.ctx.md.argList(args);
      }
    }
    if (inst instanceof CallInst) for (const bundle of inst.bundles) bundle.inputs.forEach((v, i) => (bundle.inputs[i] = this.resolveLocal(v as AnyValue)));
    if (inst.debugRecords) {
      for (let r = 0; r < inst.debugRecords.length; r++) {
        const rec = inst.debugRecords[r]!;
        const operands = rec.operands.map((md) => {
          if (md !== null && md.mk === 'value' && (md.value as AnyValue).vk === 'fwdlocal') return this.ctx.md.value(this.resolveLocal(md.value as AnyValue));
          if (md !== null && md.mk === 'arglist')
            return this.ctx.md.argList(md.args.map((a) => ((a.value as AnyValue).vk === 'fwdlocal' ? this.ctx.md.value(this.resolveLocal(a.value as AnyValue)) : a)));
          return md;
        });
        inst.debugRecords[r] = { kind: rec.kind, operands };
      }
    }
  }

  protected getBlock(st: FunctionState, nameOrId: string | number, loc: number): BasicBlock {
    if (typeof nameOrId === 'string') {
      let b = st.blocksNamed.get(nameOrId);
      if (b === undefined) {
        b = this.newNamedBlock(st, nameOrId, loc);
        st.blockStates.set(b, loc);
        st.pendingBlocks++;
      }
      return b;
    }
    let b = st.blocksNumbered.get(nameOrId);
    if (b === undefined) {
      const v = st.numbered[nameOrId];
      if (v !== undefined) {
        if (v.vk === 'block') return v;
        throw this.error(`'%${nameOrId}' is not a basic block`, loc);
      }
      b = new BasicBlock('', st.fn, this.ctx.label);
      st.blocksNumbered.set(nameOrId, b);
      st.blockStates.set(b, loc);
      st.pendingBlocks++;
    }
    return b;
  }

  /** A block named `name`, which no value of the function has; `label`: made by its label (else by a reference). */
  protected newNamedBlock(st: FunctionState, name: string, loc: number, label = false): BasicBlock {
    if (st.named.get(name) !== undefined) throw this.error(label ? `unable to create block named '${name}'` : `'%${name}' is not a basic block`, loc);
    const b = new BasicBlock(name, st.fn, this.ctx.label);
    st.blocksNamed.set(name, b);
    return b;
  }

  /** A block referenced before its label (pending) is defined by it. */
  protected defineReferencedBlock(st: FunctionState, b: BasicBlock): void {
    st.blockStates.set(b, BLOCK_DEFINED);
    st.pendingBlocks--;
  }

  protected parseBasicBlock(st: FunctionState): void {
    let block: BasicBlock;
    const loc = this.lex.start;
    if (this.t() === Tok.LabelStr) {
      const name = this.lex.text;
      this.next();
      const known = st.blocksNamed.get(name);
      if (known === undefined) block = this.newNamedBlock(st, name, loc, true);
      else {
        // only a block referenced before (and pending) is defined here; any other was defined already
        const state = st.blockStates.get(known);
        if (state === undefined || state === BLOCK_DEFINED) throw this.error(`redefinition of label '%${name}'`, loc);
        this.defineReferencedBlock(st, known);
        block = known;
      }
    } else {
      const id = st.numbered.length;
      if (this.t() === Tok.LabelID) {
        if (this.lex.num !== id) throw this.error(`label expected to be numbered '${id}'`, loc);
        this.next();
      }
      const referenced = st.blocksNumbered.size === 0 ? undefined : st.blocksNumbered.get(id);
      if (referenced === undefined) block = new BasicBlock('', st.fn, this.ctx.label);
      else {
        st.blocksNumbered.delete(id);
        this.defineReferencedBlock(st, referenced);
        block = referenced;
      }
      st.numbered.push(block);
    }
    st.fn.blocks.push(block);
    st.block = block;
    let records: DebugRecord[] | null = null;
    let previousIsPhi = true;
    const listening = this.onFunction !== undefined;
    const instructions = this.blockInstructions;
    instructions.clear();
    for (;;) {
      if (this.t() === Tok.DbgRecord) {
        (records ??= []).push(this.parseDebugRecord());
        continue;
      }
      if (this.isIdent('uselistorder')) {
        this.skipUseListOrder();
        continue;
      }
      const inst = this.parseInstructionLine(st);
      inst.parent = block;
      if (st.usesNonLocal) {
        st.nonLocalUsers.push(inst);
        st.usesNonLocal = false;
        if (st.usesForward) {
          this.forwardLocalUsers.push(inst);
          st.usesForward = false;
        }
      }
      // the facts only an `onFunction` listener receives
      if (listening) {
        const opcode = inst.opcode;
        if (opcode === 'phi') {
          if (!previousIsPhi) st.phisAfterOthers.push(inst);
          previousIsPhi = true;
        } else {
          previousIsPhi = false;
          if ((opcode === 'call' || opcode === 'invoke' || opcode === 'callbr') && inst instanceof CallInst) {
            const attrs = inst.attributes;
            if (!attrs.ret.isEmpty || attrs.params.length > 0 || directCalleeName(inst)?.startsWith('llvm.') === true) st.callsToCheck.push(inst);
            // a `#N` not read yet is an empty placeholder, but never the shared empty set
            if (attrs.fn !== AttributeSet.empty) st.callsWithFunctionAttributes.push(inst);
          }
        }
      }
      if (records !== null) {
        inst.debugRecords = records;
        records = null;
      }
      instructions.push(inst);
      if (this.readTerminator) break;
      if (this.t() === Tok.RBrace || this.t() === Tok.Eof || this.t() === Tok.LabelStr || this.t() === Tok.LabelID)
        throw this.error('expected instruction opcode');
    }
    block.instructions = instructions.copy();
  }

  /**
   * An LLVM 19 debug record, read as LLVM 19's `parseDebugRecord` reads it:
   * `#dbg_value|declare(location, !variable, !expression, !DILocation)`,
   * `#dbg_assign(location, !variable, !expression, !assignID, address, !addressExpression,
   * !DILocation)` and `#dbg_label(!label, !DILocation)`. A location is any metadata operand
   * (`ptr %p`, `!DIArgList(...)`, `!{}`); the other operands are nodes.
   */
  protected parseDebugRecord(): DebugRecord {
    this.sawDebugInfo = true;
    const kind = this.lex.text.startsWith('dbg_') ? this.lex.text.slice(4) : '';
    // LLVM's lexer makes an unknown `#word` an error token that starts after the `#`
    if (!DEBUG_RECORD_KINDS.has(kind)) throw this.error('expected debug record type here', this.lex.start + 1);
    if (this.sawDebugIntrinsicCall) throw this.error('debug record should not appear in a module containing debug info intrinsics');
    this.sawDebugRecordAt ??= this.lex.start;
    this.next();
    this.expect(Tok.LParen, "Expected '(' here");
    const operands: (Metadata | null)[] = [];
    const node = (): void => {
      operands.push(this.parseMDNodeOperand());
    };
    const comma = (): void => {
      this.expect(Tok.Comma, "Expected ',' here");
    };
    if (kind === 'label') {
      node();
      comma();
      node();
    } else {
      operands.push(this.parseValueAsMetadataOrNode(this.pfs, 'expected metadata operand'));
      comma();
      node();
      comma();
      node();
      comma();
      if (kind === 'assign') {
        node();
        comma();
        operands.push(this.parseValueAsMetadataOrNode(this.pfs, 'expected metadata operand'));
        comma();
        node();
        comma();
      }
      node();
    }
    this.expect(Tok.RParen, "Expected ')' here");
    return { kind, operands };
  }

  /** LLParser::parseMDNode: `!N`, `!{...}` or a specialized node such as `!DILocation(...)`. */
  protected parseMDNodeOperand(): Metadata {
    if (this.t() !== Tok.MetadataVar && this.t() !== Tok.Exclaim) this.expect(Tok.Exclaim, "expected '!' here");
    if (this.t() === Tok.Exclaim && this.peek() === Tok.String) {
      // after `!`, a node is `{` or an id
      this.next();
      throw this.error('expected integer');
    }
    return this.parseMetadata();
  }
}

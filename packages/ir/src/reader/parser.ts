/**
 * Parser for LLVM textual IR (the LLVM 16 dialect, plus the LLVM 17–19 syntax found in newer
 * DPC++ output such as debug records and `inrange(...)`). Typed pointers (`i32 addrspace(4)*`)
 * are read as opaque pointers, as LLVM 16 does, unless `pointers: 'preserve-typed'` asks to keep
 * them (LLVM 14/15 typed-pointer semantics: pointee types, pointee checks, typed GEP results).
 *
 * Structure follows LLParser: top-level entities, then per-function state with forward
 * references; forward references to globals and metadata are resolved at the end.
 *
 * The parser is one class split along its sections, a file each, each extending the one before:
 * `parser-state` (state, token helpers) → `parse-types` → `parse-attributes` (comdats, attribute
 * groups, attributes) → `parse-metadata` → `parse-values` → `parse-instructions` →
 * `parse-globals` → `parse-functions` → this file (the module's top level, and finishing: forward
 * references, attribute groups, intrinsic upgrades). A section that calls into a later one
 * declares that method `abstract`.
 */
import { AttributeList, AttributeSet, intAttr, type Attribute } from '../model/attributes.js';
import { makeArray, makeConstantExpr, makeStruct, makeVector } from '../model/constfold.js';
import { Context } from '../model/context.js';
import { dataLayoutProblem } from '../model/datalayout.js';
import { lookupIntrinsic, upgradeDebugInfo, upgradeIntrinsics } from '../model/upgrade.js';
import { CallInst, Instruction } from '../model/instructions.js';
import type { Attachment, MDNode, Metadata } from '../model/metadata.js';
import { Module } from '../model/module.js';
import type { PointerType, StructType } from '../model/types.js';
import {
  Argument,
  BasicBlock,
  DSOLocalEquivalent,
  GlobalVariable,
  IRFunction,
  NoCFIValue,
  type Constant,
  type Value,
} from '../model/values.js';
import { Tok } from './lexer.js';
import type { AnyValue } from './parser-state.js';
import { FunctionParser } from './parse-functions.js';

/**
 * How pointer types are read: `'opaque'` reads `T*` as `ptr` (LLVM 16); `'preserve-typed'` keeps
 * typed pointers when the first pointer type of the module is written `T*` (LLVM 14/15).
 */
export type PointerSyntax = 'opaque' | 'preserve-typed';

export interface ParseOptions {
  /** Name used in error messages and as the module id and default source filename. */
  readonly filename?: string;
  /** Context to create types and metadata in (share one to link modules). */
  readonly context?: Context;
  /** Receives warnings such as LLVM's "ignoring debug info with an invalid version". */
  readonly onWarning?: (message: string) => void;
  /**
   * Debug-type ODR uniquing as `opt` enables it (default true): a `DICompositeType` with an
   * `identifier:` becomes distinct. `llvm-as` does not do this; turn it off to compare with it.
   */
  readonly odrTypeUniquing?: boolean;
  /**
   * `'opaque'` (default): typed pointers are read as `ptr`, as LLVM 16 does. `'preserve-typed'`:
   * a module whose first pointer type is written `T*` keeps typed pointers (`Module.typedPointers`,
   * `PointerType.pointee`), as LLVM 14/15 read it; `ptr` in such a module is an error, and so is
   * `T*` in a module whose first pointer type is `ptr` (that module is read as with 'opaque').
   */
  readonly pointers?: PointerSyntax;
  /**
   * Called with each function definition as soon as its body is read and its local references
   * are resolved (global references may still be pending), in module order. Per-function checks
   * are cheapest here, while the function is fresh in the CPU caches: `syclkit opt` runs LLVM's
   * verifier checks (`llvmVerifierFunctionFailures`) this way.
   */
  readonly onFunction?: (fn: IRFunction, facts: ParsedFunctionFacts) => void;
}

/** What the parser learned about a function while reading it. */
export interface ParsedFunctionFacts {
  /**
   * The instructions that use a value defined in another block, or later (forward references),
   * in order. Every other instruction uses only values defined before it in its own block.
   */
  readonly nonLocalUsers: readonly Instruction[];
  /** The PHI nodes that come right after an instruction that is not a PHI node, in order. */
  readonly phisAfterOthers: readonly Instruction[];
  /**
   * The calls (and invokes, callbrs) whose attributes LLVM's verifier looks at, in order: those
   * with return or parameter attributes, and those of intrinsics (`immarg` parameters).
   */
  readonly callsToCheck: readonly CallInst[];
  /**
   * The calls with function attributes (`#N` or written out), in order. Their groups may be read
   * after the function, so the verifier looks at them once the parse is over.
   */
  readonly callsWithFunctionAttributes: readonly CallInst[];
}

/**
 * Parses textual IR. `source` should be decoded as latin1 so bytes map one-to-one to chars;
 * {@link decodeIRText} does that and gives the string the parser reads fastest.
 */
export function parseModule(source: string, options: ParseOptions = {}): Module {
  const filename = options.filename ?? '<stdin>';
  const parser = new Parser(source, filename, options.context ?? new Context());
  parser.odrTypeUniquing = options.odrTypeUniquing ?? true;
  if (options.pointers === 'preserve-typed') parser.decidePointerSyntax();
  parser.onFunction = options.onFunction;
  const m = parser.parseModule();
  const warning = parser.sawDebugInfo ? upgradeDebugInfo(m) : undefined;
  if (warning !== undefined) options.onWarning?.(warning);
  return m;
}

class Parser extends FunctionParser {
  // --- module -------------------------------------------------------------------------------------

  parseModule(): Module {
    this.next();
    while (this.t() !== Tok.Eof) this.parseTopLevelEntity();
    this.finish();
    return this.m;
  }

  protected parseTopLevelEntity(): void {
    const l = this.lex;
    switch (l.kind) {
      case Tok.Ident:
        switch (l.text) {
          case 'declare':
            return this.parseDeclare();
          case 'define':
            return this.parseDefine();
          case 'source_filename':
            this.next();
            this.expect(Tok.Equal, "expected '=' after source_filename");
            this.m.sourceFilename = this.expectString();
            return;
          case 'target':
            return this.parseTargetDefinition();
          case 'module':
            this.next();
            this.expectIdent('asm', "expected 'module asm'");
            this.m.inlineAsm.push(...this.expectString().split('\n'));
            return;
          case 'deplibs':
            this.next();
            this.expect(Tok.Equal, "expected '=' after deplibs");
            this.expect(Tok.LSquare, "expected '['");
            if (!this.eat(Tok.RSquare)) {
              do this.expectString();
              while (this.eat(Tok.Comma));
              this.expect(Tok.RSquare, "expected ']'");
            }
            return;
          case 'attributes':
            return this.parseAttributeGroup();
          case 'uselistorder':
          case 'uselistorder_bb':
            return this.skipUseListOrder();
          default:
            throw this.error('expected top-level entity');
        }
      case Tok.LocalVar:
      case Tok.LocalVarID:
        return this.parseTypeDefinition();
      case Tok.GlobalVar:
      case Tok.GlobalID:
        return this.parseGlobalEntity();
      case Tok.ComdatVar:
        return this.parseComdat();
      case Tok.MetadataVar:
        return this.parseNamedMetadata();
      case Tok.Exclaim:
        return this.parseStandaloneMetadata();
      default:
        throw this.error('expected top-level entity');
    }
  }

  protected parseTargetDefinition(): void {
    this.next();
    if (this.eatIdent('triple')) {
      this.expect(Tok.Equal, "expected '=' after target triple");
      this.m.triple = this.expectString();
    } else if (this.eatIdent('datalayout')) {
      this.expect(Tok.Equal, "expected '=' after target datalayout");
      const loc = this.lex.start;
      this.m.dataLayout = this.expectString();
      const problem = dataLayoutProblem(this.m.dataLayout);
      if (problem !== undefined) throw this.error(problem, loc);
    } else throw this.error('unknown target property');
  }

  protected skipUseListOrder(): void {
    // uselistorder / uselistorder_bb only affect use-list order, which we do not model.
    this.next();
    const line = this.lex.src.indexOf('\n', this.lex.start);
    while (this.t() !== Tok.Eof && (line < 0 || this.lex.start < line)) this.next();
  }

  // --- finishing ----------------------------------------------------------------------------------

  protected finish(): void {
    // undefined types
    for (const [name, e] of this.namedTypes) if (!e.defined && e.type.elements === undefined && this.typeMustBeDefined(e)) throw this.error(`use of undefined type named '${name}'`, e.loc);
    for (const [id, e] of this.numberedTypes) if (!e.defined) throw this.error(`use of undefined type '%${id}'`, e.loc);
    // undefined comdats, the first by name as LLVM reports them
    const undefinedComdats = [...this.comdatUses.keys()].filter((name) => !this.definedComdats.has(name)).sort();
    if (undefinedComdats.length > 0) throw this.error(`use of undefined comdat '$${undefinedComdats[0]}'`, this.comdatUses.get(undefinedComdats[0]!));
    if (!this.typed) this.declareCalledIntrinsics();
    // undefined globals: LLVM keeps them in an ordered map and reports the first name (id)
    if (this.fwdGlobals.size > 0) {
      const name = [...this.fwdGlobals.keys()].sort()[0]!;
      throw this.error(`use of undefined value '@${name}'`, this.fwdGlobals.get(name)!.loc);
    }
    if (this.fwdGlobalIds.size > 0) {
      const id = Math.min(...this.fwdGlobalIds.keys());
      throw this.error(`use of undefined value '@${id}'`, this.fwdGlobalIds.get(id)!.loc);
    }
    // undefined metadata
    for (const [id, loc] of this.mdRefLoc) if (!this.mdDefined.has(id)) throw this.error(`use of undefined metadata '!${id}'`, loc);
    // attribute groups
    for (const [id, set] of this.groupPlaceholders) {
      const group = this.attrGroups.get(id);
      // LLVM reads a group that is never defined as an empty one
      if (group === undefined) continue;
      set.fill(group.memory === undefined ? group.attrs : [...group.attrs, intAttr('memory', group.memory)]);
    }
    const groupSets = new Map<string, AttributeSet>();
    for (const p of this.pendingAttrs) {
      const target = p.target;
      // the common case, `#N` and nothing else, shares one set per group list
      if (p.inline.length === 0 && p.memory === undefined) {
        const key = p.groups.join(',');
        let set = groupSets.get(key);
        if (set === undefined) {
          const merged: Attribute[] = [];
          let memory: number | undefined;
          for (const g of p.groups) {
            const group = this.attrGroups.get(g);
            if (group === undefined) continue;
            merged.push(...group.attrs);
            if (group.memory !== undefined) memory = group.memory;
          }
          if (memory !== undefined) merged.push(intAttr('memory', memory));
          set = AttributeSet.of(merged);
          groupSets.set(key, set);
        }
        if (target instanceof GlobalVariable) target.attributes = set;
        else target.attributes = target.attributes.withFn(set);
        continue;
      }
      const merged: Attribute[] = [...p.inline];
      let memory = p.memory;
      for (const g of p.groups) {
        const group = this.attrGroups.get(g);
        if (group === undefined) continue;
        merged.push(...group.attrs);
        if (group.memory !== undefined) memory = group.memory;
      }
      if (memory !== undefined) merged.push(intAttr('memory', memory));
      const set = AttributeSet.of(merged);
      if (target instanceof GlobalVariable) target.attributes = set;
      else target.attributes = target.attributes.withFn(set);
    }
    for (const fn of this.m.functions) {
      // an `align` from a group is the function's alignment, and wins over the header's
      const a = fn.attributes.fn.get('align');
      if (a?.kind === 'int') {
        fn.align = a.value as number;
        fn.attributes = fn.attributes.withFn(fn.attributes.fn.without('align'));
      }
    }
    if (this.blockAddressForwards.length > 0) {
      for (const f of this.blockAddressForwards) {
        const gv = f.id < 0 ? this.m.getGlobalValue(f.name) : this.numberedGlobals[f.id];
        if (gv === undefined) throw this.error(`use of undefined value '@${f.id < 0 ? f.name : f.id}'`, f.loc);
        this.resolvedForward.set(f, gv);
      }
    }
    if (this.resolvedForward.size > 0) this.patchForwardGlobals();
    this.resolveBlockAddresses();
    this.finishMetadata();
    upgradeIntrinsics(this.m);
  }

  /**
   * LLVM 19 declares an intrinsic that is called but never declared (validateEndOfModule), at the
   * end of the module, in name order. Only intrinsics that are not overloaded are declared here:
   * an overloaded one takes its name suffix from its signature table, which this library does not
   * have, so it stays an undefined value. The call's type is not checked against the
   * intrinsic's signature (LLVM's `invalid intrinsic signature`), only between the calls.
   */
  protected declareCalledIntrinsics(): void {
    if (this.fwdGlobals.size === 0) return;
    const names = [...this.fwdGlobals.keys()].filter((n) => n.startsWith('llvm.')).sort();
    for (const name of names) {
      const f = this.fwdGlobals.get(name)!;
      const info = lookupIntrinsic(name);
      if (info === undefined || info.overloaded) continue;
      if (f.calleeUses !== f.uses) throw this.error('intrinsic can only be used as callee', f.loc);
      const fnType = f.calleeType;
      if (fnType === null || fnType === undefined) throw this.error('invalid intrinsic signature', f.loc);
      const fn = new IRFunction(name, fnType, f.type as PointerType, AttributeList.empty);
      fn.args = fnType.params.map((t) => new Argument(t, '', fn));
      this.m.addFunction(fn);
      this.fwdGlobals.delete(name);
      this.resolvedForward.set(f, fn);
    }
  }

  protected typeMustBeDefined(e: { type: StructType; defined: boolean }): boolean {
    // A named type that is referenced but never defined is an error in LLVM.
    return !e.defined;
  }

  protected patchForwardGlobals(): void {
    const resolved = this.resolvedForward;
    const rebuilt = new Map<Constant, Constant>();
    const fix = (v: Value): Value => {
      const any = v as AnyValue;
      if (any.vk === 'fwd') return resolved.get(any)!;
      if (this.forwardConstants.has(v as Constant)) return rebuild(v as Constant);
      return v;
    };
    const rebuild = (c: Constant): Constant => {
      let r = rebuilt.get(c);
      if (r !== undefined) return r;
      r = rebuildConstant(this.ctx, c, (o) => fix(o) as Constant);
      rebuilt.set(c, r);
      return r;
    };
    for (const gv of this.m.globals) if (gv.initializer) gv.initializer = fix(gv.initializer) as Constant;
    for (const a of this.m.aliases) a.aliasee = fix(a.aliasee) as Constant;
    for (const i of this.m.ifuncs) i.resolver = fix(i.resolver) as Constant;
    for (const fn of this.m.functions) {
      if (fn.personality) fn.personality = fix(fn.personality) as Constant;
      if (fn.prefix) fn.prefix = fix(fn.prefix) as Constant;
      if (fn.prologue) fn.prologue = fix(fn.prologue) as Constant;
    }
    // only the instructions that were handed a forward reference: walking every instruction
    // again after the parse costs a cache miss each
    for (const inst of this.instructionsWithForwardRefs) {
      const ops = inst.operands;
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i]!;
        const f = fix(op);
        if (f !== op) ops[i] = f;
      }
      if (inst instanceof CallInst) for (const bundle of inst.bundles) bundle.inputs.forEach((v, i) => (bundle.inputs[i] = fix(v)));
    }
    for (const { ba } of this.blockAddresses) ba.fn = fix(ba.fn);
    // metadata wrappers: point them at the real values
    for (const w of this.wrappersOfForwardGlobals) {
      (w as { value: Value }).value = fix(w.value);
    }
    this.valueWrapperFixups = this.wrappersOfForwardGlobals;
  }

  protected resolveBlockAddresses(): void {
    for (const { ba, loc } of this.blockAddresses) {
      const fn = ba.fn;
      if (fn.vk !== 'function') throw this.error('expected function name in blockaddress', loc);
      const name = ba.block as string;
      let block: BasicBlock | undefined;
      if (name.startsWith('#')) {
        const id = Number(name.slice(1));
        let n = fn.args.filter((a) => a.name === '').length;
        for (const b of fn.blocks) {
          if (b.name === '') {
            if (n === id) block = b;
            n++;
          }
          for (const i of b.instructions) if (i.name === '' && i.type.kind !== 'void') n++;
        }
      } else block = fn.blocks.find((b) => b.name === name);
      if (block === undefined) throw this.error(`referenced value is not a basic block`, loc);
      ba.block = block;
    }
  }

  protected finishMetadata(): void {
    const md = this.ctx.md;
    // Value wrappers that became duplicates after forward globals were resolved.
    const wrapperDupes = new Map<Metadata, Metadata>();
    for (const w of this.valueWrapperFixups) {
      const canonical = md.value(w.value);
      if (canonical !== w) wrapperDupes.set(w, canonical);
    }
    if (wrapperDupes.size > 0) this.replaceMetadataEverywhere(wrapperDupes as Map<MDNode, MDNode>);
    // a uniqued node that is its own operand cannot be uniqued: LLVM makes it distinct
    for (const n of this.mdSlots.values()) if (!n.distinct && refersToItself(n)) (n as { distinct: boolean }).distinct = true;
    const shells: MDNode[] = [];
    for (const n of this.mdSlots.values()) if (!n.distinct) shells.push(n);
    for (const n of this.inlineNodes) shells.push(n);
    // distinct nodes also need their operands canonicalized
    const distinct: MDNode[] = [];
    for (const n of this.mdSlots.values()) if (n.distinct) distinct.push(n);
    const replacements = md.canonicalize([...shells, ...distinct]);
    if (replacements.size > 0) this.replaceMetadataEverywhere(replacements);
  }

  /** Rewrites every reference to a replaced metadata node (attachments, named metadata, operands). */
  protected replaceMetadataEverywhere(map: Map<MDNode, MDNode>): void {
    const get = <T extends Metadata | null>(m: T): T => ((m !== null && (map.get(m as MDNode) as T | undefined)) || m);
    const fixNode = (n: MDNode): void => {
      if (n.mk === 'tuple') {
        for (let i = 0; i < n.operands.length; i++) n.operands[i] = get(n.operands[i]!);
      } else for (const [k, f] of n.fields) if (f.k === 'md') n.fields.set(k, { k: 'md', v: get(f.v) });
    };
    for (const n of this.mdSlots.values()) fixNode(n);
    for (const n of map.values()) fixNode(n);
    for (const n of this.inlineNodes) fixNode(n);
    for (const [id, n] of this.mdSlots) {
      const r = map.get(n);
      if (r) this.mdSlots.set(id, r);
    }
    const fixList = (list: Attachment[]): void => {
      for (let i = 0; i < list.length; i++) {
        const a = list[i]!;
        const r = map.get(a.node);
        if (r) list[i] = { kind: a.kind, node: r };
      }
    };
    // instructions' frozen lists are shared: each is replaced once, by a fixed frozen copy
    const fixedShared = new Map<readonly Attachment[], readonly Attachment[]>();
    const fixInstructionList = (list: readonly Attachment[]): readonly Attachment[] => {
      if (!Object.isFrozen(list)) {
        fixList(list as Attachment[]);
        return list;
      }
      let fixed = fixedShared.get(list);
      if (fixed === undefined) {
        const copy = list.slice();
        fixList(copy);
        fixed = copy.every((a, i) => a === list[i]) ? list : Object.freeze(copy);
        fixedShared.set(list, fixed);
      }
      return fixed;
    };
    for (const [name, ops] of this.m.namedMetadata) this.m.namedMetadata.set(name, ops.map((o) => get(o)));
    for (const g of this.m.globals) fixList(g.attachments);
    for (const f of this.m.functions) {
      fixList(f.attachments);
      for (const b of f.blocks) {
        for (const inst of b.instructions) {
          if (inst.attachments !== null) inst.attachments = fixInstructionList(inst.attachments);
          for (const op of inst.operands) if (op.vk === 'metadata') op.metadata = get(op.metadata);
          if (inst.debugRecords) for (let r = 0; r < inst.debugRecords.length; r++) {
            const rec = inst.debugRecords[r]!;
            inst.debugRecords[r] = { kind: rec.kind, operands: rec.operands.map((o) => get(o)) };
          }
        }
      }
    }
  }
}

/** Whether `n` has itself as a direct operand (a tuple element or a debug-info field). */
function refersToItself(n: MDNode): boolean {
  if (n.mk === 'tuple') return n.operands.includes(n);
  for (const f of n.fields.values()) if (f.k === 'md' && f.v === n) return true;
  return false;
}

/** Rebuilds a constant with its operands mapped (used to resolve forward global references). */
export function rebuildConstant(ctx: Context, c: Constant, map: (v: Constant) => Constant): Constant {
  switch (c.vk) {
    case 'array':
      return makeArray(ctx, c.type, c.elements.map(map));
    case 'vector':
      return makeVector(ctx, c.type, c.elements.map(map));
    case 'struct':
      return makeStruct(ctx, c.type, c.fields.map(map));
    case 'expr':
      // refolded, as LLVM's replaceAllUsesWith of a forward reference refolds its constant users
      return makeConstantExpr(ctx, c.opcode, c.type, c.operands.map(map), c.extra);
    case 'dso_local_equivalent':
      return new DSOLocalEquivalent(c.type, map(c.global as Constant));
    case 'no_cfi':
      return new NoCFIValue(c.type, map(c.global as Constant));
    default:
      return c;
  }
}

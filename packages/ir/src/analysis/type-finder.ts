/**
 * LLVM's TypeFinder: the identified (non-literal) struct types a module uses, in its exact
 * discovery order — globals, aliases, ifuncs, then functions (type, attributes, personality,
 * prefix, prologue, instructions with their operands, attribute types, bundles and non-debug
 * attachments), then named metadata. The printer numbers unnamed structs in this order and the
 * linker maps types in it.
 */
import { AttributeList, type AttributeSet } from '../model/attributes.js';
import { AllocaInst, CallInst, GetElementPtrInst, ShuffleVectorInst, type Instruction } from '../model/instructions.js';
import { forEachDIOperand, type DINode, type Metadata, type MDNode } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import { subtypes, type StructType, type Type } from '../model/types.js';
import { constantOperands } from './uses.js';
import { isConstant, type IRFunction, type Value } from '../model/values.js';

/**
 * Identified struct types used by a module, in LLVM TypeFinder's discovery order.
 *
 * `known`, when given, may answer for a function or a named metadata operand what
 * {@link rootStructTypes} answers for it (typically from a cache kept across modules that share
 * those objects); where it answers undefined the root is walked here. The result is the same: the
 * finder's visited sets are closed under "reachable from" between roots, so what one root adds is
 * its own discovery order with what was found before left out. `namedMetadata`, when given, is
 * what {@link namedMetadataStructTypes} answers for the module: it stands for the walk of all
 * named metadata operands.
 */
export function identifiedStructTypes(
  m: Module,
  known?: (root: IRFunction | MDNode) => readonly StructType[] | undefined,
  namedMetadata?: readonly StructType[],
): StructType[] {
  const finder = new TypeFinder();
  finder.incGlobals(m);
  for (const f of m.functions) {
    const list = known?.(f);
    if (list === undefined) finder.incFunction(f);
    else finder.addStructs(list);
  }
  finder.incNamedMetadata(m, known, namedMetadata);
  return finder.structs;
}

/** The identified struct types a function or metadata node uses, in the order a finder starting afresh meets them. */
export function rootStructTypes(root: IRFunction | MDNode): StructType[] {
  const finder = new TypeFinder();
  if ('mk' in root) finder.incMD(root);
  else finder.incFunction(root);
  return finder.structs;
}

/** The identified struct types a module's named metadata operands use, in the order a finder starting afresh meets them. */
export function namedMetadataStructTypes(m: Module): StructType[] {
  const finder = new TypeFinder();
  finder.incNamedMetadata(m);
  return finder.structs;
}

/**
 * The finder's state and its steps, for a caller that walks a module in the finder's order
 * itself: {@link identifiedStructTypes} is `incGlobals`, then `incFunction` (or `addStructs` of a
 * known list) for each function in order, then `incNamedMetadata`. `incFunction` is
 * `incFunctionHeader` and then `incInstruction` for each instruction in order, so a walk over a
 * function's instructions for something else can take the finder along.
 */
export class TypeFinder {
  readonly structs: StructType[] = [];
  /** Whether an identified struct without a name was found (the printer numbers those). */
  unnamed = false;
  /**
   * May answer for an instruction's attachment what {@link rootStructTypes} answers for it (as
   * `identifiedStructTypes`'s `known` does for roots): then the node is not walked. Exact for the
   * same reason: between attachments the visited sets are closed under "reachable from", so what
   * the node's walk would add is its own list with what was found before left out (and what it
   * leaves unvisited holds nothing new for a later walk either).
   */
  knownMD: ((node: MDNode) => readonly StructType[] | undefined) | undefined = undefined;
  private readonly structSeen = new Set<StructType>();
  private readonly visitedTypes = new Set<Type>();
  private readonly visitedConstants = new Set<unknown>();
  private readonly visitedMD = new Set<Metadata>();
  /**
   * Attribute lists and sets walked already: calls share a few lists (one per distinct attribute
   * combination), and a list walked again finds nothing new, as its types are visited.
   */
  private readonly visitedAttrs = new Set<AttributeList | AttributeSet>();

  addStruct(s: StructType): void {
    if (this.structSeen.has(s)) return;
    this.structSeen.add(s);
    this.structs.push(s);
    if (s.name === '') this.unnamed = true;
  }

  addStructs(list: readonly StructType[]): void {
    for (let i = 0; i < list.length; i++) this.addStruct(list[i]!);
  }

  /** Globals (value types and initializers), aliases, then ifuncs. */
  incGlobals(m: Module): void {
    for (const g of m.globals) {
      this.incType(g.valueType);
      if (g.initializer) this.incValue(g.initializer);
    }
    for (const a of m.aliases) {
      this.incType(a.valueType);
      this.incValue(a.aliasee);
    }
    for (const i of m.ifuncs) this.incType(i.valueType);
  }

  /**
   * The operands of the named metadata; `known` and `namedMetadata` as for
   * {@link identifiedStructTypes}.
   */
  incNamedMetadata(
    m: Module,
    known?: (root: IRFunction | MDNode) => readonly StructType[] | undefined,
    namedMetadata?: readonly StructType[],
  ): void {
    if (namedMetadata !== undefined) {
      this.addStructs(namedMetadata);
      return;
    }
    for (const ops of m.namedMetadata.values()) {
      for (const op of ops) {
        if (op.mk !== 'tuple' && op.mk !== 'di') continue;
        const list = known?.(op);
        if (list === undefined) this.incMD(op);
        else this.addStructs(list);
      }
    }
  }

  incType(t: Type): void {
    // a type that holds no identified struct has nothing to find, however far it is walked
    if (!t.reachesStruct) return;
    const visitedTypes = this.visitedTypes;
    if (visitedTypes.has(t)) return;
    visitedTypes.add(t);
    const stack: Type[] = [t];
    while (stack.length > 0) {
      const cur = stack.pop()!;
      if (cur.kind === 'struct' && !cur.literal) this.addStruct(cur);
      const subs = subtypes(cur);
      for (let i = subs.length - 1; i >= 0; i--) {
        const sub = subs[i]!;
        if (sub.reachesStruct && !visitedTypes.has(sub)) {
          visitedTypes.add(sub);
          stack.push(sub);
        }
      }
    }
  }

  incValue(v: Value): void {
    if (v.vk === 'metadata') {
      const md = v.metadata;
      if (md.mk === 'tuple' || md.mk === 'di') this.incMD(md);
      else if (md.mk === 'value') this.incValue(md.value);
      else if (md.mk === 'arglist') for (const a of md.args) this.incValue(a.value);
      return;
    }
    switch (v.vk) {
      case 'argument':
      case 'block':
      case 'instruction':
      case 'asm':
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        return;
      case 'int':
      case 'fp':
      case 'null':
      case 'zero':
      case 'undef':
      case 'poison':
      case 'none':
      case 'string':
        // no operands: only the type can contribute (the visited-constants set is not needed)
        this.incType(v.type);
        return;
    }
    if (this.visitedConstants.has(v)) return;
    this.visitedConstants.add(v);
    this.incType(v.type);
    if (v.vk === 'expr' && v.extra.sourceElementType) this.incType(v.extra.sourceElementType);
    for (const op of constantOperands(v)) this.incValue(op);
  }

  incMD(n: MDNode): void {
    if (this.visitedMD.has(n)) return;
    this.visitedMD.add(n);
    if (n.mk === 'tuple') {
      const ops = n.operands;
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i]!;
        if (op === null) continue;
        if (op.mk === 'tuple' || op.mk === 'di') this.incMD(op);
        else if (op.mk === 'value' && isConstant(op.value)) this.incValue(op.value);
      }
    } else this.incDIOperands(n);
  }

  // apart from incMD: its closure would make V8 allocate incMD's context on every call
  private incDIOperands(n: DINode): void {
    forEachDIOperand(n, (op) => {
      if (op === null) return;
      if (op.mk === 'tuple' || op.mk === 'di') this.incMD(op);
      else if (op.mk === 'value' && isConstant(op.value)) this.incValue(op.value);
    });
  }

  private incSet(set: AttributeSet): void {
    const attrs = set.attributes;
    if (attrs.length === 0 || this.visitedAttrs.has(set)) return;
    this.visitedAttrs.add(set);
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      if (a.kind === 'type' && a.type) this.incType(a.type);
    }
  }

  private incAttrs(list: AttributeList): void {
    if (list === AttributeList.empty || this.visitedAttrs.has(list)) return;
    this.visitedAttrs.add(list);
    this.incSet(list.fn);
    this.incSet(list.ret);
    const params = list.params;
    for (let i = 0; i < params.length; i++) this.incSet(params[i]!);
  }

  /** A function's operands in LLVM's order: type, attributes, personality, prefix, prologue, then its instructions. */
  incFunction(f: IRFunction): void {
    this.incFunctionHeader(f);
    const blocks = f.blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const insts = blocks[bi]!.instructions;
      for (let ii = 0; ii < insts.length; ii++) this.incInstruction(insts[ii]!);
    }
  }

  /** The part of {@link incFunction} before the instructions. */
  incFunctionHeader(f: IRFunction): void {
    this.incType(f.functionType);
    this.incAttrs(f.attributes);
    if (f.personality) this.incValue(f.personality);
    if (f.prefix) this.incValue(f.prefix);
    if (f.prologue) this.incValue(f.prologue);
  }

  /**
   * One instruction: its type, operands, GEP source type, call attributes and bundle inputs,
   * alloca type, shuffle mask, non-debug attachments. Types are checked before calls, the
   * instruction's class only for the opcodes that have one (instanceof on the many instruction
   * classes costs more than the string compares).
   */
  incInstruction(inst: Instruction): void {
    const type = inst.type;
    if (type.reachesStruct) this.incType(type);
    const ops = inst.operands;
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k]!;
      switch (op.vk) {
        case 'instruction':
        case 'argument':
        case 'block':
        case 'global':
        case 'function':
          break;
        case 'int':
        case 'fp':
        case 'null':
        case 'undef':
        case 'poison':
          if (op.type.reachesStruct) this.incType(op.type);
          break;
        default:
          this.incValue(op);
      }
    }
    const opcode = inst.opcode;
    if (opcode === 'getelementptr') {
      if (inst instanceof GetElementPtrInst) this.incType(inst.sourceElementType);
    } else if (opcode === 'call' || opcode === 'invoke' || opcode === 'callbr') {
      if (inst instanceof CallInst) {
        this.incAttrs(inst.attributes);
        const bundles = inst.bundles;
        for (let b = 0; b < bundles.length; b++) for (const v of bundles[b]!.inputs) if (v.vk !== 'instruction') this.incValue(v);
      }
    } else if (opcode === 'alloca') {
      if (inst instanceof AllocaInst) this.incType(inst.allocatedType);
    } else if (opcode === 'shufflevector') {
      if (inst instanceof ShuffleVectorInst) this.incValue(inst.maskValue);
    }
    const attachments = inst.attachments;
    if (attachments !== null) {
      const visitedMD = this.visitedMD;
      for (let a = 0; a < attachments.length; a++) {
        const at = attachments[a]!;
        if (at.kind === 0 || visitedMD.has(at.node)) continue;
        const list = this.knownMD?.(at.node);
        if (list === undefined) this.incMD(at.node);
        else {
          this.addStructs(list);
          visitedMD.add(at.node);
        }
      }
    }
  }
}

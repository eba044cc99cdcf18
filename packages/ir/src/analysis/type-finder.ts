/**
 * LLVM's TypeFinder: the identified (non-literal) struct types a module uses, in its exact
 * discovery order — globals, aliases, ifuncs, then functions (type, attributes, personality,
 * prefix, prologue, instructions with their operands, attribute types, bundles and non-debug
 * attachments), then named metadata. The printer numbers unnamed structs in this order and the
 * linker maps types in it.
 */
import type { AttributeList, AttributeSet } from '../model/attributes.js';
import { AllocaInst, CallInst, GetElementPtrInst, ShuffleVectorInst } from '../model/instructions.js';
import { forEachDIOperand, type Metadata, type MDNode } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import { subtypes, type StructType, type Type } from '../model/types.js';
import { constantOperands } from './uses.js';
import { isConstant, type Value } from '../model/values.js';

/** Identified struct types used by a module, in LLVM TypeFinder's discovery order. */
export function identifiedStructTypes(m: Module): StructType[] {
  const visitedTypes = new Set<Type>();
  const visitedConstants = new Set<unknown>();
  const visitedMD = new Set<Metadata>();
  const structs: StructType[] = [];
  const incType = (t: Type): void => {
    if (visitedTypes.has(t)) return;
    visitedTypes.add(t);
    const stack: Type[] = [t];
    while (stack.length > 0) {
      const cur = stack.pop()!;
      if (cur.kind === 'struct' && !cur.literal) structs.push(cur);
      const subs = subtypes(cur);
      for (let i = subs.length - 1; i >= 0; i--) {
        const sub = subs[i]!;
        if (!visitedTypes.has(sub)) {
          visitedTypes.add(sub);
          stack.push(sub);
        }
      }
    }
  };
  const incValue = (v: Value): void => {
    if (v.vk === 'metadata') {
      const md = v.metadata;
      if (md.mk === 'tuple' || md.mk === 'di') incMD(md);
      else if (md.mk === 'value') incValue(md.value);
      else if (md.mk === 'arglist') for (const a of md.args) incValue(a.value);
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
        if (!visitedTypes.has(v.type)) incType(v.type);
        return;
    }
    if (visitedConstants.has(v)) return;
    visitedConstants.add(v);
    incType(v.type);
    if (v.vk === 'expr' && v.extra.sourceElementType) incType(v.extra.sourceElementType);
    for (const op of constantOperands(v)) incValue(op);
  };
  const incMD = (n: MDNode): void => {
    if (visitedMD.has(n)) return;
    visitedMD.add(n);
    if (n.mk === 'tuple') {
      for (const op of n.operands) {
        if (op === null) continue;
        if (op.mk === 'tuple' || op.mk === 'di') incMD(op);
        else if (op.mk === 'value' && isConstant(op.value)) incValue(op.value);
      }
    } else {
      forEachDIOperand(n, (op) => {
        if (op === null) return;
        if (op.mk === 'tuple' || op.mk === 'di') incMD(op);
        else if (op.mk === 'value' && isConstant(op.value)) incValue(op.value);
      });
    }
  };
  const incSet = (set: AttributeSet): void => {
    const attrs = set.attributes;
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      if (a.kind === 'type' && a.type) incType(a.type);
    }
  };
  const incAttrs = (list: AttributeList): void => {
    incSet(list.fn);
    incSet(list.ret);
    const params = list.params;
    for (let i = 0; i < params.length; i++) incSet(params[i]!);
  };
  for (const g of m.globals) {
    incType(g.valueType);
    if (g.initializer) incValue(g.initializer);
  }
  for (const a of m.aliases) {
    incType(a.valueType);
    incValue(a.aliasee);
  }
  for (const i of m.ifuncs) incType(i.valueType);
  for (const f of m.functions) {
    incType(f.functionType);
    incAttrs(f.attributes);
    // a function's operands in LLVM's order: personality, prefix, prologue
    if (f.personality) incValue(f.personality);
    if (f.prefix) incValue(f.prefix);
    if (f.prologue) incValue(f.prologue);
    const blocks = f.blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const insts = blocks[bi]!.instructions;
      for (let ii = 0; ii < insts.length; ii++) {
        const inst = insts[ii]!;
        if (!visitedTypes.has(inst.type)) incType(inst.type);
        const ops = inst.operands;
        for (let k = 0; k < ops.length; k++) {
          const op = ops[k]!;
          if (op.vk !== 'instruction' && op.vk !== 'argument' && op.vk !== 'block') incValue(op);
        }
        if (inst instanceof GetElementPtrInst) incType(inst.sourceElementType);
        if (inst instanceof AllocaInst) incType(inst.allocatedType);
        if (inst instanceof CallInst) {
          incAttrs(inst.attributes);
          for (const bundle of inst.bundles) for (const v of bundle.inputs) if (v.vk !== 'instruction') incValue(v);
        }
        if (inst instanceof ShuffleVectorInst) incValue(inst.maskValue);
        if (inst.attachments) for (const a of inst.attachments) if (a.kind !== 0) incMD(a.node);
      }
    }
  }
  for (const ops of m.namedMetadata.values()) for (const op of ops) if (op.mk === 'tuple' || op.mk === 'di') incMD(op);
  return structs;
}

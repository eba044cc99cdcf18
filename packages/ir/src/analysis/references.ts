/**
 * The one walk over the places a module holds values: every slot that can refer to a global.
 * The IR keeps no use lists (operands reference values by identity), so call graphs, use lists,
 * image dependencies and reference checks all start from this walk and read the values they need
 * (constants are looked into with {@link ConstantGlobals}).
 *
 * Slots, per global: a variable's initializer, an alias's aliasee, an ifunc's resolver; a
 * function's personality, prefix and prologue (in LLVM's operand order), then the operands of its
 * instructions in order, each followed by its operand-bundle inputs. Metadata is not a slot: in
 * LLVM a metadata reference is not a use (deleting the global turns it into `null`).
 */
import { CallInst, type Instruction } from '../model/instructions.js';
import type { Module } from '../model/module.js';
import type { GlobalValue, Value } from '../model/values.js';

/** Where a value is held: an instruction, or the global whose initializer, aliasee, resolver, personality, prefix or prologue it is. */
export type ReferenceHolder = Instruction | GlobalValue;

/** The operand index given for a global's own slots and for operand-bundle inputs. */
export const NOT_AN_OPERAND = -1;

/**
 * Receives each held value: `operand` is the instruction operand index, or {@link NOT_AN_OPERAND}
 * for operand-bundle inputs and for a global's own slots (then `holder` is the global).
 */
export type ReferenceVisitor = (value: Value, holder: ReferenceHolder, operand: number) => void;

/** Visits every value `gv`'s definition holds (see the module comment for the slots and their order). */
export function forEachReferenceOf(gv: GlobalValue, visit: ReferenceVisitor): void {
  switch (gv.vk) {
    case 'global':
      if (gv.initializer !== undefined) visit(gv.initializer, gv, NOT_AN_OPERAND);
      return;
    case 'alias':
      visit(gv.aliasee, gv, NOT_AN_OPERAND);
      return;
    case 'ifunc':
      visit(gv.resolver, gv, NOT_AN_OPERAND);
      return;
    case 'function': {
      if (gv.personality !== undefined) visit(gv.personality, gv, NOT_AN_OPERAND);
      if (gv.prefix !== undefined) visit(gv.prefix, gv, NOT_AN_OPERAND);
      if (gv.prologue !== undefined) visit(gv.prologue, gv, NOT_AN_OPERAND);
      const blocks = gv.blocks;
      for (let b = 0; b < blocks.length; b++) {
        const instructions = blocks[b]!.instructions;
        for (let i = 0; i < instructions.length; i++) {
          const inst = instructions[i]!;
          const operands = inst.operands;
          for (let k = 0; k < operands.length; k++) visit(operands[k]!, inst, k);
          if (inst instanceof CallInst) for (const bundle of inst.bundles) for (const input of bundle.inputs) visit(input, inst, NOT_AN_OPERAND);
        }
      }
      return;
    }
  }
}

/** {@link forEachReferenceOf} every global of `module`: variables, aliases, ifuncs, then functions, each in module order. */
export function forEachReference(module: Module, visit: ReferenceVisitor): void {
  for (const gv of module.globals) forEachReferenceOf(gv, visit);
  for (const alias of module.aliases) forEachReferenceOf(alias, visit);
  for (const ifunc of module.ifuncs) forEachReferenceOf(ifunc, visit);
  for (const fn of module.functions) forEachReferenceOf(fn, visit);
}

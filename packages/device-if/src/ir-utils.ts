/**
 * Small IR helpers shared by the passes of this package: writing the aspect metadata, debug
 * locations for diagnostics, and finding every reference to a set of functions.
 *
 * `@syclkit/ir` has no use-lists, so references are found with its `forEachReference` walk (looking
 * into constant expressions and aggregates). Metadata is not walked: like LLVM, which drops
 * metadata references to a deleted function instead of keeping it alive, a reference from
 * metadata does not count.
 */
import {
  ConstantGlobals,
  NOT_AN_OPERAND,
  forEachReference,
  getMetadata,
  setMetadata,
  type ReferenceHolder,
  type CallInst,
  type Context,
  type IRFunction,
  type Instruction,
  type Metadata,
  type MDNode,
  type Module,
  type Value,
} from '@syclkit/ir';
import type { DebugLocation } from '@syclkit/pass-manager';
import { SyclMetadata, attachment, debugNodeOf, fileOf, isDINode, readAspectValues } from '@syclkit/sycl-conventions';

/** A `ConstantInt` of at most 32 bits as a number, else undefined. */
export function int32Value(value: Value): number | undefined {
  if (value.vk !== 'int' || value.type.bits > 32) return undefined;
  return value.num;
}

/** Aspect numbers of a function's `!sycl_used_aspects`, in order (both the plain and the named form). */
export function readUsedAspects(fn: IRFunction, context: Context): number[] {
  return readAspectValues(attachment(fn, context, SyclMetadata.usedAspects)).values;
}

/**
 * Appends aspects to a function's `!sycl_used_aspects`, keeping what is there. New entries follow
 * the style of the existing list: `!{!"name", i32 N}` pairs when it holds pairs and the name is
 * known, plain `i32 N` otherwise.
 */
export function appendUsedAspects(fn: IRFunction, context: Context, aspects: readonly number[], names: ReadonlyMap<number, string>): void {
  if (aspects.length === 0) return;
  const node = getMetadata(fn, context, SyclMetadata.usedAspects);
  const existing = node?.mk === 'tuple' ? node.operands : [];
  const named = existing.some((operand) => operand?.mk === 'tuple');
  const md = context.md;
  const added = aspects.map((aspect): Metadata => {
    const value = md.value(context.constI32(aspect));
    const name = names.get(aspect);
    return named && name !== undefined ? md.tuple([md.string(name), value]) : value;
  });
  setMetadata(fn, context, SyclMetadata.usedAspects, md.tuple([...existing, ...added]));
}

/** Drops one metadata attachment from a function; returns whether it was there. */
export function dropFunctionMetadata(fn: IRFunction, context: Context, kind: string): boolean {
  const id = context.md.kinds.lookup(kind);
  if (id === undefined || !fn.attachments.some((a) => a.kind === id)) return false;
  setMetadata(fn, context, kind, undefined);
  return true;
}

// --- debug locations ----------------------------------------------------------------------------

function field(node: MDNode, name: string): Metadata | null | undefined {
  return node.mk === 'di' ? node.mdField(name) : undefined;
}

function toDebugLocation(node: MDNode, depth: number): DebugLocation | undefined {
  if (node.mk !== 'di' || node.className !== 'DILocation' || depth > 64) return undefined;
  const line = node.intField('line');
  if (line === undefined) return undefined;
  const column = node.intField('column');
  const scope = field(node, 'scope');
  const file = isDINode(scope) ? fileOf(scope) : undefined;
  let scopeName: string | undefined;
  for (let s = scope, d = 0; s != null && s.mk === 'di' && d < 16 && scopeName === undefined; d++) {
    if (s.className === 'DISubprogram') scopeName = s.strField('linkageName') ?? s.strField('name');
    s = field(s, 'scope');
  }
  const inlined = field(node, 'inlinedAt');
  const inlinedAt = inlined != null && inlined.mk === 'di' ? toDebugLocation(inlined, depth + 1) : undefined;
  return {
    line,
    ...(column !== undefined && column !== 0 && { column }),
    ...(file !== undefined && { file }),
    ...(scopeName !== undefined && { scope: scopeName }),
    ...(inlinedAt !== undefined && { inlinedAt }),
  };
}

/** The `!dbg` location of an instruction, for diagnostics. */
export function debugLocationOf(inst: Instruction): DebugLocation | undefined {
  const node = debugNodeOf(inst);
  return node === undefined ? undefined : toDebugLocation(node, 0);
}

// --- references ---------------------------------------------------------------------------------

/** How a function is referenced: as the callee of a `call`, or any other way. */
export type FunctionReference =
  | { readonly kind: 'call'; readonly call: CallInst }
  | { readonly kind: 'other'; readonly where: string };

/** Where a value held by `holder` is, for messages. */
function placeOf(holder: ReferenceHolder, operand: number): string {
  if (holder.vk !== 'instruction') {
    if (holder.vk === 'global') return `the initializer of @${holder.name}`;
    if (holder.vk === 'function') return `a prefix, prologue or personality of @${holder.name}`;
    return `${holder.vk} @${holder.name}`;
  }
  const fn = holder.function?.name ?? '?';
  return operand === NOT_AN_OPERAND ? `an operand bundle in @${fn}` : `an operand of ${holder.opcode} in @${fn}`;
}

/**
 * Every reference to the functions in `targets`, in `forEachReference` order. A `call` whose
 * callee operand is the function is a `call` reference; the function as an argument, in an
 * `invoke`, in a constant or an initializer is `other`.
 */
export function functionReferences(module: Module, targets: ReadonlySet<IRFunction>): Map<IRFunction, FunctionReference[]> {
  const refs = new Map<IRFunction, FunctionReference[]>();
  for (const fn of targets) refs.set(fn, []);
  if (targets.size === 0) return refs;
  const inConstants = new ConstantGlobals();
  forEachReference(module, (value, holder, operand) => {
    if (operand === 0 && value.vk === 'function' && holder.vk === 'instruction' && holder.opcode === 'call') {
      if (targets.has(value)) refs.get(value)!.push({ kind: 'call', call: holder as CallInst });
      return;
    }
    for (const g of inConstants.of(value)) {
      if (g.vk === 'function' && targets.has(g)) refs.get(g)!.push({ kind: 'other', where: placeOf(holder, operand) });
    }
  });
  return refs;
}

// --- instruction surgery ------------------------------------------------------------------------

/** Replaces uses of `from` by `to` in the operands of the instructions of `fn`. */
function replaceUsesInFunction(fn: IRFunction, from: Value, to: Value): void {
  for (const block of fn.blocks) {
    for (const inst of block.instructions) {
      const operands = inst.operands;
      for (let i = 0; i < operands.length; i++) if (operands[i] === from) operands[i] = to;
    }
  }
}

/**
 * Puts `replacement` where `old` is and drops `old`: debug records move to the replacement and uses
 * of `old`'s value (only possible within its function) are redirected.
 */
export function replaceInstruction(old: Instruction, replacement: Instruction): void {
  const block = old.parent;
  if (block === null) throw new Error('replaceInstruction: the instruction is not in a block');
  const index = block.instructions.indexOf(old);
  block.instructions[index] = replacement;
  replacement.parent = block;
  if (old.debugRecords !== null) {
    replacement.debugRecords = [...(old.debugRecords ?? []), ...(replacement.debugRecords ?? [])];
    old.debugRecords = null;
  }
  old.parent = null;
  if (old.type.kind !== 'void') replaceUsesInFunction(block.parent, old, replacement);
}

/** Inserts `inst` right before `before`. */
export function insertBefore(inst: Instruction, before: Instruction): void {
  const block = before.parent;
  if (block === null) throw new Error('insertBefore: the instruction is not in a block');
  block.instructions.splice(block.instructions.indexOf(before), 0, inst);
  inst.parent = block;
}

/**
 * Removes an instruction. Its debug records move to the next instruction and any use of its value
 * becomes `poison`, as when LLVM erases an instruction after replacing its uses.
 */
export function eraseInstruction(inst: Instruction, context: Context): void {
  const block = inst.parent;
  if (block === null) return;
  if (inst.type.kind !== 'void') replaceUsesInFunction(block.parent, inst, context.poison(inst.type));
  const index = block.instructions.indexOf(inst);
  block.instructions.splice(index, 1);
  const next = block.instructions[index];
  if (inst.debugRecords !== null && next !== undefined) next.debugRecords = [...inst.debugRecords, ...(next.debugRecords ?? [])];
  inst.parent = null;
}

/** A copy of the `!dbg` attachment of `from` (and nothing else), for a new instruction. */
export function debugAttachmentOf(from: Instruction, context: Context): Instruction['attachments'] {
  const dbg = context.md.kinds.lookup('dbg');
  const attachment = dbg === undefined ? undefined : from.attachments?.find((a) => a.kind === dbg);
  return attachment === undefined ? null : [attachment];
}

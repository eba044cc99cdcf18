/**
 * Small IR editing tools the passes of this package share: building instructions the way LLVM's
 * IRBuilder would, inserting and erasing them, replacing local values (debug records included),
 * and listing the calls of each function in LLVM's use-list order.
 *
 * `@syclkit/ir` has no use lists; these helpers walk what they need, once per function or module.
 */
import {
  AllocaInst,
  AttributeList,
  AttributeSet,
  CallInst,
  Flag,
  GetElementPtrInst,
  Instruction,
  MemoryInst,
  intAttr,
  intrinsicAttributes,
  lookupIntrinsic,
  type BasicBlock,
  type Context,
  type FunctionType,
  type IRFunction,
  type Metadata,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';

// --- positions ------------------------------------------------------------------------------------

/** Inserts `inst` into `block` before position `index` (at the end when `index` is the length). */
export function insertAt(block: BasicBlock, index: number, inst: Instruction): Instruction {
  inst.parent = block;
  block.instructions.splice(index, 0, inst);
  return inst;
}

/** Inserts `inst` right before `before`. */
export function insertBefore(before: Instruction, inst: Instruction): Instruction {
  const block = before.parent!;
  return insertAt(block, block.instructions.indexOf(before), inst);
}

/** Index of the first instruction of `block` that is not a PHI (LLVM's `getFirstInsertionPt`). */
export function firstInsertionIndex(block: BasicBlock): number {
  let i = 0;
  while (i < block.instructions.length && block.instructions[i]!.opcode === 'phi') i++;
  return i;
}

/**
 * Removes an instruction from its block. Debug records attached before it move to the
 * instruction that follows, as LLVM does when it erases an instruction.
 */
export function erase(inst: Instruction): void {
  const block = inst.parent;
  if (block === null) return;
  const list = block.instructions;
  const i = list.indexOf(inst);
  if (i < 0) return;
  list.splice(i, 1);
  inst.parent = null;
  const records = inst.debugRecords;
  if (records !== null && records.length > 0) {
    const next = list[i];
    if (next !== undefined) next.debugRecords = [...records, ...(next.debugRecords ?? [])];
  }
}

/** Removes many instructions of one function in one walk (debug records move as in {@link erase}). */
export function eraseAll(fn: IRFunction, dead: ReadonlySet<Instruction>): void {
  if (dead.size === 0) return;
  for (const block of fn.blocks) {
    let moved: NonNullable<Instruction['debugRecords']> | null = null;
    const kept: Instruction[] = [];
    for (const inst of block.instructions) {
      if (dead.has(inst)) {
        inst.parent = null;
        if (inst.debugRecords !== null && inst.debugRecords.length > 0) moved = [...(moved ?? []), ...inst.debugRecords];
        continue;
      }
      if (moved !== null) {
        inst.debugRecords = [...moved, ...(inst.debugRecords ?? [])];
        moved = null;
      }
      kept.push(inst);
    }
    block.instructions = kept;
  }
}

// --- uses ------------------------------------------------------------------------------------------

/** Operands of an instruction that are values (call bundles included). */
export function forEachOperandValue(inst: Instruction, visit: (v: Value) => void): void {
  for (const op of inst.operands) visit(op);
  if (inst instanceof CallInst) for (const b of inst.bundles) for (const v of b.inputs) visit(v);
}

/** The instructions of `fn` that use each local value, once per use, in instruction order. */
export function localUsers(fn: IRFunction): Map<Value, Instruction[]> {
  const users = new Map<Value, Instruction[]>();
  for (const inst of fn.instructions()) {
    forEachOperandValue(inst, (v) => {
      if (v.vk !== 'instruction' && v.vk !== 'argument') return;
      const list = users.get(v);
      if (list === undefined) users.set(v, [inst]);
      else list.push(inst);
    });
  }
  return users;
}

/**
 * Replaces uses of local values (instructions, arguments) of `fn` by other values: instruction
 * operands, bundle inputs, `metadata` call operands and debug records.
 */
export function replaceLocalUses(context: Context, fn: IRFunction, replacements: ReadonlyMap<Value, Value>): void {
  if (replacements.size === 0) return;
  const md = context.md;
  const mapMetadata = (m: Metadata | null): Metadata | null => {
    if (m === null) return null;
    if (m.mk === 'value') {
      const r = replacements.get(m.value);
      return r === undefined ? m : md.value(r);
    }
    if (m.mk === 'arglist') {
      let changed = false;
      const args = m.args.map((a) => {
        const r = replacements.get(a.value);
        if (r === undefined) return a;
        changed = true;
        return md.value(r);
      });
      return changed ? md.argList(args) : m;
    }
    return m;
  };
  for (const inst of fn.instructions()) {
    const ops = inst.operands;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const r = replacements.get(op);
      if (r !== undefined) ops[i] = r;
      else if (op.vk === 'metadata') {
        const mapped = mapMetadata(op.metadata);
        if (mapped !== op.metadata && mapped !== null) op.metadata = mapped;
      }
    }
    if (inst instanceof CallInst) {
      for (const b of inst.bundles) for (let i = 0; i < b.inputs.length; i++) b.inputs[i] = replacements.get(b.inputs[i]!) ?? b.inputs[i]!;
    }
    if (inst.debugRecords !== null) {
      inst.debugRecords = inst.debugRecords.map((r) => {
        const operands = r.operands.map(mapMetadata);
        return operands.some((o, i) => o !== r.operands[i]) ? { kind: r.kind, operands } : r;
      });
    }
  }
}

/**
 * The `call`s of each function (as callee), in the order LLVM's use list of the function holds
 * them after `opt` reads the module: a use made after the function is declared goes to the front
 * of its list, while uses made before (through a forward reference) keep their order when the
 * reference is resolved. Passes that visit users in that order give LLVM's output order (e.g. of
 * new annotation entries).
 */
export function callsInUseOrder(module: Module): Map<IRFunction, CallInst[]> {
  const position = new Map<IRFunction, number>();
  module.functions.forEach((fn, i) => position.set(fn, i));
  const before = new Map<IRFunction, CallInst[]>();
  const after = new Map<IRFunction, CallInst[]>();
  module.functions.forEach((caller, callerIndex) => {
    for (const inst of caller.instructions()) {
      if (!(inst instanceof CallInst)) continue;
      const callee = inst.calledFunction;
      if (callee === undefined) continue;
      const map = callerIndex < (position.get(callee) ?? -1) ? before : after;
      const list = map.get(callee);
      if (list === undefined) map.set(callee, [inst]);
      else list.push(inst);
    }
  });
  const result = new Map<IRFunction, CallInst[]>();
  for (const fn of module.functions) {
    const late = after.get(fn) ?? [];
    const early = before.get(fn) ?? [];
    if (late.length + early.length > 0) result.set(fn, [...late.reverse(), ...early]);
  }
  return result;
}

// --- builders --------------------------------------------------------------------------------------

/** A pointer to `pointee` in the module's pointer style. */
export function pointerTo(module: Module, pointee: Type, addressSpace: number): Type {
  return module.pointerTo(pointee, addressSpace);
}

/** `getelementptr [inbounds] sourceType, ptr, indices...`; `resultPointee` is the typed-pointer result element. */
export function gep(module: Module, sourceType: Type, pointer: Value, indices: Value[], resultPointee: Type, inbounds: boolean, name = ''): GetElementPtrInst {
  const addressSpace = pointer.type.kind === 'pointer' ? pointer.type.addressSpace : 0;
  return new GetElementPtrInst(module.pointerTo(resultPointee, addressSpace), sourceType, [pointer, ...indices], name, inbounds ? Flag.INBOUNDS : 0);
}

/** `load type, ptr, align N` with the type's ABI alignment (IRBuilder's default). */
export function load(module: Module, type: Type, pointer: Value, name = ''): MemoryInst {
  const inst = new MemoryInst('load', type, [pointer], name);
  inst.align = module.layout.abiAlign(type);
  return inst;
}

/** A cast instruction (`zext`, `trunc`, `bitcast`, `addrspacecast`, ...). */
export function cast(opcode: 'zext' | 'trunc' | 'sext' | 'bitcast' | 'addrspacecast' | 'ptrtoint' | 'inttoptr', value: Value, to: Type, name = ''): Instruction {
  return new Instruction(opcode, to, [value], name);
}

/**
 * IRBuilder's `CreateIntCast(value, to, isSigned=false)`: the value itself when the widths
 * match, else `zext` or `trunc`.
 */
export function intCast(value: Value, to: Type, name = ''): Value | Instruction {
  if (value.type === to) return value;
  const from = value.type.kind === 'integer' ? value.type.bits : 0;
  const bits = to.kind === 'integer' ? to.bits : 0;
  return cast(from < bits ? 'zext' : 'trunc', value, to, name);
}

/** `alloca type, align N, addrspace(AS)` with the type's preferred alignment. */
export function alloca(module: Module, type: Type, addressSpace: number, name = ''): AllocaInst {
  const ctx = module.context;
  return new AllocaInst(module.pointerTo(type, addressSpace), type, ctx.constI32(1), module.layout.prefAlign(type), addressSpace, name);
}

/** A direct call of `callee` with `args`. */
export function call(callee: IRFunction, args: Value[], options: { name?: string; attributes?: AttributeList; callingConv?: string; tail?: number } = {}): CallInst {
  const fnType: FunctionType = callee.functionType;
  const inst = new CallInst('call', fnType.returnType, fnType, [callee, ...args], options.attributes ?? AttributeList.empty, options.name ?? '', options.tail ?? 0);
  inst.callingConv = options.callingConv ?? callee.callingConv;
  return inst;
}

/** The declaration of an intrinsic, created (with LLVM's attributes, at the end of the module) if absent. */
export function intrinsicDeclaration(module: Module, name: string, type: FunctionType): IRFunction {
  const existing = module.getFunction(name);
  if (existing !== undefined) return existing;
  const info = lookupIntrinsic(name);
  const attributes = info === undefined ? AttributeList.empty : intrinsicAttributes(info.list, type.params.length);
  return module.createFunction(name, type, { attributes });
}

/**
 * IRBuilder's `CreateMemCpy(dst, dstAlign, src, srcAlign, size)`: a call of
 * `llvm.memcpy.p<D>.p<S>.i64` with `align` on both pointer arguments.
 */
export function memcpy(module: Module, dst: Value, dstAlign: number, src: Value, srcAlign: number, size: number): CallInst {
  const ctx = module.context;
  const dstSpace = dst.type.kind === 'pointer' ? dst.type.addressSpace : 0;
  const srcSpace = src.type.kind === 'pointer' ? src.type.addressSpace : 0;
  const name = module.typedPointers ? `llvm.memcpy.p${dstSpace}i8.p${srcSpace}i8.i64` : `llvm.memcpy.p${dstSpace}.p${srcSpace}.i64`;
  const type = ctx.fn(ctx.void, [dst.type, src.type, ctx.i64, ctx.i1]);
  const callee = intrinsicDeclaration(module, name, type);
  const attributes = new AttributeList(AttributeSet.empty, AttributeSet.empty, [
    AttributeSet.of([intAttr('align', dstAlign)]),
    AttributeSet.of([intAttr('align', srcAlign)]),
  ]);
  return call(callee, [dst, src, ctx.constI64(size), ctx.bool(false)], { attributes });
}

/**
 * Batched edits of one function: insertions before anchors, erasures and replacements of local
 * values are recorded, then applied in one walk by {@link commit} (linear however many edits).
 */
export class FunctionEditor {
  private readonly before = new Map<Instruction, Instruction[]>();
  private readonly dead = new Set<Instruction>();
  private readonly replacements = new Map<Value, Value>();

  constructor(
    readonly context: Context,
    readonly fn: IRFunction,
  ) {}

  insertBefore(anchor: Instruction, inst: Instruction): Instruction {
    const list = this.before.get(anchor);
    if (list === undefined) this.before.set(anchor, [inst]);
    else list.push(inst);
    return inst;
  }

  /** Uses of `from` will read `to` (applied at commit, after every insertion). */
  replace(from: Value, to: Value): void {
    this.replacements.set(from, to);
  }

  erase(inst: Instruction): void {
    this.dead.add(inst);
  }

  get pending(): boolean {
    return this.before.size + this.dead.size + this.replacements.size > 0;
  }

  commit(): void {
    if (this.before.size > 0) {
      for (const block of this.fn.blocks) {
        let grown: Instruction[] | undefined;
        for (let i = 0; i < block.instructions.length; i++) {
          const inst = block.instructions[i]!;
          const inserted = this.before.get(inst);
          if (inserted !== undefined) {
            grown ??= block.instructions.slice(0, i);
            for (const n of inserted) {
              n.parent = block;
              grown.push(n);
            }
          }
          grown?.push(inst);
        }
        if (grown !== undefined) block.instructions = grown;
      }
      this.before.clear();
    }
    // a replacement may itself be replaced (chains are followed)
    const resolved = new Map<Value, Value>();
    for (const [from, to] of this.replacements) {
      let target = to;
      for (let guard = 0; guard < 64; guard++) {
        const next = this.replacements.get(target);
        if (next === undefined) break;
        target = next;
      }
      resolved.set(from, target);
    }
    replaceLocalUses(this.context, this.fn, resolved);
    this.replacements.clear();
    eraseAll(this.fn, this.dead);
    this.dead.clear();
  }
}

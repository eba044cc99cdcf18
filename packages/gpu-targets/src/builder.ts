/**
 * A small instruction builder over a {@link FunctionEditor}: every instruction it makes is inserted
 * before one anchor instruction (IRBuilder with an insertion point). Declarations of intrinsics and
 * runtime functions are created on first use.
 */
import {
  AttributeList,
  CallInst,
  CmpInst,
  Flag,
  Instruction,
  MemoryInst,
  type AtomicOrdering,
  type Context,
  type IRFunction,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';
import { call, cast, gep, intrinsicDeclaration, load, type FunctionEditor } from './ir-edit.js';

export type BinaryOpcode = 'add' | 'sub' | 'mul' | 'udiv' | 'urem' | 'and' | 'or' | 'xor' | 'shl' | 'lshr' | 'fadd' | 'fmul';

export class Builder {
  readonly ctx: Context;

  constructor(
    readonly module: Module,
    readonly editor: FunctionEditor,
    readonly anchor: Instruction,
  ) {
    this.ctx = module.context;
  }

  emit<T extends Instruction>(inst: T): T {
    this.editor.insertBefore(this.anchor, inst);
    return inst;
  }

  i32(n: number): Value {
    return this.ctx.constI32(n);
  }

  i64(n: number): Value {
    return this.ctx.constI64(n);
  }

  binary(opcode: BinaryOpcode, a: Value, b: Value): Value {
    return this.emit(new Instruction(opcode, a.type, [a, b]));
  }

  add(a: Value, b: Value): Value {
    return this.binary('add', a, b);
  }

  mul(a: Value, b: Value): Value {
    return this.binary('mul', a, b);
  }

  icmp(predicate: string, a: Value, b: Value): Value {
    return this.emit(new CmpInst('icmp', this.ctx.i1, predicate, [a, b]));
  }

  select(condition: Value, a: Value, b: Value): Value {
    return this.emit(new Instruction('select', a.type, [condition, a, b]));
  }

  cast(opcode: Parameters<typeof cast>[0] | 'fptrunc' | 'fpext', value: Value, to: Type): Value {
    if (value.type === to) return value;
    return this.emit(new Instruction(opcode, to, [value]));
  }

  /** zext/trunc to `to` (unsigned), nothing when the width matches. */
  intCast(value: Value, to: Type): Value {
    if (value.type === to) return value;
    const from = value.type.kind === 'integer' ? value.type.bits : 0;
    const bits = to.kind === 'integer' ? to.bits : 0;
    return this.cast(from < bits ? 'zext' : 'trunc', value, to);
  }

  /** `getelementptr inbounds i8, ptr p, i64 offset`. */
  byteOffset(pointer: Value, offset: number): Value {
    if (offset === 0) return pointer;
    return this.emit(gep(this.module, this.ctx.i8, pointer, [this.i64(offset)], this.ctx.i8, true));
  }

  load(type: Type, pointer: Value, align?: number): Value {
    const inst = load(this.module, type, pointer);
    if (align !== undefined) inst.align = align;
    return this.emit(inst);
  }

  store(value: Value, pointer: Value, align?: number): void {
    const inst = new MemoryInst('store', this.ctx.void, [value, pointer]);
    inst.align = align ?? this.module.layout.abiAlign(value.type);
    this.emit(inst);
  }

  atomicRmw(operation: string, pointer: Value, value: Value, ordering: AtomicOrdering, syncScope: string): Value {
    const inst = new MemoryInst('atomicrmw', value.type, [pointer, value]);
    inst.rmwOperation = operation;
    inst.ordering = ordering;
    inst.syncScope = syncScope;
    inst.align = this.module.layout.abiAlign(value.type);
    return this.emit(inst);
  }

  atomicLoad(type: Type, pointer: Value, ordering: AtomicOrdering, syncScope: string): Value {
    const inst = load(this.module, type, pointer);
    inst.ordering = ordering;
    inst.syncScope = syncScope;
    inst.flags |= Flag.ATOMIC;
    return this.emit(inst);
  }

  atomicStore(value: Value, pointer: Value, ordering: AtomicOrdering, syncScope: string): void {
    const inst = new MemoryInst('store', this.ctx.void, [value, pointer]);
    inst.align = this.module.layout.abiAlign(value.type);
    inst.ordering = ordering;
    inst.syncScope = syncScope;
    inst.flags |= Flag.ATOMIC;
    this.emit(inst);
  }

  fence(ordering: AtomicOrdering, syncScope: string): void {
    const inst = new MemoryInst('fence', this.ctx.void, []);
    inst.ordering = ordering;
    inst.syncScope = syncScope;
    this.emit(inst);
  }

  insertElement(vector: Value, element: Value, index: number): Value {
    return this.emit(new Instruction('insertelement', vector.type, [vector, element, this.i64(index)]));
  }

  /** A call of `name` (declared with LLVM's intrinsic attributes when it is one). */
  callNamed(name: string, returnType: Type, args: Value[], options: { varArgs?: boolean; paramTypes?: Type[]; convergent?: boolean } = {}): Value {
    const type = this.ctx.fn(returnType, options.paramTypes ?? args.map((a) => a.type), options.varArgs ?? false);
    const callee = intrinsicDeclaration(this.module, name, type);
    return this.emit(call(callee, args));
  }

  callFunction(callee: IRFunction, args: Value[]): CallInst {
    return this.emit(call(callee, args, { attributes: AttributeList.empty }));
  }
}

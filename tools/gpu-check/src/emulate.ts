/**
 * A host-side emulation of a SYCL kernel's work-items over its device IR (SPIR-flavoured LLVM IR
 * as the front end and `tools/bench generate` make it), in which every memory object — each buffer
 * argument, by-value struct, alloca, global and work-group local array — is its own bounds-checked
 * block of bytes. A load, store, atomic or memcpy outside its object is reported with the
 * work-item, the function chain and the object: what `compute-sanitizer --tool memcheck` reports on
 * the GPU (where it shows as CUDA_ERROR_ILLEGAL_ADDRESS), found on the host before anything is
 * packed. It runs one work-item at a time (a barrier is a no-op), so it speaks about addresses and
 * control flow, not about races; values follow LLVM's semantics closely enough for the control
 * flow of the generated kernels (float rounding per type, saturating float-to-int conversion).
 */
import {
  AllocaInst,
  CallInst,
  CmpInst,
  DataLayout,
  GetElementPtrInst,
  ShuffleVectorInst,
  formatType,
  type BasicBlock,
  type Constant,
  type GlobalVariable,
  type Instruction,
  type IRFunction,
  type Module,
  type Type,
  type Value,
} from '@syclkit/ir';
import { encodeScalar, type KernelArg } from '@syclkit/runtime';
import { fromHalfBits, toHalfBits } from './numbers.js';

/** One block of emulated memory. */
class MemObject {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Pointers stored in the object, by byte offset (their bytes alone would lose the object). */
  pointers: Map<number, Pointer> | undefined;
  constructor(
    readonly what: string,
    size: number,
  ) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
}

class Pointer {
  constructor(
    /** Undefined: the null pointer, or an address the kernel made from an integer. */
    readonly object: MemObject | undefined,
    readonly offset: number,
  ) {}
}

/** integer: bigint (unsigned, masked to its width); float: number; pointer; vector or aggregate: array. */
type V = bigint | number | Pointer | V[];

/** A memory access outside its object (or through a null or foreign pointer), or another fault the GPU would raise. */
export class EmulationFault extends Error {
  constructor(
    message: string,
    readonly workItem: readonly number[],
    readonly calls: readonly string[],
  ) {
    super(message);
    this.name = 'EmulationFault';
  }
}

/** The kernel uses something the emulation does not model (an unknown external function, an opcode). */
export class EmulationUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmulationUnsupported';
  }
}

export interface EmulateOptions {
  /** Global size per dimension (SYCL order). */
  readonly global: readonly number[];
  /** Work-group size (default: the whole range in one group, as the CUDA back end picks for up to 1024 items). */
  readonly local?: readonly number[];
  /** The global ids to run (default: all of them, in order). */
  readonly workItems?: Iterable<readonly number[]>;
  /** Instructions the whole emulation may execute before it gives up (default 200 million). */
  readonly stepBudget?: number;
}

export interface EmulationResult {
  readonly kernel: string;
  readonly workItems: number;
  readonly steps: number;
  /** Bytes of each buffer argument after the run (argument index → bytes). */
  readonly buffers: ReadonlyMap<number, Uint8Array>;
  /** Calls of `__spirv_ocl_printf` (lines the device prints, when each format ends in a newline). */
  readonly printfCalls: number;
  /** Work-items whose run exceeded the step budget (the emulation stopped there). */
  readonly stoppedAt?: readonly number[];
}

const BUILTINS = new Set(['GlobalInvocationId', 'GlobalSize', 'LocalInvocationId', 'WorkgroupId', 'WorkgroupSize', 'NumWorkgroups', 'GlobalOffset']);

function roundTo(t: Type, x: number): number {
  if (t.kind !== 'float') return x;
  if (t.fp === 'float') return Math.fround(x);
  if (t.fp === 'half') return fromHalfBits(toHalfBits(x));
  return x;
}

function asSigned(bits: number, v: bigint): bigint {
  return BigInt.asIntN(bits, v);
}

function mask(bits: number, v: bigint): bigint {
  return BigInt.asUintN(bits, v);
}

/** fptosi / fptoui as the GPU does it: toward zero, saturating, NaN to 0. */
function floatToInt(x: number, bits: number, signed: boolean): bigint {
  if (Number.isNaN(x)) return 0n;
  const min = signed ? -(2n ** BigInt(bits - 1)) : 0n;
  const max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
  if (x === Infinity) return mask(bits, max);
  if (x === -Infinity) return mask(bits, min);
  let v = BigInt(Math.trunc(x));
  if (v < min) v = min;
  if (v > max) v = max;
  return mask(bits, v);
}

interface Frame {
  readonly fn: IRFunction;
  readonly values: Map<Value, V>;
  readonly allocas: MemObject[];
}

/** Emulates `kernel` of `module` over the work-items of `options.global` with `args` (one per IR parameter). */
export function emulateKernel(module: Module, kernel: string, args: readonly KernelArg[], options: EmulateOptions): EmulationResult {
  return new Emulator(module, options.stepBudget ?? 200_000_000).run(kernel, args, options);
}

/** printf calls of one kernel launch under three orders of its work-items (see `printfUnderSchedules`). */
export interface PrintfSchedules {
  /** The work-items one after another in the order given, each seeing what the earlier ones wrote. */
  readonly inOrder: number;
  /** The same in reverse order. */
  readonly reversed: number;
  /** Each work-item alone on fresh arguments and globals: none sees another's writes. */
  readonly isolated: number;
  /** The three agree on a count above 0: as far as these orders tell, no printf depends on another work-item's writes. */
  readonly scheduleIndependent: boolean;
  /** Work-items the in-order run completed. */
  readonly workItems: number;
  /** Instructions executed over the three. */
  readonly steps: number;
  /** Every schedule ran to the end within the step budget (otherwise the counts are partial). */
  readonly complete: boolean;
}

/**
 * Counts a launch's printf calls under three orders of its work-items. The emulation runs one
 * work-item at a time, so a kernel that reads what other work-items write (a race on the GPU,
 * where they run at once) can print a different number of lines in each order — and the GPU's
 * count is then anyone's guess. Equal counts are what make a printed-line count checkable.
 * `makeArgs` gives fresh arguments for each run; memory faults are thrown as by `emulateKernel`.
 * Stops early, the counts not taken NaN, when the in-order run prints nothing (nothing to check)
 * or the reversed count differs (the verdict is known).
 */
export function printfUnderSchedules(module: Module, kernel: string, makeArgs: () => readonly KernelArg[], options: EmulateOptions): PrintfSchedules {
  const ids = [...(options.workItems ?? allIds(options.global))];
  let budget = options.stepBudget ?? 200_000_000;
  let steps = 0;
  const runOne = (workItems: (readonly number[])[]): EmulationResult => {
    const result = emulateKernel(module, kernel, makeArgs(), { ...options, workItems, stepBudget: budget });
    steps += result.steps;
    budget -= result.steps;
    return result;
  };
  let workItems = 0;
  const partial = (inOrder: number, reversed: number, isolated: number, complete: boolean): PrintfSchedules => ({
    inOrder,
    workItems,
    reversed,
    isolated,
    scheduleIndependent: complete && inOrder > 0 && inOrder === reversed && reversed === isolated,
    steps,
    complete,
  });
  const first = runOne(ids);
  workItems = first.workItems;
  if (first.stoppedAt !== undefined || first.printfCalls === 0) return partial(first.printfCalls, Number.NaN, Number.NaN, first.stoppedAt === undefined);
  const second = runOne([...ids].reverse());
  if (second.stoppedAt !== undefined || second.printfCalls !== first.printfCalls) return partial(first.printfCalls, second.printfCalls, Number.NaN, second.stoppedAt === undefined);
  let isolated = 0;
  for (const id of ids) {
    const alone = runOne([id]);
    if (alone.stoppedAt !== undefined) return partial(first.printfCalls, second.printfCalls, isolated, false);
    isolated += alone.printfCalls;
  }
  return partial(first.printfCalls, second.printfCalls, isolated, true);
}

class Emulator {
  private readonly layout: DataLayout;
  private readonly globals = new Map<GlobalVariable, MemObject>();
  private readonly builtins = new Map<string, MemObject>();
  private readonly stack: Frame[] = [];
  private workItem: readonly number[] = [];
  private steps = 0;
  private printfCalls = 0;
  private readonly functions = new Map<string, IRFunction>();
  /** Constant operands, evaluated once (globals' objects are made once too). */
  private readonly constants = new Map<Value, V>();
  private readonly allocSizes = new Map<Type, number>();
  private readonly storeSizes = new Map<Type, number>();
  /** Per function, the type of each by-value parameter (undefined for the others). */
  private readonly byvals = new Map<IRFunction, (Type | undefined)[]>();

  constructor(
    private readonly module: Module,
    private readonly budget: number,
  ) {
    this.layout = DataLayout.parse(module.dataLayout);
    for (const fn of module.functions) this.functions.set(fn.name, fn);
  }

  run(kernel: string, args: readonly KernelArg[], options: EmulateOptions): EmulationResult {
    const fn = this.functions.get(kernel);
    if (fn === undefined || fn.isDeclaration) throw new EmulationUnsupported(`the module defines no kernel ${kernel}`);
    if (args.length !== fn.args.length) throw new EmulationUnsupported(`kernel ${kernel} takes ${fn.args.length} arguments, ${args.length} given`);
    const buffers = new Map<number, Uint8Array>();
    const argValues: V[] = args.map((arg, i) => {
      const param = fn.args[i]!;
      switch (arg.kind) {
        case 'buffer': {
          const data = new Uint8Array(arg.data.buffer, arg.data.byteOffset, arg.data.byteLength);
          const object = new MemObject(`buffer argument ${i} (${data.length} bytes)`, data.length);
          object.bytes.set(data);
          buffers.set(i, object.bytes);
          return new Pointer(object, 0);
        }
        case 'bytes': {
          const byval = fn.attributes.param(i).get('byval');
          if (byval === undefined) return this.decode(param.type, arg.bytes, 0, undefined);
          const object = new MemObject(`by-value argument ${i} (${arg.what}, ${arg.bytes.length} bytes)`, arg.bytes.length);
          object.bytes.set(arg.bytes);
          return new Pointer(object, 0);
        }
        case 'scalar':
          return this.decode(param.type, encodeScalar(arg), 0, undefined);
      }
    });
    const global = [...options.global];
    const local = options.local !== undefined ? [...options.local] : global.map((g) => g);
    const items = options.workItems ?? allIds(global);
    // Materialize the builtins the module declares, so that every work-item finds them filled.
    for (const g of this.module.globals) if (g.name.startsWith('__spirv_BuiltIn')) this.globalObject(g);
    let count = 0;
    for (const id of items) {
      this.workItem = id;
      this.setBuiltins(global, local, id);
      try {
        this.call(fn, argValues);
      } catch (error) {
        if (error instanceof BudgetSpent) return { kernel, workItems: count, steps: this.steps, buffers, printfCalls: this.printfCalls, stoppedAt: id };
        throw error;
      }
      count++;
    }
    return { kernel, workItems: count, steps: this.steps, buffers, printfCalls: this.printfCalls };
  }

  private allocSize(t: Type): number {
    let size = this.allocSizes.get(t);
    if (size === undefined) this.allocSizes.set(t, (size = this.layout.allocSize(t)));
    return size;
  }

  private storeSize(t: Type): number {
    let size = this.storeSizes.get(t);
    if (size === undefined) this.storeSizes.set(t, (size = this.layout.storeSize(t)));
    return size;
  }

  private byvalTypes(fn: IRFunction): (Type | undefined)[] {
    let types = this.byvals.get(fn);
    if (types === undefined) {
      types = fn.args.map((_, i) => {
        const byval = fn.attributes.param(i).get('byval');
        return byval?.kind === 'type' ? byval.type : undefined;
      });
      this.byvals.set(fn, types);
    }
    return types;
  }

  // --- memory ------------------------------------------------------------------------------------

  private fault(message: string): never {
    const stack = [...this.stack].reverse().map((frame) => `@${frame.fn.name}`);
    throw new EmulationFault(`work-item {${this.workItem.join(', ')}}: ${message}${stack.length > 0 ? ` (in ${stack.slice(0, 8).join(' ← ')}${stack.length > 8 ? ' ← …' : ''})` : ''}`, this.workItem, stack);
  }

  /** The object and offset `pointer` reaches, checked for `size` bytes. */
  private access(pointer: V, size: number, what: string): { object: MemObject; offset: number } {
    if (!(pointer instanceof Pointer)) this.fault(`${what} through a value that is not a pointer`);
    const { object, offset } = pointer;
    if (object === undefined) this.fault(`${what} (${size} bytes) through ${offset === 0 ? 'a null pointer' : `address 0x${offset.toString(16)}, which points into no object`}`);
    if (offset < 0 || offset + size > object.bytes.length) {
      this.fault(`${what} (${size} bytes) at offset ${offset} of ${object.what}: out of bounds`);
    }
    return { object, offset };
  }

  private decode(t: Type, bytes: Uint8Array, at: number, object: MemObject | undefined): V {
    const view = object?.view ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    switch (t.kind) {
      case 'integer': {
        if (t.bits === 1) return BigInt(view.getUint8(at) & 1);
        if (t.bits === 8) return BigInt(view.getUint8(at));
        if (t.bits === 16) return BigInt(view.getUint16(at, true));
        if (t.bits === 32) return BigInt(view.getUint32(at, true));
        if (t.bits === 64) return view.getBigUint64(at, true);
        let v = 0n;
        for (let i = Math.ceil(t.bits / 8) - 1; i >= 0; i--) v = (v << 8n) | BigInt(view.getUint8(at + i));
        return mask(t.bits, v);
      }
      case 'float':
        if (t.fp === 'half') return fromHalfBits(view.getUint16(at, true));
        if (t.fp === 'float') return view.getFloat32(at, true);
        if (t.fp === 'double') return view.getFloat64(at, true);
        throw new EmulationUnsupported(`loads of ${t.fp}`);
      case 'pointer': {
        const stored = object?.pointers?.get(at);
        if (stored !== undefined) return stored;
        const raw = Number(view.getBigUint64(at, true));
        return new Pointer(undefined, raw);
      }
      case 'vector':
      case 'array': {
        const step = t.kind === 'vector' ? this.storeSize(t.element) : this.allocSize(t.element);
        return Array.from({ length: t.length }, (_, i) => this.decode(t.element, bytes, at + i * step, object));
      }
      case 'struct': {
        const { offsets } = this.layout.structLayout(t);
        return (t.elements ?? []).map((e, i) => this.decode(e, bytes, at + offsets[i]!, object));
      }
      default:
        throw new EmulationUnsupported(`loads of ${formatType(t)}`);
    }
  }

  private encode(t: Type, v: V, object: MemObject, at: number): void {
    const view = object.view;
    switch (t.kind) {
      case 'integer': {
        const x = v as bigint;
        if (t.bits <= 8) view.setUint8(at, Number(x));
        else if (t.bits === 16) view.setUint16(at, Number(x), true);
        else if (t.bits === 32) view.setUint32(at, Number(x), true);
        else if (t.bits === 64) view.setBigUint64(at, x, true);
        else for (let i = 0; i < Math.ceil(t.bits / 8); i++) view.setUint8(at + i, Number((x >> BigInt(8 * i)) & 0xffn));
        this.forgetPointers(object, at, this.storeSize(t));
        return;
      }
      case 'float':
        if (t.fp === 'half') view.setUint16(at, toHalfBits(v as number), true);
        else if (t.fp === 'float') view.setFloat32(at, v as number, true);
        else if (t.fp === 'double') view.setFloat64(at, v as number, true);
        else throw new EmulationUnsupported(`stores of ${t.fp}`);
        this.forgetPointers(object, at, this.storeSize(t));
        return;
      case 'pointer': {
        const p = v as Pointer;
        this.forgetPointers(object, at, 8);
        view.setBigUint64(at, BigInt(p.object === undefined ? p.offset : 0x7f0000000000 + p.offset), true);
        if (p.object !== undefined || p.offset !== 0) (object.pointers ??= new Map()).set(at, p);
        return;
      }
      case 'vector':
      case 'array': {
        const step = t.kind === 'vector' ? this.storeSize(t.element) : this.allocSize(t.element);
        (v as V[]).forEach((e, i) => this.encode(t.element, e, object, at + i * step));
        return;
      }
      case 'struct': {
        const { offsets } = this.layout.structLayout(t);
        (t.elements ?? []).forEach((e, i) => this.encode(e, (v as V[])[i]!, object, at + offsets[i]!));
        return;
      }
      default:
        throw new EmulationUnsupported(`stores of ${formatType(t)}`);
    }
  }

  private forgetPointers(object: MemObject, at: number, size: number): void {
    if (object.pointers === undefined) return;
    for (const offset of [...object.pointers.keys()]) if (offset > at - 8 && offset < at + size) object.pointers.delete(offset);
  }

  private load(t: Type, pointer: V, what = 'load'): V {
    const { object, offset } = this.access(pointer, this.storeSize(t), `${what} of ${formatType(t)}`);
    return this.decode(t, object.bytes, offset, object);
  }

  private store(t: Type, value: V, pointer: V, what = 'store'): void {
    const { object, offset } = this.access(pointer, this.storeSize(t), `${what} of ${formatType(t)}`);
    this.encode(t, value, object, offset);
  }

  private globalObject(g: GlobalVariable): MemObject {
    let object = this.globals.get(g);
    if (object !== undefined) return object;
    const builtin = /^__spirv_BuiltIn(\w+)$/.exec(g.name)?.[1];
    if (builtin !== undefined) {
      if (!BUILTINS.has(builtin)) throw new EmulationUnsupported(`the SPIR-V builtin ${g.name}`);
      object = new MemObject(`@${g.name}`, Math.max(32, this.allocSize(g.valueType)));
      this.builtins.set(builtin, object);
    } else {
      object = new MemObject(`@${g.name} (${formatType(g.valueType)}, ${this.allocSize(g.valueType)} bytes)`, this.allocSize(g.valueType));
      this.globals.set(g, object);
      if (g.initializer !== undefined) this.encode(g.valueType, this.constant(g.initializer), object, 0);
      return object;
    }
    this.globals.set(g, object);
    return object;
  }

  private setBuiltins(global: readonly number[], local: readonly number[], id: readonly number[]): void {
    const set = (name: string, values: readonly number[]): void => {
      const object = this.builtins.get(name);
      if (object === undefined) return;
      // SYCL's dimension 0 is the vector's element 0 in DPC++'s SPIR-V builtins for 1-D ranges.
      for (let d = 0; d < 3; d++) object.view.setBigUint64(d * 8, BigInt(values[d] ?? (name.endsWith('Size') || name === 'NumWorkgroups' ? 1 : 0)), true);
    };
    set('GlobalInvocationId', id);
    set('GlobalSize', global);
    set('WorkgroupSize', local);
    set('LocalInvocationId', id.map((v, d) => v % local[d]!));
    set('WorkgroupId', id.map((v, d) => Math.floor(v / local[d]!)));
    set('NumWorkgroups', global.map((g, d) => Math.ceil(g / local[d]!)));
    set('GlobalOffset', [0, 0, 0]);
  }

  // --- values ------------------------------------------------------------------------------------

  private constant(c: Constant): V {
    switch (c.vk) {
      case 'int':
        return mask(c.type.bits, c.big);
      case 'fp': {
        const t = c.type;
        if (t.kind !== 'float') throw new EmulationUnsupported('a floating-point constant of a non-float type');
        const view = new DataView(new ArrayBuffer(8));
        if (t.fp === 'half') return fromHalfBits(Number(c.bits));
        if (t.fp === 'float') {
          view.setUint32(0, Number(c.bits), true);
          return view.getFloat32(0, true);
        }
        if (t.fp === 'double') {
          view.setBigUint64(0, c.bits, true);
          return view.getFloat64(0, true);
        }
        throw new EmulationUnsupported(`${t.fp} constants`);
      }
      case 'null':
        return new Pointer(undefined, 0);
      case 'zero':
      case 'undef':
      case 'poison':
        return this.zero(c.type);
      case 'array':
      case 'struct':
      case 'vector':
        return (c.vk === 'struct' ? c.fields : c.elements).map((e) => this.constant(e));
      case 'string': {
        const t = c.type;
        const element = t.kind === 'array' ? t.element : undefined;
        if (element?.kind !== 'integer' || element.bits !== 8) throw new EmulationUnsupported('a string constant that is not [N x i8]');
        return Array.from(c.bytes, (ch) => BigInt(ch.charCodeAt(0)));
      }
      case 'global':
        return new Pointer(this.globalObject(c), 0);
      case 'function':
        return new Pointer(undefined, 0);
      case 'expr': {
        const operands = c.operands;
        switch (c.opcode) {
          case 'getelementptr':
            return this.gep(c.extra.sourceElementType!, this.constant(operands[0]!), operands.slice(1).map((o) => this.constant(o)), operands.slice(1).map((o) => o.type));
          case 'addrspacecast':
          case 'bitcast':
            return this.constant(operands[0]!);
          default:
            throw new EmulationUnsupported(`the constant expression ${c.opcode}`);
        }
      }
      default:
        throw new EmulationUnsupported(`the constant ${c.vk}`);
    }
  }

  private zero(t: Type): V {
    switch (t.kind) {
      case 'integer':
        return 0n;
      case 'float':
        return 0;
      case 'pointer':
        return new Pointer(undefined, 0);
      case 'vector':
      case 'array':
        return Array.from({ length: t.length }, () => this.zero(t.element));
      case 'struct':
        return (t.elements ?? []).map((e) => this.zero(e));
      default:
        throw new EmulationUnsupported(`a value of type ${formatType(t)}`);
    }
  }

  private value(frame: Frame, v: Value): V {
    const known = frame.values.get(v);
    if (known !== undefined) return known;
    if (v.vk === 'instruction' || v.vk === 'argument') throw new EmulationUnsupported(`the value %${v.name} used before it is defined`);
    if (v.vk === 'block' || v.vk === 'asm' || v.vk === 'metadata') throw new EmulationUnsupported(`an operand of kind ${v.vk}`);
    let c = this.constants.get(v);
    if (c === undefined) this.constants.set(v, (c = this.constant(v as Constant)));
    return c;
  }

  private gep(source: Type, base: V, indices: readonly V[], indexTypes: readonly Type[]): V {
    if (!(base instanceof Pointer)) throw new EmulationUnsupported('a vector getelementptr');
    const index = (i: number): number => {
      const v = indices[i]!;
      const t = indexTypes[i]!;
      if (typeof v !== 'bigint' || t.kind !== 'integer') throw new EmulationUnsupported('a vector getelementptr index');
      return Number(asSigned(t.bits, v));
    };
    let offset = base.offset + index(0) * this.allocSize(source);
    let t = source;
    for (let i = 1; i < indices.length; i++) {
      if (t.kind === 'struct') {
        const field = index(i);
        offset += this.layout.structLayout(t).offsets[field]!;
        t = t.elements![field]!;
      } else if (t.kind === 'array' || t.kind === 'vector') {
        offset += index(i) * (t.kind === 'vector' ? this.storeSize(t.element) : this.allocSize(t.element));
        t = t.element;
      } else {
        throw new EmulationUnsupported(`a getelementptr into ${formatType(t)}`);
      }
    }
    return new Pointer(base.object, offset);
  }

  // --- execution ---------------------------------------------------------------------------------

  private call(fn: IRFunction, args: readonly V[]): V | undefined {
    if (this.stack.length > 256) this.fault('calls nest more than 256 deep');
    const frame: Frame = { fn, values: new Map(), allocas: [] };
    const byvals = this.byvalTypes(fn);
    fn.args.forEach((arg, i) => {
      let v = args[i]!;
      const byval = byvals[i];
      if (byval !== undefined) {
        // A by-value struct is the callee's own copy.
        const size = this.allocSize(byval);
        const { object, offset } = this.access(v, size, `by-value copy of ${formatType(byval)} for argument ${i} of @${fn.name}`);
        const copy = new MemObject(`by-value argument ${i} of @${fn.name} (${formatType(byval)})`, size);
        copy.bytes.set(object.bytes.subarray(offset, offset + size));
        if (object.pointers !== undefined) for (const [at, p] of object.pointers) if (at >= offset && at < offset + size) (copy.pointers ??= new Map()).set(at - offset, p);
        v = new Pointer(copy, 0);
      }
      frame.values.set(arg, v);
    });
    this.stack.push(frame);
    try {
      return this.execute(frame);
    } finally {
      this.stack.pop();
    }
  }

  private execute(frame: Frame): V | undefined {
    let previous: BasicBlock | undefined;
    let block = frame.fn.blocks[0]!;
    for (;;) {
      const instructions = block.instructions;
      let i = 0;
      if (instructions[0]?.opcode === 'phi') {
        const incoming: [Instruction, V][] = [];
        for (; i < instructions.length && instructions[i]!.opcode === 'phi'; i++) {
          const phi = instructions[i]!;
          let found: V | undefined;
          for (let k = 0; k < phi.operands.length; k += 2) {
            if (phi.operands[k + 1] === previous) {
              found = this.value(frame, phi.operands[k]!);
              break;
            }
          }
          if (found === undefined) throw new EmulationUnsupported(`a phi in @${frame.fn.name} without an entry for its predecessor`);
          incoming.push([phi, found]);
        }
        for (const [phi, v] of incoming) frame.values.set(phi, v);
      }
      let next: BasicBlock | undefined;
      for (; i < instructions.length; i++) {
        const inst = instructions[i]!;
        if (++this.steps > this.budget) throw new BudgetSpent();
        const op = inst.operands;
        switch (inst.opcode) {
          case 'ret':
            return op.length === 0 ? undefined : this.value(frame, op[0]!);
          case 'br':
            next = (op.length === 1 ? op[0] : this.value(frame, op[0]!) === 1n ? op[1] : op[2]) as BasicBlock;
            break;
          case 'switch': {
            const selector = this.value(frame, op[0]!);
            next = op[1] as BasicBlock;
            for (let k = 2; k < op.length; k += 2) {
              if (this.value(frame, op[k]!) === selector) {
                next = op[k + 1] as BasicBlock;
                break;
              }
            }
            break;
          }
          case 'unreachable':
            return this.fault(`reached unreachable in @${frame.fn.name}`);
          case 'alloca': {
            const a = inst as AllocaInst;
            const count = Number(this.value(frame, op[0]!) as bigint);
            const size = this.allocSize(a.allocatedType) * count;
            const object = new MemObject(`alloca %${inst.name || '(unnamed)'} (${formatType(a.allocatedType)}${count === 1 ? '' : ` x ${count}`}, ${size} bytes) of @${frame.fn.name}`, size);
            frame.allocas.push(object);
            frame.values.set(inst, new Pointer(object, 0));
            break;
          }
          case 'load':
            frame.values.set(inst, this.load(inst.type, this.value(frame, op[0]!), inst.name === '' ? 'load' : `load %${inst.name}`));
            break;
          case 'store':
            this.store(op[0]!.type, this.value(frame, op[0]!), this.value(frame, op[1]!), 'store');
            break;
          case 'getelementptr': {
            const g = inst as GetElementPtrInst;
            frame.values.set(inst, this.gep(g.sourceElementType, this.value(frame, op[0]!), op.slice(1).map((o) => this.value(frame, o)), op.slice(1).map((o) => o.type)));
            break;
          }
          case 'call':
            this.callInstruction(frame, inst as CallInst);
            break;
          case 'icmp':
          case 'fcmp': {
            const t = op[0]!.type;
            const a = this.value(frame, op[0]!);
            const b = this.value(frame, op[1]!);
            const predicate = (inst as CmpInst).predicate;
            frame.values.set(inst, t.kind === 'vector' ? (a as V[]).map((x, k) => compare(t.element, predicate, x, (b as V[])[k]!)) : compare(t, predicate, a, b));
            break;
          }
          case 'select': {
            const c = this.value(frame, op[0]!);
            const a = this.value(frame, op[1]!);
            const b = this.value(frame, op[2]!);
            frame.values.set(inst, Array.isArray(c) ? c.map((x, k) => (x === 1n ? (a as V[])[k]! : (b as V[])[k]!)) : c === 1n ? a : b);
            break;
          }
          case 'phi':
            throw new EmulationUnsupported(`a phi after other instructions in @${frame.fn.name}`);
          case 'extractelement': {
            const vector = this.value(frame, op[0]!) as V[];
            const at = Number(this.value(frame, op[1]!) as bigint);
            frame.values.set(inst, at < vector.length ? vector[at]! : this.zero(inst.type));
            break;
          }
          case 'insertelement': {
            const vector = [...(this.value(frame, op[0]!) as V[])];
            const at = Number(this.value(frame, op[2]!) as bigint);
            if (at < vector.length) vector[at] = this.value(frame, op[1]!);
            frame.values.set(inst, vector);
            break;
          }
          case 'shufflevector': {
            const s = inst as ShuffleVectorInst;
            const a = this.value(frame, op[0]!) as V[];
            const b = this.value(frame, op[1]!) as V[];
            const element = inst.type.kind === 'vector' ? inst.type.element : inst.type;
            frame.values.set(inst, s.mask.map((m) => (m < 0 ? this.zero(element) : m < a.length ? a[m]! : b[m - a.length]!)));
            break;
          }
          case 'extractvalue':
          case 'insertvalue': {
            const indices = (inst as unknown as { indices: number[] }).indices;
            const aggregate = this.value(frame, op[0]!);
            if (inst.opcode === 'extractvalue') {
              let v = aggregate;
              for (const k of indices) v = (v as V[])[k]!;
              frame.values.set(inst, v);
            } else {
              const copy = structuredCopy(aggregate);
              let at = copy as V[];
              indices.slice(0, -1).forEach((k) => (at = at[k] as V[]));
              at[indices[indices.length - 1]!] = this.value(frame, op[1]!);
              frame.values.set(inst, copy);
            }
            break;
          }
          case 'freeze':
            frame.values.set(inst, this.value(frame, op[0]!));
            break;
          case 'fneg':
            frame.values.set(inst, this.lanes(inst.type, [this.value(frame, op[0]!)], (t, [a]) => roundTo(t, -(a as number))));
            break;
          default:
            if (isBinary(inst.opcode)) {
              const t = inst.type;
              const a = this.value(frame, op[0]!);
              const b = this.value(frame, op[1]!);
              frame.values.set(inst, t.kind === 'vector' ? (a as V[]).map((x, k) => this.binary(inst.opcode, t.element, x, (b as V[])[k]!)) : this.binary(inst.opcode, t, a, b));
            } else if (isCast(inst.opcode)) {
              frame.values.set(inst, this.cast(inst.opcode, op[0]!.type, inst.type, this.value(frame, op[0]!)));
            } else {
              throw new EmulationUnsupported(`the instruction ${inst.opcode} (in @${frame.fn.name})`);
            }
        }
        if (next !== undefined) break;
      }
      if (next === undefined) throw new EmulationUnsupported(`block %${block.name} of @${frame.fn.name} has no terminator`);
      previous = block;
      block = next;
    }
  }

  /** Applies `f` per lane of vectors, or once for scalars; `t` is the scalar type of the operands. */
  private lanes(t: Type, operands: V[], f: (t: Type, values: V[]) => V): V {
    if (t.kind === 'vector') return (operands[0] as V[]).map((_, k) => f(t.element, operands.map((o) => (o as V[])[k]!)));
    return f(t, operands);
  }

  private binary(opcode: string, t: Type, a: V, b: V): V {
    if (t.kind === 'float') {
      const x = a as number;
      const y = b as number;
      switch (opcode) {
        case 'fadd':
          return roundTo(t, x + y);
        case 'fsub':
          return roundTo(t, x - y);
        case 'fmul':
          return roundTo(t, x * y);
        case 'fdiv':
          return roundTo(t, x / y);
        case 'frem':
          return roundTo(t, x % y);
      }
    }
    if (t.kind !== 'integer') throw new EmulationUnsupported(`${opcode} on ${formatType(t)}`);
    const bits = t.bits;
    const x = a as bigint;
    const y = b as bigint;
    switch (opcode) {
      case 'add':
        return mask(bits, x + y);
      case 'sub':
        return mask(bits, x - y);
      case 'mul':
        return mask(bits, x * y);
      case 'udiv':
      case 'urem':
      case 'sdiv':
      case 'srem': {
        if (y === 0n) this.fault(`${opcode} by zero`);
        const signed = opcode[0] === 's';
        const p = signed ? asSigned(bits, x) : x;
        const q = signed ? asSigned(bits, y) : y;
        return mask(bits, opcode.endsWith('div') ? p / q : p % q);
      }
      case 'shl':
        return y >= BigInt(bits) ? 0n : mask(bits, x << y);
      case 'lshr':
        return y >= BigInt(bits) ? 0n : x >> y;
      case 'ashr':
        return y >= BigInt(bits) ? 0n : mask(bits, asSigned(bits, x) >> y);
      case 'and':
        return x & y;
      case 'or':
        return x | y;
      case 'xor':
        return x ^ y;
    }
    throw new EmulationUnsupported(`the operation ${opcode}`);
  }

  private cast(opcode: string, from: Type, to: Type, v: V): V {
    if (from.kind === 'vector' && to.kind === 'vector' && opcode !== 'bitcast') return (v as V[]).map((e) => this.cast(opcode, from.element, to.element, e));
    switch (opcode) {
      case 'addrspacecast':
        return v;
      case 'bitcast':
        if (from === to || (from.kind === 'pointer' && to.kind === 'pointer')) return v;
        return this.reinterpret(from, to, v);
      case 'trunc':
        return mask((to as { bits: number }).bits, v as bigint);
      case 'zext':
        return v;
      case 'sext':
        return mask((to as { bits: number }).bits, asSigned((from as { bits: number }).bits, v as bigint));
      case 'fptosi':
      case 'fptoui':
        return floatToInt(v as number, (to as { bits: number }).bits, opcode === 'fptosi');
      case 'sitofp':
        return roundTo(to, Number(asSigned((from as { bits: number }).bits, v as bigint)));
      case 'uitofp':
        return roundTo(to, Number(v as bigint));
      case 'fptrunc':
      case 'fpext':
        return roundTo(to, v as number);
      case 'ptrtoint': {
        const p = v as Pointer;
        if (p.object !== undefined) throw new EmulationUnsupported('ptrtoint of a pointer into an object');
        return mask((to as { bits: number }).bits, BigInt(p.offset));
      }
      case 'inttoptr':
        return new Pointer(undefined, Number(v as bigint));
    }
    throw new EmulationUnsupported(`the cast ${opcode}`);
  }

  private reinterpret(from: Type, to: Type, v: V): V {
    const size = this.storeSize(from);
    if (size !== this.storeSize(to)) throw new EmulationUnsupported(`a bitcast from ${formatType(from)} to ${formatType(to)}`);
    const scratch = new MemObject('bitcast', size);
    this.encode(from, v, scratch, 0);
    return this.decode(to, scratch.bytes, 0, scratch);
  }

  private callInstruction(frame: Frame, inst: CallInst): void {
    const callee = inst.calledFunction;
    if (callee === undefined) throw new EmulationUnsupported(`an indirect call in @${frame.fn.name}`);
    const args = inst.args.map((a) => this.value(frame, a));
    let result: V | undefined;
    if (!callee.isDeclaration) {
      result = this.call(callee, args);
    } else {
      this.stack.push({ fn: callee, values: new Map(), allocas: [] });
      try {
        result = this.external(callee, inst, args);
      } finally {
        this.stack.pop();
      }
    }
    if (result !== undefined) frame.values.set(inst, result);
  }

  /** Intrinsics and the SPIR-V / device-library functions the kernels call. */
  private external(fn: IRFunction, inst: CallInst, args: V[]): V | undefined {
    const name = fn.name;
    const type = inst.type;
    if (name.startsWith('llvm.')) {
      const base = name.split('.').slice(0, 2).join('.');
      switch (base) {
        case 'llvm.lifetime':
        case 'llvm.assume':
        case 'llvm.dbg':
        case 'llvm.experimental':
        case 'llvm.invariant':
          return undefined;
        case 'llvm.memcpy':
        case 'llvm.memmove': {
          const size = Number(args[2] as bigint);
          const from = this.access(args[1]!, size, `${base.slice(5)} source`);
          const to = this.access(args[0]!, size, `${base.slice(5)} destination`);
          const bytes = from.object.bytes.slice(from.offset, from.offset + size);
          const pointers = [...(from.object.pointers ?? [])].filter(([at]) => at >= from.offset && at < from.offset + size);
          this.forgetPointers(to.object, to.offset, size);
          to.object.bytes.set(bytes, to.offset);
          for (const [at, p] of pointers) (to.object.pointers ??= new Map()).set(at - from.offset + to.offset, p);
          return undefined;
        }
        case 'llvm.memset': {
          const size = Number(args[2] as bigint);
          const to = this.access(args[0]!, size, 'memset');
          this.forgetPointers(to.object, to.offset, size);
          to.object.bytes.fill(Number(args[1] as bigint), to.offset, to.offset + size);
          return undefined;
        }
        case 'llvm.fmuladd':
        case 'llvm.fma':
          return this.lanes(type, args, (t, [a, b, c]) => roundTo(t, (a as number) * (b as number) + (c as number)));
        case 'llvm.smax':
        case 'llvm.smin':
        case 'llvm.umax':
        case 'llvm.umin':
          return this.lanes(type, args, (t, [a, b]) => {
            const bits = (t as { bits: number }).bits;
            const signed = base[5] === 's';
            const x = signed ? asSigned(bits, a as bigint) : (a as bigint);
            const y = signed ? asSigned(bits, b as bigint) : (b as bigint);
            return mask(bits, base.endsWith('max') ? (x > y ? x : y) : x < y ? x : y);
          });
        case 'llvm.fabs':
          return this.lanes(type, args, (_, [a]) => Math.abs(a as number));
        case 'llvm.sqrt':
          return this.lanes(type, args, (t, [a]) => roundTo(t, Math.sqrt(a as number)));
        case 'llvm.minnum':
        case 'llvm.maxnum':
          return this.lanes(type, args, (_, [a, b]) => (base.endsWith('max') ? Math.max(a as number, b as number) : Math.min(a as number, b as number)));
      }
      throw new EmulationUnsupported(`the intrinsic @${name}`);
    }
    if (name.includes('__spirv_AtomicIAdd') || name.includes('__spirv_AtomicISub')) {
      const old = this.load(type, args[0]!, 'atomic add');
      const value = args[3] as bigint;
      const bits = (type as { bits: number }).bits;
      this.store(type, mask(bits, name.includes('ISub') ? (old as bigint) - value : (old as bigint) + value), args[0]!, 'atomic add');
      return old;
    }
    if (name.includes('__spirv_ControlBarrier') || name.includes('__spirv_MemoryBarrier')) return undefined;
    if (name.includes('__spirv_ocl_printf')) {
      this.cString(args[0]!, 'printf format');
      this.printfCalls++;
      return 0n;
    }
    if (name === '__devicelib_assert_fail' || name === '__assert_fail' || name === '__assertfail') {
      const message = this.cString(args[0]!, 'assert message');
      this.fault(`assertion failed: ${message}`);
    }
    const math = /__spirv_ocl_(pow|sqrt|fabs|exp|log|sin|cos|fmin|fmax|floor|ceil)[fdDh]/.exec(name)?.[1];
    if (math !== undefined) {
      const f: Record<string, (...x: number[]) => number> = {
        pow: Math.pow, sqrt: Math.sqrt, fabs: Math.abs, exp: Math.exp, log: Math.log, sin: Math.sin, cos: Math.cos, fmin: Math.min, fmax: Math.max, floor: Math.floor, ceil: Math.ceil,
      };
      return this.lanes(type, args, (t, values) => roundTo(t, f[math]!(...(values as number[]))));
    }
    throw new EmulationUnsupported(`a call to the external function @${name}`);
  }

  /** The NUL-terminated string at `pointer` (checked within its object). */
  private cString(pointer: V, what: string): string {
    const { object, offset } = this.access(pointer, 1, what);
    const end = object.bytes.indexOf(0, offset);
    if (end < 0) this.fault(`${what} at offset ${offset} of ${object.what} has no terminating NUL inside the object`);
    return Buffer.from(object.bytes.subarray(offset, end)).toString('latin1');
  }
}

class BudgetSpent extends Error {}

function structuredCopy(v: V): V {
  return Array.isArray(v) ? v.map(structuredCopy) : v;
}

const BINARY = new Set(['add', 'fadd', 'sub', 'fsub', 'mul', 'fmul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor']);
const CASTS = new Set(['trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast']);
const isBinary = (opcode: string): boolean => BINARY.has(opcode);
const isCast = (opcode: string): boolean => CASTS.has(opcode);

function compare(t: Type, predicate: string, a: V, b: V): bigint {
  let r: boolean;
  if (t.kind === 'float') {
    const x = a as number;
    const y = b as number;
    const unordered = Number.isNaN(x) || Number.isNaN(y);
    const ordered = (test: boolean): boolean => !unordered && test;
    const either = (test: boolean): boolean => unordered || test;
    switch (predicate) {
      case 'false': r = false; break;
      case 'true': r = true; break;
      case 'oeq': r = ordered(x === y); break;
      case 'ogt': r = ordered(x > y); break;
      case 'oge': r = ordered(x >= y); break;
      case 'olt': r = ordered(x < y); break;
      case 'ole': r = ordered(x <= y); break;
      case 'one': r = ordered(x !== y); break;
      case 'ord': r = !unordered; break;
      case 'ueq': r = either(x === y); break;
      case 'ugt': r = either(x > y); break;
      case 'uge': r = either(x >= y); break;
      case 'ult': r = either(x < y); break;
      case 'ule': r = either(x <= y); break;
      case 'une': r = either(x !== y); break;
      case 'uno': r = unordered; break;
      default: throw new EmulationUnsupported(`fcmp ${predicate}`);
    }
    return r ? 1n : 0n;
  }
  if (t.kind === 'pointer') {
    const p = a as Pointer;
    const q = b as Pointer;
    const same = p.object === q.object;
    if (predicate === 'eq') return same && p.offset === q.offset ? 1n : 0n;
    if (predicate === 'ne') return same && p.offset === q.offset ? 0n : 1n;
    if (!same) throw new EmulationUnsupported('an ordered comparison of pointers into different objects');
    const d = p.offset - q.offset;
    r = predicate.endsWith('gt') ? d > 0 : predicate.endsWith('ge') ? d >= 0 : predicate.endsWith('lt') ? d < 0 : d <= 0;
    return r ? 1n : 0n;
  }
  const bits = (t as { bits: number }).bits;
  const x = a as bigint;
  const y = b as bigint;
  const sx = asSigned(bits, x);
  const sy = asSigned(bits, y);
  switch (predicate) {
    case 'eq': r = x === y; break;
    case 'ne': r = x !== y; break;
    case 'ugt': r = x > y; break;
    case 'uge': r = x >= y; break;
    case 'ult': r = x < y; break;
    case 'ule': r = x <= y; break;
    case 'sgt': r = sx > sy; break;
    case 'sge': r = sx >= sy; break;
    case 'slt': r = sx < sy; break;
    case 'sle': r = sx <= sy; break;
    default: throw new EmulationUnsupported(`icmp ${predicate}`);
  }
  return r ? 1n : 0n;
}

function* allIds(global: readonly number[]): Generator<number[]> {
  const [x = 1, y = 1, z = 1] = global;
  for (let i = 0; i < x; i++) for (let j = 0; j < y; j++) for (let k = 0; k < z; k++) yield global.length === 1 ? [i] : global.length === 2 ? [i, j] : [i, j, k];
}

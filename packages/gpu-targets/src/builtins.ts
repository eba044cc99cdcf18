/**
 * Lowering of SPIR-V builtins in retargeted device IR to NVVM and AMDGCN intrinsics (what
 * libclc's libspirv does for DPC++; our own mapping, listed in the README):
 *
 * - work-item builtins, as variables (`@__spirv_BuiltInGlobalInvocationId`, loaded whole or one
 *   component at a time) or as functions (`__spirv_BuiltInGlobalInvocationId(i32 dim)`, and the
 *   older `__spirv_GlobalInvocationId_x()` forms): thread/block ids and sizes of the target;
 *   the global offset becomes a call of `__spirv_BuiltInGlobalOffset(dim)`, which `globaloffset`
 *   then resolves;
 * - atomics (`__spirv_Atomic*`), barriers (`__spirv_ControlBarrier`, `__spirv_MemoryBarrier`),
 *   sub-group collectives (`__spirv_GroupNonUniform*` reduce and scans, `__spirv_GroupNonUniformBroadcast`),
 *   OpenCL math (`__spirv_ocl_*`), `__spirv_ocl_printf` (NVPTX) and `__devicelib_assert_fail`.
 *
 * Anything named `__spirv_*` that is still called (or a builtin variable still used) afterwards is
 * reported by name, as is a builtin this target cannot provide (e.g. printf on AMDGPU, which needs
 * ROCm's device libraries).
 */
import { CallInst, type AtomicOrdering, type IRFunction, type Module, type Type, type Value } from '@syclkit/ir';
import { Builder } from './builder.js';
import { linkDeviceMath, DEVICE_MATH, PRINTF_ALLOC_SYMBOL } from './device-math.js';
import { GLOBAL_OFFSET_BUILTIN } from './global-offset.js';
import { FunctionEditor, alloca, firstInsertionIndex } from './ir-edit.js';
import { gpuTripleOf, type GpuArch } from './target.js';

export interface BuiltinProblem {
  readonly code: 'spirv-builtin-not-lowered' | 'spirv-builtin-unsupported-use';
  readonly message: string;
  /** The builtin's name as written (mangled). */
  readonly builtin: string;
  /** The function that uses it. */
  readonly function: string;
}

export interface BuiltinLoweringResult {
  readonly changed: boolean;
  /** Builtins lowered, by name as written, with how many uses each. */
  readonly lowered: ReadonlyMap<string, number>;
  readonly problems: readonly BuiltinProblem[];
}

/** The `__spirv_...` (or other) identifier of a possibly Itanium-mangled name: `_Z18__spirv_AtomicIAddPU3AS1m...` → `__spirv_AtomicIAdd`. */
export function demangledIdentifier(name: string): string {
  const m = /^_Z(\d+)/.exec(name);
  if (m === null) return name;
  const length = Number(m[1]);
  return name.slice(m[0].length, m[0].length + length);
}

// --- work-item builtins -----------------------------------------------------------------------------

type Dim = 0 | 1 | 2;
const AXES = ['x', 'y', 'z'] as const;

/** The size_t vector builtins (three components) and how to compute each component. */
const VECTOR_BUILTINS = new Set([
  'GlobalInvocationId',
  'GlobalSize',
  'GlobalOffset',
  'LocalInvocationId',
  'WorkgroupId',
  'WorkgroupSize',
  'EnqueuedWorkgroupSize',
  'NumWorkgroups',
]);

/** Scalar builtins: `u32` unless listed as size_t. */
const SCALAR_BUILTINS = new Set(['SubgroupSize', 'SubgroupMaxSize', 'NumSubgroups', 'NumEnqueuedSubgroups', 'SubgroupId', 'SubgroupLocalInvocationId', 'GlobalLinearId', 'LocalInvocationIndex']);

/** Out-of-range dimensions read 1 for sizes and 0 for ids, as OpenCL's get_global_size/get_global_id. */
const SIZE_BUILTINS = new Set(['GlobalSize', 'WorkgroupSize', 'EnqueuedWorkgroupSize', 'NumWorkgroups']);

class WorkItem {
  constructor(
    private readonly b: Builder,
    private readonly arch: GpuArch,
  ) {}

  private get ctx() {
    return this.b.ctx;
  }

  /** An NVPTX special register or AMDGCN id intrinsic as i32. */
  private sreg(name: string): Value {
    return this.b.callNamed(name, this.ctx.i32, []);
  }

  private nvptx(register: string, d: Dim): Value {
    return this.sreg(`llvm.nvvm.read.ptx.sreg.${register}.${AXES[d]}`);
  }

  private dispatchField(offset: number, type: Type): Value {
    const packet = this.b.callNamed('llvm.amdgcn.dispatch.ptr', this.ctx.ptr(4), []);
    return this.b.load(type, this.b.byteOffset(packet, offset));
  }

  /** Component `d` of a vector builtin, as i64. */
  component(name: string, d: Dim): Value {
    const b = this.b;
    const i64 = this.ctx.i64;
    const wide = (v: Value): Value => b.intCast(v, i64);
    switch (name) {
      case 'LocalInvocationId':
        return wide(this.arch === 'nvptx' ? this.nvptx('tid', d) : this.sreg(`llvm.amdgcn.workitem.id.${AXES[d]}`));
      case 'WorkgroupId':
        return wide(this.arch === 'nvptx' ? this.nvptx('ctaid', d) : this.sreg(`llvm.amdgcn.workgroup.id.${AXES[d]}`));
      case 'WorkgroupSize':
      case 'EnqueuedWorkgroupSize':
        // AMDGPU: hsa_kernel_dispatch_packet_t.workgroup_size_{x,y,z} (u16 at 4, 6, 8)
        return wide(this.arch === 'nvptx' ? this.nvptx('ntid', d) : this.dispatchField(4 + 2 * d, this.ctx.int(16)));
      case 'GlobalSize':
        // AMDGPU: grid_size_{x,y,z} (u32 at 12, 16, 20)
        return this.arch === 'nvptx' ? b.mul(wide(this.nvptx('ntid', d)), wide(this.nvptx('nctaid', d))) : wide(this.dispatchField(12 + 4 * d, this.ctx.i32));
      case 'NumWorkgroups': {
        if (this.arch === 'nvptx') return wide(this.nvptx('nctaid', d));
        const grid = this.component('GlobalSize', d);
        const group = this.component('WorkgroupSize', d);
        return b.binary('udiv', b.add(grid, b.binary('sub', group, b.i64(1))), group);
      }
      case 'GlobalOffset':
        return b.callNamed(GLOBAL_OFFSET_BUILTIN, i64, [b.i32(d)]);
      case 'GlobalInvocationId':
        return b.add(this.unshiftedGlobalId(d), this.component('GlobalOffset', d));
      default:
        throw new Error(`internal: no component rule for ${name}`);
    }
  }

  /** Group id × group size + local id (the global id without the offset). */
  private unshiftedGlobalId(d: Dim): Value {
    const b = this.b;
    return b.add(b.mul(this.component('WorkgroupId', d), this.component('WorkgroupSize', d)), this.component('LocalInvocationId', d));
  }

  /** The sub-group (warp, wavefront) size as i32. */
  subgroupSize(): Value {
    return this.arch === 'nvptx' ? this.sreg('llvm.nvvm.read.ptx.sreg.warpsize') : this.sreg('llvm.amdgcn.wavefrontsize');
  }

  laneId(): Value {
    if (this.arch === 'nvptx') return this.sreg('llvm.nvvm.read.ptx.sreg.laneid');
    const b = this.b;
    const lo = b.callNamed('llvm.amdgcn.mbcnt.lo', this.ctx.i32, [b.i32(-1), b.i32(0)]);
    return b.callNamed('llvm.amdgcn.mbcnt.hi', this.ctx.i32, [b.i32(-1), lo]);
  }

  /** A scalar builtin: i32, or i64 for the linear ids. */
  scalar(name: string): Value {
    const b = this.b;
    const i32 = this.ctx.i32;
    const linearLocal = (): Value => {
      const [x, y, z] = [0, 1, 2].map((d) => this.component('LocalInvocationId', d as Dim));
      const [sx, sy] = [0, 1].map((d) => this.component('WorkgroupSize', d as Dim));
      return b.add(x!, b.mul(sx!, b.add(y!, b.mul(sy!, z!))));
    };
    switch (name) {
      case 'SubgroupSize':
      case 'SubgroupMaxSize':
        return this.subgroupSize();
      case 'SubgroupLocalInvocationId':
        return this.laneId();
      case 'LocalInvocationIndex':
        return linearLocal();
      case 'SubgroupId':
        return b.binary('udiv', b.intCast(linearLocal(), i32), this.subgroupSize());
      case 'NumSubgroups':
      case 'NumEnqueuedSubgroups': {
        const [sx, sy, sz] = [0, 1, 2].map((d) => b.intCast(this.component('WorkgroupSize', d as Dim), i32));
        const size = this.subgroupSize();
        const items = b.mul(sx!, b.mul(sy!, sz!));
        return b.binary('udiv', b.add(items, b.binary('sub', size, b.i32(1))), size);
      }
      case 'GlobalLinearId': {
        const [x, y, z] = [0, 1, 2].map((d) => this.unshiftedGlobalId(d as Dim));
        const [sx, sy] = [0, 1].map((d) => this.component('GlobalSize', d as Dim));
        return b.add(x!, b.mul(sx!, b.add(y!, b.mul(sy!, z!))));
      }
      default:
        throw new Error(`internal: no rule for scalar ${name}`);
    }
  }

  /** Component `dim` (any i32 value) of a vector builtin: out-of-range dimensions read 0 or 1. */
  dynamicComponent(name: string, dim: Value): Value {
    if (dim.vk === 'int') {
      const d = dim.num;
      return d >= 0 && d <= 2 ? this.component(name, d as Dim) : this.b.i64(SIZE_BUILTINS.has(name) ? 1 : 0);
    }
    const b = this.b;
    let result = b.i64(SIZE_BUILTINS.has(name) ? 1 : 0);
    for (const d of [2, 1, 0] as const) result = b.select(b.icmp('eq', dim, b.i32(d)), this.component(name, d), result);
    return result;
  }
}

/** A builtin function form: `__spirv_BuiltInX(dim)`, `__spirv_BuiltInX()` or `__spirv_X_<axis>()`. */
function workItemCall(identifier: string): { name: string; axis?: Dim } | undefined {
  let m = /^__spirv_BuiltIn([A-Za-z]+)$/.exec(identifier);
  if (m !== null && (VECTOR_BUILTINS.has(m[1]!) || SCALAR_BUILTINS.has(m[1]!))) return { name: m[1]! };
  m = /^__spirv_([A-Za-z]+)_([xyz])$/.exec(identifier);
  if (m !== null && VECTOR_BUILTINS.has(m[1]!)) return { name: m[1]!, axis: AXES.indexOf(m[2] as 'x') as Dim };
  m = /^__spirv_([A-Za-z]+)$/.exec(identifier);
  if (m !== null && SCALAR_BUILTINS.has(m[1]!)) return { name: m[1]! };
  return undefined;
}

// --- atomics, barriers, collectives -----------------------------------------------------------------

/** SPIR-V `Scope` → LLVM sync scope of the target (NVPTX: LLVM 16 knows only the system scope). */
function syncScope(arch: GpuArch, scope: Value): string {
  if (arch === 'nvptx' || scope.vk !== 'int') return '';
  switch (scope.num) {
    case 1:
      return 'agent';
    case 2:
      return 'workgroup';
    case 3:
      return 'wavefront';
    case 4:
      return 'singlethread';
    default:
      return '';
  }
}

/** SPIR-V `MemorySemantics` mask → atomic ordering (no ordering bit: monotonic). */
function ordering(semantics: Value): AtomicOrdering {
  if (semantics.vk !== 'int') return 'seq_cst';
  const bits = semantics.num;
  if (bits & 0x10) return 'seq_cst';
  if (bits & 0x8) return 'acq_rel';
  if (bits & 0x4) return 'release';
  if (bits & 0x2) return 'acquire';
  return 'monotonic';
}

const ATOMIC_RMW: Readonly<Record<string, string>> = {
  __spirv_AtomicIAdd: 'add',
  __spirv_AtomicISub: 'sub',
  __spirv_AtomicExchange: 'xchg',
  __spirv_AtomicAnd: 'and',
  __spirv_AtomicOr: 'or',
  __spirv_AtomicXor: 'xor',
  __spirv_AtomicSMin: 'min',
  __spirv_AtomicSMax: 'max',
  __spirv_AtomicUMin: 'umin',
  __spirv_AtomicUMax: 'umax',
  __spirv_AtomicFAddEXT: 'fadd',
  __spirv_AtomicFMinEXT: 'fmin',
  __spirv_AtomicFMaxEXT: 'fmax',
};

/** SPIR-V `GroupOperation`: 0 reduce, 1 inclusive scan, 2 exclusive scan. */
const GROUP_OPS: Readonly<Record<string, { op: string; identity: (t: Type, b: Builder) => Value }>> = {
  IAdd: { op: 'add', identity: (t, b) => b.ctx.constInt(t as never, 0) },
  FAdd: { op: 'fadd', identity: (t, b) => floatConstant(b, t, 0) },
  IMul: { op: 'mul', identity: (t, b) => b.ctx.constInt(t as never, 1) },
  FMul: { op: 'fmul', identity: (t, b) => floatConstant(b, t, 1) },
  SMin: { op: 'smin', identity: (t, b) => b.ctx.constInt(t as never, (1n << BigInt(intBits(t) - 1)) - 1n) },
  SMax: { op: 'smax', identity: (t, b) => b.ctx.constInt(t as never, -(1n << BigInt(intBits(t) - 1))) },
  UMin: { op: 'umin', identity: (t, b) => b.ctx.constInt(t as never, -1) },
  UMax: { op: 'umax', identity: (t, b) => b.ctx.constInt(t as never, 0) },
  FMin: { op: 'minnum', identity: (t, b) => floatConstant(b, t, Infinity) },
  FMax: { op: 'maxnum', identity: (t, b) => floatConstant(b, t, -Infinity) },
  BitwiseAnd: { op: 'and', identity: (t, b) => b.ctx.constInt(t as never, -1) },
  BitwiseOr: { op: 'or', identity: (t, b) => b.ctx.constInt(t as never, 0) },
  BitwiseXor: { op: 'xor', identity: (t, b) => b.ctx.constInt(t as never, 0) },
  LogicalAnd: { op: 'and', identity: (t, b) => b.ctx.constInt(t as never, -1) },
  LogicalOr: { op: 'or', identity: (t, b) => b.ctx.constInt(t as never, 0) },
  LogicalXor: { op: 'xor', identity: (t, b) => b.ctx.constInt(t as never, 0) },
};

function intBits(t: Type): number {
  return t.kind === 'integer' ? t.bits : 32;
}

function floatConstant(b: Builder, t: Type, value: number): Value {
  if (t === b.ctx.double) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    return b.ctx.constFP(t, view.getBigUint64(0));
  }
  if (t === b.ctx.float) {
    const view = new DataView(new ArrayBuffer(4));
    view.setFloat32(0, value);
    return b.ctx.constFP(t, BigInt(view.getUint32(0)));
  }
  // half: 0 → 0x0000, 1 → 0x3c00, ±inf → 0x7c00 / 0xfc00
  const bits = value === 0 ? 0n : value === 1 ? 0x3c00n : value === Infinity ? 0x7c00n : 0xfc00n;
  return b.ctx.constFP(t, bits);
}

/** Combines two values of a group operation. */
function combine(b: Builder, op: string, x: Value, y: Value): Value {
  switch (op) {
    case 'smin':
    case 'smax':
    case 'umin':
    case 'umax':
      return b.callNamed(`llvm.${op}.${typeSuffix(x.type)}`, x.type, [x, y]);
    case 'minnum':
    case 'maxnum':
      return b.callNamed(`llvm.${op}.${typeSuffix(x.type)}`, x.type, [x, y]);
    default:
      return b.binary(op as 'add', x, y);
  }
}

function typeSuffix(t: Type): string {
  if (t.kind === 'integer') return `i${t.bits}`;
  if (t.kind === 'float') return `f${t.bits}`;
  return 'i32';
}

/**
 * Shuffles a value of any scalar type (up to 64 bits) across the sub-group: `mode` `xor` reads
 * lane (self ^ delta), `up` reads lane (self - delta). Values travel as 32-bit halves.
 */
function shuffle(b: Builder, wi: WorkItem, arch: GpuArch, value: Value, mode: 'xor' | 'up', delta: number): Value {
  const ctx = b.ctx;
  const bits = value.type.kind === 'integer' ? value.type.bits : value.type === ctx.double ? 64 : value.type === ctx.float ? 32 : 16;
  const asInt = value.type.kind === 'integer' ? value : b.cast('bitcast', value, ctx.int(bits));
  const wide = b.intCast(asInt, bits <= 32 ? ctx.i32 : ctx.i64);
  const words = bits <= 32 ? [wide] : [b.intCast(wide, ctx.i32), b.intCast(b.binary('lshr', wide, b.i64(32)), ctx.i32)];
  const moved = words.map((w) => {
    if (arch === 'nvptx') return b.callNamed(`llvm.nvvm.shfl.sync.${mode === 'xor' ? 'bfly' : 'up'}.i32`, ctx.i32, [b.i32(-1), w, b.i32(delta), b.i32(mode === 'xor' ? 0x1f : 0)]);
    const lane = wi.laneId();
    const source = mode === 'xor' ? b.binary('xor', lane, b.i32(delta)) : b.binary('sub', lane, b.i32(delta));
    return b.callNamed('llvm.amdgcn.ds.bpermute', ctx.i32, [b.binary('shl', source, b.i32(2)), w]);
  });
  let joined = moved[0]!;
  if (moved.length === 2) joined = b.binary('or', b.intCast(moved[0]!, ctx.i64), b.binary('shl', b.intCast(moved[1]!, ctx.i64), b.i64(32)));
  const narrowed = b.intCast(joined, ctx.int(bits));
  return value.type.kind === 'integer' ? narrowed : b.cast('bitcast', narrowed, value.type);
}

/** A sub-group reduction or scan (butterfly for reduce, Hillis-Steele for scans). */
function groupOperation(b: Builder, wi: WorkItem, arch: GpuArch, operation: number, kind: { op: string; identity: (t: Type, b: Builder) => Value }, value: Value): Value {
  const maxLanes = arch === 'nvptx' ? 32 : 64;
  const size = wi.subgroupSize();
  if (operation === 0) {
    let acc = value;
    for (let delta = maxLanes / 2; delta >= 1; delta /= 2) {
      const other = shuffle(b, wi, arch, acc, 'xor', delta);
      const combined = combine(b, kind.op, acc, other);
      // on a wave32 AMDGPU, the 32-lane step has no partner: skip it
      acc = delta >= 32 ? b.select(b.icmp('ugt', size, b.i32(delta)), combined, acc) : combined;
    }
    return acc;
  }
  const lane = wi.laneId();
  let acc = value;
  for (let delta = 1; delta < maxLanes; delta *= 2) {
    const other = shuffle(b, wi, arch, acc, 'up', delta);
    acc = b.select(b.icmp('uge', lane, b.i32(delta)), combine(b, kind.op, acc, other), acc);
  }
  if (operation === 1) return acc;
  // exclusive: the inclusive result of the previous lane, the identity on lane 0
  const previous = shuffle(b, wi, arch, acc, 'up', 1);
  return b.select(b.icmp('eq', lane, b.i32(0)), kind.identity(value.type, b), previous);
}

// --- math ---------------------------------------------------------------------------------------

/** `__spirv_ocl_<name>` → an LLVM intrinsic both back ends select natively. */
const OCL_INTRINSICS: Readonly<Record<string, string>> = {
  sqrt: 'sqrt',
  fabs: 'fabs',
  fma: 'fma',
  mad: 'fmuladd',
  fmin: 'minnum',
  fmax: 'maxnum',
  floor: 'floor',
  ceil: 'ceil',
  trunc: 'trunc',
  rint: 'rint',
  round: 'round',
  copysign: 'copysign',
};

// --- the pass body ------------------------------------------------------------------------------------

/** Lowers the SPIR-V builtins of a retargeted module (see the module comment). */
export function lowerSpirvBuiltins(module: Module): BuiltinLoweringResult {
  const gpu = gpuTripleOf(module.triple);
  const problems: BuiltinProblem[] = [];
  const lowered = new Map<string, number>();
  if (gpu === undefined) return { changed: false, lowered, problems };
  const arch = gpu.arch;
  const count = (name: string): void => void lowered.set(name, (lowered.get(name) ?? 0) + 1);
  const builtinGlobals = new Set(module.globals.filter((g) => g.name.startsWith('__spirv_BuiltIn')));
  const mathNeeded = new Set<string>();

  for (const fn of [...module.functions]) {
    if (fn.isDeclaration) continue;
    const editor = new FunctionEditor(module.context, fn);
    const problem = (code: BuiltinProblem['code'], builtin: string, message: string): void => {
      problems.push({ code, builtin, function: fn.name, message });
    };
    for (const inst of fn.instructions()) {
      const b = (): Builder => new Builder(module, editor, inst);
      // builtin variables: loads through constant GEPs and casts
      if (inst.opcode === 'load') {
        const address = builtinAddress(inst.operands[0]!, builtinGlobals);
        if (address === undefined) continue;
        const name = address.global.name.slice('__spirv_BuiltIn'.length);
        const builder = b();
        const wi = new WorkItem(builder, arch);
        const type = inst.type;
        let value: Value | undefined;
        if (VECTOR_BUILTINS.has(name)) {
          if (type.kind === 'vector' && address.offset === 0) {
            let v: Value = module.context.undef(type);
            for (let d = 0; d < Math.min(3, type.length); d++) v = builder.insertElement(v, builder.intCast(wi.component(name, d as Dim), type.element), d);
            value = v;
          } else if (type.kind === 'integer' && address.offset % (type.bits / 8) === 0 && address.offset / (type.bits / 8) < 3) {
            value = builder.intCast(wi.component(name, (address.offset / (type.bits / 8)) as Dim), type);
          }
        } else if (SCALAR_BUILTINS.has(name) && type.kind === 'integer' && address.offset === 0) {
          value = builder.intCast(wi.scalar(name), type);
        }
        if (value === undefined) {
          problem('spirv-builtin-unsupported-use', address.global.name, `'${fn.name}' reads @${address.global.name} in a way that is not lowered (a ${typeText(type)} at byte ${address.offset})`);
          continue;
        }
        editor.replace(inst, value);
        editor.erase(inst);
        count(address.global.name);
        continue;
      }
      if (!(inst instanceof CallInst)) continue;
      const callee = inst.calledFunction;
      if (callee === undefined || !callee.isDeclaration) continue;
      const identifier = demangledIdentifier(callee.name);
      const result = lowerCall(module, arch, inst, identifier, b, mathNeeded);
      if (result === 'keep') continue;
      if (typeof result === 'string') {
        problem('spirv-builtin-not-lowered', callee.name, result);
        continue;
      }
      if (result !== undefined) editor.replace(inst, result);
      editor.erase(inst);
      count(callee.name);
    }
    editor.commit();
  }
  if (mathNeeded.size > 0) linkDeviceMath(module, mathNeeded);

  // whatever is left is reported by name
  for (const fn of module.functions) {
    if (fn.isDeclaration) continue;
    for (const inst of fn.instructions()) {
      if (inst instanceof CallInst) {
        const callee = inst.calledFunction;
        if (callee === undefined || !callee.isDeclaration || callee.name === GLOBAL_OFFSET_BUILTIN) continue;
        const id = demangledIdentifier(callee.name);
        if (id.startsWith('__spirv_') && !problems.some((p) => p.builtin === callee.name && p.function === fn.name)) {
          problems.push({ code: 'spirv-builtin-not-lowered', builtin: callee.name, function: fn.name, message: `'${fn.name}' calls ${id} (${callee.name}), which is not lowered for ${arch}` });
        }
      }
      for (const op of inst.operands) {
        const g = builtinGlobalIn(op, builtinGlobals);
        if (g !== undefined && !problems.some((p) => p.builtin === g && p.function === fn.name)) {
          problems.push({ code: 'spirv-builtin-unsupported-use', builtin: g, function: fn.name, message: `'${fn.name}' uses @${g} other than by loading from it; it is not lowered for ${arch}` });
        }
      }
    }
  }
  // builtin variables nobody reads any more go, like the declarations of lowered functions
  const stillUsed = new Set<string>(problems.map((p) => p.builtin));
  for (const g of builtinGlobals) if (!stillUsed.has(g.name) && lowered.has(g.name)) removeIfUnused(module, g);
  for (const fn of [...module.functions]) {
    if (fn.isDeclaration && lowered.has(fn.name) && !stillUsed.has(fn.name)) removeIfUnused(module, fn);
  }
  return { changed: lowered.size > 0, lowered, problems };
}

function typeText(t: Type): string {
  if (t.kind === 'integer') return `i${t.bits}`;
  if (t.kind === 'vector') return `<${t.length} x ${typeText(t.element)}>`;
  return t.kind;
}

/** The builtin global a pointer reaches through constant GEPs and address-space casts, with the byte offset. */
function builtinAddress(pointer: Value, globals: ReadonlySet<Value>): { global: { name: string }; offset: number } | undefined {
  let offset = 0;
  let p: Value = pointer;
  for (let depth = 0; depth < 8; depth++) {
    if (globals.has(p)) return { global: p as { name: string }, offset };
    if ((p.vk === 'expr' || p.vk === 'instruction') && (p.opcode === 'addrspacecast' || p.opcode === 'bitcast')) {
      p = p.operands[0]!;
      continue;
    }
    if ((p.vk === 'expr' || p.vk === 'instruction') && p.opcode === 'getelementptr') {
      const source = p.vk === 'expr' ? p.extra.sourceElementType : (p as unknown as { sourceElementType: Type }).sourceElementType;
      const indices = p.operands.slice(1);
      const step = constantOffset(source, indices);
      if (step === undefined) return undefined;
      offset += step;
      p = p.operands[0]!;
      continue;
    }
    return undefined;
  }
  return undefined;
}

/** Byte offset of constant GEP indices over `<N x T>`, `[N x T]` and scalar element types. */
function constantOffset(source: Type | undefined, indices: readonly Value[]): number | undefined {
  if (source === undefined) return undefined;
  let type: Type = source;
  let offset = 0;
  for (let i = 0; i < indices.length; i++) {
    const index = indices[i]!;
    if (index.vk !== 'int') return undefined;
    const size = (t: Type): number => (t.kind === 'integer' ? t.bits / 8 : t.kind === 'vector' || t.kind === 'array' ? t.length * size(t.element) : 0);
    if (i === 0) {
      offset += index.num * size(type);
      continue;
    }
    if (type.kind !== 'vector' && type.kind !== 'array') return undefined;
    type = type.element;
    offset += index.num * size(type);
  }
  return offset;
}

function builtinGlobalIn(v: Value, globals: ReadonlySet<Value>): string | undefined {
  if (globals.has(v)) return (v as { name: string }).name;
  if (v.vk === 'expr') for (const op of v.operands) {
    const g = builtinGlobalIn(op, globals);
    if (g !== undefined) return g;
  }
  return undefined;
}

function removeIfUnused(module: Module, gv: IRFunction | { name: string; vk: string }): void {
  for (const f of module.functions) {
    for (const inst of f.instructions()) {
      for (const op of inst.operands) if (op === gv || builtinGlobalIn(op, new Set([gv as Value])) !== undefined) return;
    }
  }
  for (const g of module.globals) if (g.initializer !== undefined && builtinGlobalIn(g.initializer, new Set([gv as Value])) !== undefined) return;
  module.remove(gv as never);
}

/**
 * Lowers one call of a declared function: the replacement value (undefined for void), `keep`
 * for calls that are not builtins, or a message when the builtin cannot be lowered here.
 */
function lowerCall(module: Module, arch: GpuArch, inst: CallInst, identifier: string, builder: () => Builder, mathNeeded: Set<string>): Value | undefined | 'keep' | string {
  const args = inst.args;
  const ctx = module.context;
  if (identifier === '__spirv_BuiltInGlobalOffset') return 'keep';
  const item = workItemCall(identifier);
  if (item !== undefined) {
    const b = builder();
    const wi = new WorkItem(b, arch);
    if (SCALAR_BUILTINS.has(item.name) && item.axis === undefined && !VECTOR_BUILTINS.has(item.name)) return b.intCast(wi.scalar(item.name), inst.type);
    const dim = item.axis !== undefined ? b.i32(item.axis) : args[0];
    if (dim === undefined) return `'${identifier}' needs a dimension argument`;
    return b.intCast(wi.dynamicComponent(item.name, dim), inst.type);
  }
  const rmw = ATOMIC_RMW[identifier];
  if (rmw !== undefined && args.length === 4) {
    return builder().atomicRmw(rmw, args[0]!, args[3]!, ordering(args[2]!), syncScope(arch, args[1]!));
  }
  if ((identifier === '__spirv_AtomicIIncrement' || identifier === '__spirv_AtomicIDecrement') && args.length === 3) {
    const b = builder();
    const one = ctx.constInt(inst.type as never, 1);
    return b.atomicRmw(identifier.endsWith('Increment') ? 'add' : 'sub', args[0]!, one, ordering(args[2]!), syncScope(arch, args[1]!));
  }
  if (identifier === '__spirv_AtomicLoad' && args.length === 3) {
    const o = ordering(args[2]!);
    return builder().atomicLoad(inst.type, args[0]!, o === 'release' || o === 'acq_rel' ? 'acquire' : o, syncScope(arch, args[1]!));
  }
  if (identifier === '__spirv_AtomicStore' && args.length === 4) {
    const b = builder();
    const o = ordering(args[2]!);
    b.atomicStore(args[3]!, args[0]!, o === 'acquire' || o === 'acq_rel' ? 'release' : o, syncScope(arch, args[1]!));
    return undefined;
  }
  if (identifier === '__spirv_ControlBarrier' && args.length === 3) {
    const b = builder();
    const execution = args[0]!;
    const subgroup = execution.vk === 'int' && execution.num === 3;
    const o = ordering(args[2]!);
    const memoryOrder: AtomicOrdering | undefined = args[2]!.vk === 'int' && (args[2]!.num & 0x1e) === 0 ? undefined : o === 'monotonic' ? 'acq_rel' : o;
    if (arch === 'nvptx') {
      if (subgroup) b.callNamed('llvm.nvvm.bar.warp.sync', ctx.void, [b.i32(-1)]);
      else b.callNamed('llvm.nvvm.barrier0', ctx.void, []);
      return undefined;
    }
    const scope = subgroup ? 'wavefront' : 'workgroup';
    if (memoryOrder !== undefined) b.fence('release', scope);
    b.callNamed(subgroup ? 'llvm.amdgcn.wave.barrier' : 'llvm.amdgcn.s.barrier', ctx.void, []);
    if (memoryOrder !== undefined) b.fence('acquire', scope);
    return undefined;
  }
  if (identifier === '__spirv_MemoryBarrier' && args.length === 2) {
    const o = ordering(args[1]!);
    builder().fence(o === 'monotonic' ? 'acq_rel' : o, syncScope(arch, args[0]!));
    return undefined;
  }
  let m = /^__spirv_GroupNonUniform([A-Za-z]+)$/.exec(identifier);
  if (m !== null && GROUP_OPS[m[1]!] !== undefined && args.length === 3) {
    const [scope, operation, value] = args as [Value, Value, Value];
    if (scope.vk !== 'int' || scope.num !== 3) return `${identifier} is lowered for sub-group scope (3) only; '${inst.function?.name ?? '?'}' uses scope ${scope.vk === 'int' ? scope.num : 'not a constant'}`;
    if (operation.vk !== 'int' || operation.num > 2) return `${identifier}: group operation ${operation.vk === 'int' ? operation.num : '(not a constant)'} is not lowered (reduce, inclusive and exclusive scans are)`;
    const b = builder();
    return groupOperation(b, new WorkItem(b, arch), arch, operation.num, GROUP_OPS[m[1]!]!, value);
  }
  if ((identifier === '__spirv_GroupNonUniformBroadcast' || identifier === '__spirv_GroupNonUniformShuffle') && args.length === 3) {
    const [scope, value, lane] = args as [Value, Value, Value];
    if (scope.vk !== 'int' || scope.num !== 3) return `${identifier} is lowered for sub-group scope (3) only`;
    const b = builder();
    const wi = new WorkItem(b, arch);
    const delta = b.binary('xor', wi.laneId(), b.intCast(lane, ctx.i32));
    return shuffleDynamicXor(b, wi, arch, value, delta);
  }
  m = /^__spirv_ocl_([a-z0-9_]+)$/.exec(identifier);
  if (m !== null) {
    const name = oclName(m[1]!);
    if (name === 'printf') {
      if (arch === 'nvptx') return lowerPrintf(module, builder(), inst);
      // LLVM's AMDGPU back end lowers calls of `printf` to its buffer, through our __printf_alloc
      mathNeeded.add(PRINTF_ALLOC_SYMBOL);
      const b = builder();
      const format = args[0]!;
      const constantFormat = format.type.kind === 'pointer' && format.type.addressSpace === 4 ? format : b.cast('addrspacecast', format, ctx.ptr(4));
      return b.callNamed('printf', ctx.i32, [constantFormat, ...args.slice(1)], { varArgs: true, paramTypes: [ctx.ptr(4)] });
    }
    const t = inst.type;
    const suffix = typeSuffix(t.kind === 'vector' ? t.element : t);
    const vector = t.kind === 'vector' ? `v${t.length}` : '';
    const intrinsic = OCL_INTRINSICS[name];
    if (intrinsic !== undefined) return builder().callNamed(`llvm.${intrinsic}.${vector}${suffix}`, t, args);
    const math = DEVICE_MATH[name];
    if (math !== undefined && t.kind === 'float' && (t === ctx.float || t === ctx.double)) {
      const fnName = math.symbol(t === ctx.double ? 'f64' : 'f32');
      mathNeeded.add(fnName);
      return builder().callNamed(fnName, t, args);
    }
    return `'${inst.function?.name ?? '?'}' calls ${identifier} (${inst.calledFunction!.name}), which is not lowered for ${arch}`;
  }
  if (identifier === '__devicelib_assert_fail') {
    const b = builder();
    if (arch === 'nvptx' && args.length >= 4) {
      // CUDA's __assertfail(message, file, line, function, char size), resolved by the driver
      const generic = args.slice(0, 4).map((a, i) => (i === 2 ? b.intCast(a, ctx.i32) : a.type.kind === 'pointer' && a.type.addressSpace !== 0 ? b.cast('addrspacecast', a, ctx.ptr(0)) : a));
      b.callNamed('__assertfail', ctx.void, [...generic, b.i64(1)]);
    } else b.callNamed('llvm.trap', ctx.void, []);
    return undefined;
  }
  if (identifier.startsWith('__spirv_')) return `'${inst.function?.name ?? '?'}' calls ${identifier} (${inst.calledFunction!.name}), which is not lowered for ${arch}`;
  return 'keep';
}

/**
 * The OpenCL function of a `__spirv_ocl_` identifier. Some producers put the parameter codes in the
 * counted identifier (`_Z17__spirv_ocl_powdd`): the longest known name it starts with is taken.
 */
function oclName(text: string): string {
  if (text === 'printf' || OCL_INTRINSICS[text] !== undefined || DEVICE_MATH[text] !== undefined) return text;
  const known = [...Object.keys(OCL_INTRINSICS), ...Object.keys(DEVICE_MATH)].filter((k) => text.startsWith(k) && /^[a-zA-Z]+$/.test(text.slice(k.length)));
  return known.sort((a, b) => b.length - a.length)[0] ?? text;
}

/** Reads `value` from the lane (self ^ delta) for a lane-dependent delta. */
function shuffleDynamicXor(b: Builder, wi: WorkItem, arch: GpuArch, value: Value, delta: Value): Value {
  const ctx = b.ctx;
  const bits = value.type.kind === 'integer' ? value.type.bits : value.type === ctx.double ? 64 : value.type === ctx.float ? 32 : 16;
  const asInt = value.type.kind === 'integer' ? value : b.cast('bitcast', value, ctx.int(bits));
  const wide = b.intCast(asInt, bits <= 32 ? ctx.i32 : ctx.i64);
  const words = bits <= 32 ? [wide] : [b.intCast(wide, ctx.i32), b.intCast(b.binary('lshr', wide, b.i64(32)), ctx.i32)];
  const moved = words.map((w) => {
    if (arch === 'nvptx') return b.callNamed('llvm.nvvm.shfl.sync.bfly.i32', ctx.i32, [b.i32(-1), w, delta, b.i32(0x1f)]);
    const source = b.binary('xor', wi.laneId(), delta);
    return b.callNamed('llvm.amdgcn.ds.bpermute', ctx.i32, [b.binary('shl', source, b.i32(2)), w]);
  });
  let joined = moved[0]!;
  if (moved.length === 2) joined = b.binary('or', b.intCast(moved[0]!, ctx.i64), b.binary('shl', b.intCast(moved[1]!, ctx.i64), b.i64(32)));
  const narrowed = b.intCast(joined, ctx.int(bits));
  return value.type.kind === 'integer' ? narrowed : b.cast('bitcast', narrowed, value.type);
}

/**
 * `__spirv_ocl_printf(format, args...)` on NVPTX: CUDA's `vprintf(format, buffer)`, the arguments
 * packed in a private buffer, each at an offset aligned to its size (floats arrive as doubles, as C
 * variadic calls promote them).
 */
function lowerPrintf(module: Module, b: Builder, inst: CallInst): Value {
  const ctx = module.context;
  const args = inst.args;
  const format = args[0]!;
  const generic = format.type.kind === 'pointer' && format.type.addressSpace !== 0 ? b.cast('addrspacecast', format, ctx.ptr(0)) : format;
  let offset = 0;
  const slots: { value: Value; offset: number }[] = [];
  for (const raw of args.slice(1)) {
    let value = raw;
    if (value.type === ctx.float || value.type === ctx.half) value = b.cast('fpext', value, ctx.double);
    else if (value.type.kind === 'integer' && value.type.bits < 32) value = b.cast('zext', value, ctx.i32);
    else if (value.type.kind === 'pointer' && value.type.addressSpace !== 0) value = b.cast('addrspacecast', value, ctx.ptr(0));
    const size = module.layout.allocSize(value.type);
    offset = Math.ceil(offset / size) * size;
    slots.push({ value, offset });
    offset += size;
  }
  let buffer: Value = ctx.nullPtr(ctx.ptr(0));
  if (slots.length > 0) {
    // a byte buffer in the entry block, 8-aligned, sized for the arguments
    const entry = inst.function!.blocks[0]!;
    const atEntry = new Builder(module, b.editor, entry.instructions[firstInsertionIndex(entry)]!);
    const slot = atEntry.emit(alloca(module, ctx.array(ctx.i8, Math.max(8, offset)), 0));
    slot.align = 8;
    for (const s of slots) b.store(s.value, b.byteOffset(slot, s.offset), Math.min(8, module.layout.allocSize(s.value.type)));
    buffer = slot;
  }
  return b.callNamed('vprintf', ctx.i32, [generic, buffer]);
}

/**
 * Function bodies. A body is a sequence of segments — loops, if/else, switches, struct
 * copies, vector code, intrinsics, printf, assert, atomics — threaded through one running value
 * (`cur`) so every instruction is used, and each planned callee is called from some segment.
 * Every segment prints valid IR in both pointer modes.
 */
import { aspectValue } from './aspects.js';
import { intrinsicAttributes, type FunctionBuilder, type FunctionRef, type ModuleEmitter } from './emitter.js';
import { doubleType, floatType, halfType, i32, i64, i8, PointerType, StructType, ArrayType, voidType, type IrType, type Value } from './ir-types.js';
import { kindInfo, smallConstant, type ElemKind, type KindInfo } from './kinds.js';
import type { PlannedFunction } from './plan.js';
import type { Prng } from './prng.js';
import type { TypeFactory } from './types.js';

/** Attributes of calls to SPIR-V builtins and other device functions. */
export const convergentCall = 'convergent nounwind';

export interface BodyContext {
  readonly m: ModuleEmitter;
  readonly types: TypeFactory;
  readonly functions: readonly PlannedFunction[];
  readonly refOf: (f: PlannedFunction) => FunctionRef;
  /** Per-TU constant lookup table and device global, created on first use. */
  readonly tuTable: (tu: number) => Value;
  readonly tuCounter: (tu: number) => Value;
  /** Work-group local array of an operator (addrspace(3)). */
  readonly localArray: (f: PlannedFunction, element: IrType) => Value;
  /** Debug type node for an alloca of this type (only with debug info). */
  readonly debugType: (t: IrType) => number | undefined;
  /** {@link indexReach} of a planned function. */
  readonly reach: (f: PlannedFunction) => number;
}

/** Loops run at most this many iterations; the loop variable is added to the index. */
export const MAX_LOOP_TRIPS = 16;

/**
 * How far past its index argument a function and the callees it passes its data pointer to may
 * read or write: each of them adds a loop variable (below {@link MAX_LOOP_TRIPS}) to the index it
 * got. A private array handed to `f` with an index below `k` needs `k + indexReach(f)` elements:
 * the kernels are run on GPUs (tools/gpu-check), where an access past a private array is an
 * illegal address.
 */
export function indexReach(f: PlannedFunction, functions: readonly PlannedFunction[], storageOf: (f: PlannedFunction) => IrType, memo: Map<number, number>): number {
  const known = memo.get(f.id);
  if (known !== undefined) return known;
  let below = 0;
  for (const id of f.callees) {
    const g = functions[id]!;
    // Only data callees of the same storage get this function's pointer (others get a temporary).
    if (g.role === 'init' || g.family !== 'data' || storageOf(g) !== storageOf(f)) continue;
    below = Math.max(below, indexReach(g, functions, storageOf, memo));
  }
  const reach = MAX_LOOP_TRIPS - 1 + below;
  memo.set(f.id, reach);
  return reach;
}

export interface BodyState {
  readonly fb: FunctionBuilder;
  readonly ctx: BodyContext;
  readonly f: PlannedFunction;
  readonly rng: Prng;
  readonly k: KindInfo;
  readonly storage: IrType;
  /** Pointer (addrspace(4)) to the elements this function works on. */
  data: Value;
  idx: Value;
  x: Value;
  cur: Value;
}

type Action = (s: BodyState) => void;

const scalarKinds = new Map<IrType, ElemKind>([
  [i32, 'i32'],
  [i64, 'i64'],
  [floatType, 'float'],
  [doubleType, 'double'],
  [halfType, 'half'],
]);

function c(type: IrType, ref: string | number): Value {
  return { type, ref: String(ref) };
}

/** Converts between the value types of two kinds (sext/trunc/sitofp/fptosi/fpext/fptrunc). */
export function convert(fb: FunctionBuilder, v: Value, to: KindInfo): Value {
  if (v.type === to.value) return v;
  const from = kindInfo[scalarKinds.get(v.type)!];
  if (!from.isFloat && !to.isFloat) return fb.cast(v.type.size < to.value.size ? 'sext' : 'trunc', v, to.value, 'conv');
  if (!from.isFloat) return fb.cast('sitofp', v, to.value, 'conv');
  if (!to.isFloat) return fb.cast('fptosi', v, to.value, 'conv');
  return fb.cast(v.type.size < to.value.size ? 'fpext' : 'fptrunc', v, to.value, 'conv');
}

function combine(s: BodyState, v: Value, op?: 'add' | 'mul' | 'sub'): void {
  const which = op ?? s.rng.pick(['add', 'mul', 'sub'] as const);
  const name = which === 'add' ? 'add' : which === 'mul' ? 'mul' : 'sub';
  const opcode = s.k.isFloat ? `f${which}` : `${which} nsw`;
  s.cur = s.fb.binop(opcode, s.cur, convert(s.fb, v, s.k), name);
}

/** Pointer to the value inside element `index` of `base` (through `sycl::half` for half). */
export function valuePointer(fb: FunctionBuilder, storage: IrType, base: Value, index: Value | number): Value {
  const element = fb.gep(storage, base, [index], 'arrayidx');
  if (storage instanceof StructType) return fb.gep(storage, element, [0, 0], 'value');
  return element;
}

export function loadValue(s: BodyState, index: Value | number): Value {
  const p = valuePointer(s.fb, s.storage, s.data, index);
  return s.fb.load(p, { tbaa: s.ctx.m.tbaa(s.k.tbaaName) });
}

export function storeValue(s: BodyState, v: Value, index: Value | number): void {
  const p = valuePointer(s.fb, s.storage, s.data, index);
  s.fb.store(v, p, { tbaa: s.ctx.m.tbaa(s.k.tbaaName) });
}

function constantOf(k: KindInfo, rng: Prng): Value {
  return c(k.value, smallConstant(k.kind, rng.int(1, 9)));
}

// --- actions: straight-line code that updates s.cur ---------------------------------------------

function arithmetic(s: BodyState): void {
  const e = loadValue(s, s.idx);
  const scaled = s.fb.binop(s.k.isFloat ? 'fmul' : 'mul nsw', e, s.rng.chance(0.5) ? s.x : constantOf(s.k, s.rng), 'mul');
  combine(s, scaled, 'add');
}

/**
 * A call to a planned callee, with a private temporary when it works on another element type:
 * the callee gets the index modulo 4 and an array long enough for what it reaches from there.
 */
function callAction(callee: PlannedFunction): Action {
  return (s) => {
    const fb = s.fb;
    const ck = kindInfo[callee.kind];
    const ref = s.ctx.refOf(callee);
    let args: Value[];
    let temp: { alloca: Value; size: number } | undefined;
    if (callee.family === 'data') {
      const storage = s.ctx.types.storage(callee.kind);
      let data = s.data;
      let idx = s.idx;
      if (storage !== s.storage) {
        const arrayType = storage.array(4 + s.ctx.reach(callee));
        const alloca = fb.alloca(arrayType, 'tmp', s.ctx.debugType(arrayType));
        temp = { alloca, size: arrayType.size };
        fb.lifetime('start', alloca, arrayType.size);
        data = fb.gep(arrayType, alloca, [0, 0], 'arraydecay');
        fb.store(convert(fb, s.cur, ck), valuePointer(fb, storage, data, 0), { tbaa: s.ctx.m.tbaa(ck.tbaaName) });
        idx = fb.binop('and', s.idx, c(i64, 3), 'idx.tmp');
      }
      args = [data, idx, convert(fb, s.cur, ck)];
    } else {
      args = [convert(fb, s.cur, ck), convert(fb, s.x, ck)];
    }
    const r = fb.call(ref, args, { attributes: convergentCall });
    if (temp !== undefined) fb.lifetime('end', temp.alloca, temp.size);
    if (r !== undefined) combine(s, r);
  };
}

// --- containers: control flow around actions ----------------------------------------------------

function straight(s: BodyState, actions: readonly Action[]): void {
  for (const a of actions) a(s);
}

function loop(s: BodyState, actions: readonly Action[]): void {
  const fb = s.fb;
  const pre = fb.block;
  const cond = fb.fresh('for.cond');
  const body = fb.fresh('for.body');
  const inc = fb.fresh('for.inc');
  const end = fb.fresh('for.end');
  const before = s.cur;
  const savedIdx = s.idx;
  fb.br(cond);
  fb.label(cond);
  const ivSlot = fb.placeholder();
  const accSlot = fb.placeholder();
  const iv = c(i64, `%${fb.fresh('iv')}`);
  const acc = c(s.k.value, `%${fb.fresh('acc')}`);
  const cmp = fb.cmp('icmp ult', iv, c(i64, s.rng.int(2, MAX_LOOP_TRIPS)), 'cmp');
  fb.condBr(cmp, body, end);
  fb.label(body);
  s.idx = fb.binop('add nsw', savedIdx, iv, 'idx');
  s.cur = acc;
  straight(s, actions);
  const next = s.cur;
  fb.br(inc);
  fb.label(inc);
  const step = fb.binop('add nuw nsw', iv, c(i64, 1), 'inc');
  fb.br(cond);
  fb.fill(ivSlot, fb.phiText(iv.ref, i64, [[c(i64, 0), pre], [step, inc]]));
  fb.fill(accSlot, fb.phiText(acc.ref, s.k.value, [[before, pre], [next, inc]]));
  fb.label(end);
  s.cur = acc;
  s.idx = savedIdx;
}

function ifElse(s: BodyState, thenActions: readonly Action[], elseActions: readonly Action[]): void {
  const fb = s.fb;
  const zero = c(s.k.value, smallConstant(s.k.kind, 0));
  const cmp = fb.cmp(s.k.isFloat ? 'fcmp ogt' : 'icmp sgt', s.cur, zero, 'cmp');
  const thenLabel = fb.fresh('if.then');
  const elseLabel = fb.fresh('if.else');
  const end = fb.fresh('if.end');
  const start = s.cur;
  fb.condBr(cmp, thenLabel, elseLabel);
  fb.label(thenLabel);
  straight(s, thenActions);
  const a = s.cur;
  const aBlock = fb.block;
  fb.br(end);
  fb.label(elseLabel);
  s.cur = start;
  straight(s, elseActions);
  const b = s.cur;
  const bBlock = fb.block;
  fb.br(end);
  fb.label(end);
  s.cur = a === b ? a : fb.phi(s.k.value, [[a, aBlock], [b, bBlock]], 'cond');
}

function switchOver(s: BodyState, cases: readonly (readonly Action[])[]): void {
  const fb = s.fb;
  const narrowed = fb.cast('trunc', s.idx, i32, 'conv');
  const selector = fb.binop('urem', narrowed, c(i32, cases.length + 1), 'rem');
  const labels = cases.map(() => fb.fresh('sw.bb'));
  const defaultLabel = fb.fresh('sw.default');
  const epilog = fb.fresh('sw.epilog');
  const start = s.cur;
  fb.switchOn(
    selector,
    defaultLabel,
    labels.map((l, i) => [i, l] as const),
  );
  const incoming: [Value, string][] = [];
  cases.forEach((actions, i) => {
    fb.label(labels[i]!);
    s.cur = start;
    straight(s, actions);
    incoming.push([s.cur, fb.block]);
    fb.br(epilog);
  });
  fb.label(defaultLabel);
  s.cur = start;
  combine(s, constantOf(s.k, s.rng), 'add');
  incoming.push([s.cur, fb.block]);
  fb.br(epilog);
  fb.label(epilog);
  s.cur = fb.phi(s.k.value, incoming, 'retval');
}

// --- special segments ---------------------------------------------------------------------------

/** A scalar reachable inside an aggregate, with the indices to reach it. */
function leaves(t: IrType, path: number[] = []): { path: number[]; type: IrType }[] {
  if (t instanceof StructType) return t.fields.flatMap((f, i) => leaves(f, [...path, i]).slice(0, 1));
  if (t instanceof ArrayType) return leaves(t.element, [...path, Math.min(1, t.count - 1)]);
  return scalarKinds.has(t) ? [{ path, type: t }] : [];
}

/** Build an aggregate in a private alloca, copy it with llvm.memcpy, read a field back. */
function aggregateCopy(s: BodyState, type: StructType): void {
  const fb = s.fb;
  const a = fb.alloca(type, 'agg', s.ctx.debugType(type));
  const b = fb.alloca(type, 'agg.tmp');
  fb.lifetime('start', a, type.size);
  const fields = leaves(type);
  for (const leaf of fields) {
    const k = kindInfo[scalarKinds.get(leaf.type)!];
    fb.store(convert(fb, s.cur, k), fb.gep(type, a, [0, ...leaf.path], 'field'), { tbaa: s.ctx.m.tbaa(k.tbaaName) });
  }
  fb.memcpy(b, a, type.size, type.align);
  const leaf = s.rng.pick(fields);
  const k = kindInfo[scalarKinds.get(leaf.type)!];
  const v = fb.load(fb.gep(type, b, [0, ...leaf.path], 'field'), { tbaa: s.ctx.m.tbaa(k.tbaaName) });
  fb.lifetime('end', a, type.size);
  combine(s, v);
}

function vectorMath(s: BodyState): void {
  const fb = s.fb;
  const vt = s.k.value.vector(4);
  const inserted = fb.insertElement(c(vt, 'poison'), s.cur, 0, 'vecinit');
  const splat = fb.shuffleSplat(inserted, 'splat');
  const factors = [0, 1, 2, 3].map(() => `${fb.ty(s.k.value)} ${smallConstant(s.k.kind, s.rng.int(1, 9))}`);
  const product = fb.binop(s.k.isFloat ? 'fmul' : 'mul', splat, c(vt, `<${factors.join(', ')}>`), 'mul');
  combine(s, fb.extractElement(product, s.rng.int(0, 3), 'vecext'));
}

function intrinsic(s: BodyState): void {
  const fb = s.fb;
  const t = s.k.value;
  const suffix = t === halfType ? 'f16' : t === floatType ? 'f32' : t === doubleType ? 'f64' : t.render('opaque');
  const fn: FunctionRef = s.k.isFloat
    ? { name: `llvm.fmuladd.${suffix}`, returnType: t, params: [t, t, t], spirFunc: false }
    : { name: `llvm.smax.${suffix}`, returnType: t, params: [t, t], spirFunc: false };
  s.ctx.m.declare(fn, { attributes: intrinsicAttributes.pure });
  const args = s.k.isFloat ? [s.cur, s.x, constantOf(s.k, s.rng)] : [s.cur, s.x];
  s.cur = fb.call(fn, args, { name: s.k.isFloat ? 'fmuladd' : 'smax' })!;
}

function tableLookup(s: BodyState): void {
  const fb = s.fb;
  const table = s.ctx.tuTable(s.f.homeTu);
  const masked = fb.binop('and', s.idx, c(i64, 15), 'idxprom');
  const arrayType = (table.type as PointerType).pointee;
  const v = fb.load(fb.gep(arrayType, table, [0, masked], 'arrayidx'), { tbaa: s.ctx.m.tbaa('float') });
  combine(s, v);
}

function counterUpdate(s: BodyState): void {
  const fb = s.fb;
  const counter = s.ctx.tuCounter(s.f.homeTu);
  const field = fb.gep(s.ctx.types.deviceGlobal(), counter, [0, 0], 'value');
  const old = fb.load(field, { tbaa: s.ctx.m.tbaa('int') });
  fb.store(fb.binop('add nsw', old, c(i32, 1), 'inc'), field, { tbaa: s.ctx.m.tbaa('int') });
  combine(s, old, 'add');
}

const printfRef: FunctionRef = {
  name: '_Z18__spirv_ocl_printfPU3AS2Kcz',
  returnType: i32,
  params: [i8.pointer(2)],
  paramAttrs: ['noundef'],
  spirFunc: true,
  varArgs: true,
};

function printf(s: BodyState): void {
  const m = s.ctx.m;
  m.declare(printfRef, { linkage: 'dso_local', attributes: convergentCall });
  const format = m.charPointer(m.string(`[${s.f.displayName}] i=%ld v=%d\n`, 2), 2);
  const v = convert(s.fb, s.cur, kindInfo.i32);
  s.fb.call(printfRef, [format, s.idx, v], { attributes: convergentCall });
}

const assertRef: FunctionRef = {
  name: '__devicelib_assert_fail',
  returnType: voidType,
  params: [i8.pointer(4), i8.pointer(4), i32, i8.pointer(4), i64, i64, i64, i64, i64, i64],
  paramAttrs: Array.from({ length: 10 }, () => 'noundef'),
  spirFunc: true,
};

/** `assert(i < limit)` as DPC++ lowers it: a cold branch calling `__devicelib_assert_fail`. */
function assertion(s: BodyState): void {
  const fb = s.fb;
  const m = s.ctx.m;
  m.declare(assertRef, { linkage: 'extern_weak', attributes: convergentCall });
  const limit = s.rng.int(1 << 16, 1 << 24);
  const ok = fb.cmp('icmp ult', s.idx, c(i64, limit), 'cmp');
  const fail = fb.fresh('cond.false');
  const end = fb.fresh('cond.end');
  fb.condBr(ok, end, fail);
  fb.label(fail);
  const gid = fb.load(m.builtinVector('GlobalInvocationId'), { align: 32 });
  const ids = [0, 1, 2].map((i) => fb.extractElement(gid, i, 'gid'));
  const message = m.charPointer(m.string(`i < ${limit}`, 1), 4);
  const file = m.charPointer(m.string(`tu${s.f.homeTu}.cpp`, 1), 4);
  const fn = m.charPointer(m.string(`${fb.ty(s.k.value)} ${s.f.displayName}(...)`, 1), 4);
  fb.call(assertRef, [message, file, c(i32, s.rng.int(10, 4000)), fn, ...ids, c(i64, 0), c(i64, 0), c(i64, 0)], {
    attributes: convergentCall,
  });
  fb.br(end);
  fb.label(end);
}

/** `__spirv_AtomicIAdd` on an element; the 64-bit one may carry instruction-level aspects. */
function atomicAdd(s: BodyState): void {
  const fb = s.fb;
  const wide = s.k.kind === 'i64';
  const fn: FunctionRef = {
    name: wide
      ? '_Z18__spirv_AtomicIAddPU3AS4mN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEm'
      : '_Z18__spirv_AtomicIAddPU3AS4jN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEj',
    returnType: s.k.value,
    params: [s.k.value.pointer(4), i32, i32, s.k.value],
    paramAttrs: ['noundef', 'noundef', 'noundef', 'noundef'],
    spirFunc: true,
  };
  s.ctx.m.declare(fn, { linkage: 'dso_local', attributes: convergentCall });
  const p = valuePointer(fb, s.storage, s.data, s.idx);
  const metadata = wide && s.f.atomic64 ? `!sycl_used_aspects !${s.ctx.m.md.i32s([aspectValue.atomic64])}` : undefined;
  const r = fb.call(fn, [p, c(i32, 1), c(i32, 912), s.cur], { attributes: convergentCall, metadata, name: 'call' })!;
  combine(s, r, 'add');
}

function workItemIds(s: BodyState): void {
  const fb = s.fb;
  const name = s.rng.pick(['LocalInvocationId', 'WorkgroupId', 'GlobalSize']);
  const v = fb.load(s.ctx.m.builtinVector(name), { align: 32 });
  combine(s, fb.extractElement(v, 0, 'id'), 'add');
}

const barrierRef: FunctionRef = {
  name: '_Z22__spirv_ControlBarrierjjj',
  returnType: voidType,
  params: [i32, i32, i32],
  paramAttrs: ['noundef', 'noundef', 'noundef'],
  spirFunc: true,
};

/** Work-group local memory: store to an addrspace(3) array, barrier, read a neighbour. */
export function localMemory(s: BodyState): void {
  const fb = s.fb;
  const array = s.ctx.localArray(s.f, s.k.value);
  const arrayType = (array.type as PointerType).pointee;
  const lid = fb.extractElement(fb.load(s.ctx.m.builtinVector('LocalInvocationId'), { align: 32 }), 0, 'lid');
  const slot = fb.binop('and', lid, c(i64, 63), 'slot');
  fb.store(s.cur, fb.gep(arrayType, array, [0, slot], 'arrayidx'));
  s.ctx.m.declare(barrierRef, { linkage: 'dso_local', attributes: convergentCall });
  fb.call(barrierRef, [c(i32, 2), c(i32, 2), c(i32, 272)], { attributes: convergentCall });
  const neighbour = fb.binop('xor', slot, c(i64, 1), 'neighbour');
  combine(s, fb.load(fb.gep(arrayType, array, [0, neighbour], 'arrayidx')), 'add');
}

// --- assembling a body --------------------------------------------------------------------------

type Segment = (s: BodyState) => void;

function wrap(s: BodyState, actions: Action[]): Segment {
  const shape = s.rng.weighted<'straight' | 'loop' | 'if' | 'switch'>([
    ['straight', 40],
    ['loop', 25],
    ['if', 20],
    ['switch', 15],
  ]);
  switch (shape) {
    case 'straight':
      return (st) => straight(st, actions);
    case 'loop':
      return (st) => loop(st, actions);
    case 'if':
      return (st) => ifElse(st, actions, [arithmetic]);
    default:
      return (st) => switchOver(st, actions.length > 1 ? actions.map((a) => [a]) : [actions, [arithmetic]]);
  }
}

function plainSegment(s: BodyState): Segment {
  const integer = !s.k.isFloat;
  const kind = s.rng.weighted<string>([
    ['loop', 20],
    ['if', 12],
    ['switch', 8],
    ['vector', 10],
    ['intrinsic', 10],
    ['aggregate', 8],
    ['table', 8],
    ['counter', 4],
    ['printf', 4],
    ['assert', 6],
    ['atomic', integer && s.f.family === 'data' ? 6 : 0],
    ['ids', 4],
  ]);
  switch (kind) {
    case 'loop':
      return (st) => loop(st, [arithmetic]);
    case 'if':
      return (st) => ifElse(st, [arithmetic], [arithmetic]);
    case 'switch':
      return (st) => switchOver(st, [[arithmetic], [arithmetic]]);
    case 'vector':
      return vectorMath;
    case 'intrinsic':
      return intrinsic;
    case 'aggregate':
      return (st) => aggregateCopy(st, st.ctx.types.params(st.f.homeTu));
    case 'table':
      return tableLookup;
    case 'counter':
      return counterUpdate;
    case 'printf':
      return printf;
    case 'assert':
      return assertion;
    case 'atomic':
      return atomicAdd;
    default:
      return workItemIds;
  }
}

/**
 * The segments of a body: one per group of callees, a random number of plain ones (average
 * `segments`), and the ones the plan requires (feature struct, 64-bit atomic), in random order.
 */
export function emitSegments(s: BodyState, averageSegments: number): void {
  const segments: Segment[] = [];
  const callees = s.f.callees.map((id) => s.ctx.functions[id]!).filter((g) => g.role !== 'init');
  for (let i = 0; i < callees.length; ) {
    const group = Math.min(callees.length - i, s.rng.chance(0.25) ? 2 : 1);
    segments.push(wrap(s, callees.slice(i, i + group).map(callAction)));
    i += group;
  }
  const plain = averageSegments > 0 ? s.rng.int(0, 2 * averageSegments) : 0;
  for (let i = 0; i < plain; i++) segments.push(plainSegment(s));
  if (s.f.featureStruct !== undefined) {
    const index = s.f.featureStruct;
    const container = s.rng.chance(0.5);
    segments.push((st) => aggregateCopy(st, container ? st.ctx.types.featureContainer(index) : st.ctx.types.featureStruct(index)));
  }
  if (s.f.atomic64) segments.push(atomicAdd);
  // Fisher-Yates with the function's own generator keeps the order deterministic.
  for (let i = segments.length - 1; i > 0; i--) {
    const j = s.rng.int(0, i);
    [segments[i], segments[j]] = [segments[j]!, segments[i]!];
  }
  for (const segment of segments) segment(s);
}


/**
 * The shape of a generated module, decided before any IR is printed: which functions exist,
 * in which translation unit, what they compute with, and who calls whom.
 *
 * The call graph is a DAG (SYCL device code has no recursion): every function has a level and
 * only calls functions on deeper levels. Kernels (level 0) call their lambda's operator()
 * (level 1) and the accessor `__init` utilities; operators and helpers form per-TU trees
 * (levels 2..), SYCL_EXTERNAL functions are called across TUs, and linkonce_odr utilities
 * shared by all TUs sit at the bottom (levels 100, 101).
 */
import { aspectValue } from './aspects.js';
import { kindInfo, kindWeights, type ElemKind } from './kinds.js';
import type { GeneratorOptions } from './options.js';
import { Prng } from './prng.js';

export type Role = 'kernel' | 'operator' | 'helper' | 'external' | 'shared' | 'init';

/** `data`: `R (E addrspace(4)* data, i64 i, E x)`; `scalar`: `E (E a, E b)`. */
export type Family = 'data' | 'scalar';

export interface KernelPlan {
  /** Position of the kernel's command-group lambda in its TU (the lambda discriminator). */
  readonly ordinal: number;
  readonly accessors: readonly ElemKind[];
  readonly capturesCount: boolean;
  readonly capturesScale: boolean;
  readonly subGroupSize: number | undefined;
  readonly workGroupSize: readonly number[] | undefined;
  declaredAspects: readonly number[] | undefined;
  operator: number | undefined;
  /** The `__init` utility used for each accessor (undefined: the kernel stores the pointer itself). */
  readonly inits: (number | undefined)[];
  /** The operator() uses work-group local memory (an addrspace(3) global and a barrier). */
  readonly usesLocalMemory: boolean;
}

export interface PlannedFunction {
  readonly id: number;
  role: Role;
  readonly tu: number;
  level: number;
  kind: ElemKind;
  family: Family;
  returnsValue: boolean;
  name: string;
  /** Source-level name for debug info (`reduce_12`, `operator()`, ...). */
  displayName: string;
  readonly callees: number[];
  callers: number;
  /** TU whose part of the linked module holds the definition (shared ones: their first caller's). */
  homeTu: number;
  /** Function-level `!sycl_used_aspects` (as from `__uses_aspects__`). */
  usedAspect: number | undefined;
  /** Index into `featureStructs`: an alloca of a type listed in `!sycl_types_that_use_aspects`. */
  featureStruct: number | undefined;
  /** Calls a 64-bit atomic builtin that carries instruction-level `!sycl_used_aspects`. */
  atomic64: boolean;
  kernel: KernelPlan | undefined;
}

export interface FeatureStruct {
  readonly name: string;
  readonly aspect: number;
  /** An unlisted struct that contains it (so aspects must be inherited through containment). */
  readonly container: string;
}

/** Types clang would list in `!sycl_types_that_use_aspects`, besides `sycl::half`. */
export const featureStructs: readonly FeatureStruct[] = [
  { name: 'struct.app::DeviceImage', aspect: aspectValue.image, container: 'struct.app::ImageView' },
  { name: 'class.sycl::_V1::ext::oneapi::experimental::matrix::joint_matrix', aspect: aspectValue.intelMatrix, container: 'struct.app::Tile' },
  { name: 'struct.app::WideAccumulator', aspect: aspectValue.fp64, container: 'struct.app::Stats' },
];

const functionAspects: readonly number[] = [
  aspectValue.image,
  aspectValue.bindlessImages,
  aspectValue.mipmap,
  aspectValue.ballotGroup,
  aspectValue.intelMatrix,
  aspectValue.privateAlloca,
];

const words = ['compute', 'reduce', 'transform', 'accumulate', 'stencil', 'blend', 'normalize', 'scan', 'gather', 'scatter', 'update', 'apply', 'evaluate', 'filter', 'project', 'interp'];

const subGroupSizes = [8, 16, 32];
const workGroupSizes: readonly (readonly number[])[] = [[64], [128], [256], [16, 16], [8, 8, 4]];

export interface ModulePlan {
  readonly options: GeneratorOptions;
  readonly functions: readonly PlannedFunction[];
  /** Function ids in the order they are printed (TU by TU, as llvm-link leaves them). */
  readonly order: readonly number[];
}

export function tuMainName(tu: number): string {
  return `tu${tu}_main`;
}

function mangledSource(name: string): string {
  return `${name.length}${name}`;
}

function lambdaDiscriminator(ordinal: number): string {
  return ordinal === 0 ? '' : String(ordinal - 1);
}

/** Kernel name clang gives a lambda kernel submitted from `void tuN_main()`. */
export function kernelName(tu: number, ordinal: number): string {
  return `_ZTSZZ${mangledSource(`${tuMainName(tu)}`)}vENKUlRN4sycl3_V17handlerEE${lambdaDiscriminator(ordinal)}_clES2_EUlvE_`;
}

/** The kernel lambda's `operator() const`. */
export function operatorName(tu: number, ordinal: number): string {
  return `_ZZZ${mangledSource(tuMainName(tu))}vENKUlRN4sycl3_V17handlerEE${lambdaDiscriminator(ordinal)}_clES2_ENKUlvE_clEv`;
}

export function initName(kind: ElemKind): string {
  const e = kindInfo[kind].mangledStorage;
  return `_ZN4sycl3_V18accessorI${e}Li1ELNS0_6access4modeE1026ELNS2_6targetE2014ELNS2_11placeholderE0ENS0_3ext6oneapi22accessor_property_listIJEEEE6__initEPU3AS1${e}NS0_5rangeILi1EEESE_NS0_2idILi1EEE`;
}

function parameterMangling(kind: ElemKind, family: Family): string {
  const k = kindInfo[kind];
  return family === 'data' ? `PU3AS4${k.mangledStorage}l${k.mangledValue}` : `${k.mangledValue}${k.mangledValue}`;
}

function helperName(f: PlannedFunction, rng: Prng): string {
  const base = `${rng.pick(words)}_${f.id}`;
  f.displayName = f.role === 'external' ? `${base}_ext` : base;
  const params = parameterMangling(f.kind, f.family);
  switch (f.role) {
    case 'external':
      return `_Z${mangledSource(`${base}_ext`)}${params}`;
    case 'shared':
      return `_ZN4sycl3_V16detail${mangledSource(base)}E${params}`;
    default:
      return `_ZL${mangledSource(base)}${params}`;
  }
}

/** Splits `total` into `parts` nearly equal counts (the first ones get the remainder). */
function split(total: number, parts: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < parts; i++) out.push(Math.floor(((i + 1) * total) / parts) - Math.floor((i * total) / parts));
  return out;
}

export function planModule(options: GeneratorOptions): ModulePlan {
  const rng = new Prng(options.seed, 1);
  const { kernels: K, functions: F, tus: T } = options;
  const functions: PlannedFunction[] = [];

  const create = (role: Role, tu: number, level: number, kind: ElemKind): PlannedFunction => {
    const f: PlannedFunction = {
      id: functions.length,
      role,
      tu,
      level,
      kind,
      family: 'data',
      returnsValue: false,
      name: '',
      displayName: '',
      callees: [],
      callers: 0,
      homeTu: tu,
      usedAspect: undefined,
      featureStruct: undefined,
      atomic64: false,
      kernel: undefined,
    };
    functions.push(f);
    return f;
  };

  // Budget: every kernel gets an operator() while the function count allows it (the others look
  // like kernels whose lambda was inlined); what is left is split into helpers, SYCL_EXTERNAL
  // functions and linkonce_odr utilities.
  const operatorCount = Math.min(K, F - K);
  const rest = F - K - operatorCount;
  const externalCount = rest > 0 ? Math.round(rest * 0.06) : 0;
  const sharedCount = rest > 0 ? Math.min(rest - externalCount, Math.max(1, Math.round(rest * 0.12))) : 0;
  const helperCount = rest - externalCount - sharedCount;

  const kernelsPerTu = split(K, T);
  const helpersPerTu = split(helperCount, T);
  const externalsPerTu = split(externalCount, T);

  // Kernels and their operators.
  const kernelFns: PlannedFunction[] = [];
  let kernelIndex = 0;
  const byTu: PlannedFunction[][] = Array.from({ length: T }, () => []);
  for (let t = 0; t < T; t++) {
    for (let ordinal = 0; ordinal < kernelsPerTu[t]!; ordinal++, kernelIndex++) {
      const accessorCount = rng.chance(0.3) ? 2 : 1;
      const accessors: ElemKind[] = [];
      for (let a = 0; a < accessorCount; a++) accessors.push(rng.weighted(kindWeights));
      const hasOperator = Math.floor(((kernelIndex + 1) * operatorCount) / K) > Math.floor((kernelIndex * operatorCount) / K);
      const k = create('kernel', t, 0, accessors[0]!);
      k.name = kernelName(t, ordinal);
      k.displayName = k.name;
      k.kernel = {
        ordinal,
        accessors,
        capturesCount: rng.chance(0.5),
        capturesScale: rng.chance(0.3),
        subGroupSize: rng.chance(0.15) ? rng.pick(subGroupSizes) : undefined,
        workGroupSize: rng.chance(0.15) ? rng.pick(workGroupSizes) : undefined,
        declaredAspects: rng.chance(0.1) ? [] : undefined,
        operator: undefined,
        inits: accessors.map(() => undefined),
        usesLocalMemory: rng.chance(0.25),
      };
      kernelFns.push(k);
      if (hasOperator) {
        const op = create('operator', t, 1, accessors[0]!);
        op.name = operatorName(t, ordinal);
        op.displayName = 'operator()';
        op.family = 'data';
        k.kernel.operator = op.id;
        k.callees.push(op.id);
        op.callers++;
        byTu[t]!.push(op);
      }
    }
  }

  // Accessor __init utilities, one per element kind in use, while the shared budget lasts.
  const initByKind = new Map<ElemKind, PlannedFunction>();
  let genericShared = sharedCount;
  for (const k of kernelFns) {
    if (k.kernel!.operator === undefined) continue;
    k.kernel!.accessors.forEach((kind, a) => {
      let init = initByKind.get(kind);
      if (init === undefined && genericShared > 0) {
        genericShared--;
        init = create('init', k.tu, 1000, kind);
        init.name = initName(kind);
        init.displayName = '__init';
        init.homeTu = k.tu;
        initByKind.set(kind, init);
      }
      if (init !== undefined) {
        k.kernel!.inits[a] = init.id;
        if (!k.callees.includes(init.id)) k.callees.push(init.id);
        init.callers++;
      }
    });
  }

  // Helpers and SYCL_EXTERNAL functions, per TU, on geometrically growing levels.
  for (let t = 0; t < T; t++) {
    const helpers = helpersPerTu[t]!;
    const externals = externalsPerTu[t]!;
    const roots = Math.max(1, byTu[t]!.length + externals);
    const depth = helpers > 0 ? Math.min(6, 1 + Math.floor(Math.log2(1 + helpers / roots))) : 1;
    const levelOf = (j: number): number => {
      // Level l holds a share proportional to 2^l of the TU's helpers.
      const total = 2 ** depth - 1;
      const position = ((j + 0.5) / helpers) * total;
      return 2 + Math.min(depth - 1, Math.floor(Math.log2(position + 1)));
    };
    const created: PlannedFunction[] = [];
    for (let j = 0; j < helpers; j++) created.push(create('helper', t, levelOf(j), 'float'));
    for (let j = 0; j < externals; j++) created.push(create('external', t, 2 + rng.int(0, depth - 1), 'float'));
    created.sort((a, b) => a.level - b.level || a.id - b.id);
    byTu[t]!.push(...created);
  }

  // Parents inside the TU (makes every helper reachable), kinds, families, features.
  for (let t = 0; t < T; t++) {
    const list = byTu[t]!;
    const processedByLevel = new Map<number, PlannedFunction[]>();
    const processed: PlannedFunction[] = [];
    for (const f of list) {
      if (f.role === 'helper' || f.role === 'external') {
        let parent: PlannedFunction | undefined;
        if (f.role === 'helper' || rng.chance(0.3)) {
          const previous = processedByLevel.get(f.level - 1);
          const lower = previous && previous.length > 0 ? previous : processed.filter((p) => p.level < f.level);
          if (lower.length > 0) parent = rng.pick(lower);
        }
        if (parent !== undefined) {
          parent.callees.push(f.id);
          f.callers++;
          f.kind = rng.chance(0.7) ? parent.kind : rng.weighted(kindWeights);
        } else {
          // Nothing in this TU can call it: it is an entry point, i.e. SYCL_EXTERNAL.
          f.role = 'external';
          f.kind = rng.weighted(kindWeights);
        }
        assignFeatures(f, rng);
      }
      processed.push(f);
      let bucket = processedByLevel.get(f.level);
      if (bucket === undefined) processedByLevel.set(f.level, (bucket = []));
      bucket.push(f);
    }
  }

  // Generic shared (linkonce_odr) utilities at the bottom, each called from somewhere.
  const callers = functions.filter((f) => f.role === 'operator' || f.role === 'helper' || f.role === 'external');
  const shared: PlannedFunction[] = [];
  for (let j = 0; j < genericShared; j++) {
    const s = create('shared', 0, j < genericShared / 2 ? 100 : 101, rng.weighted(kindWeights));
    assignFeatures(s, rng);
    const upper = s.level === 101 ? shared.filter((p) => p.level === 100) : [];
    const parent = upper.length > 0 && rng.chance(0.5) ? rng.pick(upper) : callers.length > 0 ? rng.pick(callers) : undefined;
    if (parent !== undefined) {
      parent.callees.push(s.id);
      s.callers++;
    }
    shared.push(s);
  }

  // SYCL_EXTERNAL functions called from other TUs.
  const externals = functions.filter((f) => f.role === 'external').sort((a, b) => a.level - b.level || a.id - b.id);
  if (T > 1) {
    for (const e of externals) {
      if (!rng.chance(0.7)) continue;
      const u = (e.tu + rng.int(1, T - 1)) % T;
      // byTu lists are sorted by level, so the possible callers are a prefix.
      const end = firstDeeper(byTu[u]!, e.level - 1);
      if (end === 0) continue;
      const parent = byTu[u]![rng.int(0, end - 1)]!;
      if (!parent.callees.includes(e.id)) {
        parent.callees.push(e.id);
        e.callers++;
      }
    }
  }

  // Extra call edges to deeper functions: same-TU helpers, shared utilities, other TUs' externals.
  const sharedByLevel = shared.slice().sort((a, b) => a.level - b.level || a.id - b.id);
  for (const f of functions) {
    if (f.role === 'kernel' || f.role === 'init') continue;
    const extra = f.role === 'operator' ? rng.int(1, 2) : f.role === 'shared' ? rng.int(0, 1) : rng.int(0, 2);
    for (let n = 0; n < extra; n++) {
      const pool = rng.weighted<PlannedFunction[]>([
        [f.role === 'shared' ? [] : byTu[f.tu]!, 60],
        [sharedByLevel, 25],
        [f.role === 'shared' ? [] : externals, 15],
      ]);
      const start = firstDeeper(pool, f.level);
      if (start >= pool.length) continue;
      const callee = pool[rng.int(start, pool.length - 1)]!;
      if (callee.id === f.id || f.callees.includes(callee.id)) continue;
      f.callees.push(callee.id);
      callee.callers++;
    }
  }

  // Names (after roles are final) and the TU each shared utility is printed in.
  for (const f of functions) {
    if (f.name === '') f.name = helperName(f, rng);
  }
  const order = printOrder(functions, byTu, kernelFns, T);

  // Kernels that declare aspects (device_has) declare what they use, sometimes one more.
  const memo = new Map<number, Set<number>>();
  for (const k of kernelFns) {
    if (k.kernel!.declaredAspects === undefined) continue;
    const used = new Set(transitiveAspects(k.id, functions, memo));
    if (used.size === 0) {
      k.kernel!.declaredAspects = undefined;
      continue;
    }
    if (rng.chance(0.2)) used.add(aspectValue.fp64);
    k.kernel!.declaredAspects = [...used].sort((a, b) => a - b);
  }
  return { options, functions, order };
}

function assignFeatures(f: PlannedFunction, rng: Prng): void {
  f.family = rng.chance(0.3) ? 'scalar' : 'data';
  f.returnsValue = f.family === 'scalar' || rng.chance(0.5);
  if (rng.chance(0.02)) f.usedAspect = rng.pick(functionAspects);
  if (rng.chance(0.03)) f.featureStruct = rng.int(0, featureStructs.length - 1);
  f.atomic64 = f.kind === 'i64' && f.family === 'data' && rng.chance(0.4);
}

/** Index of the first function in a level-sorted list whose level is greater than `level`. */
function firstDeeper(sorted: readonly PlannedFunction[], level: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.level <= level) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Aspects a function uses by itself, as far as the generator decides them. */
export function directAspects(f: PlannedFunction): number[] {
  const out = new Set<number>(kindInfo[f.kind].aspects);
  if (f.kernel !== undefined) for (const a of f.kernel.accessors) for (const x of kindInfo[a].aspects) out.add(x);
  if (f.usedAspect !== undefined) out.add(f.usedAspect);
  if (f.featureStruct !== undefined) out.add(featureStructs[f.featureStruct]!.aspect);
  if (f.atomic64) out.add(aspectValue.atomic64);
  return [...out];
}

/** Union of the direct aspects of everything reachable from `id` (the graph is a DAG). */
export function transitiveAspects(id: number, functions: readonly PlannedFunction[], memo: Map<number, Set<number>>): Set<number> {
  const known = memo.get(id);
  if (known !== undefined) return known;
  const f = functions[id]!;
  const out = new Set(directAspects(f));
  for (const c of f.callees) for (const a of transitiveAspects(c, functions, memo)) out.add(a);
  memo.set(id, out);
  return out;
}

function printOrder(functions: PlannedFunction[], byTu: PlannedFunction[][], kernels: PlannedFunction[], tus: number): number[] {
  // A shared utility is printed with the first TU (in link order) that calls it.
  const firstCallerTu = new Map<number, number>();
  const visitTu = (tu: number, f: PlannedFunction): void => {
    for (const c of f.callees) {
      const callee = functions[c]!;
      if ((callee.role === 'shared' || callee.role === 'init') && !firstCallerTu.has(c)) {
        firstCallerTu.set(c, tu);
        visitTu(tu, callee);
      }
    }
  };
  for (let t = 0; t < tus; t++) {
    for (const k of kernels) if (k.tu === t) visitTu(t, k);
    for (const f of byTu[t]!) visitTu(t, f);
  }
  for (const f of functions) {
    if (f.role === 'shared' || f.role === 'init') f.homeTu = firstCallerTu.get(f.id) ?? 0;
  }
  const order: number[] = [];
  for (let t = 0; t < tus; t++) {
    for (const k of kernels) {
      if (k.tu !== t) continue;
      order.push(k.id);
      if (k.kernel!.operator !== undefined) order.push(k.kernel!.operator);
    }
    for (const f of byTu[t]!) if (f.role !== 'operator') order.push(f.id);
    for (const f of functions) if ((f.role === 'shared' || f.role === 'init') && f.homeTu === t) order.push(f.id);
  }
  return order;
}

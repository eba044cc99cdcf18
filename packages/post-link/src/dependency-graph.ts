/**
 * The "what must come along" graph of a module (reference §5.4): an edge A → B means that an image
 * holding A needs B. Edges come from
 * - any use of a global value inside a function body (calls, loads, stores of function addresses,
 *   casts, phis…), looking through constant expressions and aliases;
 * - any use inside a global variable's initializer;
 * - indirect calls: a function with a `call` through a non-constant callee of function type S
 *   depends on every non-kernel `"referenced-indirectly"` function whose type is exactly S.
 *
 * Metadata references are not edges (LLVM's use lists do not contain them). The graph keeps
 * declarations as targets so that images know which declarations they still reference.
 */
import { CallInst, type Constant, type GlobalValue, type IRFunction, type Module, type Value } from '@syclkit/ir';
import { isKernel } from './entry-points.js';

export interface DependencyGraphOptions {
  /**
   * Call operands the split must not follow: returns true for an operand index of a call whose
   * value should not create an edge (device_if: the action pointer of a conditional caller).
   */
  readonly ignoreCallOperand?: (call: CallInst, operandIndex: number) => boolean;
  /**
   * Functions an image never pulls in (dynamic linking, `-allow-device-image-dependencies`:
   * importable functions stay declarations and are linked at run time).
   */
  readonly isImported?: (fn: IRFunction) => boolean;
}

export class DependencyGraph {
  readonly #edges = new Map<GlobalValue, readonly GlobalValue[]>();
  /** Global variables every image starts with: the non-discardable ones (`@llvm.used` aside). */
  readonly roots: readonly GlobalValue[];
  readonly #isImported: ((fn: IRFunction) => boolean) | undefined;
  /** Globals seen only through ignored call operands so far (device_if actions); see `onlyIgnored`. */
  readonly #ignoredTargets = new Set<GlobalValue>();
  readonly #followedTargets = new Set<GlobalValue>();

  /**
   * Whether `gv` is referenced through ignored call operands (device_if action pointers) and
   * nowhere else: such a global is never an image root, even when its linkage would make it one.
   */
  onlyIgnored(gv: GlobalValue): boolean {
    return this.#ignoredTargets.has(gv) && !this.#followedTargets.has(gv);
  }

  /** Whether images leave `fn` to be imported at run time (they still reference it). */
  isImported(fn: IRFunction): boolean {
    return this.#isImported !== undefined && this.#isImported(fn);
  }
  readonly #constantRefs = new Map<Constant, readonly GlobalValue[]>();

  constructor(
    readonly module: Module,
    options: DependencyGraphOptions = {},
  ) {
    this.#isImported = options.isImported;
    const byType = new Map<unknown, IRFunction[]>();
    for (const fn of module.functions) {
      if (isKernel(fn) || !fn.attributes.fn.hasString('referenced-indirectly')) continue;
      const list = byType.get(fn.functionType);
      if (list === undefined) byType.set(fn.functionType, [fn]);
      else list.push(fn);
    }
    for (const fn of module.functions) {
      if (fn.isDeclaration) continue;
      const deps = new Set<GlobalValue>();
      const addValue = (v: Value): void => {
        switch (v.vk) {
          case 'function':
          case 'global':
            deps.add(v);
            return;
          case 'alias':
          case 'ifunc':
          case 'expr':
          case 'array':
          case 'struct':
          case 'vector':
          case 'blockaddress':
          case 'dso_local_equivalent':
          case 'no_cfi':
            for (const g of this.constantRefs(v)) deps.add(g);
            return;
          default:
            return;
        }
      };
      if (fn.personality) addValue(fn.personality);
      if (fn.prefix) addValue(fn.prefix);
      if (fn.prologue) addValue(fn.prologue);
      for (const block of fn.blocks) {
        for (const inst of block.instructions) {
          const ops = inst.operands;
          if (inst instanceof CallInst) {
            for (let i = 0; i < ops.length; i++) {
              if (options.ignoreCallOperand?.(inst, i)) {
                const op = ops[i]!;
                if (op.vk === 'function' || op.vk === 'global') this.#ignoredTargets.add(op);
                continue;
              }
              addValue(ops[i]!);
            }
            for (const bundle of inst.bundles) for (const v of bundle.inputs) addValue(v);
            const callee = ops[0]!;
            if (inst.opcode === 'call' && isIndirectCallee(callee)) {
              for (const target of byType.get(inst.functionType) ?? []) deps.add(target);
            }
          } else {
            for (let i = 0; i < ops.length; i++) addValue(ops[i]!);
          }
        }
      }
      deps.delete(fn);
      for (const d of deps) this.#followedTargets.add(d);
      this.#edges.set(fn, [...deps]);
    }
    this.roots = module.globals.filter((gv) => !gv.isDiscardableIfUnused() && !isDroppedGlobal(gv));
    for (const gv of module.globals) {
      if (gv.initializer === undefined) continue;
      const refs = this.constantRefs(gv.initializer).filter((g) => g !== gv);
      for (const r of refs) this.#followedTargets.add(r);
      if (refs.length > 0) this.#edges.set(gv, refs);
    }
  }

  /** What `gv` needs directly (functions, including declarations, and global variables). */
  dependencies(gv: GlobalValue): readonly GlobalValue[] {
    return this.#edges.get(gv) ?? EMPTY;
  }

  /** Functions and global variables a constant refers to, looking through expressions and aliases. */
  constantRefs(c: Constant): readonly GlobalValue[] {
    const cached = this.#constantRefs.get(c);
    if (cached !== undefined) return cached;
    this.#constantRefs.set(c, EMPTY); // cycles through aliases end here
    const out = new Set<GlobalValue>();
    const visit = (v: Value): void => {
      switch (v.vk) {
        case 'function':
        case 'global':
          out.add(v);
          return;
        case 'alias':
          for (const g of this.constantRefs(v.aliasee)) out.add(g);
          return;
        case 'ifunc':
          for (const g of this.constantRefs(v.resolver)) out.add(g);
          return;
        case 'expr':
          for (const op of v.operands) visit(op);
          return;
        case 'array':
        case 'vector':
          for (const op of v.elements) visit(op);
          return;
        case 'struct':
          for (const op of v.fields) visit(op);
          return;
        case 'blockaddress':
          visit(v.fn);
          return;
        case 'dso_local_equivalent':
        case 'no_cfi':
          visit(v.global);
          return;
        default:
          return;
      }
    };
    visit(c);
    const result = out.size === 0 ? EMPTY : [...out];
    this.#constantRefs.set(c, result);
    return result;
  }
}

const EMPTY: readonly GlobalValue[] = Object.freeze([]);

/**
 * `@llvm.used` only keeps kernels alive through the front end's pipeline; sycl-post-link removes
 * it before splitting (otherwise every image would pull in every kernel).
 */
export function isDroppedGlobal(gv: GlobalValue): boolean {
  return gv.vk === 'global' && gv.name === 'llvm.used';
}

/** A callee that is neither a function nor any other constant (LLVM `isIndirectCall`). */
function isIndirectCallee(callee: Value): boolean {
  switch (callee.vk) {
    case 'instruction':
    case 'argument':
      return true;
    default:
      return false;
  }
}

/**
 * The globals an image needs (reference §5.4): the entry points and every non-discardable global
 * variable, then everything they depend on. Declarations are not followed (they have no body);
 * global variables are always added; a function is added only if `includeFunction` accepts it.
 * Returned in discovery order.
 */
export function collectImageGlobals(
  graph: DependencyGraph,
  entries: readonly IRFunction[],
  includeFunction?: (fn: IRFunction) => boolean,
  roots: readonly GlobalValue[] = graph.roots,
): Set<GlobalValue> {
  const set = new Set<GlobalValue>(entries);
  for (const gv of roots) set.add(gv);
  for (const obj of set) {
    for (const dep of graph.dependencies(obj)) {
      if (set.has(dep)) continue;
      if (dep.vk === 'function') {
        if (dep.isDeclaration || graph.isImported(dep)) continue;
        if (includeFunction !== undefined && !includeFunction(dep)) continue;
      }
      set.add(dep);
    }
  }
  return set;
}

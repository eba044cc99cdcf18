/**
 * The "what must come along" graph of a module (reference §5.4): an edge A → B means that an image
 * holding A needs B. Edges come from
 * - any use of a global value inside a function body (calls, loads, stores of function addresses,
 *   casts, phis…), looking through constant expressions and aliases;
 * - any use inside a global variable's initializer;
 * - indirect calls: a function with a `call` through a non-constant callee of function type S
 *   depends on every non-kernel `"referenced-indirectly"` function whose type is exactly S.
 *
 * The references come from `@syclkit/ir`'s `forEachReferenceOf` walk, so metadata references are
 * not edges (LLVM's use lists do not contain them). The graph keeps declarations as targets so
 * that images know which declarations they still reference.
 */
import {
  CallInst,
  ConstantGlobals,
  NOT_AN_OPERAND,
  forEachReferenceOf,
  type Constant,
  type GlobalValue,
  type IRFunction,
  type Module,
  type ReferenceHolder,
  type Value,
} from '@syclkit/ir';
import { SyclAttribute, isKernel } from '@syclkit/sycl-conventions';

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
  readonly #inConstants = new ConstantGlobals();

  constructor(
    readonly module: Module,
    options: DependencyGraphOptions = {},
  ) {
    this.#isImported = options.isImported;
    const byType = new Map<unknown, IRFunction[]>();
    for (const fn of module.functions) {
      if (isKernel(fn) || !fn.attributes.fn.hasString(SyclAttribute.referencedIndirectly)) continue;
      const list = byType.get(fn.functionType);
      if (list === undefined) byType.set(fn.functionType, [fn]);
      else list.push(fn);
    }
    for (const fn of module.functions) {
      if (fn.isDeclaration) continue;
      const deps = new Set<GlobalValue>();
      // An indirect call depends on its candidate callees, added after the call's own operands.
      let candidates: readonly IRFunction[] | undefined;
      let lastHolder: ReferenceHolder | undefined;
      let call: CallInst | undefined;
      forEachReferenceOf(fn, (value, holder, operand) => {
        if (holder !== lastHolder) {
          if (candidates !== undefined) for (const target of candidates) deps.add(target);
          candidates = undefined;
          lastHolder = holder;
          call = holder instanceof CallInst ? holder : undefined;
        }
        if (call !== undefined && operand !== NOT_AN_OPERAND) {
          if (operand === 0 && call.opcode === 'call' && isIndirectCallee(value)) candidates = byType.get(call.functionType);
          if (options.ignoreCallOperand?.(call, operand)) {
            if (value.vk === 'function' || value.vk === 'global') this.#ignoredTargets.add(value);
            return;
          }
        }
        switch (value.vk) {
          case 'function':
          case 'global':
            deps.add(value);
            return;
          case 'instruction':
          case 'argument':
          case 'block':
            return;
          default:
            for (const g of this.refsOf(value)) deps.add(g);
        }
      });
      if (candidates !== undefined) for (const target of candidates) deps.add(target);
      deps.delete(fn);
      // Only ignored operands make `onlyIgnored` ask what else refers to a global.
      if (options.ignoreCallOperand !== undefined) for (const d of deps) this.#followedTargets.add(d);
      this.#edges.set(fn, deps.size === 0 ? EMPTY : [...deps]);
    }
    this.roots = module.globals.filter((gv) => !gv.isDiscardableIfUnused() && !isDroppedGlobal(gv));
    for (const gv of module.globals) {
      if (gv.initializer === undefined) continue;
      const refs = this.constantRefs(gv.initializer).filter((g) => g !== gv);
      if (options.ignoreCallOperand !== undefined) for (const r of refs) this.#followedTargets.add(r);
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
    for (const g of this.#inConstants.of(c)) {
      if (g.vk === 'alias') for (const r of this.constantRefs(g.aliasee)) out.add(r);
      else if (g.vk === 'ifunc') for (const r of this.constantRefs(g.resolver)) out.add(r);
      else out.add(g);
    }
    const result = out.size === 0 ? EMPTY : [...out];
    this.#constantRefs.set(c, result);
    return result;
  }

  /** {@link constantRefs} of any value (nothing for instructions, arguments and other values that mention no global). */
  private refsOf(value: Value): readonly GlobalValue[] {
    return this.#inConstants.of(value).length === 0 ? EMPTY : this.constantRefs(value as Constant);
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

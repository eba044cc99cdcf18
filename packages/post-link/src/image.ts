/**
 * Building one device image from the input module (reference §5.5), the way `extractSubModule`
 * plus `cleanup` do, without copying function bodies:
 *
 * - the globals chosen for the image keep their definitions; functions of the input that the image
 *   references but does not define become external declarations (no comdat, metadata, personality);
 * - GlobalDCE: definitions not reachable from the image's non-discardable definitions (or its entry
 *   points) are dropped, a live comdat keeps all its members;
 * - declarations nothing references are dropped (StripDeadPrototypes);
 * - metadata referring to globals the image lacks gets `null` there, `spirv.ExecutionMode` entries
 *   for absent kernels and `sycl_registered_kernels` entries for absent functions are removed.
 *
 * The image module shares every unchanged global object (and its body) with the input: it is a
 * read-only view. Clone it before running passes over it.
 */
import {
  cloneModuleWithMap,
  declarationOf,
  GlobalVariable,
  IRFunction,
  Module,
  type Comdat,
  type GlobalValue,
  type MDNode,
} from '@syclkit/ir';
import { isDroppedGlobal, type DependencyGraph } from './dependency-graph.js';
import { GlobalRefIndex, MetadataPruner } from './metadata-prune.js';
import { stringOperand, tupleOperands } from './sycl-metadata.js';
import { SyclAttribute } from '@syclkit/sycl-conventions';

/** A built image: the shared view, and a way to get an independent, changeable copy. */
export interface BuiltImage {
  readonly module: Module;
  readonly materialize: () => Module;
}

export interface BuildOptions {
  /** Keep the input's non-discardable aliases and ifuncs (the no-split copy keeps the module whole). */
  readonly keepAliases?: boolean;
  /**
   * `indirectly-callable` (virtual) functions: `externalize` gives their definitions external
   * linkage (images that define a virtual-function set), `declare` turns them into declarations
   * without comdat (every other image), `keep` leaves them alone.
   */
  readonly virtualFunctions?: 'externalize' | 'declare' | 'keep';
  /**
   * Dynamic linking (`-allow-device-image-dependencies`): the InternalizePass upstream runs on
   * every image. Function definitions for which this returns false (upstream: everything but
   * kernels and importable functions) get internal linkage, so that images linked together at
   * run time do not define the same symbol twice; a comdat with a preserved member keeps all its
   * members external, a comdat left with one member is dropped. Internalized functions no longer
   * keep themselves alive (GlobalDCE runs after the internalization).
   */
  readonly preserve?: (fn: IRFunction) => boolean;
}

/** Per-input-module state shared by all images of a split. */
export class ImageFactory {
  readonly index = new GlobalRefIndex();
  readonly #declarations = new Map<GlobalValue, GlobalValue>();
  readonly #comdatMembers = new Map<Comdat, GlobalValue[]>();
  readonly #borrowed = new Set<GlobalValue>();
  readonly #position = new Map<GlobalValue, number>();
  /** The input's lists when positions were taken (`#position` indexes them). */
  readonly #globalList: readonly GlobalVariable[];
  readonly #functionList: readonly IRFunction[];

  constructor(
    readonly source: Module,
    readonly graph: DependencyGraph,
  ) {
    source.globals.forEach((gv, i) => this.#position.set(gv, i));
    source.functions.forEach((fn, i) => this.#position.set(fn, i));
    this.#globalList = [...source.globals];
    this.#functionList = [...source.functions];
    for (const gv of [...source.functions, ...source.globals]) {
      if (gv.comdat === undefined || gv.isDeclaration) continue;
      const list = this.#comdatMembers.get(gv.comdat);
      if (list === undefined) this.#comdatMembers.set(gv.comdat, [gv]);
      else list.push(gv);
    }
  }

  /**
   * Builds the image that defines `defined` (functions and variables of the input). `roots` stay
   * alive whatever their linkage (the image's entry points).
   */
  build(
    defined: ReadonlySet<GlobalValue>,
    roots: readonly GlobalValue[],
    overrides?: ReadonlyMap<GlobalValue, GlobalValue>,
    options: BuildOptions = {},
  ): BuiltImage {
    this.releaseBorrowed();
    const src = this.source;
    const vf = options.virtualFunctions ?? 'keep';
    const isVirtual = (gv: GlobalValue): boolean => gv.vk === 'function' && gv.attributes.fn.hasString(SyclAttribute.indirectlyCallable);
    const isDefined = (gv: GlobalValue): boolean =>
      defined.has(gv) && !gv.isDeclaration && !(vf === 'declare' && isVirtual(gv)) && !isDroppedGlobal(gv);
    const externalized = new Map<GlobalValue, GlobalValue>();
    if (vf === 'externalize') {
      for (const gv of defined) {
        if (gv.vk !== 'function' || gv.isDeclaration || !isVirtual(gv) || gv.linkage === 'external') continue;
        const copy = shallowFunctionCopy(gv, null);
        copy.linkage = 'external';
        externalized.set(gv, copy);
      }
    }
    const internalized = options.preserve === undefined ? new Set<GlobalValue>() : this.internalizedIn(defined, isDefined, options.preserve);
    // A device_if action referenced only through conditional calls is never a root: the main image
    // must not keep it (its definition goes to the add-on images).
    const isRoot = (gv: GlobalValue): boolean =>
      (!gv.isDiscardableIfUnused() || externalized.has(gv)) && !this.graph.onlyIgnored(gv) && !internalized.has(gv);

    // GlobalDCE over the image's definitions.
    const live = new Set<GlobalValue>();
    const work: GlobalValue[] = [];
    const mark = (gv: GlobalValue): void => {
      if (live.has(gv)) return;
      live.add(gv);
      work.push(gv);
    };
    for (const gv of roots) if (isDefined(gv)) mark(gv);
    for (const gv of defined) if (isDefined(gv) && isRoot(gv)) mark(gv);
    const referenced = new Set<GlobalValue>();
    const keptAliases = options.keepAliases ? [...src.aliases, ...src.ifuncs].filter((a) => !a.isDiscardableIfUnused()) : [];
    for (const a of keptAliases) {
      for (const dep of this.graph.constantRefs(a.vk === 'alias' ? a.aliasee : a.resolver)) {
        if (isDefined(dep)) mark(dep);
        else referenced.add(dep);
      }
    }
    while (work.length > 0) {
      const gv = work.pop()!;
      if ((gv.vk === 'function' || gv.vk === 'global') && gv.comdat !== undefined) {
        for (const member of this.#comdatMembers.get(gv.comdat) ?? []) if (isDefined(member)) mark(member);
      }
      for (const dep of this.graph.dependencies(gv)) {
        if (isDefined(dep)) mark(dep);
        else referenced.add(dep);
      }
    }

    const image = new Module(src.id, src.context);
    image.sourceFilename = src.sourceFilename;
    image.dataLayout = src.dataLayout;
    image.triple = src.triple;
    image.inlineAsm = [...src.inlineAsm];
    image.typedPointers = src.typedPointers;
    const present = new Set<GlobalValue>();
    const internalCopies = new Map<GlobalValue, GlobalValue>();
    for (const gv of internalized) {
      if (!live.has(gv) || gv.vk !== 'function') continue;
      internalCopies.set(gv, internalize(shallowFunctionCopy(gv, null), this.#internalizedComdats.get(gv)));
    }
    const pick = (gv: GlobalValue): GlobalValue | undefined => {
      if (live.has(gv)) return overrides?.get(gv) ?? externalized.get(gv) ?? internalCopies.get(gv) ?? gv;
      if (referenced.has(gv)) return gv.isDeclaration ? gv : this.declarationOf(gv);
      return undefined;
    };
    // The image's members in input order, without walking the whole input per image.
    const { globals, functions } = this.inInputOrder(live, referenced);
    for (const gv of globals) {
      if (isDroppedGlobal(gv)) continue;
      const chosen = pick(gv)!;
      present.add(gv);
      image.addGlobalVariable(chosen as GlobalVariable);
      if (chosen === gv) this.#borrowed.add(gv);
    }
    for (const gv of functions) {
      const chosen = pick(gv)!;
      present.add(gv);
      image.addFunction(chosen as IRFunction);
      if (chosen === gv) this.#borrowed.add(gv);
    }
    for (const a of keptAliases) {
      present.add(a);
      if (a.vk === 'alias') image.addAlias(a);
      else image.addIFunc(a);
      this.#borrowed.add(a);
    }

    const pruner = new MetadataPruner(src, this.index, (gv) => present.has(gv));
    for (const [name, operands] of src.namedMetadata) {
      let ops: MDNode[];
      if (name === 'spirv.ExecutionMode') {
        // One entry per kernel: only those of the image's functions are looked at (not every
        // kernel's per image); an entry whose function is missing would be dropped anyway.
        ops = this.executionModesOf(operands, present).map((op) => pruner.rewriteNode(op));
        ops = ops.filter((op) => op.mk !== 'tuple' || op.operands[0] !== null);
      } else {
        ops = this.anyRefersToGlobals(operands) ? operands.map((op) => pruner.rewriteNode(op)) : operands.slice();
        if (name === 'sycl_registered_kernels') ops = ops.map((op) => this.pruneRegisteredKernels(op, image.functions.map((fn) => fn.name)));
      }
      image.setNamedMetadata(name, ops);
    }
    this.pruneAttachments(image, pruner);
    const materialize = (): Module => this.materialize(present, live, externalized, internalCopies);
    return { module: image, materialize };
  }

  /**
   * Whether any node of a list (named-metadata operands, attachments) may refer to a global,
   * remembered per list: most lists of the input refer to none, and every image would look at
   * each of their nodes again. A list changed in place since (its length) is looked at again.
   */
  private anyRefersToGlobals(list: readonly (MDNode | { readonly node: MDNode })[]): boolean {
    const known = this.#listRefs.get(list);
    if (known !== undefined && known.length === list.length) return known.refers;
    let refers = false;
    for (const item of list) {
      if (this.index.refersToGlobals('mk' in item ? item : item.node)) {
        refers = true;
        break;
      }
    }
    this.#listRefs.set(list, { length: list.length, refers });
    return refers;
  }

  readonly #listRefs = new WeakMap<object, { readonly length: number; readonly refers: boolean }>();

  /** What each internalized function does with its comdat: keep it, or drop it (one member). */
  readonly #internalizedComdats = new Map<GlobalValue, 'keep' | 'drop'>();

  /**
   * The function definitions of an image the InternalizePass would make internal: not preserved,
   * not already local, and not in a comdat that has a preserved member.
   */
  private internalizedIn(defined: ReadonlySet<GlobalValue>, isDefined: (gv: GlobalValue) => boolean, preserve: (fn: IRFunction) => boolean): Set<GlobalValue> {
    const members = new Map<Comdat, GlobalValue[]>();
    for (const gv of defined) {
      if (!isDefined(gv) || (gv.vk !== 'function' && gv.vk !== 'global') || gv.comdat === undefined) continue;
      const list = members.get(gv.comdat);
      if (list === undefined) members.set(gv.comdat, [gv]);
      else list.push(gv);
    }
    // Upstream preserves every global variable, so a comdat holding one stays external.
    const externalComdat = (comdat: Comdat): boolean =>
      (members.get(comdat) ?? []).some((gv) => gv.vk !== 'function' || preserve(gv) || gv.hasLocalLinkage());
    const out = new Set<GlobalValue>();
    for (const gv of defined) {
      if (gv.vk !== 'function' || !isDefined(gv) || gv.hasLocalLinkage() || preserve(gv)) continue;
      if (gv.comdat !== undefined) {
        if (externalComdat(gv.comdat)) continue;
        this.#internalizedComdats.set(gv, (members.get(gv.comdat)?.length ?? 0) <= 1 ? 'drop' : 'keep');
      }
      out.add(gv);
    }
    return out;
  }

  /**
   * An independent copy of an image (its own globals and bodies) that may be changed freely: the
   * same members, definitions and linkage as the view, built by cloning from the input.
   */
  private materialize(
    present: ReadonlySet<GlobalValue>,
    live: ReadonlySet<GlobalValue>,
    externalized: ReadonlyMap<GlobalValue, GlobalValue>,
    internalized: ReadonlyMap<GlobalValue, GlobalValue>,
  ): Module {
    this.releaseBorrowed();
    const src = this.source;
    // Only the image's members are looked at (source order within each kind), not the whole input.
    const members: GlobalValue[] = [...present].filter((gv) => gv.vk === 'global' || gv.vk === 'function').sort((a, b) => this.position(a) - this.position(b));
    for (const list of [src.aliases, src.ifuncs]) for (const a of list) if (present.has(a)) members.push(a);
    const names = members.filter((gv) => gv.vk === 'function').map((fn) => fn.name);
    const { module, map } = cloneModuleWithMap(src, {
      keep: (gv) => present.has(gv),
      bodies: (fn) => live.has(fn),
      members,
      namedMetadata: (name, ops) =>
        name === 'spirv.ExecutionMode' ? this.executionModesOf(ops, present) : name === 'sycl_registered_kernels' ? ops.map((op) => this.pruneRegisteredKernels(op, names)) : ops,
    });
    for (const [original] of externalized) {
      const copy = map.get(original);
      if (copy !== undefined) copy.linkage = 'external';
    }
    for (const [original] of internalized) {
      const copy = map.get(original);
      if (copy !== undefined && copy.vk === 'function') internalize(copy, this.#internalizedComdats.get(original));
    }
    const modes = module.getNamedMetadata('spirv.ExecutionMode');
    if (modes !== undefined) module.setNamedMetadata('spirv.ExecutionMode', modes.filter((op) => op.mk !== 'tuple' || op.operands[0] !== null));
    return module;
  }

  /** Index of a global in its list of the input module (variables and functions are kept apart). */
  private position(gv: GlobalValue): number {
    return this.#position.get(gv) ?? Number.MAX_SAFE_INTEGER;
  }

  /**
   * The variables and the functions of `first` and then `second`, each in input order: positions
   * sorted as numbers (no comparator), globals without one last in the order met.
   */
  private inInputOrder(first: Iterable<GlobalValue>, second: Iterable<GlobalValue>): { globals: GlobalVariable[]; functions: IRFunction[] } {
    const globalAt: number[] = [];
    const functionAt: number[] = [];
    const unplaced: GlobalValue[] = [];
    const place = (gv: GlobalValue): void => {
      if (gv.vk !== 'global' && gv.vk !== 'function') return;
      const at = this.#position.get(gv);
      if (at === undefined) unplaced.push(gv);
      else (gv.vk === 'global' ? globalAt : functionAt).push(at);
    };
    for (const gv of first) place(gv);
    for (const gv of second) place(gv);
    const globals: GlobalVariable[] = [];
    for (const at of Int32Array.from(globalAt).sort()) globals.push(this.#globalList[at]!);
    const functions: IRFunction[] = [];
    for (const at of Int32Array.from(functionAt).sort()) functions.push(this.#functionList[at]!);
    for (const gv of unplaced) {
      if (gv.vk === 'global') globals.push(gv);
      else if (gv.vk === 'function') functions.push(gv);
    }
    return { globals, functions };
  }

  /**
   * Shared globals are registered with the latest image; give them back to the input module
   * (called before each new image and once the split is over).
   */
  releaseBorrowed(): void {
    for (const gv of this.#borrowed) gv.parent = this.source;
    this.#borrowed.clear();
  }

  /** The external declaration standing for a definition the image does not hold (`@syclkit/ir`'s `declarationOf`, cached). */
  declarationOf(gv: GlobalValue): GlobalValue {
    let decl = this.#declarations.get(gv);
    if (decl !== undefined) return decl;
    decl = gv.vk === 'function' || gv.vk === 'global' ? declarationOf(gv) : gv;
    this.#declarations.set(gv, decl);
    return decl;
  }

  /** `spirv.ExecutionMode` entries by the function they start with (built once per split). */
  #executionModes: { readonly operands: readonly MDNode[]; readonly byFunction: Map<GlobalValue, number[]>; readonly others: readonly number[] } | undefined;

  /**
   * The `spirv.ExecutionMode` entries an image can keep, in input order: those of its functions,
   * and those not of the `!{ptr @f, ...}` form (left to the general rewrite). Linear in the image.
   */
  private executionModesOf(operands: readonly MDNode[], present: ReadonlySet<GlobalValue>): MDNode[] {
    let index = this.#executionModes;
    if (index === undefined || index.operands !== operands) {
      const byFunction = new Map<GlobalValue, number[]>();
      const others: number[] = [];
      operands.forEach((op, i) => {
        const first = op.mk === 'tuple' ? op.operands[0] : undefined;
        if (first == null || first.mk !== 'value' || first.value.vk !== 'function') {
          others.push(i);
          return;
        }
        const list = byFunction.get(first.value);
        if (list === undefined) byFunction.set(first.value, [i]);
        else list.push(i);
      });
      this.#executionModes = index = { operands, byFunction, others };
    }
    const picked = [...index.others];
    for (const gv of present) if (gv.vk === 'function') for (const i of index.byFunction.get(gv) ?? []) picked.push(i);
    return picked.sort((a, b) => a - b).map((i) => operands[i]!);
  }

  /** `sycl_registered_kernels` entries by mangled name, per node (built once per split). */
  readonly #registered = new Map<MDNode, { byName: Map<string, number[]>; others: readonly number[] }>();

  /**
   * `sycl_registered_kernels`: keep `!{!"name", !"mangled"}` entries whose function is in the
   * image (and malformed ones). Looks up the image's functions, not every entry, per image.
   */
  private pruneRegisteredKernels(op: MDNode, functionNames: readonly string[]): MDNode {
    if (op.mk !== 'tuple') return op;
    let index = this.#registered.get(op);
    if (index === undefined) {
      const byName = new Map<string, number[]>();
      const others: number[] = [];
      op.operands.forEach((entry, i) => {
        const mangled = entry === null || entry.mk !== 'tuple' || entry.operands.length !== 2 ? undefined : stringOperand(tupleOperands(entry)[1]);
        if (mangled === undefined) {
          others.push(i);
          return;
        }
        const list = byName.get(mangled);
        if (list === undefined) byName.set(mangled, [i]);
        else list.push(i);
      });
      this.#registered.set(op, (index = { byName, others }));
    }
    const kept = [...index.others];
    for (const name of new Set(functionNames)) for (const i of index.byName.get(name) ?? []) kept.push(i);
    if (kept.length === op.operands.length) return op;
    kept.sort((a, b) => a - b);
    return this.source.context.md.tuple(kept.map((i) => op.operands[i]!));
  }

  /** Attachments of image globals that mention missing globals: rebuilt on a shallow copy. */
  private pruneAttachments(image: Module, pruner: MetadataPruner): void {
    const fix = <T extends IRFunction | GlobalVariable>(list: T[], copy: (gv: T) => T): void => {
      for (let i = 0; i < list.length; i++) {
        const gv = list[i]!;
        if (gv.attachments.length === 0 || !this.anyRefersToGlobals(gv.attachments)) continue;
        const attachments = gv.attachments.map((a) => ({ kind: a.kind, node: pruner.rewriteNode(a.node) }));
        if (attachments.every((a, j) => a.node === gv.attachments[j]!.node)) continue;
        const clone = copy(gv);
        clone.attachments = attachments;
        list[i] = clone;
      }
    };
    fix(image.functions, (fn) => shallowFunctionCopy(fn, image));
    fix(image.globals, (gv) => {
      const v = Object.assign(Object.create(Object.getPrototypeOf(gv) as object) as GlobalVariable, gv);
      v.parent = image;
      return v;
    });
  }
}

/** Gives `fn` internal linkage as LLVM's `setLinkage` does (default visibility, dso_local implied). */
function internalize(fn: IRFunction, comdat: 'keep' | 'drop' | undefined): IRFunction {
  fn.linkage = 'internal';
  fn.visibility = 'default';
  fn.dsoLocal = true;
  if (comdat === 'drop') fn.comdat = undefined;
  return fn;
}

/** A function object sharing `fn`'s blocks and arguments (for per-image attribute or metadata changes). */
export function shallowFunctionCopy(fn: IRFunction, parent: Module | null): IRFunction {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(fn) as object) as IRFunction, fn);
  copy.attachments = [...fn.attachments];
  copy.parent = parent;
  return copy;
}

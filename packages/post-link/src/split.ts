/**
 * `splitModule(module, options)`: the device code split as a library. It plans the groups up
 * front (cheap) and then builds one image at a time, so a caller that writes each image before
 * asking for the next never holds more than one.
 */
import type { GlobalValue, IRFunction, Module, Type } from '@syclkit/ir';
import { collectImageGlobals, DependencyGraph, isDroppedGlobal, type DependencyGraphOptions } from './dependency-graph.js';
import { entryPoints, isEsimdFunction, isKernel, readAspectTable } from '@syclkit/sycl-conventions';
import { groupEntryPoints, type EntryGroup, type RequirementPolicy, type SplitMode } from './grouping.js';
import { ImageFactory, type BuiltImage } from './image.js';
import { canBeImported } from './properties.js';
import { functionFeatures, type FunctionFeatures } from './sycl-metadata.js';

export interface SplitOptions {
  /** `-split=`; default `none` (upstream's default without `-split`). */
  readonly mode?: SplitMode;
  /** `-ir-output-only`: `auto` then means one global group. */
  readonly irOutputOnly?: boolean;
  /** `-emit-only-kernels-as-entry-points`. */
  readonly emitOnlyKernelsAsEntryPoints?: boolean;
  /**
   * `upstream` (default): intel/llvm's grouping key, no requirement split without `-split`.
   * `design`: the OptionalDeviceFeatures.md rule in every mode but per kernel.
   */
  readonly policy?: RequirementPolicy;
  /** `-split-esimd`: SYCL and ESIMD entry points of a group go to two images (ESIMD first). */
  readonly splitEsimd?: boolean;
  /**
   * `-allow-device-image-dependencies`: importable functions (SYCL_EXTERNAL definitions and
   * declarations that are not builtins) are not pulled into images; they stay declarations, to be
   * linked at run time from the image that exports them. Every other function an image defines,
   * kernels aside, gets internal linkage (upstream's InternalizePass), so images linked together
   * never define one symbol twice.
   */
  readonly allowDeviceImageDependencies?: boolean;
  /** Extra control over the dependency graph (device_if: do not follow action pointers). */
  readonly graph?: DependencyGraphOptions;
  /** The features of a function of the module (default: read from its metadata; see the `aspect-facts` analysis). */
  readonly features?: (fn: IRFunction) => FunctionFeatures;
}

/** One device image. */
export interface SplitImage {
  /** The number used in file names (`_<id>`); both halves of an ESIMD split share it. */
  readonly id: number;
  /** The grouping key that made the image. */
  readonly key: string;
  /** The image (a view sharing unchanged globals with the input module). */
  readonly module: Module;
  /** The image's entry points, in module order (objects of `module`). */
  readonly entryPoints: readonly IRFunction[];
  /** All entry points are ESIMD functions (file suffix `_esimd`, `isEsimdImage`). */
  readonly esimd: boolean;
  /**
   * An independent copy of `module` (own globals and bodies) for changes such as rewriting calls;
   * its entry points are found by name.
   */
  materialize(): Module;
}

export interface SplitPlan {
  readonly groups: readonly EntryGroup[];
  /** More than one image will be produced (upstream `SplitOccurred`). */
  readonly splitOccurred: boolean;
  /** Whether entry-point extraction runs (false: the whole module is kept, cleaned up). */
  readonly extracts: boolean;
  /** Whether the images differ from the input by more than cleanup (upstream's `Modified`). */
  readonly modified: boolean;
  /**
   * Builds the images lazily, in output order; with `include`, only the images whose id it
   * accepts are built (the others are skipped without any work, for sharded runs).
   */
  images(include?: (id: number) => boolean): Generator<SplitImage, void, undefined>;
  /**
   * Builds one more image from the same input, for the given entry points and their dependencies
   * (device_if add-on images); `id` and `key` are the caller's.
   */
  imageFor(entries: readonly IRFunction[], id: number, key: string): SplitImage;
  /**
   * `-device-globals` check: names of `device_image_scope` device globals that functions of more
   * than one image use (intel/llvm reports the first as an error).
   */
  deviceImageScopeConflicts(): string[];
}

/** Plans the split; `plan.images()` builds the images one by one. */
export function planSplit(module: Module, options: SplitOptions = {}): SplitPlan {
  const mode = options.mode ?? 'none';
  const policy = options.policy ?? 'upstream';
  const entries = entryPoints(module, options);
  let shared: { graph: DependencyGraph; factory: ImageFactory } | undefined;
  const state = (): { graph: DependencyGraph; factory: ImageFactory } => {
    if (shared === undefined) {
      const graph = new DependencyGraph(module, {
        ...options.graph,
        ...(options.allowDeviceImageDependencies ? { isImported: canBeImported } : {}),
      });
      shared = { graph, factory: new ImageFactory(module, graph) };
    }
    return shared;
  };
  const groups = groupEntryPoints(module, entries, {
    mode,
    irOutputOnly: options.irOutputOnly ?? false,
    policy,
    ...(options.allowDeviceImageDependencies && policy === 'design' ? { unresolvedImports: unresolvedImportsOf(state().graph) } : {}),
    ...(options.features === undefined ? {} : { features: options.features }),
  });
  const hasEntries = groups.length > 1 || groups[0]!.entries.length > 0;
  // The design takes only what the entry points reach into an image, also without a split:
  // SPIR-V declares capabilities for the whole module, so an unused function would make the
  // image need what none of its kernels needs (see `designRoots`).
  const extracts = hasEntries && (mode !== 'none' || policy !== 'upstream');
  let esimdHalves = 0;
  if (options.splitEsimd) for (const g of groups) if (g.esimd === 'mixed') esimdHalves++;
  const splitOccurred = groups.length + esimdHalves > 1;
  return {
    groups,
    splitOccurred,
    extracts,
    modified: splitOccurred || module.globals.some(isDroppedGlobal),
    images: (include) => buildImages(module, groups, extracts, options, state(), include),
    deviceImageScopeConflicts: () => {
      const scoped = module.globals.filter((gv) => gv.attributes?.hasString('sycl-device-image-scope') && gv.attributes.hasString('sycl-device-global-size'));
      if (scoped.length === 0 || groups.length < 2) return [];
      const { graph } = state();
      const scopedSet = new Set<GlobalValue>(scoped);
      const owner = new Map<GlobalValue, number>();
      const conflicts = new Set<string>();
      groups.forEach((group, index) => {
        for (const member of collectImageGlobals(graph, group.entries)) {
          if (member.vk !== 'function') continue;
          for (const dep of graph.dependencies(member)) {
            if (!scopedSet.has(dep)) continue;
            const first = owner.get(dep);
            if (first === undefined) owner.set(dep, index);
            else if (first !== index) conflicts.add(dep.name);
          }
        }
      });
      return scoped.filter((gv) => conflicts.has(gv.name)).map((gv) => gv.name);
    },
    imageFor: (entries, id, key) => {
      const { graph, factory } = state();
      const roots = policy === 'design' ? designRoots(module, graph)(entries) : graph.roots;
      const built = factory.build(collectImageGlobals(graph, entries, undefined, roots), entries, undefined, { virtualFunctions: virtualFunctionMode(entries) });
      return image(id, key, built, entries, false);
    },
  };
}

function image(id: number, key: string, built: BuiltImage, entries: readonly IRFunction[], esimd: boolean): SplitImage {
  return { id, key, module: built.module, entryPoints: mapEntries(built.module, entries), esimd, materialize: built.materialize };
}

/** Splits `module`; the images come out in upstream order. */
export function splitModule(module: Module, options: SplitOptions = {}): Generator<SplitImage, void, undefined> {
  return planSplit(module, options).images();
}

/**
 * The importable functions the module only declares that each function reaches through the
 * functions it defines (sorted names; cached): what an image holding it imports from other
 * binaries, with requirements unknown until run time.
 */
function unresolvedImportsOf(graph: DependencyGraph): (fn: IRFunction) => readonly string[] {
  const cache = new Map<IRFunction, readonly string[]>();
  return (fn) => {
    let result = cache.get(fn);
    if (result === undefined) {
      const found = new Set<string>();
      const seen = new Set<GlobalValue>([fn]);
      const work: GlobalValue[] = [fn];
      while (work.length > 0) {
        for (const dep of graph.dependencies(work.pop()!)) {
          if (seen.has(dep)) continue;
          seen.add(dep);
          if (dep.vk === 'function' && dep.isDeclaration) {
            if (canBeImported(dep)) found.add(dep.name);
          } else {
            work.push(dep);
          }
        }
      }
      result = [...found].sort();
      cache.set(fn, result);
    }
    return result;
  };
}

/** What an image keeps external under dynamic linking: kernels and importable functions. */
export function preservedUnderDynamicLinking(fn: IRFunction): boolean {
  return isKernel(fn) || canBeImported(fn);
}

/** Whether a type holds a `double` (through arrays, vectors and structs): llvm-spirv then declares Float64. */
function holdsDouble(type: Type, seen = new Set<Type>()): boolean {
  if (type.kind === 'float') return type.fp === 'double';
  if (type.kind === 'pointer' || seen.has(type)) return false;
  seen.add(type);
  switch (type.kind) {
    case 'array':
    case 'vector':
      return holdsDouble(type.element, seen);
    case 'struct':
      return (type.elements ?? []).some((element) => holdsDouble(element, seen));
    default:
      return false;
  }
}

/**
 * The global variables every image of the design starts with: upstream puts every non-discardable
 * global into every image, but one holding a `double` makes a SPIR-V module declare Float64, and a
 * driver without fp64 then refuses the whole image, though none of its kernels uses fp64. Such a
 * global goes only into images whose entry points use or declare fp64 (and into those that use it).
 */
function designRoots(module: Module, graph: DependencyGraph): (entries: readonly IRFunction[]) => readonly GlobalValue[] {
  const withDouble = new Set(graph.roots.filter((gv) => gv.vk === 'global' && holdsDouble(gv.valueType)));
  if (withDouble.size === 0) return () => graph.roots;
  const fp64 = readAspectTable(module).valueOf('fp64') ?? 6;
  const without = graph.roots.filter((gv) => !withDouble.has(gv));
  return (entries) => {
    const usesFp64 = entries.some((fn) => {
      const f = functionFeatures(module, fn);
      return [...f.usedAspects, ...f.declaredAspects].some((a) => a.value === fp64);
    });
    return usesFp64 ? graph.roots : without;
  };
}

function* buildImages(
  module: Module,
  groups: readonly EntryGroup[],
  extracts: boolean,
  options: SplitOptions,
  { graph, factory }: { graph: DependencyGraph; factory: ImageFactory },
  include: (id: number) => boolean = () => true,
): Generator<SplitImage, void, undefined> {
  const dynamic = options.allowDeviceImageDependencies ? { preserve: preservedUnderDynamicLinking } : {};
  const rootsFor = (options.policy ?? 'upstream') === 'design' ? designRoots(module, graph) : () => graph.roots;
  try {
    if (!extracts) {
      if (!include(0)) return;
      const group = groups[0]!;
      const all = new Set<GlobalValue>([...module.globals, ...module.functions]);
      const built = factory.build(all, group.entries, undefined, { ...dynamic, keepAliases: true, virtualFunctions: virtualFunctionMode(group.entries) });
      yield image(0, group.key, built, group.entries, group.esimd === 'esimd');
      return;
    }
    let id = 0;
    for (const group of groups) {
      if (!include(id)) {
        id++;
        continue;
      }
      if (group.esimd === 'mixed' && options.splitEsimd) {
        const esimdEntries = group.entries.filter((fn) => isEsimdFunction(module, fn));
        const syclEntries = group.entries.filter((fn) => !isEsimdFunction(module, fn));
        const esimdSet = collectImageGlobals(graph, esimdEntries, undefined, rootsFor(esimdEntries));
        for (const fn of module.functions) if (!fn.isDeclaration && isEsimdFunction(module, fn)) esimdSet.add(fn);
        const esimdBuilt = factory.build(esimdSet, esimdEntries, undefined, { ...dynamic, virtualFunctions: virtualFunctionMode(esimdEntries) });
        yield image(id, group.key + '<ESIMD>', esimdBuilt, esimdEntries, true);
        const syclSet = collectImageGlobals(graph, syclEntries, (fn) => !isEsimdFunction(module, fn), rootsFor(syclEntries));
        const syclBuilt = factory.build(syclSet, syclEntries, undefined, { ...dynamic, virtualFunctions: virtualFunctionMode(syclEntries) });
        yield image(id, group.key + '<SYCL>', syclBuilt, syclEntries, false);
      } else {
        const built = factory.build(collectImageGlobals(graph, group.entries, undefined, rootsFor(group.entries)), group.entries, undefined, { ...dynamic, virtualFunctions: virtualFunctionMode(group.entries) });
        yield image(id, group.key, built, group.entries, group.esimd === 'esimd');
      }
      id++;
    }
  } finally {
    factory.releaseBorrowed();
  }
}

/** Images whose entry points include virtual functions define them; all others only declare them. */
function virtualFunctionMode(entries: readonly IRFunction[]): 'externalize' | 'declare' {
  return entries.some((fn) => fn.attributes.fn.hasString('indirectly-callable')) ? 'externalize' : 'declare';
}

function mapEntries(image: Module, entries: readonly IRFunction[]): IRFunction[] {
  const out: IRFunction[] = [];
  for (const fn of entries) {
    const mapped = image.getFunction(fn.name);
    if (mapped !== undefined && !mapped.isDeclaration) out.push(mapped);
  }
  return out;
}

/**
 * Analyses and the analysis manager (LLVM `AnalysisManager`).
 *
 * An analysis computes a result for one unit. The manager caches results per unit and per
 * analysis key, and drops them only when told what a pass preserved. Dependencies are tracked
 * automatically: when analysis B asks for A while computing, B is dropped whenever A is, on any
 * unit. Caches are keyed weakly by unit object, so a unit that is gone takes its results along.
 */
import { allAnalysesOn, type PreservedAnalyses } from './preserved.js';
import type { UnitKind } from './unit-kind.js';

/** Read access to analysis results, as given to passes and to analyses themselves. */
export interface AnalysisGetter {
  /** The cached result, computing (and caching) it first if needed. */
  getResult<U extends object, R>(analysis: Analysis<U, R>, unit: U): R;
  /** The cached result, or undefined without computing anything. */
  getCachedResult<U extends object, R>(analysis: Analysis<U, R>, unit: U): R | undefined;
}

export interface Analysis<U extends object, R> {
  /** Kebab-case key: what `PreservedAnalyses.preserve`, `require<...>` and traces use. */
  readonly name: string;
  readonly unit: UnitKind<U>;
  /** Sets the analysis belongs to besides `allAnalysesOn(unit.name)`, e.g. `cfg`. */
  readonly sets?: readonly string[];
  /** One line for `describe()` output. */
  readonly summary?: string;
  run(unit: U, analyses: AnalysisGetter): R;
}

const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Declares an analysis (checks the name; keeps `U` and `R` inferred). */
export function defineAnalysis<U extends object, R>(analysis: Analysis<U, R>): Analysis<U, R> {
  if (!KEBAB.test(analysis.name)) throw new TypeError(`analysis name '${analysis.name}' is not kebab-case`);
  return Object.freeze({ ...analysis });
}

export interface AnalysisEvent {
  readonly type: 'run' | 'invalidate';
  readonly analysis: string;
  readonly unit: object;
  readonly kind: UnitKind<object>;
}

interface Entry {
  readonly analysis: Analysis<object, unknown>;
  readonly unit: object;
  readonly result: unknown;
  readonly sets: readonly string[];
  /** Entries computed from this one; dropped with it. */
  dependents: Set<Entry> | undefined;
}

/** Who asks for a result: a pass or an analysis running on `unit` of `kind`. */
export interface Caller {
  readonly unit: object;
  readonly kind: UnitKind<object>;
}

/** Names of every kind nested (transitively) in a kind, through `subunits`. */
const innerKindsCache = new WeakMap<UnitKind<object>, ReadonlySet<string>>();

function innerKinds(kind: UnitKind<object>): ReadonlySet<string> {
  let inner = innerKindsCache.get(kind);
  if (inner !== undefined) return inner;
  const found = new Set<string>();
  const visit = (k: UnitKind<object>): void => {
    for (const sub of k.subunits ?? []) {
      if (found.has(sub.kind.name) || sub.kind.name === kind.name) continue;
      found.add(sub.kind.name);
      visit(sub.kind);
    }
  };
  visit(kind);
  inner = found;
  innerKindsCache.set(kind, inner);
  return inner;
}

interface Frame {
  readonly analysis: Analysis<object, unknown>;
  readonly unit: object;
  readonly uses: Entry[];
}

/** Internal hooks for the pass manager; the symbol is not exported from the package. */
export const INTERNAL: unique symbol = Symbol('pass-manager internal');

export interface AnalysisManagerInternals {
  /** Records `child` as a sub-unit of `parent` (only called when the child has cached state). */
  noteSubunit(parent: object, kind: string, child: object): void;
  /** `getResult` on behalf of a pass running on `caller` (so sub-units it touches are recorded). */
  getResult<U extends object, R>(caller: Caller, analysis: Analysis<U, R>, unit: U): R;
  getCachedResult<U extends object, R>(caller: Caller, analysis: Analysis<U, R>, unit: U): R | undefined;
  /** Whether the unit has cached results or recorded sub-units. */
  hasState(unit: object): boolean;
  observe(listener: (event: AnalysisEvent) => void): () => void;
}

export class AnalysisManager implements AnalysisGetter {
  #caches = new WeakMap<object, Map<string, Entry>>();
  #subunits = new WeakMap<object, Map<string, Set<object>>>();
  #computing: Frame[] = [];
  #observers = new Set<(event: AnalysisEvent) => void>();
  /** What analyses see: reading only, so an analysis cannot invalidate anything. */
  readonly #getter: AnalysisGetter = {
    getResult: (analysis, unit) => this.getResult(analysis, unit),
    getCachedResult: (analysis, unit) => this.getCachedResult(analysis, unit),
  };

  getResult<U extends object, R>(analysis: Analysis<U, R>, unit: U): R {
    return this.#getResult(analysis, unit, undefined);
  }

  #getResult<U extends object, R>(analysis: Analysis<U, R>, unit: U, caller: Caller | undefined): R {
    this.#relate(caller, analysis.unit as unknown as UnitKind<object>, unit);
    const cached = this.#lookup(analysis, unit);
    if (cached !== undefined) {
      this.#noteUse(cached);
      return cached.result as R;
    }
    const generic = analysis as unknown as Analysis<object, unknown>;
    for (const frame of this.#computing) {
      if (frame.unit === unit && frame.analysis.name === analysis.name) {
        const chain = [...this.#computing.map((f) => f.analysis.name), analysis.name].join(' -> ');
        throw new Error(`analysis cycle: ${chain}`);
      }
    }
    const frame: Frame = { analysis: generic, unit, uses: [] };
    this.#computing.push(frame);
    let result: R;
    try {
      result = analysis.run(unit, this.#getter);
    } finally {
      this.#computing.pop();
    }
    const entry: Entry = {
      analysis: generic,
      unit,
      result,
      sets: [allAnalysesOn(analysis.unit.name), ...(analysis.sets ?? [])],
      dependents: undefined,
    };
    let cache = this.#caches.get(unit);
    if (cache === undefined) this.#caches.set(unit, (cache = new Map()));
    cache.set(analysis.name, entry);
    for (const used of frame.uses) (used.dependents ??= new Set()).add(entry);
    this.#noteUse(entry);
    this.#emit('run', entry);
    return result;
  }

  getCachedResult<U extends object, R>(analysis: Analysis<U, R>, unit: U): R | undefined {
    return this.#getCachedResult(analysis, unit, undefined);
  }

  #getCachedResult<U extends object, R>(analysis: Analysis<U, R>, unit: U, caller: Caller | undefined): R | undefined {
    this.#relate(caller, analysis.unit as unknown as UnitKind<object>, unit);
    const cached = this.#lookup(analysis, unit);
    if (cached === undefined) return undefined;
    this.#noteUse(cached);
    return cached.result as R;
  }

  /**
   * Caches `result` as the result of `analysis` on `unit`, as if computed there: for a driver
   * that has it from elsewhere (what it means for this unit is the analysis's to say). It replaces
   * a cached result and is dropped, like any, by a pass that does not preserve it.
   */
  provide<U extends object, R>(analysis: Analysis<U, R>, unit: U, result: R): void {
    const known = this.#lookup(analysis, unit);
    if (known !== undefined) this.#drop(known);
    const generic = analysis as unknown as Analysis<object, unknown>;
    const entry: Entry = { analysis: generic, unit, result, sets: [allAnalysesOn(analysis.unit.name), ...(analysis.sets ?? [])], dependents: undefined };
    let cache = this.#caches.get(unit);
    if (cache === undefined) this.#caches.set(unit, (cache = new Map()));
    cache.set(analysis.name, entry);
    this.#emit('run', entry);
  }

  isCached(analysis: Analysis<object, unknown> | Analysis<never, unknown>, unit: object): boolean {
    return this.#caches.get(unit)?.get(analysis.name) !== undefined;
  }

  /**
   * Drops the results on `unit` that `preserved` does not keep, with everything computed from
   * them, then does the same on the sub-units adaptors recorded, unless `preserved` keeps all
   * analyses of their kind. Costs nothing for `PreservedAnalyses.all()`.
   */
  invalidate(unit: object, preserved: PreservedAnalyses): void {
    if (preserved.areAllPreserved()) return;
    this.#invalidateUnit(unit, preserved);
  }

  /** Drops every result (or those of one unit and its recorded sub-units). */
  clear(unit?: object): void {
    if (unit === undefined) {
      this.#caches = new WeakMap();
      this.#subunits = new WeakMap();
      return;
    }
    const cache = this.#caches.get(unit);
    if (cache !== undefined) for (const entry of [...cache.values()]) this.#drop(entry);
    const subunits = this.#subunits.get(unit);
    if (subunits !== undefined) for (const children of subunits.values()) for (const child of children) this.clear(child);
    this.#caches.delete(unit);
    this.#subunits.delete(unit);
  }

  readonly [INTERNAL]: AnalysisManagerInternals = {
    noteSubunit: (parent, kind, child) => {
      let byKind = this.#subunits.get(parent);
      if (byKind === undefined) this.#subunits.set(parent, (byKind = new Map()));
      let children = byKind.get(kind);
      if (children === undefined) byKind.set(kind, (children = new Set()));
      children.add(child);
    },
    getResult: (caller, analysis, unit) => this.#getResult(analysis, unit, caller),
    getCachedResult: (caller, analysis, unit) => this.#getCachedResult(analysis, unit, caller),
    hasState: (unit) => this.#caches.has(unit) || this.#subunits.has(unit),
    observe: (listener) => {
      this.#observers.add(listener);
      return () => this.#observers.delete(listener);
    },
  };

  #lookup(analysis: Analysis<never, unknown>, unit: object): Entry | undefined {
    const entry = this.#caches.get(unit)?.get(analysis.name);
    if (entry !== undefined && entry.analysis !== (analysis as unknown)) {
      throw new TypeError(`two different analyses are named '${analysis.name}'`);
    }
    return entry;
  }

  /**
   * A pass or analysis on unit X that reads results on a unit of a kind nested in X's kind makes
   * that unit a recorded sub-unit of X, so invalidating X reaches it (LLVM's inner-manager proxy).
   */
  #relate(caller: Caller | undefined, kind: UnitKind<object>, unit: object): void {
    const from = caller ?? this.#currentCaller();
    if (from === undefined || from.unit === unit) return;
    if (innerKinds(from.kind).has(kind.name)) this[INTERNAL].noteSubunit(from.unit, kind.name, unit);
  }

  #currentCaller(): Caller | undefined {
    const frame = this.#computing[this.#computing.length - 1];
    return frame === undefined ? undefined : { unit: frame.unit, kind: frame.analysis.unit };
  }

  /** While an analysis is computing, every result it reads becomes one it depends on. */
  #noteUse(entry: Entry): void {
    const frame = this.#computing[this.#computing.length - 1];
    if (frame !== undefined) frame.uses.push(entry);
  }

  #invalidateUnit(unit: object, preserved: PreservedAnalyses): void {
    const cache = this.#caches.get(unit);
    if (cache !== undefined) {
      for (const entry of [...cache.values()]) {
        if (cache.get(entry.analysis.name) === entry && !preserved.isPreserved(entry.analysis.name, entry.sets)) this.#drop(entry);
      }
      if (cache.size === 0) this.#caches.delete(unit);
    }
    const subunits = this.#subunits.get(unit);
    if (subunits === undefined) return;
    for (const [kind, children] of subunits) {
      if (preserved.isSetPreserved(allAnalysesOn(kind))) continue;
      for (const child of children) {
        this.#invalidateUnit(child, preserved);
        if (!this[INTERNAL].hasState(child)) children.delete(child);
      }
      if (children.size === 0) subunits.delete(kind);
    }
    if (subunits.size === 0) this.#subunits.delete(unit);
  }

  #drop(entry: Entry): void {
    const cache = this.#caches.get(entry.unit);
    if (cache === undefined || cache.get(entry.analysis.name) !== entry) return;
    cache.delete(entry.analysis.name);
    if (cache.size === 0) this.#caches.delete(entry.unit);
    this.#emit('invalidate', entry);
    if (entry.dependents !== undefined) for (const dependent of entry.dependents) this.#drop(dependent);
  }

  #emit(type: AnalysisEvent['type'], entry: Entry): void {
    if (this.#observers.size === 0) return;
    const event: AnalysisEvent = { type, analysis: entry.analysis.name, unit: entry.unit, kind: entry.analysis.unit as UnitKind<object> };
    for (const observer of this.#observers) observer(event);
  }
}

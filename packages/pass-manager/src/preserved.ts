/**
 * What a pass kept: the value every pass returns (LLVM `PreservedAnalyses`).
 *
 * Analyses are named by their kebab-case key. A pass can preserve single analyses, whole sets
 * (an analysis names the sets it belongs to; every analysis on unit kind `k` is also in
 * `allAnalysesOn(k)`), or everything; `abandon` wins over all of those. Values are immutable, so
 * `PreservedAnalyses.all()` and `none()` are shared constants and a pass cannot change what
 * another pass returned.
 */

/** Anything that names an analysis: its key, or the analysis object itself. */
export type AnalysisRef = string | { readonly name: string };

/** The set every analysis on unit kind `kind` belongs to (LLVM `AllAnalysesOn<IRUnitT>`). */
export function allAnalysesOn(kind: string): string {
  return `all-analyses-on:${kind}`;
}

function keyOf(ref: AnalysisRef): string {
  return typeof ref === 'string' ? ref : ref.name;
}

const EMPTY: ReadonlySet<string> = new Set();

export class PreservedAnalyses {
  static readonly #all = new PreservedAnalyses(true, EMPTY, EMPTY, EMPTY);
  static readonly #none = new PreservedAnalyses(false, EMPTY, EMPTY, EMPTY);

  /** Nothing changed: every analysis stays valid. */
  static all(): PreservedAnalyses {
    return PreservedAnalyses.#all;
  }

  /** The default for a pass that changed the unit: every analysis is dropped. */
  static none(): PreservedAnalyses {
    return PreservedAnalyses.#none;
  }

  /** Only the named analyses survive, e.g. `only('call-graph')`. */
  static only(...analyses: readonly AnalysisRef[]): PreservedAnalyses {
    return PreservedAnalyses.#none.preserve(...analyses);
  }

  private constructor(
    readonly allPreserved: boolean,
    readonly keys: ReadonlySet<string>,
    readonly sets: ReadonlySet<string>,
    readonly abandoned: ReadonlySet<string>,
  ) {}

  /** Marks analyses as preserved (and no longer abandoned). */
  preserve(...analyses: readonly AnalysisRef[]): PreservedAnalyses {
    if (analyses.length === 0) return this;
    const keys = new Set(this.keys);
    const abandoned = new Set(this.abandoned);
    for (const ref of analyses) {
      keys.add(keyOf(ref));
      abandoned.delete(keyOf(ref));
    }
    return new PreservedAnalyses(this.allPreserved, keys, this.sets, abandoned);
  }

  /** Marks every analysis in the named sets as preserved, e.g. `allAnalysesOn('function')`. */
  preserveSet(...sets: readonly string[]): PreservedAnalyses {
    if (sets.length === 0) return this;
    return new PreservedAnalyses(this.allPreserved, this.keys, new Set([...this.sets, ...sets]), this.abandoned);
  }

  /** Drops the named analyses even if `all()` or one of their sets is preserved. */
  abandon(...analyses: readonly AnalysisRef[]): PreservedAnalyses {
    if (analyses.length === 0) return this;
    const keys = new Set(this.keys);
    const abandoned = new Set(this.abandoned);
    for (const ref of analyses) {
      keys.delete(keyOf(ref));
      abandoned.add(keyOf(ref));
    }
    return new PreservedAnalyses(this.allPreserved, keys, this.sets, abandoned);
  }

  /**
   * What survives both this and `other` (how a sequence of passes combines). Exact for keys and
   * sets taken separately; an analysis kept by a key on one side and by a set on the other is
   * dropped, which is safe (it is only recomputed).
   */
  intersect(other: PreservedAnalyses): PreservedAnalyses {
    if (other === this || other.areAllPreserved()) return this;
    if (this.areAllPreserved()) return other;
    if (this === PreservedAnalyses.#none || other === PreservedAnalyses.#none) return PreservedAnalyses.#none;
    const keys = meet(this.keys, this.allPreserved, other.keys, other.allPreserved);
    const sets = meet(this.sets, this.allPreserved, other.sets, other.allPreserved);
    const abandoned = new Set([...this.abandoned, ...other.abandoned]);
    for (const key of abandoned) keys.delete(key);
    return new PreservedAnalyses(this.allPreserved && other.allPreserved, keys, sets, abandoned);
  }

  /** True for `all()` with nothing abandoned: the manager can skip invalidation entirely. */
  areAllPreserved(): boolean {
    return this.allPreserved && this.abandoned.size === 0;
  }

  /** Whether an analysis (with the sets it belongs to) survives. */
  isPreserved(analysis: AnalysisRef, sets: Iterable<string> = EMPTY): boolean {
    const key = keyOf(analysis);
    if (this.abandoned.has(key)) return false;
    if (this.allPreserved || this.keys.has(key)) return true;
    if (this.sets.size === 0) return false;
    for (const set of sets) if (this.sets.has(set)) return true;
    return false;
  }

  /** Whether the whole set survives (nothing in it can have been abandoned by key alone). */
  isSetPreserved(set: string): boolean {
    return this.abandoned.size === 0 && (this.allPreserved || this.sets.has(set));
  }

  /** A stable, readable form for traces and test failures. */
  toString(): string {
    if (this.areAllPreserved()) return 'all';
    const parts: string[] = [];
    if (this.allPreserved) parts.push('all');
    for (const key of [...this.keys].sort()) parts.push(key);
    for (const set of [...this.sets].sort()) parts.push(`set:${set}`);
    for (const key of [...this.abandoned].sort()) parts.push(`-${key}`);
    return parts.length === 0 ? 'none' : parts.join(',');
  }
}

/** Elements kept by both sides, where a side with `all` keeps everything the other lists. */
function meet(a: ReadonlySet<string>, aAll: boolean, b: ReadonlySet<string>, bAll: boolean): Set<string> {
  const out = new Set<string>();
  for (const x of a) if (bAll || b.has(x)) out.add(x);
  if (aAll) for (const x of b) out.add(x);
  return out;
}

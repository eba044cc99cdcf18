/**
 * A set of aspect values that iterates like LLVM's `SmallSet<int, 4>`, the container intel/llvm's
 * SYCLPropagateAspectsUsage keeps aspects in, so that `!sycl_used_aspects` lists come out in the
 * same order as theirs:
 *
 * - while it holds at most 4 distinct values it iterates in first-insertion order;
 * - inserting a 5th distinct value moves everything into a `std::set`; from then on it iterates in
 *   ascending order, and it stays that way (nothing is ever removed).
 *
 * Example: inserting 3, 4, 2, 1 gives `[3, 4, 2, 1]`; inserting 0 next gives `[0, 1, 2, 3, 4]`.
 */
export class AspectSet {
  /** Values in iteration order: insertion order while small, ascending once large. */
  private readonly items: number[];
  private large: boolean;

  constructor(values?: Iterable<number>) {
    this.items = [];
    this.large = false;
    if (values !== undefined) for (const value of values) this.add(value);
  }

  /** Number of distinct values. */
  get size(): number {
    return this.items.length;
  }

  /** True once the set has held 5 or more values (it then iterates in ascending order). */
  get isLarge(): boolean {
    return this.large;
  }

  has(value: number): boolean {
    if (!this.large) return this.items.includes(value);
    return this.indexOf(value) >= 0;
  }

  /** Inserts `value`; returns true when it was not there yet. */
  add(value: number): boolean {
    const items = this.items;
    if (!this.large) {
      if (items.includes(value)) return false;
      if (items.length < 4) {
        items.push(value);
        return true;
      }
      items.push(value);
      items.sort(ascending);
      this.large = true;
      return true;
    }
    // Binary search for the insertion point.
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = items[mid]!;
      if (at === value) return false;
      if (at < value) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, value);
    return true;
  }

  /** Inserts every value of `values`, in its iteration order (LLVM `insert(begin, end)`). */
  addAll(values: Iterable<number>): void {
    for (const value of values) this.add(value);
  }

  /** Values in iteration order (a copy). */
  toArray(): number[] {
    return this.items.slice();
  }

  [Symbol.iterator](): IterableIterator<number> {
    return this.items[Symbol.iterator]();
  }

  /** An independent copy (same iteration order, same mode). */
  clone(): AspectSet {
    const copy = new AspectSet();
    copy.items.push(...this.items);
    copy.large = this.large;
    return copy;
  }

  private indexOf(value: number): number {
    const items = this.items;
    let lo = 0;
    let hi = items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = items[mid]!;
      if (at === value) return mid;
      if (at < value) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

function ascending(a: number, b: number): number {
  return a - b;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * A string-keyed hash table that can be probed with a span of a source string, so the parser can
 * look names up without slicing a new string for every reference.
 */
export class NameTable<V> {
  private keys: (string | undefined)[];
  private values: (V | undefined)[];
  private mask: number;
  size = 0;

  constructor(capacity = 16) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Array<string | undefined>(cap).fill(undefined);
    this.values = new Array<V | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
  }

  /**
   * The hash the table files `src.slice(start, end)` under (FNV-1a over the characters, as a
   * signed 32-bit number). A lexer that computes it while scanning a token can look the token up
   * with {@link getHashed} without a second pass over its characters.
   */
  static hashSpan(src: string, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ src.charCodeAt(i), FNV_PRIME);
    return h;
  }

  /** The value stored under `src.slice(start, end)`, without allocating that string. */
  getSpan(src: string, start: number, end: number): V | undefined {
    return this.getHashed(src, start, end, NameTable.hashSpan(src, start, end));
  }

  /** {@link getSpan} with the span's {@link hashSpan} already known. */
  getHashed(src: string, start: number, end: number, hash: number): V | undefined {
    const len = end - start;
    const keys = this.keys;
    let i = hash & this.mask;
    for (;;) {
      const k = keys[i];
      if (k === undefined) return undefined;
      if (k.length === len && src.startsWith(k, start)) return this.values[i];
      i = (i + 1) & this.mask;
    }
  }

  get(key: string): V | undefined {
    return this.getSpan(key, 0, key.length);
  }

  has(key: string): boolean {
    return this.getSpan(key, 0, key.length) !== undefined;
  }

  set(key: string, value: V): void {
    this.setHashed(key, value, NameTable.hashSpan(key, 0, key.length));
  }

  /** {@link set} with the key's {@link hashSpan} already known. */
  setHashed(key: string, value: V, hash: number): void {
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    let i = hash & this.mask;
    for (;;) {
      const k = this.keys[i];
      if (k === undefined) {
        this.keys[i] = key;
        this.values[i] = value;
        this.size++;
        this.occupied.push(i);
        return;
      }
      if (k === key) {
        this.values[i] = value;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  /** Empties the table in time proportional to its size (so one table can serve many functions). */
  clear(): void {
    for (const i of this.occupied) {
      this.keys[i] = undefined;
      this.values[i] = undefined;
    }
    this.occupied.length = 0;
    this.size = 0;
  }
  private readonly occupied: number[] = [];

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const cap = keys.length * 2;
    this.keys = new Array<string | undefined>(cap).fill(undefined);
    this.values = new Array<V | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    this.size = 0;
    this.occupied.length = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k !== undefined) this.set(k, values[i]!);
    }
  }
}

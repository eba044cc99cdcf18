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

  private static hashSpan(src: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ src.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  /** The value stored under `src.slice(start, end)`, without allocating that string. */
  getSpan(src: string, start: number, end: number): V | undefined {
    const len = end - start;
    let i = NameTable.hashSpan(src, start, end) & this.mask;
    for (;;) {
      const k = this.keys[i];
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
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    let i = NameTable.hashSpan(key, 0, key.length) & this.mask;
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

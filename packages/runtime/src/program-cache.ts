/**
 * The program cache: built programs keyed by the images they were built from, the device and the
 * values of the specialization constants (OptionalDeviceFeatures-spec-constant-variant.md: the
 * cache "already needs to know the values of all the specialization constants").
 */
import type { Program } from './backend.js';

export interface ProgramCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
}

/** One image of a program key: its runtime-wide key and its constants (`1=1,2=0`). */
export interface ProgramKeyPart {
  readonly image: string;
  readonly specConstants: string;
}

/** `d<device>|<image>[<constants>]+...`: equal keys, equal programs. */
export function programKey(deviceId: number, parts: readonly ProgramKeyPart[]): string {
  return `d${deviceId}|${parts.map((part) => `${part.image}[${part.specConstants}]`).join('+')}`;
}

export class ProgramCache {
  readonly #programs = new Map<string, Program>();
  /** Called for each program the cache drops (a backend frees what it holds for it). */
  readonly #onDrop: ((program: Program) => void) | undefined;

  constructor(options: { readonly onDrop?: (program: Program) => void } = {}) {
    this.#onDrop = options.onDrop;
  }

  readonly #byOwner = new Map<number, Set<string>>();
  #hits = 0;
  #misses = 0;

  /** The program under `key` (counted as a hit or a miss). */
  get(key: string): Program | undefined {
    const program = this.#programs.get(key);
    if (program === undefined) this.#misses++;
    else this.#hits++;
    return program;
  }

  /** Stores a program; `owners` are the ids of the binaries whose images it was built from. */
  set(key: string, program: Program, owners: Iterable<number>): void {
    this.#programs.set(key, program);
    for (const owner of owners) {
      let keys = this.#byOwner.get(owner);
      if (keys === undefined) this.#byOwner.set(owner, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops every program built from an image of binary `owner` (it was unregistered). */
  dropOwner(owner: number): void {
    for (const key of this.#byOwner.get(owner) ?? []) {
      const program = this.#programs.get(key);
      if (program === undefined) continue;
      this.#programs.delete(key);
      this.#onDrop?.(program);
    }
    this.#byOwner.delete(owner);
  }

  clear(): void {
    for (const program of this.#programs.values()) this.#onDrop?.(program);
    this.#programs.clear();
    this.#byOwner.clear();
  }

  get size(): number {
    return this.#programs.size;
  }

  stats(): ProgramCacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#programs.size };
  }
}

/**
 * The files of one run, written so that the run's last rename is its commit point: image, `.sym`
 * and `.prop` files are the run's own and are written directly (no temporary file and rename
 * each: creating thousands of files is the cost); the tables (or the container) that name them are
 * written last, through a temporary file and a rename. The first direct write removes the tables
 * a previous run left at this run's table paths, since they may name the files being rewritten:
 * whenever the process stops, every table present is complete and names only whole files. After a
 * failure, `discard` removes what the run wrote; after a kill, what it wrote is named by no table.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { writeFileAtomic } from '../io.js';

export class RunOutputs {
  readonly #tables: readonly string[];
  #started = false;
  readonly #written: string[] = [];

  /** `tables`: the paths this run commits last (stale ones there are removed before the first write). */
  constructor(tables: readonly string[]) {
    this.#tables = tables;
  }

  /** Removes the stale tables now (before other threads write files of the run); once. */
  begin(): void {
    if (this.#started) return;
    this.#started = true;
    for (const table of this.#tables) rmSync(table, { force: true });
  }

  /** Writes one of the run's own files directly (text is latin1: IR names are bytes). */
  write(path: string, data: string | Uint8Array): void {
    this.begin();
    this.#written.push(path);
    if (typeof data === 'string') writeFileSync(path, data, { encoding: 'latin1' });
    else writeFileSync(path, data);
  }

  /** Notes a file of the run another thread wrote (so `discard` removes it too). */
  record(path: string): void {
    this.begin();
    this.#written.push(path);
  }

  /** Writes a table (or another file the run commits) atomically. */
  commit(path: string, data: string | Uint8Array): void {
    writeFileAtomic(path, data, { encoding: 'latin1' });
  }

  /** The files written so far, in order. */
  get written(): readonly string[] {
    return this.#written;
  }

  /** Removes every file the run wrote (best effort; after a failure). */
  discard(): void {
    for (const path of this.#written) rmSync(path, { force: true });
    this.#written.length = 0;
  }
}

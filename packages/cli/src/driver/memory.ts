/**
 * A full garbage collection between the driver's phases, for big programs: after the program is
 * read, propagated and linked, the translation units' modules are garbage, but V8 sized its old
 * generation while they were alive and lets the heap grow well past the live data before it
 * collects again — which is what the peak memory of a big compile is made of. One collection
 * there (about a tenth of a second at 16,000 kernels) keeps the split and the images inside the
 * linked program's own footprint.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/** Runs a full collection now (V8's `gc()`; made available once if node was not started with --expose-gc). */
export function collectGarbage(): void {
  if (collect === undefined) {
    collect = (globalThis as { gc?: () => void }).gc ?? null;
    if (collect === null) {
      try {
        setFlagsFromString('--expose-gc');
        collect = runInNewContext('gc') as () => void;
      } catch {
        collect = null;
      }
    }
  }
  collect?.();
}

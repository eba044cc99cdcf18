/**
 * Which module an image worker thread imports for `imageWorkerMain` (image-workers.ts): by
 * default the one the image-worker code is in; the CLI bundle names bin/load-bundle.js instead,
 * which loads the bundle with its code cache. Kept apart from image-workers.ts so the bundle's entry can set it
 * without loading the worker machinery.
 */
let entry: string | undefined;

/** Image workers import `url` (a module that exports `imageWorkerMain`). */
export function setImageWorkerEntry(url: string): void {
  entry = url;
}

/** The module image workers import: the one set, or `fallback` (the caller's own). */
export function imageWorkerEntry(fallback: string): string {
  return entry ?? fallback;
}

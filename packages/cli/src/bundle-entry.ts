/**
 * The entry of the CLI bundle, dist/syclkit.bundle.cjs (scripts/bundle.mjs; bin/syclkit.js loads
 * it through bin/load-bundle.js): the CLI's `main`, and the worker side of `-j N`. Image workers
 * import bin/load-bundle.js, which loads the bundle with its code cache and calls its
 * `imageWorkerMain`; that loads the image-worker code on demand, as the commands do.
 */
import { setImageWorkerEntry } from './driver/worker-entry.js';

export { main } from './main.js';

// In the bundle, import.meta.url is the bundle's file (dist/), and bin/ is beside dist/.
setImageWorkerEntry(new URL('../bin/load-bundle.js', import.meta.url).href);

/** The worker side of a shared image set (driver/image-workers.ts). */
export async function imageWorkerMain(): Promise<void> {
  const { imageWorkerMain: run } = await import('./driver/image-workers.js');
  await run();
}

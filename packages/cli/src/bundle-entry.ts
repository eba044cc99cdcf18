/**
 * The entry of the CLI bundle, dist/syclkit.bundle.js (scripts/bundle.mjs; bin/syclkit.js loads
 * it): the CLI's `main`, and the worker side of `-j N`. Image workers import this entry and call
 * its `imageWorkerMain`, which loads the image-worker code on demand, as the commands do.
 */
import { setImageWorkerEntry } from './driver/worker-entry.js';

export { main } from './main.js';

setImageWorkerEntry(import.meta.url);

/** The worker side of a shared image set (driver/image-workers.ts). */
export async function imageWorkerMain(): Promise<void> {
  const { imageWorkerMain: run } = await import('./driver/image-workers.js');
  await run();
}

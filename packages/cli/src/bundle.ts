/**
 * The entry of the CLI bundle, dist/syclkit.bundle.js (scripts/bundle.mjs; bin/syclkit.js loads
 * it): the CLI's `main`, and the worker side of `-j N`. An image worker imports the module that
 * holds the image-worker code — driver/image-workers.js, or, bundled, this entry — and calls its
 * `imageWorkerMain`; here it loads that code on demand, as the commands do.
 */
export { main } from './main.js';

/** The worker side of a shared image set (driver/image-workers.ts). */
export async function imageWorkerMain(): Promise<void> {
  const { imageWorkerMain: run } = await import('./driver/image-workers.js');
  await run();
}

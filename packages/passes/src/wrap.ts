/**
 * Wrapping as a pass: each row of an image becomes a device image in its output's bundle of a
 * fat-binary container (the container writer the front end gives the set), and the image is
 * released. Records are written as images come, so a run holds one image at a time — or, while
 * asynchronous AOT compilations run (`AOT_JOBS` > 1), the records of the images in flight, written
 * in image order as their compilations end.
 */
import { DEVICE_IMAGE_VERSION, ImageFormat, OffloadKind, type DeviceImage } from '@syclkit/offload-wrapper';
import { PropertySetRegistry } from '@syclkit/formats';
import { enclosingImageSet, ImageSet, ImageUnit, imageKind, Slot } from '@syclkit/post-link';
import { definePass, PreservedAnalyses, type PassContext } from '@syclkit/pass-manager';
import { AOT_DIAGNOSTICS, AOT_JOBS, COMPILED, COMPILING, aotFailure, imageName } from './aot.js';

/** Where `wrap` puts device images: `ContainerWriter` (to a file or memory), or anything else. */
export interface ImageContainer {
  addImage(image: DeviceImage): void;
  /** The rows of one image at once (`ContainerWriter.addImages`); without it, `addImage` each. */
  addImages?(images: readonly DeviceImage[]): void;
  /** Back-pressure: a promise to wait for before the next image, or undefined to go on. */
  ready?(): Promise<void> | undefined;
}

export const CONTAINER = new Slot<ImageContainer>('container');

/** An image whose records wait for its compilations (and for the images before it). */
interface Waiting {
  done: Promise<void>;
  settled: boolean;
  failure: unknown;
  readonly records: () => DeviceImage[];
}

/** The images of a set waiting to be written, in image order. */
interface WrapQueue {
  readonly items: Waiting[];
  readonly container: ImageContainer;
}

const queues = new WeakMap<ImageSet, WrapQueue>();

/** The device images of an image's rows, made when its compilations are done (read before release). */
function recordsOf(set: ImageSet, image: ImageUnit): () => DeviceImage[] {
  const compiled = image.get(COMPILED);
  if (compiled === undefined) throw new TypeError('wrap needs the compiled rows: run aot before it');
  const entries = image.entryNames;
  const rows = set.outputs.map((output, i) => {
    const row = image.rows[i];
    return row === undefined ? undefined : { name: imageName(set, image, i), target: output.target ?? output.name, properties: row.properties ?? new PropertySetRegistry() };
  });
  return () => {
    const out: DeviceImage[] = [];
    rows.forEach((row, i) => {
      const result = compiled[i];
      if (row === undefined || result === undefined) return;
      const empty = result === 'empty';
      out.push({
        name: row.name,
        version: DEVICE_IMAGE_VERSION,
        kind: OffloadKind.SYCL,
        target: row.target,
        compileOptions: '',
        linkOptions: '',
        manifest: null,
        entries,
        properties: row.properties,
        format: empty ? ImageFormat.NONE : result.format,
        image: empty ? new Uint8Array(0) : result.image,
        empty,
      });
    });
    return out;
  };
}

function addAll(container: ImageContainer, images: readonly DeviceImage[]): void {
  if (container.addImages !== undefined) container.addImages(images);
  else for (const image of images) container.addImage(image);
}

function settle(done: PreservedAnalyses | Promise<void> | undefined): PreservedAnalyses | Promise<PreservedAnalyses> {
  return done === undefined || done instanceof PreservedAnalyses ? PreservedAnalyses.all() : done.then(() => PreservedAnalyses.all());
}

/**
 * Writes the settled images at the head of the queue, and waits while `limit` or more images are
 * in flight. A failed compilation stops the pipeline (`aot-tool-failed`).
 */
function flush(queue: WrapQueue, ctx: Pick<PassContext<object>, 'fail'>, limit: number): Promise<void> | undefined {
  const { items, container } = queue;
  while (items.length > 0 && items[0]!.settled) {
    const head = items.shift()!;
    if (head.failure !== undefined) {
      const failure = aotFailure(head.failure);
      if (failure === undefined) throw head.failure;
      ctx.fail(failure);
    }
    addAll(container, head.records());
    const wait = container.ready?.();
    if (wait !== undefined) return wait.then(() => flush(queue, ctx, limit));
  }
  if (items.length >= limit && items.length > 0) return items[0]!.done.then(() => flush(queue, ctx, limit));
  return undefined;
}

export const wrapPass = definePass({
  name: 'wrap',
  unit: imageKind,
  summary: "Hands each row of an image to the set's container as a device image of its output's bundle (entries, properties, compiled code), then releases the image.",
  options: {},
  preserves: 'all',
  diagnostics: AOT_DIAGNOSTICS,
  create: () => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx);
    const container = set.get(CONTAINER);
    if (container === undefined) throw new TypeError("wrap needs the set's container (CONTAINER)");
    const records = recordsOf(set, image);
    const compiling = image.get(COMPILING);
    image.clear(COMPILED);
    image.clear(COMPILING);
    image.release();
    let queue = queues.get(set);
    if (compiling === undefined && (queue === undefined || queue.items.length === 0)) {
      addAll(container, records());
      return settle(container.ready?.());
    }
    if (queue === undefined) {
      const created: WrapQueue = { items: [], container };
      queue = created;
      queues.set(set, created);
      // The last images are written once every image went through the pipeline.
      set.onFinish((finishCtx) => {
        queues.delete(set);
        return flush(created, finishCtx, 1);
      });
    }
    const waiting: Waiting = { done: Promise.resolve(), settled: compiling === undefined, failure: undefined, records };
    if (compiling !== undefined) {
      // Settles either way: a failure is reported when the image's turn comes.
      waiting.done = compiling.then(
        () => void (waiting.settled = true),
        (error: unknown) => {
          waiting.settled = true;
          waiting.failure = error;
        },
      );
    }
    queue.items.push(waiting);
    return settle(flush(queue, ctx, set.get(AOT_JOBS) ?? 1));
  },
});

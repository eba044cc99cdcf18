/**
 * Wrapping as a pass: each row of an image becomes a device image in its output's bundle of a
 * fat-binary container (the container writer the front end gives the set), and the image is
 * released. Records are written as images come, so a run holds one image at a time.
 */
import { DEVICE_IMAGE_VERSION, ImageFormat, OffloadKind, type DeviceImage } from '@syclkit/offload-wrapper';
import { PropertySetRegistry } from '@syclkit/formats';
import { enclosingImageSet, ImageUnit, imageKind, Slot } from '@syclkit/post-link';
import { definePass, PreservedAnalyses } from '@syclkit/pass-manager';
import { COMPILED, imageName } from './aot.js';

/** Where `wrap` puts device images: `ContainerWriter` (to a file or memory), or anything else. */
export interface ImageContainer {
  addImage(image: DeviceImage): void;
  /** Back-pressure: a promise to wait for before the next image, or undefined to go on. */
  ready?(): Promise<void> | undefined;
}

export const CONTAINER = new Slot<ImageContainer>('container');

export const wrapPass = definePass({
  name: 'wrap',
  unit: imageKind,
  summary: "Hands each row of an image to the set's container as a device image of its output's bundle (entries, properties, compiled code), then releases the image.",
  options: {},
  preserves: 'all',
  create: () => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx);
    const container = set.get(CONTAINER);
    if (container === undefined) throw new TypeError("wrap needs the set's container (CONTAINER)");
    const compiled = image.get(COMPILED);
    if (compiled === undefined) throw new TypeError('wrap needs the compiled rows: run aot before it');
    set.outputs.forEach((output, i) => {
      const row = image.rows[i];
      const result = compiled[i];
      if (row === undefined || result === undefined) return;
      const empty = result === 'empty';
      container.addImage({
        name: imageName(set, image, i),
        version: DEVICE_IMAGE_VERSION,
        kind: OffloadKind.SYCL,
        target: output.target ?? output.name,
        compileOptions: '',
        linkOptions: '',
        manifest: null,
        entries: image.entryNames,
        properties: row.properties ?? new PropertySetRegistry(),
        format: empty ? ImageFormat.NONE : result.format,
        image: empty ? new Uint8Array(0) : result.image,
        empty,
      });
    });
    image.clear(COMPILED);
    image.release();
    const wait = container.ready?.();
    return wait === undefined ? PreservedAnalyses.all() : wait.then(() => PreservedAnalyses.all());
  },
});


/**
 * What the runtime registers: a fat binary as bundles of device images. `BinarySource` is the
 * runtime's own small interface; `binaryFromDescriptor` and `binaryFromContainer` adapt
 * `@syclkit/offload-wrapper`'s descriptor model and its streaming container reader (image bytes
 * are then read from disk only when a program is built).
 */
import type { BinaryDescriptor, ContainerReader } from '@syclkit/offload-wrapper';
import type { PropertySetRegistry } from '@syclkit/formats';

/** One device image, as the runtime needs it. */
export interface BinaryImageSource {
  /** A label for messages (e.g. `a_0`). */
  readonly name: string;
  /** The `DeviceTargetSpec` of its bundle. */
  readonly target: string;
  /** Image format (offload-wrapper's `ImageFormat`; 0 when unknown). */
  readonly format: number;
  /** Offload entries: the kernels (and exported functions) the image defines. */
  readonly entries: readonly string[];
  readonly properties: PropertySetRegistry;
  /** A row filtered out at compile time: entries and properties kept, no code. */
  readonly empty: boolean;
  /** The image bytes; the runtime calls this only to build a program. */
  bytes(): Uint8Array;
}

export interface BinaryBundleSource {
  readonly target: string;
  readonly images: readonly BinaryImageSource[];
}

/** A fat binary: bundles in registration order. */
export interface BinarySource {
  /** A label for messages and reports (e.g. the file name). */
  readonly name: string;
  readonly bundles: readonly BinaryBundleSource[];
}

/** A BinarySource over an in-memory descriptor (the images' bytes are already there). */
export function binaryFromDescriptor(descriptor: BinaryDescriptor, name = '<descriptor>'): BinarySource {
  return {
    name,
    bundles: descriptor.bundles.map((bundle) => ({
      target: bundle.target,
      images: bundle.images.map((image) => ({
        name: image.name,
        target: bundle.target,
        format: image.format,
        entries: image.entries,
        properties: image.properties,
        empty: image.empty,
        bytes: () => image.image,
      })),
    })),
  };
}

/**
 * A BinarySource over an open container: entries and properties come from the index (already
 * checked when the reader opened); an image's bytes are read, and their CRC checked, on first use.
 * The reader must stay open while the binary is registered.
 */
export function binaryFromContainer(reader: ContainerReader, name = reader.fileName): BinarySource {
  return {
    name,
    bundles: reader.bundles.map((bundle) => ({
      target: bundle.target,
      images: bundle.images.map((image) => {
        let bytes: Uint8Array | undefined;
        return {
          name: image.name,
          target: bundle.target,
          format: image.format,
          entries: image.entries,
          properties: image.properties,
          empty: image.empty,
          bytes: () => (bytes ??= reader.readImageData(image)),
        };
      }),
    })),
  };
}

/** Whether a value is a BinarySource rather than a descriptor (both have `bundles`). */
export function isBinarySource(value: BinarySource | BinaryDescriptor): value is BinarySource {
  const first = value.bundles.find((bundle) => bundle.images.length > 0)?.images[0];
  return 'name' in value && (first === undefined || typeof (first as Partial<BinaryImageSource>).bytes === 'function');
}

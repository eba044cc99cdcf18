/**
 * What the runtime registers: a fat binary as bundles of device images. `BinarySource` is the
 * runtime's own small interface; `binaryFromDescriptor` and `binaryFromContainer` adapt
 * `@syclkit/offload-wrapper`'s descriptor model and its container reader. A container's source
 * also has an `index` (the container's lookup table), through which the runtime reads only the
 * records of the images a launch needs, and their bytes only when a program is built.
 */
import { ADD_ON_IMAGE_SET, type BinaryDescriptor, type ContainerImage, type ContainerReader } from '@syclkit/offload-wrapper';
import { PropertySetName, type PropertySetRegistry } from '@syclkit/formats';

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

/**
 * Finds the images of a binary without listing them all. Positions count images in registration
 * order, bundle by bundle; lists of positions are ascending.
 */
export interface BinaryImageIndex {
  /** Bundles in registration order: target and number of images. */
  readonly bundles: readonly { readonly target: string; readonly images: number }[];
  /** The image at a position. */
  image(position: number): BinaryImageSource;
  /** Images that list `name` among their offload entries. */
  withEntry(name: string): readonly number[];
  /** Images that export `symbol` (`SYCL/exported symbols`). */
  exporting(symbol: string): readonly number[];
  /** Images of add-on image pair `id` (`SYCL/add on image`), in any bundle. */
  addOnPair(id: string): readonly number[];
}

/** A fat binary: bundles in registration order. */
export interface BinarySource {
  /** A label for messages and reports (e.g. the file name). */
  readonly name: string;
  /** Every image (a container's source reads every record when this is first used). */
  readonly bundles: readonly BinaryBundleSource[];
  /** When present the runtime finds images through it and never lists `bundles`. */
  readonly index?: BinaryImageIndex;
}

/** A BinaryImageIndex over the lists of a source (its lookup maps are made on first use). */
export function listedImageIndex(source: Pick<BinarySource, 'bundles'>): BinaryImageIndex {
  const images = source.bundles.flatMap((bundle) => bundle.images);
  let maps: { entries: Map<string, number[]>; exports: Map<string, number[]>; addOns: Map<string, number[]> } | undefined;
  const lookup = (which: 'entries' | 'exports' | 'addOns', name: string): readonly number[] => {
    if (maps === undefined) {
      maps = { entries: new Map(), exports: new Map(), addOns: new Map() };
      const add = (map: Map<string, number[]>, key: string, position: number): void => {
        const list = map.get(key);
        if (list === undefined) map.set(key, [position]);
        else if (list[list.length - 1] !== position) list.push(position);
      };
      images.forEach((image, position) => {
        for (const entry of image.entries) add(maps!.entries, entry, position);
        for (const symbol of image.properties.getSet(PropertySetName.EXPORTED_SYMBOLS)?.keys() ?? []) add(maps!.exports, symbol, position);
        for (const id of image.properties.getSet(ADD_ON_IMAGE_SET)?.keys() ?? []) add(maps!.addOns, id, position);
      });
    }
    return maps[which].get(name) ?? [];
  };
  return {
    bundles: source.bundles.map((bundle) => ({ target: bundle.target, images: bundle.images.length })),
    image: (position) => images[position]!,
    withEntry: (name) => lookup('entries', name),
    exporting: (symbol) => lookup('exports', symbol),
    addOnPair: (id) => lookup('addOns', id),
  };
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
 * A BinarySource over an open container: images are found through the container's lookup table
 * (`index`), and only their records are read; an image's bytes are read, and their CRC checked,
 * on first use. The reader must stay open while the binary is registered.
 */
export function binaryFromContainer(reader: ContainerReader, name = reader.fileName): BinarySource {
  const sources: BinaryImageSource[] = [];
  const sourceOf = (image: ContainerImage): BinaryImageSource => {
    let source = sources[image.index];
    if (source === undefined) {
      let bytes: Uint8Array | undefined;
      source = {
        name: image.name,
        target: image.target,
        format: image.format,
        entries: image.entries,
        properties: image.properties,
        empty: image.empty,
        bytes: () => (bytes ??= reader.readImageData(image)),
      };
      sources[image.index] = source;
    }
    return source;
  };
  const index: BinaryImageIndex = {
    bundles: reader.bundleRanges.map((range) => ({ target: range.target, images: range.count })),
    image: (position) => sourceOf(reader.image(position)),
    withEntry: (entry) => reader.lookupPositions('entry', entry),
    exporting: (symbol) => reader.lookupPositions('exported-symbol', symbol),
    addOnPair: (id) => reader.lookupPositions('add-on-image', id),
  };
  let bundles: BinaryBundleSource[] | undefined;
  return {
    name,
    index,
    get bundles() {
      bundles ??= reader.bundles.map((bundle) => ({ target: bundle.target, images: bundle.images.map(sourceOf) }));
      return bundles;
    },
  };
}

/** Whether a value is a BinarySource rather than a descriptor (both have `bundles`). */
export function isBinarySource(value: BinarySource | BinaryDescriptor): value is BinarySource {
  if ('index' in value && value.index !== undefined) return true;
  const first = value.bundles.find((bundle) => bundle.images.length > 0)?.images[0];
  return 'name' in value && (first === undefined || typeof (first as Partial<BinaryImageSource>).bytes === 'function');
}

/**
 * The image set: the unit post-link's passes run on (pass-manager kind `image-set`), and the
 * device images in it (kind `image`).
 *
 * A set starts as a device program (a module) and a list of outputs: the `-o` tables of
 * sycl-post-link, or the bundles (targets) of a fat binary. `split` plans the images; an
 * `image(...)` adaptor then produces them one at a time, in output order, and runs its passes over
 * each before the next is built: requirements, per-target filtering, properties, printing, the
 * AOT step, and a sink that writes the image out (files and table rows, or container records)
 * and releases its module and bytes. So a run holds one image at a time, however many there are.
 *
 * Passes may add images while the set is produced: right after the current one (the dummy image
 * of a virtual-function set) or after every split image (device_if add-on images). Output ids
 * (`_<id>` in file names) follow the order images are produced in; both halves of an ESIMD split
 * share the split's id.
 */
import type { DeviceConfig } from '@syclkit/device-config';
import type { PropertySetRegistry, PropertyValue } from '@syclkit/formats';
import { PrintCache, printModule, type IRFunction, type Module } from '@syclkit/ir';
import { subunitsOf, type PassContext, type UnitKind } from '@syclkit/pass-manager';
import { moduleKind } from '@syclkit/ir';
import type { DependencyGraphOptions } from './dependency-graph.js';
import type { SplitMode } from './grouping.js';
import type { ImageRequirements } from './requirements.js';
import type { SplitImage, SplitPlan } from './split.js';

/**
 * A typed key for data that passes keep on a set or an image (an AOT pass's compilers, the
 * container a wrap pass writes to, explain facts): one home per kind of data, checked types.
 */
export class Slot<T> {
  /** Never set: carries `T` for the type checker. */
  declare readonly type: T;
  constructor(readonly name: string) {}
}

/** Data held under slots (the map is made on the first `set`: most images of a run never get one). */
class SlotStore {
  #values: Map<Slot<unknown>, unknown> | undefined;
  get<T>(slot: Slot<T>): T | undefined {
    return this.#values?.get(slot as Slot<unknown>) as T | undefined;
  }
  set<T>(slot: Slot<T>, value: T): void {
    (this.#values ??= new Map()).set(slot as Slot<unknown>, value);
  }
  delete(slot: Slot<unknown>): void {
    this.#values?.delete(slot);
  }
}

/** One output of a set: a post-link table, or one bundle of a fat binary. */
export interface ImageOutput {
  /** What messages call it: the table path, or the bundle's target. */
  readonly name: string;
  /**
   * The device target of the output (sycl-post-link's `-o <target>,<table>`): images it cannot run
   * are filtered, and its properties say `compile_target`. Undefined for a generic output.
   */
  readonly target?: string;
  /**
   * The device whose device_if conditions the output takes, when it is not `target`: a generic
   * GPU triple compiled natively for one GPU (`nvptx64-nvidia-cuda` with `--offload-arch=sm_70`
   * decides device_if for `nvidia_gpu_sm_70`, without filtering or `compile_target`).
   */
  readonly deviceIfTarget?: string;
}

/** What one image contributes to one output. */
export interface ImageRow {
  /** Filtered out for the output's target: the row keeps the image's properties and symbols, with an empty module. */
  readonly empty: boolean;
  /** The property sets of this row (set by `image-properties`). */
  properties?: PropertySetRegistry;
}

/** Where an image comes from. */
export type ImageRole = 'split' | 'dummy' | 'add-on';

/** A property set added after the standard ones: name and entries. */
export type ExtraPropertySet = readonly [string, readonly (readonly [string, PropertyValue])[]];

/** What a pass that adds an image gives. */
export interface NewImage {
  readonly module: Module;
  readonly entryPoints: readonly IRFunction[];
  readonly esimd: boolean;
  readonly extraSets?: readonly ExtraPropertySet[];
}

/** One device image going through the pipeline. */
export class ImageUnit {
  /** Output id (`_<id>` in file names); assigned when the set produces the image. */
  id = -1;
  readonly role: ImageRole;
  /** The split's id (ESIMD halves share it); -1 for images passes added. */
  readonly splitId: number;
  /** The grouping key that made the image (messages). */
  readonly key: string;
  /** The image: a view sharing unchanged globals with the program, or an own module. Released once written. */
  #module: Module | undefined;
  #entryPoints: readonly IRFunction[];
  /** Names of the entry points: the `.sym` content (kept after the module is released). */
  entryNames: readonly string[];
  esimd: boolean;
  /** Property sets appended after the standard ones (device_if, requirement strategies). */
  extraSets: readonly ExtraPropertySet[];
  /** An independent copy of the view (for passes that change it); undefined for own modules. */
  #materialize: (() => Module) | undefined;
  /** `image-requirements`: what `SYCL/device requirements` says. */
  requirements: ImageRequirements | undefined;
  /** The SYCL_EXTERNAL check's fixed targets for fixed-target images. */
  fixedTargetOverride: readonly number[] | undefined;
  /** One entry per output of the set: undefined when the output drops the image. */
  readonly rows: (ImageRow | undefined)[];
  /** The device code (`emit-ir`): text IR or bitcode. */
  code: Uint8Array | undefined;
  /** What `code` holds. */
  codeFormat: 'text' | 'bitcode' | undefined;
  /** The image was written out; its module and bytes are gone. */
  released = false;
  readonly #slots = new SlotStore();

  constructor(init: {
    role: ImageRole;
    splitId: number;
    key: string;
    module: Module;
    entryPoints: readonly IRFunction[];
    esimd: boolean;
    extraSets?: readonly ExtraPropertySet[];
    materialize?: () => Module;
    outputs: number;
  }) {
    this.role = init.role;
    this.splitId = init.splitId;
    this.key = init.key;
    this.#module = init.module;
    this.#entryPoints = init.entryPoints;
    this.entryNames = init.entryPoints.map((fn) => fn.name);
    this.esimd = init.esimd;
    this.extraSets = init.extraSets ?? [];
    this.#materialize = init.materialize;
    const rows: ImageRow[] = [];
    for (let i = 0; i < init.outputs; i++) rows.push({ empty: false });
    this.rows = rows;
  }

  /** The image's module (throws once the image was written out). */
  get module(): Module {
    if (this.#module === undefined) throw new Error(`image ${this.id} was already written out; passes after the sink cannot read its module`);
    return this.#module;
  }

  get entryPoints(): readonly IRFunction[] {
    if (this.#module === undefined) throw new Error(`image ${this.id} was already written out`);
    return this.#entryPoints;
  }

  /** Whether the module is a view that shares globals with the program (read only). */
  get isView(): boolean {
    return this.#materialize !== undefined;
  }

  /** An independent copy of the image that passes may change (the view itself when already one). */
  materialize(): Module {
    return this.#materialize === undefined ? this.module : this.#materialize();
  }

  /** Replaces the image's module (a pass changed a materialized copy); entry points by name. */
  replaceModule(module: Module, entryPoints: readonly IRFunction[], extraSets?: readonly ExtraPropertySet[]): void {
    this.#module = module;
    this.#entryPoints = entryPoints;
    this.entryNames = entryPoints.map((fn) => fn.name);
    this.#materialize = undefined;
    if (extraSets !== undefined) this.extraSets = extraSets;
  }

  /** Drops the module, the code and the row properties: the image was written out. */
  release(): void {
    this.#module = undefined;
    this.#entryPoints = [];
    this.#materialize = undefined;
    this.code = undefined;
    for (const row of this.rows) if (row !== undefined) delete row.properties;
    this.released = true;
  }

  get<T>(slot: Slot<T>): T | undefined {
    return this.#slots.get(slot);
  }

  set<T>(slot: Slot<T>, value: T): void {
    this.#slots.set(slot, value);
  }

  /** Drops a slot's data (sinks release what they wrote). */
  clear(slot: Slot<unknown>): void {
    this.#slots.delete(slot);
  }
}

export interface ImageSetOptions {
  /** The outputs (tables or bundles), at least one. */
  readonly outputs: readonly ImageOutput[];
  /** Targets of the outputs, for filtering and device_if resolution (without it nothing is filtered). */
  readonly deviceConfig?: DeviceConfig;
  /**
   * Produce only the split images whose id is `index` modulo `count` (one of several workers);
   * such a set cannot add images.
   */
  readonly shard?: { readonly index: number; readonly count: number };
  /**
   * Produce only the split images whose id this accepts, asked in id order as the images come
   * (this set's share of a run several workers share; a claim on a shared counter balances the
   * work). Images keep the split's ids, and such a set cannot add images.
   */
  readonly include?: (splitId: number) => boolean;
  /** Called when the `image(...)` adaptor is done with an image (its results are final). */
  readonly onImageDone?: (image: ImageUnit) => void;
}

/** A set of device images made from one program, for one or more outputs. */
export class ImageSet {
  /** The device program; images are views of it. `device-if` may replace it with a resolved copy. */
  program: Module;
  readonly outputs: readonly ImageOutput[];
  readonly config: DeviceConfig | undefined;
  readonly shard: { readonly index: number; readonly count: number } | undefined;
  /** Which split images this set produces (`shard` or `include`); undefined: all of them. */
  readonly include: ((splitId: number) => boolean) | undefined;
  readonly #onImageDone: ((image: ImageUnit) => void) | undefined;
  #current: ImageUnit | undefined;
  /** Dependency-graph options earlier passes ask the split for (device_if: do not follow action pointers). */
  graph: DependencyGraphOptions = {};
  /** The split's plan and mode (set by `split`). */
  plan: SplitPlan | undefined;
  splitMode: SplitMode | undefined;
  /** `-ir-output-only`: one image, written to the first output's path; no tables. */
  irOutputOnly = false;
  /** Printed function bodies, shared by every image of the set (they share the program's functions). */
  readonly printCache = new PrintCache();
  readonly #slots = new SlotStore();
  readonly #produced: ImageUnit[] = [];
  #source: Iterator<SplitImage> | undefined;
  readonly #next: ImageUnit[] = [];
  readonly #atEnd: ImageUnit[] = [];
  #producing = false;
  #done = false;
  #counter = -1;
  #lastSplitId = Number.NaN;

  constructor(program: Module, options: ImageSetOptions) {
    if (options.outputs.length === 0) throw new TypeError('an image set needs at least one output');
    this.program = program;
    this.outputs = options.outputs;
    this.config = options.deviceConfig;
    this.shard = options.shard;
    const shard = options.shard;
    if (shard !== undefined && options.include !== undefined) throw new TypeError('an image set takes shard or include, not both');
    this.include = options.include ?? (shard === undefined ? undefined : (id) => id % shard.count === shard.index);
    this.#onImageDone = options.onImageDone;
  }

  /** Whether the set produces only part of the split (it then cannot add images, and ids are the split's). */
  get partial(): boolean {
    return this.include !== undefined;
  }

  /** The image being processed (the last one produced), if any. */
  get current(): ImageUnit | undefined {
    return this.#current;
  }

  get<T>(slot: Slot<T>): T | undefined {
    return this.#slots.get(slot);
  }

  set<T>(slot: Slot<T>, value: T): void {
    this.#slots.set(slot, value);
  }

  readonly #finishers: ((ctx: PassContext<ImageSet>) => void | Promise<void>)[] = [];

  /**
   * Registers work to complete once every image went through `image(...)` (a sink whose images
   * wait for AOT compilations still running writes them there). Run in registration order.
   */
  onFinish(finisher: (ctx: PassContext<ImageSet>) => void | Promise<void>): void {
    this.#finishers.push(finisher);
  }

  /** Runs the finishers (the `image(...)` adaptor calls this after the last image); each runs once. */
  finishImages(ctx: PassContext<ImageSet>): void | Promise<void> {
    const finishers = this.#finishers.splice(0);
    const run = (i: number): void | Promise<void> => {
      for (; i < finishers.length; i++) {
        const result = finishers[i]!(ctx);
        if (result !== undefined && typeof (result as Promise<void>).then === 'function') return (result as Promise<void>).then(() => run(i + 1));
      }
    };
    return run(0);
  }

  /** The images produced so far, in output order (written images keep their ids and names only). */
  get produced(): readonly ImageUnit[] {
    return this.#produced;
  }

  /** Whether every image was produced. */
  get complete(): boolean {
    return this.#done;
  }

  /** Sets where images come from (`split`); an earlier source is dropped. */
  setSource(images: Iterable<SplitImage>): void {
    if (this.#producing) throw new Error('the split cannot run while images are produced');
    this.#source = images[Symbol.iterator]();
    this.#produced.length = 0;
    this.#next.length = 0;
    this.#atEnd.length = 0;
    this.#done = false;
    this.#counter = -1;
    this.#lastSplitId = Number.NaN;
  }

  /** Adds an image right after the one being processed (it moves every later id up by one). */
  addAfterCurrent(image: NewImage, role: ImageRole): ImageUnit {
    const unit = this.#adding(image, role);
    this.#next.push(unit);
    return unit;
  }

  /** Adds an image after all split images. */
  addAtEnd(image: NewImage, role: ImageRole): ImageUnit {
    const unit = this.#adding(image, role);
    this.#atEnd.push(unit);
    return unit;
  }

  #adding(image: NewImage, role: ImageRole): ImageUnit {
    if (this.partial) throw new Error('an image set that produces part of the split cannot add images');
    if (!this.#producing) throw new Error('images can only be added while the set is produced (inside image(...))');
    return new ImageUnit({ role, splitId: -1, key: `<${role}>`, ...image, outputs: this.outputs.length });
  }

  /**
   * The images in output order: those already produced, then new ones built one at a time (the
   * `image` sub-units). Without a split there are none.
   */
  *images(): Generator<ImageUnit, void, undefined> {
    for (let i = 0; i < this.#produced.length; i++) yield this.#produced[i]!;
    if (this.#done || this.#source === undefined) return;
    if (this.#producing) throw new Error('images are already being produced by an enclosing image(...)');
    this.#producing = true;
    try {
      for (;;) {
        const unit = this.#nextImage();
        if (unit === undefined) break;
        this.#produced.push(unit);
        this.#current = unit;
        yield unit;
        // Resumed: the adaptor is done with this image.
        this.#onImageDone?.(unit);
      }
      this.#done = true;
    } finally {
      this.#producing = false;
      this.#current = undefined;
    }
  }

  #nextImage(): ImageUnit | undefined {
    const added = this.#next.shift();
    if (added !== undefined) return this.#numbered(added);
    if (this.#source !== undefined) {
      const next = this.#source.next();
      if (next.done !== true) {
        const image = next.value;
        const unit = new ImageUnit({
          role: 'split',
          splitId: image.id,
          key: image.key,
          module: image.module,
          entryPoints: image.entryPoints,
          esimd: image.esimd,
          materialize: image.materialize,
          outputs: this.outputs.length,
        });
        return this.#numbered(unit);
      }
      this.#source = undefined;
    }
    const last = this.#atEnd.shift();
    return last === undefined ? undefined : this.#numbered(last);
  }

  #numbered(unit: ImageUnit): ImageUnit {
    if (this.partial) unit.id = unit.splitId;
    else if (unit.role !== 'split') unit.id = ++this.#counter;
    else {
      if (unit.splitId !== this.#lastSplitId) this.#counter++;
      this.#lastSplitId = unit.splitId;
      unit.id = this.#counter;
    }
    return unit;
  }
}

/** The image kind: one device image (its module's text for `-print-after`). */
export const imageKind: UnitKind<ImageUnit> = {
  name: 'image',
  fingerprint: (image) => (image.released ? `released ${image.id}` : printModule(image.module)),
  print: (image) => (image.released ? `; image ${image.id} (written out)\n` : printModule(image.module)),
  label: (image) => `image ${image.id}`,
};

/**
 * The image-set kind. Sub-units: `module` is the program (module passes over it: `module(...)`,
 * or implicitly), `image` the images (`image(...)` produces them one at a time).
 */
export const imageSetKind: UnitKind<ImageSet> = {
  name: 'image-set',
  fingerprint: (set) => `${set.produced.map((i) => `${i.id}:${i.entryNames.join(',')}`).join(';')}\n${printModule(set.program)}`,
  print: (set) => `; image set: ${set.outputs.map((o) => o.name).join(', ')}; ${set.produced.length} images\n${printModule(set.program)}`,
  label: (set) => set.outputs.map((o) => o.name).join(', '),
  subunits: [
    subunitsOf(moduleKind, (set: ImageSet) => [set.program]),
    subunitsOf(imageKind, (set: ImageSet) => set.images(), (set: ImageSet, ctx) => set.finishImages(ctx)),
  ],
};

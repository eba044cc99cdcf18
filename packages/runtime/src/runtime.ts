/**
 * The runtime: registered fat binaries, kernel lookup, the requirement check at submission, and
 * program building with a cache.
 *
 * Submitting kernel K to device D:
 * 1. bundle: among the bundles whose images list K, the best fit for D (AOT for D itself, then a
 *    generic AOT triple D can run, then SPIR-V); none → errc.runtime listing the targets;
 * 2. image: the image of that bundle listing K; its add-on images resolved for D (DeviceIf.md);
 * 3. imports (device code dynamic linking, SharedLibraries.md): every symbol in the
 *    `SYCL/imported symbols` of those images is resolved to an image of a registered binary that
 *    exports it, in that binary's best bundle for D, transitively; no exporter → errc.build;
 * 4. requirements: the union of what all these images require (`SYCL/device requirements`, or K's
 *    entry in `SYCL/requirements`), checked against D → errc.kernel_not_supported /
 *    errc.nd_range, thrown from the submit call before any image bytes are read;
 * 5. build: specialization constants set for D, the program taken from the cache or built by the
 *    backend from every image of the launch (main, add-on and imported images linked together).
 */
import { ContainerReader, type BinaryDescriptor } from '@syclkit/offload-wrapper';
import { DeviceConfig, type AspectTable } from '@syclkit/device-config';
import { DeviceRequirementName, PropertySetName, decodeString, type PropertySetRegistry } from '@syclkit/formats';
import { ADD_ON_IMAGE_SET, indexAddOnImages, resolveAddOnImages, type AddOnPair } from './add-on-images.js';
import { simulatedJitBackend, type Execution, type Program, type ProgramBackend, type ProgramImage } from './backend.js';
import { binaryFromContainer, binaryFromDescriptor, isBinarySource, listedImageIndex, type BinaryImageIndex, type BinaryImageSource, type BinarySource } from './binary.js';
import { BUNDLE_MATCH_RANK, matchBundle, ptxRunsOn, smOfTarget, targetNamesDevice, type BundleMatch } from './bundles.js';
import { checkKernelRequirements, type SubmissionShape } from './check.js';
import type { Device } from './device.js';
import { SyclError, errc } from './errors.js';
import { ProgramCache, programKey } from './program-cache.js';
import { keptArguments, omittedParams, type KernelArg } from './kernel-args.js';
import { Queue } from './queue.js';
import { isNdRange, rangeSize, type NdRange, type Range } from './ranges.js';
import { RequirementsBuilder, addImageRequirements, type KernelRequirements } from './requirements.js';
import { imageSpecConstants, specConstantsKey } from './spec-constants.js';
import { EXPORTED_SYMBOLS_SET, exportedSymbols, importedSymbols } from './symbols.js';

export interface RuntimeOptions {
  /** Targets for bundle matching (names, aliases). Default: the built-in configuration. */
  readonly config?: DeviceConfig;
  /**
   * Aspect names for messages, and the names of `fixed_target` values: a fixed-target value
   * stands for the target whose name the table gives it (the module's `!sycl_aspects`).
   * Default: the configuration's aspect table.
   */
  readonly aspectTable?: AspectTable;
  /** Builds programs. Default: `simulatedJitBackend()`. */
  readonly backend?: ProgramBackend;
  /** `design` (default) checks `fixed_target`; `intel-llvm` skips it, as the real runtime. */
  readonly semantics?: 'design' | 'intel-llvm';
}

/** A registered fat binary; `unregister()` removes it (and its programs from the cache). */
export interface RegisteredBinary {
  readonly id: number;
  readonly name: string;
  readonly targets: readonly string[];
  readonly images: number;
  readonly registered: boolean;
  unregister(): void;
}

/** An add-on image linked into a launch. */
export interface AddOnImageUse {
  readonly id: string;
  readonly image: string;
  /** True: the real definitions (the condition holds); false: the stubs. */
  readonly definitions: boolean;
}

/**
 * An image linked into a launch because it exports device functions that the kernel's images (or
 * other imported images) import.
 */
export interface ImportedImageUse {
  /** The imported symbols this image provides to the launch. */
  readonly symbols: readonly string[];
  /** The binary, bundle and image the code comes from. */
  readonly binary: string;
  readonly bundle: string;
  readonly match: BundleMatch;
  readonly image: string;
  /** Its DeviceIf add-on images, resolved for the device. */
  readonly addOnImages: readonly AddOnImageUse[];
  /**
   * The image the device's best bundle has for these symbols when it is an empty (filtered) row:
   * its requirements were checked, the code comes from `image`.
   */
  readonly fellBackFrom?: { readonly bundle: string; readonly image: string };
}

/** Where a kernel runs from on a device (without the check or a build). */
export interface KernelResolution {
  readonly kernel: string;
  readonly binary: string;
  readonly bundle: string;
  readonly match: BundleMatch;
  readonly image: string;
  /** The image is a filtered (empty) one: its properties explain why the kernel cannot run. */
  readonly empty: boolean;
  readonly addOnImages: readonly AddOnImageUse[];
  /** Images linked in to resolve imported device functions (dynamic linking), in resolution order. */
  readonly importedImages: readonly ImportedImageUse[];
  /** The union of what every image of the launch requires (main, add-on and imported images). */
  readonly requirements: KernelRequirements;
}

/** One kernel launch (what a submit did). */
export interface KernelLaunch extends KernelResolution {
  readonly device: Device;
  /** The range, nd_range, or undefined for single_task. */
  readonly range: Range | NdRange | undefined;
  readonly workItems: number;
  readonly program: Program;
  readonly programCacheHit: boolean;
  /** What running the kernel did, when the submission passed arguments (a backend that executes). */
  readonly execution?: Execution;
  /** The empty AOT image the runtime fell back from (its checks passed, it has no code). */
  readonly fellBackFrom?: { readonly bundle: string; readonly image: string };
}

interface ImageRecord {
  readonly key: string;
  readonly name: string;
  readonly properties: PropertySetRegistry;
  readonly source: BinaryImageSource;
  readonly bundle: BundleRecord;
  readonly compileTarget: string | undefined;
}

interface BundleRecord {
  readonly target: string;
  readonly binary: BinaryRecord;
  /** Position of its first image in the binary, and how many it has. */
  readonly first: number;
  readonly count: number;
  /** Add-on image pairs by id, found on first use. */
  readonly addOns: Map<string, AddOnPair<ImageRecord> | undefined>;
}

interface BinaryRecord {
  readonly id: number;
  readonly name: string;
  readonly source: BinarySource;
  /** How images are found: the source's own index (a container's lookup table) or one over its lists. */
  readonly index: BinaryImageIndex;
  readonly bundles: BundleRecord[];
  /** Image records by position, made on first use. */
  readonly images: (ImageRecord | undefined)[];
  /** Set right after the record is made. */
  handle?: RegisteredBinary;
}

/** An image of a launch and its role (the images are built in this order). */
interface LinkedImage {
  readonly image: ImageRecord;
  readonly role: 'main' | 'add-on' | 'import';
}

/** An imported symbol whose exporting image on the device is empty, with no other bundle to take it from. */
interface UnavailableImport {
  readonly symbol: string;
  readonly image: ImageRecord;
}

/** A candidate image resolved for a device: add-ons, imports, requirements, program key. */
interface Resolved {
  readonly main: ImageRecord;
  readonly match: BundleMatch;
  readonly addOns: readonly { readonly id: string; readonly holds: boolean; readonly image: ImageRecord }[];
  /** Every image built for the launch, main first. */
  readonly linked: readonly LinkedImage[];
  /** Imported symbols that only an empty image offers (reported after the requirement check). */
  readonly unavailable: readonly UnavailableImport[];
  readonly requirements: KernelRequirements;
  readonly specConstants: readonly ReadonlyMap<number, boolean>[];
  readonly programKey: string;
  /** What resolveKernel reports (computed once). */
  readonly description: KernelResolution;
}

/** What a (kernel, device) pair resolves to; cached until binaries change. */
interface Plan {
  /** Checked first: the best image (possibly an empty one). */
  readonly first: Resolved;
  /** Built: `first`, or the next non-empty candidate when `first` is empty; undefined when there is none. */
  readonly build: Resolved | undefined;
}

let nextBinaryId = 1;

/** The sm level an NVIDIA image was made for (its bundle or compile target), 0 when none: of PTX images a device can run, the newest is best. */
function smLevel(image: ImageRecord): number {
  return (smOfTarget(image.bundle.target) ?? (image.compileTarget === undefined ? undefined : smOfTarget(image.compileTarget)))?.level ?? 0;
}

function compileTargetOf(image: BinaryImageSource): string | undefined {
  const value = image.properties.get(PropertySetName.DEVICE_REQUIREMENTS, DeviceRequirementName.COMPILE_TARGET);
  if (value === undefined) return undefined;
  try {
    return decodeString(value);
  } catch {
    return undefined;
  }
}

export class Runtime {
  readonly config: DeviceConfig;
  readonly aspectTable: AspectTable;
  readonly backend: ProgramBackend;
  readonly semantics: 'design' | 'intel-llvm';
  /** The backend that built each cached program (device-bound backends differ from `backend`). */
  readonly #builtBy = new WeakMap<Program, ProgramBackend>();
  readonly programCache = new ProgramCache({ onDrop: (program) => this.#builtBy.get(program)?.release?.(program) });
  readonly #binaries: BinaryRecord[] = [];
  readonly #plans = new Map<string, Plan>();

  constructor(options: RuntimeOptions = {}) {
    this.config = options.config ?? DeviceConfig.builtin();
    this.aspectTable = options.aspectTable ?? this.config.aspectTable;
    this.backend = options.backend ?? simulatedJitBackend({ aspectTable: this.aspectTable });
    this.semantics = options.semantics ?? 'design';
  }

  /**
   * Registers a fat binary (`__sycl_register_lib`): a BinarySource, an offload-wrapper descriptor,
   * or an open container reader (which must stay open while registered).
   */
  registerFatBinary(binary: BinarySource | BinaryDescriptor | ContainerReader, options: { readonly name?: string } = {}): RegisteredBinary {
    const source =
      binary instanceof ContainerReader ? binaryFromContainer(binary, options.name) : isBinarySource(binary) ? binary : binaryFromDescriptor(binary, options.name);
    const id = nextBinaryId++;
    const index = source.index ?? listedImageIndex(source);
    const record: BinaryRecord = { id, name: options.name ?? source.name, source, index, bundles: [], images: [] };
    let first = 0;
    for (const bundle of index.bundles) {
      record.bundles.push({ target: bundle.target, binary: record, first, count: bundle.images, addOns: new Map() });
      first += bundle.images;
    }
    const isRegistered = (): boolean => this.#binaries.includes(record);
    const handle: RegisteredBinary = {
      id,
      name: record.name,
      targets: index.bundles.map((bundle) => bundle.target),
      images: first,
      get registered() {
        return isRegistered();
      },
      unregister: () => this.#unregister(record),
    };
    record.handle = handle;
    this.#binaries.push(record);
    this.#plans.clear();
    return handle;
  }

  /** `__sycl_unregister_lib`: the binary's kernels are gone and its programs leave the cache. */
  unregisterFatBinary(binary: RegisteredBinary): void {
    const record = this.#binaries.find((b) => b.handle === binary);
    if (record !== undefined) this.#unregister(record);
  }

  #unregister(record: BinaryRecord): void {
    const at = this.#binaries.indexOf(record);
    if (at < 0) return;
    this.#binaries.splice(at, 1);
    this.#plans.clear();
    this.programCache.dropOwner(record.id);
  }

  /** A queue bound to `device`. */
  queue(device: Device): Queue {
    return new Queue(this, device);
  }

  /** The registered binaries, in registration order. */
  binaries(): readonly RegisteredBinary[] {
    return this.#binaries.map((b) => b.handle!);
  }

  /** The record of the image at `position` of a binary (made, and its metadata read, on first use). */
  #image(binary: BinaryRecord, position: number): ImageRecord {
    let image = binary.images[position];
    if (image === undefined) {
      let source: BinaryImageSource;
      try {
        source = binary.index.image(position);
      } catch (error) {
        if (error instanceof SyclError) throw error;
        throw new SyclError(errc.runtime, `cannot read device image ${position} of ${binary.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const bundle = binary.bundles.find((b) => position < b.first + b.count)!;
      image = { key: `b${binary.id}:${position}`, name: source.name, properties: source.properties, source, bundle, compileTarget: compileTargetOf(source) };
      binary.images[position] = image;
    }
    return image;
  }

  /** Images of a binary that define `kernel`: entries that are not exported functions. */
  #kernelImages(binary: BinaryRecord, kernel: string): ImageRecord[] {
    return binary.index
      .withEntry(kernel)
      .map((position) => this.#image(binary, position))
      .filter((image) => image.properties.getSet(EXPORTED_SYMBOLS_SET)?.has(kernel) !== true);
  }

  /**
   * Images of a binary that export `symbol`. DeviceIf add-on images are left out: what they export
   * (device_if actions, as definitions or stubs) is linked through `SYCL/add on images` only.
   */
  #exportingImages(binary: BinaryRecord, symbol: string): ImageRecord[] {
    return binary.index
      .exporting(symbol)
      .map((position) => this.#image(binary, position))
      .filter((image) => image.properties.getSet(ADD_ON_IMAGE_SET) === undefined);
  }

  /** The add-on image pair `id` of a bundle, checked as `indexAddOnImages` checks a bundle's images. */
  #addOnPair(bundle: BundleRecord, id: string): AddOnPair<ImageRecord> | undefined {
    if (!bundle.addOns.has(id)) {
      const end = bundle.first + bundle.count;
      const images = bundle.binary.index
        .addOnPair(id)
        .filter((position) => position >= bundle.first && position < end)
        .map((position) => this.#image(bundle.binary, position));
      bundle.addOns.set(id, indexAddOnImages(images).get(id));
    }
    return bundle.addOns.get(id);
  }

  /** Whether an image of a bundle can run on the device, and how well (undefined: it cannot). */
  #imageMatch(image: ImageRecord, device: Device, matches: Map<BundleRecord, BundleMatch | undefined>): BundleMatch | undefined {
    let match = matches.get(image.bundle);
    if (!matches.has(image.bundle)) {
      match = matchBundle(image.bundle.target, device, this.config);
      matches.set(image.bundle, match);
    }
    if (match === undefined) return undefined;
    // A compile_target on an image of a generic bundle must name the device.
    // (an sm level on an NVIDIA image: PTX runs on that GPU and newer ones)
    if (match !== 'device' && image.compileTarget !== undefined && !targetNamesDevice(image.compileTarget, device, this.config) && ptxRunsOn(image.compileTarget, device) !== true) return undefined;
    return match;
  }

  /**
   * Images exporting `symbol` that `device` can run, best first: by bundle match (the device's AOT
   * bundle, a generic AOT triple, SPIR-V), then binaries and bundles in registration order, as
   * for kernels. Throws errc.build when there is none.
   */
  #exporters(symbol: string, device: Device, importer: ImageRecord, kernel: string): { image: ImageRecord; match: BundleMatch }[] {
    const found: { image: ImageRecord; match: BundleMatch; position: number }[] = [];
    const targets = new Set<string>();
    const matches = new Map<BundleRecord, BundleMatch | undefined>();
    for (const binary of this.#binaries) {
      for (const image of this.#exportingImages(binary, symbol)) {
        targets.add(image.bundle.target);
        const match = this.#imageMatch(image, device, matches);
        if (match !== undefined) found.push({ image, match, position: found.length });
      }
    }
    if (found.length === 0) {
      const why =
        targets.size === 0
          ? 'no registered binary exports it'
          : `the registered binaries export it only in bundles device ${device.name} cannot take (targets: ${[...targets].join(', ')})`;
      throw new SyclError(errc.build, `No device image found for external symbol ${symbol}, which kernel ${kernel} needs (imported by device image '${importer.source.name}'): ${why}`);
    }
    return found.sort((a, b) => BUNDLE_MATCH_RANK[a.match] - BUNDLE_MATCH_RANK[b.match] || smLevel(b.image) - smLevel(a.image) || a.position - b.position);
  }

  /**
   * Images listing `kernel` that `device` can run, best first, up to the first that has code (all
   * a plan needs: the best image, and when that is an empty row, the next with code). Bundles the
   * device cannot take are skipped by their target, and records are read in order of preference,
   * so a launch whose best image has code reads that one record. When none fits, every listing
   * image is read to say why.
   */
  #candidates(kernel: string, device: Device): { image: ImageRecord; match: BundleMatch }[] {
    const listed: { binary: BinaryRecord; position: number; match: BundleMatch; level: number; order: number }[] = [];
    for (const binary of this.#binaries) {
      for (const position of binary.index.withEntry(kernel)) {
        const bundle = binary.bundles.find((b) => position < b.first + b.count)!;
        const match = matchBundle(bundle.target, device, this.config);
        if (match !== undefined) listed.push({ binary, position, match, level: smOfTarget(bundle.target)?.level ?? 0, order: listed.length });
      }
    }
    // Among equal matches, the newest sm level a bundle names first (PTX of sm_86 before sm_80's on an sm_86 GPU).
    listed.sort((a, b) => BUNDLE_MATCH_RANK[a.match] - BUNDLE_MATCH_RANK[b.match] || b.level - a.level || a.order - b.order);
    const found: { image: ImageRecord; match: BundleMatch }[] = [];
    const matches = new Map<BundleRecord, BundleMatch | undefined>();
    for (const candidate of listed) {
      const image = this.#image(candidate.binary, candidate.position);
      if (image.properties.getSet(EXPORTED_SYMBOLS_SET)?.has(kernel) === true) continue; // an exported function, not a kernel
      const match = this.#imageMatch(image, device, matches);
      if (match === undefined) continue;
      found.push({ image, match });
      if (!image.source.empty) break;
    }
    if (found.length === 0) {
      const targets = new Set<string>();
      for (const binary of this.#binaries) for (const image of this.#kernelImages(binary, kernel)) targets.add(image.bundle.target);
      if (targets.size === 0) throw new SyclError(errc.runtime, `No kernel named ${kernel} was found`);
      throw new SyclError(
        errc.runtime,
        `No device image of kernel ${kernel} is compatible with device ${device.name}; the registered binaries have images of it for targets: ${[...targets].join(', ')}`,
      );
    }
    return found;
  }

  #addOnsOf(image: ImageRecord, device: Device) {
    const bundle = image.bundle;
    return resolveAddOnImages(image, { get: (id: string) => this.#addOnPair(bundle, id) }, device.facts, bundle.target);
  }

  #resolve(kernel: string, main: ImageRecord, match: BundleMatch, device: Device): Resolved {
    const choices = this.#addOnsOf(main, device);
    const builder = new RequirementsBuilder();
    addImageRequirements(builder, main.source, kernel, device.facts);
    for (const choice of choices) addImageRequirements(builder, choice.image.source, undefined, device.facts);
    const linked: LinkedImage[] = [{ image: main, role: 'main' }, ...choices.map((choice) => ({ image: choice.image, role: 'add-on' as const }))];
    const addOns = choices.map((choice) => ({ id: choice.id, holds: choice.holds, image: choice.image }));
    const { imports, unavailable } = this.#resolveImports(kernel, linked, builder, device);
    const images = linked.map((entry) => entry.image);
    const specConstants = images.map((image) => imageSpecConstants(image.source, device));
    const requirements = builder.build();
    const addOnUse = (addOn: { id: string; holds: boolean; image: ImageRecord }): AddOnImageUse =>
      Object.freeze({ id: addOn.id, image: addOn.image.source.name, definitions: addOn.holds });
    return {
      main,
      match,
      addOns,
      linked,
      unavailable,
      requirements,
      specConstants,
      programKey: programKey(
        device.id,
        images.map((image, i) => ({ image: image.key, specConstants: specConstantsKey(specConstants[i]!) })),
      ),
      description: Object.freeze({
        kernel,
        binary: main.bundle.binary.name,
        bundle: main.bundle.target,
        match,
        image: main.source.name,
        empty: main.source.empty,
        addOnImages: Object.freeze(addOns.map(addOnUse)),
        importedImages: Object.freeze(
          imports.map((use) =>
            Object.freeze({
              symbols: Object.freeze([...use.symbols]),
              binary: use.image.bundle.binary.name,
              bundle: use.image.bundle.target,
              match: use.match,
              image: use.image.source.name,
              addOnImages: Object.freeze(use.addOns.map(addOnUse)),
              ...(use.checked === undefined ? {} : { fellBackFrom: Object.freeze({ bundle: use.checked.bundle.target, image: use.checked.source.name }) }),
            }),
          ),
        ),
        requirements,
      }),
    };
  }

  /**
   * Dynamic linking: resolves the imported symbols of the images in `linked` (and of every image
   * that resolution adds) to exporting images, appending them and their add-on images to `linked`
   * and their requirements to `builder`. A symbol some image of the launch already exports needs
   * no other image. When the best exporting image for the device is an empty row, its properties
   * are checked and the code comes from the next candidate that has code; when none has,
   * the symbol is `unavailable`.
   */
  #resolveImports(kernel: string, linked: LinkedImage[], builder: RequirementsBuilder, device: Device) {
    interface Use {
      image: ImageRecord;
      match: BundleMatch;
      symbols: string[];
      addOns: { id: string; holds: boolean; image: ImageRecord }[];
      checked: ImageRecord | undefined;
    }
    const imports: Use[] = [];
    const unavailable: UnavailableImport[] = [];
    const provided = new Map<string, Use | 'launch'>();
    const inLaunch = new Set<ImageRecord>(linked.map((entry) => entry.image));
    const checked = new Set<ImageRecord>();
    for (const entry of linked) for (const symbol of exportedSymbols(entry.image.source)) provided.set(symbol, 'launch');
    const queue = linked.map((entry) => entry.image);
    while (queue.length > 0) {
      const importer = queue.shift()!;
      for (const symbol of importedSymbols(importer.source)) {
        const known = provided.get(symbol);
        if (known !== undefined) {
          if (known !== 'launch' && !known.symbols.includes(symbol)) known.symbols.push(symbol);
          continue;
        }
        const candidates = this.#exporters(symbol, device, importer, kernel);
        const best = candidates[0]!;
        const withCode = best.image.source.empty ? candidates.find((candidate) => !candidate.image.source.empty) : best;
        if (!checked.has(best.image)) {
          checked.add(best.image);
          addImageRequirements(builder, best.image.source, symbol, device.facts);
        }
        if (withCode === undefined) {
          unavailable.push({ symbol, image: best.image });
          provided.set(symbol, 'launch');
          continue;
        }
        const existing = imports.find((use) => use.image === withCode.image);
        if (existing !== undefined) {
          existing.symbols.push(symbol);
          provided.set(symbol, existing);
          continue;
        }
        if (!checked.has(withCode.image)) {
          checked.add(withCode.image);
          addImageRequirements(builder, withCode.image.source, symbol, device.facts);
        }
        const choices = this.#addOnsOf(withCode.image, device);
        const use: Use = {
          image: withCode.image,
          match: withCode.match,
          symbols: [symbol],
          addOns: choices.map((choice) => ({ id: choice.id, holds: choice.holds, image: choice.image })),
          checked: withCode === best ? undefined : best.image,
        };
        imports.push(use);
        provided.set(symbol, use);
        for (const image of [withCode.image, ...choices.map((choice) => choice.image)]) {
          if (inLaunch.has(image)) continue;
          inLaunch.add(image);
          linked.push({ image, role: image === withCode.image ? 'import' : 'add-on' });
          queue.push(image);
          for (const exported of exportedSymbols(image.source)) if (!provided.has(exported)) provided.set(exported, use);
        }
        for (const choice of choices) addImageRequirements(builder, choice.image.source, undefined, device.facts);
      }
    }
    return { imports, unavailable };
  }

  #plan(kernel: string, device: Device): Plan {
    const cacheKey = `${device.id}\u0000${kernel}`;
    let plan = this.#plans.get(cacheKey);
    if (plan === undefined) {
      const candidates = this.#candidates(kernel, device);
      const first = this.#resolve(kernel, candidates[0]!.image, candidates[0]!.match, device);
      let build: Resolved | undefined = first;
      if (first.main.source.empty) {
        const next = candidates.find((candidate) => !candidate.image.source.empty);
        build = next === undefined ? undefined : this.#resolve(kernel, next.image, next.match, device);
      }
      plan = { first, build };
      this.#plans.set(cacheKey, plan);
    }
    return plan;
  }

  /**
   * Where `kernel` would run from on `device` and what it requires there, without checking or
   * building. Throws errc.runtime when no registered image defines the kernel for the device.
   */
  resolveKernel(kernel: string, device: Device): KernelResolution {
    return this.#plan(kernel, device).first.description;
  }

  /**
   * The check of a submission: throws what the submit call would throw (errc.kernel_not_supported,
   * errc.nd_range, errc.runtime), returns nothing when the kernel can run.
   */
  checkKernel(kernel: string, device: Device, submission: SubmissionShape = { dims: 0 }): void {
    const plan = this.#plan(kernel, device);
    const options = { aspectTable: this.aspectTable, semantics: this.semantics, submission };
    const error = checkKernelRequirements(plan.first.requirements, device, options);
    if (error !== undefined) throw error;
    if (plan.build === undefined) {
      throw new SyclError(
        errc.kernel_not_supported,
        `Kernel ${kernel} was not compiled for device ${device.name}: its image '${plan.first.main.source.name}' in bundle '${plan.first.main.bundle.target}' is empty (filtered out at compile time) and no other bundle defines it`,
      );
    }
    if (plan.build !== plan.first) {
      const fallback = checkKernelRequirements(plan.build.requirements, device, options);
      if (fallback !== undefined) throw fallback;
    }
    const missing = plan.build.unavailable[0];
    if (missing !== undefined) {
      throw new SyclError(
        errc.kernel_not_supported,
        `Kernel ${kernel} imports ${missing.symbol}, which device ${device.name} can only take from image '${missing.image.source.name}' in bundle '${missing.image.bundle.target}' of ${missing.image.bundle.binary.name}; that image is empty (filtered out at compile time) and no other bundle defines it`,
      );
    }
  }

  /**
   * Launches `kernel` on `device` over `range` (undefined: single_task): the check, then the
   * program (from the cache or built), then — when `args` are given — the kernel runs on the
   * device with them (`kernel-args.ts`; the device's backend must execute). Throws synchronously.
   */
  launch(kernel: string, device: Device, range: Range | NdRange | undefined, args?: readonly KernelArg[]): KernelLaunch {
    const nd = range !== undefined && isNdRange(range) ? range : undefined;
    const plain = range !== undefined && !isNdRange(range) ? range : undefined;
    // single_task is a 1-dimensional range of one work-item, as in intel/llvm.
    const dims = nd?.global.dims ?? plain?.dims ?? 1;
    this.checkKernel(kernel, device, nd === undefined ? { dims } : { dims, local: nd.local.sizes });
    if (nd !== undefined) checkNdRangeForDevice(nd, device);
    const plan = this.#plan(kernel, device);
    const build = plan.build!;
    const backend = device.programBackend ?? this.backend;
    let program = this.programCache.get(build.programKey);
    const hit = program !== undefined;
    if (program === undefined) {
      const records = build.linked.map((entry) => entry.image);
      const images: ProgramImage[] = build.linked.map(({ image, role }, i) => ({
        name: image.source.name,
        target: image.bundle.target,
        format: image.source.format,
        role,
        entries: image.source.entries,
        properties: image.source.properties,
        bytes: readBytes(image.source),
        specConstants: build.specConstants[i]!,
      }));
      program = backend.build({ device, kernel, images });
      this.#builtBy.set(program, backend);
      this.programCache.set(build.programKey, program, new Set(records.map((image) => image.bundle.binary.id)));
    }
    let execution: Execution | undefined;
    if (args !== undefined) {
      if (backend.execute === undefined) {
        throw new SyclError(errc.feature_not_supported, `the ${backend.name} backend builds programs but does not run kernels; kernel arguments need a device that executes (a CUDA device)`);
      }
      const kept = keptArguments(kernel, args, omittedParams(build.main.source.properties, kernel));
      execution = backend.execute({ device, kernel, program, range, args: kept });
    }
    const global = nd?.global ?? plain;
    const d = build.description;
    // One literal with every field (no spreads): this runs on every submission.
    return {
      kernel: d.kernel,
      binary: d.binary,
      bundle: d.bundle,
      match: d.match,
      image: d.image,
      empty: d.empty,
      addOnImages: d.addOnImages,
      importedImages: d.importedImages,
      requirements: d.requirements,
      device,
      range,
      workItems: global === undefined ? 1 : rangeSize(global),
      program,
      programCacheHit: hit,
      execution,
      fellBackFrom: build === plan.first ? undefined : { bundle: plan.first.main.bundle.target, image: plan.first.main.source.name },
    };
  }
}

/** An image's bytes; a failure to read them (e.g. a corrupted container record) is an errc.runtime. */
function readBytes(image: BinaryImageSource): Uint8Array {
  try {
    return image.bytes();
  } catch (error) {
    if (error instanceof SyclError) throw error;
    throw new SyclError(errc.runtime, `cannot read device image '${image.name}': ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The nd_range checks a device makes at enqueue (errc.nd_range, intel/llvm's texts). */
export function checkNdRangeForDevice(nd: NdRange, device: Device): void {
  const total = rangeSize(nd.local);
  if (total > device.maxWorkGroupSize) {
    throw new SyclError(errc.nd_range, `Total number of work-items in a work-group cannot exceed ${device.maxWorkGroupSize}`);
  }
  if (nd.global.sizes.some((size, i) => size % nd.local.sizes[i]! !== 0)) {
    throw new SyclError(errc.nd_range, 'Non-uniform work-groups are not supported by the target device');
  }
}

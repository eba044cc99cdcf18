/**
 * The whole sycl-post-link run as a library call: split, then for each image write the IR, the
 * symbol table and one property file per output table, and finally the tables. Files go through
 * the caller's `PostLinkIO`, so tests and the driver can run it in memory.
 *
 * Images are written as they are made; only their file names are kept until the tables are
 * written. If anything fails, the files written so far are removed and no table is written.
 */
import type { DeviceConfig } from '@syclkit/device-config';
import { createPostLinkTable, PropertySetName, uint32Value, writePropertySetRegistry, writeSymbolFile, type FileTable, type PropertyValue } from '@syclkit/formats';
import { stubModule } from './stubs.js';
import { cloneModule, Module, PrintCache, printModuleTo, type IRFunction } from '@syclkit/ir';
import { SpecConstantProcessor } from './spec-constants.js';
import { AddOnImageProcessor, deviceIfGraphOptions, hasConditionalCalls, resolveForTarget } from './device-if.js';
import type { GroupScope } from './grouping.js';
import { groupScope } from './grouping.js';
import { imageFileNames, outputPrefix, type OutputTableSpec } from './output-names.js';
import { computeImageProperties, type PropertyOptions } from './properties.js';
import { aspectTableOf, checkExternalFunctions, computeImageRequirements, imageFeatures, type ImageRequirements } from './requirements.js';
import { planSplit, type SplitImage, type SplitOptions } from './split.js';
import { targetIncompatibility } from './target-filter.js';

/** A message for the user; `warning`s do not stop the run. */
export interface PostLinkDiagnostic {
  readonly severity: 'error' | 'warning' | 'note';
  /** Stable id, e.g. `unexpected-aspect`, `incompatible-image`. */
  readonly code: string;
  readonly message: string;
}

/** A failure the tool reports as an error (non-zero exit, no table written). */
export class PostLinkError extends Error {
  override readonly name = 'PostLinkError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface PostLinkOptions extends SplitOptions, PropertyOptions {
  /** The `-o` values in order; the first decides the file prefix. */
  readonly outputs: readonly OutputTableSpec[];
  /** `-out-dir`. */
  readonly outDir?: string;
  /** `-symbols`: `.sym` files and the Symbols column. */
  readonly symbols?: boolean;
  /** `.prop` files and the Properties column (default true, as the 2023 tool always wrote them). */
  readonly properties?: boolean;
  /** `-S`: write `.ll` instead of `.bc`. */
  readonly textIR?: boolean;
  /** Targets of `-o <target>,<table>` are looked up here. */
  readonly deviceConfig?: DeviceConfig;
  /**
   * What a target table lists for an image the target cannot run: `drop` leaves the row out
   * (intel/llvm); `empty-module` keeps the row with an empty IR module and the image's own
   * properties and symbols (OptionalDeviceFeatures.md).
   */
  readonly incompatibleImages?: 'drop' | 'empty-module';
  /** Run the design's SYCL_EXTERNAL check on every image (warnings, final requirements). */
  readonly checkExternalFunctions?: boolean;
  /**
   * device_if: `add-on-images` (default; only acts when the module has conditional calls) or
   * `{ aotTarget }` to decide the conditions for one AOT target before splitting; `off` leaves
   * conditional calls alone.
   */
  readonly deviceIf?: 'add-on-images' | 'off' | { readonly aotTarget: string };
  /**
   * `bundling` (default): requirements decide which kernels share an image (see `policy`).
   * `spec-constants`: the alternative design: kernels are bundled whatever they require and each
   * kernel / exported function gets its requirements in `SYCL/requirements`, with spec ids.
   */
  readonly requirementStrategy?: 'bundling' | 'spec-constants';
  /** First spec id of the spec-constant strategy. */
  readonly specIdBase?: number;
  /**
   * Only handle the images whose id is `index` modulo `count` (a sharded run: several processes
   * or threads each write their part; `rowIds` in the result lets the tables be merged).
   */
  readonly shard?: { readonly index: number; readonly count: number };
  /** The input path, used as the Code cell when nothing was modified and no `-o` was given. */
  readonly inputPath?: string;
  /** Whether `-o` was given on the command line (upstream's "no modifications" case needs it). */
  readonly outputsGiven?: boolean;
}

export interface PostLinkIO {
  /**
   * Writes a file atomically; strings are latin1 text (IR names are bytes). May only start the
   * write: `settle` waits for it.
   */
  writeFile(path: string, data: string | Uint8Array): void;
  /** Back-pressure: a promise to wait for before the next image, or undefined to go on. */
  ready?(): Promise<void> | undefined;
  /** Waits for every write started so far; rejects with the first failure. */
  settle?(): Promise<void>;
  /** Removes a file written earlier in this run (cleanup after a failure). */
  removeFile?(path: string): void;
  /** Bitcode for the textual IR (`.bc` outputs); only called without `textIR`. */
  encodeBitcode?(text: Uint8Array): Uint8Array;
}

export interface PostLinkImageReport {
  readonly id: number;
  readonly code: string;
  readonly entryPoints: readonly string[];
  readonly requirements: ImageRequirements;
}

export interface PostLinkResult {
  /** One table per output; `rowIds` gives the image id of each row. */
  readonly tables: readonly { readonly spec: OutputTableSpec; readonly table: FileTable; readonly rowIds: readonly number[] }[];
  readonly images: readonly PostLinkImageReport[];
  readonly diagnostics: readonly PostLinkDiagnostic[];
}

/** Hooks that turn one split image into the images actually written (device_if, strategies). */
export interface ImageProcessor {
  /** Returns the images to write for `image` (usually just itself, possibly with extras). */
  process(image: SplitImage, context: ProcessorContext): ProcessedImage[];
}

export interface ProcessorContext {
  readonly scope: GroupScope;
  report(diagnostic: PostLinkDiagnostic): void;
}

/** An image ready to write, with anything it adds to its properties. */
export interface ProcessedImage {
  readonly module: Module;
  readonly entryPoints: readonly IRFunction[];
  readonly esimd: boolean;
  /** Property sets appended after the standard ones. */
  readonly extraSets?: readonly (readonly [string, readonly (readonly [string, PropertyValue])[]])[];
}

/**
 * The textual IR of a module as latin1 bytes, in one right-sized buffer (the printer's chunks
 * are slices of 1 MiB buffers; keeping one alive until its write completes would pin the rest).
 */
export function printBytes(m: Module, cache?: PrintCache): Uint8Array {
  const chunks: Uint8Array[] = [];
  printModuleTo(m, (chunk) => chunks.push(chunk), cache === undefined ? {} : { cache });
  if (chunks.length === 1) {
    const only = chunks[0]!;
    return only.byteLength * 2 >= only.buffer.byteLength ? only : new Uint8Array(only);
  }
  return Buffer.concat(chunks);
}

/**
 * An image that defines virtual functions (`indirectly-callable` entry points) and needs optional
 * aspects gets a dummy twin, so that a device without those aspects can still link the set.
 */
function needsDummyImage(image: ProcessedImage, requirements: ImageRequirements): boolean {
  return requirements.aspects.length > 0 && image.entryPoints.some((fn) => fn.attributes.fn.hasString('indirectly-callable'));
}

/** The dummy twin: the virtual functions with empty bodies, `dummy-image=1` in `SYCL/virtual functions`. */
function dummyImage(image: ProcessedImage): ProcessedImage {
  const virtuals = image.entryPoints.filter((fn) => fn.attributes.fn.hasString('indirectly-callable'));
  const { module, stubs } = stubModule(image.module, virtuals.map((fn) => [fn, fn.name] as const));
  return { module, entryPoints: stubs, esimd: image.esimd, extraSets: [[PropertySetName.VIRTUAL_FUNCTIONS, [['dummy-image', uint32Value(1)]]]] };
}

/** Runs sycl-post-link over a parsed module. */
export async function runPostLink(module: Module, options: PostLinkOptions, io: PostLinkIO, processor?: ImageProcessor): Promise<PostLinkResult> {
  if (options.outputs.length === 0) throw new PostLinkError('no output table given', 'no-output');
  const diagnostics: PostLinkDiagnostic[] = [];
  const report = (d: PostLinkDiagnostic): void => void diagnostics.push(d);
  const written: string[] = [];
  const write = (path: string, data: string | Uint8Array): void => {
    io.writeFile(path, data);
    written.push(path);
  };
  try {
    const result = await run(module, options, io, write, report, diagnostics, processor);
    await io.settle?.();
    return result;
  } catch (error) {
    await io.settle?.().catch(() => undefined);
    for (const path of written.reverse()) {
      try {
        io.removeFile?.(path);
      } catch {
        // best effort: the original error matters more
      }
    }
    throw error;
  }
}

async function run(
  module: Module,
  options: PostLinkOptions,
  io: PostLinkIO,
  write: (path: string, data: string | Uint8Array) => void,
  report: (d: PostLinkDiagnostic) => void,
  diagnostics: PostLinkDiagnostic[],
  givenProcessor: ImageProcessor | undefined,
): Promise<PostLinkResult> {
  // device_if: AOT resolves the conditions for the target before the split (on a copy of the
  // input); otherwise conditional calls are turned into add-on images after it.
  let input = module;
  let splitOptions: SplitOptions = options;
  let processor = givenProcessor;
  const deviceIf = options.deviceIf ?? 'add-on-images';
  if (typeof deviceIf === 'object') {
    if (options.deviceConfig === undefined) throw new PostLinkError('device_if resolution for an AOT target needs a device configuration', 'no-device-config');
    input = cloneModule(module);
    for (const d of resolveForTarget(input, options.deviceConfig, deviceIf.aotTarget)) report(d);
    if (diagnostics.some((d) => d.severity === 'error')) throw new PostLinkError(`device_if conditions could not be resolved for target '${deviceIf.aotTarget}'`, 'device-if-unresolved');
  } else if (deviceIf === 'add-on-images' && processor === undefined && hasConditionalCalls(module)) {
    splitOptions = { ...options, graph: { ...options.graph, ...deviceIfGraphOptions() } };
  }
  if (options.requirementStrategy === 'spec-constants') {
    if (splitOptions !== options) throw new PostLinkError('device_if add-on images and the spec-constant requirement strategy cannot be combined', 'unsupported-combination');
    splitOptions = { ...splitOptions, policy: 'features-blind' };
    processor ??= new SpecConstantProcessor(options.specIdBase !== undefined ? { specIdBase: options.specIdBase } : {});
  }
  const plan = planSplit(input, splitOptions);
  if (splitOptions.graph !== options.graph) processor = new AddOnImageProcessor(input, () => plan);
  const scope = groupScope(options.mode ?? 'none', options.irOutputOnly ?? false);
  // Images share the input's function objects (read-only), so their printed bodies are reused.
  const printCache = new PrintCache();
  const encode = (m: Module): Uint8Array => {
    const text = printBytes(m, printCache);
    if (options.textIR) return text;
    if (io.encodeBitcode === undefined) throw new PostLinkError('bitcode output needs an encoder; use text IR (-S)', 'no-bitcode-writer');
    return io.encodeBitcode(text);
  };

  if (options.irOutputOnly) {
    if (plan.splitOccurred) throw new PostLinkError("some modules had to be split, '-ir-output-only' can't be used", 'split-with-ir-output-only');
    const first = plan.images().next();
    if (first.done) throw new PostLinkError('no module to write', 'no-module');
    const processed = processor?.process(first.value, { scope, report }) ?? [first.value];
    if (processed.length !== 1) throw new PostLinkError("the module needs more than one image, '-ir-output-only' can't be used", 'split-with-ir-output-only');
    write(options.outputs[0]!.path, encode(processed[0]!.module));
    return { tables: [], images: [], diagnostics };
  }

  const prefix = outputPrefix(options.outputs[0]!.path, options.outDir);
  const withProps = options.properties ?? true;
  const withSymbols = options.symbols ?? false;
  const config = options.deviceConfig;
  const rows = options.outputs.map(() => [] as { code: string; properties?: string; symbols?: string }[]);
  const rowIds = options.outputs.map(() => [] as number[]);
  const reports: PostLinkImageReport[] = [];
  const keepInput = !plan.modified && !options.outputsGiven && options.inputPath !== undefined;
  if (keepInput) report({ severity: 'note', code: 'no-modifications', message: 'no modifications to the input LLVM IR have been made' });
  let emptyModule: string | undefined;
  const emptyModulePath = (): string => {
    if (emptyModule === undefined) {
      emptyModule = `${prefix}_empty.${options.textIR ? 'll' : 'bc'}`;
      const empty = new Module(module.id, module.context);
      empty.sourceFilename = module.sourceFilename;
      empty.dataLayout = module.dataLayout;
      empty.triple = module.triple;
      write(emptyModule, encode(empty));
    }
    return emptyModule;
  };

  const queue: ProcessedImage[] = [];
  const emit = (image: ProcessedImage, imageId: number): ImageRequirements => {
    const names = imageFileNames(prefix, imageId, image.esimd, options.textIR ?? false);
    const code = keepInput ? options.inputPath! : names.code;
    if (!keepInput) write(code, encode(image.module));
    const features = imageFeatures(image.module);
    const table = aspectTableOf(image.module);
    let requirements = computeImageRequirements(image.module, image.entryPoints, features, table);
    let fixedTargetOverride: readonly number[] | undefined;
    if (options.checkExternalFunctions) {
      const check = checkExternalFunctions(image.module, image.entryPoints, features, table);
      for (const w of check.warnings) report({ severity: 'warning', code: w.code, message: w.message });
      if (check.fixedTargetImage) fixedTargetOverride = check.finalFixedTargets;
      else {
        const aspects = check.finalUsedAspects.filter((v) => v >= 0).map((value) => {
          const name = requirements.aspects.find((a) => a.value === value)?.name ?? table.nameOf(value);
          return name === undefined ? { value } : { value, name };
        });
        const merged = new Map(requirements.aspects.map((a) => [a.value, a]));
        for (const a of aspects) if (!merged.has(a.value)) merged.set(a.value, a);
        requirements = { ...requirements, aspects: [...merged.values()].sort((a, b) => a.value - b.value) };
      }
    }
    let symbols: string | undefined;
    if (withSymbols) {
      symbols = names.symbols;
      write(symbols, writeSymbolFile(image.entryPoints.map((fn) => fn.name)));
    }
    options.outputs.forEach((spec, i) => {
      let codeCell = code;
      if (spec.target !== undefined && config !== undefined) {
        const why = targetIncompatibility(config, spec.target, { aspects: requirements.aspects, reqdSubGroupSize: requirements.reqdSubGroupSize, esimd: image.esimd });
        if (why !== undefined) {
          const reason = why.kind === 'aspect' ? `aspect '${why.aspect.name ?? why.aspect.value}'` : `sub-group size ${why.size}`;
          report({ severity: 'note', code: 'incompatible-image', message: `image ${imageId} needs ${reason}, which target '${spec.target}' does not support` });
          if ((options.incompatibleImages ?? 'drop') === 'drop') return;
          codeCell = emptyModulePath();
        }
      }
      const row: { code: string; properties?: string; symbols?: string } = { code: codeCell };
      if (withProps) {
        row.properties = names.properties(spec.target);
        const registry = computeImageProperties(
          {
            module: image.module,
            entryPoints: image.entryPoints,
            esimd: image.esimd,
            requirements,
            ...(spec.target !== undefined ? { compileTarget: spec.target } : {}),
            ...(image.extraSets !== undefined ? { extraSets: image.extraSets } : {}),
            ...(fixedTargetOverride !== undefined ? { fixedTargetOverride } : {}),
          },
          { ...options, dropReqdWorkGroupSize: options.dropReqdWorkGroupSize ?? (options.mode ?? 'none') === 'none' },
        );
        write(row.properties, writePropertySetRegistry(registry));
      }
      if (symbols !== undefined) row.symbols = symbols;
      rows[i]!.push(row);
      rowIds[i]!.push(imageId);
    });
    reports.push({ id: imageId, code, entryPoints: image.entryPoints.map((fn) => fn.name), requirements });
    return requirements;
  };

  if (options.deviceGlobals) {
    const [conflict] = plan.deviceImageScopeConflicts();
    if (conflict !== undefined) {
      throw new PostLinkError(`device_global variable '${conflict}' with property "device_image_scope" is used in more than one device image.`, 'device-image-scope');
    }
  }
  const shard = options.shard;
  if (shard !== undefined && processor !== undefined) throw new PostLinkError('a sharded run cannot add images (device_if, requirement strategies)', 'shard-with-processor');
  // Output ids: the split's, except that a dummy image takes the id after its image and moves
  // the later ones up (so a sharded run, which needs the split's ids, cannot make dummies).
  let outId = -1;
  let lastSplitId = -1;
  for (const image of plan.images(shard === undefined ? undefined : (id) => id % shard.count === shard.index)) {
    const [main, ...extra] = processor?.process(image, { scope, report }) ?? [image];
    if (shard !== undefined) outId = image.id;
    else if (image.id !== lastSplitId) {
      outId++;
      lastSplitId = image.id;
    }
    if (main !== undefined) {
      const requirements = emit(main, outId);
      if (needsDummyImage(main, requirements)) {
        if (shard !== undefined) throw new PostLinkError('a sharded run cannot add dummy images for virtual functions', 'shard-with-dummy');
        emit(dummyImage(main), ++outId);
      }
    }
    queue.push(...extra);
    const wait = io.ready?.();
    if (wait !== undefined) await wait;
  }
  // Images a processor adds (device_if add-on images) follow the split images.
  let nextId = outId + 1;
  for (const extra of queue) emit(extra, nextId++);

  const tables = options.outputs.map((spec, i) => ({
    spec,
    table: createPostLinkTable(rows[i]!, { properties: withProps, symbols: withSymbols }),
    rowIds: rowIds[i]!,
  }));
  return { tables, images: reports, diagnostics };
}

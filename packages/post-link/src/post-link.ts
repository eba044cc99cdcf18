/**
 * The whole sycl-post-link run as a library call, over the passes of passes.ts: the options become
 * a pipeline (`postLinkPipelineText`), which runs over an image set whose file sink is the
 * caller's `PostLinkIO`, so tests and the driver can run it in memory.
 *
 * Images are written as they are made; only their file names are kept until the tables are
 * written. If anything fails, the files written so far are removed and no table is written.
 */
import type { DeviceConfig } from '@syclkit/device-config';
import type { FileTable, PropertyValue } from '@syclkit/formats';
import type { IRFunction, Module } from '@syclkit/ir';
import { createRegistry, type Diagnostic, type PassRegistry } from '@syclkit/pass-manager';
import type { GroupScope } from './grouping.js';
import { ImageSet, imageSetKind } from './image-set.js';
import { outputPrefix, type OutputTableSpec } from './output-names.js';
import { BITCODE_ENCODER, CODE_CELL, FILE_SINK, keptInput, postLinkAnalyses, postLinkPasses, tablesOf } from './passes.js';
import type { PropertyOptions } from './properties.js';
import type { ImageRequirements } from './requirements.js';
import type { SplitImage, SplitOptions } from './split.js';

export { printBytes } from './print.js';

/** A message for the user; `warning`s do not stop the run. */
export interface PostLinkDiagnostic {
  readonly severity: 'error' | 'warning' | 'note';
  /** Stable id, e.g. `unexpected-aspect`, `incompatible-image`. */
  readonly code: string;
  readonly message: string;
}

/**
 * A failure the tool reports as an error (non-zero exit, no table written). It carries every
 * diagnostic of the run up to the failure (the device_if problems that made resolution fail, the
 * warnings before them), so callers need not redo any work to say why.
 */
export class PostLinkError extends Error {
  override readonly name = 'PostLinkError';
  constructor(
    message: string,
    readonly code: string,
    readonly diagnostics: readonly Diagnostic[] = [],
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

/** Hooks that turn one split image into the images actually written (the device_if and spec-constant passes use them). */
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


let registry: PassRegistry | undefined;

/** A registry of post-link's passes and analyses (image sets; `@syclkit/passes` has every pass). */
export function postLinkRegistry(): PassRegistry {
  registry ??= createRegistry({ unitKinds: [imageSetKind], passes: [...postLinkPasses], analyses: [...postLinkAnalyses] });
  return registry;
}

/**
 * The pipeline (image-set pipeline text) a sycl-post-link run with these options is: what
 * `runPostLink` and `syclkit post-link` run.
 */
export function postLinkPipelineText(options: Omit<PostLinkOptions, 'outputs'>): string {
  const deviceIf = options.deviceIf ?? 'add-on-images';
  const specConstants = options.requirementStrategy === 'spec-constants';
  const flags = (entries: readonly (string | false | undefined)[]): string => {
    const given = entries.filter((e): e is string => typeof e === 'string' && e !== '');
    return given.length === 0 ? '' : `<${given.join(';')}>`;
  };
  const steps: string[] = [];
  if (typeof deviceIf === 'object') steps.push(`device-if<aot-target=${deviceIf.aotTarget}>`);
  else if (deviceIf === 'add-on-images') steps.push('device-if<add-on-images>');
  steps.push(
    'split' +
      flags([
        options.mode ?? 'none',
        `bundling=${specConstants ? 'features-blind' : (options.policy ?? 'upstream')}`,
        options.emitOnlyKernelsAsEntryPoints && 'kernels-only',
        options.splitEsimd && 'split-esimd',
        options.allowDeviceImageDependencies && 'dynamic-linking',
        options.irOutputOnly && 'ir-output-only',
        options.deviceGlobals && 'device-image-scope',
      ]),
  );
  const emit = `emit-ir<${options.textIR ? 'text' : 'bitcode'}>`;
  const perImage = ['device-if-add-on-images'];
  if (specConstants) perImage.push(`spec-constant-requirements<spec-id-base=${options.specIdBase ?? 0x40000000}>`);
  if (options.irOutputOnly) perImage.push(emit, 'write-image-files');
  else {
    perImage.push(
      `image-requirements${flags([options.checkExternalFunctions && 'check-sycl-external'])}`,
      'virtual-function-dummies',
      `filter-targets<${options.incompatibleImages ?? 'drop'}>`,
      'image-properties' +
        flags([
          options.emitParamInfo && 'param-info',
          options.emitProgramMetadata && 'program-metadata',
          options.emitExportedSymbols && 'exported-symbols',
          options.emitImportedSymbols && 'imported-symbols',
          options.deviceGlobals && 'device-globals',
          options.legacyReqdWorkGroupSize === false && 'no-legacy-reqd-work-group-size',
          options.dropReqdWorkGroupSize !== undefined && `reqd-work-group-size=${options.dropReqdWorkGroupSize ? 'drop' : 'keep'}`,
        ]),
      emit,
      'write-image-files' + flags([options.symbols && 'symbols', options.properties === false && 'no-properties']),
    );
  }
  steps.push(`image(${perImage.join(',')})`);
  return steps.join(',');
}

/** Runs sycl-post-link over a parsed module (the pipeline of `postLinkPipelineText`). */
export async function runPostLink(module: Module, options: PostLinkOptions, io: PostLinkIO): Promise<PostLinkResult> {
  if (options.outputs.length === 0) throw new PostLinkError('no output table given', 'no-output');
  const set = new ImageSet(module, {
    outputs: options.outputs.map((o) => ({ name: o.path, ...(o.target === undefined ? {} : { target: o.target }) })),
    ...(options.deviceConfig === undefined ? {} : { deviceConfig: options.deviceConfig }),
    ...(options.shard === undefined ? {} : { shard: options.shard }),
  });
  const written: string[] = [];
  set.set(FILE_SINK, {
    prefix: outputPrefix(options.outputs[0]!.path, options.outDir),
    writeFile: (path, data) => {
      io.writeFile(path, data);
      written.push(path);
    },
    ...(io.ready === undefined ? {} : { ready: () => io.ready!() }),
    ...(!options.outputsGiven && options.inputPath !== undefined ? { input: options.inputPath } : {}),
  });
  if (io.encodeBitcode !== undefined) set.set(BITCODE_ENCODER, io.encodeBitcode.bind(io));
  const pipeline = postLinkRegistry().build(postLinkPipelineText(options), { unit: imageSetKind, source: 'post-link' });
  const cleanUp = async (): Promise<void> => {
    await io.settle?.().catch(() => undefined);
    for (const path of written.reverse()) {
      try {
        io.removeFile?.(path);
      } catch {
        // best effort: the original error matters more
      }
    }
  };
  let run;
  try {
    run = await pipeline.runAsync(set);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const keep = keptInput(set);
  const notes: Diagnostic[] = keep === undefined ? [] : [{ severity: 'note', code: 'no-modifications', message: 'no modifications to the input LLVM IR have been made', notes: [], fatal: false }];
  const all = [...notes, ...run.diagnostics];
  if (run.stopped) {
    await cleanUp();
    const fatal = all.find((d) => d.fatal) ?? all[all.length - 1]!;
    throw new PostLinkError(fatal.message, fatal.code, all);
  }
  try {
    await io.settle?.();
  } catch (error) {
    await cleanUp();
    throw error;
  }
  const diagnostics = all.map(toPostLinkDiagnostic);
  if (options.irOutputOnly) return { tables: [], images: [], diagnostics };
  const withProps = options.properties ?? true;
  const withSymbols = options.symbols ?? false;
  const tables = tablesOf(set, { properties: withProps, symbols: withSymbols }).map((t, i) => ({ spec: options.outputs[i]!, ...t }));
  const images = set.produced.map((image) => ({
    id: image.id,
    code: keep ?? image.get(CODE_CELL) ?? '',
    entryPoints: image.entryNames,
    requirements: image.requirements!,
  }));
  return { tables, images, diagnostics };
}

function toPostLinkDiagnostic(d: Diagnostic): PostLinkDiagnostic {
  return { severity: d.severity === 'error' || d.severity === 'warning' ? d.severity : 'note', code: d.code, message: d.message };
}

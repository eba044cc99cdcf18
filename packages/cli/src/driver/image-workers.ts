/**
 * `-j N`: the images of an image set shared by the main thread and N-1 worker threads.
 *
 * Every thread runs the same image-set pipeline over its own parse of the same program text; the
 * split is deterministic, so all agree on the split images and their ids. Each split image is
 * built by whichever thread claims its id first (an atomic flag per id in shared memory): the
 * main thread starts on images while the workers still parse, and a thread that finishes early
 * takes more. A thread hands over each image when done with it — encoded container records
 * (compile), or the files it wrote (post-link, whose rows come at the end) — with the
 * diagnostics reported while it was processed. The main thread writes records, rows and
 * diagnostics in id order, so the output is byte for byte the one of `-j 1`.
 *
 * Only sets whose images are the split's, one per split id, can be shared: device_if add-on
 * images and the dummy images of virtual functions are added while images are produced, and the
 * two halves of an ESIMD split share an id; those runs keep one thread.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DeviceConfig, loadDeviceConfigFile } from '@syclkit/device-config';
import { Context, parseModule, printModule, type Module, type ParseOptions } from '@syclkit/ir';
import { gpuCompilerFor } from './gpu-aot.js';
import { aotCompilerFor, encodeImageRecord, type AotCompiler, type ContainerWriter, type EncodedImageRecord } from '@syclkit/offload-wrapper';
import { type Diagnostic, type DiagnosticPolicy, type Instrumentation, type Pipeline, type RunResult } from '@syclkit/pass-manager';
import { AOT_COMPILERS, AOT_JOBS, CONTAINER, EXPLAIN_FACTS, IMAGE_PREFIXES, type ImageContainer } from '@syclkit/passes';
import { BITCODE_ENCODER, FILE_SINK, ImageSet, imageSetKind, tablesOf, type ImageOutput, type ImageUnit } from '@syclkit/post-link';
import { runLlvmTool } from '../llvm-tools.js';
import { passRegistry } from '../passes.js';
import { explainSource, type ProgramFacts } from './facts.js';
import { loadPassModules } from './load-pass.js';
import { RunOutputs } from './run-outputs.js';
import { imageWorkerEntry } from './worker-entry.js';

/** What a worker needs to build its share of a set: plain data (it crosses to the thread). */
export interface ShareJob {
  /** The program as IR text (latin1 bytes) and how to read it. */
  readonly program: Uint8Array;
  readonly filename: string;
  readonly pointers?: ParseOptions['pointers'];
  /**
   * The main thread's metadata kinds in id order: a worker registers them before it parses, so
   * that attachments print in the order they do on the main thread (kind ids decide it).
   */
  readonly metadataKinds?: readonly string[];
  /** The image-set pipeline (canonical text). */
  readonly pipeline: string;
  readonly outputs: readonly ImageOutput[];
  /** The device configuration: the built-in one plus this file, if any. */
  readonly configFile?: string;
  /** `--load-pass` modules (the pipeline may name their passes). */
  readonly loadPass: readonly string[];
  readonly policy?: DiagnosticPolicy;
  /** compile: AOT back end per output, image name prefixes, explanation facts (JSON). */
  readonly wrap?: {
    readonly backends: readonly string[];
    /** `-Xsycl-target-backend` arguments of each output (the `gpu` back end takes them). */
    readonly backendArgs?: readonly (readonly string[])[];
    readonly prefixes: readonly string[];
    readonly facts?: string;
  };
  /** post-link, or compile -save-temps: where files go, and the tables to remove before the first write. */
  readonly files?: { readonly prefix: string; readonly prefixes?: readonly string[]; readonly tables: readonly string[]; readonly bitcode: boolean };
}

type WorkerMessage =
  | { readonly type: 'image'; readonly id: number; readonly records: readonly EncodedImageRecord[]; readonly diagnostics: readonly Diagnostic[] }
  | {
      readonly type: 'done';
      readonly stopped: boolean;
      /** When stopped: the diagnostics of the image it stopped in (the others came with their images). */
      readonly unfinished: readonly Diagnostic[];
      readonly rows: readonly { readonly rows: readonly (readonly string[])[]; readonly ids: readonly number[] }[];
      readonly written: readonly string[];
    }
  | { readonly type: 'error'; readonly message: string };

interface WorkerData {
  readonly syclkitImageShare: {
    readonly job: ShareJob;
    readonly claims: SharedArrayBuffer;
    readonly index: number;
    /** The module the worker imports for `imageWorkerMain` (worker-entry.ts). */
    readonly entry: string;
  };
}

/** Claims split ids in shared memory: each id goes to the first thread that asks. */
function claimer(claims: SharedArrayBuffer): (id: number) => boolean {
  const flags = new Int32Array(claims);
  // An id beyond the table (cannot happen: ids are fewer than functions) is the main thread's.
  return (id) => (id < flags.length ? Atomics.compareExchange(flags, id, 0, 1) === 0 : isMainThread);
}

/** Collects what one thread makes of its images: records per image, diagnostics per image. */
class ShareCollector implements ImageContainer {
  #records: EncodedImageRecord[] = [];
  #diagnostics: Diagnostic[] = [];
  readonly other: Diagnostic[] = [];
  #current: ImageSet | undefined;

  constructor(private readonly deliver: (id: number, records: EncodedImageRecord[], diagnostics: Diagnostic[]) => void) {}

  watch(set: ImageSet): void {
    this.#current = set;
  }

  addImage(image: Parameters<ImageContainer['addImage']>[0]): void {
    this.#records.push(encodeImageRecord(image));
  }

  diagnostic(d: Diagnostic): void {
    if (this.#current?.current !== undefined) this.#diagnostics.push(d);
    else this.other.push(d);
  }

  /** Diagnostics of an image not handed over (the run stopped in it). */
  unfinished(): Diagnostic[] {
    return this.#diagnostics;
  }

  imageDone(image: ImageUnit): void {
    const records = this.#records;
    const diagnostics = this.#diagnostics;
    this.#records = [];
    this.#diagnostics = [];
    this.deliver(image.id, records, diagnostics);
  }
}

/** The set a thread builds: its share of the split, with the job's slots. */
function shareSet(program: Module, job: ShareJob, config: DeviceConfig, include: (id: number) => boolean, collector: ShareCollector, outputs: RunOutputs | undefined): ImageSet {
  const set = new ImageSet(program, { outputs: job.outputs, deviceConfig: config, include, onImageDone: (image) => collector.imageDone(image) });
  collector.watch(set);
  if (job.wrap !== undefined) {
    set.set(CONTAINER, collector);
    set.set(IMAGE_PREFIXES, job.wrap.prefixes);
    set.set(AOT_COMPILERS, job.outputs.map((o, i) => workerCompiler(job.wrap!.backends[i] ?? 'ir', o.target ?? o.name, job.wrap!.backendArgs?.[i] ?? [], config)));
    if (job.wrap.facts !== undefined) set.set(EXPLAIN_FACTS, explainSource(JSON.parse(job.wrap.facts) as ProgramFacts));
  }
  if (job.files !== undefined && outputs !== undefined) {
    set.set(FILE_SINK, { prefix: job.files.prefix, ...(job.files.prefixes === undefined ? {} : { prefixes: job.files.prefixes }), writeFile: (path, data) => outputs.write(path, data) });
    if (job.files.bitcode) set.set(BITCODE_ENCODER, (ir) => new Uint8Array(runLlvmTool('llvm-as', ['-o', '-', '-'], ir, 'writing bitcode (use -S for text)')));
  }
  return set;
}

/** Worker side: parse, run the pipeline over the images this thread claims, hand each over. */
async function runWorker(data: WorkerData['syclkitImageShare']): Promise<void> {
  const port = parentPort!;
  const post = (message: WorkerMessage): void => port.postMessage(message);
  let outputs: RunOutputs | undefined;
  try {
    const { job } = data;
    const text = Buffer.from(job.program.buffer, job.program.byteOffset, job.program.byteLength).toString('latin1');
    const context = new Context();
    for (const kind of job.metadataKinds ?? []) context.md.kinds.id(kind);
    const program = parseModule(text, { filename: job.filename, context, ...(job.pointers === undefined ? {} : { pointers: job.pointers }) });
    let registry = passRegistry();
    if (job.loadPass.length > 0) registry = (await loadPassModules(job.loadPass, registry)).registry;
    const config = job.configFile === undefined ? DeviceConfig.builtin() : loadDeviceConfigFile(DeviceConfig.builtin(), job.configFile).config;
    outputs = job.files === undefined ? undefined : new RunOutputs(job.files.tables);
    // Records are copied to the main thread, not transferred: image bytes may share a buffer.
    const collector = new ShareCollector((id, records, diagnostics) => post({ type: 'image', id, records, diagnostics }));
    const set = shareSet(program, job, config, claimer(data.claims), collector, outputs);
    const result = await registry.build<ImageSet>(job.pipeline, { unit: imageSetKind }).runAsync(set, {
      ...(job.policy === undefined ? {} : { policy: job.policy }),
      onDiagnostic: (d) => collector.diagnostic(d),
    });
    const rows = job.files === undefined ? [] : tablesOf(set, { symbols: true, properties: true }).map((t) => ({ rows: t.table.rows, ids: t.rowIds }));
    post({ type: 'done', stopped: result.stopped, unfinished: result.stopped ? collector.unfinished() : [], rows, written: outputs?.written ?? [] });
  } catch (error) {
    outputs?.discard();
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * The worker side: the thread a shared run starts calls this, and only this (see `spawnWorker`).
 * Nothing runs at this module's top level: in the CLI bundle, this code is in a chunk that the
 * bundle's entry loads on demand.
 */
export async function imageWorkerMain(): Promise<void> {
  const data = (workerData as Partial<WorkerData> | null)?.syclkitImageShare;
  if (isMainThread || data === undefined) throw new Error('internal: imageWorkerMain runs only in an image worker thread');
  await runWorker(data);
}

/**
 * A worker thread's first code: it imports this module — or, run from the CLI bundle, the module
 * worker-entry.ts names (bin/load-bundle.js, which loads the bundle) — and calls `imageWorkerMain`.
 * (An evaluated script is CommonJS: `require` is there, and `import()` takes the file URL.)
 */
const WORKER_BOOT = "const { workerData } = require('node:worker_threads');\nimport(workerData.syclkitImageShare.entry).then((m) => m.imageWorkerMain());\n";

function spawnWorker(data: WorkerData['syclkitImageShare']): Worker {
  return new Worker(WORKER_BOOT, { eval: true, workerData: { syclkitImageShare: data } satisfies WorkerData });
}

/** What the main thread gets back from a shared run. */
export interface SharedRun {
  /** The main thread's run, with every thread's diagnostics in `-j 1` order. */
  readonly result: RunResult;
  /** Rows per output with their image ids, every thread's (post-link and -save-temps). */
  readonly rows: readonly { readonly rows: readonly (readonly string[])[]; readonly ids: readonly number[] }[];
  /** Files every thread wrote (to remove after a failure). */
  readonly written: readonly string[];
  /** How many images each thread built (the main thread first). */
  readonly imagesByThread: readonly number[];
}

export interface ShareOptions {
  readonly program: Module;
  /** The program as workers read it (default: printed from `program`). */
  readonly text?: Uint8Array;
  readonly job: Omit<ShareJob, 'program'> & { readonly program?: Uint8Array };
  readonly pipeline: Pipeline<ImageSet>;
  readonly config: DeviceConfig;
  readonly jobs: number;
  /** compile: where records go, in id order. */
  readonly container?: ContainerWriter;
  /** compile: the slots of the main thread's set (facts source, compilers) the job describes for workers. */
  readonly configure?: (set: ImageSet) => void;
  readonly instrumentations?: readonly Instrumentation[];
  /**
   * Called once, before any thread starts, with a view of the claim flags (1 at an image id some
   * thread took): lets a caller see the workers' progress while the main thread is busy.
   */
  readonly onClaims?: (flags: Int32Array) => void;
}

/** Runs one image set over `jobs` threads (see the module comment). */
export async function runSharedSet(options: ShareOptions): Promise<SharedRun> {
  const { program, jobs } = options;
  const text = options.job.program ?? options.text ?? new Uint8Array(Buffer.from(printModule(program), 'latin1'));
  const job: ShareJob = { ...options.job, program: text, metadataKinds: program.context.md.kinds.list() };
  const claims = new SharedArrayBuffer(4 * (program.functions.length + 2));
  const claim = claimer(claims);
  options.onClaims?.(new Int32Array(claims));

  // Records and diagnostics by image id; written in order as they become complete.
  const pending = new Map<number, { records: readonly EncodedImageRecord[]; diagnostics: readonly Diagnostic[] }>();
  const ordered: Diagnostic[] = [];
  let next = 0;
  const flush = (): void => {
    for (let entry = pending.get(next); entry !== undefined; entry = pending.get(next)) {
      pending.delete(next);
      for (const record of entry.records) options.container?.addEncodedImage(record);
      ordered.push(...entry.diagnostics);
      next++;
    }
  };
  const imagesByThread = Array.from({ length: jobs }, () => 0);
  const deliver = (thread: number, id: number, records: readonly EncodedImageRecord[], diagnostics: readonly Diagnostic[]): void => {
    imagesByThread[thread]!++;
    if (id < next || pending.has(id)) throw new Error(`internal: image ${id} was made twice (a shared set needs one image per split id)`);
    pending.set(id, { records, diagnostics });
    flush();
  };

  const workers: { worker: Worker; done: Promise<Extract<WorkerMessage, { type: 'done' }>> }[] = [];
  for (let i = 1; i < jobs; i++) {
    const worker = spawnWorker({ job, claims, index: i, entry: imageWorkerEntry(import.meta.url) });
    const done = new Promise<Extract<WorkerMessage, { type: 'done' }>>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        try {
          if (message.type === 'image') deliver(i, message.id, message.records, message.diagnostics);
          else if (message.type === 'done') resolve(message);
          else reject(new Error(message.message));
        } catch (error) {
          reject(error);
        }
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`an image worker stopped (exit code ${code}) before it was done`)));
    });
    done.catch(() => undefined);
    workers.push({ worker, done });
  }

  const collector = new ShareCollector((id, records, diagnostics) => deliver(0, id, records, diagnostics));
  const set = new ImageSet(program, { outputs: job.outputs, deviceConfig: options.config, include: claim, onImageDone: (image) => collector.imageDone(image) });
  collector.watch(set);
  options.configure?.(set);
  // An image's records must reach the collector before the image is done (they are handed over
  // under its id then): with AOT_JOBS > 1, wrap would write them later, under another image's id
  // or after the last one. The threads give the parallelism here, as in the workers (AOT_JOBS 1).
  set.set(AOT_JOBS, 1);
  if (job.wrap !== undefined) set.set(CONTAINER, { addImage: (image) => collector.addImage(image), ready: yieldEvery(8) });
  const outputs = job.files === undefined ? undefined : new RunOutputs(job.files.tables);
  if (job.files !== undefined && outputs !== undefined) {
    set.set(FILE_SINK, { prefix: job.files.prefix, ...(job.files.prefixes === undefined ? {} : { prefixes: job.files.prefixes }), writeFile: (path, data) => outputs.write(path, data), ready: yieldEvery(8) });
  }
  const written: string[] = [];
  const rows: { rows: (readonly string[])[]; ids: number[] }[] = job.outputs.map(() => ({ rows: [], ids: [] }));
  const addRows = (more: readonly { readonly rows: readonly (readonly string[])[]; readonly ids: readonly number[] }[]): void => {
    more.forEach((t, i) => {
      rows[i]!.rows.push(...t.rows);
      rows[i]!.ids.push(...t.ids);
    });
  };
  const stoppedIn: Diagnostic[] = [];
  let result: RunResult;
  try {
    result = await options.pipeline.runAsync(set, {
      ...(job.policy === undefined ? {} : { policy: job.policy }),
      instrumentations: options.instrumentations ?? [],
      onDiagnostic: (d) => collector.diagnostic(d),
    });
    if (result.stopped) stoppedIn.push(...collector.unfinished());
    else {
      for (const { done } of workers) {
        const reply = await done;
        written.push(...reply.written);
        addRows(reply.rows);
        if (reply.stopped) stoppedIn.push(...reply.unfinished);
      }
      const expected = set.plan?.groups.length ?? 0;
      if (stoppedIn.length === 0 && next !== expected) throw new Error(`internal: the threads produced ${next} of ${expected} images`);
    }
  } finally {
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
    written.push(...(outputs?.written ?? []));
  }
  if (job.files !== undefined) addRows(tablesOf(set, { symbols: true, properties: true }).map((t) => ({ rows: t.table.rows, ids: t.rowIds })));
  // Diagnostics in -j 1 order: those before the images (the main thread's), then image by image
  // (those not written yet when a thread stopped, by id), then where a thread stopped.
  const rest = [...pending.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, entry]) => entry.diagnostics);
  const diagnostics = [...collector.other, ...ordered, ...rest, ...stoppedIn];
  const stopped = result.stopped || stoppedIn.length > 0;
  return {
    result: { ...result, diagnostics, stopped, errorCount: count(diagnostics, 'error'), warningCount: count(diagnostics, 'warning') },
    rows: rows.map((t) => sortRows(t)),
    written,
    imagesByThread,
  };
}

function count(diagnostics: readonly Diagnostic[], severity: Diagnostic['severity']): number {
  return diagnostics.filter((d) => d.severity === severity).length;
}

/** Rows of all threads in image-id order (each thread's rows of one image stay in their order). */
function sortRows(t: { rows: (readonly string[])[]; ids: number[] }): { rows: (readonly string[])[]; ids: number[] } {
  const order = t.ids.map((id, i) => ({ id, i })).sort((a, b) => a.id - b.id || a.i - b.i);
  return { rows: order.map(({ i }) => t.rows[i]!), ids: order.map(({ id }) => id) };
}

/** Back-pressure that lets the event loop run (worker messages in) every `n` images. */
function yieldEvery(n: number): () => Promise<void> | undefined {
  let count = 0;
  return () => (++count % n === 0 ? new Promise((resolve) => setImmediate(resolve)) : undefined);
}

/** A worker thread's AOT compiler for an output, from the back end name the main thread chose. */
function workerCompiler(backend: string, target: string, backendArgs: readonly string[], config: DeviceConfig): AotCompiler {
  return backend === 'gpu' ? gpuCompilerFor(target, backendArgs, config) : aotCompilerFor(backend, target, { config });
}

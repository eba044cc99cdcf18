import { DeviceConfig, loadDeviceConfigFile } from '@syclkit/device-config';
import { formatDiagnostic } from '@syclkit/pass-manager';
import { FileTable, writeFileTable } from '@syclkit/formats';
import { parseModule, type Module } from '@syclkit/ir';
import {
  parseOutputSpec,
  PostLinkError,
  runPostLink,
  ImageSet,
  imageSetKind,
  outputPrefix,
  postLinkPipelineText,
  postLinkRegistry,
  type PostLinkOptions,
  type PostLinkResult,
  type RequirementPolicy,
  type SplitMode,
} from '@syclkit/post-link';
import { isEsimdFunction } from '@syclkit/sycl-conventions';
import { rmSync } from 'node:fs';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec, type ParsedArgs } from '../args.js';
import { CliError, type Command } from '../command.js';
import { writeFileAtomic, type CliIO } from '../io.js';
import { readIRText, readModule } from '../read-module.js';
import { MAX_JOBS, jobCount, jobsOf, shareable } from '../driver/jobs.js';
import { RunOutputs } from '../driver/run-outputs.js';
import { runLlvmTool } from '../llvm-tools.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'o', kind: 'value', repeatable: true, valueName: '<table>|<target>,<table>', help: 'Output file table (repeatable; a target filters the rows and adds compile_target)' },
  { name: 'out-dir', kind: 'value', valueName: '<dir>', help: 'Directory for the generated files' },
  { name: 'split', kind: 'value', joinedOnly: true, valueName: 'kernel|source|auto|none', help: 'Device code split mode (default: none)' },
  { name: 'symbols', help: 'Write .sym files and the Symbols column' },
  { name: 'properties', help: 'Write .prop files and the Properties column (always on: the 2023 tool always wrote them)' },
  { name: 'S', help: 'Write textual IR (.ll) instead of bitcode (.bc, through LLVM llvm-as)' },
  { name: 'f', help: 'Allow bitcode output to a terminal' },
  { name: 'ir-output-only', help: 'Write one IR file to -o, no table (no split allowed)' },
  { name: 'emit-only-kernels-as-entry-points', help: 'Only kernels (and indirectly-callable functions) are entry points' },
  { name: 'split-esimd', help: 'Split SYCL and ESIMD entry points into separate images' },
  { name: 'emit-param-info', help: 'SYCL/kernel param opt from !sycl_kernel_omit_args' },
  { name: 'emit-program-metadata', help: 'SYCL/program metadata' },
  { name: 'emit-exported-symbols', help: 'SYCL/exported symbols' },
  { name: 'emit-imported-symbols', help: 'SYCL/imported symbols' },
  { name: 'device-globals', help: 'SYCL/device globals, and check device_image_scope variables stay in one image' },
  { name: 'allow-device-image-dependencies', aliases: ['support-dynamic-linking'], help: 'Dynamic linking: importable functions are not pulled into images' },
  { name: 'reduce-memory-usage', help: 'Accepted for compatibility (images are always written one at a time)' },
  { name: 'lower-esimd', help: 'ESIMD lowering (not supported: an error if the module has ESIMD code)' },
  { name: 'force-disable-esimd-opt', help: 'ESIMD option (accepted with -lower-esimd)' },
  { name: 'spec-const', kind: 'value', joinedOnly: true, valueName: 'native|emulation', help: 'Spec-constant lowering (not supported: an error if the module uses spec constants)' },
  { name: 'generate-device-image-default-spec-consts', help: 'Default-value spec-constant images (not supported, see -spec-const)' },
  { name: 'emit-kernel-names', help: 'SYCL/kernel names (not supported: an error if the module has kernels)' },
  { name: 'device-lib-dir', kind: 'value', valueName: '<dir>', help: 'bf16 device libraries (not supported: an error if the module uses them)' },
  { name: 'O0' }, { name: 'O1' }, { name: 'O2' }, { name: 'O3' }, { name: 'Os' }, { name: 'Oz' },
  { name: 'device-config-file', kind: 'value', joinedOnly: true, valueName: '<yaml>', help: 'syclkit: extra targets for -o <target>,<table> (DeviceConfigFile.md YAML)' },
  { name: 'bundling', kind: 'value', joinedOnly: true, valueName: 'upstream|design', help: 'syclkit: upstream grouping (default) or the OptionalDeviceFeatures.md rule' },
  { name: 'incompatible-images', kind: 'value', joinedOnly: true, valueName: 'drop|empty-module', help: 'syclkit: rows of target tables for unsupported images (default: drop; design: empty-module)' },
  { name: 'check-sycl-external', help: 'syclkit: SYCL_EXTERNAL checks after bundling (default on with -bundling=design)' },
  { name: 'requirement-strategy', kind: 'value', joinedOnly: true, valueName: 'bundling|spec-constants', help: 'syclkit: split images by requirements (default) or keep bundles and write per-kernel SYCL/requirements with spec ids' },
  { name: 'aot-target', kind: 'value', joinedOnly: true, valueName: '<target>', help: 'syclkit: decide device_if conditions for this AOT target before splitting' },
  { name: 'device-if', kind: 'value', joinedOnly: true, valueName: 'add-on-images|off', help: 'syclkit: non-AOT device_if handling (default: add-on-images when the module has conditional calls)' },
  { name: 'legacy-reqd-work-group-size', help: 'syclkit: also write the uint32 reqd_work_group_size (default on; =false to omit)' },
  { name: 'j', kind: 'value', valueName: '<n>', help: `syclkit: threads for the images (default 1, at most ${MAX_JOBS}; each thread reads the whole module again, so more pay only where the images cost more than that); the same files with any number` },
  { name: 'help', aliases: ['h', '-help'], help: 'Show this help' },
];

function usage(): string {
  return (
    'usage: syclkit post-link [options] [<input.bc|input.ll>|-]\n\n' +
    "A drop-in for intel/llvm's sycl-post-link: splits device code into images, writes the images,\n" +
    'their symbol tables and property sets, and a file table per -o.\n\noptions:\n' +
    formatOptions(OPTIONS)
  );
}

/**
 * Writes one output atomically (a temporary file beside it, then a rename), so nobody sees a
 * half-written file. Text is latin1: IR names are bytes, one per character.
 */
export function writeOutputFile(path: string, data: string | Uint8Array): void {
  writeFileAtomic(path, data, { encoding: 'latin1' });
}

/**
 * Reads the input module. Typed-pointer input stays typed (sycl-post-link of the typed-pointer era
 * kept them), so its images print typed pointers too.
 */
export function readInputModule(input: string, io: CliIO, onWarning: (message: string) => void): Promise<Module> {
  return readModule(input, io, onWarning, 'preserve-typed');
}

const SPLIT_MODES: readonly SplitMode[] = ['kernel', 'source', 'auto', 'none'];

function boolFlag(args: ParsedArgs, name: string, fallback: boolean): boolean {
  if (args.flags.has(name)) return true;
  // `-name=false` removes the flag; tell that apart from "not given".
  return args.ordered.some((o) => o.name === name) ? false : fallback;
}

/** Flags whose feature syclkit does not implement: fine when the module gives them nothing to do. */
function checkUnsupported(args: ParsedArgs, module: Module): void {
  const notSupported = (flag: string, what: string): never => {
    throw new CliError(`-${flag} is not supported by syclkit post-link (${what})`);
  };
  if (args.flags.has('lower-esimd') && module.functions.some((fn) => isEsimdFunction(module, fn))) {
    notSupported('lower-esimd', 'the module has ESIMD functions to lower');
  }
  const usesSpecConstants = module.functions.some((fn) => /__sycl_get\w*SpecConstantValue/.test(fn.name));
  if (valueOf(args, 'spec-const') !== undefined && usesSpecConstants) notSupported('spec-const', 'the module uses specialization constants');
  if (args.flags.has('generate-device-image-default-spec-consts') && usesSpecConstants) {
    notSupported('generate-device-image-default-spec-consts', 'the module uses specialization constants');
  }
  if (args.flags.has('emit-kernel-names') && module.functions.some((fn) => fn.callingConv === 'spir_kernel' && !fn.isDeclaration)) {
    notSupported('emit-kernel-names', 'the module has kernels');
  }
  if (valueOf(args, 'device-lib-dir') !== undefined && module.functions.some((fn) => /^__devicelib_Convert(BF16ToF|FToBF16)INTEL/.test(fn.name))) {
    notSupported('device-lib-dir', 'the module uses the bf16 device library');
  }
}

function checkCombinations(args: ParsedArgs): void {
  const actions = [
    'symbols', 'properties', 'emit-param-info', 'emit-program-metadata', 'split-esimd', 'emit-kernel-names',
    'emit-exported-symbols', 'emit-imported-symbols', 'device-globals', 'lower-esimd', 'generate-device-image-default-spec-consts',
  ];
  const hasAction = args.values.has('split') || args.values.has('spec-const') || actions.some((a) => args.flags.has(a));
  if (!hasAction) throw new CliError('no actions specified; try --help for usage info');
  if (!args.flags.has('ir-output-only')) return;
  const split = valueOf(args, 'split');
  if (split !== undefined && split !== 'auto' && split !== 'none') throw new CliError(`-split=${split} can't be used with -ir-output-only`);
  for (const flag of ['split-esimd', 'symbols', 'properties', 'emit-param-info', 'emit-program-metadata', 'emit-kernel-names', 'emit-exported-symbols', 'emit-imported-symbols', 'generate-device-image-default-spec-consts']) {
    if (args.flags.has(flag)) throw new CliError(`-${flag} can't be used with -ir-output-only`);
  }
}

function stem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

interface Prepared {
  readonly options: PostLinkOptions;
  readonly input: string;
  readonly args: ParsedArgs;
}

/** Everything up to reading the module: arguments, their checks, the device configuration. */
function prepare(argv: readonly string[], io: CliIO): Prepared | 'help' {
  const args = parseArgs(argv, OPTIONS);
  if (args.flags.has('help')) return 'help';
  if (args.positionals.length > 1) throw new UsageError(`expected one input file, got ${args.positionals.length}`);
  checkCombinations(args);
  const mode = choiceOf(args, 'split', SPLIT_MODES);
  const bundling = choiceOf<RequirementPolicy>(args, 'bundling', ['upstream', 'design']) ?? 'upstream';
  const design = bundling === 'design';
  const incompatible = choiceOf(args, 'incompatible-images', ['drop', 'empty-module'] as const) ?? (design ? 'empty-module' : 'drop');
  const input = args.positionals[0] ?? '-';
  const irOnly = args.flags.has('ir-output-only');
  const given = args.values.get('o') ?? [];
  const outputs = given.length > 0 ? given.map(parseOutputSpec) : [{ path: `${stem(input)}${irOnly ? '.out' : '.files'}` }];
  if (irOnly && outputs[0]!.target !== undefined) throw new UsageError('-ir-output-only takes a file name, not <target>,<file>');
  const text = args.flags.has('S');
  if (!text && irOnly && outputs[0]!.path === '-' && io.stdoutIsTTY && !args.flags.has('f')) {
    throw new CliError('refusing to write bitcode to a terminal; use -S for text, or -f');
  }
  let config = DeviceConfig.builtin();
  const configFile = valueOf(args, 'device-config-file');
  if (configFile !== undefined) {
    // A bad file throws DeviceConfigFileError, which renders itself (file:line:col).
    const loaded = loadDeviceConfigFile(config, configFile);
    for (const d of loaded.diagnostics) io.stderr.write(formatDiagnostic(d, { showCodes: false }));
    config = loaded.config;
  }
  const aotTarget = valueOf(args, 'aot-target');
  if (aotTarget !== undefined && args.values.has('device-if')) throw new UsageError('-aot-target and -device-if cannot be combined');
  const options: PostLinkOptions = {
    outputs,
    ...(valueOf(args, 'out-dir') !== undefined ? { outDir: valueOf(args, 'out-dir')! } : {}),
    mode: mode ?? 'none',
    irOutputOnly: irOnly,
    emitOnlyKernelsAsEntryPoints: args.flags.has('emit-only-kernels-as-entry-points'),
    policy: bundling,
    splitEsimd: args.flags.has('split-esimd'),
    allowDeviceImageDependencies: args.flags.has('allow-device-image-dependencies'),
    symbols: args.flags.has('symbols'),
    properties: true,
    textIR: text,
    deviceConfig: config,
    incompatibleImages: incompatible,
    checkExternalFunctions: boolFlag(args, 'check-sycl-external', design),
    legacyReqdWorkGroupSize: boolFlag(args, 'legacy-reqd-work-group-size', true),
    emitParamInfo: args.flags.has('emit-param-info'),
    emitProgramMetadata: args.flags.has('emit-program-metadata'),
    emitExportedSymbols: args.flags.has('emit-exported-symbols'),
    emitImportedSymbols: args.flags.has('emit-imported-symbols'),
    deviceGlobals: args.flags.has('device-globals'),
    inputPath: input,
    outputsGiven: given.length > 0,
    requirementStrategy: choiceOf(args, 'requirement-strategy', ['bundling', 'spec-constants'] as const) ?? 'bundling',
    deviceIf: aotTarget !== undefined ? { aotTarget } : (choiceOf(args, 'device-if', ['add-on-images', 'off'] as const) ?? 'add-on-images'),
  };
  return { options, input, args };
}

/**
 * Runs the tool (or one shard of it) over a parsed module. Images, symbols and properties are
 * written directly (see RunOutputs); the tables, and the one file of -ir-output-only, are written
 * last and atomically by the caller: they are the commit point.
 */
async function execute(module: Module, options: PostLinkOptions, io: CliIO, outputs: RunOutputs): Promise<PostLinkResult> {
  const stdoutSink = (data: string | Uint8Array): void => void io.stdout.write(data);
  try {
    // Synchronous writes: thousands of small files go faster than through the thread pool.
    return await runPostLink(module, options, {
      writeFile: (path, data) => {
        if (path === '-') return stdoutSink(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
        if (options.irOutputOnly) return writeOutputFile(path, data);
        outputs.write(path, data);
      },
      removeFile: (path) => rmSync(path, { force: true }),
      encodeBitcode: (ir) => new Uint8Array(runLlvmTool('llvm-as', ['-o', '-', '-'], ir, 'writing bitcode (use -S for text)')),
    });
  } catch (error) {
    if (error instanceof PostLinkError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * Threads for the images: `-j <n>`, or `SYCLKIT_POST_LINK_THREADS=<n>` (either shares the images
 * of any program that allows it); one by default (jobs.ts says why).
 */
function threadsOf(args: ParsedArgs): { jobs: number; shareMinFunctions?: number } {
  const env = process.env['SYCLKIT_POST_LINK_THREADS'];
  if (valueOf(args, 'j') === undefined && env !== undefined && /^[1-9]\d*$/.test(env)) return { jobs: jobCount(Number(env)), shareMinFunctions: 0 };
  return jobsOf(args);
}

/**
 * Runs whose images can be shared among threads, as far as the options go (`shareable` looks at
 * the module): not -split-esimd, whose two halves of a split image share one id.
 */
function canShare(options: PostLinkOptions): boolean {
  return options.outputsGiven === true && !options.irOutputOnly && !options.splitEsimd && options.requirementStrategy !== 'spec-constants';
}

/** The run over several threads (image-workers.ts): the same files and tables as one thread. */
async function executeShared(module: Module, text: string, options: PostLinkOptions, jobs: number, outputs: RunOutputs, configFile: string | undefined): Promise<PostLinkResult> {
  const pipeline = postLinkRegistry().build<ImageSet>(postLinkPipelineText(options), { unit: imageSetKind, source: 'post-link' });
  outputs.begin();
  const { runSharedSet } = await import('../driver/image-workers.js');
  const shared = await runSharedSet({
    program: module,
    text: new Uint8Array(Buffer.from(text, 'latin1')),
    job: {
      filename: module.id,
      pointers: 'preserve-typed',
      pipeline: pipeline.text,
      outputs: options.outputs.map((o) => ({ name: o.path, ...(o.target === undefined ? {} : { target: o.target }) })),
      ...(configFile === undefined ? {} : { configFile }),
      loadPass: [],
      files: { prefix: outputPrefix(options.outputs[0]!.path, options.outDir), tables: [], bitcode: !options.textIR },
    },
    pipeline,
    config: options.deviceConfig ?? DeviceConfig.builtin(),
    jobs,
  });
  for (const path of shared.written) outputs.record(path);
  const diagnostics = shared.result.diagnostics.map((d) => ({ severity: d.severity === 'error' || d.severity === 'warning' ? d.severity : ('note' as const), code: d.code, message: d.message }));
  if (shared.result.stopped) {
    const fatal = shared.result.diagnostics.find((d) => d.fatal) ?? shared.result.diagnostics.at(-1);
    throw new CliError(fatal?.message ?? 'post-link failed');
  }
  const columns = ['Code', ...(options.properties === false ? [] : ['Properties']), ...(options.symbols ? ['Symbols'] : [])];
  const tables = shared.rows.map((t, i) => ({ spec: options.outputs[i]!, table: FileTable.create(columns, t.rows), rowIds: t.ids }));
  return { tables, images: [], diagnostics };
}

export const command: Command = {
  name: 'post-link',
  summary: "Split device code into images with symbols, properties and file tables (drop-in for sycl-post-link)",
  async run(argv, io: CliIO) {
    const prepared = prepare(argv, io);
    if (prepared === 'help') {
      io.stdout.write(usage());
      return 0;
    }
    const { options, input, args } = prepared;
    const { jobs, shareMinFunctions } = threadsOf(args);
    const outputs = new RunOutputs(options.irOutputOnly ? [] : options.outputs.map((o) => o.path));
    let result: PostLinkResult;
    try {
      // The text stays for worker threads, which parse it too.
      const text = await readIRText(input, io);
      const module = parseModule(text, { filename: input === '-' ? '<stdin>' : input, pointers: 'preserve-typed', onWarning: (message) => io.stderr.write(`syclkit post-link: warning: ${message}\n`) });
      checkUnsupported(args, module);
      const share = jobs > 1 && canShare(options) && shareable(module, shareMinFunctions);
      result = share ? await executeShared(module, text, options, jobs, outputs, valueOf(args, 'device-config-file')) : await execute(module, options, io, outputs);
    } catch (error) {
      outputs.discard();
      throw error;
    }
    for (const d of result.diagnostics) {
      if (d.severity === 'note' && d.code === 'incompatible-image') continue;
      io.stderr.write(d.code === 'no-modifications' ? `sycl-post-link NOTE: ${d.message}\n` : `syclkit post-link: ${d.severity}: ${d.message}\n`);
    }
    // The commit point: the tables, last, each written atomically.
    for (const { spec, table } of result.tables) outputs.commit(spec.path, writeFileTable(table));
    return 0;
  },
};

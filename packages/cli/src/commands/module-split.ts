import { writeFileTable, type FileTable } from '@syclkit/formats';
import { BITCODE_ENCODER, FILE_SINK, ImageSet, imageSetKind, postLinkRegistry, tablesOf, type SplitMode } from '@syclkit/post-link';
import type { Module } from '@syclkit/ir';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import type { CliIO } from '../io.js';
import { runLlvmTool } from '../llvm-tools.js';
import { readInputModule } from './post-link.js';
import { RunOutputs } from '../driver/run-outputs.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'o', kind: 'value', valueName: '<prefix>', help: "Output prefix (default 'output'): <prefix>_<n>.{ll,bc,sym,prop} and <prefix>.table" },
  { name: 'S', help: 'Write textual IR (.ll) instead of bitcode (.bc, through LLVM llvm-as)' },
  { name: 'split', kind: 'value', joinedOnly: true, valueName: 'kernel|source|auto', help: 'Split mode (default: none)' },
  { name: 'allow-device-image-dependencies', help: 'Dynamic linking: importable functions are not pulled into images' },
  { name: 'help', aliases: ['h', '-help'], help: 'Show this help' },
];

function usage(): string {
  return (
    'usage: syclkit module-split [options] [<input>|-]\n\n' +
    "A drop-in for intel/llvm's sycl-module-split test tool: splits a module and writes every image\n" +
    'with its symbols and properties, plus <prefix>.table.\n\noptions:\n' +
    formatOptions(OPTIONS)
  );
}

/** What {@link writeSplitImages} writes. */
export interface SplitImagesOptions {
  readonly mode: SplitMode;
  /** Files are `<prefix>_<n>.<ext>` and `<prefix>.table`. */
  readonly prefix: string;
  /** `.ll` (true) or `.bc` through LLVM's llvm-as. */
  readonly text: boolean;
  /** Also write `<prefix>_<n>.prop` and a Properties column (sycl-module-split does, llvm-split not). */
  readonly properties: boolean;
  readonly allowDeviceImageDependencies?: boolean;
}

/** The image-set pipeline sycl-module-split (and llvm-split) is, for these options. */
export function moduleSplitPipelineText(options: Pick<SplitImagesOptions, 'mode' | 'text' | 'properties' | 'allowDeviceImageDependencies'>): string {
  const split = `split<${options.mode}${options.allowDeviceImageDependencies === true ? ';dynamic-linking' : ''}>`;
  const write = `write-image-files<symbols;layout=module-split${options.properties ? '' : ';no-properties'}>`;
  const perImage = options.properties
    ? ['image-requirements', 'image-properties<no-legacy-reqd-work-group-size>', `emit-ir<${options.text ? 'text' : 'bitcode'}>`, write]
    : [`emit-ir<${options.text ? 'text' : 'bitcode'}>`, write];
  return `${split},image(${perImage.join(',')})`;
}

/**
 * Splits `module` and writes each image, its symbols (followed by one more newline, as both
 * upstream tools write them) and, if asked, its properties, then the table: the passes of
 * `moduleSplitPipelineText` over an image set. On failure every file written so far is removed.
 */
export function writeSplitImages(module: Module, options: SplitImagesOptions): void {
  const { prefix } = options;
  const table = `${prefix}.table`;
  const outputs = new RunOutputs([table]);
  const set = new ImageSet(module, { outputs: [{ name: table }] });
  set.set(FILE_SINK, { prefix, writeFile: (path, data) => outputs.write(path, data) });
  set.set(BITCODE_ENCODER, (ir) => new Uint8Array(runLlvmTool('llvm-as', ['-o', '-', '-'], ir, 'writing bitcode (use -S for text)')));
  try {
    const result = postLinkRegistry().build<ImageSet>(moduleSplitPipelineText(options), { unit: imageSetKind, source: 'module-split' }).run(set);
    if (result.stopped) throw new CliError(result.diagnostics.find((d) => d.fatal)?.message ?? 'the split failed');
    const rows: FileTable = tablesOf(set, { properties: options.properties, symbols: true })[0]!.table;
    outputs.commit(table, writeFileTable(rows));
  } catch (error) {
    outputs.discard();
    throw error;
  }
}

export const command: Command = {
  name: 'module-split',
  summary: "Split a module into device images (drop-in for sycl-module-split)",
  async run(argv, io: CliIO) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(usage());
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError(`expected one input file, got ${args.positionals.length}`);
    const mode: SplitMode = choiceOf(args, 'split', ['kernel', 'source', 'auto'] as const) ?? 'none';
    const prefix = valueOf(args, 'o') ?? 'output';
    const text = args.flags.has('S');
    const module = await readInputModule(args.positionals[0] ?? '-', io, (message) => io.stderr.write(`syclkit module-split: warning: ${message}\n`));
    writeSplitImages(module, { mode, prefix, text, properties: true, allowDeviceImageDependencies: args.flags.has('allow-device-image-dependencies') });
    return 0;
  },
};

import { FileTable, writeFileTable, writePropertySetRegistry, writeSymbolFile } from '@syclkit/formats';
import {
  computeImageProperties,
  computeImageRequirements,
  planSplit,
  printBytes,
  type SplitMode,
} from '@syclkit/post-link';
import type { Module } from '@syclkit/ir';
import { rmSync } from 'node:fs';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import type { CliIO } from '../io.js';
import { runLlvmTool } from '../llvm-tools.js';
import { readInputModule, writeOutputFile } from './post-link.js';

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

/**
 * Splits `module` and writes each image, its symbols (followed by one more newline, as both
 * upstream tools write them) and, if asked, its properties, then the table. On failure every file
 * written so far is removed.
 */
export function writeSplitImages(module: Module, options: SplitImagesOptions): void {
  const { mode, prefix, text } = options;
  const written: string[] = [];
  const write = (path: string, data: string | Uint8Array): void => {
    writeOutputFile(path, data);
    written.push(path);
  };
  const rows: string[][] = [];
  try {
    for (const image of planSplit(module, { mode, allowDeviceImageDependencies: options.allowDeviceImageDependencies ?? false }).images()) {
      const n = rows.length;
      const ir = printBytes(image.module);
      const code = `${prefix}_${n}.${text ? 'll' : 'bc'}`;
      write(code, text ? ir : new Uint8Array(runLlvmTool('llvm-as', ['-o', '-', '-'], ir, 'writing bitcode (use -S for text)')));
      const row = [code];
      if (options.properties) {
        const properties = `${prefix}_${n}.prop`;
        const requirements = computeImageRequirements(image.module, image.entryPoints);
        const registry = computeImageProperties(
          { module: image.module, entryPoints: image.entryPoints, esimd: image.esimd, requirements },
          { legacyReqdWorkGroupSize: false, dropReqdWorkGroupSize: mode === 'none' },
        );
        write(properties, writePropertySetRegistry(registry));
        row.push(properties);
      }
      const symbols = `${prefix}_${n}.sym`;
      write(symbols, writeSymbolFile(image.entryPoints.map((fn) => fn.name)) + '\n');
      row.push(symbols);
      rows.push(row);
    }
    const columns = options.properties ? ['Code', 'Properties', 'Symbols'] : ['Code', 'Symbols'];
    writeOutputFile(`${prefix}.table`, writeFileTable(FileTable.create(columns, rows)));
  } catch (error) {
    for (const path of written) rmSync(path, { force: true });
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

import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import type { CliIO } from '../io.js';
import { readInputModule } from './post-link.js';
import { writeSplitImages } from './module-split.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'sycl-split', kind: 'value', valueName: 'source|kernel|auto', help: 'SYCL split mode (required: the only mode syclkit implements)' },
  { name: 'o', kind: 'value', valueName: '<prefix>', help: 'Output prefix (required): <prefix>_<n>.{ll,bc,sym} and <prefix>.table' },
  { name: 'S', help: 'Write textual IR (.ll) instead of bitcode (.bc, through LLVM llvm-as)' },
  { name: 'help', aliases: ['h', '-help'], help: 'Show this help' },
];

/** LLVM llvm-split's own options, which split by hash or round robin rather than by SYCL rules. */
const GENERIC_SPLIT_OPTIONS = ['j', 'preserve-locals', 'round-robin', 'mtriple', 'mcpu'];

function usage(): string {
  return (
    'usage: syclkit llvm-split -sycl-split=<mode> [-S] -o <prefix> [<input>|-]\n\n' +
    "A drop-in for the SYCL mode of intel/llvm's llvm-split: splits a module by the rules of\n" +
    'sycl-post-link (per translation unit, per kernel, or auto) and writes every image with its\n' +
    "symbols, plus <prefix>.table (columns Code and Symbols). LLVM's generic splitting (-j N,\n" +
    '-round-robin, -mtriple) is not implemented; use LLVM llvm-split for it.\n\noptions:\n' +
    formatOptions(OPTIONS)
  );
}

export const command: Command = {
  name: 'llvm-split',
  summary: "Split a module by SYCL rules (drop-in for intel/llvm's llvm-split -sycl-split)",
  async run(argv, io: CliIO) {
    const generic = argv.find((a) => GENERIC_SPLIT_OPTIONS.some((o) => new RegExp(`^--?${o}(=|$|\\d)`).test(a)));
    if (generic !== undefined)
      throw new UsageError(`${generic}: LLVM's generic module splitting is not implemented; syclkit llvm-split only splits by SYCL rules (-sycl-split=source|kernel|auto)`);
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(usage());
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError(`expected one input file, got ${args.positionals.length}`);
    const mode = choiceOf(args, 'sycl-split', ['source', 'kernel', 'auto'] as const);
    if (mode === undefined) throw new UsageError('missing -sycl-split=source|kernel|auto (LLVM generic splitting is not implemented)');
    // llvm-split's default prefix is empty (files named `_0.ll`); asking for one avoids that surprise.
    const prefix = valueOf(args, 'o');
    if (prefix === undefined || prefix === '') throw new UsageError('missing -o <prefix>');
    const module = await readInputModule(args.positionals[0] ?? '-', io, (message) => io.stderr.write(`syclkit llvm-split: warning: ${message}\n`));
    writeSplitImages(module, { mode, prefix, text: args.flags.has('S'), properties: false });
    return 0;
  },
};

import { readFileSync } from 'node:fs';
import { FormatError, readFileTable, writeFileTable } from '@syclkit/formats';
import { TABLE_TRANSFORM_OPS, WrapperError, parseTableTransform, runTableTransforms, type TableTransform } from '@syclkit/offload-wrapper';
import { formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import { readInput, writeFileAtomic } from '../io.js';

const OPERATION_HELP: Readonly<Record<(typeof TABLE_TRANSFORM_OPS)[number], [string, string]>> = {
  extract: ['<a>,<b>,...', 'Keep only these columns (in the table\'s order); with -drop_titles, one column is a file list'],
  rename: ['<old>,<new>', 'Rename a column'],
  replace: ['<column>,<source column>', 'Replace a column with one from the next input table (a file list replaces any column)'],
  replace_cell: ['<column>,<row>', 'Put the next input\'s path into one cell'],
  merge: ['<column>', 'The output is the tables listed in that column, merged in order (same columns)'],
  copy_single_file: ['<column>[,<row>]', 'The output is a copy of the file in that cell (row 0 by default); must come last'],
};

const OPTIONS: readonly OptionSpec[] = [
  ...TABLE_TRANSFORM_OPS.map((op): OptionSpec => ({ name: op, kind: 'value', repeatable: true, joinedOnly: true, valueName: OPERATION_HELP[op][0], help: OPERATION_HELP[op][1] })),
  { name: 'drop_titles', help: 'Write the output table without its [title] line' },
  { name: 'o', kind: 'value', valueName: '<file>', help: 'Output file (required; - for stdout)' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit file-table-tform [operations] <table> [<input>...] -o <file>

Transforms a file table ([Code|Properties|Symbols] and the like) as intel/llvm's file-table-tform
does. Operations run in command-line order on the first table; -replace and -replace_cell each take
the next <input>, left to right. Relative paths are read from the working directory.

operations and options:
${formatOptions(OPTIONS)}
example (the driver's AOT step):
  syclkit file-table-tform -extract=Code -drop_titles a.table -o code.list
  llvm-foreach ... (one .spv per line of code.list, listed in spv.list)
  syclkit file-table-tform -replace=Code,Code a.table spv.list -o a_spv.table
`;

function readTable(path: string) {
  return readFileTable(readFileSync(path), { fileName: path });
}

/** Library errors without a file become `syclkit <cmd>: error: …`; located ones print as they are. */
function userError(error: unknown): unknown {
  if (error instanceof WrapperError && error.file === undefined) return new CliError(error.reason);
  if (error instanceof FormatError && error.location === undefined) return new CliError(error.reason);
  return error;
}

export const command: Command = {
  name: 'file-table-tform',
  summary: 'Transform file tables: extract, rename, replace columns or cells, merge (drop-in for file-table-tform)',
  async run(argv, io) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const output = valueOf(args, 'o');
    if (output === undefined) throw new UsageError('no output file: give -o <file> (- for stdout)');
    const [main, ...inputs] = args.positionals;
    if (main === undefined) throw new UsageError('no input table');
    let transforms: TableTransform[];
    try {
      transforms = args.ordered
        .filter((option) => (TABLE_TRANSFORM_OPS as readonly string[]).includes(option.name))
        .map((option) => parseTableTransform(option.name, option.value ?? ''));
    } catch (error) {
      throw error instanceof WrapperError ? new UsageError(error.reason) : error;
    }
    const input = readFileTable(await readInput(main, io), { fileName: main === '-' ? '<stdin>' : main });
    let result;
    try {
      result = runTableTransforms(input, transforms, inputs, { readTable });
    } catch (error) {
      throw userError(error);
    }
    let bytes: string | Buffer;
    try {
      bytes = result.kind === 'copy' ? readFileSync(result.path) : writeFileTable(result.table, { titles: !args.flags.has('drop_titles') });
    } catch (error) {
      throw userError(error);
    }
    if (output === '-') io.stdout.write(bytes);
    else writeFileAtomic(output, bytes);
    return 0;
  },
};

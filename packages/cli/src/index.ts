export { main } from './main.js';
export { parseArgs, valueOf, formatOptions, suggest, UsageError } from './args.js';
export type { OptionSpec, ParsedArgs } from './args.js';
export { CliError } from './command.js';
export type { Command } from './command.js';
export { writeFileAtomic, readInput, processIO } from './io.js';
export type { CliIO } from './io.js';

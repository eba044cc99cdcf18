/** Command-line options of the conformance runner. Every mistake is a UsageError, never a crash. */
import { availableParallelism } from 'node:os';
import { didYouMean } from '@syclkit/pass-manager';
import { parseTierList, TierSpecError, type Tier } from './scored.js';
import { TOOL_NAME } from './toolchain.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface Options {
  readonly help: boolean;
  readonly tiers: ReadonlySet<Tier>;
  readonly tierSpec: string;
  readonly filter?: RegExp;
  readonly verbose: boolean;
  /** Check the ratchet (`--ratchet`, or implied by `--update-ratchet`). */
  readonly ratchet: boolean;
  /** `--ratchet <file>`; undefined means the default `tools/conformance/passing.txt`. */
  readonly ratchetFile?: string;
  readonly updateRatchet: boolean;
  readonly corpus?: string;
  readonly llvmBin?: string;
  readonly toolMap: ReadonlyMap<string, string>;
  readonly jobs: number;
  readonly timeoutSeconds: number;
  readonly keepTemps: boolean;
  readonly list: boolean;
  /** `--json <file>`; `-` is stdout. */
  readonly json?: string;
}

type Arity = 'flag' | 'value' | 'optional-value';

interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  readonly arity: Arity;
  readonly valueName?: string;
  readonly repeatable?: boolean;
  readonly help: string;
}

export const OPTION_SPECS: readonly OptionSpec[] = [
  { name: 'tier', arity: 'value', valueName: '<tiers>', help: 'core (default), extended, skip, all, or a comma list such as core,extended' },
  { name: 'filter', arity: 'value', valueName: '<regex>', help: 'only tests whose path matches this JavaScript regular expression' },
  { name: 'verbose', short: 'v', arity: 'flag', help: 'for failures, show the failing command (after substitution) and its output' },
  { name: 'ratchet', arity: 'optional-value', valueName: '[<file>]', help: 'fail only if a test listed in <file> fails (default tools/conformance/passing.txt)' },
  { name: 'update-ratchet', arity: 'flag', help: 'add tests that pass now to the ratchet file (never removes any); implies --ratchet' },
  { name: 'corpus', arity: 'value', valueName: '<dir>', help: 'the corpus (default <repo>/../shared/conformance/intel-llvm)' },
  { name: 'llvm-bin', arity: 'value', valueName: '<dir>', help: 'where FileCheck, not, ... are (default /usr/lib/llvm-19/bin, then -18 ... -14, then PATH)' },
  { name: 'tool-map', arity: 'value', valueName: '<tool>=<command>', repeatable: true, help: 'run <command> for <tool>, e.g. opt=/opt/intel-llvm/bin/opt (repeatable)' },
  { name: 'jobs', short: 'j', arity: 'value', valueName: '<n>', help: 'tests run at once (default: number of CPUs)' },
  { name: 'timeout', arity: 'value', valueName: '<seconds>', help: 'per-test time limit, reported as FAIL(timeout) (default 60)' },
  { name: 'keep-temps', arity: 'flag', help: 'keep each test\'s temporary directory (%t, %T) and print where it is' },
  { name: 'list', arity: 'flag', help: 'print the selected tests without running them' },
  { name: 'json', arity: 'value', valueName: '<file>', help: 'also write the results as JSON to <file> (- for stdout)' },
  { name: 'help', short: 'h', arity: 'flag', help: 'show this help' },
];

export function usage(): string {
  const rows = OPTION_SPECS.map((s) => {
    const names = `${s.short === undefined ? '    ' : `-${s.short}, `}--${s.name}${s.valueName === undefined ? '' : ` ${s.valueName}`}`;
    return [names, s.help] as const;
  });
  const width = Math.max(...rows.map(([n]) => n.length)) + 2;
  return [
    'usage: npm run conformance -- [options]',
    '       node tools/conformance/dist/cli.js [options]',
    '',
    "Runs intel/llvm's lit tests (SCORED.tsv in the corpus) against syclkit: `opt`, `sycl-post-link`,",
    '`sycl-module-split` and `llvm-split` in RUN lines run the syclkit commands of the same role;',
    'FileCheck, not, ... come from LLVM.',
    '',
    'options:',
    ...rows.map(([n, h]) => `  ${n.padEnd(width)}${h}`),
    '',
    'exit status: 0 when nothing failed (with --ratchet: no listed test failed), 1 when tests failed,',
    '2 for usage or environment errors, 130 when interrupted.',
    '',
  ].join('\n');
}

export function parseOptions(argv: readonly string[], defaultJobs = availableParallelism()): Options {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new UsageError(`unexpected argument '${arg}' (select tests with --filter <regex> or --tier <tiers>)`);
    }
    const long = arg.startsWith('--');
    let body = arg.slice(long ? 2 : 1);
    // `-j4` is `-j=4`.
    if (!long && body.length > 1 && body[1] !== '=' && OPTION_SPECS.some((s) => s.short === body[0] && s.arity === 'value')) {
      body = `${body[0]}=${body.slice(1)}`;
    }
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = OPTION_SPECS.find((s) => (long ? s.name === name : s.short === name));
    if (spec === undefined) throw new UsageError(`unknown option '${long ? `--${name}` : arg}'${didYouMean(name, OPTION_SPECS.map((spec) => spec.name), '--')}`);
    const display = `--${spec.name}`;
    if (spec.arity === 'flag') {
      if (eq >= 0) throw new UsageError(`option '${display}' does not take a value`);
      flags.add(spec.name);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (spec.arity === 'value') {
      value = argv[i + 1];
      if (value === undefined) throw new UsageError(`option '${display}' needs a value: ${display} ${spec.valueName ?? '<value>'}`);
      i++;
    } else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) {
      value = argv[++i];
    }
    if (spec.arity === 'optional-value') flags.add(spec.name);
    if (value === undefined) continue;
    const list = values.get(spec.name) ?? [];
    if (list.length > 0 && spec.repeatable !== true) throw new UsageError(`option '${display}' given more than once`);
    list.push(value);
    values.set(spec.name, list);
  }

  const single = (name: string): string | undefined => values.get(name)?.[0];

  const tierSpec = single('tier') ?? 'core';
  let tiers: ReadonlySet<Tier>;
  try {
    tiers = parseTierList(tierSpec);
  } catch (error) {
    if (error instanceof TierSpecError) throw new UsageError(`--tier: ${error.message}`);
    throw error;
  }

  let filter: RegExp | undefined;
  const filterText = single('filter');
  if (filterText !== undefined) {
    try {
      filter = new RegExp(filterText);
    } catch (error) {
      throw new UsageError(`--filter: invalid regular expression '${filterText}': ${(error as Error).message}`);
    }
  }

  const jobsText = single('jobs');
  const jobs = jobsText === undefined ? defaultJobs : Number(jobsText);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs: expected a whole number of at least 1, got '${jobsText}'`);

  const timeoutText = single('timeout');
  const timeoutSeconds = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutText?.trim() === '') {
    throw new UsageError(`--timeout: expected a positive number of seconds, got '${timeoutText}'`);
  }

  const toolMap = new Map<string, string>();
  for (const entry of values.get('tool-map') ?? []) {
    const eq = entry.indexOf('=');
    const tool = eq < 0 ? '' : entry.slice(0, eq);
    const command = eq < 0 ? '' : entry.slice(eq + 1).trim();
    if (!TOOL_NAME.test(tool) || command === '') {
      throw new UsageError(`--tool-map: expected <tool>=<command>, e.g. opt=/path/to/opt, got '${entry}'`);
    }
    toolMap.set(tool, command);
  }

  for (const name of ['corpus', 'llvm-bin', 'json', 'ratchet']) {
    if (single(name) === '') throw new UsageError(`--${name}: the value is empty`);
  }

  const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));
  return {
    help: flags.has('help'),
    tiers,
    tierSpec,
    ...optional('filter', filter),
    verbose: flags.has('verbose'),
    ratchet: flags.has('ratchet') || flags.has('update-ratchet'),
    ...optional('ratchetFile', single('ratchet')),
    updateRatchet: flags.has('update-ratchet'),
    ...optional('corpus', single('corpus')),
    ...optional('llvmBin', single('llvm-bin')),
    toolMap,
    jobs,
    timeoutSeconds,
    keepTemps: flags.has('keep-temps'),
    list: flags.has('list'),
    ...optional('json', single('json')),
  };
}

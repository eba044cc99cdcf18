/** The `bench` command line: generate, run, compare, count, list. */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchUsageError, runCompare, toolLabel, type BenchmarkConfig, type BenchmarkReport } from './benchmarks.js';
import { benchmarks } from './registry.js';
import type { GeneratorOptions } from './options.js';
import { OptionError } from './options.js';
import { writeModuleFile, generateToSize, type SizedGeneratorOptions } from './output.js';
import { cachedModule } from './cache.js';
import { countInstructions, renderCounts } from './instruction-count.js';
import { createProcessRunner, detectMemoryProbe, resolveExecutable, type MemoryProbe } from './process-runner.js';
import { renderMarkdown, renderText } from './report.js';
import { createFiles, type FileCount } from './scaling.js';
import type { CommandSpec, Runner } from './harness.js';
import { formatBytes, formatDuration, parseSize } from './units.js';

export interface BenchIO {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
}

/** What tests may replace: how commands run and how memory is measured. */
export interface BenchDependencies {
  readonly runner?: Runner;
  readonly memory?: MemoryProbe;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `tools/bench/dist/main.js` -> the repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const defaultCacheDir = join(repoRoot, 'tools', 'bench', '.cache');
export const defaultSyclkit = join(repoRoot, 'packages', 'cli', 'bin', 'syclkit.js');
export const defaultLlvmOpt = '/usr/lib/llvm-16/bin/opt';
/** This package's CLI, which the file-creation floor runs as a command. */
export const benchCli = join(repoRoot, 'tools', 'bench', 'dist', 'cli.js');

const usage = `usage: node tools/bench/dist/cli.js <command> [options]

commands:
  generate [generator options] -o FILE|-    write a generated DPC++-shaped module
  run <benchmark> [run options]             run a built-in benchmark (see 'list')
  run compare ... / compare [run options] [--input FILE | generator options] [--label NAME]... [--baseline N] -- CMD... -- CMD...
                                            time any commands on one input; {input} is the input file,
                                            {tmp} a fresh directory per run; the last command is the baseline
  count [--input FILE | generator options] [--label NAME]... [--baseline N] -- CMD... -- CMD...
                                            count each command's instructions once under valgrind's
                                            callgrind (node commands with --single-threaded --predictable):
                                            repeatable to ~0.05% on a busy host, for A/B of two builds
  list                                      list the built-in benchmarks
  create-files --dir DIR --files N --bytes B [--from FILE]
                                            create N files of B bytes in all in DIR, directly (the
                                            file-creation floor; --from: a JSON {files, bytes} that wins)

generator options:
  --seed N  --kernels N  --tus N  --functions N (total definitions)  --segments N (average body segments)
  --target-size SIZE (e.g. 10MB; grows functions, and kernels unless --kernels is given)
  --opaque | --typed-pointers  --debug-info | -g

run options:
  --runs N  --warmup N  --sizes A,B,...  --timeout SECONDS (per run, default 1800)
  --json  --markdown FILE (append a results section)  --syclkit PATH (default packages/cli/bin/syclkit.js)
  --llvm-opt PATH (default ${defaultLlvmOpt})  --cache-dir DIR  --no-memory
  --out-dir DIR (where the commands' output goes, default the OS temp directory)
  --binaries DIR (compile-scaling: keep its k<N>.fatbin binaries there; read-scaling: read them)
  --compile-flag F (compile-scaling, read-scaling: one more syclkit compile argument; repeatable)
`;

interface Parsed {
  readonly values: Map<string, string[]>;
  readonly flags: Set<string>;
  readonly positional: string[];
  /** Commands after `--` separators (compare). */
  readonly commands: string[][];
}

const valueOptions = new Set([
  'seed', 'kernels', 'tus', 'functions', 'segments', 'target-size', 'o',
  'runs', 'warmup', 'sizes', 'timeout', 'markdown', 'syclkit', 'llvm-opt', 'cache-dir', 'input', 'label', 'baseline',
  'out-dir', 'dir', 'files', 'bytes', 'from', 'binaries', 'compile-flag',
]);
const flagOptions = new Set(['opaque', 'typed-pointers', 'debug-info', 'g', 'json', 'no-memory', 'help', 'h']);

export function parseArguments(argv: readonly string[]): Parsed {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  const positional: string[] = [];
  const commands: string[][] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '-' || !arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    if (flagOptions.has(name) && eq === -1) {
      flags.add(name);
      continue;
    }
    if (!valueOptions.has(name)) throw new UsageError(`unknown option '${arg}'`);
    const value = eq === -1 ? argv[++i] : body.slice(eq + 1);
    if (value === undefined) throw new UsageError(`option '${arg}' needs a value`);
    const list = values.get(name) ?? [];
    list.push(value);
    values.set(name, list);
  }
  let current: string[] | undefined;
  for (i++; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      current = undefined;
      continue;
    }
    if (current === undefined) commands.push((current = []));
    current.push(arg);
  }
  // A command given as one quoted string is split on whitespace (no shell quoting).
  return { values, flags, positional, commands: commands.map((c) => (c.length === 1 && /\s/.test(c[0]!) ? c[0]!.trim().split(/\s+/) : c)) };
}

function single(p: Parsed, name: string): string | undefined {
  const list = p.values.get(name);
  if (list !== undefined && list.length > 1) throw new UsageError(`--${name} given more than once`);
  return list?.[0];
}

function integer(p: Parsed, name: string, min = 0): number | undefined {
  const text = single(p, name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} needs an integer >= ${min}, got '${text}'`);
  return n;
}

export function generatorOptions(p: Parsed): SizedGeneratorOptions {
  if (p.flags.has('opaque') && p.flags.has('typed-pointers')) throw new UsageError('--opaque and --typed-pointers exclude each other');
  const out: { -readonly [K in keyof SizedGeneratorOptions]: SizedGeneratorOptions[K] } = {};
  const set = <K extends keyof GeneratorOptions>(key: K, value: GeneratorOptions[K] | undefined): void => {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  };
  set('seed', integer(p, 'seed'));
  set('kernels', integer(p, 'kernels'));
  set('tus', integer(p, 'tus', 1));
  set('functions', integer(p, 'functions'));
  set('segments', integer(p, 'segments'));
  if (p.flags.has('typed-pointers')) out.pointers = 'typed';
  if (p.flags.has('opaque')) out.pointers = 'opaque';
  if (p.flags.has('debug-info') || p.flags.has('g')) out.debugInfo = true;
  const size = single(p, 'target-size');
  if (size !== undefined) {
    try {
      out.targetSize = parseSize(size);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return out;
}

function hasGeneratorOptions(p: Parsed): boolean {
  return ['seed', 'kernels', 'tus', 'functions', 'segments', 'target-size'].some((n) => p.values.has(n)) || ['opaque', 'typed-pointers', 'debug-info', 'g'].some((f) => p.flags.has(f));
}

function syclkitPrefix(path: string): string[] {
  return /\.[cm]?js$/.test(path) ? [process.execPath, path] : [path];
}

function benchmarkConfig(p: Parsed, io: BenchIO, deps: BenchDependencies): BenchmarkConfig {
  const memory = p.flags.has('no-memory') ? ({ kind: 'none', reason: 'disabled with --no-memory' } as const) : (deps.memory ?? detectMemoryProbe());
  const sizesText = single(p, 'sizes');
  const sizes = sizesText?.split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--sizes needs positive integers, got '${s}'`);
    return n;
  });
  const timeout = integer(p, 'timeout', 1) ?? 1800;
  const runs = integer(p, 'runs', 1);
  const warmup = integer(p, 'warmup');
  const outDir = single(p, 'out-dir');
  const binaries = single(p, 'binaries');
  const compileFlags = p.values.get('compile-flag') ?? [];
  return {
    benchCli,
    ...(compileFlags.length > 0 ? { compileFlags } : {}),
    ...(binaries !== undefined ? { binariesDir: resolve(binaries) } : {}),
    ...(outDir !== undefined ? { outDir: resolve(outDir) } : {}),
    cacheDir: resolve(single(p, 'cache-dir') ?? defaultCacheDir),
    syclkit: syclkitPrefix(resolve(single(p, 'syclkit') ?? defaultSyclkit)),
    llvmOpt: single(p, 'llvm-opt') ?? defaultLlvmOpt,
    runner: deps.runner ?? createProcessRunner(memory),
    memory: memory.kind === 'gnu-time' ? `GNU time (${memory.path} -f '%M %U %S')` : `n/a (${memory.reason})`,
    timeoutMs: timeout * 1000,
    log: (m) => io.stderr.write(`${m}\n`),
    ...(runs !== undefined ? { runs } : {}),
    ...(warmup !== undefined ? { warmup } : {}),
    ...(sizes !== undefined ? { sizes } : {}),
  };
}

function emit(report: BenchmarkReport, p: Parsed, io: BenchIO): number {
  io.stdout.write(p.flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : renderText(report));
  const markdown = single(p, 'markdown');
  if (markdown !== undefined) {
    appendFileSync(markdown, renderMarkdown(report));
    io.stderr.write(`appended results to ${markdown}\n`);
  }
  const failed = report.cases.some((c) => c.comparison.commands.some((r) => r.failure !== undefined));
  return failed ? 1 : 0;
}

async function generateCommand(p: Parsed, io: BenchIO): Promise<number> {
  const out = single(p, 'o');
  if (out === undefined) throw new UsageError('generate needs -o FILE (or -o - for stdout)');
  if (p.positional.length > 1) throw new UsageError(`unexpected argument '${p.positional[1]}'`);
  const options = generatorOptions(p);
  const start = performance.now();
  let stats;
  if (out === '-') {
    const sized = generateToSize(options);
    for (const chunk of sized.chunks) io.stdout.write(chunk);
    stats = sized.stats;
  } else {
    stats = writeModuleFile(out, options).stats;
  }
  const ms = performance.now() - start;
  io.stderr.write(
    `wrote ${out === '-' ? 'stdout' : out}: ${formatBytes(stats.bytes)}, ${stats.definitions} functions (${stats.kernels} kernels), ${stats.declarations} declarations, in ${formatDuration(ms)} (${((stats.bytes / 1024 ** 2) / (ms / 1000)).toFixed(1)} MiB/s)\n`,
  );
  return 0;
}

/** `create-files`: the file-creation floor as a command of its own (timed like the others). */
function createFilesCommand(p: Parsed): number {
  const dir = single(p, 'dir');
  if (dir === undefined) throw new UsageError('create-files needs --dir DIR');
  const from = single(p, 'from');
  let count: FileCount | undefined;
  if (from !== undefined && existsSync(from)) count = JSON.parse(readFileSync(from, 'utf8')) as FileCount;
  const files = count?.files ?? integer(p, 'files');
  const bytes = count?.bytes ?? integer(p, 'bytes') ?? 0;
  if (files === undefined) throw new UsageError('create-files needs --files N (or --from FILE)');
  createFiles(dir, { files, bytes });
  return 0;
}

/** The commands after `--`, labelled, the baseline index, and the input of `compare` and `count`. */
function commandLine(p: Parsed, verb: string): { commands: CommandSpec[]; baseline: number | undefined; file: string | undefined } {
  if (p.commands.length < 2) throw new UsageError(`${verb} needs at least two commands: ${verb} [options] -- CMD... -- CMD...`);
  const labels = p.values.get('label') ?? [];
  if (labels.length > p.commands.length) throw new UsageError(`${labels.length} labels for ${p.commands.length} commands`);
  const commands: CommandSpec[] = p.commands.map((argv, i) => ({ label: labels[i] ?? defaultLabel(argv, p.commands), argv }));
  const duplicate = commands.find((c, i) => commands.findIndex((d) => d.label === c.label) !== i);
  if (duplicate !== undefined) throw new UsageError(`two commands are labelled '${duplicate.label}'; use --label`);
  const baseline = integer(p, 'baseline', 1);
  if (baseline !== undefined && baseline > commands.length) throw new UsageError(`--baseline ${baseline}: there are ${commands.length} commands`);
  const file = single(p, 'input');
  if (file !== undefined && hasGeneratorOptions(p)) throw new UsageError('--input and generator options exclude each other');
  return { commands, baseline: baseline === undefined ? undefined : baseline - 1, file };
}

async function compareCommand(p: Parsed, io: BenchIO, deps: BenchDependencies): Promise<number> {
  const { commands, baseline, file } = commandLine(p, 'compare');
  const config = benchmarkConfig(p, io, deps);
  const report = await runCompare(config, commands, file !== undefined ? { file } : { generate: generatorOptions(p) }, baseline);
  return emit(report, p, io);
}

async function countCommand(p: Parsed, io: BenchIO, deps: BenchDependencies): Promise<number> {
  const { commands, baseline, file } = commandLine(p, 'count');
  const valgrind = deps.runner === undefined ? resolveExecutable('valgrind') : 'valgrind';
  if (valgrind === undefined) throw new UsageError('count runs the commands under valgrind, which is not installed (apt-get install -y valgrind)');
  const config = benchmarkConfig(p, io, { ...deps, memory: { kind: 'none', reason: 'not measured under valgrind' } });
  const input = file ?? cachedModule(config.cacheDir, generatorOptions(p), config.log).path;
  const report = await countInstructions(commands, input, config.runner, {
    timeoutMs: config.timeoutMs,
    valgrind,
    log: config.log,
    ...(baseline !== undefined ? { baseline } : {}),
  });
  io.stdout.write(p.flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : renderCounts(report));
  return report.results.some((r) => r.instructions === undefined) ? 1 : 0;
}

/**
 * `node x.js`-style commands are labelled by their script, others by the tool
 * (`llvm-16 opt`); a `#N` position is added only when two commands would look the same.
 */
export function defaultLabel(argv: readonly string[], all: readonly (readonly string[])[]): string {
  const tool = (a: readonly string[]): string => {
    const [first, second] = a;
    if (first === undefined) return '(empty)';
    return /(^|\/)node$/.test(first) && second !== undefined ? toolLabel(second) : toolLabel(first);
  };
  const mine = tool(argv);
  const same = all.filter((a) => tool(a) === mine);
  return same.length > 1 ? `${mine} #${all.indexOf(argv) + 1}` : mine;
}

export async function main(argv: readonly string[], io: BenchIO = process, deps: BenchDependencies = {}): Promise<number> {
  try {
    const p = parseArguments(argv);
    const [command, name] = p.positional;
    if (command === undefined || p.flags.has('help') || p.flags.has('h')) {
      io.stdout.write(usage);
      return command === undefined && !p.flags.has('help') && !p.flags.has('h') ? 2 : 0;
    }
    switch (command) {
      case 'generate':
        return await generateCommand(p, io);
      case 'list':
        for (const b of benchmarks) io.stdout.write(`${b.name.padEnd(16)}${b.title}\n${''.padEnd(16)}${b.measures}\n`);
        io.stdout.write(`${'compare'.padEnd(16)}any commands: compare [options] -- CMD... -- CMD...\n`);
        io.stdout.write(`${'count'.padEnd(16)}instruction counts under valgrind: count [options] -- CMD... -- CMD...\n`);
        return 0;
      case 'compare':
        return await compareCommand(p, io, deps);
      case 'create-files':
        return createFilesCommand(p);
      case 'count':
        return await countCommand(p, io, deps);
      case 'run': {
        if (name === undefined) throw new UsageError(`run needs a benchmark: ${[...benchmarks.map((b) => b.name), 'compare'].join(', ')}`);
        if (name === 'compare') return await compareCommand(p, io, deps);
        const benchmark = benchmarks.find((b) => b.name === name);
        if (benchmark === undefined) throw new UsageError(`unknown benchmark '${name}'; known: ${[...benchmarks.map((b) => b.name), 'compare'].join(', ')}`);
        if (p.positional.length > 2) throw new UsageError(`unexpected argument '${p.positional[2]}'`);
        if (hasGeneratorOptions(p)) throw new UsageError(`${name} generates its own inputs; generator options apply to 'generate' and 'compare'`);
        if (p.commands.length > 0) throw new UsageError(`${name} has built-in commands; use 'compare' for your own`);
        return emit(await benchmark.run(benchmarkConfig(p, io, deps)), p, io);
      }
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof OptionError || error instanceof BenchUsageError) {
      io.stderr.write(`bench: error: ${error.message}\n${error instanceof OptionError ? '' : "run 'node tools/bench/dist/cli.js --help' for usage\n"}`);
      return 2;
    }
    const e = error as NodeJS.ErrnoException;
    if (typeof e?.code === 'string' && typeof e.path === 'string') {
      io.stderr.write(`bench: error: ${e.path}: ${e.message}\n`);
      return 1;
    }
    throw error;
  }
}

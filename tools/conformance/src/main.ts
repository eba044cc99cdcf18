/** The conformance runner's command line: select, run, report, ratchet. */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOptions, usage, UsageError, type Options } from './args.js';
import { isFailing, isPassing, type TestResult } from './execute.js';
import { writeFileAtomic } from '@syclkit/formats';
import { checkRatchet, formatRatchet, parseRatchet, updateRatchet, type RatchetCheck } from './ratchet.js';
import { formatFailureDetails, formatRatchetReport, formatResultLine, formatSummary, outcomeLabel, summarize, toJsonTests, type JsonReport } from './report.js';
import { runTests } from './run.js';
import { parseScored, ScoredFormatError, selectTests, TIERS, type ScoredTest } from './scored.js';
import { createShimDir, EnvironmentError, findLlvmBin, SYCLKIT_TOOLS } from './toolchain.js';

export interface MainIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export interface MainContext {
  /** The repository root; the corpus and the default ratchet file are found from it. */
  readonly repoRoot: string;
  /** Relative paths given on the command line are resolved against it. */
  readonly cwd: string;
  /** Aborted on Ctrl-C: running tests are killed and nothing new starts. */
  readonly signal?: AbortSignal;
  /** The environment the RUN lines inherit (PATH gets the tool shims in front). */
  readonly env?: NodeJS.ProcessEnv;
}

/** `<repo>`, from this file's place in `<repo>/tools/conformance/{src,dist}/`. */
export function defaultRepoRoot(): string {
  return fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
}

export const DEFAULT_RATCHET = 'tools/conformance/passing.txt';

/** `<repo>/../shared/conformance/intel-llvm`. */
export function defaultCorpus(repoRoot: string): string {
  return resolve(repoRoot, '..', 'shared', 'conformance', 'intel-llvm');
}

function readErrno(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EnvironmentError(`cannot read ${what} ${path}: ${code === 'ENOENT' ? 'no such file' : code ?? (error as Error).message}`);
  }
}

function loadCorpus(corpusDir: string): ScoredTest[] {
  const scoredPath = join(corpusDir, 'SCORED.tsv');
  if (!existsSync(scoredPath)) {
    throw new EnvironmentError(`no corpus at ${corpusDir} (SCORED.tsv not found); pass --corpus <dir> or check out ../shared beside the repository`);
  }
  return parseScored(readErrno(scoredPath, 'corpus list'), scoredPath);
}

function describeSelection(options: Options): string {
  return `tier ${options.tierSpec}${options.filter === undefined ? '' : `, filter /${options.filter.source}/`}`;
}

function writeOutput(target: string, text: string, context: MainContext, io: MainIO): void {
  if (target === '-') {
    io.stdout.write(text);
    return;
  }
  const path = resolve(context.cwd, target);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, text);
}

async function run(argv: readonly string[], io: MainIO, context: MainContext): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    io.stdout.write(usage());
    return 0;
  }
  // With `--json -` stdout carries only the JSON; the human report moves to stderr.
  const human = options.json === '-' ? io.stderr : io.stdout;
  const corpusDir = options.corpus === undefined ? defaultCorpus(context.repoRoot) : resolve(context.cwd, options.corpus);
  const scored = loadCorpus(corpusDir);

  const ratchetFile = options.ratchetFile === undefined ? join(context.repoRoot, DEFAULT_RATCHET) : resolve(context.cwd, options.ratchetFile);
  let listed: string[] = [];
  if (options.ratchet) {
    if (existsSync(ratchetFile)) listed = parseRatchet(readErrno(ratchetFile, 'ratchet file'));
    else if (!options.updateRatchet) throw new EnvironmentError(`ratchet file ${ratchetFile} does not exist (create it, or use --update-ratchet)`);
  }

  // The ratchet's tests always run, so its guarantee holds whatever --tier and --filter say.
  const chosen = new Set(selectTests(scored, options).map((t) => t.path));
  const listedSet = new Set(listed);
  const tests = scored.filter((t) => chosen.has(t.path) || listedSet.has(t.path));

  if (options.list) {
    for (const t of tests) human.write(options.verbose ? `${t.tier}\t${t.path}\t${t.reason}\n` : `${t.path}\n`);
    if (options.json !== undefined) writeOutput(options.json, `${JSON.stringify({ corpus: corpusDir, tests }, null, 2)}\n`, context, io);
    return 0;
  }
  if (tests.length === 0) {
    throw new EnvironmentError(`no tests selected (${describeSelection(options)}; ${scored.length} in SCORED.tsv)`);
  }

  const llvmBin = findLlvmBin(options.llvmBin === undefined ? undefined : resolve(context.cwd, options.llvmBin));
  const syclkitBin = join(context.repoRoot, 'packages', 'cli', 'bin', 'syclkit.js');
  const unmapped = Object.keys(SYCLKIT_TOOLS).filter((t) => !options.toolMap.has(t));
  if (unmapped.length > 0 && !existsSync(join(context.repoRoot, 'packages', 'cli', 'dist', 'main.js'))) {
    io.stderr.write(`conformance: warning: syclkit is not built (${join(context.repoRoot, 'packages/cli/dist')} missing); RUN lines using ${unmapped.join(', ')} will fail. Run 'npm run build'.\n`);
  }

  const workRoot = mkdtempSync(join(tmpdir(), 'syclkit-conformance-'));
  let results: TestResult[];
  try {
    const shimDir = join(workRoot, 'bin');
    mkdirSync(shimDir);
    createShimDir(shimDir, { llvmBin, syclkitBin, nodePath: process.execPath, toolMap: options.toolMap });

    const mapped = [...options.toolMap].map(([tool, command]) => `${tool}=${command}`);
    human.write(
      `conformance: ${tests.length} test${tests.length === 1 ? '' : 's'} (${describeSelection(options)}${listed.length > 0 ? ', plus the ratchet' : ''}) from ${corpusDir}\n` +
        `conformance: LLVM tools from ${llvmBin}; syclkit ${syclkitBin}${mapped.length > 0 ? `; tool map ${mapped.join(', ')}` : ''}\n`,
    );
    results = await runTests(
      {
        tests,
        corpusDir,
        shimDir,
        workRoot: join(workRoot, 'tests'),
        jobs: options.jobs,
        timeoutMs: options.timeoutSeconds * 1000,
        keepTemps: options.keepTemps,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(context.env === undefined ? {} : { env: context.env }),
      },
      (result) => {
        human.write(`${formatResultLine(result)}\n`);
        const details = options.verbose && isFailing(result.outcome) ? formatFailureDetails(result) : '';
        if (details !== '') human.write(`${details}\n`);
      },
    );
  } finally {
    if (options.keepTemps) human.write(`conformance: temporary files kept in ${workRoot}\n`);
    else rmSync(workRoot, { recursive: true, force: true });
  }

  if (context.signal?.aborted === true) {
    io.stderr.write(`conformance: interrupted after ${results.length} of ${tests.length} tests\n`);
    return 130;
  }

  const summary = summarize(results);
  human.write(`${formatSummary(summary)}\n`);

  let check: RatchetCheck | undefined;
  let added: string[] = [];
  const displayRatchet = relative(context.cwd, ratchetFile) || ratchetFile;
  if (options.ratchet) {
    const outcomes = new Map(results.map((r) => [r.path, { passed: isPassing(r.outcome), label: outcomeLabel(r.outcome) }]));
    check = checkRatchet(listed, outcomes, new Set(scored.map((t) => t.path)));
    human.write(`${formatRatchetReport(check, displayRatchet)}\n`);
    if (options.updateRatchet) {
      const update = updateRatchet(
        listed,
        results.filter((r) => isPassing(r.outcome)).map((r) => r.path),
      );
      added = update.added;
      const text = formatRatchet(update.paths);
      const current = existsSync(ratchetFile) ? readFileSync(ratchetFile, 'utf8') : undefined;
      if (current !== text) {
        mkdirSync(dirname(ratchetFile), { recursive: true });
        writeFileAtomic(ratchetFile, text);
      }
      human.write(`ratchet ${displayRatchet}: added ${added.length} test${added.length === 1 ? '' : 's'}${added.length > 0 ? ':' : ''}\n`);
      for (const path of added) human.write(`  ADDED: ${path}\n`);
    }
  }

  if (options.json !== undefined) {
    const report: JsonReport = {
      corpus: corpusDir,
      tiers: TIERS.filter((t) => options.tiers.has(t)),
      filter: options.filter?.source ?? null,
      summary,
      ratchet: check === undefined ? null : { file: ratchetFile, listed: check.listed, regressions: check.regressions, added },
      tests: toJsonTests(results),
    };
    writeOutput(options.json, `${JSON.stringify(report, null, 2)}\n`, context, io);
  }

  if (check !== undefined) return check.regressions.length > 0 ? 1 : 0;
  return summary.failed > 0 ? 1 : 0;
}

/** Runs the conformance CLI with `argv` (without node and script); returns the exit code. */
export async function main(
  argv: readonly string[],
  io: MainIO = { stdout: process.stdout, stderr: process.stderr },
  context: MainContext = { repoRoot: defaultRepoRoot(), cwd: process.cwd() },
): Promise<number> {
  try {
    return await run(argv, io, context);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`conformance: error: ${error.message}\nRun with --help for the options.\n`);
      return 2;
    }
    if (error instanceof EnvironmentError || error instanceof ScoredFormatError) {
      io.stderr.write(`conformance: error: ${error.message}\n`);
      return 2;
    }
    const err = error as NodeJS.ErrnoException;
    if (typeof err?.code === 'string' && typeof err.path === 'string') {
      io.stderr.write(`conformance: error: ${err.path}: ${err.code}\n`);
      return 2;
    }
    io.stderr.write(`conformance: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env['CONFORMANCE_DEBUG']) io.stderr.write(`${(err as Error).stack ?? ''}\n`);
    return 70;
  }
}

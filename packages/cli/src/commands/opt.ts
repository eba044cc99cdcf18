import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatLLVMVerifierFailures, functionKind, moduleKind, printModule, printModuleTo, verifyWhileParsing, type Module } from '@syclkit/ir';
import {
  createRegistry,
  formatDiagnostics,
  parseDiagnosticFlags,
  printIR,
  timePasses,
  verifyEach,
  type Instrumentation,
  type PassRegistry,
} from '@syclkit/pass-manager';
import { formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import { writeFileAtomic, writeFileAtomicStreaming } from '../io.js';
import { runLlvmTool } from '../llvm-tools.js';
import { readModule } from '../read-module.js';

const BASE_OPTIONS: readonly OptionSpec[] = [
  { name: 'passes', kind: 'value', joinedOnly: true, valueName: '<pipeline>', help: "Pipeline to run, LLVM syntax: 'a,b<opt>,function(c)'" },
  { name: 'S', help: 'Write textual IR (default: bitcode, through LLVM llvm-as)' },
  { name: 'o', kind: 'value', valueName: '<file>', help: "Output file ('-' for stdout, the default)" },
  { name: 'f', help: 'Allow bitcode output to a terminal' },
  { name: 'disable-output', help: 'Run the passes but write nothing' },
  {
    name: 'llvm-version',
    kind: 'value',
    joinedOnly: true,
    valueName: '15|16',
    help: "Write IR for this LLVM version's reader (default 16). 15: memory(...) as readnone/readonly/argmemonly/..., debug records as llvm.dbg calls, flags LLVM 15 lacks left out (warned); an error names what LLVM 15 cannot express. Bitcode (without -S) then comes from LLVM 15's llvm-as",
  },
  {
    name: 'typed-pointers',
    help: "With -llvm-version=15: write typed pointers (every ptr as i8*, bitcasts where a pointee type is needed), as LLVM 15's SPIR-V translator reads best; bitcode keeps them (llvm-as -opaque-pointers=0)",
  },
  { name: 'print-pipeline-passes', help: 'Print the canonical pipeline text and exit' },
  { name: 'print-passes', help: 'List the registered passes with their options and exit' },
  { name: 'time-passes', help: 'Report the time each pass took (to stderr)' },
  { name: 'verify-each', help: 'Verify the module after every pass' },
  { name: 'disable-verify', help: "Skip LLVM's verifier checks of the input (see the README for which are made)" },
  { name: 'print-after-all', help: 'Print the module after every pass (to stderr)' },
  { name: 'W', kind: 'value', repeatable: true, valueName: '<diag>', help: 'Diagnostics: -Werror, -Wno-<code>, -Werror=<code> (also written joined)' },
  { name: 'R', kind: 'value', repeatable: true, valueName: '<code>', help: 'Show remarks of the given code (also -R<code>)' },
  { name: 'diagnostics-format', kind: 'value', joinedOnly: true, valueName: 'text|json', help: 'How to print diagnostics (default text)' },
  { name: 'help', aliases: ['h', '-help'], help: 'Show this help' },
];

function usage(registry: PassRegistry): string {
  const flagSpecs: OptionSpec[] = registry.commandLineFlags().map((f) => ({
    name: f.name,
    kind: f.takesValue ? 'value' : 'flag',
    valueName: f.takesValue ? '<value>' : undefined,
    help: f.help,
  })) as OptionSpec[];
  return (
    'usage: syclkit opt [options] [<input.ll>|-]\n\n' +
    'Reads LLVM IR (text, or bitcode when llvm-dis is installed), runs a pass pipeline and writes\n' +
    "the result; a drop-in for the 'opt' of intel/llvm's tests. Without -passes it is a parse/print\n" +
    "round trip identical to LLVM 16 'opt -S'.\n\n" +
    "LLVM's legacy spellings are accepted: -<pass> adds a registered pass (in command-line order,\n" +
    'not together with -passes); -bugpoint-enable-legacy-pm is ignored; -enable-new-pm=0 (an LLVM\n' +
    '<= 15 command line) and -opaque-pointers=0 read typed pointers as typed.\n\noptions:\n' +
    formatOptions(BASE_OPTIONS) +
    (flagSpecs.length > 0 ? '\npass options (cl::opt style, -name=value):\n' + formatOptions(flagSpecs) : '')
  );
}

/** Options that never name a pass, a pass option or a diagnostic code. */
const PASSLESS_OPTIONS = new Set(['S', 'o', 'f', 'disable-output', 'llvm-version', 'typed-pointers', 'disable-verify', 'time-passes', 'verify-each', 'print-after-all', 'diagnostics-format']);

/**
 * Whether the command line needs the registered passes: a pipeline, a pass option, a -W/-R code,
 * help, or anything else not in {@link PASSLESS_OPTIONS}. Without them (a parse/print round
 * trip), the pass packages are not loaded, which saves about 25 ms of start-up.
 */
export function needsPasses(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-' || !arg.startsWith('-')) continue;
    const name = /^--?([^=]*)/.exec(arg)![1]!;
    if (!PASSLESS_OPTIONS.has(name)) return true;
    if (name === 'o' && !arg.includes('=')) i++;
  }
  return false;
}

async function registryFor(argv: readonly string[]): Promise<PassRegistry> {
  if (needsPasses(argv)) return (await import('../passes.js')).passRegistry();
  return createRegistry({ unitKinds: [moduleKind, functionKind], passes: [] });
}

/**
 * Spellings of LLVM's legacy pass manager that intel/llvm's RUN lines still use:
 * `-bugpoint-enable-legacy-pm` and `-enable-new-pm=0` select it (the latter, an LLVM <= 15 tool,
 * also reads typed pointers as typed, like `-opaque-pointers=0`), and `-<pass>` adds a pass to
 * the pipeline in command-line order.
 */
interface LegacySpellings {
  passes: string[];
  typedPointers: boolean;
}

const FALSE = /^(0|false)$/i;

function legacySpelling(name: string, value: string | undefined, registry: PassRegistry, legacy: LegacySpellings): boolean {
  if (name === 'bugpoint-enable-legacy-pm') return true;
  if (name === 'enable-new-pm') {
    if (value !== undefined && FALSE.test(value)) legacy.typedPointers = true;
    return true;
  }
  if (name === 'opaque-pointers') {
    legacy.typedPointers = value !== undefined && FALSE.test(value);
    return true;
  }
  if (value !== undefined || !/^[a-z][a-z0-9-]*$/.test(name)) return false;
  try {
    registry.parse(name);
  } catch {
    return false;
  }
  legacy.passes.push(name);
  return true;
}

/** Splits argv into our options, `-W...`-style / pass `cl::opt` flags and legacy pass spellings. */
function splitArgs(argv: readonly string[], registry: PassRegistry): { ours: string[]; passFlags: [string, string | undefined][]; diagFlags: string[]; legacy: LegacySpellings } {
  const passFlagNames = new Map(registry.commandLineFlags().map((f) => [f.name, f]));
  const ours: string[] = [];
  const passFlags: [string, string | undefined][] = [];
  const diagFlags: string[] = [];
  const legacy: LegacySpellings = { passes: [], typedPointers: false };
  const ourNames = new Set(BASE_OPTIONS.flatMap((o) => [o.name, ...(o.aliases ?? [])]));
  for (const arg of argv) {
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(arg);
    if (m && passFlagNames.has(m[1]!)) {
      passFlags.push([m[1]!, m[2]]);
      continue;
    }
    if (/^-[WR]/.test(arg) && arg.length > 2) {
      diagFlags.push(arg);
      continue;
    }
    if (m && !ourNames.has(m[1]!) && legacySpelling(m[1]!, m[2], registry, legacy)) continue;
    ours.push(arg);
  }
  return { ours, passFlags, diagFlags, legacy };
}

export const command: Command = {
  name: 'opt',
  summary: 'Run a pass pipeline over LLVM IR (drop-in for the opt of intel/llvm tests)',
  async run(argv, io) {
    const registry = await registryFor(argv);
    const { ours, passFlags, diagFlags, legacy } = splitArgs(argv, registry);
    const args = parseArgs(ours, BASE_OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(usage(registry));
      return 0;
    }
    if (args.flags.has('print-passes')) {
      io.stdout.write(registry.describe());
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError(`expected one input file, got ${args.positionals.length}`);
    const pipelineText = valueOf(args, 'passes');
    if (pipelineText !== undefined && legacy.passes.length > 0) {
      throw new UsageError(`cannot specify passes via both -${legacy.passes[0]!} and -passes (as in LLVM's opt)`);
    }
    const nodes = pipelineText === undefined && legacy.passes.length > 0 ? registry.parse(legacy.passes.join(','), { source: 'pass flags' }) : registry.parse(pipelineText ?? '', { source: '-passes' });
    if (args.flags.has('print-pipeline-passes')) {
      io.stdout.write(registry.print(nodes) + '\n');
      return 0;
    }
    const flags = registry.parseFlags(passFlags);
    const policy = parseDiagnosticFlags(
      [...diagFlags, ...(args.values.get('W') ?? []).map((w) => `-W${w}`), ...(args.values.get('R') ?? []).map((r) => `-R${r}`)],
      { knownCodes: registry.diagnosticCodes().keys() },
    );
    const input = args.positionals[0] ?? '-';
    const output = valueOf(args, 'o') ?? '-';
    const versionText = valueOf(args, 'llvm-version') ?? '16';
    if (versionText !== '15' && versionText !== '16') throw new UsageError(`-llvm-version must be 15 or 16, not '${versionText}'`);
    const llvmVersion = versionText === '15' ? 15 : 16;
    const typedPointers = args.flags.has('typed-pointers');
    if (typedPointers && llvmVersion !== 15) throw new UsageError('-typed-pointers needs -llvm-version=15');
    const text = args.flags.has('S');
    if (!text && !args.flags.has('disable-output') && output === '-' && io.stdoutIsTTY && !args.flags.has('f')) {
      throw new CliError("refusing to write bitcode to a terminal; use -S for text, -o <file>, or -f");
    }
    // LLVM's opt verifies its input before any pass runs, and stops when it is broken
    const verifier = args.flags.has('disable-verify') ? undefined : verifyWhileParsing();
    const module = await readModule(input, io, (message) => io.stderr.write(`warning: ${message}\n`), legacy.typedPointers ? 'preserve-typed' : undefined, verifier?.onFunction);
    const failures = verifier?.failures(module) ?? [];
    if (failures.length > 0) {
      io.stderr.write(formatLLVMVerifierFailures(module, failures));
      io.stderr.write(`syclkit opt: ${input}: error: input module is broken!\n`);
      return 1;
    }
    const instrumentations: Instrumentation[] = [];
    const timer = args.flags.has('time-passes') ? timePasses() : undefined;
    if (timer) instrumentations.push(timer);
    if (args.flags.has('verify-each')) instrumentations.push(verifyEach());
    if (args.flags.has('print-after-all')) instrumentations.push(printIR({ write: (s) => io.stderr.write(s), after: 'all' }));
    const result = registry.build<Module>(nodes, { flags }).run(module, { file: module.id, policy: policy.policy, instrumentations });
    const diagnostics = [...policy.diagnostics, ...result.diagnostics];
    if (diagnostics.length > 0) {
      if (valueOf(args, 'diagnostics-format') === 'json') io.stderr.write(JSON.stringify(diagnostics, null, 2) + '\n');
      else io.stderr.write(formatDiagnostics(diagnostics, { file: module.id }));
    }
    if (timer) io.stderr.write(timer.report());
    if (result.stopped || result.errorCount > 0) return 1;
    if (args.flags.has('disable-output')) return 0;
    const losses: string[] = [];
    const printOptions = { llvmVersion, pointers: typedPointers ? 'typed' : 'opaque', onLossy: (note: string) => losses.push(note) } as const;
    const warnLosses = (): void => {
      for (const note of losses.slice(0, 10)) io.stderr.write(`syclkit opt: warning: for LLVM 15, ${note}\n`);
      if (losses.length > 10) io.stderr.write(`syclkit opt: warning: for LLVM 15, ${losses.length - 10} more such changes\n`);
    };
    if (text) {
      if (output === '-') printModuleTo(module, (chunk) => io.stdout.write(chunk), printOptions);
      // the file is written synchronously, chunk by chunk: the printer may reuse its buffer
      else writeFileAtomicStreaming(output, (write) => printModuleTo(module, write, { ...printOptions, transientChunks: true }));
      warnLosses();
      return 0;
    }
    const ir = Buffer.from(printModule(module, printOptions), 'latin1');
    warnLosses();
    const bitcode = llvmVersion === 15 ? runLlvm15As(ir, typedPointers) : runLlvmTool('llvm-as', ['-o', '-', '-'], ir, 'writing bitcode (omit -S)');
    if (output === '-') io.stdout.write(bitcode);
    else writeFileAtomic(output, bitcode);
    return 0;
  },
};

/** LLVM 15's llvm-as (Debian's llvm-15), for bitcode that LLVM 15 reads. */
function runLlvm15As(ir: Buffer, typedPointers: boolean): Buffer {
  const dirs = [process.env['SYCLKIT_LLVM15_BIN'], '/usr/lib/llvm-15/bin'].filter((d): d is string => d !== undefined && d !== '');
  const tool = dirs.map((d) => join(d, 'llvm-as')).find((p) => existsSync(p));
  if (tool === undefined) throw new CliError("writing LLVM 15 bitcode needs LLVM 15's llvm-as, which is not installed (apt-get install -y llvm-15; or set SYCLKIT_LLVM15_BIN, or use -S)");
  try {
    return execFileSync(tool, [...(typedPointers ? ['-opaque-pointers=0'] : []), '-o', '-', '-'], { input: ir, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    throw new CliError(`LLVM 15's llvm-as failed: ${e.stderr?.toString().trim() || e.message}`);
  }
}

import { printModule, type Module } from '@syclkit/ir';
import { formatDiagnostics } from '@syclkit/pass-manager';
import { llcTriple, requireLlvmTool, runToolSync, syclCodegenPipeline, unselectableIntrinsic } from '@syclkit/gpu-targets';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';
import type { CliIO } from '../io.js';
import { readModule } from '../read-module.js';

const HELP = `usage: syclkit llc [llc options] [<input.ll>|-]

A drop-in for the llc of intel/llvm's NVPTX and AMDGPU tests: runs the SYCL passes intel/llvm's
code generators run (for nvptx*-*-cuda and amdgcn-*-amdhsa: localaccessortosharedmemory when
-sycl-enable-local-accessor is given, then globaloffset), then LLVM 16's llc on the result. Every
other option goes to llc unchanged (-march, -mtriple, -mcpu, -filetype, -o, -O<n>, ...).

syclkit options:
  -sycl-enable-local-accessor[=<bool>]  Run localaccessortosharedmemory (default false)
  -enable-global-offset[=<bool>]        Add the global offset parameter (default true; false folds it to 0)
  -help                                 Show this help

Like intel/llvm's llc, it stops with 'LLVM ERROR: Cannot select: intrinsic %<name>' (and aborts)
when an implicit offset intrinsic survives to code generation; LLVM 16's back ends do not know them.
LLVM 16's llc is looked for in $SYCLKIT_LLVM_BIN, /usr/lib/llvm-16/bin and as llc-16 on PATH.
`;

/** llc options whose value may be the next argument. */
const SEPARATE_VALUE = new Set(['o', 'mtriple', 'march', 'mcpu', 'mattr', 'filetype', 'x', 'relocation-model', 'O']);
const FALSE = /^(0|false)$/i;

interface LlcArgs {
  input: string;
  passThrough: string[];
  localAccessor: boolean;
  globalOffset: boolean;
  mtriple?: string;
  march?: string;
  help: boolean;
}

function parseLlcArgs(argv: readonly string[]): LlcArgs {
  const out: LlcArgs = { input: '-', passThrough: [], localAccessor: false, globalOffset: true, help: false };
  let input: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--?([^=]+)(?:=(.*))?$/.exec(arg);
    if (m === null) {
      if (input !== undefined) throw new UsageError(`expected one input file, got '${input}' and '${arg}'`);
      input = arg;
      continue;
    }
    const [, name = '', value] = m;
    if (name === 'help' || name === 'h') {
      out.help = true;
      continue;
    }
    if (name === 'sycl-enable-local-accessor') {
      out.localAccessor = value === undefined || !FALSE.test(value);
      continue;
    }
    if (name === 'enable-global-offset') {
      out.globalOffset = value === undefined || !FALSE.test(value);
      continue;
    }
    let v = value;
    const forwarded = [arg];
    if (v === undefined && SEPARATE_VALUE.has(name) && i + 1 < argv.length) {
      v = argv[++i]!;
      forwarded.push(v);
    }
    if (name === 'mtriple') out.mtriple = v;
    if (name === 'march') out.march = v;
    out.passThrough.push(...forwarded);
  }
  out.input = input ?? '-';
  return out;
}

/** Ends the process by `signal` like the tool it stands for would (lit's `not --crash` checks for it). */
function dieBy(io: CliIO, signal: NodeJS.Signals): number {
  if (io.stderr === process.stderr) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
  return 128 + 6;
}

export const command: Command = {
  name: 'llc',
  summary: "LLVM 16's llc after the SYCL passes intel/llvm's NVPTX/AMDGPU code generators run (drop-in for intel/llvm tests)",
  async run(argv, io) {
    const args = parseLlcArgs(argv);
    if (args.help) {
      io.stdout.write(HELP);
      return 0;
    }
    const llc = requireLlvmTool('llc', 'syclkit llc');
    const module: Module = await readModule(args.input, io, (message) => io.stderr.write(`warning: ${message}\n`));
    const triple = llcTriple(module.triple, args);
    const pipeline = syclCodegenPipeline(triple, { localAccessor: args.localAccessor });
    if (pipeline !== '') {
      const { passRegistry } = await import('../passes.js');
      const registry = passRegistry();
      const flags = registry.parseFlags([['enable-global-offset', String(args.globalOffset)]]);
      const result = registry.build<Module>(pipeline, { flags }).run(module, { file: module.id });
      if (result.diagnostics.length > 0) io.stderr.write(formatDiagnostics(result.diagnostics, { file: module.id }));
      if (result.stopped || result.errorCount > 0) return 1;
    }
    const leftover = unselectableIntrinsic(module);
    if (leftover !== undefined) {
      io.stderr.write(`LLVM ERROR: Cannot select: intrinsic %${leftover}\n`);
      return dieBy(io, 'SIGABRT');
    }
    const run = runToolSync(llc, [...args.passThrough, '-'], printModule(module));
    io.stdout.write(run.stdout);
    io.stderr.write(run.stderr.replaceAll(llc, 'llc'));
    if (run.signal !== null) return dieBy(io, run.signal);
    return run.status ?? 1;
  },
};

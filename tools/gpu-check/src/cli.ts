#!/usr/bin/env node
/**
 * gpu-check: proof that kernels built by syclkit run on a real GPU (see README.md).
 */
import { printfProbe } from './printf-probe.js';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCase, firstLaunch, jitTimes } from './children.js';
import { CARRY, DATA, DEVICE_COMMAND, pack } from './pack.js';
import { prepare } from './prepare.js';
import { runGpuCheck } from './run.js';

const HELP = `usage: gpu-check [all|prepare|run|pack] [options]

  all (default)   prepare into a temporary folder, then run (a machine with a GPU, node and LLVM 16)
  prepare         compile the demo (per_kernel, auto) and a generated module (per_kernel, off)
                  for the target into --out, with manifest.json (needs LLVM 16's llc)
  run             on the GPU machine: device, ptxas on every PTX image, the demo kernels with data
                  against JavaScript, the requirement check, JIT and first-launch times
  pack            prepare into ${DATA}, then pack it, node and the built packages into ${CARRY}, for
                  a device call: command '${DEVICE_COMMAND}', carry ["${CARRY}"]

options:
  --out <dir>       prepare: where the fat binaries go; run: where the reports go
  --in <dir>        run: the folder prepare wrote
  --target <name>   prepare: the nvidia_gpu_sm_* target (default nvidia_gpu_sm_90)
  --kernels <n>     prepare, pack: kernels of the generated module (default 1000)
  --library <path>  run: the CUDA driver library (default libcuda.so.1)
  --ptxas <path>    run: ptxas (default /usr/local/cuda/bin/ptxas, then PATH)
  --no-timings      run: skip the JIT and first-launch timings (child processes)
  --budget <s>      run: seconds the run may take before the timings stop (default 540)
  --sanitizer <p>   run: compute-sanitizer, to rerun a launch that faults under memcheck
                    (default: $COMPUTE_SANITIZER, /usr/local/cuda/bin, PATH; 'none': never)
  --reuse-data      pack: keep ${DATA} when it has a manifest
`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  args.splice(at, 2);
  return value;
}

function flag(args: string[], name: string): boolean {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
}

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  if (flag(args, '--help') || flag(args, '-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const command = args[0] !== undefined && !args[0].startsWith('--') ? args.shift()! : 'all';
  if (command === 'child') {
    const [what, ...rest] = args;
    const result =
      what === 'jit-times' ? jitTimes(rest[0]!, rest[1]!) : what === 'first-launch' ? firstLaunch(rest[0]!, rest[1]!, rest[2]!, rest[3]!) : what === 'demo' ? demoCase(rest[0]!, rest[1]!) : what === 'printf-probe' ? printfProbe(rest[0]!) : undefined;
    if (result === undefined) throw new Error(`unknown child '${what}'`);
    // Into a file when the parent names one: kernels' printf output shares stdout.
    const target = process.env['GPU_CHECK_RESULT'];
    if (target === undefined || target === '') {
      process.stdout.write(JSON.stringify(result));
    } else {
      writeFileSync(`${target}.tmp`, JSON.stringify(result));
      renameSync(`${target}.tmp`, target);
    }
    return 0;
  }
  const library = option(args, '--library');
  if (library !== undefined) process.env['SYCLKIT_CUDA_DRIVER'] = library; // children inherit it
  const kernelsText = option(args, '--kernels');
  const kernels = kernelsText === undefined ? undefined : Number(kernelsText);
  if (kernels !== undefined && !(Number.isInteger(kernels) && kernels > 0)) throw new Error(`--kernels must be a positive integer, got ${kernelsText}`);
  const target = option(args, '--target');
  const out = option(args, '--out');
  const input = option(args, '--in');
  const ptxas = option(args, '--ptxas');
  const timings = !flag(args, '--no-timings');
  const budgetText = option(args, '--budget');
  const budgetSeconds = budgetText === undefined ? undefined : Number(budgetText);
  if (budgetSeconds !== undefined && !(budgetSeconds >= 0)) throw new Error(`--budget must be a number of seconds, got ${budgetText}`);
  const reuseData = flag(args, '--reuse-data');
  const sanitizerText = option(args, '--sanitizer');
  const sanitizer = sanitizerText === undefined ? {} : { sanitizer: sanitizerText === 'none' ? (false as const) : sanitizerText };
  if (args.length > 0) throw new Error(`unknown argument '${args[0]}' (gpu-check --help)`);
  switch (command) {
    case 'prepare':
      await prepare({ out: out ?? 'gpu-check-data', log, ...(target === undefined ? {} : { target }), ...(kernels === undefined ? {} : { kernels }) });
      return 0;
    case 'run': {
      if (input === undefined) throw new Error('run needs --in <dir> (the folder prepare wrote)');
      const report = await runGpuCheck({ input, log, timings, ...sanitizer, ...(budgetSeconds === undefined ? {} : { budgetSeconds }), ...(out === undefined ? {} : { out }), ...(ptxas === undefined ? {} : { ptxas }) });
      return report.ok ? 0 : 1;
    }
    case 'pack':
      await pack({ log, reuseData, ...(kernels === undefined ? {} : { kernels }) });
      return 0;
    case 'all': {
      const dir = mkdtempSync(join(tmpdir(), 'gpu-check-'));
      try {
        await prepare({ out: dir, log, ...(target === undefined ? {} : { target }), ...(kernels === undefined ? {} : { kernels }) });
        const report = await runGpuCheck({ input: dir, log, timings, ...sanitizer, ...(budgetSeconds === undefined ? {} : { budgetSeconds }), ...(out === undefined ? {} : { out }), ...(ptxas === undefined ? {} : { ptxas }) });
        return report.ok ? 0 : 1;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    default:
      throw new Error(`unknown command '${command}' (gpu-check --help)`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`gpu-check: error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);

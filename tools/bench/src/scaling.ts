/**
 * `compile-scaling`: `syclkit compile` at application scale (1k to 16k kernels, spir64 and two AOT
 * targets, output on the disk) against LLVM 16 `opt -S` of the same input and the cost of creating
 * as many files; then what reading the biggest binary costs (`run`, `explain`, `inspect -kernel`
 * of one kernel against the same on a 6-kernel binary) and `check` of every kernel on three
 * devices at every size.
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchUsageError, type BenchmarkConfig, type BenchmarkDefinition, type CaseReport, type InputInfo } from './benchmarks.js';
import { growthFindings, inputInfo, llvmParsePrint, ratioFindings, report, runCase } from './benchmarks.js';
import { describeFailure, failed, type CommandResult, type CommandSpec } from './harness.js';
import { resolveGeneratorOptions } from './options.js';
import type { SizedGeneratorOptions } from './output.js';
import { planModule, transitiveAspects, type ModulePlan } from './plan.js';
import { describeGrowth, growthExponent, ratioToSum } from './stats.js';
import { filesystemOf, loadAverage } from './host.js';
import { formatBytes, formatDuration, formatKilobytes } from './units.js';

/** spir64 (JIT) and two AOT targets, one Intel and one NVIDIA. */
export const scalingTargets = ['spir64', 'intel_gpu_pvc', 'nvidia_gpu_sm_80'] as const;
/** One device per bundle: the two AOT targets, and a GPU that takes the spir64 bundle. */
export const checkDevices = ['intel_gpu_pvc', 'nvidia_gpu_sm_80', 'intel_gpu_dg1'] as const;
export const compileTargetRatio = 3;
export const compileTargetExponent = 1.1;
export const compileTargetMemory = 2;
export const readTargetRatio = 1.5;
/** The small binary the big one's reads are compared with. */
export const smallKernels = 6;

/** Linked DPC++ device code: a kernel and its operator() per kernel, 16 translation units. */
export function scalingInput(kernels: number): SizedGeneratorOptions {
  return { kernels, functions: 2 * kernels, tus: 16, segments: 0 };
}

// --- the file-creation floor ---------------------------------------------------------------------

/** What `create-files` makes: `files` files of `bytes` bytes in total. */
export interface FileCount {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Creates `count.files` files directly (open, write, close; no temporary name, no rename, no
 * fsync) in `dir`, `count.bytes` bytes in all: the least any tool writing that many files pays.
 */
export function createFiles(dir: string, count: FileCount): void {
  mkdirSync(dir, { recursive: true });
  const each = count.files === 0 ? 0 : Math.floor(count.bytes / count.files);
  const block = Buffer.alloc(each + 1, 0x61);
  const extra = count.files === 0 ? 0 : count.bytes - each * count.files;
  for (let i = 0; i < count.files; i++) writeFileSync(join(dir, `f${i}`), block.subarray(0, i < extra ? each + 1 : each));
}

// --- containers ------------------------------------------------------------------------------------

/** Bundles of a syclkit fat-binary container, read from its trailer and index (format versions 1 to 3: 3 has the index of 2). */
export interface ContainerShape {
  readonly version: number;
  readonly size: number;
  readonly bundles: readonly { readonly target: string; readonly images: number }[];
}

function readAt(fd: number, offset: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const got = readSync(fd, out, done, length - done, offset + done);
    if (got === 0) throw new Error(`file ends at ${offset + done}`);
    done += got;
  }
  return out;
}

/**
 * The bundle list of a container (the layout of `@syclkit/offload-wrapper`'s README, read here so
 * the benchmarks import no syclkit package). Throws when the file is not a container.
 */
export function containerShape(path: string): ContainerShape {
  const fd = openSync(path, 'r');
  try {
    const size = statSync(path).size;
    const header = readAt(fd, 0, 16);
    if (header.subarray(0, 8).toString('latin1') !== '\x89SKFAT\r\n') throw new Error('not a syclkit fat-binary container');
    const version = header.readUInt16LE(8);
    const trailer = readAt(fd, size - 32, 32);
    if (trailer.subarray(0, 8).toString('latin1') !== 'SKFATEND') throw new Error('no container trailer');
    const index = readAt(fd, Number(trailer.readBigUInt64LE(8)), Number(trailer.readBigUInt64LE(16)));
    if (index.subarray(0, 4).toString('latin1') !== 'INDX') throw new Error('no container index');
    let at = 8;
    const bundles: { target: string; images: number }[] = [];
    for (let b = index.readUInt32LE(4); b > 0; b--) {
      const length = index.readUInt32LE(at);
      const target = index.subarray(at + 4, at + 4 + length).toString('utf8');
      const images = index.readUInt32LE(at + 4 + length);
      at += 8 + length + (version === 1 ? 8 * images : 0);
      bundles.push({ target, images });
    }
    return { version, size, bundles };
  } finally {
    closeSync(fd);
  }
}

/** The files a post-link run per target writes for a binary's images: code, symbols and properties per image, a table per target. */
export function postLinkFilesOf(shape: ContainerShape): FileCount {
  const images = shape.bundles.reduce((sum, b) => sum + b.images, 0);
  return { files: 3 * images + shape.bundles.length, bytes: shape.size };
}

/** A compile run must leave a container with a bundle per target. */
function verifyContainer(path: string): string | undefined {
  if (!existsSync(path)) return `no fat binary at ${path}`;
  try {
    const shape = containerShape(path);
    return shape.bundles.length === scalingTargets.length ? undefined : `${path} has ${shape.bundles.length} bundles, expected ${scalingTargets.length}`;
  } catch (error) {
    return `${path}: ${(error as Error).message}`;
  }
}

// --- choosing kernels ----------------------------------------------------------------------------------

interface KernelFacts {
  readonly name: string;
  readonly aspects: readonly number[];
  readonly sized: boolean;
}

function kernelsOf(plan: ModulePlan): Map<string, KernelFacts> {
  const memo = new Map<number, Set<number>>();
  const out = new Map<string, KernelFacts>();
  for (const f of plan.functions) {
    if (f.role !== 'kernel' || f.kernel === undefined) continue;
    const aspects = [...transitiveAspects(f.id, plan.functions, memo)].sort((a, b) => a - b);
    out.set(f.name, { name: f.name, aspects, sized: f.kernel.subGroupSize !== undefined || f.kernel.workGroupSize !== undefined });
  }
  return out;
}

/** Aspects a generated module's kernels use most (fp64, fp16, atomic64, image), tried after a kernel's own. */
const commonAspects = [6, 5, 28, 9];

/**
 * Kernels both modules define, in the small module's order: for `run`, those that use no optional
 * feature and need no particular size first; for `explain`, each with the aspects to try, those the
 * plans say it uses first (the compiler's analysis decides; the plan is a hint).
 */
export function kernelCandidates(small: ModulePlan, big: ModulePlan): { run: string[]; explain: { kernel: string; small: number[]; big: number[] }[] } {
  const bigKernels = kernelsOf(big);
  const both = [...kernelsOf(small).values()].flatMap((k) => {
    const other = bigKernels.get(k.name);
    return other === undefined ? [] : [{ small: k, big: other }];
  });
  const plain = (k: KernelFacts): boolean => k.aspects.length === 0 && !k.sized;
  const run = [...both.filter((p) => plain(p.small) && plain(p.big)), ...both.filter((p) => !(plain(p.small) && plain(p.big)))].map((p) => p.small.name);
  const order = (first: readonly number[]): number[] => [...new Set([...first, ...commonAspects])];
  const explain = both
    .map((p) => ({ kernel: p.small.name, small: order(p.small.aspects), big: order(p.big.aspects), uses: p.small.aspects.length > 0 && p.big.aspects.length > 0 }))
    .sort((a, b) => Number(b.uses) - Number(a.uses))
    .map(({ kernel, small, big }) => ({ kernel, small, big }));
  return { run, explain };
}

async function succeeds(config: BenchmarkConfig, argv: readonly string[], timeoutMs: number): Promise<boolean> {
  return !failed(await config.runner(argv, { timeoutMs }));
}

/** The first candidate for which `test` holds (tried in order). */
async function firstThat<T>(candidates: readonly T[], test: (candidate: T) => Promise<boolean>): Promise<T | undefined> {
  for (const candidate of candidates) if (await test(candidate)) return candidate;
  return undefined;
}

// --- the benchmark ------------------------------------------------------------------------------------

function compileArgv(config: BenchmarkConfig, split: 'per_kernel' | 'auto', output: string, input = '{input}'): string[] {
  // llvmir: the images stay device IR, so llvm-spirv's process per image (measured on its own) does not swamp syclkit's own cost.
  return [
    ...config.syclkit, 'compile', input, `-fsycl-targets=${scalingTargets.join(',')}`, `-fsycl-device-code-split=${split}`, '-fsycl-device-obj=llvmir',
    ...(config.compileFlags ?? []).flatMap((f) => f.split(/\s+/).filter((w) => w !== '')), '-o', output,
  ];
}

function command(c: CaseReport, label: string): CommandResult | undefined {
  return c.comparison.commands.find((r) => r.label === label);
}

function met(ok: boolean): string {
  return ok ? 'met' : 'NOT met';
}

const PER_KERNEL = 'syclkit compile per_kernel';
const AUTO = 'syclkit compile auto';
const FLOOR = 'file-creation floor';

export const compileScaling: BenchmarkDefinition = {
  name: 'compile-scaling',
  title: 'syclkit compile at 1k-16k kernels (spir64 + 2 AOT targets), and reading the binaries it makes',
  measures:
    '`syclkit compile X -fsycl-targets=spir64,intel_gpu_pvc,nvidia_gpu_sm_80 -fsycl-device-code-split=per_kernel|auto -o <disk>/app.fatbin` vs LLVM 16 `opt -S X` and the time to create as many files as post-link writes for those images; then `run`, `explain`, `inspect -kernel` of one kernel of the biggest binary vs a 6-kernel one, and `check` of every kernel on 3 devices at each size.',
  defaultRuns: 1,
  defaultWarmup: 0,
  defaultSizes: [1000, 2000, 4000, 8000, 16000],
  async run(config) {
    const outRoot = config.outDir ?? tmpdir();
    // With --binaries the binaries stay there (for read-scaling later); else in a folder removed at the end.
    const keep = config.binariesDir ?? mkdtempSync(join(outRoot, 'syclkit-bench-binaries-'));
    if (config.binariesDir !== undefined) mkdirSync(keep, { recursive: true });
    const findings: string[] = [`output directory: ${outRoot} (${filesystemOf(outRoot)}); load average at the start: ${loadAverage()}`];
    const sizes = [...(config.sizes ?? this.defaultSizes!)].sort((a, b) => a - b);
    const compileCases: CaseReport[] = [];
    const binaries = new Map<number, string>();
    try {
      for (const kernels of sizes) {
        const input = inputInfo(config, scalingInput(kernels));
        const countFile = join(keep, `files-${kernels}.json`);
        const kept = join(keep, `k${kernels}.fatbin`);
        if (config.binariesDir !== undefined) rmSync(kept, { force: true }); // made again by this build
        const fallback: FileCount = { files: (3 * kernels + 1) * scalingTargets.length, bytes: input.bytes };
        const commands: CommandSpec[] = [
          {
            label: PER_KERNEL,
            argv: compileArgv(config, 'per_kernel', '{tmp}/app.fatbin'),
            verify: ({ tmpDir }) => {
              const output = join(tmpDir, 'app.fatbin');
              const problem = verifyContainer(output);
              if (problem !== undefined) return problem;
              writeFileSync(countFile, JSON.stringify(postLinkFilesOf(containerShape(output))));
              if (!existsSync(kept)) renameSync(output, kept);
              return undefined;
            },
          },
          { label: AUTO, argv: compileArgv(config, 'auto', '{tmp}/app.fatbin'), verify: ({ tmpDir }) => verifyContainer(join(tmpDir, 'app.fatbin')) },
          {
            label: FLOOR,
            argv: [process.execPath, config.benchCli, 'create-files', '--from', countFile, '--files', String(fallback.files), '--bytes', String(fallback.bytes), '--dir', '{tmp}/files'],
          },
          llvmParsePrint(config),
        ];
        const c = await runCase(config, this, `${kernels} kernels`, input, commands, kernels, { runs: config.runs ?? 1, warmup: config.warmup ?? 0 });
        compileCases.push(c);
        if (existsSync(kept)) binaries.set(kernels, kept);
        if (existsSync(countFile)) {
          const count = JSON.parse(readFileSync(countFile, 'utf8')) as FileCount;
          findings.push(`${kernels} kernels: per_kernel binary ${formatBytes(count.bytes)}; the floor created ${count.files} files of ${formatBytes(count.bytes)} in all (3 per image and a table per target, as post-link writes them)`);
        }
      }
      findings.push(...compileFindings(compileCases));

      const biggest = sizes.filter((s) => binaries.has(s)).pop();
      if (biggest === undefined) {
        findings.push('reading: no binary was made, nothing to read');
        return report(this, config, compileCases, findings);
      }
      const reads = await readCases(this, config, keep, biggest, binaries, findings);
      return report(this, config, [...compileCases, ...reads], findings);
    } finally {
      if (config.binariesDir === undefined) rmSync(keep, { recursive: true, force: true });
    }
  },
};

/** `k<N>.fatbin` files of a folder, by N. */
export function binariesIn(dir: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const m = /^k(\d+)\.fatbin$/.exec(name);
    if (m !== null) out.set(Number(m[1]), join(dir, name));
  }
  return out;
}

export const readScaling: BenchmarkDefinition = {
  name: 'read-scaling',
  title: "compile-scaling's reading half, on binaries made earlier (--binaries DIR)",
  measures:
    '`run`, `explain`, `inspect -kernel` of one kernel of the biggest `k<N>.fatbin` in --binaries DIR vs a 6-kernel binary, the whole-binary `inspect`, and `check` of every kernel on 3 devices for every binary there (made by `compile-scaling --binaries DIR`, or by `syclkit compile` of `generate --kernels N --functions 2N --tus 16 --segments 0` with its options; the 6-kernel one is compiled into DIR when missing).',
  defaultRuns: 5,
  defaultWarmup: 1,
  async run(config) {
    const dir = config.binariesDir;
    if (dir === undefined) throw new BenchUsageError('read-scaling needs --binaries DIR holding k<N>.fatbin files');
    const outRoot = config.outDir ?? tmpdir();
    const findings: string[] = [`binaries: ${dir} (${filesystemOf(dir)}); load average at the start: ${loadAverage()}`];
    const binaries = binariesIn(dir);
    binaries.delete(smallKernels);
    const sizes = [...binaries.keys()].filter((n) => config.sizes === undefined || config.sizes.includes(n)).sort((a, b) => a - b);
    const biggest = sizes.pop();
    if (biggest === undefined) throw new BenchUsageError(`${dir} holds no k<N>.fatbin to read (N > ${smallKernels})`);
    for (const n of [...binaries.keys()]) if (n !== biggest && !sizes.includes(n)) binaries.delete(n);
    findings.push(`reading ${binaries.size} binaries (${[...binaries.keys()].sort((a, b) => a - b).join(', ')} kernels); output directory ${outRoot}`);
    const cases = await readCases(this, config, dir, biggest, binaries, findings, true);
    return report(this, config, cases, findings);
  },
};

/**
 * One kernel of the biggest binary vs the same on a 6-kernel one (`run`, `explain`,
 * `inspect -kernel`, and the whole-binary `inspect`), then `check` at every size.
 */
async function readCases(
  definition: BenchmarkDefinition,
  config: BenchmarkConfig,
  keep: string,
  biggest: number,
  binaries: ReadonlyMap<number, string>,
  findings: string[],
  reuseSmall = false,
): Promise<CaseReport[]> {
    const cases: CaseReport[] = [];
    const smallInput = inputInfo(config, scalingInput(smallKernels));
    const small = join(keep, `k${smallKernels}.fatbin`);
    if (!reuseSmall || !existsSync(small)) {
      const compiled = await config.runner(compileArgv(config, 'per_kernel', small, smallInput.path), { timeoutMs: config.timeoutMs });
      const problem = failed(compiled) ? describeFailure(compiled) : verifyContainer(small);
      if (problem !== undefined) {
        findings.push(`reading: compiling the ${smallKernels}-kernel binary failed: ${problem}`);
        return cases;
      }
    }
    const big = binaries.get(biggest)!;
    const bigInfo: InputInfo = { ...inputInfo(config, scalingInput(biggest)), path: big, bytes: statSync(big).size, origin: 'given' };
    const plans = kernelCandidates(planModule(resolveGeneratorOptions(scalingInput(smallKernels))), planModule(resolveGeneratorOptions(scalingInput(biggest))));
    const quick = Math.min(config.timeoutMs, 120_000);
    const runArgv = (binary: string, kernel: string) => [...config.syclkit, 'run', binary, '-kernel', kernel, '-device', 'intel_gpu_pvc'];
    const runKernel = await firstThat(plans.run.slice(0, 5), async (k) => (await succeeds(config, runArgv(small, k), quick)) && succeeds(config, runArgv(big, k), quick));
    const explainArgv = (binary: string, kernel: string, aspect: number) => [...config.syclkit, 'explain', binary, '-kernel', kernel, '-aspect', String(aspect)];
    // A (kernel, aspect) that explain explains in the small binary, then an aspect of that kernel in the big one.
    let explain: { kernel: string; small: number; big: number } | undefined;
    let bigTries = 8;
    for (const candidate of plans.explain) {
      const smallAspect = await firstThat(candidate.small, (a) => succeeds(config, explainArgv(small, candidate.kernel, a), quick));
      if (smallAspect === undefined) continue;
      const bigAspect = await firstThat(candidate.big, async (a) => bigTries-- > 0 && succeeds(config, explainArgv(big, candidate.kernel, a), quick));
      if (bigAspect !== undefined) {
        explain = { kernel: candidate.kernel, small: smallAspect, big: bigAspect };
        break;
      }
      if (bigTries <= 0) break;
    }
    const inspectKernel = runKernel ?? plans.run[0];
    const options = { runs: config.runs ?? 5, warmup: config.warmup ?? 1 };
    const pair = async (name: string, bigArgv: string[] | undefined, smallArgv: string[] | undefined, what: string, target = true, exitCodes?: number[]): Promise<void> => {
      if (bigArgv === undefined || smallArgv === undefined) {
        findings.push(`${name}: not measured (${what})`);
        return;
      }
      const c = await runCase(
        config,
        definition,
        `${name}: ${biggest} vs ${smallKernels} kernels`,
        bigInfo,
        [
          { label: `${name} (${biggest} kernels)`, argv: bigArgv, ...(exitCodes === undefined ? {} : { exitCodes }) },
          { label: `${name} (${smallKernels} kernels)`, argv: smallArgv, ...(exitCodes === undefined ? {} : { exitCodes }) },
        ],
        undefined,
        options,
      );
      cases.push(c);
      const ratio = c.comparison.ratios[0];
      if (!target) {
        findings.push(`${name}: ${biggest} vs ${smallKernels} kernels ${ratio?.median == null ? 'n/a' : `${ratio.median.toFixed(2)}x`} (reads every record: grows with the binary)`);
        return;
      }
      findings.push(
        `target (${name} of one kernel on ${biggest} kernels <= ${readTargetRatio}x its time on ${smallKernels}): ${ratio?.median == null ? `n/a (${ratio?.note ?? 'no ratio'})` : `${met(ratio.median <= readTargetRatio)} (${ratio.median.toFixed(2)}x)`}`,
      );
    };
    await pair(
      'syclkit run',
      runKernel === undefined ? undefined : runArgv(big, runKernel),
      runKernel === undefined ? undefined : runArgv(small, runKernel),
      'no kernel both binaries run on intel_gpu_pvc',
    );
    if (explain !== undefined) {
      await pair('syclkit explain', explainArgv(big, explain.kernel, explain.big), explainArgv(small, explain.kernel, explain.small), '');
    } else {
      // No kernel both binaries define uses an aspect in both: explain answers "does not use" (exit 1) in one, which reads the same facts.
      const kernel = plans.explain[0]?.kernel;
      findings.push(`syclkit explain: no kernel both binaries define uses an aspect in both; measured with ${kernel ?? '(none)'} and fp64, exit status 1 ("does not use") accepted`);
      await pair(
        'syclkit explain',
        kernel === undefined ? undefined : explainArgv(big, kernel, 6),
        kernel === undefined ? undefined : explainArgv(small, kernel, 6),
        'no kernel both binaries define',
        true,
        [0, 1],
      );
    }
    const inspectArgv = (binary: string) => (inspectKernel === undefined ? undefined : [...config.syclkit, 'inspect', '-kernel', inspectKernel, binary]);
    await pair('syclkit inspect -kernel', inspectArgv(big), inspectArgv(small), 'no common kernel');
    await pair('syclkit inspect (whole binary)', [...config.syclkit, 'inspect', big], [...config.syclkit, 'inspect', small], '', false);

    // check: every kernel x 3 devices, at every size (one command per size, alternating)
    const checkSizes = [smallKernels, ...[...binaries.keys()].sort((a, b) => a - b)];
    const path = (size: number) => (size === smallKernels ? small : binaries.get(size)!);
    const checkCase = await runCase(
      config,
      definition,
      `syclkit check, ${checkDevices.length} devices`,
      bigInfo,
      checkSizes
        .slice()
        .reverse()
        .map((size) => ({ label: `check ${size} kernels`, argv: [...config.syclkit, 'check', path(size), '--devices', checkDevices.join(',')] })),
      undefined,
      { runs: config.runs ?? 1, warmup: config.warmup ?? 0 },
    );
    cases.push(checkCase);
    const points = checkSizes.flatMap((size) => {
      const r = command(checkCase, `check ${size} kernels`);
      return r === undefined || r.failure !== undefined || size === smallKernels ? [] : [{ size, time: r.time.median }];
    });
    const perPair = points.map((p) => `${((p.time / (p.size * checkDevices.length)) * 1000).toFixed(0)} µs/pair at ${p.size}`).join(', ');
    findings.push(`syclkit check (${checkDevices.join(', ')}): ${points.length >= 2 ? describeGrowth(growthExponent(points)) : 'growth n/a'} over kernels; ${perPair}`);
    return cases;
}

function compileFindings(cases: readonly CaseReport[]): string[] {
  const findings = [...ratioFindings(cases), ...growthFindings(cases, 'kernels')];
  for (const c of cases) {
    const ours = command(c, PER_KERNEL);
    const floor = command(c, FLOOR);
    const llvm = c.comparison.commands[c.comparison.commands.length - 1]!;
    if (ours === undefined || floor === undefined) continue;
    const parts: string[] = [];
    if (floor.failure === undefined) parts.push(`floor ${formatDuration(floor.time.median)}`);
    const vsSum = ratioToSum(ours, llvm, floor);
    if (vsSum !== null) parts.push(`per_kernel / (opt -S + floor) ${vsSum.toFixed(2)}x`);
    if (ours.peakMaxRssKb !== null && llvm.peakMaxRssKb !== null) {
      parts.push(`peak memory ${formatKilobytes(ours.peakMaxRssKb)} vs ${formatKilobytes(llvm.peakMaxRssKb)} (${(ours.peakMaxRssKb / llvm.peakMaxRssKb).toFixed(2)}x)`);
    }
    findings.push(`${c.name}: ${parts.join('; ')}`);
  }
  for (const kernels of [4000, 16000]) {
    const c = cases.find((x) => x.size === kernels);
    const ratio = c?.comparison.ratios.find((r) => r.candidate === PER_KERNEL);
    const label = `target (compile per_kernel <= ${compileTargetRatio}x opt -S at ${kernels} kernels)`;
    findings.push(ratio?.median == null ? `${label}: ${c === undefined ? 'not measured in this run' : `n/a (${ratio?.note ?? 'no ratio'})`}` : `${label}: ${met(ratio.median <= compileTargetRatio)} (${ratio.median.toFixed(2)}x)`);
    const ours = c === undefined ? undefined : command(c, PER_KERNEL);
    const llvm = c?.comparison.commands[c.comparison.commands.length - 1];
    if (ours?.peakMaxRssKb != null && llvm?.peakMaxRssKb != null) {
      const r = ours.peakMaxRssKb / llvm.peakMaxRssKb;
      findings.push(`target (compile per_kernel peak memory <= ${compileTargetMemory}x LLVM's at ${kernels} kernels): ${met(r <= compileTargetMemory)} (${r.toFixed(2)}x)`);
    }
  }
  const points = cases.flatMap((c) => {
    const r = command(c, PER_KERNEL);
    return r === undefined || r.failure !== undefined || c.size === undefined ? [] : [{ size: c.size, time: r.time.median }];
  });
  const k = growthExponent(points);
  findings.push(
    `target (compile per_kernel growth exponent <= ${compileTargetExponent} from 1k to 16k kernels): ${Number.isFinite(k) && points.length >= 2 ? `${met(k <= compileTargetExponent)} (${k.toFixed(2)} over ${points.map((p) => p.size).join(', ')})` : 'n/a'}`,
  );
  return findings;
}

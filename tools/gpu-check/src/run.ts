/**
 * `gpu-check run`: on the GPU machine, over the fat binaries `gpu-check prepare` compiled.
 *
 * 1. the device, as the CUDA back end sees it (driver attributes → target, aspects, sub-groups);
 * 2. every PTX image through `ptxas -arch=sm_XX` (and `.target` / `.entry` per kernel checked);
 * 3. every demo kernel on the GPU with seeded data, compared with the same computation in
 *    JavaScript, for the per_kernel and the auto split; both splits must give the same bytes;
 * 4. the requirement check firing before anything reaches the driver (required sub-group size 8);
 * 5. time to first launch on the 1,000-kernel module, per_kernel against off, cold and warm;
 * 6. JIT time per image, cold (an empty driver cache), from the driver's disk cache, and from the
 *    runtime's program cache, in child processes.
 * Steps 5 and 6 run in child processes within a time budget, so the reports are written even
 * when the machine is slower than expected.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, isPtxText, loadCudaDriver, openCudaPlatform, readPtx, type CudaDriver, type CudaPlatform } from '@syclkit/runtime';
import { DEMO_CASES, REFUSED_CASES } from './demo-cases.js';
import type { Comparison } from './numbers.js';
import type { FirstLaunchEmulation, Manifest } from './prepare.js';
import { argumentsFor, type FirstLaunchResult, type JitTimesResult } from './children.js';
import type { ParamKind } from './kernel-params.js';
import { findSanitizer, kernelFault, runUnderMemcheck, type MemcheckResult } from './memcheck.js';
import { PROBE_SPACES, PROBE_THREADS, type PrintfProbeResult } from './printf-probe.js';

export interface RunOptions {
  /** The folder `prepare` wrote (manifest.json and the fat binaries). */
  readonly input: string;
  /** Where the report files go (gpu-check.json, jit-times.tsv, ptxas.log); default: none. */
  readonly out?: string;
  /** A driver to use (tests); default libcuda through koffi. */
  readonly driver?: CudaDriver;
  /** ptxas to run (default /usr/local/cuda/bin/ptxas, then `ptxas` on PATH); `false` skips the step. */
  readonly ptxas?: string | false;
  /** Run the timing steps in child processes (default true). */
  readonly timings?: boolean;
  /**
   * compute-sanitizer, to run a faulting launch again under memcheck (default: found as
   * memcheck.ts's findSanitizer says); `false`: never.
   */
  readonly sanitizer?: string | false;
  /**
   * Seconds the whole run may take (default 540: a device call's command has 600). Timing
   * children are stopped, and the steps left skipped, when it is spent, so the reports are still
   * written.
   */
  readonly budgetSeconds?: number;
  /** Prints one line of the transcript. */
  readonly log: (line: string) => void;
}

/** A driver that counts the calls made through it (to show what did not reach the driver). */
export function countingDriver(driver: CudaDriver): { driver: CudaDriver; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const wrapped = new Proxy(driver, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { driver: wrapped, counts };
}

interface PtxImage {
  readonly fatbin: string;
  readonly name: string;
  readonly entries: readonly string[];
  readonly bytes: Uint8Array;
}

/** The non-empty images of a fat binary's bundle for `target`. */
export function ptxImages(file: string, target: string): PtxImage[] {
  const reader = ContainerReader.open(file);
  try {
    const bundle = reader.bundles.find((b) => b.target === target);
    if (bundle === undefined) throw new Error(`${file} has no bundle for ${target} (bundles: ${reader.bundles.map((b) => b.target).join(', ')})`);
    return bundle.images.filter((image) => !image.empty).map((image) => ({ fatbin: file, name: image.name, entries: image.entries, bytes: reader.readImageData(image) }));
  } finally {
    reader.close();
  }
}

function findPtxas(option: string | undefined): string | undefined {
  const candidates = option === undefined ? ['/usr/local/cuda/bin/ptxas', 'ptxas'] : [option];
  return candidates.find((candidate) => spawnSync(candidate, ['--version']).status === 0);
}

interface PtxasResult {
  readonly image: string;
  readonly ok: boolean;
  readonly problems: readonly string[];
}

/** ptxas on every image (in parallel), plus `.target` and one `.entry` per kernel of the image. */
async function checkPtx(ptxas: string, arch: string, images: readonly PtxImage[]): Promise<PtxasResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-check-ptx-'));
  const results: PtxasResult[] = new Array(images.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < images.length) {
      const i = next++;
      const image = images[i]!;
      const problems: string[] = [];
      const info = readPtx(Buffer.from(image.bytes).toString('utf8'));
      if (!info.target.includes(arch)) problems.push(`.target is ${info.target.join(', ') || 'missing'}, not ${arch}`);
      const entries = new Set(info.entries.map((e) => e.name));
      for (const kernel of image.entries) if (!entries.has(kernel)) problems.push(`no .entry for kernel ${kernel}`);
      const file = join(dir, `${i}.ptx`);
      writeFileSync(file, image.bytes);
      const stderr = await new Promise<string>((resolve) => {
        const child = spawn(ptxas, [`-arch=${arch}`, '-c', file, '-o', join(dir, `${i}.cubin`)]);
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (code) => resolve(code === 0 ? '' : text.trim() || `ptxas exited with ${code}`));
        child.on('error', (error) => resolve(error.message));
      });
      if (stderr !== '') problems.push(stderr);
      rmSync(join(dir, `${i}.cubin`), { force: true });
      results[i] = { image: `${image.fatbin.split('/').pop()}:${image.name}`, ok: problems.length === 0, problems };
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(cpus().length, 16)) }, worker));
  rmSync(dir, { recursive: true, force: true });
  return results;
}

function describeComparison(c: Comparison): string {
  const base = `${c.exact}/${c.elements} bit-identical, largest difference ${c.maxDifference}`;
  if (c.ok) return base;
  const m = c.firstMismatch!;
  return `${base}; first mismatch at [${m.index}]: device ${String(m.device)}, host ${String(m.host)}`;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : 'n/a');

const CLI = fileURLToPath(new URL('./cli.js', import.meta.url));

interface ChildRun<T> {
  readonly result: T;
  /** Lines the child printed on stdout: the kernels' printf output (the result goes to a file). */
  readonly printed: number;
  /** The first of them. */
  readonly firstLine?: string;
}

/**
 * The device's printf lines against the host emulation's count: a check (ok true or false) where
 * the emulation found the count the same in every order of the work-items, else only a report —
 * a kernel whose printf depends on what other work-items wrote prints what the GPU's schedule
 * makes of the race (run 2: 0 lines against 1500 emulated one work-item after another).
 */
export function printfCheck(printed: number, emulation: FirstLaunchEmulation | undefined): { ok: boolean | undefined; text: string } {
  if (emulation?.printf === undefined) return { ok: undefined, text: `device printf ${printed} lines (not compared: the data has no printf count per order of the work-items; prepare it again)` };
  const p = emulation.printf;
  if (!p.scheduleIndependent) {
    return {
      ok: undefined,
      text: `device printf ${printed} lines (not compared: the host emulation's count depends on the order of the work-items: ${p.inOrder} in order, ${p.reversed ?? '-'} reversed, ${p.isolated ?? '-'} each alone)`,
    };
  }
  const expected = p.inOrder;
  return {
    ok: printed === expected,
    text: `device printf ${printed} lines, host emulation ${expected} calls (the same in order, reversed and each work-item alone)`,
  };
}

/**
 * Runs `gpu-check child …` (for at most `timeoutMs`) and reads the JSON it writes to the file
 * named by GPU_CHECK_RESULT — not its stdout, where the driver writes what kernels printf.
 */
function child<T>(args: readonly string[], env: Record<string, string>, timeoutMs: number): ChildRun<T> {
  if (timeoutMs < 5000) throw new Error(`the time budget is spent: child ${args[0]} not started`);
  const dir = mkdtempSync(join(tmpdir(), 'gpu-check-child-'));
  const resultFile = join(dir, 'result.json');
  try {
    const result = spawnSync(process.execPath, [CLI, 'child', ...args], { env: { ...process.env, ...env, GPU_CHECK_RESULT: resultFile }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: Math.floor(timeoutMs) });
    if (result.error !== undefined) throw new Error(`child ${args[0]}: ${result.error.message} (time budget)`);
    if (result.status !== 0) throw new Error(`child ${args[0]} failed (${result.status}): ${result.stderr.trim().split('\n').slice(-5).join(' | ')}`);
    if (!existsSync(resultFile)) throw new Error(`child ${args[0]} exited without writing its result`);
    const lines = result.stdout.split('\n').filter((line) => line !== '');
    return { result: JSON.parse(readFileSync(resultFile, 'utf8')) as T, printed: lines.length, ...(lines.length === 0 ? {} : { firstLine: lines[0]! }) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Everything the run found (written to gpu-check.json). */
export interface RunReport {
  readonly ok: boolean;
  readonly device: Record<string, unknown>;
  readonly ptxas: { readonly tool: string | undefined; readonly images: number; readonly failed: number };
  readonly demo: Record<string, unknown>[];
  readonly refused: Record<string, unknown>[];
  readonly splitsAgree: boolean | undefined;
  readonly jit: Record<string, unknown>[];
  readonly firstLaunch: Record<string, unknown>[];
  /** Lines each printf probe kernel printed (by the format's state space), when step 5 ran. */
  readonly printfProbe?: Record<string, number>;
  /** Faulting launches run again under compute-sanitizer's memcheck. */
  readonly memcheck: Record<string, unknown>[];
  readonly failures: string[];
}

export async function runGpuCheck(options: RunOptions): Promise<RunReport> {
  const { log } = options;
  const deadline = performance.now() + (options.budgetSeconds ?? 540) * 1000;
  const left = (): number => deadline - performance.now();
  const manifest = JSON.parse(readFileSync(join(options.input, 'manifest.json'), 'utf8')) as Manifest;
  const file = (name: string): string => join(options.input, name);
  const arch = `sm_${manifest.target.slice('nvidia_gpu_sm_'.length)}`;
  const failures: string[] = [];
  const fail = (what: string): void => {
    failures.push(what);
    log(`FAIL ${what}`);
  };
  if (options.out !== undefined) mkdirSync(options.out, { recursive: true });

  // A launch that faults is run once more, in a child process, under compute-sanitizer's memcheck.
  const memcheck: Record<string, unknown>[] = [];
  let memchecked = false;
  const diagnose = (what: string, message: string, args: readonly string[], env: Record<string, string>): void => {
    const fault = kernelFault(message);
    if (fault === undefined || memchecked) return;
    memchecked = true;
    const sanitizer = findSanitizer(options.sanitizer);
    if (sanitizer === undefined) {
      log(`  ${fault}: no compute-sanitizer (/usr/local/cuda/bin, PATH, $COMPUTE_SANITIZER) to run ${what} again under memcheck`);
      memcheck.push({ what, fault, sanitizer: null });
      return;
    }
    const timeout = Math.min(150_000, left() - 20_000);
    if (timeout < 10_000) {
      log(`  ${fault}: no time left to run ${what} again under memcheck`);
      return;
    }
    const dir = options.out ?? mkdtempSync(join(tmpdir(), 'gpu-check-memcheck-'));
    const report = join(dir, `memcheck-${what.replace(/[^\w.-]+/g, '-').replace(/-+$/, '')}.txt`);
    log(`  ${fault}: running ${what} again under ${sanitizer} --tool memcheck (at most ${Math.round(timeout / 1000)} s) …`);
    const start = performance.now();
    let result: MemcheckResult;
    try {
      result = runUnderMemcheck(sanitizer, CLI, args, env, report, timeout);
    } catch (error) {
      log(`  memcheck could not run: ${error instanceof Error ? error.message : String(error)}`);
      memcheck.push({ what, fault, sanitizer, error: String(error) });
      return;
    }
    log(`  memcheck (${((performance.now() - start) / 1000).toFixed(1)} s, exit ${String(result.status)}), report ${options.out === undefined ? report : report.split('/').pop()!}:`);
    for (const line of result.summary) log(`    ${line}`);
    memcheck.push({ what, fault, sanitizer, report: report.split('/').pop(), status: result.status, summary: result.summary });
  };

  // 1. The device.
  const counting = countingDriver(options.driver ?? loadCudaDriver());
  let cuda: CudaPlatform;
  try {
    cuda = openCudaPlatform({ driver: counting.driver });
  } catch (error) {
    throw new Error(`no CUDA device: ${error instanceof Error ? error.message : String(error)}`);
  }
  const device = cuda.devices[0]!;
  const attributes = cuda.attributes[0]!;
  const version = `${Math.floor(cuda.driverVersion / 1000)}.${(cuda.driverVersion % 1000) / 10}`;
  log(`== 1. device (CUDA driver ${version}, through ${cuda.driver.source})`);
  log(`${device.name}: compute capability ${attributes.computeCapability.join('.')} → target ${device.target ?? '(none)'}${device.targetAliases.length > 0 ? ` (also ${device.targetAliases.join(', ')})` : ''}`);
  log(`sub-group sizes ${JSON.stringify(device.subGroupSizes)}, max work-group size ${device.maxWorkGroupSize}, max_work_item_sizes ${JSON.stringify(device.maxWorkItemSizes)}, ${attributes.multiprocessors} multiprocessors, ${(attributes.totalMemory / 2 ** 30).toFixed(1)} GiB`);
  const aspectNames = device.aspects.map((value) => new Runtime().aspectTable.nameOf(value) ?? String(value));
  log(`aspects (${aspectNames.length}): ${aspectNames.join(' ')}`);
  if (device.target !== manifest.target && !device.targetAliases.includes(manifest.target)) {
    fail(`the device is ${device.target ?? 'of no known target'}, the binaries were compiled for ${manifest.target}`);
  }

  // 2. ptxas.
  log('');
  log(`== 2. every PTX image through ptxas -arch=${arch}`);
  const fatbins = [...Object.values(manifest.demo), ...Object.values(manifest.bench.fatbins)];
  const images = fatbins.flatMap((name) => ptxImages(file(name), manifest.target));
  const notPtx = images.filter((image) => !isPtxText(image.bytes));
  if (notPtx.length > 0) fail(`${notPtx.length} images are not PTX (first: ${notPtx[0]!.name})`);
  const ptxas = options.ptxas === false ? undefined : findPtxas(options.ptxas);
  let ptxasFailed = 0;
  if (options.ptxas === false) {
    log('skipped (--ptxas false)');
  } else if (ptxas === undefined) {
    fail('ptxas not found (/usr/local/cuda/bin/ptxas, PATH)');
  } else {
    const version = spawnSync(ptxas, ['--version'], { encoding: 'utf8' }).stdout.split('\n').find((line) => line.includes('release'))?.trim() ?? ptxas;
    const start = performance.now();
    const results = await checkPtx(ptxas, arch, images.filter((image) => isPtxText(image.bytes)));
    const bad = results.filter((r) => !r.ok);
    ptxasFailed = bad.length;
    for (const name of fatbins) {
      const mine = results.filter((r) => r.image.startsWith(`${name}:`));
      log(`${name}: ${mine.length} PTX images, ${mine.filter((r) => r.ok).length} accepted`);
    }
    log(`${results.length} images checked with ${version} in ${ms(performance.now() - start)}; ${bad.length} rejected`);
    for (const r of bad.slice(0, 5)) log(`  ${r.image}: ${r.problems.join(' / ').split('\n').slice(0, 3).join(' ')}`);
    if (bad.length > 0) fail(`ptxas rejected ${bad.length} of ${results.length} images`);
    if (options.out !== undefined) writeFileSync(join(options.out, 'ptxas.log'), results.map((r) => `${r.ok ? 'ok  ' : 'FAIL'} ${r.image}${r.ok ? '' : `\n${r.problems.join('\n').replace(/^/gm, '     ')}`}`).join('\n') + '\n');
  }

  // 3. The demo kernels on the GPU.
  log('');
  log('== 3. the demo kernels on the GPU, compared with the same computation in JavaScript');
  const demo: Record<string, unknown>[] = [];
  const outputs = new Map<string, Map<string, Uint8Array>>();
  for (const [split, name] of Object.entries(manifest.demo)) {
    const runtime = new Runtime();
    const reader = ContainerReader.open(file(name));
    runtime.registerFatBinary(reader, { name });
    log(`-- ${name} (-fsycl-device-code-split=${split}): ${reader.bundles.find((b) => b.target === manifest.target)?.images.length ?? 0} images`);
    const mine = new Map<string, Uint8Array>();
    outputs.set(split, mine);
    for (const c of DEMO_CASES) {
      const run = c.make(1);
      try {
        const launch = runtime.queue(device).parallelFor(c.kernel, [...c.range], run.args);
        const comparison = run.check();
        mine.set(c.kernel, run.output());
        const e = launch.execution!;
        log(`${comparison.ok ? 'ok  ' : 'FAIL'} ${c.label.padEnd(15)} image ${launch.image}, grid ${e.grid.join('x')} block ${e.block.join('x')}, build ${ms(launch.program.buildMilliseconds ?? Number.NaN)}, run ${ms(e.milliseconds)}: ${describeComparison(comparison)} (tolerance: ${c.tolerance})`);
        demo.push({ split, kernel: c.label, image: launch.image, grid: e.grid, block: e.block, buildMs: launch.program.buildMilliseconds, runMs: e.milliseconds, ...comparison });
        if (!comparison.ok) fail(`${c.label} (${split}) differs from the host`);
      } catch (error) {
        const text = error instanceof SyclError ? error.render() : error instanceof Error ? error.message : String(error);
        log(`FAIL ${c.label.padEnd(15)} ${text.split('\n').slice(0, 6).join('\n     ')}`);
        demo.push({ split, kernel: c.label, error: text });
        fail(`${c.label} (${split}) did not run: ${text.split('\n')[0]}`);
        diagnose(`demo ${c.label} ${split}`, text, ['demo', file(name), c.label], {});
      }
    }
    reader.close();
  }
  const splits = [...outputs.values()];
  let splitsAgree: boolean | undefined;
  if (splits.length === 2) {
    const [a, b] = splits as [Map<string, Uint8Array>, Map<string, Uint8Array>];
    const compared = DEMO_CASES.filter((c) => a.has(c.kernel) && b.has(c.kernel));
    const same = compared.filter((c) => Buffer.compare(Buffer.from(a.get(c.kernel)!), Buffer.from(b.get(c.kernel)!)) === 0);
    splitsAgree = same.length === compared.length && compared.length === DEMO_CASES.length;
    log(`${splitsAgree ? 'ok  ' : 'FAIL'} per_kernel and auto: ${same.length} of ${DEMO_CASES.length} kernels give byte-identical results`);
    if (!splitsAgree) fail('per_kernel and auto results differ');
  }

  // 4. The requirement check fires before anything reaches the driver.
  log('');
  log('== 4. requirements checked at submission, before any build or launch');
  const refused: Record<string, unknown>[] = [];
  {
    const runtime = new Runtime();
    const reader = ContainerReader.open(file(manifest.demo['per_kernel'] ?? Object.values(manifest.demo)[0]!));
    runtime.registerFatBinary(reader);
    for (const c of REFUSED_CASES) {
      const before = new Map(counting.counts);
      let outcome = 'ran';
      try {
        runtime.queue(device).parallelFor(c.kernel, [...c.range], [
          { kind: 'buffer', data: new Float32Array(c.range[0]!), access: 'read' },
          { kind: 'buffer', data: new Float32Array(c.range[0]!), access: 'write' },
        ]);
      } catch (error) {
        outcome = error instanceof SyclError ? error.render() : String(error);
      }
      const calls = [...counting.counts].filter(([name, n]) => n !== (before.get(name) ?? 0)).map(([name]) => name);
      const ok = outcome === c.expected && calls.length === 0;
      log(`${ok ? 'ok  ' : 'FAIL'} ${c.label}: ${outcome}; driver calls during the submission: ${calls.length === 0 ? 'none' : calls.join(', ')}`);
      refused.push({ kernel: c.label, outcome, driverCalls: calls });
      if (!ok) fail(`${c.label} was not refused before reaching the driver`);
    }
    reader.close();
    const generated = manifest.bench.refusedKernel;
    const benchFatbin = manifest.bench.fatbins['per_kernel'];
    if (generated !== undefined && benchFatbin !== undefined) {
      const params = (JSON.parse(readFileSync(file(manifest.bench.params), 'utf8')) as Record<string, ParamKind[]>)[generated.name] ?? [];
      const benchReader = ContainerReader.open(file(benchFatbin));
      runtime.registerFatBinary(benchReader);
      const before = new Map(counting.counts);
      let outcome = 'ran';
      try {
        runtime.queue(device).parallelFor(generated.name, [1024], argumentsFor(params, 1024));
      } catch (error) {
        outcome = error instanceof SyclError ? error.render() : String(error);
      }
      const calls = [...counting.counts].filter(([name, n]) => n !== (before.get(name) ?? 0)).map(([name]) => name);
      const expected = `kernel_not_supported: Sub-group size ${generated.subGroupSize} is not supported on the device`;
      const ok = outcome === expected && calls.length === 0;
      log(`${ok ? 'ok  ' : 'FAIL'} ${generated.name} (generated module, reqd_sub_group_size(${generated.subGroupSize})): ${outcome}; driver calls during the submission: ${calls.length === 0 ? 'none' : calls.join(', ')}`);
      refused.push({ kernel: generated.name, outcome, driverCalls: calls });
      if (!ok) fail(`${generated.name} was not refused before reaching the driver`);
      benchReader.close();
    }
  }
  cuda.close();

  // 5 and 6 run in child processes, each a fresh driver and a fresh runtime, within the budget.
  const jit: Record<string, unknown>[] = [];
  const firstLaunch: Record<string, unknown>[] = [];
  let printfProbeLines: Record<string, number> | undefined;
  if (options.timings !== false) {
    const cacheDir = mkdtempSync(join(tmpdir(), 'gpu-check-cuda-cache-'));
    log('');
    log(`== 5. time to first launch on the ${manifest.bench.kernelCount}-kernel module (child processes: register the fat binary, submit one kernel with arguments, wait for it; the lines its printf calls print are counted)`);
    // The driver's printf on its own first: hand-written PTX, the format in .const and in .global.
    const probe: Record<string, number> = {};
    for (const space of PROBE_SPACES) {
      try {
        const { printed, firstLine } = child<PrintfProbeResult>(['printf-probe', space], { CUDA_CACHE_DISABLE: '1' }, left());
        probe[space] = printed;
        const text = `device printf probe, format in .${space} (hand-written PTX, ${PROBE_THREADS} threads): ${printed} lines${firstLine === undefined ? '' : `; the first: ${JSON.stringify(firstLine)}`}`;
        if (printed === PROBE_THREADS) log(`ok   ${text}`);
        else fail(text);
      } catch (error) {
        fail(`device printf probe (.${space}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    printfProbeLines = probe;
    const first = manifest.bench.firstKernel;
    log(`kernel ${first}${manifest.bench.firstKernelPassedOver === undefined ? '' : ` (${manifest.bench.firstKernelPassedOver.length} kernels before it passed over; the first: ${manifest.bench.firstKernelPassedOver[0]!.why})`}`);
    for (const [label, env] of [
      ['cold', { CUDA_CACHE_DISABLE: '1' }],
      ['disk cache', { CUDA_CACHE_PATH: cacheDir, CUDA_CACHE_DISABLE: '0' }],
    ] as const) {
      for (const split of ['per_kernel', 'off'] as const) {
        const name = manifest.bench.fatbins[split];
        if (name === undefined) continue;
        const args = ['first-launch', file(name), manifest.target, first, file(manifest.bench.params)];
        let r: FirstLaunchResult;
        let printed: number;
        let firstLine: string | undefined;
        try {
          if (label === 'disk cache') child<FirstLaunchResult>(args, env, left());
          ({ result: r, printed, firstLine } = child<FirstLaunchResult>(args, env, left()));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          fail(`first launch (${label}, ${split}): ${message}`);
          diagnose(`first-launch ${split}`, message, args, { CUDA_CACHE_DISABLE: '1' });
          continue;
        }
        log(
          `${label.padEnd(10)} ${split.padEnd(10)} ${r.imagesInBundle} images: first launch done ${ms(r.firstLaunchMs)} after registration (build ${ms(r.buildMs)} of image ${r.image}, ${r.imageBytes} bytes of PTX, ${r.imageKernels} kernels; run ${ms(r.runMs)}); platform open ${ms(r.platformMs)}, process start to done ${ms(r.sinceProcessStartMs)}`,
        );
        const printf = printfCheck(printed, manifest.bench.firstKernelEmulation);
        const sample = firstLine === undefined ? '' : `; the first: ${JSON.stringify(firstLine.length > 120 ? `${firstLine.slice(0, 120)}…` : firstLine)}`;
        if (printf.ok === false) fail(`device printf (${label}, ${split}): ${printf.text}${sample}`);
        else log(`${printf.ok === true ? 'ok   ' : '     '}device printf (${label}, ${split}): ${printf.text}${sample}`);
        firstLaunch.push({ cache: label, split, printedLines: printed, printfChecked: printf.ok ?? null, ...r });
      }
    }
    log('');
    log('== 6. JIT time per image (child processes; cold = an empty driver cache, disk = the same cache in the next process, program cache = the runtime\'s second submission)');
    const tsv: string[] = ['fatbin\timage\tkernels\tptx_bytes\tcold_ms\tcold_driver_jit_ms\tdisk_cache_ms\tprogram_cache_ms'];
    const jitFatbins = [manifest.demo['per_kernel'], manifest.bench.fatbins['per_kernel'], manifest.bench.fatbins['off']].filter((n): n is string => n !== undefined);
    for (const name of jitFatbins) {
      try {
        // Cold: an empty driver cache of its own (the JIT runs, and writes what it made there);
        // then the same cache again: every image from the driver's disk cache.
        const jitCache = mkdtempSync(join(tmpdir(), 'gpu-check-jit-cache-'));
        const env = { CUDA_CACHE_PATH: jitCache, CUDA_CACHE_DISABLE: '0' };
        const cold = child<JitTimesResult>(['jit-times', file(name), manifest.target], env, left()).result;
        const warm = child<JitTimesResult>(['jit-times', file(name), manifest.target], env, left()).result;
        rmSync(jitCache, { recursive: true, force: true });
        const finite = (values: number[]): number[] => values.filter((v) => Number.isFinite(v));
        const coldMs = finite(cold.images.map((i) => i.buildMs));
        const driverMs = finite(cold.images.map((i) => i.driverMs ?? Number.NaN));
        const warmMs = finite(warm.images.map((i) => i.buildMs));
        const hitMs = finite(cold.images.map((i) => i.cachedMs));
        cold.images.forEach((image, i) =>
          tsv.push(`${name}\t${image.image}\t${image.kernels}\t${image.bytes}\t${image.buildMs.toFixed(3)}\t${(image.driverMs ?? Number.NaN).toFixed(3)}\t${(warm.images[i]?.buildMs ?? Number.NaN).toFixed(3)}\t${image.cachedMs.toFixed(4)}`),
        );
        const sum = (v: number[]): number => v.reduce((a, b) => a + b, 0);
        log(
          `${name}: ${cold.images.length} images; cold median ${ms(median(coldMs))} (driver's JIT ${ms(median(driverMs))}; max ${ms(Math.max(...coldMs))}, total ${ms(sum(coldMs))}); disk cache median ${ms(median(warmMs))} (total ${ms(sum(warmMs))}); program cache median ${(median(hitMs) * 1000).toFixed(1)} µs`,
        );
        if (cold.images.length <= 8) for (const image of cold.images) log(`  ${image.image} (${image.kernels} kernels, ${image.bytes} bytes of PTX): cold ${ms(image.buildMs)}, driver JIT ${ms(image.driverMs ?? Number.NaN)}`);
        const errors = cold.images.filter((i) => i.error !== undefined);
        for (const image of errors.slice(0, 3)) log(`  ${image.image}: ${image.error!.split('\n')[0]}`);
        if (errors.length > 0) fail(`${errors.length} images of ${name} did not build`);
        jit.push({ fatbin: name, images: cold.images.length, coldMedianMs: median(coldMs), coldDriverJitMedianMs: median(driverMs), coldTotalMs: sum(coldMs), diskCacheMedianMs: median(warmMs), diskCacheTotalMs: sum(warmMs), programCacheMedianMs: median(hitMs), failed: errors.length });
      } catch (error) {
        fail(`JIT times of ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (options.out !== undefined) writeFileSync(join(options.out, 'jit-times.tsv'), tsv.join('\n') + '\n');

    rmSync(cacheDir, { recursive: true, force: true });
  }

  const report: RunReport = {
    ok: failures.length === 0,
    device: { name: device.name, target: device.target, computeCapability: attributes.computeCapability, driverVersion: cuda.driverVersion, aspects: aspectNames, subGroupSizes: device.subGroupSizes },
    ptxas: { tool: ptxas, images: images.length, failed: ptxasFailed },
    demo,
    refused,
    splitsAgree,
    jit,
    firstLaunch,
    ...(printfProbeLines === undefined ? {} : { printfProbe: printfProbeLines }),
    memcheck,
    failures,
  };
  if (options.out !== undefined) writeFileSync(join(options.out, 'gpu-check.json'), JSON.stringify(report, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2) + '\n');
  log('');
  log(failures.length === 0 ? 'gpu-check: all checks passed' : `gpu-check: ${failures.length} check(s) failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  return report;
}


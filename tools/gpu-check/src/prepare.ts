/**
 * `gpu-check prepare`: compiles what `gpu-check run` needs, with the syclkit command line — the
 * demo program (`syclkit demo --write-sample`) with `-fsycl-device-code-split=per_kernel` and
 * `auto`, and a generated module of 1,000 kernels (`tools/bench generate`) with `per_kernel` and
 * `off` —, all for one `nvidia_gpu_sm_*` target, and writes `manifest.json` beside them.
 *
 * This needs LLVM 16's llc (PTX code generation); the GPU machine has none, so `gpu-check pack`
 * runs this step on the host and carries the fat binaries over. Where compile keeps device IR for
 * the target, the images go through `@syclkit/gpu-targets`' AOT back end (see ensurePtxBundle).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContainerReader, deviceImage, writeContainerFile, type Bundle, type DeviceImage } from '@syclkit/offload-wrapper';
import { parseModule, type Module } from '@syclkit/ir';
import { isPtxText } from '@syclkit/runtime';
import { FIRST_LAUNCH_ITEMS, argumentsFor } from './children.js';
import { EmulationFault, EmulationUnsupported, printfUnderSchedules } from './emulate.js';
import { kernelParamsOf, type ParamKind } from './kernel-params.js';

export interface Manifest {
  readonly target: string;
  /** Split mode → fat binary of the demo program. */
  readonly demo: Readonly<Record<string, string>>;
  readonly bench: {
    readonly kernelCount: number;
    readonly seed: number;
    /** Split mode → fat binary of the generated module. */
    readonly fatbins: Readonly<Record<string, string>>;
    /** Kernel → its parameters (kernel-params.ts), as JSON. */
    readonly params: string;
    /** The kernel the first-launch timing submits (no required work-group or sub-group size; see pickFirstLaunch). */
    readonly firstKernel: string;
    /** The host-side emulation of that launch (emulate.ts): every access inside its object, and its printf count. */
    readonly firstKernelEmulation?: FirstLaunchEmulation;
    /** Kernels before it that were not picked, and why (the first of them is what older data launched). */
    readonly firstKernelPassedOver?: readonly PassedOver[];
    /** A kernel with a required sub-group size CUDA lacks (8 or 16) and that size, if the module has one. */
    readonly refusedKernel?: { readonly name: string; readonly subGroupSize: number };
  };
  readonly commands: readonly string[];
  readonly syclkitCommit?: string;
  readonly createdAt: string;
}

export interface PrepareOptions {
  readonly out: string;
  readonly target?: string;
  readonly kernels?: number;
  readonly seed?: number;
  readonly log: (line: string) => void;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const syclkit = join(repoRoot, 'packages/cli/bin/syclkit.js');
const bench = join(repoRoot, 'tools/bench/dist/cli.js');

function run(args: readonly string[], commands: string[], log: (line: string) => void): void {
  const shown = args.map((a) => a.replace(repoRoot, '')).join(' ');
  commands.push(shown);
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  if (result.status !== 0) {
    throw new Error(`'node ${shown}' failed (exit ${result.status}) after ${seconds} s:\n${(result.stderr + result.stdout).trim().split('\n').slice(-15).join('\n')}`);
  }
  log(`  node ${shown}  (${seconds} s)`);
}

/** The AOT compiler of `@syclkit/gpu-targets`, as far as prepare uses it. */
interface GpuAot {
  compile(request: { input: Uint8Array; inputPath: string; target: string; name: string }): Promise<{ image: Uint8Array; format: number }>;
}

/**
 * `@syclkit/gpu-targets`' AOT back end for `target`, when that package is installed (it is the
 * NVPTX code generation of issue 18); undefined otherwise.
 */
async function loadGpuAot(target: string): Promise<GpuAot | undefined> {
  const name = '@syclkit/gpu-targets';
  try {
    const module = (await import(name)) as { gpuAotCompilerFor?: (target: string) => GpuAot };
    return module.gpuAotCompilerFor?.(target);
  } catch {
    return undefined;
  }
}

/**
 * Checks that the images of a fat binary's `target` bundle that hold code are PTX. Where `syclkit
 * compile` kept device IR for them instead (a compile that does not call the GPU back end yet),
 * they are compiled to PTX with `@syclkit/gpu-targets`' AOT back end — what compile's AOT step
 * does with it — and the fat binary is rewritten.
 */
async function ensurePtxBundle(file: string, target: string, log: (line: string) => void): Promise<{ images: number; empty: number }> {
  const reader = ContainerReader.open(file);
  let bundles: Bundle[];
  let converted = 0;
  try {
    const bundle = reader.bundles.find((b) => b.target === target);
    if (bundle === undefined) throw new Error(`${file}: no ${target} bundle`);
    const full = bundle.images.filter((image) => !image.empty);
    const notPtx = full.filter((image) => !isPtxText(reader.readImageData(image)));
    if (notPtx.length === 0) return { images: full.length, empty: bundle.images.length - full.length };
    const aot = await loadGpuAot(target);
    if (aot === undefined) {
      throw new Error(
        `${file}: ${notPtx.length} of ${full.length} ${target} images are not PTX (first: ${notPtx[0]!.name}); syclkit compile must generate PTX for nvidia_gpu_sm_* (the NVPTX back end of issue 18, LLVM 16's llc)`,
      );
    }
    log(`  ${file.split('/').pop()}: syclkit compile kept device IR for ${target}; compiling ${notPtx.length} images to PTX with @syclkit/gpu-targets' AOT back end`);
    bundles = [];
    for (const b of reader.bundles) {
      const images: DeviceImage[] = [];
      for (const image of b.images) {
        const bytes = image.empty ? new Uint8Array() : reader.readImageData(image);
        const fields = { name: image.name, target: image.target, entries: image.entries, properties: image.properties, empty: image.empty };
        if (b.target !== target || image.empty || isPtxText(bytes)) {
          images.push(deviceImage({ ...fields, image: bytes, format: image.format }));
          continue;
        }
        const out = await aot.compile({ input: bytes, inputPath: image.name, target, name: image.name });
        images.push(deviceImage({ ...fields, image: out.image, format: out.format }));
        converted++;
      }
      bundles.push({ target: b.target, images });
    }
  } finally {
    reader.close();
  }
  writeContainerFile(file, { bundles });
  log(`  ${file.split('/').pop()}: ${converted} images compiled to PTX`);
  return ensurePtxBundle(file, target, log);
}

/** The kernels whose define line carries no required work-group size and no sub-group size but 32, in module order. */
export function firstLaunchCandidates(irText: string, kernels: readonly string[]): string[] {
  const groups = new Map<string, string>();
  for (const m of irText.matchAll(/^(![\w.]+) = !\{i32 (\d+)\}$/gm)) groups.set(m[1]!, m[2]!);
  const known = new Set(kernels);
  const candidates: string[] = [];
  for (const m of irText.matchAll(/^define [^\n]*spir_kernel void @([\w$.]+)\([^\n]*$/gm)) {
    const line = m[0];
    if (!known.has(m[1]!) || line.includes('!reqd_work_group_size')) continue;
    const sg = /!intel_reqd_sub_group_size (![\w.]+)/.exec(line)?.[1];
    if (sg === undefined || groups.get(sg) === '32') candidates.push(m[1]!);
  }
  return candidates;
}

/** The first of `firstLaunchCandidates`. */
export function pickFirstKernel(irText: string, kernels: readonly string[]): string {
  const first = firstLaunchCandidates(irText, kernels)[0];
  if (first === undefined) throw new Error('the generated module has no kernel without a required work-group size');
  return first;
}

/** The first kernel whose required sub-group size is 8 or 16 (CUDA has only 32), if any. */
export function pickRefusedKernel(irText: string, kernels: readonly string[]): { name: string; subGroupSize: number } | undefined {
  const groups = new Map<string, number>();
  for (const m of irText.matchAll(/^(![\w.]+) = !\{i32 (\d+)\}$/gm)) groups.set(m[1]!, Number(m[2]));
  for (const m of irText.matchAll(/^define [^\n]*spir_kernel void @([\w$.]+)\([^\n]*$/gm)) {
    const sg = /!intel_reqd_sub_group_size (![\w.]+)/.exec(m[0])?.[1];
    const size = sg === undefined ? undefined : groups.get(sg);
    if (kernels.includes(m[1]!) && (size === 8 || size === 16)) return { name: m[1]!, subGroupSize: size };
  }
  return undefined;
}

/**
 * Runs the first-launch kernel on the host (emulate.ts) over the work-items and with the
 * arguments `gpu-check run` launches it with, and refuses it when a work-item would touch memory
 * outside an object — on the GPU that is CUDA_ERROR_ILLEGAL_ADDRESS, found only after packing.
 * The work-items run in three orders (`printfUnderSchedules`: the first and last work-items
 * first, then reversed, then each alone), which also says whether the launch's printf count is
 * one the GPU must match. A kernel too long to emulate within `stepBudget` instructions is
 * checked as far as the budget goes (`complete: false`).
 */
export function emulateFirstLaunch(module: Module, kernel: string, params: readonly ParamKind[], stepBudget = 100_000_000): FirstLaunchEmulation {
  const n = FIRST_LAUNCH_ITEMS;
  const order = [...new Set([0, 1, 2, 3, 4, 5, 6, 7, n - 1, n - 2, ...Array.from({ length: n }, (_, i) => i)])].filter((i) => i < n).map((i) => [i]);
  try {
    const s = printfUnderSchedules(module, kernel, () => argumentsFor(params, n), { global: [n], workItems: order, stepBudget });
    return {
      workItems: s.workItems,
      steps: s.steps,
      printfCalls: s.inOrder,
      complete: s.complete,
      printf: { inOrder: s.inOrder, reversed: nullIfNaN(s.reversed), isolated: nullIfNaN(s.isolated), scheduleIndependent: s.scheduleIndependent },
    };
  } catch (error) {
    if (error instanceof EmulationFault) throw new Error(`the first-launch kernel would fault on the GPU: ${error.message}`);
    throw error;
  }
}

function nullIfNaN(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}

export interface FirstLaunchEmulation {
  readonly workItems: number;
  readonly steps: number;
  /** printf calls of the emulated work-items, in prepare's order (the first and last first); see `printf` for whether the GPU must match it. */
  readonly printfCalls: number;
  /** Every work-item was emulated (else the step budget ran out first). */
  readonly complete: boolean;
  /** The printf count in three orders of the work-items (null: not taken); absent in data prepared before it was added. */
  readonly printf?: { readonly inOrder: number; readonly reversed: number | null; readonly isolated: number | null; readonly scheduleIndependent: boolean };
}

/** A first-launch candidate passed over, and why. */
export interface PassedOver {
  readonly kernel: string;
  readonly why: string;
}

/**
 * The first-launch kernel: the first candidate (see `firstLaunchCandidates`) whose printf count
 * is the same in every order of its work-items, above 0 and at most `maxLines` — so that `run`
 * can require the GPU to print exactly that many lines —, looking at `limit` candidates at most;
 * else the first candidate, its count not checkable. A candidate that would fault stops prepare,
 * as before: the generator must not make one.
 */
export function pickFirstLaunch(
  module: Module,
  candidates: readonly string[],
  params: ReadonlyMap<string, readonly ParamKind[]>,
  options: { readonly limit?: number; readonly stepBudget?: number; readonly maxLines?: number } = {},
): { kernel: string; emulation: FirstLaunchEmulation; passedOver: PassedOver[] } {
  const limit = options.limit ?? 24;
  const maxLines = options.maxLines ?? 4 * FIRST_LAUNCH_ITEMS;
  const passedOver: PassedOver[] = [];
  let fallback: { kernel: string; emulation: FirstLaunchEmulation } | undefined;
  for (const kernel of candidates.slice(0, limit)) {
    let emulation: FirstLaunchEmulation;
    try {
      emulation = emulateFirstLaunch(module, kernel, params.get(kernel) ?? [], options.stepBudget ?? 20_000_000);
    } catch (error) {
      if (!(error instanceof EmulationUnsupported)) throw error;
      passedOver.push({ kernel, why: `the emulation does not model it (${error.message})` });
      continue;
    }
    fallback ??= { kernel, emulation };
    const p = emulation.printf!;
    const why = !emulation.complete
      ? 'too long to emulate in every order'
      : p.inOrder === 0
        ? 'prints nothing'
        : !p.scheduleIndependent
          ? `its printf count depends on the order of the work-items (${p.inOrder} in order, ${p.reversed ?? '-'} reversed${p.isolated === null ? '' : `, ${p.isolated} each alone`}): a work-item prints or not after reading what others wrote`
          : p.inOrder > maxLines
            ? `prints ${p.inOrder} lines (more than ${maxLines})`
            : undefined;
    if (why === undefined) return { kernel, emulation, passedOver };
    passedOver.push({ kernel, why });
  }
  if (fallback === undefined) throw new Error('no first-launch kernel the emulation models among the candidates');
  return { ...fallback, passedOver };
}

export async function prepare(options: PrepareOptions): Promise<Manifest> {
  const { out, log } = options;
  const target = options.target ?? 'nvidia_gpu_sm_90';
  const kernels = options.kernels ?? 1000;
  const seed = options.seed ?? 1;
  const commands: string[] = [];
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (name.endsWith('.fatbin') || name === 'manifest.json') rmSync(join(out, name));
  const src = join(out, 'src');
  const flags = [`-fsycl-targets=${target}`];

  log(`compiling the demo program for ${target}`);
  run([syclkit, 'demo', '--write-sample', src], commands, log);
  const units = ['nbody.ll', 'shade.ll', 'tonemap.ll'].map((f) => join(src, f));
  const demo: Record<string, string> = {};
  for (const split of ['per_kernel', 'auto']) {
    const name = `demo-${split}.fatbin`;
    run([syclkit, 'compile', ...units, ...flags, `-fsycl-device-code-split=${split}`, '-Wno-sycl-aspect-mismatch', '-o', join(out, name)], commands, log);
    const { images, empty } = await ensurePtxBundle(join(out, name), target, log);
    log(`  ${name}: ${images} PTX images, ${empty} empty rows`);
    demo[split] = name;
  }

  log(`compiling a generated module of ${kernels} kernels for ${target}`);
  const module = join(out, 'bench.ll');
  run([bench, 'generate', '--seed', String(seed), '--kernels', String(kernels), '-o', module], commands, log);
  const text = readFileSync(module, 'utf8');
  const parsed = parseModule(text, { filename: 'bench.ll' });
  const params = kernelParamsOf(parsed, 'bench.ll');
  writeFileSync(join(out, 'bench-params.json'), JSON.stringify(Object.fromEntries(params)) + '\n');
  const fatbins: Record<string, string> = {};
  for (const split of ['per_kernel', 'off']) {
    const name = `bench-${split}.fatbin`;
    run([syclkit, 'compile', module, ...flags, `-fsycl-device-code-split=${split}`, '-Wno-sycl-aspect-mismatch', '-o', join(out, name)], commands, log);
    const { images, empty } = await ensurePtxBundle(join(out, name), target, log);
    log(`  ${name}: ${images} PTX images, ${empty} empty rows`);
    fatbins[split] = name;
  }
  const { kernel: firstKernel, emulation, passedOver } = pickFirstLaunch(parsed, firstLaunchCandidates(text, [...params.keys()]), params);
  const refusedKernel = pickRefusedKernel(text, [...params.keys()]);
  for (const p of passedOver) log(`  first-launch candidate ${p.kernel} passed over: ${p.why}`);
  const printf = emulation.printf!;
  log(
    `  first-launch kernel ${firstKernel}: emulated on the host with gpu-check's arguments, ${emulation.workItems} of ${FIRST_LAUNCH_ITEMS} work-items${emulation.complete ? '' : ' (the step budget ran out)'}: every access inside its object (${emulation.steps} instructions); ${printf.scheduleIndependent ? `${emulation.printfCalls} printf calls in every order of the work-items (the GPU must print as many lines)` : `${emulation.printfCalls} printf calls in order, not checkable on the GPU`}`,
  );
  rmSync(module);
  rmSync(src, { recursive: true, force: true });

  const commit = spawnSync('git', ['-C', repoRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  const manifest: Manifest = {
    target,
    demo,
    bench: {
      kernelCount: kernels,
      seed,
      fatbins,
      params: 'bench-params.json',
      firstKernel,
      firstKernelEmulation: emulation,
      ...(passedOver.length === 0 ? {} : { firstKernelPassedOver: passedOver }),
      ...(refusedKernel === undefined ? {} : { refusedKernel }),
    },
    commands,
    ...(commit.status === 0 ? { syclkitCommit: commit.stdout.trim() } : {}),
    createdAt: new Date().toISOString(),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  log(`wrote ${join(out, 'manifest.json')}`);
  return manifest;
}

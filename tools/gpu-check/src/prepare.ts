/**
 * `gpu-check prepare`: compiles what `gpu-check run` needs, with the syclkit command line — the
 * demo program (`syclkit demo --write-sample`) with `-fsycl-device-code-split=per_kernel` and
 * `auto`, and a generated module of 1,000 kernels (`tools/bench generate`) with `per_kernel` and
 * `off` —, all for one `nvidia_gpu_sm_*` target, and writes `manifest.json` beside them.
 *
 * This needs LLVM 16's llc (PTX code generation); the GPU machine has none, so `gpu-check pack`
 * runs this step on the host and carries the fat binaries over.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { isPtxText } from '@syclkit/runtime';
import { kernelParams } from './kernel-params.js';

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
    /** The kernel the first-launch timing submits (no required work-group or sub-group size). */
    readonly firstKernel: string;
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

/** The images of a fat binary's `target` bundle that hold code, checked to be PTX. */
function checkPtxBundle(file: string, target: string): { images: number; empty: number } {
  const reader = ContainerReader.open(file);
  try {
    const bundle = reader.bundles.find((b) => b.target === target);
    if (bundle === undefined) throw new Error(`${file}: no ${target} bundle`);
    const full = bundle.images.filter((image) => !image.empty);
    const notPtx = full.filter((image) => !isPtxText(reader.readImageData(image)));
    if (notPtx.length > 0) {
      throw new Error(
        `${file}: ${notPtx.length} of ${full.length} ${target} images are not PTX (first: ${notPtx[0]!.name}); syclkit compile must generate PTX for nvidia_gpu_sm_* (the NVPTX back end of issue 18, LLVM 16's llc)`,
      );
    }
    return { images: full.length, empty: bundle.images.length - full.length };
  } finally {
    reader.close();
  }
}

/** The first kernel whose define line carries no required work-group size and no sub-group size but 32. */
export function pickFirstKernel(irText: string, kernels: readonly string[]): string {
  const groups = new Map<string, string>();
  for (const m of irText.matchAll(/^(![\w.]+) = !\{i32 (\d+)\}$/gm)) groups.set(m[1]!, m[2]!);
  for (const m of irText.matchAll(/^define [^\n]*spir_kernel void @([\w$.]+)\([^\n]*$/gm)) {
    const line = m[0];
    if (!kernels.includes(m[1]!) || line.includes('!reqd_work_group_size')) continue;
    const sg = /!intel_reqd_sub_group_size (![\w.]+)/.exec(line)?.[1];
    if (sg === undefined || groups.get(sg) === '32') return m[1]!;
  }
  throw new Error('the generated module has no kernel without a required work-group size');
}

export function prepare(options: PrepareOptions): Manifest {
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
    const { images, empty } = checkPtxBundle(join(out, name), target);
    log(`  ${name}: ${images} PTX images, ${empty} empty rows`);
    demo[split] = name;
  }

  log(`compiling a generated module of ${kernels} kernels for ${target}`);
  const module = join(out, 'bench.ll');
  run([bench, 'generate', '--seed', String(seed), '--kernels', String(kernels), '-o', module], commands, log);
  const text = readFileSync(module, 'utf8');
  const params = kernelParams(text, 'bench.ll');
  writeFileSync(join(out, 'bench-params.json'), JSON.stringify(Object.fromEntries(params)) + '\n');
  const fatbins: Record<string, string> = {};
  for (const split of ['per_kernel', 'off']) {
    const name = `bench-${split}.fatbin`;
    run([syclkit, 'compile', module, ...flags, `-fsycl-device-code-split=${split}`, '-Wno-sycl-aspect-mismatch', '-o', join(out, name)], commands, log);
    const { images, empty } = checkPtxBundle(join(out, name), target);
    log(`  ${name}: ${images} PTX images, ${empty} empty rows`);
    fatbins[split] = name;
  }
  const firstKernel = pickFirstKernel(text, [...params.keys()]);
  rmSync(module);
  rmSync(src, { recursive: true, force: true });

  const commit = spawnSync('git', ['-C', repoRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  const manifest: Manifest = {
    target,
    demo,
    bench: { kernelCount: kernels, seed, fatbins, params: 'bench-params.json', firstKernel },
    commands,
    ...(commit.status === 0 ? { syclkitCommit: commit.stdout.trim() } : {}),
    createdAt: new Date().toISOString(),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  log(`wrote ${join(out, 'manifest.json')}`);
  return manifest;
}

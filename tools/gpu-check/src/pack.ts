/**
 * `gpu-check pack`: everything the GPU machine needs beyond the working tree, in one ignored
 * folder of the repository (`.gpu-carry/`, named in the device call's `carry`):
 *
 * - `node.xz`: this machine's node binary, xz-compressed (the GPU machine has no node);
 * - `app.tar.xz`: the built `dist` of gpu-check and the packages it imports, and the production
 *   dependencies from node_modules — koffi with only its linux-x64 glibc binary —, unpacked over
 *   the working tree there;
 * - `data.tar.xz`: the fat binaries `gpu-check prepare` compiled here into `.gpu-carry-data/`
 *   (the GPU machine has no LLVM);
 * - `run.sh`: unpacks, then runs `gpu-check run` with the report under `$OUT` (and, when a launch
 *   faults, compute-sanitizer's memcheck report of it there too).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepare } from './prepare.js';

export interface PackOptions {
  /** The repository root (default: this checkout). */
  readonly root?: string;
  /** The node binary to carry (default: the one running). */
  readonly node?: string;
  /** Reuse `data/` when it has a manifest (default: compile again). */
  readonly reuseData?: boolean;
  readonly kernels?: number;
  readonly log: (line: string) => void;
}

export const CARRY = '.gpu-carry';
/** Where `pack` has `prepare` write the fat binaries (beside the carry: only their xz travels). */
export const DATA = '.gpu-carry-data';
/** The device call's command: run from the repository root there. */
export const DEVICE_COMMAND = `bash ${CARRY}/run.sh`;
/** The most a device call may carry with the working tree. */
const LIMIT = 64 * 2 ** 20;

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
}

/** The files to pack for one external package (koffi: its loader and the linux-x64 glibc binary only). */
function packageFiles(dir: string, name: string): string[] {
  const all = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(join(d, e.name)) : e.isFile() || e.isSymbolicLink() ? [join(d, e.name)] : []));
  if (name === 'koffi') {
    // Its JavaScript (loader and helpers), not the C++ sources, headers and docs.
    return all(dir).filter((f) => /\.(c?js|mjs|json)$|LICENSE/.test(f) && !/\/(vendor|doc|build)\//.test(f));
  }
  if (name.startsWith('@koromix/koffi-')) return ['package.json', 'index.js', 'linux_x64/koffi.node'].map((f) => join(dir, f)).filter((f) => existsSync(f));
  return all(dir).filter((f) => !/\.(md|map|ts)$/.test(f));
}

/** Paths (relative to `root`) of gpu-check's runtime closure: dists, workspace links, dependencies. */
export function closure(root: string): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const distFiles = (dir: string): string[] =>
    existsSync(join(dir, 'dist'))
      ? readdirSync(join(dir, 'dist'), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile() && e.name.endsWith('.js') && !e.name.includes('.test.'))
          .map((e) => join(e.parentPath, e.name))
      : [];
  const visit = (name: string, dir: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest & { optionalDependencies?: Record<string, string> };
    const inRepo = !relative(root, dir).startsWith('node_modules');
    if (inRepo) {
      files.add(join(dir, 'package.json'));
      for (const f of distFiles(dir)) files.add(f);
    } else {
      for (const f of packageFiles(dir, name)) files.add(f);
    }
    for (const dep of [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})]) {
      const link = join(root, 'node_modules', dep);
      if (!existsSync(link)) continue; // an optional dependency for another platform
      if (lstatSync(link).isSymbolicLink()) files.add(link);
      visit(dep, realpathSync(link));
    }
  };
  visit('@syclkit/gpu-check', join(root, 'tools/gpu-check'));
  return [...files].map((f) => relative(root, f)).sort();
}

function xz(input: string, output: string): void {
  const result = spawnSync('sh', ['-c', 'xz -T2 -9 -c "$1" > "$2.tmp" && mv "$2.tmp" "$2"', 'sh', input, output]);
  if (result.status !== 0) throw new Error(`xz failed: ${result.stderr.toString()}`);
}

const RUN_SH = `#!/usr/bin/env bash
# Written by 'gpu-check pack'. On the GPU machine, from the repository root: ${DEVICE_COMMAND}
# Unpacks node and syclkit's built packages (over the working tree), then runs gpu-check; the
# transcript and reports go to $OUT (or ${CARRY}/out).
set -uo pipefail
carry=$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$carry")
out=\${OUT:-$carry/out}
bin=\${TMPDIR:-/tmp}/gpu-check-node/bin
mkdir -p "$out" "$bin"
unxz() { if command -v xz >/dev/null 2>&1; then xz -dc "$1"; else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi; }
unxz "$carry/node.xz" > "$bin/node" && chmod +x "$bin/node" || { echo "run.sh: cannot unpack node" >&2; exit 2; }
unxz "$carry/app.tar.xz" | tar -x -C "$root" || { echo "run.sh: cannot unpack app.tar.xz" >&2; exit 2; }
mkdir -p "$carry/data" && unxz "$carry/data.tar.xz" | tar -x -C "$carry/data" || { echo "run.sh: cannot unpack data.tar.xz" >&2; exit 2; }
# CUDA's tools after the machine's own: ptxas, and compute-sanitizer for a launch that faults.
export PATH="$bin:$PATH:/usr/local/cuda/bin"
# libcuda.so.1 where the loader does not find it by name (the driver's folder may be a mount).
if [ -z "\${SYCLKIT_CUDA_DRIVER:-}" ] && ! ldconfig -p 2>/dev/null | grep -q 'libcuda\\.so\\.1 '; then
  for lib in /usr/local/nvidia/lib64/libcuda.so.1 /usr/local/nvidia/lib/libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1; do
    if [ -e "$lib" ]; then export SYCLKIT_CUDA_DRIVER="$lib"; break; fi
  done
fi
echo "gpu-check on $(uname -m): node $(node --version); GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'nvidia-smi not available'); memcheck: $(command -v compute-sanitizer 2>/dev/null || echo "no compute-sanitizer on PATH (gpu-check also tries \\$COMPUTE_SANITIZER and /usr/local/cuda-*)")"
node "$root/tools/gpu-check/dist/cli.js" run --in "$carry/data" --out "$out" 2>&1 | tee "$out/gpu-check.txt"
status=\${PIPESTATUS[0]}
if [ "$status" -ge 2 ]; then
  # Set-up failed (no device, no driver library): what the machine has, for the next try.
  { echo "--- set-up diagnostics"; nvidia-smi 2>&1 | head -15; ldconfig -p 2>/dev/null | grep -i -e libcuda -e nvidia | head; ls -l /usr/local/nvidia/lib64 2>&1 | head; echo "LD_LIBRARY_PATH=\${LD_LIBRARY_PATH:-}"; ls -l /usr/local/cuda/bin/ptxas 2>&1; } 2>&1 | tee -a "$out/gpu-check.txt"
fi
exit "$status"
`;

export interface PackResult {
  readonly carry: string;
  readonly sizes: Readonly<Record<string, number>>;
  readonly workingTree: number;
  readonly total: number;
}

export async function pack(options: PackOptions): Promise<PackResult> {
  const { log } = options;
  const root = options.root ?? fileURLToPath(new URL('../../../', import.meta.url));
  const carry = join(root, CARRY);
  const data = join(root, DATA);
  mkdirSync(carry, { recursive: true });
  mkdirSync(data, { recursive: true }); // git matches a folder pattern only on an existing folder
  for (const folder of [CARRY, DATA]) {
    const ignored = spawnSync('git', ['-C', root, 'check-ignore', '-q', folder]);
    if (ignored.status !== 0) throw new Error(`${folder} is not ignored by git in ${root}: it would travel as part of the working tree and could be committed`);
  }

  if (!(options.reuseData === true && existsSync(join(data, 'manifest.json')))) {
    await prepare({ out: data, log, ...(options.kernels === undefined ? {} : { kernels: options.kernels }) });
  } else {
    log(`reusing ${DATA} (manifest.json present)`);
  }
  // The fat binaries are PTX text with their properties: xz takes them to a few percent.
  const packed = spawnSync('sh', ['-c', 'tar -c -C "$1" . | xz -T2 -9 > "$2.tmp" && mv "$2.tmp" "$2"', 'sh', data, join(carry, 'data.tar.xz')]);
  if (packed.status !== 0) throw new Error(`packing ${DATA} failed: ${packed.stderr.toString()}`);
  rmSync(join(carry, 'data'), { recursive: true, force: true });

  const node = options.node ?? process.execPath;
  const stamp = `${realpathSync(node)} ${statSync(node).size} ${statSync(node).mtimeMs}`;
  const stampFile = join(carry, 'node.xz.source');
  if (!existsSync(join(carry, 'node.xz')) || !existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
    log(`compressing ${node} (${(statSync(node).size / 2 ** 20).toFixed(1)} MiB) with xz -9`);
    xz(node, join(carry, 'node.xz'));
    writeFileSync(stampFile, stamp);
  }

  const files = closure(root);
  const missing = files.filter((f) => !existsSync(join(root, f)) && !lstatSync(join(root, f), { throwIfNoEntry: false }));
  if (missing.length > 0) throw new Error(`missing files (run npm run build first): ${missing.slice(0, 5).join(', ')}`);
  if (!files.includes('tools/gpu-check/dist/cli.js')) throw new Error('tools/gpu-check/dist/cli.js is not built (npm run build)');
  writeFileSync(join(carry, 'app.files'), files.join('\n') + '\n');
  const tar = spawnSync('sh', ['-c', 'tar -c -C "$1" --files-from "$2" | xz -T2 -9 > "$3.tmp" && mv "$3.tmp" "$3"', 'sh', root, join(carry, 'app.files'), join(carry, 'app.tar.xz')]);
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
  rmSync(join(carry, 'app.files'));
  writeFileSync(join(carry, 'run.sh'), RUN_SH, { mode: 0o755 });
  rmSync(join(carry, 'out'), { recursive: true, force: true });

  const du = (path: string): number => {
    const s = statSync(path);
    return s.isDirectory() ? readdirSync(path).reduce((sum, e) => sum + du(join(path, e)), 0) : s.size;
  };
  const sizes: Record<string, number> = {};
  for (const entry of readdirSync(carry)) sizes[entry] = du(join(carry, entry));
  const tracked = spawnSync('sh', ['-c', 'git -C "$1" ls-files -z --cached --others --exclude-standard | (cd "$1" && xargs -0 stat -c %s 2>/dev/null) | awk "{s+=\\$1} END {print s+0}"', 'sh', root], { encoding: 'utf8' });
  const workingTree = Number(tracked.stdout.trim()) || 0;
  const total = workingTree + du(carry);
  const mib = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MiB`;
  for (const [entry, size] of Object.entries(sizes)) log(`  ${join(CARRY, entry)}: ${mib(size)}`);
  log(`working tree ${mib(workingTree)} + ${CARRY} ${mib(du(carry))} = ${mib(total)} of the ${mib(LIMIT)} a device call carries`);
  if (total > LIMIT) throw new Error(`too large for a device call: ${mib(total)} > ${mib(LIMIT)}`);
  log(`device call: command '${DEVICE_COMMAND}', carry ["${CARRY}"]`);
  return { carry, sizes, workingTree, total };
}

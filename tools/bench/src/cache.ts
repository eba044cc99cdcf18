/**
 * Generated benchmark inputs, cached in `tools/bench/.cache/` (gitignored) under a name derived
 * from the generator options and the generator version, so a changed generator never reuses a
 * stale module.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generatorVersion, type ModuleStats } from './generator.js';
import { resolveGeneratorOptions } from './options.js';
import { writeTextFileAtomic, writeModuleFile, type SizedGeneratorOptions } from './output.js';

export interface CachedModule {
  readonly path: string;
  readonly stats: ModuleStats;
  /** Time it took to generate (when it was generated, possibly in an earlier run). */
  readonly generationMs: number;
  /** True when the file was already in the cache. */
  readonly cached: boolean;
}

/** The cache file name for `options`: readable prefix plus a hash of the full key. */
export function cacheKey(options: SizedGeneratorOptions): string {
  const { targetSize, ...rest } = options;
  const resolved = resolveGeneratorOptions(rest);
  // With a target size the function count is found by the generator; only what was asked matters.
  const key = {
    version: generatorVersion,
    seed: resolved.seed,
    kernels: rest.kernels ?? (targetSize !== undefined ? null : resolved.kernels),
    tus: resolved.tus,
    functions: targetSize !== undefined ? null : resolved.functions,
    segments: resolved.segments,
    pointers: resolved.pointers,
    debugInfo: resolved.debugInfo,
    targetSize: targetSize ?? null,
  };
  const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 10);
  const size = targetSize !== undefined ? `size${targetSize}` : `f${resolved.functions}`;
  const kernels = key.kernels === null ? 'kauto' : `k${key.kernels}`;
  return `gen-v${generatorVersion}-${size}-${kernels}-t${resolved.tus}-s${resolved.seed}-${resolved.pointers}${resolved.debugInfo ? '-g' : ''}-${hash}`;
}

export function cachedModule(cacheDir: string, options: SizedGeneratorOptions, log: (message: string) => void = () => {}): CachedModule {
  mkdirSync(cacheDir, { recursive: true });
  const base = join(cacheDir, cacheKey(options));
  const path = `${base}.ll`;
  const metaPath = `${base}.json`;
  if (existsSync(path) && existsSync(metaPath)) {
    try {
      const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { stats: ModuleStats; generationMs: number };
      if (statSync(path).size === meta.stats.bytes) return { path, stats: meta.stats, generationMs: meta.generationMs, cached: true };
    } catch {
      // Unreadable metadata: regenerate below.
    }
  }
  log(`generating ${path} ...`);
  const start = performance.now();
  const { stats, attempts } = writeModuleFile(path, options);
  const generationMs = performance.now() - start;
  log(`generated ${(stats.bytes / 1024 ** 2).toFixed(1)} MiB, ${stats.definitions} functions, ${stats.kernels} kernels in ${(generationMs / 1000).toFixed(1)} s (${attempts} attempt${attempts === 1 ? '' : 's'})`);
  writeTextFileAtomic(metaPath, (sink) => sink.write(`${JSON.stringify({ stats, generationMs, attempts }, null, 2)}\n`));
  return { path, stats, generationMs, cached: false };
}

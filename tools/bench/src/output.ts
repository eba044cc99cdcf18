/** Writing generated modules to files, and growing a module until it reaches a target size. */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeModule, type ModuleStats, type TextSink } from './generator.js';
import { resolveGeneratorOptions, type GeneratorOptions } from './options.js';

export interface SizedGeneratorOptions extends Partial<GeneratorOptions> {
  /** Grow the module (more functions, and more kernels unless `kernels` is given) to at least this many bytes. */
  readonly targetSize?: number;
}

export interface SizedModule {
  readonly chunks: readonly string[];
  readonly stats: ModuleStats;
  /** Option sets tried before the one that reached the size (for the log). */
  readonly attempts: number;
}

const maxAttempts = 12;

/**
 * Generates with `options`; while the text is smaller than `targetSize`, scales the function
 * count by the shortfall (plus 2 %) and tries again. Bytes per function are nearly constant, so
 * this usually takes two attempts. Deterministic: the attempts depend only on the options.
 */
export function generateToSize(options: SizedGeneratorOptions): SizedModule {
  const { targetSize, ...rest } = options;
  let current = resolveGeneratorOptions(rest);
  const scaleKernels = rest.kernels === undefined;
  for (let attempt = 1; ; attempt++) {
    const chunks: string[] = [];
    const stats = writeModule(current, { write: (c) => chunks.push(c) });
    if (targetSize === undefined || stats.bytes >= targetSize || attempt >= maxAttempts) {
      if (targetSize !== undefined && stats.bytes < targetSize) {
        throw new Error(`could not reach ${targetSize} bytes in ${maxAttempts} attempts (last: ${stats.bytes})`);
      }
      return { chunks, stats, attempts: attempt };
    }
    const factor = (targetSize / Math.max(1, stats.bytes)) * 1.02;
    const functions = Math.max(current.functions + 1, Math.ceil(Math.max(current.functions, 8) * factor));
    const kernels = scaleKernels ? Math.min(functions, Math.max(current.kernels, Math.round((current.kernels * functions) / Math.max(1, current.functions)))) : current.kernels;
    current = resolveGeneratorOptions({ ...current, functions, kernels });
  }
}

/** A sink that writes to a file descriptor in large blocks. */
class BufferedFileSink implements TextSink {
  private buffered: string[] = [];
  private size = 0;
  constructor(private readonly fd: number) {}
  write(chunk: string): void {
    this.buffered.push(chunk);
    this.size += chunk.length;
    if (this.size >= 4 << 20) this.flush();
  }
  flush(): void {
    if (this.size === 0) return;
    writeSync(this.fd, this.buffered.join(''), null, 'utf8');
    this.buffered = [];
    this.size = 0;
  }
}

let tempCounter = 0;

/** Writes through a temporary file renamed over `path`, so readers never see a partial module. */
export function writeFileAtomicWith(path: string, fill: (sink: TextSink) => void): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    const sink = new BufferedFileSink(fd);
    fill(sink);
    sink.flush();
    fsyncSync(fd);
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Generates straight into `path` (streaming unless a target size needs measuring first). */
export function writeModuleFile(path: string, options: SizedGeneratorOptions): { stats: ModuleStats; attempts: number } {
  if (options.targetSize === undefined) {
    let stats: ModuleStats | undefined;
    writeFileAtomicWith(path, (sink) => {
      stats = writeModule(options, sink);
    });
    return { stats: stats!, attempts: 1 };
  }
  const sized = generateToSize(options);
  writeFileAtomicWith(path, (sink) => {
    for (const c of sized.chunks) sink.write(c);
  });
  return { stats: sized.stats, attempts: sized.attempts };
}

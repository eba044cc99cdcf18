/** Writing generated modules to files, and growing a module until it reaches a target size. */
import { writeFileAtomicWith, type AtomicFile } from '@syclkit/formats';
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

/** Gathers small chunks into large blocks before they reach the file. */
class BufferedFileSink implements TextSink {
  private buffered: string[] = [];
  private size = 0;
  constructor(private readonly file: AtomicFile) {}
  write(chunk: string): void {
    this.buffered.push(chunk);
    this.size += chunk.length;
    if (this.size >= 4 << 20) this.flush();
  }
  flush(): void {
    if (this.size === 0) return;
    this.file.write(this.buffered.join(''));
    this.buffered = [];
    this.size = 0;
  }
}

/** Writes through a temporary file renamed over `path`, so readers never see a partial module. */
export function writeTextFileAtomic(path: string, fill: (sink: TextSink) => void): void {
  writeFileAtomicWith(path, (file) => {
    const sink = new BufferedFileSink(file);
    fill(sink);
    sink.flush();
  });
}

/** Generates straight into `path` (streaming unless a target size needs measuring first). */
export function writeModuleFile(path: string, options: SizedGeneratorOptions): { stats: ModuleStats; attempts: number } {
  if (options.targetSize === undefined) {
    let stats: ModuleStats | undefined;
    writeTextFileAtomic(path, (sink) => {
      stats = writeModule(options, sink);
    });
    return { stats: stats!, attempts: 1 };
  }
  const sized = generateToSize(options);
  writeTextFileAtomic(path, (sink) => {
    for (const c of sized.chunks) sink.write(c);
  });
  return { stats: sized.stats, attempts: sized.attempts };
}

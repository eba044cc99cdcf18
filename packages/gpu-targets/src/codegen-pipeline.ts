/**
 * The SYCL passes intel/llvm's NVPTX and AMDGPU code generators run before instruction selection,
 * so that `syclkit llc` (our passes, then LLVM 16's llc) behaves like intel/llvm's llc:
 * for `nvptx*-*-cuda` and `amdgcn-*-amdhsa` modules, `localaccessortosharedmemory` when
 * `-sycl-enable-local-accessor` is given, then `globaloffset`. Other operating systems (OpenCL's
 * nvcl, PAL, Mesa, none) get neither.
 */
import { CallInst, type Module } from '@syclkit/ir';
import { IMPLICIT_OFFSET_INTRINSICS } from './global-offset.js';
import { gpuTripleOf } from './target.js';

export interface CodegenPipelineOptions {
  /** `-sycl-enable-local-accessor` (default: `false`). */
  readonly localAccessor?: boolean;
}

/** Pipeline text of the SYCL passes codegen runs for `triple` ('' for none). */
export function syclCodegenPipeline(triple: string, options: CodegenPipelineOptions = {}): string {
  const gpu = gpuTripleOf(triple);
  if (gpu?.runtime === undefined) return '';
  return [...(options.localAccessor === true ? ['localaccessortosharedmemory'] : []), 'globaloffset'].join(',');
}

/**
 * The triple llc compiles for: `-mtriple` if given, else the module's, with the architecture
 * replaced by `-march` when given (LLVM's rule; a module without a triple starts from the host's,
 * whose OS is never a GPU one).
 */
export function llcTriple(moduleTriple: string, options: { readonly mtriple?: string; readonly march?: string }): string {
  if (options.mtriple !== undefined && options.mtriple !== '') return options.mtriple;
  const base = moduleTriple === '' ? 'x86_64-unknown-linux-gnu' : moduleTriple;
  if (options.march === undefined || options.march === '') return base;
  const parts = base.split('-');
  parts[0] = options.march;
  return parts.join('-');
}

/**
 * The first intel/llvm-only intrinsic still called (the implicit offset ones, which only
 * `globaloffset` removes): LLVM 16's back ends do not know them, where intel/llvm's stop with
 * `LLVM ERROR: Cannot select: intrinsic %<name>`.
 */
export function unselectableIntrinsic(module: Module): string | undefined {
  const names = new Set(Object.values(IMPLICIT_OFFSET_INTRINSICS));
  for (const fn of module.functions) {
    if (!names.has(fn.name)) continue;
    for (const f of module.functions) {
      for (const inst of f.instructions()) if (inst instanceof CallInst && inst.calledFunction === fn) return fn.name;
    }
  }
  return undefined;
}

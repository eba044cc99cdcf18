/**
 * Kernels, builtins and entry points of device code.
 *
 * intel/llvm has two copies of the entry-point rule, and they differ: sycl-post-link's
 * (`ModuleSplitter.cpp`) counts SPIR, AMDGPU and PTX kernels and leaves out SPIR-V, SYCL and ESIMD
 * builtins and `__builtin_` functions; SYCLPropagateAspectsUsage's counts only `spir_kernel` and
 * leaves out SPIR-V and SYCL builtins, with a comment saying it must be kept in sync with
 * sycl-post-link's. syclkit has one rule, sycl-post-link's, for every pass: it is the newer one
 * (AMDGPU and PTX kernels were added there when DPC++ gained those targets), and aspect
 * propagation must start from the same functions that become the roots of device images.
 */
import { KERNEL_CALLING_CONVENTIONS, type IRFunction, type Module } from '@syclkit/ir';
import { attachment } from './attachments.js';
import { SyclAttribute, SyclMetadata } from './names.js';

/** A kernel (declaration or definition): SPIR, AMDGPU or PTX kernel calling convention. */
export function isKernel(fn: IRFunction): boolean {
  return KERNEL_CALLING_CONVENTIONS.has(fn.callingConv);
}

/** `_Z<digits>` followed by one of `prefixes`. */
function mangledStartsWith(name: string, prefixes: readonly string[]): boolean {
  if (!name.startsWith('_Z')) return false;
  let i = 2;
  while (i < name.length && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57) i++;
  return prefixes.some((prefix) => name.startsWith(prefix, i));
}

/** SPIR-V and SYCL builtins: `_Z`, digits, then `__spirv_` or `__sycl_` (e.g. `_Z28__spirv_GlobalInvocationId_xv`). */
export function isSpirvSyclBuiltin(name: string): boolean {
  return mangledStartsWith(name, ['__spirv_', '__sycl_']);
}

/** ESIMD builtins: `_Z`, digits, then `__esimd_`. */
export function isEsimdBuiltin(name: string): boolean {
  return mangledStartsWith(name, ['__esimd_']);
}

/** `__builtin_*` functions. */
export function isGenericBuiltin(name: string): boolean {
  return name.startsWith('__builtin_');
}

/** A SYCL_EXTERNAL function (or kernel): it carries `"sycl-module-id"`. */
export function isSyclExternal(fn: IRFunction): boolean {
  return fn.attributes.fn.hasString(SyclAttribute.moduleId);
}

/** An ESIMD function: it carries `!sycl_explicit_simd`. */
export function isEsimdFunction(module: Module, fn: IRFunction): boolean {
  return attachment(fn, module.context, SyclMetadata.explicitSimd) !== undefined;
}

export interface EntryPointOptions {
  /** Only kernels (and `indirectly-callable` functions) are entry points (`-emit-only-kernels-as-entry-points`). */
  readonly emitOnlyKernelsAsEntryPoints?: boolean;
}

/**
 * A definition that is a kernel, or a SYCL_EXTERNAL function that is not a builtin; with
 * `emitOnlyKernelsAsEntryPoints`, a kernel or an `indirectly-callable` function.
 */
export function isEntryPoint(fn: IRFunction, options: EntryPointOptions = {}): boolean {
  if (fn.isDeclaration) return false;
  if (isKernel(fn)) return true;
  if (options.emitOnlyKernelsAsEntryPoints) return fn.attributes.fn.hasString(SyclAttribute.indirectlyCallable);
  return isSyclExternal(fn) && !isSpirvSyclBuiltin(fn.name) && !isEsimdBuiltin(fn.name) && !isGenericBuiltin(fn.name);
}

/** The module's entry points, in module order. */
export function entryPoints(module: Module, options: EntryPointOptions = {}): IRFunction[] {
  return module.functions.filter((fn) => isEntryPoint(fn, options));
}

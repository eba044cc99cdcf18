/**
 * Which functions are entry points of device images (reference §5.1): kernel definitions, and
 * SYCL_EXTERNAL definitions (`"sycl-module-id"`) that are not SPIR-V / SYCL / ESIMD builtins —
 * or, with `emitOnlyKernelsAsEntryPoints`, only kernels plus `indirectly-callable` functions.
 */
import type { IRFunction, Module } from '@syclkit/ir';
import { attachedNode } from './sycl-metadata.js';

/** Calling conventions of kernels (SPIR, AMDGPU; PTX kernels are entry points too). */
const KERNEL_CCS: ReadonlySet<string> = new Set(['spir_kernel', 'amdgpu_kernel', 'ptx_kernel']);

export function isKernel(fn: IRFunction): boolean {
  return KERNEL_CCS.has(fn.callingConv);
}

/** `_Z<digits>` followed by `prefix`. */
function mangledStartsWith(name: string, prefixes: readonly string[]): boolean {
  if (!name.startsWith('_Z')) return false;
  let i = 2;
  while (i < name.length && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57) i++;
  const rest = name.slice(i);
  return prefixes.some((p) => rest.startsWith(p));
}

/** `_Z..__spirv_*`, `_Z..__sycl_*`: SPIR-V and SYCL builtins. */
export function isSpirvSyclBuiltin(name: string): boolean {
  return mangledStartsWith(name, ['__spirv_', '__sycl_']);
}

/** `_Z..__esimd_*`. */
export function isEsimdBuiltin(name: string): boolean {
  return mangledStartsWith(name, ['__esimd_']);
}

/** `__builtin_*`. */
export function isGenericBuiltin(name: string): boolean {
  return name.startsWith('__builtin_');
}

/** A SYCL_EXTERNAL function: it carries the `"sycl-module-id"` attribute. */
export function isSyclExternal(fn: IRFunction): boolean {
  return fn.attributes.fn.hasString('sycl-module-id');
}

/** ESIMD functions carry `!sycl_explicit_simd`. */
export function isEsimdFunction(module: Module, fn: IRFunction): boolean {
  return attachedNode(module, fn, 'sycl_explicit_simd') !== undefined;
}

export interface EntryPointOptions {
  /** Only kernels (and `indirectly-callable` functions) are entry points. */
  readonly emitOnlyKernelsAsEntryPoints?: boolean;
}

export function isEntryPoint(fn: IRFunction, options: EntryPointOptions = {}): boolean {
  if (fn.isDeclaration) return false;
  if (isKernel(fn)) return true;
  if (options.emitOnlyKernelsAsEntryPoints) return fn.attributes.fn.hasString('indirectly-callable');
  return isSyclExternal(fn) && !isSpirvSyclBuiltin(fn.name) && !isEsimdBuiltin(fn.name) && !isGenericBuiltin(fn.name);
}

/** The module's entry points in module order. */
export function entryPoints(module: Module, options: EntryPointOptions = {}): IRFunction[] {
  return module.functions.filter((fn) => isEntryPoint(fn, options));
}

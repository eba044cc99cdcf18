/**
 * Entry points of device code: kernels and exported (`SYCL_EXTERNAL`) functions. Kept in sync with
 * sycl-post-link's definition, as intel/llvm does.
 */
import type { IRFunction } from '@syclkit/ir';

/**
 * True for SPIR-V and SYCL builtins: `_Z`, then digits, then `__spirv_` or `__sycl_`
 * (e.g. `_Z28__spirv_GlobalInvocationId_xv`).
 */
export function isSpirvSyclBuiltin(name: string): boolean {
  if (!name.startsWith('_Z')) return false;
  let i = 2;
  while (i < name.length && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57) i++;
  const rest = name.slice(i);
  return rest.startsWith('__spirv_') || rest.startsWith('__sycl_');
}

/**
 * A definition that is a kernel (`spir_kernel`), or that carries `"sycl-module-id"` (a
 * `SYCL_EXTERNAL` function) and is not a SPIR-V/SYCL builtin.
 */
export function isEntryPoint(fn: IRFunction): boolean {
  if (fn.isDeclaration) return false;
  if (fn.callingConv === 'spir_kernel') return true;
  return fn.attributes.fn.hasString('sycl-module-id') && !isSpirvSyclBuiltin(fn.name);
}

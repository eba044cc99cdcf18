/**
 * Device code dynamic linking (intel/llvm's SharedLibraries.md): an image lists the device
 * functions it defines for other images in `SYCL/exported symbols` and the ones it needs from
 * other images in `SYCL/imported symbols` (one property per symbol, `<name>=1|1`, as
 * sycl-post-link's `-emit-exported-symbols` / `-emit-imported-symbols` write them).
 */
import { PropertySetName, type PropertySetRegistry } from '@syclkit/formats';

export const EXPORTED_SYMBOLS_SET = PropertySetName.EXPORTED_SYMBOLS;
export const IMPORTED_SYMBOLS_SET = PropertySetName.IMPORTED_SYMBOLS;

interface WithProperties {
  readonly properties: PropertySetRegistry;
}

/** The device functions an image exports, in property order. */
export function exportedSymbols(image: WithProperties): string[] {
  return [...(image.properties.getSet(EXPORTED_SYMBOLS_SET)?.keys() ?? [])];
}

/** The device functions an image imports, in property order. */
export function importedSymbols(image: WithProperties): string[] {
  return [...(image.properties.getSet(IMPORTED_SYMBOLS_SET)?.keys() ?? [])];
}

/**
 * The kernels among an image's offload entries: the entries that are not exported device
 * functions (sycl-post-link lists SYCL_EXTERNAL entry points in the `.sym` file too, and the
 * runtime tells them apart by `SYCL/exported symbols`, as intel/llvm's program manager does).
 */
export function kernelEntries(image: WithProperties & { readonly entries: readonly string[] }): string[] {
  const exported = image.properties.getSet(EXPORTED_SYMBOLS_SET);
  return exported === undefined ? [...image.entries] : image.entries.filter((entry) => !exported.has(entry));
}

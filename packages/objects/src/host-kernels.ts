/**
 * Which kernels a host object refers to, read from its symbol table. DPC++'s integration header
 * specializes `sycl::_V1::detail::KernelInfo<KernelName>` for every kernel a translation unit
 * submits, and its members (`getName()`, `getNumParams()`, ...) are emitted into the host object
 * (weak, one copy per kernel) unless they were inlined away. The template argument is the kernel
 * name type, whose mangling after `_ZTS` is the kernel's name: a host symbol
 * `_ZN4sycl3_V16detail10KernelInfoI9IntegrateE7getNameEv` refers to kernel `_ZTS9Integrate`.
 * This is syclkit's model of "kernels the host side references" (the seed's device-link check 2).
 */

/** Mangled prefixes of `KernelInfo<` in the namespaces DPC++ has used. */
export const KERNEL_INFO_PREFIXES = [
  '_ZN4sycl3_V16detail10KernelInfoI', // sycl::_V1::detail::KernelInfo<
  '_ZN4sycl6detail10KernelInfoI', // sycl::detail::KernelInfo<
  '_ZN2cl4sycl6detail10KernelInfoI', // cl::sycl::detail::KernelInfo<
] as const;

/**
 * Where the template argument ends: the first `E` after which the rest is exactly
 * `E <length><member name> E <parameter types>` (parameter types of these members are builtin
 * letters, so no digit can follow the real member name's segment).
 */
function endOfTemplateArgument(symbol: string, from: number): number | undefined {
  for (let i = symbol.indexOf('E', from); i >= 0; i = symbol.indexOf('E', i + 1)) {
    const match = /^E(\d+)/.exec(symbol.slice(i));
    if (match === null) continue;
    const length = Number(match[1]);
    const nameStart = i + match[0].length;
    const name = symbol.slice(nameStart, nameStart + length);
    if (name.length !== length || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    if (/^E[A-Za-z]*$/.test(symbol.slice(nameStart + length))) return i;
  }
  return undefined;
}

/**
 * The kernel a `KernelInfo<T>` member symbol names (`_ZTS` + the mangling of T), or undefined
 * when the symbol is not one.
 */
export function kernelOfHostSymbol(symbol: string): string | undefined {
  const prefix = KERNEL_INFO_PREFIXES.find((p) => symbol.startsWith(p));
  if (prefix === undefined) return undefined;
  const end = endOfTemplateArgument(symbol, prefix.length);
  if (end === undefined) return undefined;
  const type = symbol.slice(prefix.length, end);
  return type === '' ? undefined : `_ZTS${type}`;
}

/** The `KernelInfo<T>::getName()` symbol for a kernel (what a host object that submits it holds). */
export function kernelInfoSymbol(kernel: string, member = 'getName'): string {
  if (!kernel.startsWith('_ZTS')) throw new RangeError(`kernel name '${kernel}' is not a typeinfo name (_ZTS...)`);
  return `${KERNEL_INFO_PREFIXES[0]}${kernel.slice(4)}E${member.length}${member}Ev`;
}

/** Kernels named by a host object's symbols, in symbol order, each once. */
export function kernelsReferencedBy(symbols: Iterable<{ readonly name: string }>): string[] {
  const out = new Set<string>();
  for (const symbol of symbols) {
    const kernel = kernelOfHostSymbol(symbol.name);
    if (kernel !== undefined) out.add(kernel);
  }
  return [...out];
}

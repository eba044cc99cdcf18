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

/** Whether `E <length><member name> E <parameter types>` ends the symbol at `at`. */
function memberSuffixAt(symbol: string, at: number): boolean {
  const match = /^E(\d+)/.exec(symbol.slice(at));
  if (match === null) return false;
  const nameStart = at + match[0].length;
  const length = Number(match[1]);
  const name = symbol.slice(nameStart, nameStart + length);
  return name.length === length && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && /^E[A-Za-z]*$/.test(symbol.slice(nameStart + length));
}

/**
 * Where the template argument ends: the first `E` that closes nothing the argument opened (it
 * closes `KernelInfo<`), found by walking the Itanium mangling of the type: source names are
 * skipped by their length; `N`, `I`, `Z` and closures `Ul` open what an `E` closes (a closure's
 * `E` may be followed by a discriminator and `_`); literals (`Li3E`), substitutions (`S_`, `S0_`,
 * `St`), template parameters (`T_`), unnamed types (`Ut_`) and vector types (`Dv4_`) are units.
 * The rest must be the member's name and parameters.
 */
function endOfTemplateArgument(symbol: string, from: number): number | undefined {
  const open: string[] = [];
  let i = from;
  while (i < symbol.length) {
    const rest = symbol.slice(i, i + 24);
    const c = symbol[i]!;
    if (c >= '0' && c <= '9') {
      const digits = /^\d+/.exec(rest)![0];
      i += digits.length + Number(digits);
      continue;
    }
    const unit = /^(?:L[a-z]n?\d*E|S[0-9A-Z]*_|S[a-z]|T[0-9A-Z]*_|Ut\d*_|Dv\d+_|D[a-z])/.exec(rest);
    if (unit !== null) {
      i += unit[0].length;
      continue;
    }
    if (rest.startsWith('Ul')) {
      open.push('Ul');
      i += 2;
      continue;
    }
    if (c === 'N' || c === 'I' || c === 'Z') {
      open.push(c);
      i++;
      continue;
    }
    if (c === 'E') {
      if (open.length === 0) return memberSuffixAt(symbol, i) ? i : undefined;
      if (open.pop() === 'Ul') {
        const discriminator = /^E\d*_/.exec(symbol.slice(i));
        if (discriminator !== null) {
          i += discriminator[0].length;
          continue;
        }
      }
      i++;
      continue;
    }
    i++;
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

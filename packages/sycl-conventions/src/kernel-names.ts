/**
 * Kernel names. A SYCL kernel's name in device code is the Itanium typeinfo name (`_ZTS...`) of
 * its kernel-name type: `_ZTS13ScaleVelocity` for `class ScaleVelocity`, `_ZTSN2ns6ReduceE` for
 * `ns::Reduce`, `_ZTSZ4mainE9Integrate` for a class declared inside `main`. People name kernels
 * by the type; these functions find the kernel they mean.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The typeinfo name of the class `typeName` (`ScaleVelocity` → `_ZTS13ScaleVelocity`,
 * `ns::Reduce` → `_ZTSN2ns6ReduceE`); undefined when a part is not a plain identifier.
 */
export function typeinfoName(typeName: string): string | undefined {
  const parts = typeName.split('::');
  if (parts[0] === '') parts.shift(); // `::Kernel`
  if (parts.length === 0 || !parts.every((part) => IDENTIFIER.test(part))) return undefined;
  const names = parts.map((part) => `${part.length}${part}`).join('');
  return parts.length === 1 ? `_ZTS${names}` : `_ZTSN${names}E`;
}

/**
 * The unqualified name of a kernel's type: the last name of its typeinfo name outside template
 * arguments (`_ZTSZ4mainE9Integrate` → `Integrate`, `_ZTSN2ns6ReduceIiEE` → `Reduce`); undefined
 * for names that are not typeinfo names or name no class (lambdas).
 */
export function kernelTypeName(kernel: string): string | undefined {
  if (!kernel.startsWith('_ZTS')) return undefined;
  let last: string | undefined;
  let templateDepth = 0;
  const scopes: string[] = [];
  for (let i = 4; i < kernel.length; ) {
    const c = kernel[i]!;
    if (c >= '0' && c <= '9') {
      let j = i;
      while (j < kernel.length && kernel[j]! >= '0' && kernel[j]! <= '9') j++;
      if (scopes.at(-1) === 'L') {
        i = j; // the value of a template argument literal (`Li5E`)
        continue;
      }
      const length = Number(kernel.slice(i, j));
      const name = kernel.slice(j, j + length);
      if (name.length !== length) return undefined;
      if (templateDepth === 0 && name !== '') last = name;
      i = j + length;
      continue;
    }
    if (c === 'N' || c === 'Z' || c === 'I' || c === 'L') {
      scopes.push(c);
      if (c === 'I') templateDepth++;
    } else if (c === 'E') {
      if (scopes.pop() === 'I') templateDepth--;
    } else if (c === 'U') {
      return undefined; // an unnamed type (lambda) ends the name
    }
    i++;
  }
  return last;
}

/**
 * The kernels of `kernels` that `given` names, best match first and alone: the kernel named
 * `given` exactly; else the kernel whose type is the class `given` (see {@link typeinfoName});
 * else every kernel whose type's unqualified name is `given` (several: the name is ambiguous).
 */
export function kernelsNamed(given: string, kernels: readonly string[]): string[] {
  if (kernels.includes(given)) return [given];
  const typeinfo = typeinfoName(given);
  if (typeinfo !== undefined && kernels.includes(typeinfo)) return [typeinfo];
  return kernels.filter((kernel) => kernelTypeName(kernel) === given);
}

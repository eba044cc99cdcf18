/**
 * The one way every command (`explain --kernel`, `check --require`, `run -kernel`,
 * `inspect -kernel`) finds the kernel a user names: its name in the binary (`_ZTS13ScaleVelocity`),
 * the name of its kernel-name type (`ScaleVelocity`, `ns::Reduce`) or that type's unqualified name
 * (`Reduce`), by `@syclkit/sycl-conventions`' `kernelsNamed`. A name that matches nothing is an
 * error with a did-you-mean and the kernels; one that matches several is an error listing them.
 */
import type { ContainerReader } from '@syclkit/offload-wrapper';
import { suggest } from '@syclkit/pass-manager';
import { kernelTypeName, kernelsNamed, typeinfoName } from '@syclkit/sycl-conventions';
import { CliError } from '../command.js';

export interface KernelNameContext {
  /** Put before every message (e.g. `--require: `). */
  readonly prefix?: string;
  /** How a missing kernel is said (default `no kernel`; e.g. `the binary has no kernel`). */
  readonly missing?: string;
}

/** The kernel of `kernels` that `given` names (see the module comment), or a CliError. */
export function resolveKernelName(given: string, kernels: readonly string[], context: KernelNameContext = {}): string {
  const found = kernelsNamed(given, kernels);
  if (found.length === 1) return found[0]!;
  const prefix = context.prefix ?? '';
  if (found.length > 1) throw new CliError(`${prefix}kernel name '${given}' is ambiguous: it names ${found.join(', ')}; give the full name of one`);
  const names = [...kernels, ...kernels.map(kernelTypeName).filter((name): name is string => name !== undefined)];
  const hint = suggest(given, names);
  throw new CliError(`${prefix}${context.missing ?? 'no kernel'} '${given}'${hint === undefined ? '' : `; did you mean '${hint}'?`} (kernels: ${kernels.join(', ') || 'none'})`);
}

/**
 * A kernel of fat binaries by any of its names: the exact name and the type's typeinfo name are
 * looked up in the containers' lookup tables (no image read); only otherwise are the `kernels`
 * listed (default: every image entry) to resolve the name.
 */
export function kernelInContainers(
  readers: ContainerReader | readonly ContainerReader[],
  given: string,
  options: KernelNameContext & { readonly kernels?: () => readonly string[] } = {},
): string {
  const all: readonly ContainerReader[] = Array.isArray(readers) ? readers : [readers];
  for (const name of [given, typeinfoName(given)]) {
    if (name !== undefined && all.some((reader) => reader.lookupPositions('entry', name).length > 0)) return name;
  }
  const kernels = options.kernels?.() ?? [...new Set(all.flatMap((reader) => reader.images.flatMap((image) => image.entries)))];
  return resolveKernelName(given, kernels, options);
}

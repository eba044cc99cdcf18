import { AMDGCN_TRIPLE, NVPTX_TRIPLE } from './known-targets.js';

/** A `-fsycl-targets` value that names a triple rather than a device. */
export interface SyclTriple {
  /** The architecture component, e.g. `spir64_gen`, `nvptx64`. */
  readonly arch: string;
  /** Normalized triple: short spellings get `-unknown-unknown` (or the vendor/OS the toolchain needs). */
  readonly normalized: string;
  /** The known-target name this triple selects, e.g. `spir64`, `nvptx64-nvidia-cuda`. */
  readonly target: string;
}

const SPIR_ARCHES = new Set(['spir', 'spir64', 'spir64_gen', 'spir64_x86_64', 'spir64_fpga']);

/**
 * Recognizes the triple spellings the SYCL driver accepts: the SPIR family (`spir64`,
 * `spir64_gen`, `spir64_x86_64`, `spir64_fpga`, `spir`, optionally with vendor and OS), and
 * `nvptx64-nvidia-cuda` / `amdgcn-amd-amdhsa` (or their bare architecture).
 */
export function parseSyclTriple(value: string): SyclTriple | undefined {
  const parts = value.split('-');
  const arch = parts[0]!;
  if (parts.some((part) => part === '')) return undefined;
  if (SPIR_ARCHES.has(arch)) {
    if (parts.length > 4) return undefined;
    const [, vendor = 'unknown', os = 'unknown', ...environment] = parts;
    return { arch, normalized: [arch, vendor, os, ...environment].join('-'), target: arch };
  }
  if (value === 'nvptx64' || value === NVPTX_TRIPLE) return { arch: 'nvptx64', normalized: NVPTX_TRIPLE, target: NVPTX_TRIPLE };
  if (value === 'amdgcn' || value === AMDGCN_TRIPLE) return { arch: 'amdgcn', normalized: AMDGCN_TRIPLE, target: AMDGCN_TRIPLE };
  return undefined;
}

/** Calling conventions: LLVM 16 numbers and the keywords the printer uses. */
const CONVENTIONS: readonly (readonly [number, string])[] = [
  [0, 'ccc'],
  [8, 'fastcc'],
  [9, 'coldcc'],
  [10, 'ghccc'],
  [12, 'webkit_jscc'],
  [13, 'anyregcc'],
  [14, 'preserve_mostcc'],
  [15, 'preserve_allcc'],
  [16, 'swiftcc'],
  [17, 'cxx_fast_tlscc'],
  [18, 'tailcc'],
  [19, 'cfguard_checkcc'],
  [20, 'swifttailcc'],
  [64, 'x86_stdcallcc'],
  [65, 'x86_fastcallcc'],
  [66, 'arm_apcscc'],
  [67, 'arm_aapcscc'],
  [68, 'arm_aapcs_vfpcc'],
  [69, 'msp430_intrcc'],
  [70, 'x86_thiscallcc'],
  [71, 'ptx_kernel'],
  [72, 'ptx_device'],
  [75, 'spir_func'],
  [76, 'spir_kernel'],
  [77, 'intel_ocl_bicc'],
  [78, 'x86_64_sysvcc'],
  [79, 'win64cc'],
  [80, 'x86_vectorcallcc'],
  [81, 'hhvmcc'],
  [82, 'hhvm_ccc'],
  [83, 'x86_intrcc'],
  [84, 'avr_intrcc'],
  [85, 'avr_signalcc'],
  [87, 'amdgpu_vs'],
  [88, 'amdgpu_gs'],
  [89, 'amdgpu_ps'],
  [90, 'amdgpu_cs'],
  [91, 'amdgpu_kernel'],
  [92, 'x86_regcallcc'],
  [93, 'amdgpu_hs'],
  [95, 'amdgpu_ls'],
  [96, 'amdgpu_es'],
  [97, 'aarch64_vector_pcs'],
  [98, 'aarch64_sve_vector_pcs'],
  [100, 'amdgpu_gfx'],
  [101, 'm68k_intrcc'],
  [102, 'aarch64_sme_preservemost_from_x0'],
  [103, 'aarch64_sme_preservemost_from_x2'],
];

const BY_NAME = new Map(CONVENTIONS.map(([n, k]) => [k, n]));
const BY_NUMBER = new Map(CONVENTIONS.map(([n, k]) => [n, k]));

export function isCallingConvKeyword(word: string): boolean {
  return BY_NAME.has(word);
}

/** The canonical spelling of `cc N`: the keyword when LLVM has one, else `cc N`. */
export function callingConvFromNumber(n: number): string {
  return BY_NUMBER.get(n) ?? `cc ${n}`;
}

/** Kernel calling conventions (entry points of device code). */
export const KERNEL_CALLING_CONVENTIONS: ReadonlySet<string> = new Set(['spir_kernel', 'amdgpu_kernel', 'ptx_kernel']);

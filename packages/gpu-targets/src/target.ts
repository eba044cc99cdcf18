/**
 * Which GPU a module is for, read from its target triple (`arch-vendor-os[-environment]`, as
 * LLVM's `Triple` splits it). Both passes and the retargeting read it from here.
 */

export type GpuArch = 'nvptx' | 'amdgcn';

export interface GpuTriple {
  readonly arch: GpuArch;
  /** 64 for `nvptx64` and `amdgcn`, 32 for `nvptx`. */
  readonly pointerBits: 32 | 64;
  /** The OS component: `cuda`, `nvcl`, `amdhsa`, `amdpal`, `mesa3d`, ... (`''` when absent). */
  readonly os: string;
  /**
   * The runtime SYCL's CUDA and HIP back ends load images with: CUDA for `nvptx*-*-cuda`, HSA for
   * `amdgcn-*-amdhsa`. Other OSes (OpenCL's `nvcl`, PAL, Mesa) are not SYCL targets.
   */
  readonly runtime: 'cuda' | 'hsa' | undefined;
}

/** The GPU a triple names, or `undefined` for any other target (spir64, x86_64, ...). */
export function gpuTripleOf(triple: string): GpuTriple | undefined {
  const [arch = '', , os = ''] = triple.split('-');
  if (arch === 'nvptx' || arch === 'nvptx64') {
    return { arch: 'nvptx', pointerBits: arch === 'nvptx' ? 32 : 64, os, runtime: os === 'cuda' ? 'cuda' : undefined };
  }
  if (arch === 'amdgcn') return { arch: 'amdgcn', pointerBits: 64, os, runtime: os === 'amdhsa' ? 'hsa' : undefined };
  return undefined;
}

/** The named metadata that lists kernels of a GPU target (`!nvvm.annotations`, `!amdgcn.annotations`). */
export function annotationsName(arch: GpuArch): string {
  return arch === 'nvptx' ? 'nvvm.annotations' : 'amdgcn.annotations';
}

/** The calling convention of kernels of a GPU target. */
export function kernelCallingConv(arch: GpuArch): string {
  return arch === 'nvptx' ? 'ptx_kernel' : 'amdgpu_kernel';
}

/**
 * The registry entries: `-passes=globaloffset` and `-passes=localaccessortosharedmemory`, with
 * intel/llvm's hidden command-line flags, so `syclkit opt` and `syclkit llc` run intel/llvm's RUN
 * lines unchanged.
 */
import { moduleKind, type Module } from '@syclkit/ir';
import { definePass, flag, option, PreservedAnalyses } from '@syclkit/pass-manager';
import { addImplicitGlobalOffset } from './global-offset.js';
import { lowerLocalAccessors } from './local-accessor.js';
import { lowerSpirvBuiltins } from './builtins.js';
import { RetargetError, retargetModuleInPlace } from './retarget.js';

export const globalOffsetPass = definePass({
  name: 'globaloffset',
  unit: moduleKind,
  summary: 'SYCL global offset for CUDA/HIP: functions reading it get a <name>_with_offset clone taking it as a parameter; originals read 0.',
  options: {
    enable: option.boolean({ doc: "Add the offset parameter; 'no-enable' only folds reads of the offset to 0", default: true }),
  },
  flags: {
    enable: flag.boolean('enable-global-offset', { doc: 'Enable SYCL global offset pass', default: true, hidden: true }),
  },
  preserves: 'none',
  diagnostics: {
    'global-offset-kernel-called': { severity: 'error', summary: 'A kernel entry point is called; kernels cannot have uses, so its offset clone would be unreachable.' },
    'global-offset-unfoldable-use': { severity: 'error', summary: 'The implicit offset pointer is used other than to load from it (through GEPs and PHIs); its reads cannot be folded to 0.' },
  },
  create: (options, { flags }) => (module: Module, ctx) => {
    const result = addImplicitGlobalOffset(module, { enabled: options.enable && flags.enable });
    for (const p of result.problems) ctx.report({ code: p.code, message: p.message });
    return result.changed ? PreservedAnalyses.none() : PreservedAnalyses.all();
  },
});

export const localAccessorToSharedMemoryPass = definePass({
  name: 'localaccessortosharedmemory',
  unit: moduleKind,
  summary: 'SYCL local accessors for CUDA/HIP: kernel parameters pointing to local memory become i32 offsets into one <kernel>_shared_mem array.',
  flags: {
    // Read by `syclkit llc` (the NVPTX/AMDGPU code generation pipeline runs the pass only with it);
    // declared here so `opt` accepts it where intel/llvm's RUN lines pass it.
    enable: flag.boolean('sycl-enable-local-accessor', { doc: 'Enable local accessor to shared memory optimisation.', default: false, hidden: true }),
  },
  preserves: 'none',
  create: () => (module: Module) => (lowerLocalAccessors(module).changed ? PreservedAnalyses.none() : PreservedAnalyses.all()),
});

export const gpuRetargetPass = definePass({
  name: 'gpu-retarget',
  unit: moduleKind,
  summary: 'Retargets spir64 device IR to NVPTX (nvptx64-nvidia-cuda) or AMDGCN (amdgcn-amd-amdhsa): triple, layout, address spaces, kernel conventions.',
  options: {
    target: option.enum(['nvptx64-nvidia-cuda', 'amdgcn-amd-amdhsa'], { doc: 'The GPU triple to retarget to', bare: true }),
  },
  preserves: 'none',
  diagnostics: {
    'gpu-retarget-unsupported': { severity: 'error', summary: 'The module cannot be retargeted (typed pointers, already a GPU module, an ifunc).' },
  },
  create: (options) => (module: Module, ctx) => {
    try {
      retargetModuleInPlace(module, options.target);
    } catch (error) {
      if (error instanceof RetargetError) ctx.fail({ code: 'gpu-retarget-unsupported', message: error.message });
      throw error;
    }
    return PreservedAnalyses.none();
  },
});

export const lowerSpirvBuiltinsPass = definePass({
  name: 'lower-spirv-builtins',
  unit: moduleKind,
  summary: 'Lowers SPIR-V builtins (work-item ids, atomics, barriers, sub-group collectives, OpenCL math, printf) of retargeted IR to NVVM/AMDGCN intrinsics.',
  preserves: 'none',
  diagnostics: {
    'spirv-builtin-not-lowered': { severity: 'error', summary: 'Device code calls a __spirv_* builtin (or one this target cannot provide) that is not lowered.' },
    'spirv-builtin-unsupported-use': { severity: 'error', summary: 'A __spirv_BuiltIn* variable is used other than by loading from it.' },
  },
  create: () => (module: Module, ctx) => {
    const result = lowerSpirvBuiltins(module);
    for (const p of result.problems) ctx.report({ code: p.code, message: p.message });
    return result.changed ? PreservedAnalyses.none() : PreservedAnalyses.all();
  },
});

/**
 * The registry entries: `-passes=globaloffset` and `-passes=localaccessortosharedmemory`, with
 * intel/llvm's hidden command-line flags, so `syclkit opt` and `syclkit llc` run intel/llvm's RUN
 * lines unchanged.
 */
import { moduleKind, type Module } from '@syclkit/ir';
import { definePass, flag, option, PreservedAnalyses } from '@syclkit/pass-manager';
import { addImplicitGlobalOffset } from './global-offset.js';
import { lowerLocalAccessors } from './local-accessor.js';

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

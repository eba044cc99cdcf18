import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('gpu-targets public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ADDRESS_SPACE_MAPS',
      'DEFAULT_SM',
      'DEVICE_MATH',
      'GLOBAL_OFFSET_BUILTIN',
      'GPU_DATA_LAYOUTS',
      'GPU_TRIPLES',
      'GpuCodegenError',
      'IMPLICIT_OFFSET_INTRINSICS',
      'LLVM_TOOL_PACKAGES',
      'LlvmToolError',
      'NATIVE_IMAGE_FORMAT',
      'RetargetError',
      'SHARED_ADDRESS_SPACE',
      'addImplicitGlobalOffset',
      'annotateKernel',
      'annotationsName',
      'compileGpuImage',
      'demangledIdentifier',
      'describeFailure',
      'deviceMathText',
      'emitGpuImage',
      'findKernels',
      'findLlvmTool',
      'globalOffsetPass',
      'gpuAotCompilerFor',
      'gpuRetargetPass',
      'gpuTripleOf',
      'isGpuAotTarget',
      'kernelCallingConv',
      'llcTriple',
      'localAccessorToSharedMemoryPass',
      'lowerLocalAccessors',
      'lowerSpirvBuiltins',
      'lowerSpirvBuiltinsPass',
      'parseBackendArgs',
      'prepareGpuModule',
      'requireLlvmTool',
      'retargetArch',
      'retargetModule',
      'retargetModuleInPlace',
      'runTool',
      'runToolSync',
      'syclCodegenPipeline',
      'unselectableIntrinsic',
    ]);
  });

  it('registers passes under kebab-case names', () => {
    expect([api.globalOffsetPass, api.localAccessorToSharedMemoryPass, api.gpuRetargetPass, api.lowerSpirvBuiltinsPass].map((p) => p.name)).toEqual([
      'globaloffset',
      'localaccessortosharedmemory',
      'gpu-retarget',
      'lower-spirv-builtins',
    ]);
  });
});

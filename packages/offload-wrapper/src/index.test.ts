import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@syclkit/offload-wrapper public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ADD_ON_IMAGES_SET',
      'ADD_ON_IMAGE_SET',
      'AOT_BACKENDS',
      'AotToolError',
      'BINARY_DESCRIPTOR_VERSION',
      'CONTAINER_LAYOUT',
      'CONTAINER_MAGIC',
      'CONTAINER_VERSION',
      'ContainerError',
      'ContainerReader',
      'ContainerWriter',
      'DEVICE_IMAGE_VERSION',
      'DPCPP_LLVM_SPIRV_OPTIONS',
      'GENERIC_TARGET',
      'ImageFormat',
      'OffloadKind',
      'SPIRV_VAL_TARGET_ENV',
      'TABLE_TRANSFORM_OPS',
      'WRAPPER_MODULE_ID',
      'WrapperError',
      'aotCompilerFor',
      'checkDeviceImage',
      'classifyDeviceCode',
      'defaultToolDirs',
      'descriptorImages',
      'detectImageFormat',
      'deviceImage',
      'diffReports',
      'displayProperties',
      'displayPropertyValue',
      'emitWrapperIR',
      'findLlvmSpirvTools',
      'findTool',
      'formatAspect',
      'formatDiff',
      'formatInspectReport',
      'formatTableTransform',
      'imageFormatName',
      'imageRequirements',
      'inspectContainer',
      'irForLlvmVersion',
      'keepIrCompiler',
      'llcCompiler',
      'llvmSpirvAvailable',
      'llvmSpirvCompiler',
      'offloadKindName',
      'packTables',
      'parseTableTransform',
      'readContainer',
      'readContainerFile',
      'repairTranslatorDebugInfo',
      'runTableTransforms',
      'validateSpirv',
      'wrapperModuleText',
      'writeContainer',
      'writeContainerFile',
    ]);
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

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
      'GENERIC_TARGET',
      'ImageFormat',
      'OffloadKind',
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
      'findTool',
      'formatAspect',
      'formatDiff',
      'formatInspectReport',
      'formatTableTransform',
      'imageFormatName',
      'imageRequirements',
      'inspectContainer',
      'inspectImage',
      'inspectKernel',
      'keepIrCompiler',
      'llcCompiler',
      'llvmSpirvCompiler',
      'lookupKeyHash',
      'offloadKindName',
      'packTables',
      'parseTableTransform',
      'readContainer',
      'readContainerFile',
      'runTableTransforms',
      'wrapperModuleText',
      'writeContainer',
      'writeContainerFile',
    ]);
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

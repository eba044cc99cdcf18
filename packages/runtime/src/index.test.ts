import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('runtime public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ADD_ON_IMAGES_SET',
      'ADD_ON_IMAGE_SET',
      'Device',
      'DeviceError',
      'EXPORTED_SYMBOLS_SET',
      'Handler',
      'IMPORTED_SYMBOLS_SET',
      'ProgramCache',
      'Queue',
      'REQUIREMENTS_SET',
      'RequirementEntryType',
      'RequirementsBuilder',
      'Runtime',
      'SPECIAL_SPEC_CONSTANTS_SET',
      'SPIRV_CAPABILITY_ASPECTS',
      'SyclError',
      'addImageRequirements',
      'binaryFromContainer',
      'binaryFromDescriptor',
      'checkJointMatrix',
      'checkJointMatrixMad',
      'checkKernelRequirements',
      'checkNdRangeForDevice',
      'decodeRequirementEntries',
      'deviceFromTarget',
      'deviceInFixedTargets',
      'deviceMeetsRequirement',
      'discardedFunctions',
      'encodeRequirementEntries',
      'errc',
      'exportedSymbols',
      'formatIpVersion',
      'formatSizes',
      'imageSpecConstants',
      'importedSymbols',
      'indexAddOnImages',
      'ipVersionOfTarget',
      'isEsimdImage',
      'isNdRange',
      'isRange',
      'isSyclError',
      'kernelEntries',
      'loadDeviceDescriptionFile',
      'matchBundle',
      'ndRange',
      'parseDeviceDescription',
      'parseIpVersion',
      'parseRange',
      'range',
      'rangeSize',
      'requirementEntries',
      'resolveAddOnImages',
      'simulatedJitBackend',
      'specConstantsKey',
      'targetNamesDevice',
    ]);
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

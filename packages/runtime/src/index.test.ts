import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('runtime public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'ADD_ON_IMAGES_SET',
      'ADD_ON_IMAGE_SET',
      'Device',
      'DeviceError',
      'Handler',
      'ProgramCache',
      'Queue',
      'REQUIREMENTS_SET',
      'RequirementEntryType',
      'RequirementsBuilder',
      'Runtime',
      'SPECIAL_SPEC_CONSTANTS_SET',
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
      'formatIpVersion',
      'formatSizes',
      'imageSpecConstants',
      'indexAddOnImages',
      'ipVersionOfTarget',
      'isEsimdImage',
      'isNdRange',
      'isRange',
      'isSyclError',
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

import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('post-link public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ADD_ON_IMAGES_SET',
        'ADD_ON_IMAGE_SET',
        'AddOnImageProcessor',
        'CONDITION_METADATA',
        'DependencyGraph',
        'PostLinkError',
        'REQUIREMENTS_SET',
        'RequirementEntryType',
        'SPEC_CONSTANTS_METADATA',
        'SpecConstantProcessor',
        'canBeImported',
        'checkExternalFunctions',
        'collectImageGlobals',
        'computeImageProperties',
        'computeImageRequirements',
        'computeSpecRequirements',
        'decodeRequirementsValue',
        'deviceIfGraphOptions',
        'deviceLibExtension',
        'deviceLibReqMask',
        'deviceRequirementEntries',
        'entryKey',
        'functionFeatures',
        'groupEntryPoints',
        'groupScope',
        'hasConditionalCalls',
        'imageFileNames',
        'isConditionalCallerDeclaration',
        'outputPrefix',
        'parseOutputSpec',
        'planSplit',
        'postLinkDiagnostics',
        'printBytes',
        'readAspectOperands',
        'requirementKey',
        'requirementsValue',
        'resolveDeviceIfForTarget',
        'runPostLink',
        'splitModule',
        'targetIncompatibility',
        'upstreamSourceKey',
        'usedAspectSet',

      ].sort(),
    );
  });
});

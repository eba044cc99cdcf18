import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('post-link public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'DependencyGraph',
        'PostLinkError',
        'aspectTableOf',
        'checkExternalFunctions',
        'collectImageGlobals',
        'computeImageProperties',
        'computeImageRequirements',
        'deviceLibExtension',
        'deviceLibReqMask',
        'deviceRequirementEntries',
        'entryKey',
        'entryPoints',
        'functionFeatures',
        'groupEntryPoints',
        'groupScope',
        'imageFileNames',
        'isEntryPoint',
        'isEsimdFunction',
        'isKernel',
        'isSyclExternal',
        'outputPrefix',
        'parseOutputSpec',
        'planSplit',
        'readAspectOperands',
        'requirementKey',
        'runPostLink',
        'splitModule',
        'targetIncompatibility',
        'upstreamSourceKey',
        'usedAspectSet',
      ].sort(),
    );
  });
});

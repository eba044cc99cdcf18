import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('aspect-propagation public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AspectSet',
        'cleanupSyclMetadata',
        'cleanupSyclMetadataPass',
        'recordAspectNames',
        'recordSyclAspectNamesPass',
        'POST_OPTIMIZATION',
        'PRE_OPTIMIZATION',
        'aspectPropagationDiagnostics',
        'demangle',
        'directAspectUses',
        'moduleWalkAnalysis',
        'walkModule',
        'propagateAspectsUsage',
        'syclPropagateAspectsUsage',
      ].sort(),
    );
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });

  it('exposes the registry entry under the name intel/llvm tests use', () => {
    expect(api.syclPropagateAspectsUsage.name).toBe('sycl-propagate-aspects-usage');
  });
});

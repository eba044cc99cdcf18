import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('sycl-conventions public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ModuleAspectTable',
        'SyclAttribute',
        'SyclMetadata',
        'aspectOperandConstant',
        'aspectOperandName',
        'aspectTableOf',
        'attachment',
        'debugNodeOf',
        'entryPoints',
        'fileOf',
        'isDINode',
        'isEntryPoint',
        'isEsimdBuiltin',
        'isEsimdFunction',
        'isGenericBuiltin',
        'isKernel',
        'isSpirvSyclBuiltin',
        'isSyclExternal',
        'kernelTypeName',
        'kernelsNamed',
        'typeinfoName',
        'readAspectTable',
        'readAspectValues',
      ].sort(),
    );
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

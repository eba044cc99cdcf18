import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('passes public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AOT_COMPILERS',
        'AOT_JOBS',
        'COMPILING',
        'aotFailure',
        'COMPILED',
        'CONTAINER',
        'EXPLAIN_FACTS',
        'IMAGE_PREFIXES',
        'aotPass',
        'builtinAnalyses',
        'builtinPasses',
        'builtinPresets',
        'builtinRegistry',
        'definesNothing',
        'explainFactsPass',
        'globalDcePass',
        'imageName',
        'noteNoUnusedGlobals',
        'offloadImagesText',
        'offloadPipelineText',
        'unusedGlobalsAnalysis',
        'wrapPass',
      ].sort(),
    );
  });
});

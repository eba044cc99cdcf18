import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('conformance public surface', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'BooleanExpressionError',
      'DEFAULT_RATCHET',
      'EnvironmentError',
      'ScoredFormatError',
      'ScriptError',
      'TIERS',
      'TierSpecError',
      'UsageError',
      'applySubstitutions',
      'checkRatchet',
      'createShimDir',
      'defaultCorpus',
      'defaultRepoRoot',
      'defaultSubstitutions',
      'evaluateBooleanExpression',
      'extractRunLines',
      'findLlvmBin',
      'formatRatchet',
      'isPassing',
      'main',
      'parseRatchet',
      'parseScored',
      'parseTestScript',
      'parseTierList',
      'runTest',
      'runTests',
      'selectTests',
      'substituteLine',
      'updateRatchet',
    ]);
  });
});

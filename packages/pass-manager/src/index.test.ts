import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('pass-manager public surface', () => {
  it('exports exactly these runtime names (types are checked by the compiler)', () => {
    expect(Object.keys(api).sort()).toEqual([
      'AnalysisManager',
      'DiagnosticError',
      'FlagError',
      'PassCrashError',
      'PassRegistry',
      'Pipeline',
      'PipelineError',
      'PreservedAnalyses',
      'allAnalysesOn',
      'applyPolicy',
      'createAdaptor',
      'createPipeline',
      'createRegistry',
      'defineAnalysis',
      'definePass',
      'diagnosticOf',
      'diagnosticToJSON',
      'didYouMean',
      'flag',
      'formatDiagnostic',
      'formatDiagnostics',
      'formatDiagnosticsJSON',
      'hasErrors',
      'isDiagnosticCode',
      'option',
      'parseDiagnosticFlags',
      'parsePipelineSyntax',
      'passManagerDiagnostics',
      'printIR',
      'sortDiagnostics',
      'subunitsOf',
      'suggest',
      'timePasses',
      'tracePassManager',
      'verifyAnalysisInvalidation',
      'verifyEach',
    ]);
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

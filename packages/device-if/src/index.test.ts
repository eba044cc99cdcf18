import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('device-if public surface', () => {
  it('exports exactly these names (types are erased at runtime)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'ConditionError',
        'ConditionOpcode',
        'ConditionalAspectsFormatError',
        'allAspectsCondition',
        'ambiguousArchitectureOperands',
        'andConditions',
        'anyArchitectureCondition',
        'architectureAspectsFromTable',
        'architectureCondition',
        'architectureOperand',
        'architectureOperandsOf',
        'aspectCondition',
        'conditionallyUsedAspectsEqual',
        'conditionsEqual',
        'constantConditionSequence',
        'createConditionNames',
        'decodeCondition',
        'deviceFacts',
        'encodeCondition',
        'evaluateCondition',
        'formatCondition',
        'fromConditionallyUsedAspectsOperands',
        'ifArchitectureIs',
        'ifDeviceHas',
        'isInt32',
        'normalizeCondition',
        'normalizedConditionKey',
        'notCondition',
        'orConditions',
        'propagateConditionalAspects',
        'simplifyConditionallyUsedAspects',
        'toConditionallyUsedAspectsOperands',
        'truncateArchitecture',
        'deviceIfDiagnostics',
        'Phase1Error',
        'conditionalCallOnDevicePass',
        'conditionalCallSite',
        'conditionalCallerForm',
        'decideCondition',
        'deviceConfigConditionNames',
        'phase1TargetView',
        'resolveConditionalCallsForTarget',
        'resolveDeviceIfPass',
        'rewriteConditionalCallers',
        'selectPhase1Clause',
        'targetArchitectureAspects',
        'targetDeviceFacts',
      ].sort(),
    );
  });

  it('has no default export', () => {
    expect('default' in api).toBe(false);
  });
});

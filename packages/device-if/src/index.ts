export {
  ConditionError,
  ConditionOpcode,
  conditionsEqual,
  constantConditionSequence,
  decodeCondition,
  encodeCondition,
  isInt32,
} from './condition.js';
export type { Condition, ConditionErrorCode, DecodeConditionOptions, EncodeConditionOptions } from './condition.js';

export {
  ambiguousArchitectureOperands,
  architectureOperand,
  architectureOperandsOf,
  truncateArchitecture,
} from './architecture.js';

export { decideCondition, deviceFacts, evaluateCondition } from './evaluate.js';
export type { DeviceFacts } from './evaluate.js';

export { createConditionNames, formatCondition } from './format.js';
export type { ConditionNames, ConditionNameTables } from './format.js';

export {
  allAspectsCondition,
  andConditions,
  anyArchitectureCondition,
  architectureCondition,
  aspectCondition,
  ifArchitectureIs,
  ifDeviceHas,
  notCondition,
  orConditions,
} from './builders.js';
export type { ArchitectureIsChain, DeviceHasChain } from './builders.js';

export { normalizeCondition, normalizedConditionKey } from './normalize.js';

export {
  ConditionalAspectsFormatError,
  architectureAspectsFromTable,
  conditionallyUsedAspectsEqual,
  fromConditionallyUsedAspectsOperands,
  simplifyConditionallyUsedAspects,
  toConditionallyUsedAspectsOperands,
} from './conditional-aspects.js';
export type {
  ArchitectureAspects,
  ConditionalAspectsPair,
  ConditionallyUsedAspects,
  ConditionallyUsedAspectsOperands,
  SimplifyConditionalAspectsOptions,
} from './conditional-aspects.js';

export { propagateConditionalAspects } from './conditional-propagation.js';
export type {
  AspectCallGraphCall,
  AspectCallGraphFunction,
  ConditionalAspectsSemantics,
  PropagateConditionalAspectsOptions,
} from './conditional-propagation.js';

export { conditionalCallSite, conditionalCallerForm } from './conditional-calls.js';
export type { ConditionalCallSite, ConditionalCallerForm } from './conditional-calls.js';

export { conditionalCallOnDevicePass, rewriteConditionalCallers } from './conditional-call-on-device.js';
export type {
  RewriteConditionalCallersOptions,
  RewriteConditionalCallersResult,
  RewrittenConditionalCaller,
} from './conditional-call-on-device.js';

export { resolveConditionalCallsForTarget, resolveDeviceIfPass } from './resolve.js';
export type {
  ConditionalCallOutcome,
  ConditionalCallResolution,
  ResolveConditionalCallsOptions,
  ResolvedConditionalCall,
} from './resolve.js';

export { deviceIfDiagnostics } from './diagnostics.js';
export type { DeviceIfDiagnosticCode } from './diagnostics.js';

export { deviceConfigConditionNames, targetArchitectureAspects, targetDeviceFacts } from './targets.js';
export type { TargetDeviceFacts, TargetFactsOptions } from './targets.js';

export { Phase1Error, phase1TargetView, selectPhase1Clause } from './phase1.js';
export type { Phase1TargetView } from './phase1.js';

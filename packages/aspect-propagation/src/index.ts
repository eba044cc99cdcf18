export { syclPropagateAspectsUsage } from './pass.js';
export { recordSyclAspectNamesPass, cleanupSyclMetadataPass, recordAspectNames, cleanupSyclMetadata } from './cleanup.js';
export { propagateAspectsUsage, PRE_OPTIMIZATION, POST_OPTIMIZATION } from './propagate.js';
export type { PropagateAspectsOptions, PropagateAspectsResult, PropagationRun } from './propagate.js';
export type { ConditionalSemantics, ConditionalSemanticsOption } from './conditional.js';
export { aspectPropagationDiagnostics } from './diagnostics.js';
export type { AspectPropagationDiagnosticCode } from './diagnostics.js';
export { AspectSet } from './aspect-set.js';
export { demangle } from './demangle.js';
export { directAspectUses } from './direct-uses.js';
export type {
  AspectUse,
  DirectAspectUsesOptions,
  FunctionAspectUses,
  FunctionMetadataAspectUse,
  InstructionAspectUse,
  InstructionMetadataAspectUse,
  SignatureAspectUse,
} from './direct-uses.js';
export { walkModule, moduleWalkAnalysis } from './module-walk.js';
export type { ModuleWalk } from './module-walk.js';

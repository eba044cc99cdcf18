export { functionFeatures, readAspectOperands } from './sycl-metadata.js';
export type { AspectOperand, FunctionFeatures, SubGroupSize } from './sycl-metadata.js';
export { DependencyGraph, collectImageGlobals } from './dependency-graph.js';
export type { DependencyGraphOptions } from './dependency-graph.js';
export { groupEntryPoints, groupScope, entryKey, upstreamSourceKey, requirementKey, usedAspectSet } from './grouping.js';
export type { SplitMode, RequirementPolicy, GroupScope, EntryGroup, EsimdKind, GroupingOptions } from './grouping.js';
export { planSplit, splitModule } from './split.js';
export type { SplitOptions, SplitImage, SplitPlan } from './split.js';
export { computeImageRequirements, checkExternalFunctions } from './requirements.js';
export type { ImageRequirements, NamedAspect, ExternalCheckResult, ExternalCheckWarning } from './requirements.js';
export { computeImageProperties, deviceRequirementEntries, canBeImported } from './properties.js';
export type { PropertyOptions, ImagePropertyInput } from './properties.js';
export { deviceLibReqMask, deviceLibExtension } from './devicelib.js';
export { targetIncompatibility } from './target-filter.js';
export type { Incompatibility, ImageTargetFacts } from './target-filter.js';
export { parseOutputSpec, outputPrefix, imageFileNames } from './output-names.js';
export type { OutputTableSpec, ImageFileNames } from './output-names.js';
export { runPostLink, postLinkPipelineText, postLinkRegistry, PostLinkError, printBytes } from './post-link.js';
export { ImageSet, ImageUnit, Slot, imageKind, imageSetKind } from './image-set.js';
export type { ImageOutput, ImageRow, ImageRole, ImageSetOptions, NewImage, ExtraPropertySet } from './image-set.js';
export {
  aspectFactsAnalysis,
  callGraphAnalysis,
  deviceIfPass,
  splitPass,
  deviceIfAddOnImagesPass,
  specConstantRequirementsPass,
  imageRequirementsPass,
  virtualFunctionDummiesPass,
  filterTargetsPass,
  imagePropertiesPass,
  emitIrPass,
  writeImageFilesPass,
  postLinkPasses,
  postLinkAnalyses,
  BITCODE_ENCODER,
  FILE_SINK,
  CODE_CELL,
  keptInput,
  tablesOf,
  enclosingImageSet,
} from './passes.js';
export type { ImageFileSink } from './passes.js';
export { postLinkDiagnostics } from './diagnostics.js';
export type { PostLinkDiagnosticCode } from './diagnostics.js';
export type {
  PostLinkOptions,
  PostLinkIO,
  PostLinkResult,
  PostLinkDiagnostic,
  PostLinkImageReport,
  ImageProcessor,
  ProcessorContext,
  ProcessedImage,
} from './post-link.js';
export {
  AddOnImageProcessor,
  hasConditionalCalls,
  isConditionalCallerDeclaration,
  deviceIfGraphOptions,
  resolveForTarget as resolveDeviceIfForTarget,
  ADD_ON_IMAGES_SET,
  ADD_ON_IMAGE_SET,
} from './device-if.js';
export {
  SpecConstantProcessor,
  computeSpecRequirements,
  requirementsValue,
  decodeRequirementsValue,
  REQUIREMENTS_SET,
  RequirementEntryType,
  CONDITION_METADATA,
  SPEC_CONSTANTS_METADATA,
} from './spec-constants.js';
export type { SpecConstantOptions, Requirement, ImageSpecRequirements } from './spec-constants.js';

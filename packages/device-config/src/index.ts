export { AspectTable, BUILTIN_ASPECTS, builtinAspectTable } from './aspects.js';
export type { AspectDefinition, AspectRef, AspectStatus } from './aspects.js';
export {
  ARCHITECTURES,
  architectureByName,
  architectureByValue,
  architectureForSyclTarget,
  architecturesForConditionOperand,
  decodeArchitecture,
  decodeIntelGpuIpVersion,
  encodeArchitecture,
  encodeIntelGpuIpVersion,
  formatArchitectureValue,
  syclTargetForArchitecture,
  truncateArchitectureToInt32,
} from './architectures.js';
export type { ArchitectureFamily, ArchitectureFields, ArchitectureInfo, IntelGpuIpVersion } from './architectures.js';
export { BUILTIN_TABLE_UPSTREAM_COMMIT, BUILTIN_TARGET_ENTRIES, oclocDeviceFor } from './builtin-targets.js';
export type { AotToolchainOption, EntrySource, TargetConfigEntry } from './config-entry.js';
export { BUILTIN_KNOWN_TARGETS } from './known-targets.js';
export type { Backend, KnownTarget, SimulatedDeviceTraits, TargetKind } from './known-targets.js';
export { DeviceConfig } from './config.js';
export type { ResolvedTarget, TargetDescription } from './config.js';
export { DeviceConfigFileError, applyDeviceConfigYaml, loadDeviceConfigFile } from './config-file.js';
export { loadYaml } from './yaml.js';
export type { Yaml } from './yaml.js';
export type { ConfigFileOptions, ConfigFileResult } from './config-file.js';
export { deviceConfigDiagnostics } from './diagnostics.js';
export type { DeviceConfigDiagnosticCode, FileLocation } from './diagnostics.js';
export {
  UnknownTargetError,
  aspectSupport,
  checkTargetRequirements,
  resolveTarget,
  subGroupSizeSupport,
  targetArchitecture,
  targetAspectValues,
  targetEntry,
  targetHasAspect,
  targetIsArchitecture,
  targetMatchesArchitectureOperand,
  targetMayHaveAspect,
  workGroupSizeSupport,
} from './queries.js';
export type { AspectQueryOptions, RequirementCheckOptions, Support, TargetRef, TargetRequirements, UnmetRequirement } from './queries.js';
export { formatMacroFlags, parseSyclTargets, selectAotTargets, syclTargetMacroName, syclTargetMacros } from './sycl-targets.js';
export type { AotTargetSelection, MacroDefinition, ParseSyclTargetsOptions, SyclTargetList } from './sycl-targets.js';
export { parseSyclTriple } from './triples.js';
export type { SyclTriple } from './triples.js';
export { deviceTraitMacros, deviceTraits, driverMacros } from './traits.js';
export type { DeviceTraits, DeviceTraitsOptions, TraitSemantics } from './traits.js';
export { deviceTraitsHeader } from './traits-header.js';
export type { TraitsHeaderOptions } from './traits-header.js';

export { PreservedAnalyses, allAnalysesOn } from './preserved.js';
export type { AnalysisRef } from './preserved.js';
export { subunitsOf } from './unit-kind.js';
export type { UnitKind, Subunits } from './unit-kind.js';
export { AnalysisManager, defineAnalysis } from './analysis.js';
export type { Analysis, AnalysisGetter, AnalysisEvent } from './analysis.js';
export { option, flag } from './options.js';
export type {
  OptionSpec,
  BooleanOption,
  IntegerOption,
  StringOption,
  StringListOption,
  EnumOption,
  OptionsSchema,
  OptionValue,
  OptionValues,
  FlagSpec,
  FlagsSchema,
} from './options.js';
export { definePass } from './pass.js';
export type { Pass, PassContext, PassEntry, PassEnv, PassRun, PassSpec, ParentUnit, PreservesDoc } from './pass.js';
export { Pipeline, createPipeline, createAdaptor } from './manager.js';
export type { Instrumentation, PassEvent, RunOptions, RunResult } from './manager.js';
export { PassRegistry, createRegistry } from './registry.js';
export type {
  PipelineNode,
  RegistryConfig,
  ParseOptions,
  BuildOptions,
  FlagValues,
  CommandLineFlag,
  DiagnosticCodeInfo,
} from './registry.js';
export { parsePipelineSyntax } from './pipeline-syntax.js';
export type { SyntaxNode, SyntaxOptions } from './pipeline-syntax.js';
export {
  applyPolicy,
  parseDiagnosticFlags,
  formatDiagnostic,
  formatDiagnostics,
  formatDiagnosticsJSON,
  diagnosticToJSON,
  sortDiagnostics,
  isDiagnosticCode,
  passManagerDiagnostics,
  diagnosticOf,
  hasErrors,
  DiagnosticError,
} from './diagnostics.js';
export type {
  Severity,
  SeverityOverride,
  Diagnostic,
  DiagnosticInput,
  DiagnosticNote,
  DiagnosticPolicy,
  DiagnosticCatalog,
  DiagnosticDescriptor,
  DiagnosticJSON,
  DebugLocation,
  SourceLocation,
  FormatOptions,
} from './diagnostics.js';
export { PipelineError, FlagError, PassCrashError } from './errors.js';
export { suggest, didYouMean } from './suggest.js';
export { timePasses, printIR, verifyEach, verifyAnalysisInvalidation, tracePassManager } from './instrumentation.js';
export type { PassTimer, TimingEntry, PrintIROptions } from './instrumentation.js';

export { generateModule, writeModule, generatorVersion, type GeneratedModule, type ModuleStats, type TextSink } from './generator.js';
export { defaultGeneratorOptions, resolveGeneratorOptions, OptionError, type GeneratorOptions } from './options.js';
export { generateToSize, writeModuleFile, type SizedGeneratorOptions, type SizedModule } from './output.js';
export {
  compareCommands,
  substitute,
  type CommandSpec,
  type CommandResult,
  type ComparisonResult,
  type HarnessOptions,
  type RatioResult,
  type Runner,
  type RunOutcome,
} from './harness.js';
export { createProcessRunner, detectMemoryProbe, type MemoryProbe } from './process-runner.js';
export { median, medianRatio, pairedRatios, growthExponent, describeGrowth } from './stats.js';
export { runCompare, type BenchmarkDefinition, type BenchmarkReport } from './benchmarks.js';
export { benchmarks } from './registry.js';
export { renderText, renderMarkdown } from './report.js';
export { countInstructions, callgrindArgv, parseCollected, renderCounts, type CountReport, type CountResult } from './instruction-count.js';
export { main } from './main.js';

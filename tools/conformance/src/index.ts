// The runner as a library (the CLI is dist/cli.js): lit-style parsing and substitution, corpus
// selection, the ratchet, and running tests.
export { main, defaultRepoRoot, defaultCorpus, DEFAULT_RATCHET } from './main.js';
export type { MainIO, MainContext } from './main.js';
export { parseTestScript, extractRunLines, ScriptError } from './script.js';
export type { TestScript, ScriptDirective, CommandDirective, SubstitutionDirective } from './script.js';
export { defaultSubstitutions, applySubstitutions, substituteLine } from './substitute.js';
export type { Substitution, SubstitutedCommand, TestPaths } from './substitute.js';
export { evaluateBooleanExpression, BooleanExpressionError } from './boolean-expression.js';
export { parseScored, parseTierList, selectTests, TIERS, ScoredFormatError, TierSpecError } from './scored.js';
export type { ScoredTest, Tier, Selection } from './scored.js';
export { parseRatchet, formatRatchet, checkRatchet, updateRatchet } from './ratchet.js';
export type { RatchetCheck, RatchetOutcome, RatchetRegression } from './ratchet.js';
export { findLlvmBin, createShimDir, EnvironmentError } from './toolchain.js';
export type { ShimOptions, ToolMap } from './toolchain.js';
export { runTest, isPassing } from './execute.js';
export type { Outcome, TestResult, CommandFailure, ExecuteOptions } from './execute.js';
export { runTests } from './run.js';
export type { RunPlan } from './run.js';
export { UsageError } from './args.js';

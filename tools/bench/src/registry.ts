/** The built-in benchmarks, in the order `list` shows them. */
import { parsePrint, postLinkSplit, propagate, type BenchmarkDefinition } from './benchmarks.js';
import { compileScaling, readScaling } from './scaling.js';

export const benchmarks: readonly BenchmarkDefinition[] = [parsePrint, propagate, postLinkSplit, compileScaling, readScaling];

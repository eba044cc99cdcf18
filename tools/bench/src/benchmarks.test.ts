import { describe, expect, it } from 'vitest';
import { parsePrintTargetFinding, type CaseReport } from './benchmarks.js';
import type { CommandResult, RatioResult } from './harness.js';

function command(label: string, peakMaxRssKb: number | null): CommandResult {
  const time = { median: 1, min: 1, max: 1, mean: 1 };
  return { label, argv: [], timesMs: [1], time, maxRssKb: [], medianMaxRssKb: peakMaxRssKb, peakMaxRssKb, cpuMs: [], cpu: null, failure: undefined };
}

function parsePrintCase(ratio: Partial<RatioResult>, oursRss: number | null, llvmRss: number | null): CaseReport {
  return {
    name: '10.3 MiB',
    input: { path: 'm.ll', bytes: 1, functions: 1, kernels: 1, generationMs: 0, origin: 'given', options: {} },
    comparison: {
      runs: 1,
      warmup: 0,
      commands: [command('syclkit opt -S', oursRss), command('llvm-16 opt -S', llvmRss)],
      ratios: [{ candidate: 'syclkit opt -S', baseline: 'llvm-16 opt -S', median: 1, ratios: [1], cpuMedian: null, ...ratio }],
    },
  };
}

describe('parsePrintTargetFinding', () => {
  it('is met only when the wall ratio is at most 1.5 and max RSS is at most 1.5x LLVM\'s', () => {
    expect(parsePrintTargetFinding(parsePrintCase({ median: 1.45 }, 165 * 1024, 110 * 1024))).toBe(
      'target (ratio <= 1.5, max RSS <= 1.5x LLVM 16): met (1.45x; max RSS 165.0 MiB vs 110.0 MiB (1.50x))',
    );
    expect(parsePrintTargetFinding(parsePrintCase({ median: 0.95 }, 166 * 1024, 110 * 1024))).toMatch(/: NOT met \(0\.95x; max RSS 166\.0 MiB vs 110\.0 MiB \(1\.51x\)\)$/);
  });

  it('is not met when the wall ratio is above 1.5, and shows the CPU-time ratio when measured', () => {
    expect(parsePrintTargetFinding(parsePrintCase({ median: 2.24, cpuMedian: 3.41 }, 120 * 1024, 114 * 1024))).toBe(
      'target (ratio <= 1.5, max RSS <= 1.5x LLVM 16): NOT met (2.24x, CPU time 3.41x; max RSS 120.0 MiB vs 114.0 MiB (1.05x))',
    );
  });

  it('says what was not measured instead of calling the target met', () => {
    expect(parsePrintTargetFinding(parsePrintCase({ median: 0.9 }, null, null))).toMatch(/: time met, memory not measured \(0\.90x; max RSS not measured\)$/);
    expect(parsePrintTargetFinding(parsePrintCase({ median: null, note: 'syclkit opt -S failed' }, null, null))).toBe(
      'target (ratio <= 1.5, max RSS <= 1.5x LLVM 16): n/a (syclkit opt -S failed)',
    );
  });
});

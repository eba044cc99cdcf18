import { describe, expect, it } from 'vitest';
import type { BenchmarkReport } from './benchmarks.js';
import { renderMarkdown, renderText } from './report.js';

const report: BenchmarkReport = {
  benchmark: 'parse-print',
  title: 'Parse and print',
  measures: 'ours vs llvm',
  date: '2026-01-02T03:04:05.000Z',
  environment: { node: 'v20', platform: 'linux-x64', cpu: 'CPU', cores: 2, memoryGiB: 8, maxRss: 'GNU time', llvmOpt: '/x/opt (LLVM 16.0.6)' },
  cases: [
    {
      name: '10.4 MiB',
      input: { path: '/c/m.ll', bytes: 10 * 1024 * 1024, functions: 100, kernels: 10, generationMs: 1500, origin: 'generated', options: {} },
      comparison: {
        runs: 3,
        warmup: 1,
        commands: [
          {
            label: 'syclkit opt -S',
            argv: ['node'],
            timesMs: [],
            time: { median: Number.NaN, min: Number.NaN, max: Number.NaN, mean: Number.NaN },
            maxRssKb: [],
            medianMaxRssKb: null,
            peakMaxRssKb: null,
            cpuMs: [],
            cpu: null,
            failure: { phase: 'warm-up', round: 1, message: "exit 1: unknown command 'opt'" },
          },
          {
            label: 'llvm-16 opt -S',
            argv: ['opt'],
            timesMs: [500, 520, 510],
            time: { median: 510, min: 500, max: 520, mean: 510 },
            maxRssKb: [100 * 1024],
            medianMaxRssKb: 100 * 1024,
            peakMaxRssKb: 100 * 1024,
            cpuMs: [450, 460, 440],
            cpu: { median: 450, min: 440, max: 460, mean: 450 },
            failure: undefined,
          },
        ],
        ratios: [{ candidate: 'syclkit opt -S', baseline: 'llvm-16 opt -S', median: null, ratios: [], cpuMedian: null, note: 'syclkit opt -S failed' }],
      },
    },
  ],
  findings: ['something measured'],
};

describe('renderText', () => {
  it('shows the failure of one command, the other command\'s times and memory, and an n/a ratio', () => {
    const text = renderText(report);
    expect(text).toContain("syclkit opt -S  FAILED in warm-up round 1: exit 1: unknown command 'opt'");
    expect(text).toMatch(/llvm-16 opt -S {2}510 ms\s+500 ms\s+520 ms\s+450 ms\s+100\.0 MiB/);
    expect(text).toContain('ratio syclkit opt -S / llvm-16 opt -S: n/a (syclkit opt -S failed)');
    expect(text).toContain('10.0 MiB, 100 functions, 10 kernels; generated in 1.500 s');
    expect(text).toContain('  - something measured');
  });
});

describe('renderMarkdown', () => {
  it('writes a dated heading and one table row per command', () => {
    const md = renderMarkdown(report);
    expect(md.split('\n')[0]).toBe('### parse-print — 2026-01-02 03:04 UTC');
    const rows = md.split('\n').filter((l) => l.startsWith('| 10.4 MiB |'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain("FAILED: exit 1: unknown command 'opt'");
    expect(rows[1]).toContain('| 510 ms | 500 ms | 520 ms | 450 ms | 100.0 MiB | baseline |');
  });
});

describe('ratios', () => {
  it('show the CPU-time ratio beside the wall-time ratio when both commands had CPU times', () => {
    const c = report.cases[0]!;
    const ok = { ...c.comparison.commands[1]!, label: 'syclkit opt -S' };
    const measured: BenchmarkReport = {
      ...report,
      cases: [{ ...c, comparison: { ...c.comparison, commands: [ok, c.comparison.commands[1]!], ratios: [{ candidate: 'syclkit opt -S', baseline: 'llvm-16 opt -S', median: 2.2, ratios: [2.2], cpuMedian: 3.4 }] } }],
    };
    expect(renderText(measured)).toContain('ratio syclkit opt -S / llvm-16 opt -S: 2.20x (CPU 3.40x)');
    expect(renderMarkdown(measured)).toContain('| 2.20x (CPU 3.40x) |');
    const wallOnly: BenchmarkReport = { ...measured, cases: [{ ...measured.cases[0]!, comparison: { ...measured.cases[0]!.comparison, ratios: [{ ...measured.cases[0]!.comparison.ratios[0]!, cpuMedian: null }] } }] };
    expect(renderText(wallOnly)).toMatch(/: 2\.20x\n/);
  });
});

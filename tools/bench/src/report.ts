/** Human-readable and markdown renderings of a benchmark report (JSON is the report itself). */
import type { BenchmarkReport, CaseReport } from './benchmarks.js';
import type { CommandResult, RatioResult } from './harness.js';
import { formatBytes, formatDuration, formatKilobytes } from './units.js';

function pad(cells: readonly string[][]): string[] {
  // A row's last cell is not padded, so it does not widen the column (long failure messages).
  const widths: number[] = [];
  for (const row of cells) row.forEach((cell, i) => i < row.length - 1 && (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

function timeCells(r: CommandResult): string[] {
  if (r.failure !== undefined) return [`FAILED in ${r.failure.phase} round ${r.failure.round}: ${r.failure.message}`];
  return [formatDuration(r.time.median), formatDuration(r.time.min), formatDuration(r.time.max), cpuCell(r), formatKilobytes(r.peakMaxRssKb)];
}

/** Median CPU time (user + system, all threads), or n/a. */
function cpuCell(r: CommandResult): string {
  return r.cpu === null ? 'n/a' : formatDuration(r.cpu.median);
}

/** `2.20x` wall, and `3.40x CPU` when CPU time was measured. */
function ratioText(r: RatioResult): string {
  if (r.median === null) return `n/a (${r.note})`;
  return r.cpuMedian === null ? `${r.median.toFixed(2)}x` : `${r.median.toFixed(2)}x (CPU ${r.cpuMedian.toFixed(2)}x)`;
}

function inputLine(c: CaseReport): string {
  const counts = Number.isNaN(c.input.functions) ? '' : `, ${c.input.functions} functions, ${c.input.kernels} kernels`;
  const origin =
    c.input.origin === 'given'
      ? 'given'
      : `${c.input.origin === 'cached' ? 'from cache, ' : ''}generated in ${formatDuration(c.input.generationMs)}`;
  return `input: ${c.input.path} (${formatBytes(c.input.bytes)}${counts}; ${origin})`;
}

export function renderText(report: BenchmarkReport): string {
  const lines: string[] = [];
  lines.push(`${report.benchmark}: ${report.title}`);
  lines.push(`measures: ${report.measures}`);
  const e = report.environment;
  lines.push(`host: ${e.cpu}, ${e.cores} cores, ${e.memoryGiB} GiB, node ${e.node}; max RSS and CPU: ${e.maxRss}; LLVM opt: ${e.llvmOpt}`);
  for (const c of report.cases) {
    lines.push('');
    lines.push(`[${c.name}] ${inputLine(c)}`);
    lines.push(`runs: ${c.comparison.runs} measured after ${c.comparison.warmup} warm-up, commands alternating`);
    const rows = [['command', 'median', 'min', 'max', 'CPU', 'max RSS'], ...c.comparison.commands.map((r) => [r.label, ...timeCells(r)])];
    lines.push(...pad(rows).map((l) => `  ${l}`));
    for (const r of c.comparison.ratios) lines.push(`  ratio ${r.candidate} / ${r.baseline}: ${ratioText(r)}`);
  }
  if (report.findings.length > 0) {
    lines.push('');
    lines.push('findings:');
    for (const f of report.findings) lines.push(`  - ${f}`);
  }
  return `${lines.join('\n')}\n`;
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A section to append to a results file: heading, environment, one table row per command. */
export function renderMarkdown(report: BenchmarkReport): string {
  const e = report.environment;
  const lines: string[] = [];
  lines.push(`### ${report.benchmark} — ${report.date.slice(0, 16).replace('T', ' ')} UTC`);
  lines.push('');
  lines.push(`${report.measures}`);
  lines.push('');
  lines.push(`Host: ${e.cpu}, ${e.cores} cores, ${e.memoryGiB} GiB, node ${e.node}. Max RSS and CPU time: ${e.maxRss}. LLVM opt: ${e.llvmOpt}.`);
  lines.push('');
  lines.push('| case | input | command | median | min | max | CPU (median) | max RSS | ratio (median) |');
  lines.push('|---|---|---|---|---|---|---|---|---|');
  for (const c of report.cases) {
    const input = `${formatBytes(c.input.bytes)}${Number.isNaN(c.input.functions) ? '' : `, ${c.input.functions} fn, ${c.input.kernels} kernels`}`;
    for (const r of c.comparison.commands) {
      const ratio = c.comparison.ratios.find((x) => x.candidate === r.label);
      const ratioCell = ratio === undefined ? 'baseline' : ratioText(ratio);
      const cells =
        r.failure !== undefined
          ? [`FAILED: ${r.failure.message}`, '', '', '', '']
          : [formatDuration(r.time.median), formatDuration(r.time.min), formatDuration(r.time.max), cpuCell(r), formatKilobytes(r.peakMaxRssKb)];
      lines.push(`| ${[c.name, input, r.label, ...cells, ratioCell].map(escapeCell).join(' | ')} |`);
    }
  }
  if (report.findings.length > 0) {
    lines.push('');
    for (const f of report.findings) lines.push(`- ${f}`);
  }
  return `${lines.join('\n')}\n\n`;
}

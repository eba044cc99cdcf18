import { builtinAspectTable } from '@syclkit/device-config';
import { formatDiagnostics, parseDiagnosticFlags } from '@syclkit/pass-manager';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import type { CliIO } from '../io.js';
import { unitInputs } from '../read-module.js';
import { passRegistry } from '../passes.js';
import { DEFAULT_MIDDLE_PIPELINE, prepareProgram } from '../driver/compile.js';
import { knownDriverCodes } from '../driver/diagnostics.js';
import { diagnosticsJSON, splitDiagnosticFlags } from '../driver/cli-common.js';
import { planSplitModes, type SplitPlan } from '../driver/split-plan.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'fsycl-targets', kind: 'value', joinedOnly: true, valueName: '<list>', help: 'Targets (default spir64); for device targets, how many images each mode filters out' },
  { name: 'fsycl-fixed-targets', kind: 'value', joinedOnly: true, valueName: '<list>', help: 'As for syclkit compile' },
  CONFIG_FILE_OPTION,
  { name: 'passes', kind: 'value', joinedOnly: true, valueName: '<pipeline>', help: `The middle of the pipeline, as for syclkit compile (default '${DEFAULT_MIDDLE_PIPELINE}')` },
  { name: 'bundling', kind: 'value', joinedOnly: true, valueName: 'design|upstream', help: "design (default) or intel/llvm's grouping, as for syclkit compile" },
  { name: 'W', kind: 'value', repeatable: true, valueName: '<diag>', help: 'Diagnostics, as for syclkit compile (written joined: -Wno-<code>)' },
  { name: 'json', help: 'Print the plan as JSON' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit split-plan <tu.ll|tu.bc|->... [-fsycl-targets=<list>] [--json]

Runs the front half of 'syclkit compile' (device_if lowering, aspect propagation, link, the middle
pipeline) and then, for each -fsycl-device-code-split mode (per_kernel, per_source, off, auto),
plans the split the way post-link would: the images with their kernels, requirements, function
and instruction counts and sizes (text IR), the functions copied into more than one image, and how
many images each device target of -fsycl-targets would filter out. Ends with a recommendation:
the finest split whose copied code stays within a tenth of the program, else off. Writes nothing.

options (one dash or two: -json, --json):
${formatOptions(OPTIONS)}`;

function aspectName(value: number): string {
  return builtinAspectTable.nameOf(value) ?? `aspect ${value}`;
}

/** The plan as text. */
export function formatSplitPlan(plan: SplitPlan): string {
  const lines: string[] = [`split plan for ${plan.kernels.length} kernel${plan.kernels.length === 1 ? '' : 's'} (bundling: ${plan.bundling})`, ''];
  const header = ['mode', 'images', 'instructions', 'bytes', 'copied functions', 'copied instructions'];
  const rows = plan.modes.map((m) => [m.mode, String(m.images.length), String(m.instructions), String(m.bytes), String(m.duplicated.length), String(m.duplicatedInstructions)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const render = (cols: readonly string[]): string => cols.map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  lines.push(render(header), ...rows.map(render));
  for (const m of plan.modes) {
    lines.push('', `${m.mode}:`);
    for (const image of m.images) {
      const needs = [...image.aspects.map(aspectName), ...(image.subGroupSize === undefined ? [] : [`sub-group size ${image.subGroupSize}`]), ...(image.workGroupSize === undefined ? [] : [`work-group size ${image.workGroupSize.join('x')}`])];
      lines.push(`  image ${image.id}: ${image.kernels.join(', ')}`);
      lines.push(`    needs ${needs.join(', ') || 'nothing optional'}; ${image.functions} functions, ${image.instructions} instructions, ${image.bytes} bytes`);
    }
    for (const d of m.duplicated) lines.push(`  copied: ${d.name} (${d.copies} copies, ${d.instructions} instructions each)`);
    for (const t of m.targets) lines.push(`  ${t.target}: ${t.filtered} of ${t.images} images filtered out (the target lacks what they need)`);
  }
  lines.push('', `recommended: -fsycl-device-code-split=${plan.recommendation.mode} (${plan.recommendation.reason})`);
  return lines.join('\n') + '\n';
}

export const command: Command = {
  name: 'split-plan',
  summary: 'For each -fsycl-device-code-split mode: the images, copied functions, sizes, and a recommendation',
  async run(argv, io: CliIO) {
    const { rest, diagnosticFlags } = splitDiagnosticFlags(argv);
    const args = parseArgs(rest, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    if (args.positionals.length === 0) throw new UsageError('no input files');
    const bundling = choiceOf(args, 'bundling', ['design', 'upstream'] as const) ?? 'design';
    const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
    const registry = passRegistry();
    const flags = [...diagnosticFlags, ...(args.values.get('W') ?? []).map((w) => `-W${w}`)];
    const { policy, diagnostics } = parseDiagnosticFlags(flags, { knownCodes: knownDriverCodes(registry.diagnosticCodes().keys()) });
    const prepared = prepareProgram({
      units: await unitInputs(args.positionals, io),
      ...(valueOf(args, 'fsycl-targets') === undefined ? {} : { targets: valueOf(args, 'fsycl-targets')! }),
      ...(valueOf(args, 'fsycl-fixed-targets') === undefined ? {} : { fixedTargets: valueOf(args, 'fsycl-fixed-targets')! }),
      config,
      registry,
      middle: valueOf(args, 'passes') ?? DEFAULT_MIDDLE_PIPELINE,
      explainInfo: false,
      policy,
    });
    prepared.log.addApplied(diagnostics);
    const plan = prepared.ok && prepared.linked !== undefined ? planSplitModes(prepared.linked, prepared.kernels, { policy: bundling, targets: prepared.compiled, config, log: prepared.log }) : undefined;
    const json = args.flags.has('json');
    if (json) io.stdout.write(`${JSON.stringify({ ...(plan ?? {}), ok: plan !== undefined, diagnostics: diagnosticsJSON(prepared.log.items) }, null, 2)}\n`);
    else {
      if (prepared.log.items.length > 0) io.stderr.write(formatDiagnostics(prepared.log.items));
      if (plan !== undefined) io.stdout.write(formatSplitPlan(plan));
    }
    return plan === undefined || prepared.log.errorCount > 0 ? 1 : 0;
  },
};

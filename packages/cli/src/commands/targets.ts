import {
  DeviceConfig,
  formatArchitectureValue,
  loadDeviceConfigFile,
  type TargetDescription,
} from '@syclkit/device-config';
import { formatDiagnostic } from '@syclkit/pass-manager';
import { formatOptions, parseArgs, suggest, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import type { CliIO } from '../io.js';

/** `-fsycl-device-config-file=<file.yaml>`, shared with `syclkit macros`. */
export const CONFIG_FILE_OPTION: OptionSpec = {
  name: 'fsycl-device-config-file',
  kind: 'value',
  joinedOnly: true,
  valueName: '<file.yaml>',
  help: 'Add or override targets from a device configuration file (DeviceConfigFile.md format)',
};

const OPTIONS: readonly OptionSpec[] = [
  { name: 'json', help: 'Print JSON instead of a table' },
  CONFIG_FILE_OPTION,
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit targets [options] [<target>...]

Lists the targets -fsycl-targets accepts: name, aliases, architecture, aspects and sub-group
sizes from the device configuration (intel/llvm's built-in table, plus any configuration file).
Names, aliases and triples given as arguments select which targets to list (default: all).
A target without a configuration entry guarantees no aspect. Configuration keys that
-fsycl-targets does not accept (x86_64) are listed last, marked "config only".

options:
${formatOptions(OPTIONS)}`;

/**
 * The built-in configuration, or the one a -fsycl-device-config-file gives; the file's warnings
 * go to stderr. Bad files throw a DeviceConfigFileError, which prints as file:line:col.
 */
export function configFromFile(path: string | undefined, io: CliIO): DeviceConfig {
  if (path === undefined) return DeviceConfig.builtin();
  if (path === '') throw new CliError(`option '-${CONFIG_FILE_OPTION.name}' needs a file name`);
  const { config, diagnostics } = loadDeviceConfigFile(DeviceConfig.builtin(), path);
  for (const diagnostic of diagnostics) io.stderr.write(formatDiagnostic(diagnostic, { showCodes: false }));
  return config;
}

function describeAspects(target: TargetDescription): string {
  const entry = target.entry;
  if (entry === undefined) return '(no configuration entry: none guaranteed)';
  if (entry.aspects.length === 0) return entry.maySupportOtherAspects ? '(none guaranteed; may support any)' : '(none)';
  const listed = entry.aspects.join(',');
  return entry.maySupportOtherAspects ? `${listed} (+ may support others)` : listed;
}

function table(targets: readonly TargetDescription[]): string {
  const rows = targets.map((t) => [
    t.selectable ? t.name : `${t.name} (config only)`,
    t.aliases.length === 0 ? '-' : t.aliases.join(','),
    t.architecture?.name ?? '-',
    t.entry === undefined || t.entry.subGroupSizes.length === 0 ? '-' : t.entry.subGroupSizes.join(','),
    describeAspects(t),
  ]);
  const header = ['TARGET', 'ALIASES', 'ARCHITECTURE', 'SUB-GROUPS', 'ASPECTS'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

function toJson(target: TargetDescription): unknown {
  const entry = target.entry;
  return {
    name: target.name,
    aliases: target.aliases,
    kind: target.kind,
    selectable: target.selectable,
    triple: target.triple ?? null,
    offloadArch: target.offloadArch ?? null,
    aot: target.aot,
    architecture:
      target.architecture === undefined
        ? null
        : { name: target.architecture.name, value: formatArchitectureValue(target.architecture.value), family: target.architecture.family },
    entry:
      entry === undefined
        ? null
        : {
            aspects: entry.aspects,
            maySupportOtherAspects: entry.maySupportOtherAspects,
            subGroupSizes: entry.subGroupSizes,
            aotToolchain: entry.aotToolchain,
            aotToolchainOptions: Object.fromEntries(entry.aotToolchainOptions.map((option) => [option.name, option.value])),
            source: entry.source.kind === 'builtin' ? 'builtin' : `${entry.source.location.file}:${entry.source.location.line}:${entry.source.location.column}`,
          },
    simulated: target.simulated ?? null,
  };
}

export const command: Command = {
  name: 'targets',
  summary: 'List the known device targets (name, aliases, architecture, aspects, sub-group sizes)',
  async run(argv, io) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
    let targets = config.describeAll();
    if (args.positionals.length > 0) {
      targets = args.positionals.map((name) => {
        const description = config.describe(name);
        if (description === undefined) {
          const hint = suggest(name, config.selectableNames());
          throw new CliError(`unknown target '${name}'${hint === undefined ? '' : `; did you mean '${hint}'?`}`);
        }
        return description;
      });
    }
    io.stdout.write(args.flags.has('json') ? `${JSON.stringify(targets.map(toJson), null, 2)}\n` : table(targets));
    return 0;
  },
};

import {
  deviceTraitsHeader,
  driverMacros,
  formatMacroFlags,
  parseSyclTargets,
  type TraitSemantics,
} from '@syclkit/device-config';
import { formatDiagnostic } from '@syclkit/pass-manager';
import { formatOptions, parseArgs, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import { writeFileAtomic } from '../io.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';

const SEMANTICS: readonly TraitSemantics[] = ['design', 'intel-llvm'];

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'fsycl-targets',
    kind: 'value',
    joinedOnly: true,
    valueName: '<list>',
    help: 'Comma-separated targets: device names, aliases or triples (default: spir64, as with -fsycl alone)',
  },
  CONFIG_FILE_OPTION,
  {
    name: 'trait-semantics',
    kind: 'value',
    joinedOnly: true,
    valueName: '<design|intel-llvm>',
    help: 'How aspect-trait macros are computed (default: design; see above)',
  },
  { name: 'traits-header', kind: 'value', joinedOnly: true, valueName: '<file>', help: 'Also write the C++ header that turns the macros into sycl::any_device_has/all_devices_have' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit macros [-fsycl-targets=<list>] [options]

Prints the preprocessor definitions a driver passes to the host and device compilations for a
-fsycl-targets list, one -D<NAME>=<value> per line: __SYCL_TARGET_<NAME>__ for each target with a
fixed architecture (DeviceIf.md), then __SYCL_ANY_DEVICE_HAS_ANY_ASPECT__ or
__SYCL_ANY_DEVICE_HAS_<aspect>__, and __SYCL_ALL_DEVICES_HAVE_<aspect>__ (DeviceAspectTraitDesign.md).

Trait semantics:
  design      Aspects compared by number (aliases count as their enumerator); a target without a
              configuration entry makes every aspect possible and none guaranteed.
  intel-llvm  What intel/llvm's driver does: aspect names compared as written; targets without an
              entry are ignored unless no target has one.

An unknown target or a bad configuration file is an error (exit status 1); repeated targets are
dropped with a warning.

options:
${formatOptions(OPTIONS)}`;

export const command: Command = {
  name: 'macros',
  summary: 'Print the -D flags a driver passes for a -fsycl-targets list',
  async run(argv, io) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    if (args.positionals.length > 0) throw new CliError(`unexpected argument '${args.positionals[0]}'; targets go in -fsycl-targets=<list>`);
    const semantics = valueOf(args, 'trait-semantics') ?? 'design';
    if (!(SEMANTICS as readonly string[]).includes(semantics)) {
      throw new CliError(`invalid value '${semantics}' for '-trait-semantics'; expected ${SEMANTICS.join(' or ')}`);
    }
    const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
    const { targets, diagnostics } = parseSyclTargets(config, valueOf(args, 'fsycl-targets') ?? 'spir64');
    const errors = diagnostics.filter((d) => d.severity === 'error');
    for (const warning of diagnostics.filter((d) => d.severity !== 'error')) io.stderr.write(`syclkit macros: ${formatDiagnostic(warning, { showCodes: false })}`);
    if (errors.length > 0) throw new CliError(errors.map((d) => d.message).join('\nsyclkit macros: error: '));
    if (targets.length === 0) throw new CliError('no SYCL targets given');
    const lines = formatMacroFlags(driverMacros(config, targets, { semantics: semantics as TraitSemantics }));
    const header = valueOf(args, 'traits-header');
    if (header !== undefined) writeFileAtomic(header, deviceTraitsHeader({ aspectTable: config.aspectTable }));
    io.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return 0;
  },
};

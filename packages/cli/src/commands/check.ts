import { UnknownTargetError, type DeviceConfig } from '@syclkit/device-config';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { deviceFromTarget, loadDeviceDescriptionFile, type Device } from '@syclkit/runtime';
import { formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import type { CliIO } from '../io.js';
import { builtinDevices, cellOf, compatibilityMatrix, containerKernels, formatMatrix, matrixJSON, type CompatibilityMatrix } from '../driver/check.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';
import { openFatBinary } from '../driver/fat-binary-input.js';
import { resolveKernelName } from '../driver/kernel-name.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'devices', kind: 'value', repeatable: true, valueName: '<list>', help: 'Devices to check: built-in targets or aliases, comma-separated (default: every built-in device)' },
  { name: 'device-file', kind: 'value', repeatable: true, valueName: '<file.yaml>', help: 'A device description file (hardware the built-in table lacks) (repeatable)' },
  { name: 'require', kind: 'value', repeatable: true, valueName: '<kernel>@<device>', help: 'Exit with status 1 unless <kernel> (e.g. _ZTS13ScaleVelocity, or ScaleVelocity) can run on <device> (repeatable): a CI gate' },
  { name: 'no-build', help: 'Only the submission check; skip the simulated JIT build of the chosen image' },
  CONFIG_FILE_OPTION,
  { name: 'json', help: 'Print JSON: devices, kernels, one result per pair, the --require verdicts' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit check <app.fatbin> [<lib.fatbin>...] [--devices <list>|--device-file <file>]... [--require <kernel>@<device>]... [--json]

Answers "which kernel runs where, and why not" without hardware. For every kernel of the fat
binary and every device, the runtime (@syclkit/runtime) picks the bundle and image as it would at
submission, runs the submission check, and builds the image with the simulated JIT compiler (which
fails when speculative compilation of another kernel in the same image hits a missing feature).
A refusal is reported with the runtime's own error, e.g.
'kernel_not_supported: Required aspect fp64 is not supported on the device'.

With several fat binaries (an application and the device libraries it imports from, made with
'syclkit compile --device-library'), all are registered in the order given: a kernel's imported
SYCL_EXTERNAL functions are linked from the images that export them, and what those images
require counts in the check. The kernels of every binary are checked (a library may have none).

The text form numbers the kernels (K1...) and gives each distinct refusal a footnote; '--' marks
pairs for which the binary has no image the device can take at all (--json has every message).
Kernels are named as in the binary (e.g. _ZTS9Integrate); in --require, the class name alone
(Integrate) also works. Exit status: 0, or 1 when a --require pair cannot run.

options (one dash or two: -json, --json):
${formatOptions(OPTIONS)}`;

function deviceNamed(spelling: string, config: DeviceConfig): Device {
  try {
    return deviceFromTarget(spelling, config);
  } catch (error) {
    if (error instanceof UnknownTargetError) throw new CliError(error.message);
    throw error;
  }
}

function deviceFor(name: string, devices: Device[], config: DeviceConfig): Device {
  const known = devices.find((d) => d.name === name || d.targetNames().includes(name));
  if (known !== undefined) return known;
  const device = deviceNamed(name, config);
  devices.push(device);
  return device;
}

export const command: Command = {
  name: 'check',
  summary: "Kernel x device compatibility matrix of a fat binary, with the runtime's reason for every refusal (a CI gate)",
  async run(argv, io: CliIO) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    if (args.positionals.length === 0) throw new UsageError('no fat binary given');
    const files = args.positionals;
    const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
    const listed = (args.values.get('devices') ?? []).flatMap((v) => v.split(',')).filter((v) => v !== '');
    const deviceFiles = args.values.get('device-file') ?? [];
    const devices: Device[] = [...listed.map((name) => deviceNamed(name, config)), ...deviceFiles.map((path) => loadDeviceDescriptionFile(path, { config }))];
    if (listed.length === 0 && deviceFiles.length === 0) devices.push(...builtinDevices(config));

    const readers: ContainerReader[] = [];
    try {
      for (const file of files) readers.push(openFatBinary(file));
      const kernels = containerKernels(readers);
      const requires = (args.values.get('require') ?? []).map((spec) => {
        const at = spec.lastIndexOf('@');
        if (at <= 0 || at === spec.length - 1) throw new UsageError(`--require needs <kernel>@<device>, got '${spec}'`);
        return { spec, kernel: resolveKernelName(spec.slice(0, at), kernels, { prefix: '--require: ', missing: files.length === 1 ? 'the binary has no kernel' : 'the binaries have no kernel' }), device: deviceFor(spec.slice(at + 1), devices, config) };
      });
      const matrix: CompatibilityMatrix = compatibilityMatrix(readers, devices, { config, build: !args.flags.has('no-build') });
      const verdicts = requires.map((r) => ({ ...r, cell: cellOf(matrix, r.kernel, r.device.name)! }));
      if (args.flags.has('json')) {
        const json = {
          ...(matrixJSON(matrix, files) as object),
          required: verdicts.map((v) => ({ kernel: v.kernel, device: v.device.name, ok: v.cell.ok, ...(v.cell.ok ? {} : { errc: v.cell.errc, message: v.cell.message }) })),
        };
        io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      } else {
        io.stdout.write(formatMatrix(matrix, files.join(', ')));
      }
      let failed = 0;
      for (const v of verdicts) {
        if (v.cell.ok) continue;
        failed++;
        io.stderr.write(`syclkit check: error: required ${v.kernel} on ${v.device.name}, which refuses it: ${v.cell.errc}: ${v.cell.message}\n`);
      }
      return failed > 0 ? 1 : 0;
    } finally {
      for (const reader of readers) reader.close();
    }
  },
};

import { existsSync, statSync } from 'node:fs';
import { AspectTable, UnknownTargetError, type DeviceConfig } from '@syclkit/device-config';
import { ContainerReader } from '@syclkit/offload-wrapper';
import {
  Runtime,
  SyclError,
  deviceFromTarget,
  loadDeviceDescriptionFile,
  ndRange,
  parseRange,
  type Device,
  type KernelLaunch,
  type NdRange,
  type Range,
} from '@syclkit/runtime';
import { formatOptions, parseArgs, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import type { CliIO } from '../io.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';
import { openFatBinary } from '../driver/fat-binary-input.js';
import { containerKernels } from '../driver/check.js';
import { kernelInContainers } from '../driver/kernel-name.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'kernel', kind: 'value', valueName: '<name>', help: 'The kernel to submit (e.g. _ZTS13ScaleVelocity, or ScaleVelocity) (required)' },
  { name: 'device', kind: 'value', valueName: '<target|file>', help: 'A device target (intel_gpu_pvc, an alias, ...) or a device description file (.yaml, .yml, .json) (required)' },
  { name: 'range', kind: 'value', valueName: '<sizes>', help: 'Global range: parallel_for over 1024, 64x64, 8,8,8 (default: single_task)' },
  { name: 'local', kind: 'value', valueName: '<sizes>', help: 'Work-group size: parallel_for over nd_range(range, local)' },
  { name: 'semantics', kind: 'value', joinedOnly: true, valueName: 'design|intel-llvm', help: 'design (default) checks fixed_target; intel-llvm does not, as the real runtime' },
  { name: 'aspect', kind: 'value', repeatable: true, valueName: '<name>=<value>', help: "Name an aspect value, e.g. a fixed target's: -aspect intel_gpu_pvc=1000 (repeatable)" },
  CONFIG_FILE_OPTION,
  { name: 'json', help: 'Print the launch as JSON' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit run <app.fatbin> [<lib.fatbin>...] -kernel <name> -device <target|file> [-range <sizes> [-local <sizes>]]

Submits a kernel of a fat-binary container (syclkit wrap) to a simulated device, as the DPC++
runtime does: it picks the bundle for the device (its AOT bundle, else ${'spir64'}), the image that
defines the kernel and its add-on images, checks the kernel's requirements against the device,
and builds the program with the simulated JIT compiler, which fails on any function that uses a
feature the device lacks.

With several fat binaries (an application and the device libraries it imports from), all are
registered in the order given: the SYCL_EXTERNAL functions the kernel's images import are taken
from images that export them (the bundle that fits the device best, binaries in the order given,
transitively), what those images require is checked too, and their code is linked into the program.

Prints one line saying which bundle and image ran. When the device cannot run the kernel it
prints '<errc>: <message>' (e.g. 'kernel_not_supported: Required aspect fp64 is not supported on
the device') and exits with status 1.

options:
${formatOptions(OPTIONS)}`;

/** A device from a description file (an existing file, or a .yaml/.yml/.json name) or a target. */
function loadDevice(spec: string, config: DeviceConfig): Device {
  const isFile = existsSync(spec) ? statSync(spec).isFile() : /\.(ya?ml|json)$/i.test(spec);
  if (isFile) return loadDeviceDescriptionFile(spec, { config });
  try {
    return deviceFromTarget(spec, config);
  } catch (error) {
    if (error instanceof UnknownTargetError) throw new CliError(`${error.message} (and no device description file of that name)`);
    throw error;
  }
}

/** The built-in aspect table plus the `-aspect name=value` pairs. */
function aspectTable(base: AspectTable, pairs: readonly string[]): AspectTable {
  if (pairs.length === 0) return base;
  const added = pairs.map((pair) => {
    const match = /^([A-Za-z_][A-Za-z0-9_.-]*)=(-?\d+)$/.exec(pair);
    if (match === null) throw new CliError(`-aspect needs <name>=<value>, got '${pair}'`);
    return { name: match[1]!, value: Number(match[2]), status: 'current' as const };
  });
  try {
    return AspectTable.fromDefinitions([...base.definitions, ...added]);
  } catch (error) {
    throw new CliError(`-aspect: ${(error as Error).message}`);
  }
}

function submission(args: ReturnType<typeof parseArgs>): Range | NdRange | undefined {
  const global = valueOf(args, 'range');
  const local = valueOf(args, 'local');
  if (local !== undefined && global === undefined) throw new CliError('-local needs -range (the global range of the nd_range)');
  try {
    if (global === undefined) return undefined;
    const range = parseRange(global, '-range');
    return local === undefined ? range : ndRange(range, parseRange(local, '-local'));
  } catch (error) {
    if (error instanceof SyclError) throw new CliError(error.message);
    throw error;
  }
}

function describe(launch: KernelLaunch): string {
  const parts = [`${launch.kernel} ran on ${launch.device.name} from bundle ${launch.bundle}, image ${launch.image}`];
  if (launch.fellBackFrom !== undefined) parts.push(`(its image ${launch.fellBackFrom.image} in bundle ${launch.fellBackFrom.bundle} is empty)`);
  if (launch.addOnImages.length > 0) {
    parts.push(`with add-on images ${launch.addOnImages.map((addOn) => `${addOn.image} (${addOn.definitions ? 'definitions' : 'stubs'})`).join(', ')}`);
  }
  if (launch.importedImages.length > 0) {
    const uses = launch.importedImages.map((use) => `${use.image} of ${use.binary} (${use.symbols.join(', ')})`);
    parts.push(`${launch.addOnImages.length > 0 ? 'and' : 'with'} imported image${uses.length === 1 ? '' : 's'} ${uses.join(', ')}`);
  }
  return `${parts.join(' ')}: ${launch.workItems} work-item${launch.workItems === 1 ? '' : 's'}, program of ${launch.program.functions.length} function${launch.program.functions.length === 1 ? '' : 's'}${launch.program.discarded.length > 0 ? ` (${launch.program.discarded.length} discarded by specialization constants)` : ''}`;
}

function toJson(launch: KernelLaunch, table: AspectTable): unknown {
  const r = launch.requirements;
  return {
    kernel: launch.kernel,
    device: launch.device.name,
    binary: launch.binary,
    bundle: launch.bundle,
    match: launch.match,
    image: launch.image,
    fellBackFrom: launch.fellBackFrom ?? null,
    addOnImages: launch.addOnImages,
    importedImages: launch.importedImages,
    requirements: {
      aspects: r.aspects.map((value) => table.nameOf(value) ?? value),
      fixedTargets: r.fixedTargets.map((list) => list.map((value) => table.nameOf(value) ?? value)),
      subGroupSizes: r.subGroupSizes,
      workGroupSizes: r.workGroupSizes.map((wg) => wg.sizes.map((size) => (size <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(size) : size.toString()))),
      jointMatrix: r.jointMatrix,
      jointMatrixMad: r.jointMatrixMad,
    },
    workItems: launch.workItems,
    program: {
      backend: launch.program.backend,
      kernels: launch.program.kernels,
      functions: launch.program.functions,
      discarded: launch.program.discarded,
      unresolved: launch.program.unresolved,
      inspected: launch.program.inspected,
    },
  };
}

export const command: Command = {
  name: 'run',
  summary: 'Submit a kernel of a fat binary to a simulated device: bundle and image choice, requirement checks, JIT build',
  async run(argv, io: CliIO) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    if (args.positionals.length === 0) throw new CliError('no fat binary given');
    const kernel = valueOf(args, 'kernel');
    if (kernel === undefined || kernel === '') throw new CliError('-kernel <name> is required');
    const deviceSpec = valueOf(args, 'device');
    if (deviceSpec === undefined || deviceSpec === '') throw new CliError('-device <target|file> is required');
    const semantics = valueOf(args, 'semantics') ?? 'design';
    if (semantics !== 'design' && semantics !== 'intel-llvm') throw new CliError(`-semantics must be design or intel-llvm, got '${semantics}'`);
    const range = submission(args);

    const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
    const table = aspectTable(config.aspectTable, args.values.get('aspect') ?? []);
    const device = loadDevice(deviceSpec, config);
    const readers: ContainerReader[] = [];
    try {
      for (const file of args.positionals) readers.push(openFatBinary(file));
      const runtime = new Runtime({ config, aspectTable: table, semantics });
      for (const reader of readers) runtime.registerFatBinary(reader);
      let launch: KernelLaunch;
      try {
        launch = runtime.launch(kernelInContainers(readers, kernel, { kernels: () => containerKernels(readers) }), device, range);
      } catch (error) {
        if (!(error instanceof SyclError)) throw error;
        io.stderr.write(`${error.render()}\n`);
        return 1;
      }
      io.stdout.write(args.flags.has('json') ? `${JSON.stringify(toJson(launch, table), null, 2)}\n` : `${describe(launch)}\n`);
      return 0;
    } finally {
      for (const reader of readers) reader.close();
    }
  },
};

import { formatDiagnostics, parseDiagnosticFlags } from '@syclkit/pass-manager';
import { builtinAspectTable } from '@syclkit/device-config';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec, type ParsedArgs } from '../args.js';
import { CliError, type Command } from '../command.js';
import { closeSync, openSync, readSync } from 'node:fs';
import { isArchive, isElf } from '@syclkit/objects';
import { unitInputs, type UnitInput } from '../read-module.js';
import type { CliIO } from '../io.js';
import { SPLIT_MODES, type DeviceCodeSplit } from '../driver/compile.js';
import { diagnosticsJSON, splitDiagnosticFlags } from '../driver/cli-common.js';
import { knownDriverCodes } from '../driver/diagnostics.js';
import { compileFatObject, linkProgram, resolveInputs, type DeviceCompileOptions, type LinkResult } from '../driver/link.js';
import { DEFAULT_HOST_TRIPLE } from '../driver/link-inputs.js';
import { createProgress } from '../driver/progress.js';
import { passRegistry } from '../passes.js';
import { formatImageSummary } from './compile.js';
import { DEVICE_OBJ_KINDS } from '../driver/device-code.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';

/** Options of the device compile that `link` (and `compile -c`/`-fsycl-link`) pass on. */
export const DEVICE_OPTIONS: readonly OptionSpec[] = [
  { name: 'fsycl-targets', kind: 'value', joinedOnly: true, valueName: '<list>', help: 'Targets to compile the device code for (default spir64)' },
  { name: 'fsycl-fixed-targets', kind: 'value', joinedOnly: true, valueName: '<list>', help: 'All device code runs only on these targets' },
  { name: 'fsycl-device-code-split', kind: 'value', joinedOnly: true, valueName: 'per_kernel|per_source|off|auto', help: 'Minimum split of kernels into images (default auto; per_source with -fno-sycl-rdc)' },
  CONFIG_FILE_OPTION,
  { name: 'fsycl-device-obj', kind: 'value', joinedOnly: true, valueName: 'spirv|llvmir', help: 'What the images of spir64 and Intel targets are: SPIR-V (llvm-spirv) or the device IR; default $SYCLKIT_DEVICE_OBJ, else as compile' },
  { name: 'aot', kind: 'value', repeatable: true, valueName: '<backend>|<target>=<backend>', help: 'AOT step per target, overriding -fsycl-device-obj: ir, llvm-spirv or llc (repeatable)' },
  { name: 'fsycl-allow-device-image-dependencies', help: 'Device code dynamic linking: calls to functions no input defines are imported at run time' },
  { name: 'bundling', kind: 'value', joinedOnly: true, valueName: 'design|upstream', help: 'Bundle kernels by requirements (design, default) or as intel/llvm does (upstream)' },
  { name: 'no-explain-info', help: "Leave out the facts 'syclkit explain' reads" },
  { name: 'W', kind: 'value', repeatable: true, valueName: '<diag>', help: 'Diagnostics: -Werror, -Wno-<code>, ...' },
];

const OPTIONS: readonly OptionSpec[] = [
  { name: 'o', kind: 'value', valueName: '<file>', help: 'The executable (or, with -fsycl-link, the fat object) to write (required)' },
  { name: 'fsycl-link', help: 'Link the device code only: a fat object holding the linked device images (the design\'s dev_image.o); the final link uses them as they are' },
  { name: 'fno-sycl-rdc', help: "Link each translation unit's device code alone (per_source images); a SYCL_EXTERNAL call across units is an error" },
  { name: 'fsycl-rdc', help: 'Link all device code together (the default)' },
  { name: 'host', kind: 'value', joinedOnly: true, valueName: '<triple>', help: `Host triple of the objects (default ${DEFAULT_HOST_TRIPLE})` },
  { name: 'linker-arg', kind: 'value', repeatable: true, valueName: '<arg>', help: "Pass <arg> to the host link (the C compiler driver; e.g. --linker-arg=-lm) (repeatable)" },
  ...DEVICE_OPTIONS,
  { name: 'v', help: 'Print the archive members linked and the registered images' },
  { name: 'json', help: 'Print a JSON report (members, images, diagnostics) on stdout' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit link <a.o|lib.a|tu.ll>... -o <app> [options]
       syclkit link -fsycl-link <a.o|lib.a>... -o <dev_image.o> [options]

Links a SYCL program from fat objects ('syclkit compile -c'), static libraries of fat objects
(made with ar or llvm-ar) and plain host objects, as the DPC++ driver's link step does:

  unbundle         the device IR of every fat object (clang-offload-bundler layout); from each
                   static library only the members that define something the program needs
                   (device symbols the linked device code uses, kernels the host refers to, host
                   symbols), searched again until nothing changes
  check            every function or variable the device code uses is defined by some input;
                   every kernel the host code refers to (its sycl::_V1::detail::KernelInfo<K>
                   symbols) has a device image
  device code      linked and compiled as 'syclkit compile' does (all of it together, or each
                   unit alone with -fno-sycl-rdc), then the wrapper module (clang-offload-wrapper's
                   descriptor and registration functions) compiled with LLVM's llc
  executable       the host objects, static libraries, wrapper objects and a registration stub
                   (standing in for the SYCL runtime's __sycl_register_lib) linked by the system
                   C compiler (cc, or $SYCLKIT_CC); when no host object defines main, link adds one
                   that prints the registered images

Fat objects from -fsycl-link or 'compile -c -fno-sycl-rdc' hold linked device images
(bundle sycl-spir64_image-unknown-unknown): the final link uses them as they are.
'syclkit check', 'inspect', 'explain' and 'run' read the executable's descriptors.

Errors name the file and what is missing; nothing is written when there is one.

options (one dash or two):
${formatOptions(OPTIONS)}`;

/** The device-compile options of parsed arguments. */
export function deviceCompileOptions(args: ParsedArgs, io: CliIO, diagnosticFlags: readonly string[]): DeviceCompileOptions {
  const split = valueOf(args, 'fsycl-device-code-split');
  if (split !== undefined && !Object.hasOwn(SPLIT_MODES, split)) throw new UsageError(`invalid value '${split}' for -fsycl-device-code-split; expected per_kernel|per_source|off|auto`);
  const bundling = valueOf(args, 'bundling');
  if (bundling !== undefined && bundling !== 'design' && bundling !== 'upstream') throw new UsageError(`invalid value '${bundling}' for --bundling; expected design|upstream`);
  const registry = passRegistry();
  const parsed = parseDiagnosticFlags([...diagnosticFlags, ...(args.values.get('W') ?? []).map((w) => `-W${w}`)], { knownCodes: knownDriverCodes(registry.diagnosticCodes().keys()) });
  const aot = new Map<string, string>();
  for (const value of args.values.get('aot') ?? []) {
    const eq = value.indexOf('=');
    const [target, backend] = eq < 0 ? ['*', value] : [value.slice(0, eq), value.slice(eq + 1)];
    if (target === '' || backend === '') throw new UsageError(`--aot needs <backend> or <target>=<backend>, got '${value}'`);
    aot.set(target, backend);
  }
  const targets = valueOf(args, 'fsycl-targets');
  const fixed = valueOf(args, 'fsycl-fixed-targets');
  const deviceObj = choiceOf(args, 'fsycl-device-obj', DEVICE_OBJ_KINDS);
  return {
    ...(deviceObj === undefined ? {} : { deviceObj }),
    ...(targets === undefined ? {} : { targets }),
    ...(fixed === undefined ? {} : { fixedTargets: fixed }),
    ...(split === undefined ? {} : { split: split as DeviceCodeSplit }),
    ...(bundling === undefined ? {} : { bundling }),
    config: configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io),
    registry,
    aot,
    explainInfo: !args.flags.has('no-explain-info'),
    allowDeviceImageDependencies: args.flags.has('fsycl-allow-device-image-dependencies'),
    policy: parsed.policy,
  };
}

function linkReportJSON(result: LinkResult): unknown {
  return {
    output: result.ok ? result.output : null,
    ok: result.ok,
    members: result.members,
    suppliedMain: result.suppliedMain,
    bundles: (result.report?.bundles ?? []).map((b) => ({ target: b.target, images: b.images.map((i) => ({ name: i.name, kernels: i.kernels, empty: i.empty, size: i.size })) })),
    diagnostics: diagnosticsJSON(result.diagnostics.flatMap((d) => d.items)),
  };
}

/** Prints a link's diagnostics and report; returns the exit status. */
export function finishLink(result: LinkResult, args: ParsedArgs, io: CliIO): number {
  if (args.flags.has('json')) io.stdout.write(`${JSON.stringify(linkReportJSON(result), null, 2)}\n`);
  else {
    const items = result.diagnostics.flatMap((d) => d.items);
    if (items.length > 0) io.stderr.write(formatDiagnostics(items));
  }
  if (!result.ok) return 1;
  if (!args.flags.has('json') && args.flags.has('v')) {
    for (const m of result.members) io.stdout.write(`linked ${m.file} (defines ${m.because})\n`);
    if (result.report !== undefined) io.stdout.write(formatImageSummary(result.report, (value) => builtinAspectTable.nameOf(value) ?? `aspect ${value}`));
    if (result.suppliedMain) io.stdout.write(`no host object defines main: ${result.output} reports the registered images when run\n`);
  }
  return 0;
}

/** `compile -c`: one fat object per input (one input with -o). */
export async function compileToFatObjects(args: ParsedArgs, io: CliIO, diagnosticFlags: readonly string[]): Promise<number> {
  const output = valueOf(args, 'o');
  if (args.positionals.length === 0) throw new UsageError('no input files');
  if (args.positionals.length > 1) throw new UsageError('-c takes one translation unit per command (one fat object per -o)');
  if (output === undefined) throw new UsageError('no output file: give -o <tu.o>');
  const device = deviceCompileOptions(args, io, diagnosticFlags);
  const hostObject = valueOf(args, 'host-object');
  const host = valueOf(args, 'host');
  const result = await compileFatObject({
    input: args.positionals[0]!,
    output,
    ...(hostObject === undefined ? {} : { hostObject }),
    ...(host === undefined ? {} : { hostTriple: host }),
    noRdc: args.flags.has('fno-sycl-rdc'),
    device,
  });
  if (result.compile !== undefined && result.compile.diagnostics.items.length > 0) io.stderr.write(formatDiagnostics(result.compile.diagnostics.items));
  return result.compile === undefined || result.compile.ok ? 0 : 1;
}

export const command: Command = {
  name: 'link',
  summary: 'Link fat objects and static libraries into an executable that registers its device images (or, with -fsycl-link, a device-linked fat object)',
  async run(argv, io: CliIO) {
    const { rest, diagnosticFlags } = splitDiagnosticFlags(argv);
    const args = parseArgs(rest, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const output = valueOf(args, 'o');
    if (args.positionals.length === 0) throw new UsageError('no input files');
    if (output === undefined) throw new UsageError('no output file: give -o <app>');
    if (args.flags.has('fno-sycl-rdc') && args.flags.has('fsycl-rdc')) throw new UsageError('-fsycl-rdc and -fno-sycl-rdc contradict each other');
    const host = valueOf(args, 'host');
    const progress = createProgress(io, 'syclkit link');
    let result: LinkResult;
    try {
      result = await linkProgram({
        inputs: args.positionals,
        output,
        deviceLinkOnly: args.flags.has('fsycl-link'),
        noRdc: args.flags.has('fno-sycl-rdc'),
        ...(host === undefined ? {} : { hostTriple: host }),
        device: deviceCompileOptions(args, io, diagnosticFlags),
        linkerArgs: args.values.get('linker-arg') ?? [],
        onStep: (step) => progress.step(step),
      });
    } finally {
      progress.done();
    }
    return finishLink(result, args, io);
  },
};

/** `compile -fsycl-link`: the device link of `link -fsycl-link`. */
export async function deviceLinkFromCompile(args: ParsedArgs, io: CliIO, diagnosticFlags: readonly string[]): Promise<number> {
  const output = valueOf(args, 'o');
  if (args.positionals.length === 0) throw new UsageError('no input files');
  if (output === undefined) throw new UsageError('no output file: give -o <dev_image.o>');
  const host = valueOf(args, 'host');
  const result = await linkProgram({
    inputs: args.positionals,
    output,
    deviceLinkOnly: true,
    noRdc: args.flags.has('fno-sycl-rdc'),
    ...(host === undefined ? {} : { hostTriple: host }),
    device: deviceCompileOptions(args, io, diagnosticFlags),
  });
  return finishLink(result, args, io);
}

/**
 * The translation units of a `compile` whose inputs include fat objects or static libraries: their
 * device IR (archive members as the link would choose them), after the device link's symbol check.
 */
export async function compileUnits(paths: readonly string[], io: CliIO, args: ParsedArgs): Promise<UnitInput[]> {
  const objects = paths.filter((p) => p !== '-' && isObjectOrArchive(p));
  if (objects.length === 0) return unitInputs(paths, io);
  if (paths.includes('-')) throw new UsageError("standard input ('-') cannot be mixed with object files");
  const resolved = resolveInputs(paths, {
    hostTriple: valueOf(args, 'host') ?? DEFAULT_HOST_TRIPLE,
    noRdc: false,
    dynamic: args.flags.has('fsycl-allow-device-image-dependencies') || args.flags.has('device-library'),
    checkKernels: false,
  });
  if (resolved.imageObjects.length > 0) throw new CliError(`${resolved.imageObjects[0]!.file}: holds device images linked already (-fsycl-link or -fno-sycl-rdc); give it to 'syclkit link' instead`);
  return resolved.deviceUnits.map((u) => ({ file: u.file, text: u.text }));
}

function isObjectOrArchive(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const n = readSync(fd, head, 0, 8, 0);
    return isElf(head.subarray(0, n)) || isArchive(head.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

import type { DeviceConfig } from '@syclkit/device-config';
import { FormatError } from '@syclkit/formats';
import {
  AOT_BACKENDS,
  ContainerWriter,
  GENERIC_TARGET,
  WrapperError,
  aotCompilerFor,
  emitWrapperIR,
  packTables,
  type AotCompiler,
  type Bundle,
  type DeviceImage,
  type PackInput,
} from '@syclkit/offload-wrapper';
import { formatOptions, parseArgs, suggest, UsageError, valueOf, type OptionSpec, type ParsedArgs } from '../args.js';
import { CliError, type Command } from '../command.js';
import { writeFileAtomic, type CliIO } from '../io.js';
import { CONFIG_FILE_OPTION, configFromFile } from './targets.js';

/** Options that apply to the tables after them, until given again (clang-offload-wrapper style). */
const SEQUENCED = ['target', 'aot', 'compile-opts', 'link-opts'] as const;

const OPTIONS: readonly OptionSpec[] = [
  { name: 'target', kind: 'value', joinedOnly: true, repeatable: true, valueName: '<target>', help: `Bundle target of the tables that follow: ${GENERIC_TARGET} (the default) for the generic table, a device name (intel_gpu_pvc, ...) for an AOT table` },
  { name: 'aot', kind: 'value', joinedOnly: true, repeatable: true, valueName: '<backend>', help: `AOT step for the rows of the tables that follow: ${AOT_BACKENDS.join(', ')} (default ir: the device IR is the image)` },
  { name: 'compile-opts', kind: 'value', joinedOnly: true, repeatable: true, valueName: '<options>', help: 'Compile options recorded for the images of the tables that follow' },
  { name: 'link-opts', kind: 'value', joinedOnly: true, repeatable: true, valueName: '<options>', help: 'Link options recorded for the images of the tables that follow' },
  { name: 'o', kind: 'value', valueName: '<app.fatbin>', help: 'Output container (required)' },
  { name: 'emit-ir', kind: 'value', valueName: '<wrapper.ll>', help: 'Also write the wrapper module clang-offload-wrapper would emit, as LLVM IR' },
  { name: 'host', kind: 'value', joinedOnly: true, valueName: '<triple>', help: 'Target triple of the wrapper module (default x86_64-unknown-linux-gnu)' },
  { name: 'desc-name', kind: 'value', joinedOnly: true, valueName: '<name>', help: 'Name the descriptor @.sycl_offloading.<name> and make it external' },
  { name: 'emit-reg-funcs', kind: 'value', joinedOnly: true, valueName: '<true|false>', help: 'Emit the (un)registration functions in the wrapper module (default true)' },
  { name: 'j', kind: 'value', valueName: '<n>', help: 'AOT compilations to run at once (default 1)' },
  CONFIG_FILE_OPTION,
  { name: 'v', help: 'Print what each table contributed' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit wrap [-target=<t>] [-aot=<backend>] <file.table> [[-target=<t>] <file.table>]... -o <app.fatbin> [-emit-ir <wrapper.ll>]

Wraps sycl-post-link tables into a fat-binary container: one bundle per target (${GENERIC_TARGET} for the
generic SPIR-V table, the device name for each AOT table), one image per row with its code, offload
entries (the Symbols file) and property sets (the Properties file). Rows whose Code file is empty or
an empty module were filtered out for the target: they are kept as empty images with their
properties and are never compiled. Options before a table apply to it and to the tables after it.
Relative paths in tables are read from the working directory.

options:
${formatOptions(OPTIONS)}`;

/** Target strings the runtime recognises even without a device-configuration entry. */
const RUNTIME_TARGETS = ['spir', 'spir64', 'spir64_x86_64', 'spir64_gen', 'spir64_fpga', 'nvptx64', 'amdgcn', 'native_cpu', 'llvm_nvptx64', 'llvm_amdgcn'];

function checkTarget(target: string, config: DeviceConfig): void {
  if (RUNTIME_TARGETS.includes(target) || config.describe(target) !== undefined) return;
  const hint = suggest(target, [...RUNTIME_TARGETS, ...config.selectableNames()]);
  throw new UsageError(`unknown target '${target}'${hint === undefined ? '' : `; did you mean '${hint}'?`}`);
}

function parseBoolean(name: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new UsageError(`option '-${name}' takes true or false, got '${value}'`);
}

/** Library errors without a file become `syclkit wrap: error: …`; located ones print as they are. */
function userError(error: unknown): unknown {
  if (error instanceof WrapperError && error.file === undefined) return new CliError(error.reason);
  if (error instanceof FormatError && error.location === undefined) return new CliError(error.reason);
  return error;
}

function planInputs(args: ParsedArgs, config: DeviceConfig): PackInput[] {
  const current: Record<(typeof SEQUENCED)[number], string | undefined> = { target: undefined, aot: undefined, 'compile-opts': undefined, 'link-opts': undefined };
  let pendingSince: string | undefined;
  const compilers = new Map<string, AotCompiler>();
  const inputs: PackInput[] = [];
  for (const item of args.items) {
    if (item.kind === 'option') {
      if ((SEQUENCED as readonly string[]).includes(item.name)) {
        current[item.name as (typeof SEQUENCED)[number]] = item.value;
        pendingSince ??= `-${item.name}=${item.value ?? ''}`;
      }
      continue;
    }
    const target = current.target ?? GENERIC_TARGET;
    checkTarget(target, config);
    const backend = current.aot ?? 'ir';
    const key = `${backend}\0${target}`;
    let compiler = compilers.get(key);
    if (compiler === undefined) {
      try {
        compiler = aotCompilerFor(backend, target, { config });
      } catch (error) {
        throw userError(error);
      }
      compilers.set(key, compiler);
    }
    inputs.push({
      table: item.value,
      target,
      compiler,
      ...(current['compile-opts'] === undefined ? {} : { compileOptions: current['compile-opts'] }),
      ...(current['link-opts'] === undefined ? {} : { linkOptions: current['link-opts'] }),
    });
    pendingSince = undefined;
  }
  if (inputs.length === 0) throw new UsageError('no input tables: give at least one <file.table>');
  if (pendingSince !== undefined) throw new UsageError(`${pendingSince} comes after the last table and applies to none`);
  return inputs;
}

async function wrap(argv: readonly string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, OPTIONS);
  if (args.flags.has('help')) {
    io.stdout.write(HELP);
    return 0;
  }
  const output = valueOf(args, 'o');
  if (output === undefined || output === '') throw new UsageError('no output file: give -o <app.fatbin>');
  const jobsText = valueOf(args, 'j') ?? '1';
  if (!/^[1-9]\d*$/.test(jobsText)) throw new UsageError(`option '-j' takes a positive number, got '${jobsText}'`);
  const registrationFunctions = parseBoolean('emit-reg-funcs', valueOf(args, 'emit-reg-funcs') ?? 'true');
  const irPath = valueOf(args, 'emit-ir');
  const descriptorName = valueOf(args, 'desc-name');
  const host = valueOf(args, 'host');
  const config = configFromFile(valueOf(args, CONFIG_FILE_OPTION.name), io);
  const inputs = planInputs(args, config);

  // Images stream into the container as they are produced; the wrapper IR needs them all, so they
  // are kept only when -emit-ir asks for it.
  let writer: ContainerWriter;
  try {
    writer = ContainerWriter.toFile(output);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot write '${output}': ${code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message}`);
  }
  const bundles = new Map<string, DeviceImage[]>();
  try {
    const packed = await packTables(
      inputs,
      (image) => {
        writer.addImage(image);
        if (irPath !== undefined) {
          const list = bundles.get(image.target) ?? [];
          list.push(image);
          bundles.set(image.target, list);
        }
      },
      { jobs: Number(jobsText), onWarning: (message) => io.stderr.write(`syclkit wrap: warning: ${message}\n`) },
    );
    if (irPath !== undefined) {
      const descriptor = { bundles: [...bundles].map(([target, images]): Bundle => ({ target, images })) };
      const ir = emitWrapperIR(descriptor, {
        registrationFunctions,
        ...(host === undefined ? {} : { host }),
        ...(descriptorName === undefined ? {} : { descriptorName }),
      });
      writeFileAtomic(irPath, ir);
    }
    const summary = writer.finish();
    if (args.flags.has('v')) {
      for (const table of packed) {
        io.stderr.write(`${table.table}: ${table.images} image${table.images === 1 ? '' : 's'} for ${table.target}${table.empty > 0 ? ` (${table.empty} empty)` : ''}\n`);
      }
      io.stderr.write(`${output}: ${summary.bundles} bundle${summary.bundles === 1 ? '' : 's'}, ${summary.images} image${summary.images === 1 ? '' : 's'}, ${summary.size} bytes\n`);
    }
  } catch (error) {
    writer.abort();
    throw userError(error);
  }
  return 0;
}

export const command: Command = {
  name: 'wrap',
  summary: 'Wrap post-link tables into a fat-binary container, one bundle per target (clang-offload-wrapper)',
  run: wrap,
};

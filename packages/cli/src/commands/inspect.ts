import { diffReports, extractImages, formatDiff, formatInspectReport, inspectContainer, inspectKernel, withSpirvDetails, type InspectReport } from '@syclkit/offload-wrapper';
import { formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import { kernelInContainers } from '../driver/kernel-name.js';
import { openFatBinary } from '../driver/fat-binary-input.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'json', help: 'Print JSON instead of text' },
  { name: 'properties', help: 'Also list every property value (text output)' },
  { name: 'kernel', kind: 'value', valueName: '<name>', help: 'Only the images of this kernel (its name or class name); reads the index and those images only' },
  { name: 'diff', help: 'Compare two containers: <before.fatbin> <after.fatbin>' },
  { name: 'exit-code', help: 'With -diff, exit with status 1 when the containers differ' },
  { name: 'verify', help: 'Also read every image (with -kernel: its images) and check its CRC-32 (listing reads only SPIR-V images)' },
  { name: 'extract', kind: 'value', valueName: '<dir>', help: 'Write every non-empty image to <dir>/<image name>.<ext> (.spv, .ptx, .hsaco, .ll, .bc), like clang-offload-extract' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit inspect [options] <app.fatbin>
       syclkit inspect -kernel <name> [options] <app.fatbin>
       syclkit inspect -extract <dir> <app.fatbin>
       syclkit inspect -diff [options] <before.fatbin> <after.fatbin>

Summarizes a fat-binary container written by syclkit compile or wrap: its bundles (one per
target), and for each image its format and size, kernels (offload entries), requirements (aspects
by name, required sub-group and work-group sizes, compile target), add-on images, and whether it is
empty (filtered out for the target); for a SPIR-V image also the module's version, capabilities and
entry points. With -kernel, only the images that define that kernel, found through the
container's index without reading the other images. With -extract, writes each non-empty image to
a file named after it, with the extension of its format, so vendor tools can read it (spirv-dis,
spirv-val, llvm-dis, ptxas). With -diff, says what changed between two builds: bundles and images
appearing or vanishing, code changes, kernels moving, gaining or losing aspects or required sizes,
or becoming empty.

options:
${formatOptions(OPTIONS)}`;

function report(path: string, verify: boolean, kernel?: string, spirv = false): InspectReport {
  const reader = openFatBinary(path);
  try {
    if (kernel === undefined) {
      if (verify) reader.verify();
      const listing = inspectContainer(reader);
      return spirv ? withSpirvDetails(listing, reader) : listing;
    }
    const found = kernelInContainers(reader, kernel);
    const images = reader.lookup('entry', found);
    if (verify) for (const image of images) reader.readImageData(image);
    const listing = inspectKernel(reader, found);
    return spirv ? withSpirvDetails(listing, reader, images) : listing;
  } finally {
    reader.close();
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export const command: Command = {
  name: 'inspect',
  summary: 'Summarize a fat-binary container, or compare two builds with -diff',
  async run(argv, io) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const json = args.flags.has('json');
    const verify = args.flags.has('verify');
    const kernel = valueOf(args, 'kernel');
    if (kernel === '') throw new UsageError('-kernel needs a kernel name');
    if (args.flags.has('diff')) {
      if (args.values.has('extract')) throw new UsageError('-extract writes the images of one container; it does not combine with -diff');
      if (kernel !== undefined) throw new UsageError('-kernel does not apply with -diff');
      if (args.positionals.length !== 2) throw new UsageError(`-diff compares two containers, got ${args.positionals.length} file${args.positionals.length === 1 ? '' : 's'}`);
      const diff = diffReports(report(args.positionals[0]!, verify), report(args.positionals[1]!, verify));
      io.stdout.write(json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiff(diff));
      return args.flags.has('exit-code') && !diff.identical ? 1 : 0;
    }
    if (args.flags.has('exit-code')) throw new UsageError('-exit-code only applies with -diff');
    if (args.positionals.length !== 1) throw new UsageError(`expected one container, got ${args.positionals.length}`);
    const extract = valueOf(args, 'extract');
    if (extract !== undefined) {
      if (kernel !== undefined) throw new UsageError('-extract writes every image; it does not combine with -kernel');
      const reader = openFatBinary(args.positionals[0]!);
      try {
        if (verify) reader.verify();
        const { written, skipped } = extractImages(reader, extract);
        if (json) io.stdout.write(`${JSON.stringify({ directory: extract, written: written.map(({ path, ...rest }) => ({ ...rest, file: path })), empty: skipped }, null, 2)}\n`);
        else {
          for (const image of written) io.stdout.write(`${image.path}  (${image.bundle}, ${plural(image.size, 'byte')})\n`);
          io.stdout.write(`${plural(written.length, 'image')} written to ${extract}${skipped.length === 0 ? '' : `; ${plural(skipped.length, 'empty image')} (filtered out, no code) not written`}\n`);
        }
      } finally {
        reader.close();
      }
      return 0;
    }
    const result = report(args.positionals[0]!, verify, kernel, true);
    io.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : formatInspectReport(result, { properties: args.flags.has('properties') }));
    return 0;
  },
};

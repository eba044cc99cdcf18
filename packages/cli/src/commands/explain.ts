import { closeSync, openSync, readSync } from 'node:fs';
import { CONTAINER_MAGIC, ContainerReader } from '@syclkit/offload-wrapper';
import { formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from '../args.js';
import type { Command } from '../command.js';
import type { CliIO } from '../io.js';
import { FactsIndex } from '../driver/facts.js';
import { answerExplain, answerJSON, factsFromContainer, factsFromUnits, formatAnswer, type FactsSource } from '../driver/explain.js';
import { resolveKernelName } from '../driver/kernel-name.js';
import { irTextOf } from '../read-module.js';
import { isElfPath, openFatBinary } from '../driver/fat-binary-input.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'kernel', kind: 'value', valueName: '<name>', help: 'The kernel (e.g. _ZTS13ScaleVelocity, or ScaleVelocity) (required)' },
  { name: 'aspect', kind: 'value', valueName: '<name|value>', help: 'The aspect (e.g. fp64 or 6) (required)' },
  { name: 'target', kind: 'value', valueName: '<bundle>', help: 'Fat binary: the bundle whose image to read (default spir64, else the first with the kernel)' },
  { name: 'json', help: 'Print the explanation as JSON' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit explain <app.fatbin | tu.ll...> --kernel <k> --aspect <a> [--target <bundle>] [--json]
('-' reads the fat binary or a translation unit from standard input)

Says why a kernel needs an aspect: the call chain from the kernel to the instruction that uses it
(e.g. 'fpext float to double': a float promoted to double), with source locations when the IR
has debug info (-g), and the type that carries the aspect. Uses inside a device_if action are
found too, and marked with their condition.

From a fat binary it reads the facts 'syclkit compile' stores in each image (property set
syclkit/explain), so neither the IR nor the sources are needed, and says whether that image
requires the aspect. From translation units (.ll, or .bc with llvm-dis installed) it reads the
IR directly; calls between units resolve as the linker resolves them.

Exit status: 0 with an explanation; 1 when the kernel does not reach a use of the aspect.

options (one dash or two: -json, --json):
${formatOptions(OPTIONS)}`;

function startsWithContainerMagic(head: Uint8Array): boolean {
  return head.length >= CONTAINER_MAGIC.length && Buffer.from(head.subarray(0, CONTAINER_MAGIC.length)).equals(Buffer.from(CONTAINER_MAGIC));
}

function isContainer(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(CONTAINER_MAGIC.length);
    const n = readSync(fd, head, 0, head.length, 0);
    return startsWithContainerMagic(head.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

export const command: Command = {
  name: 'explain',
  summary: 'Why a kernel needs an aspect: the call chain to the instruction that uses it, with source locations',
  async run(argv, io: CliIO) {
    const args = parseArgs(argv, OPTIONS);
    if (args.flags.has('help')) {
      io.stdout.write(HELP);
      return 0;
    }
    const kernelArg = valueOf(args, 'kernel');
    const aspectArg = valueOf(args, 'aspect');
    if (args.positionals.length === 0) throw new UsageError('no input: give a fat binary or translation units');
    if (kernelArg === undefined || kernelArg === '') throw new UsageError('--kernel <name> is required');
    if (aspectArg === undefined || aspectArg === '') throw new UsageError('--aspect <name|value> is required');
    if (args.positionals.filter((p) => p === '-').length > 1) throw new UsageError("standard input ('-') can be given only once");
    // standard input is read once, then taken for a fat binary or a translation unit by its first bytes
    const stdin = args.positionals.includes('-') ? await io.readStdin() : undefined;
    const stdinIsContainer = stdin !== undefined && startsWithContainerMagic(stdin);
    const containers = args.positionals.filter((p) => (p === '-' ? stdinIsContainer : isContainer(p) || isElfPath(p)));
    if (containers.length > 0 && args.positionals.length > 1) throw new UsageError('give one fat binary, or translation units, not both');
    const target = valueOf(args, 'target');
    if (containers.length === 0 && target !== undefined) throw new UsageError('--target selects a bundle of a fat binary');

    let source: FactsSource;
    let kernel: string;
    if (containers.length === 1) {
      const reader = stdinIsContainer ? ContainerReader.fromBytes(stdin!) : openFatBinary(containers[0]!);
      try {
        ({ source, kernel } = factsFromContainer(reader, kernelArg, target));
      } finally {
        reader.close();
      }
    } else {
      const facts = factsFromUnits(args.positionals.map((file) => (file === '-' ? { file: '<stdin>', text: irTextOf(stdin!) } : { file })));
      source = { facts };
      kernel = resolveKernelName(kernelArg, new FactsIndex(facts).kernels());
    }
    const answer = answerExplain(source, kernel, aspectArg);
    io.stdout.write(args.flags.has('json') ? `${JSON.stringify(answerJSON(answer), null, 2)}\n` : formatAnswer(answer));
    return answer.explanation === undefined ? 1 : 0;
  },
};

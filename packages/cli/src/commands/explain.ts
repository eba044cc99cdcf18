import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { Context, parseModule } from '@syclkit/ir';
import { CONTAINER_MAGIC, ContainerReader, imageRequirements, inspectContainer } from '@syclkit/offload-wrapper';
import { formatOptions, parseArgs, suggest, UsageError, valueOf, type OptionSpec } from '../args.js';
import { CliError, type Command } from '../command.js';
import type { CliIO } from '../io.js';
import { isBitcode, runLlvmTool } from '../llvm-tools.js';
import { EXPLAIN_PROPERTY, EXPLAIN_SET, FactsIndex, aspectsReached, computeProgramFacts, decodeFacts, explainAspect, type ProgramFacts } from '../driver/facts.js';
import { aspectNameOf, aspectValueOf, explanationJSON, formatExplanation } from '../driver/explain.js';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'kernel', kind: 'value', valueName: '<name>', help: 'The kernel (e.g. _ZTS13ScaleVelocity, or ScaleVelocity) (required)' },
  { name: 'aspect', kind: 'value', valueName: '<name|value>', help: 'The aspect (e.g. fp64 or 6) (required)' },
  { name: 'target', kind: 'value', valueName: '<bundle>', help: 'Fat binary: the bundle whose image to read (default spir64, else the first with the kernel)' },
  { name: 'json', help: 'Print the explanation as JSON' },
  { name: 'help', aliases: ['h'], help: 'Show this help' },
];

const HELP = `usage: syclkit explain <app.fatbin | tu.ll...> --kernel <k> --aspect <a> [--target <bundle>] [--json]

Says why a kernel needs an aspect: the call chain from the kernel to the instruction that uses it
(e.g. 'fpext float to double': a float promoted to double), with source locations when the IR
has debug info (-g), and the type that carries the aspect.

From a fat binary it reads the facts 'syclkit compile' stores in each image (property set
syclkit/explain), so neither the IR nor the sources are needed, and says whether that image
requires the aspect. From translation units (.ll, or .bc with llvm-dis installed) it reads the
IR directly; calls between units resolve as the linker resolves them.

Exit status: 0 with an explanation; 1 when the kernel does not reach a use of the aspect.

options:
${formatOptions(OPTIONS)}`;

function isContainer(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(CONTAINER_MAGIC.length);
    const n = readSync(fd, head, 0, head.length, 0);
    return n === head.length && head.equals(Buffer.from(CONTAINER_MAGIC));
  } finally {
    closeSync(fd);
  }
}

interface FactsSource {
  readonly facts: ProgramFacts;
  /** For a fat binary: the image the facts came from, and what it requires. */
  readonly image?: { readonly bundle: string; readonly name: string; readonly aspects: readonly number[] };
}

function kernelName(given: string, kernels: readonly string[]): string {
  if (kernels.includes(given)) return given;
  const typeinfo = `_ZTS${given.length}${given}`;
  if (kernels.includes(typeinfo)) return typeinfo;
  const hint = suggest(given, kernels);
  throw new CliError(`no kernel '${given}'${hint === undefined ? '' : `; did you mean '${hint}'?`} (kernels: ${kernels.join(', ') || 'none'})`);
}

function fromContainer(path: string, kernel: string, target: string | undefined): { source: FactsSource; kernel: string } {
  const reader = ContainerReader.open(path);
  try {
    const report = inspectContainer(reader);
    const kernels = [...new Set(reader.bundles.flatMap((b) => b.images.flatMap((i) => i.entries)))];
    const name = kernelName(kernel, kernels);
    const bundles = target !== undefined ? reader.bundles.filter((b) => b.target === target) : reader.bundles;
    if (target !== undefined && bundles.length === 0) {
      throw new CliError(`the binary has no bundle '${target}' (bundles: ${reader.bundles.map((b) => b.target).join(', ')})`);
    }
    const ordered = [...bundles.filter((b) => b.target === 'spir64'), ...bundles.filter((b) => b.target !== 'spir64')];
    for (const bundle of ordered) {
      const image = bundle.images.find((i) => i.entries.includes(name));
      if (image === undefined) continue;
      const value = image.properties.get(EXPLAIN_SET, EXPLAIN_PROPERTY);
      if (value === undefined) {
        throw new CliError(`image '${image.name}' of ${path} holds no explanation facts (property set ${EXPLAIN_SET}): it was not made by 'syclkit compile', or with --no-explain-info; explain the translation units instead`);
      }
      const facts = decodeFacts(value);
      const shown = report.bundles.find((b) => b.target === bundle.target)!.images.find((i) => i.name === image.name)!;
      return { source: { facts, image: { bundle: bundle.target, name: image.name, aspects: imageRequirements(shown).aspects } }, kernel: name };
    }
    throw new CliError(`no ${target === undefined ? '' : `'${target}' `}image of ${path} defines kernel '${name}'`);
  } finally {
    reader.close();
  }
}

function fromUnits(paths: readonly string[]): ProgramFacts {
  const context = new Context();
  const units = paths.map((file) => {
    const bytes = readFileSync(file);
    const text = isBitcode(bytes) ? runLlvmTool('llvm-dis', ['-o', '-', '-'], bytes, `reading the bitcode file '${file}'`).toString('latin1') : bytes.toString('latin1');
    return { file, module: parseModule(text, { filename: file, context }) };
  });
  return computeProgramFacts(units);
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
    const containers = args.positionals.filter(isContainer);
    if (containers.length > 0 && args.positionals.length > 1) throw new UsageError('give one fat binary, or translation units, not both');
    if (containers.length === 0 && valueOf(args, 'target') !== undefined) throw new UsageError('--target selects a bundle of a fat binary');

    let source: FactsSource;
    let kernel: string;
    if (containers.length === 1) {
      ({ source, kernel } = fromContainer(containers[0]!, kernelArg, valueOf(args, 'target')));
    } else {
      const facts = fromUnits(args.positionals);
      source = { facts };
      kernel = kernelName(kernelArg, new FactsIndex(facts).kernels());
    }
    const { facts } = source;
    const aspect = aspectValueOf(facts, aspectArg);
    if (aspect === undefined) {
      const hint = suggest(aspectArg, facts.aspects.map(([name]) => name));
      throw new CliError(`unknown aspect '${aspectArg}'${hint === undefined ? '' : `; did you mean '${hint}'?`}`);
    }
    const aspectName = aspectNameOf(facts, aspect);
    const explanation = explainAspect(facts, kernel, aspect);
    const image = source.image;
    const imageNote =
      image === undefined
        ? undefined
        : `image '${image.name}' of bundle ${image.bundle} ${image.aspects.includes(aspect) ? 'requires' : 'does not require'} '${aspectName}'`;

    if (explanation === undefined) {
      const uses = aspectsReached(facts, kernel, true).map((v) => aspectNameOf(facts, v));
      const message = `kernel '${kernel}' does not use aspect '${aspectName}'${uses.length === 0 ? ' (it uses no optional feature)' : ` (it uses: ${uses.join(', ')})`}`;
      if (args.flags.has('json')) io.stdout.write(`${JSON.stringify({ kernel, aspect: { name: aspectName, value: aspect }, explained: false, message, image: image ?? null }, null, 2)}\n`);
      else io.stdout.write(`${message}${imageNote === undefined ? '' : `; ${imageNote}`}\n`);
      return 1;
    }
    if (args.flags.has('json')) {
      io.stdout.write(`${JSON.stringify({ ...(explanationJSON(explanation, facts) as object), explained: true, image: image ?? null }, null, 2)}\n`);
    } else {
      io.stdout.write(formatExplanation(explanation, facts));
      if (imageNote !== undefined) {
        const why =
          image!.aspects.includes(aspect) || !explanation.conditional
            ? image!.aspects.includes(aspect)
              ? ''
              : ' (the use was removed after this analysis, e.g. by optimization)'
            : ' (the device_if condition was decided at compile time for this target)';
        io.stdout.write(`${imageNote}${why}\n`);
      }
    }
    return 0;
  },
};

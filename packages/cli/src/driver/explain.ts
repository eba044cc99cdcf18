/**
 * Explanations as users read them: the call chain from a kernel to the use that makes it need an
 * aspect, in the format OptionalDeviceFeatures.md proposes for its warning ("use is from this call
 * chain", one function per line with the call's source location), then the use itself — the
 * instruction as `opt -S` prints it, the type that carries the aspect, and why that type does.
 */
import { demangle } from '@syclkit/aspect-propagation';
import { DeviceConfig, builtinAspectTable } from '@syclkit/device-config';
import { decodeCondition, deviceConfigConditionNames, formatCondition } from '@syclkit/device-if';
import { Context, parseModule } from '@syclkit/ir';
import { unitText, type UnitInput } from '../read-module.js';
import { ContainerReader, imageRequirements, inspectImage } from '@syclkit/offload-wrapper';
import { suggest } from '../args.js';
import { CliError } from '../command.js';
import { kernelInContainers } from './kernel-name.js';
import {
  EXPLAIN_DEFLATED_PROPERTY,
  EXPLAIN_PROPERTY,
  EXPLAIN_SET,
  aspectsReached,
  computeProgramFacts,
  decodeFacts,
  explainAspect,
  formatLoc,
  type AspectUse,
  type Explanation,
  type ProgramFacts,
} from './facts.js';

/** A function name as messages show it: demangled when possible (kernels keep their name). */
export function displayName(name: string): string {
  if (name.startsWith('_ZTS')) return name;
  const shown = demangle(name) ?? name;
  return shown.length <= 120 ? shown : `${shown.slice(0, 80)}…${shown.slice(-20)}`;
}

/** Name of an aspect value: the program's `!sycl_aspects` first, then the built-in table. */
export function aspectNameOf(facts: Pick<ProgramFacts, 'aspects'> | undefined, value: number): string {
  return facts?.aspects.find(([, v]) => v === value)?.[0] ?? builtinAspectTable.nameOf(value) ?? String(value);
}

/** An aspect given by name or number, read with the program's table, then the built-in one. */
export function aspectValueOf(facts: Pick<ProgramFacts, 'aspects'> | undefined, text: string): number | undefined {
  if (/^-?\d+$/.test(text)) return Number(text);
  return facts?.aspects.find(([name]) => name === text)?.[1] ?? builtinAspectTable.valueOf(text);
}

/** A Condition Expression as text (`fp16`, `arch(intel_gpu_pvc) && !fp64`), or its integers. */
export function conditionText(condition: readonly number[]): string {
  try {
    return formatCondition(decodeCondition(condition), deviceConfigConditionNames());
  } catch {
    return `[${condition.join(', ')}]`;
  }
}

/** Why the use needs the aspect, in words. */
export function useReason(use: AspectUse, aspect: string, functionName: string): string {
  const fn = `'${displayName(functionName)}'`;
  switch (use.kind) {
    case 'declared':
      return `${fn} is declared [[sycl::device_has(aspect::${aspect})]]`;
    case 'function-metadata':
      return `${fn} is marked [[sycl_detail::__uses_aspects__(aspect::${aspect})]] (its !sycl_used_aspects from the front end)`;
    case 'instruction-metadata':
      return `the instruction carries !sycl_used_aspects with '${aspect}'`;
    case 'signature':
      return `its signature has type '${use.type}', which uses '${aspect}'`;
    case 'instruction': {
      const text = use.text ?? '';
      if (use.type === 'double') {
        if (/= fpext float .* to double$/.test(text)) return "its type is 'double': a float promoted to double (in float code, a double literal such as 0.99 does this; write 0.99f)";
        if (/= (s|u)itofp .* to double$/.test(text)) return "its type is 'double': an integer converted to double";
        return "its type is 'double', which needs fp64";
      }
      return `its type '${use.type}' uses '${aspect}' (the type, or a type it contains, is marked [[sycl_detail::__uses_aspects__]])`;
    }
  }
}

function where(loc: Parameters<typeof formatLoc>[0]): string {
  return formatLoc(loc) ?? '(no source location: compile with -g)';
}

/** The explanation as text. */
export function formatExplanation(e: Explanation, facts: ProgramFacts): string {
  const aspect = aspectNameOf(facts, e.aspect);
  const lines: string[] = [];
  lines.push(`kernel '${e.kernel}' needs aspect '${aspect}'${e.conditional ? ' only where a device_if condition holds' : ''}; use is from this call chain:`);
  const names = [e.kernel, ...e.chain.map((s) => s.callee)];
  const width = Math.min(72, Math.max(...names.map((n) => displayName(n).length)));
  lines.push(`  ${displayName(e.kernel)}`);
  for (const step of e.chain) {
    const label = displayName(step.callee);
    const cond = step.condition === undefined ? '' : `  [device_if: ${conditionText(step.condition)}]`;
    lines.push(`  ${label.padEnd(width)}  ${where(step.location)}${cond}`);
  }
  const use = e.use;
  const place = formatLoc(use.location);
  const head = `${place === undefined ? '' : `${place}: `}'${displayName(e.function)}' (${e.unit}) uses '${aspect}' here`;
  lines.push(head + (use.text === undefined ? '' : ':'));
  if (use.text !== undefined) lines.push(`    ${use.text}`);
  lines.push(`  ${useReason(use, aspect, e.function)}`);
  if (use.count > 1) lines.push(`  ('${displayName(e.function)}' uses '${aspect}' ${use.count - 1} more time${use.count === 2 ? '' : 's'})`);
  return lines.join('\n') + '\n';
}

/** The explanation as JSON (stable keys). */
export function explanationJSON(e: Explanation, facts: ProgramFacts): unknown {
  return {
    kernel: e.kernel,
    aspect: { name: aspectNameOf(facts, e.aspect), value: e.aspect },
    conditional: e.conditional,
    chain: e.chain.map((s) => ({
      caller: s.caller,
      callee: s.callee,
      calleeDisplay: displayName(s.callee),
      location: s.location ?? null,
      ...(s.condition === undefined ? {} : { condition: s.condition, conditionText: conditionText(s.condition) }),
    })),
    use: {
      function: e.function,
      functionDisplay: displayName(e.function),
      unit: e.unit,
      kind: e.use.kind,
      instruction: e.use.text ?? null,
      type: e.use.type ?? null,
      location: e.use.location ?? null,
      uses: e.use.count,
      reason: useReason(e.use, aspectNameOf(facts, e.aspect), e.function),
    },
  };
}

// --- queries ------------------------------------------------------------------------------------------

/** Where the facts of an explanation came from. */
export interface FactsSource {
  readonly facts: ProgramFacts;
  /** For a fat binary: the image the facts came from, and the aspects it requires. */
  readonly image?: { readonly bundle: string; readonly name: string; readonly aspects: readonly number[] };
}

/**
 * The facts of the image that defines `kernel` in a fat binary: in bundle `target`, else spir64,
 * else the first bundle with such an image. Reads the index and that one image's record.
 */
export function factsFromContainer(reader: ContainerReader, kernelArg: string, target?: string): { source: FactsSource; kernel: string } {
  const kernel = kernelInContainers(reader, kernelArg);
  const bundles = target !== undefined ? reader.bundleRanges.filter((b) => b.target === target) : reader.bundleRanges;
  if (target !== undefined && bundles.length === 0) {
    throw new CliError(`${reader.fileName} has no bundle '${target}' (bundles: ${reader.bundleRanges.map((b) => b.target).join(', ')})`);
  }
  const ordered = [...bundles.filter((b) => b.target === 'spir64'), ...bundles.filter((b) => b.target !== 'spir64')];
  const positions = reader.lookupPositions('entry', kernel);
  for (const bundle of ordered) {
    const position = positions.find((p) => p >= bundle.first && p < bundle.first + bundle.count);
    if (position === undefined) continue;
    const image = reader.image(position);
    const json = image.properties.get(EXPLAIN_SET, EXPLAIN_PROPERTY);
    const deflated = json === undefined ? image.properties.get(EXPLAIN_SET, EXPLAIN_DEFLATED_PROPERTY) : undefined;
    const value = json ?? deflated;
    if (value === undefined) {
      throw new CliError(
        `image '${image.name}' of ${reader.fileName} holds no explanation facts (property set ${EXPLAIN_SET}): it was not made by 'syclkit compile', or with --no-explain-info; explain the translation units instead`,
      );
    }
    let facts: ProgramFacts;
    try {
      facts = decodeFacts(value, deflated !== undefined);
    } catch (error) {
      throw new CliError(`image '${image.name}' of ${reader.fileName}: ${(error as Error).message}`);
    }
    return { source: { facts, image: { bundle: bundle.target, name: image.name, aspects: imageRequirements(inspectImage(image)).aspects } }, kernel };
  }
  throw new CliError(`no ${target === undefined ? '' : `'${target}' `}image of ${reader.fileName} defines kernel '${kernel}'`);
}

/** The facts of translation units: files (text IR, or bitcode through llvm-dis) or text already read. */
export function factsFromUnits(inputs: readonly UnitInput[]): ProgramFacts {
  const context = new Context();
  const units = inputs.map((unit) => ({ file: unit.file, module: parseModule(unitText(unit), { filename: unit.file, context }) }));
  return computeProgramFacts(units);
}

/** What `syclkit explain` answers. */
export interface ExplainAnswer {
  readonly kernel: string;
  readonly aspect: number;
  readonly aspectName: string;
  readonly source: FactsSource;
  /** Undefined when the kernel reaches no use of the aspect. */
  readonly explanation?: Explanation;
}

/** Explains `aspectArg` (name or value) for a kernel of `source`. */
export function answerExplain(source: FactsSource, kernel: string, aspectArg: string): ExplainAnswer {
  const { facts } = source;
  const aspect = aspectValueOf(facts, aspectArg);
  if (aspect === undefined) {
    const hint = suggest(aspectArg, [...facts.aspects.map(([name]) => name), ...builtinAspectTable.definitions.map((d) => d.name)]);
    throw new CliError(`unknown aspect '${aspectArg}'${hint === undefined ? '' : `; did you mean '${hint}'?`}`);
  }
  const explanation = explainAspect(facts, kernel, aspect);
  return { kernel, aspect, aspectName: aspectNameOf(facts, aspect), source, ...(explanation === undefined ? {} : { explanation }) };
}

/** The answer as text: the explanation (or why there is none) and what the image requires. */
export function formatAnswer(answer: ExplainAnswer): string {
  const { source, aspect, aspectName, explanation, kernel } = answer;
  const image = source.image;
  const requires = image === undefined ? undefined : image.aspects.includes(aspect);
  const imageNote = image === undefined ? '' : `image '${image.name}' of bundle ${image.bundle} ${requires ? 'requires' : 'does not require'} '${aspectName}'`;
  if (explanation === undefined) {
    const uses = aspectsReached(source.facts, kernel, true).map((v) => aspectNameOf(source.facts, v));
    const message = `kernel '${kernel}' does not use aspect '${aspectName}'${uses.length === 0 ? ' (it uses no optional feature)' : ` (it uses: ${uses.join(', ')})`}`;
    return `${message}${imageNote === '' ? '' : `; ${imageNote}`}\n`;
  }
  let text = formatExplanation(explanation, source.facts);
  if (image !== undefined) {
    const generic = DeviceConfig.builtin().resolve(image.bundle)?.kind === 'generic';
    const why = requires
      ? ''
      : !explanation.conditional
        ? ' (the use was removed after this analysis, e.g. by optimization)'
        : generic
          ? ': the device_if block is in an add-on image, linked (and required) only where its condition holds'
          : ' (the device_if condition was decided at compile time for this target)';
    text += `${imageNote}${why}\n`;
  }
  return text;
}

/** The answer as JSON. */
export function answerJSON(answer: ExplainAnswer): unknown {
  const image = answer.source.image ?? null;
  if (answer.explanation === undefined) {
    return {
      kernel: answer.kernel,
      aspect: { name: answer.aspectName, value: answer.aspect },
      explained: false,
      uses: aspectsReached(answer.source.facts, answer.kernel, true).map((v) => aspectNameOf(answer.source.facts, v)),
      image,
    };
  }
  return { ...(explanationJSON(answer.explanation, answer.source.facts) as object), explained: true, image };
}

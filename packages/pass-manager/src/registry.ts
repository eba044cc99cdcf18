/**
 * The registry: the public list of names (LLVM `PassRegistry.def`). One line per pass, plus the
 * unit kinds, analyses and named presets. It turns pipeline text into pipeline nodes (names
 * looked up, options typed, defaults filled, adaptors explicit), prints nodes back as canonical
 * text, builds runnable pipelines, and collects the `cl::opt`-style flags passes declare.
 *
 * Besides the registered passes, pipeline text knows:
 * - `k(...)` for a unit kind `k`: an adaptor over sub-units of kind `k`, or a plain grouping
 *   when `k` is the current kind (`module(a,b)` at module level is `a,b`);
 * - `require<analysis>` (compute and cache) and `invalidate<analysis>` (drop);
 * - preset names, expanded in place.
 * A pass (or `require`) for a kind nested in the current one is wrapped in the adaptor
 * implicitly, consecutive ones sharing one adaptor, as `opt` does.
 */
import type { Analysis } from './analysis.js';
import { passManagerDiagnostics, type DiagnosticDescriptor } from './diagnostics.js';
import { FlagError, PipelineError } from './errors.js';
import { createAdaptor, Pipeline } from './manager.js';
import {
  completeOptions,
  describeFlag,
  describeOptions,
  flagSyntax,
  parseFlagValue,
  parseOptionEntries,
  printOptions,
  sameFlag,
  type FlagSpec,
  type OptionSpec,
} from './options.js';
import type { Pass, PassEntry, PassEnv } from './pass.js';
import { parsePipelineSyntax, type SyntaxNode } from './pipeline-syntax.js';
import { PreservedAnalyses } from './preserved.js';
import { didYouMean } from './suggest.js';
import type { UnitKind } from './unit-kind.js';

/** One element of a resolved pipeline: plain data, compared with deep equality. */
export interface PipelineNode {
  readonly name: string;
  /** Every declared option with its value (defaults filled in); `{}` for adaptors. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The nested pipeline of an adaptor. */
  readonly inner?: readonly PipelineNode[];
}

/* eslint-disable @typescript-eslint/no-explicit-any -- entries of any unit/options/flags types live together */
type AnyPassEntry = PassEntry<any, any, any>;
type AnyAnalysis = Analysis<any, unknown>;
type AnyUnitKind = UnitKind<any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface RegistryConfig {
  /** One line per pass: `definePass(...)` results. */
  readonly passes?: readonly AnyPassEntry[];
  readonly analyses?: readonly AnyAnalysis[];
  /** Unit kinds; those of passes and analyses (and their sub-unit kinds) are added automatically.
   * The first kind is the default top-level kind for `parse` and `build`. */
  readonly unitKinds?: readonly AnyUnitKind[];
  /** Named presets: name → pipeline text, e.g. `{ 'offload-default': 'a,split<per-kernel>' }`. */
  readonly presets?: Readonly<Record<string, string>>;
}

export interface ParseOptions {
  /** The top-level unit kind (object or name; default: the registry's first kind). */
  readonly unit?: AnyUnitKind | string;
  /** What to call the text in errors, e.g. `-passes`. */
  readonly source?: string;
}

/** Flag values collected from a command line (see `PassRegistry.parseFlags`). */
export interface FlagValues {
  /** The value of a given flag, or undefined when it was not given. */
  get(name: string): unknown;
  has(name: string): boolean;
  /** Names of the given flags, in the order given. */
  readonly names: readonly string[];
}

export interface BuildOptions<U extends object> extends ParseOptions {
  readonly unit?: UnitKind<U> | string;
  /** Global flags from the command line; flags not given take their defaults. */
  readonly flags?: FlagValues;
}

/** A flag as a CLI needs it: to declare it, show it in help and parse it. */
export interface CommandLineFlag {
  readonly name: string;
  readonly type: OptionSpec['type'];
  /** False for booleans (`-name`, `-name=false`); true when the flag needs `-name=<value>`. */
  readonly takesValue: boolean;
  /** `-name=<string,...>` */
  readonly syntax: string;
  readonly doc: string;
  readonly hidden: boolean;
  /** Names of the passes that read it. */
  readonly passes: readonly string[];
  /** One help line: syntax, doc and default. */
  readonly help: string;
}

export interface DiagnosticCodeInfo extends DiagnosticDescriptor {
  /** Passes that declare the code (empty for the pass manager's own codes). */
  readonly passes: readonly string[];
}

const BUILTINS = ['require', 'invalidate'] as const;

/** Where a builtin node or pass came from in pipeline text, for errors. */
interface Source {
  readonly text: string;
  readonly name: string;
}

type Item = PipelineNode | ImplicitAdaptor;
interface ImplicitAdaptor {
  readonly implicit: UnitKind<object>;
  readonly inner: Item[];
}

export class PassRegistry {
  readonly passes: ReadonlyMap<string, AnyPassEntry>;
  readonly analyses: ReadonlyMap<string, AnyAnalysis>;
  readonly unitKinds: ReadonlyMap<string, AnyUnitKind>;
  readonly presets: ReadonlyMap<string, string>;
  readonly #config: Required<RegistryConfig>;
  readonly #flags = new Map<string, { spec: FlagSpec; passes: string[] }>();

  constructor(config: RegistryConfig = {}) {
    this.#config = {
      passes: config.passes ?? [],
      analyses: config.analyses ?? [],
      unitKinds: config.unitKinds ?? [],
      presets: config.presets ?? {},
    };
    const kinds = new Map<string, AnyUnitKind>();
    const addKind = (kind: AnyUnitKind): void => {
      const known = kinds.get(kind.name);
      if (known === kind) return;
      if (known !== undefined) throw new TypeError(`two different unit kinds are named '${kind.name}'`);
      kinds.set(kind.name, kind);
      for (const sub of kind.subunits ?? []) addKind(sub.kind);
    };
    this.#config.unitKinds.forEach(addKind);
    const passes = new Map<string, AnyPassEntry>();
    for (const entry of this.#config.passes) {
      if (passes.has(entry.name)) throw new TypeError(`pass '${entry.name}' is registered twice`);
      passes.set(entry.name, entry);
      addKind(entry.unit);
    }
    const analyses = new Map<string, AnyAnalysis>();
    for (const analysis of this.#config.analyses) {
      if (analyses.has(analysis.name)) throw new TypeError(`analysis '${analysis.name}' is registered twice`);
      analyses.set(analysis.name, analysis);
      addKind(analysis.unit);
    }
    const presets = new Map(Object.entries(this.#config.presets));
    const taken = new Map<string, string>();
    const claim = (name: string, what: string): void => {
      const previous = taken.get(name);
      if (previous !== undefined) throw new TypeError(`'${name}' names both ${previous} and ${what}`);
      taken.set(name, what);
    };
    BUILTINS.forEach((name) => claim(name, 'a builtin'));
    for (const name of kinds.keys()) claim(name, 'a unit kind');
    for (const name of passes.keys()) claim(name, 'a pass');
    for (const name of presets.keys()) claim(name, 'a preset');
    for (const entry of passes.values()) {
      for (const spec of Object.values(entry.flags) as FlagSpec[]) {
        const known = this.#flags.get(spec.name);
        if (known === undefined) this.#flags.set(spec.name, { spec, passes: [entry.name] });
        else if (!sameFlag(known.spec, spec)) {
          throw new TypeError(`flag '-${spec.name}' is declared differently by passes '${known.passes[0]}' and '${entry.name}'`);
        } else known.passes.push(entry.name);
      }
    }
    this.passes = passes;
    this.analyses = analyses;
    this.unitKinds = kinds;
    this.presets = presets;
  }

  /** A new registry with more passes, analyses, kinds or presets (for contributors and plugins). */
  extend(config: RegistryConfig): PassRegistry {
    return new PassRegistry({
      passes: [...this.#config.passes, ...(config.passes ?? [])],
      analyses: [...this.#config.analyses, ...(config.analyses ?? [])],
      unitKinds: [...this.#config.unitKinds, ...(config.unitKinds ?? [])],
      presets: { ...this.#config.presets, ...config.presets },
    });
  }

  /** Parses pipeline text into canonical nodes. Throws a PipelineError pointing into the text. */
  parse(text: string, options: ParseOptions = {}): PipelineNode[] {
    const kind = this.#kind(options.unit);
    const source: Source = { text, name: options.source ?? 'pipeline' };
    return finish(this.#resolveList(parsePipelineSyntax(text, source.name), kind, source, []));
  }

  /** Canonical text for nodes: adaptors explicit, every option printed. Inverse of `parse`. */
  print(nodes: readonly PipelineNode[], options: Pick<ParseOptions, 'unit'> = {}): string {
    return this.#printList(nodes, this.#kind(options.unit));
  }

  /** A runnable pipeline from text or nodes, with the command line's flag values. */
  build<U extends object>(pipeline: string | readonly PipelineNode[], options: BuildOptions<U> = {}): Pipeline<U> {
    const kind = this.#kind(options.unit) as UnitKind<U>;
    const nodes = typeof pipeline === 'string' ? this.parse(pipeline, { ...options, unit: kind }) : pipeline;
    return new Pipeline(kind, this.#buildList(nodes, kind, options.flags));
  }

  /** The flags passes declare, once each, for a CLI to accept and show in `--help`. */
  commandLineFlags(): CommandLineFlag[] {
    return [...this.#flags.values()].map(({ spec, passes }) => ({
      name: spec.name,
      type: spec.type,
      takesValue: spec.type !== 'boolean',
      syntax: flagSyntax(spec),
      doc: spec.doc,
      hidden: spec.hidden === true,
      passes: [...passes],
      help: describeFlag(spec),
    }));
  }

  /**
   * Checks flags from a command line: `[name, value]` pairs, the value undefined for a bare
   * `-name`. Unknown or repeated flags and bad values throw a FlagError.
   */
  parseFlags(given: Iterable<readonly [name: string, value: string | undefined]>): FlagValues {
    const values = new Map<string, unknown>();
    for (const [name, raw] of given) {
      const known = this.#flags.get(name);
      if (known === undefined) throw new FlagError(`unknown flag '-${name}'${didYouMean(name, this.#flags.keys(), '-')}`, name);
      if (values.has(name)) throw new FlagError(`flag '-${name}' may only occur zero or one times`, name);
      values.set(name, parseFlagValue(known.spec, raw));
    }
    const names = [...values.keys()];
    return { get: (name) => values.get(name), has: (name) => values.has(name), names };
  }

  /** Every diagnostic code passes declare, plus the pass manager's own. */
  diagnosticCodes(): Map<string, DiagnosticCodeInfo> {
    const codes = new Map<string, DiagnosticCodeInfo>();
    for (const [code, info] of Object.entries(passManagerDiagnostics)) codes.set(code, { ...info, passes: [] });
    for (const entry of this.passes.values()) {
      for (const [code, info] of Object.entries(entry.diagnostics ?? {})) {
        const known = codes.get(code);
        codes.set(code, known === undefined ? { ...info, passes: [entry.name] } : { ...known, passes: [...known.passes, entry.name] });
      }
    }
    return codes;
  }

  /** A listing like `opt --print-passes`: kinds, passes with options and flags, analyses, presets. */
  describe(): string {
    const lines: string[] = [];
    for (const kind of this.unitKinds.values()) {
      const subs = (kind.subunits ?? []).map((s) => s.kind.name);
      lines.push(`${kind.name} passes${subs.length > 0 ? ` (nest with: ${subs.map((s) => `${s}(...)`).join(', ')})` : ''}:`);
      for (const entry of this.passes.values()) {
        if (entry.unit !== kind) continue;
        const preserves = typeof entry.preserves === 'string' ? entry.preserves : entry.preserves.join(', ');
        lines.push(`  ${entry.name}${entry.optionsDoc === '' ? '' : `<${entry.optionsDoc}>`}`);
        lines.push(`      ${entry.summary} Preserves: ${preserves}.`);
        for (const row of describeOptions(entry.options)) lines.push(`      ${row}`);
        for (const spec of Object.values(entry.flags) as FlagSpec[]) lines.push(`      ${describeFlag(spec)}`);
      }
      for (const analysis of this.analyses.values()) {
        if (analysis.unit !== kind) continue;
        lines.push(`  require<${analysis.name}>, invalidate<${analysis.name}>${analysis.summary ? `  ${analysis.summary}` : ''}`);
      }
    }
    if (this.presets.size > 0) {
      lines.push('presets:');
      for (const [name, text] of this.presets) lines.push(`  ${name} = ${text}`);
    }
    return lines.join('\n') + '\n';
  }

  #kind(unit: AnyUnitKind | string | undefined): UnitKind<object> {
    if (unit === undefined) {
      const first = this.unitKinds.values().next();
      if (first.done === true) throw new TypeError('the registry has no unit kinds');
      return first.value;
    }
    const name = typeof unit === 'string' ? unit : unit.name;
    const kind = this.unitKinds.get(name);
    if (kind === undefined) throw new TypeError(`unknown unit kind '${name}'${didYouMean(name, this.unitKinds.keys())}`);
    if (typeof unit !== 'string' && unit !== kind) throw new TypeError(`unit kind '${name}' is not the one registered under that name`);
    return kind;
  }

  #resolveList(syntax: readonly SyntaxNode[], kind: UnitKind<object>, source: Source, presets: readonly string[]): Item[] {
    const items: Item[] = [];
    for (const element of syntax) this.#resolveElement(element, kind, source, presets, items);
    return items;
  }

  #resolveElement(element: SyntaxNode, kind: UnitKind<object>, source: Source, presets: readonly string[], items: Item[]): void {
    const fail = (message: string, offset = element.offset, length = element.name.length): never => {
      throw new PipelineError(message, source.text, offset, length, source.name);
    };
    const { name } = element;
    const noOptions = (what: string): void => {
      if (element.options !== undefined) fail(`${what} takes no options`, element.options.offset, element.options.end - element.options.offset);
    };
    const noInner = (what: string): void => {
      if (element.inner !== undefined) fail(`${what} does not take a nested pipeline`, element.innerOffset!, 1);
    };

    const unitKind = this.unitKinds.get(name);
    if (unitKind !== undefined) {
      noOptions(`'${name}(...)'`);
      if (element.inner === undefined) fail(`'${name}' needs a nested pipeline: ${name}(...)`);
      if (unitKind === kind) {
        // `module(a,b)` in a module pipeline is just `a,b`.
        for (const item of this.#resolveList(element.inner!, kind, source, presets)) items.push(item);
        return;
      }
      const path = pathTo(kind, unitKind);
      if (path === undefined) fail(`${kind.name} units have no ${name} sub-units, so '${name}(...)' cannot appear in a ${kind.name} pipeline`);
      const node: PipelineNode = { name, options: {}, inner: finish(this.#resolveList(element.inner!, unitKind, source, presets)) };
      place(items, path!.slice(0, -1), node);
      return;
    }

    if (name === 'require' || name === 'invalidate') {
      noInner(`'${name}<...>'`);
      const entries = element.options?.entries ?? [];
      if (entries.length !== 1) fail(`'${name}' needs exactly one analysis name: ${name}<analysis>`);
      const entry = entries[0]!;
      const analysis = this.analyses.get(entry.text);
      if (analysis === undefined) {
        fail(`unknown analysis '${entry.text}'${didYouMean(entry.text, this.analyses.keys())}`, entry.offset, Math.max(1, entry.text.length));
      }
      const path = pathTo(kind, analysis!.unit);
      if (path === undefined) fail(`analysis '${entry.text}' is computed on ${analysis!.unit.name} units, which a ${kind.name} pipeline cannot reach`, entry.offset, entry.text.length);
      place(items, path!, { name, options: { analysis: analysis!.name } });
      return;
    }

    const preset = this.presets.get(name);
    if (preset !== undefined) {
      noOptions(`preset '${name}'`);
      noInner(`preset '${name}'`);
      if (presets.includes(name)) fail(`preset '${name}' includes itself (${[...presets, name].join(' -> ')})`);
      const presetSource: Source = { text: preset, name: `preset '${name}'` };
      const syntax = parsePipelineSyntax(preset, presetSource.name);
      for (const item of this.#resolveList(syntax, kind, presetSource, [...presets, name])) items.push(item);
      return;
    }

    const entry = this.passes.get(name);
    if (entry === undefined) {
      const names = [...this.passes.keys(), ...this.unitKinds.keys(), ...this.presets.keys(), ...BUILTINS];
      return fail(`unknown pass '${name}'${didYouMean(name, names)}`);
    }
    noInner(`pass '${name}'`);
    const values = parseOptionEntries(name, entry.options, element.options?.entries ?? [], source);
    const problem = entry.validate?.(values);
    if (problem !== undefined) {
      const end = element.options?.end ?? element.offset + name.length;
      fail(`invalid options for pass '${name}': ${problem}`, element.offset, end - element.offset);
    }
    const path = pathTo(kind, entry.unit);
    if (path === undefined) fail(`pass '${name}' runs on ${entry.unit.name} units and cannot run in a ${kind.name} pipeline`);
    place(items, path!, { name, options: values });
  }

  #printList(nodes: readonly PipelineNode[], kind: UnitKind<object>): string {
    return nodes.map((node) => this.#printNode(node, kind)).join(',');
  }

  #printNode(node: PipelineNode, kind: UnitKind<object>): string {
    if (node.inner !== undefined) {
      const inner = (kind.subunits ?? []).find((s) => s.kind.name === node.name)?.kind;
      if (inner === undefined) throw new TypeError(`'${node.name}(...)' is not an adaptor of ${kind.name} units`);
      if (node.inner.length === 0) throw new TypeError(`adaptor '${node.name}' has an empty nested pipeline`);
      return `${node.name}(${this.#printList(node.inner, inner)})`;
    }
    if (node.name === 'require' || node.name === 'invalidate') return `${node.name}<${this.#builtinAnalysis(node, kind).name}>`;
    const entry = this.#entryAt(node, kind);
    return node.name + printOptions(entry.options, completeOptions(node.name, entry.options, node.options));
  }

  #builtinAnalysis(node: PipelineNode, kind: UnitKind<object>): AnyAnalysis {
    const name = node.options['analysis'];
    const analysis = typeof name === 'string' ? this.analyses.get(name) : undefined;
    if (analysis === undefined) throw new TypeError(`'${node.name}' names unknown analysis '${String(name)}'`);
    if (analysis.unit !== kind) throw new TypeError(`analysis '${analysis.name}' runs on ${analysis.unit.name} units, not ${kind.name} units`);
    return analysis;
  }

  #entryAt(node: PipelineNode, kind: UnitKind<object>): AnyPassEntry {
    const entry = this.passes.get(node.name);
    if (entry === undefined) throw new TypeError(`unknown pass '${node.name}'`);
    if (entry.unit !== kind) throw new TypeError(`pass '${node.name}' runs on ${entry.unit.name} units, not ${kind.name} units`);
    return entry;
  }

  #buildList<U extends object>(nodes: readonly PipelineNode[], kind: UnitKind<U>, flags: FlagValues | undefined): Pass<U>[] {
    return nodes.map((node) => this.#buildNode(node, kind, flags));
  }

  #buildNode<U extends object>(node: PipelineNode, kind: UnitKind<U>, flags: FlagValues | undefined): Pass<U> {
    if (node.inner !== undefined) {
      const inner = (kind.subunits ?? []).find((s) => s.kind.name === node.name)?.kind;
      if (inner === undefined) throw new TypeError(`'${node.name}(...)' is not an adaptor of ${kind.name} units`);
      return createAdaptor(kind, inner, this.#buildList(node.inner, inner, flags));
    }
    if (node.name === 'require' || node.name === 'invalidate') {
      const analysis = this.#builtinAnalysis(node, kind as UnitKind<object>);
      const text = `${node.name}<${analysis.name}>`;
      if (node.name === 'require') {
        return {
          name: 'require',
          unit: kind,
          text,
          run(unit, ctx) {
            ctx.analyses.getResult(analysis, unit);
            return PreservedAnalyses.all();
          },
        };
      }
      const abandoned = PreservedAnalyses.all().abandon(analysis);
      return { name: 'invalidate', unit: kind, text, run: () => abandoned };
    }
    const entry = this.#entryAt(node, kind as UnitKind<object>);
    return entry.instantiate(node.options, envFor(entry, flags)) as Pass<U>;
  }
}

/** A registry from plain data: one line per pass, plus analyses, unit kinds and presets. */
export function createRegistry(config: RegistryConfig = {}): PassRegistry {
  return new PassRegistry(config);
}

function envFor(entry: AnyPassEntry, flags: FlagValues | undefined): PassEnv<Record<string, FlagSpec>> {
  const values: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const [key, spec] of Object.entries(entry.flags) as [string, FlagSpec][]) {
    if (flags?.has(spec.name) === true) {
      values[key] = flags.get(spec.name);
      given.add(key);
    } else values[key] = spec.default;
  }
  return { flags: values as PassEnv<Record<string, FlagSpec>>['flags'], flagsGiven: given };
}

/** Kinds to pass through from `from` down to `to` (empty when equal), or undefined. Shortest path. */
function pathTo(from: UnitKind<object>, to: UnitKind<object>): UnitKind<object>[] | undefined {
  if (from === to) return [];
  const queue: { kind: UnitKind<object>; path: UnitKind<object>[] }[] = [{ kind: from, path: [] }];
  const seen = new Set<string>([from.name]);
  while (queue.length > 0) {
    const { kind, path } = queue.shift()!;
    for (const sub of kind.subunits ?? []) {
      if (seen.has(sub.kind.name)) continue;
      const next = [...path, sub.kind];
      if (sub.kind === to) return next;
      seen.add(sub.kind.name);
      queue.push({ kind: sub.kind, path: next });
    }
  }
  return undefined;
}

/** Appends a node through implicit adaptors for `path`, sharing the last one when it matches. */
function place(items: Item[], path: readonly UnitKind<object>[], node: PipelineNode): void {
  if (path.length === 0) {
    items.push(node);
    return;
  }
  const last = items[items.length - 1];
  if (last !== undefined && 'implicit' in last && last.implicit === path[0]) {
    place(last.inner, path.slice(1), node);
    return;
  }
  const adaptor: ImplicitAdaptor = { implicit: path[0]!, inner: [] };
  items.push(adaptor);
  place(adaptor.inner, path.slice(1), node);
}

function finish(items: readonly Item[]): PipelineNode[] {
  return items.map((item) => ('implicit' in item ? { name: item.implicit.name, options: {}, inner: finish(item.inner) } : item));
}

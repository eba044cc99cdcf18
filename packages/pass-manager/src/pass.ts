/**
 * Passes: plain objects made by factories (LLVM's one-struct-one-`run`, rollup's plugin object).
 *
 * `definePass` declares a pass once: kebab-case name, unit kind, typed options, the global flags
 * it reads, what it preserves and the diagnostic codes it reports. The result is a registry
 * entry; `entry.instantiate(options)` makes the runnable `Pass`.
 */
import type { AnalysisGetter } from './analysis.js';
import { isDiagnosticCode, type DiagnosticCatalog, type DiagnosticInput } from './diagnostics.js';
import { PipelineError } from './errors.js';
import {
  checkSchema,
  completeOptions,
  optionsDoc,
  parseOptionEntries,
  printOptions,
  type FlagsSchema,
  type OptionEntry,
  type OptionsSchema,
  type OptionValues,
} from './options.js';
import type { PreservedAnalyses } from './preserved.js';
import type { UnitKind } from './unit-kind.js';

/** The enclosing unit of a pass running inside an adaptor (`function(...)` inside a module). */
export interface ParentUnit {
  readonly unit: object;
  readonly kind: UnitKind<object>;
  readonly parent: ParentUnit | undefined;
}

/** What a pass gets besides the unit. Passes never print: they report through `report`. */
export interface PassContext<U extends object> {
  /** Name of the running pass (stamped on its diagnostics). */
  readonly pass: string;
  readonly kind: UnitKind<U>;
  /**
   * Analysis results. Results of enclosing units may only be read from the cache
   * (`getCachedResult`): computing them from inside an adaptor would go stale mid-run.
   */
  readonly analyses: AnalysisGetter;
  readonly parent: ParentUnit | undefined;
  /** Records a diagnostic. A fatal one (by the pass or by the user's policy) stops the pipeline. */
  report(diagnostic: DiagnosticInput): void;
  /** Records a fatal error diagnostic and stops the pipeline. */
  fail(diagnostic: DiagnosticInput): never;
}

/**
 * The body of a pass: transform the unit, say what survived. A pass that waits for something
 * (another process, a worker) returns a promise; such pipelines run with `runAsync`.
 */
export type PassRun<U extends object> = (unit: U, ctx: PassContext<U>) => PreservedAnalyses | Promise<PreservedAnalyses>;

/** A runnable pass. `definePass(...).instantiate()` makes one; a literal object works too. */
export interface Pass<U extends object> {
  readonly name: string;
  readonly unit: UnitKind<U>;
  /** Canonical pipeline text of this pass with its options (default: `name`). */
  readonly text?: string;
  /** Codes this pass may report, with default severities. When present, other codes are a bug. */
  readonly diagnostics?: DiagnosticCatalog;
  /** True for adaptors and groupings, which only run other passes (instrumentation skips them). */
  readonly adaptor?: boolean;
  readonly run: PassRun<U>;
}

/** What the factory gets besides its options: the global flags it declared. */
export interface PassEnv<F extends FlagsSchema> {
  /** Flag values, defaults filled in. */
  readonly flags: OptionValues<F>;
  /** Keys of the flags that were given on the command line (LLVM `getNumOccurrences() > 0`). */
  readonly flagsGiven: ReadonlySet<keyof F & string>;
}

/** What a pass says it preserves, for documentation and `describe()`: `all`, `none`, or keys/sets. */
export type PreservesDoc = 'all' | 'none' | readonly string[];

export interface PassSpec<U extends object, S extends OptionsSchema, F extends FlagsSchema> {
  /** Kebab-case name used in pipeline text, diagnostics and timings. */
  readonly name: string;
  readonly unit: UnitKind<U>;
  /** One line for `describe()` / `--print-passes`. */
  readonly summary: string;
  readonly options?: S;
  readonly flags?: F;
  readonly preserves: PreservesDoc;
  readonly diagnostics?: DiagnosticCatalog;
  /** Checks constraints between options (called at parse time); returns the problem, if any. */
  validate?(options: OptionValues<S>): string | undefined;
  /** The factory: options and flags in, pass body out. Called once per pipeline element. */
  create(options: OptionValues<S>, env: PassEnv<F>): PassRun<U>;
}

/** One registry line: the pass declaration plus option parsing and printing. */
export interface PassEntry<U extends object = object, S extends OptionsSchema = OptionsSchema, F extends FlagsSchema = FlagsSchema>
  extends PassSpec<U, S, F> {
  readonly options: S;
  readonly flags: F;
  /** LLVM-style params doc, e.g. `[no-]per-kernel;max-size=<int>`. */
  readonly optionsDoc: string;
  /** Parses the text between `<` and `>` (e.g. `per-kernel;max-size=3`); offsets in errors are into `text`. */
  parseOptions(text: string): OptionValues<S>;
  /** Canonical `<...>` text for the values ('' when the pass has no options). */
  printOptions(values: OptionValues<S>): string;
  /** A runnable pass; missing options and flags take their defaults. */
  instantiate(options?: Partial<OptionValues<S>>, env?: Partial<PassEnv<F>>): Pass<U>;
}

const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

export function definePass<U extends object, S extends OptionsSchema = Record<never, never>, F extends FlagsSchema = Record<never, never>>(
  spec: PassSpec<U, S, F>,
): PassEntry<U, S, F> {
  const name = spec.name;
  if (!KEBAB.test(name)) throw new TypeError(`pass name '${name}' is not kebab-case`);
  const options = (spec.options ?? {}) as S;
  const flags = (spec.flags ?? {}) as F;
  checkSchema(name, options);
  for (const code of Object.keys(spec.diagnostics ?? {})) {
    if (!isDiagnosticCode(code)) throw new TypeError(`pass '${name}': diagnostic code '${code}' is not kebab-case`);
  }
  const entry: PassEntry<U, S, F> = {
    ...spec,
    options,
    flags,
    optionsDoc: optionsDoc(options),
    parseOptions(text: string): OptionValues<S> {
      const bad = text.search(/[<>]/);
      if (bad >= 0) throw new PipelineError(`'${text[bad]}' inside options`, text, bad, 1, name);
      return parseOptionEntries(name, options, splitEntries(text), { text, name });
    },
    printOptions: (values) => printOptions(options, values),
    instantiate(given = {}, env = {}): Pass<U> {
      const values = completeOptions(name, options, given);
      const problem = spec.validate?.(values);
      if (problem !== undefined) throw new TypeError(`pass '${name}': ${problem}`);
      const flagValues = completeOptions(name, flags, env.flags ?? {});
      const run = spec.create(values, { flags: flagValues, flagsGiven: env.flagsGiven ?? new Set() });
      if (typeof run !== 'function') throw new TypeError(`pass '${name}': create() must return a run function`);
      return {
        name,
        unit: spec.unit,
        text: name + printOptions(options, values),
        ...(spec.diagnostics !== undefined && { diagnostics: spec.diagnostics }),
        run,
      };
    },
  };
  return Object.freeze(entry);
}

/** `a;b=1` → entries with offsets; the empty string is no entries. */
export function splitEntries(text: string, base = 0): OptionEntry[] {
  if (text === '') return [];
  const entries: OptionEntry[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text[i] === ';') {
      entries.push({ text: text.slice(start, i), offset: base + start });
      start = i + 1;
    }
  }
  return entries;
}

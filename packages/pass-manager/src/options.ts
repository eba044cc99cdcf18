/**
 * Typed pass options (the `<a;no-b;k=v>` part of pipeline text) and LLVM `cl::opt`-style global
 * flags a pass declares (`-name=value` on the command line). Both use the same five value types.
 *
 * Option text names are derived from the schema key: `maxSize` is written `max-size`. A boolean
 * `x` is written `x` or `no-x`; an enum with `bare: true` may be written as its value alone
 * (`split<per-kernel>`). Canonical text lists every option in declaration order, defaults filled
 * in, so two equal configurations always print the same.
 */
import { FlagError, PipelineError } from './errors.js';
import { didYouMean } from './suggest.js';

interface OptionBase<T> {
  readonly default: T;
  /** One line for help output. */
  readonly doc: string;
}

export interface BooleanOption extends OptionBase<boolean> {
  readonly type: 'boolean';
}

export interface IntegerOption extends OptionBase<number> {
  readonly type: 'integer';
  readonly min?: number;
  readonly max?: number;
}

export interface StringOption extends OptionBase<string> {
  readonly type: 'string';
  /** Placeholder for help output (default `string`). */
  readonly valueName?: string;
}

export interface StringListOption extends OptionBase<readonly string[]> {
  readonly type: 'string-list';
  readonly valueName?: string;
}

export interface EnumOption<V extends string = string> extends OptionBase<V> {
  readonly type: 'enum';
  readonly values: readonly V[];
  /** Accept (and print) the value alone, e.g. `<per-kernel>` for `mode=per-kernel`. */
  readonly bare?: boolean;
}

export type OptionSpec = BooleanOption | IntegerOption | StringOption | StringListOption | EnumOption;

export type OptionsSchema = Readonly<Record<string, OptionSpec>>;

/** The value type of one option. */
export type OptionValue<S extends OptionSpec> = S extends EnumOption<infer V> ? V : S['default'];

/** Parsed options of a schema: every key present, defaults filled in. */
export type OptionValues<S extends OptionsSchema> = { readonly [K in keyof S]: OptionValue<S[K]> };

/** A global flag: an option with a fixed command-line name, e.g. `sycl-propagate-aspects-usage-fixed-targets`. */
export type FlagSpec = OptionSpec & {
  /** The name on the command line, without dashes; shared by every pass that declares it. */
  readonly name: string;
  /** Left out of ordinary help, like LLVM's `cl::Hidden`. */
  readonly hidden?: boolean;
};

export type FlagsSchema = Readonly<Record<string, FlagSpec>>;

type Config<T> = { readonly doc: string; readonly default?: T };

/** Builders for pass options, e.g. `{ maxSize: option.integer({ doc: 'Largest split', default: 0, min: 0 }) }`. */
export const option = {
  boolean: (config: Config<boolean>): BooleanOption => ({ type: 'boolean', doc: config.doc, default: config.default ?? false }),
  integer: (config: Config<number> & { readonly min?: number; readonly max?: number }): IntegerOption => ({
    type: 'integer',
    doc: config.doc,
    default: config.default ?? 0,
    ...(config.min !== undefined && { min: config.min }),
    ...(config.max !== undefined && { max: config.max }),
  }),
  string: (config: Config<string> & { readonly valueName?: string }): StringOption => ({
    type: 'string',
    doc: config.doc,
    default: config.default ?? '',
    ...(config.valueName !== undefined && { valueName: config.valueName }),
  }),
  stringList: (config: Config<readonly string[]> & { readonly valueName?: string }): StringListOption => ({
    type: 'string-list',
    doc: config.doc,
    default: config.default ?? [],
    ...(config.valueName !== undefined && { valueName: config.valueName }),
  }),
  enum: <const V extends string>(values: readonly V[], config: Config<NoInfer<V>> & { readonly bare?: boolean }): EnumOption<V> => {
    if (values.length === 0) throw new TypeError('an enum option needs at least one value');
    for (const value of values) {
      // Values must print back into `<...>` unchanged.
      if (value === '' || /[;<>\s]/.test(value)) throw new TypeError(`enum value '${value}' is empty or contains ';', '<', '>' or whitespace`);
    }
    if (new Set(values).size !== values.length) throw new TypeError(`enum values repeat: ${values.join(', ')}`);
    return { type: 'enum', values, doc: config.doc, default: config.default ?? values[0]!, ...(config.bare === true && { bare: true }) };
  },
};

type Named<S extends OptionSpec> = S & { readonly name: string; readonly hidden?: boolean };
type FlagConfig = { readonly hidden?: boolean };

/** Builders for global flags; the first argument is the exact `cl::opt` name. */
export const flag = {
  boolean: (name: string, config: Config<boolean> & FlagConfig): Named<BooleanOption> => named(name, option.boolean(config), config),
  integer: (name: string, config: Config<number> & FlagConfig & { readonly min?: number; readonly max?: number }): Named<IntegerOption> =>
    named(name, option.integer(config), config),
  string: (name: string, config: Config<string> & FlagConfig & { readonly valueName?: string }): Named<StringOption> =>
    named(name, option.string(config), config),
  stringList: (name: string, config: Config<readonly string[]> & FlagConfig & { readonly valueName?: string }): Named<StringListOption> =>
    named(name, option.stringList(config), config),
  enum: <const V extends string>(name: string, values: readonly V[], config: Config<NoInfer<V>> & FlagConfig): Named<EnumOption<V>> =>
    named(name, option.enum(values, config), config),
};

function named<S extends OptionSpec>(name: string, spec: S, config: FlagConfig): Named<S> {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) throw new TypeError(`invalid flag name '${name}'`);
  return { ...spec, name, ...(config.hidden === true && { hidden: true }) };
}

const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The text name of a schema key: `maxSize` → `max-size`. */
export function optionTextName(key: string): string {
  const name = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (!KEBAB.test(name)) throw new TypeError(`option key '${key}' does not make a kebab-case name (got '${name}')`);
  return name;
}

/**
 * Checks a schema once, when a pass is defined: names are kebab-case and every spelling
 * (`x`, `no-x`, bare enum values) means exactly one thing; defaults are valid values.
 */
export function checkSchema(passName: string, schema: OptionsSchema): void {
  const spellings = new Map<string, string>();
  const claim = (spelling: string, key: string): void => {
    const previous = spellings.get(spelling);
    if (previous !== undefined) {
      throw new TypeError(`pass '${passName}': '${spelling}' would mean both option '${previous}' and option '${key}'`);
    }
    spellings.set(spelling, key);
  };
  for (const [key, spec] of Object.entries(schema)) {
    const name = optionTextName(key);
    claim(name, key);
    if (spec.type === 'boolean') claim(`no-${name}`, key);
    if (spec.type === 'enum' && spec.bare === true) {
      for (const value of spec.values) {
        if (value.includes('=')) throw new TypeError(`pass '${passName}': bare enum value '${value}' of option '${name}' contains '='`);
        claim(value, key);
      }
    }
    const problem = valueProblem(spec, spec.default);
    if (problem !== undefined) throw new TypeError(`pass '${passName}': default of option '${name}' ${problem}`);
  }
}

/** Why a value cannot be an option's value (undefined when it is fine and prints back as itself). */
export function valueProblem(spec: OptionSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'must be an integer';
      if (spec.min !== undefined && value < spec.min) return `must be at least ${spec.min}`;
      if (spec.max !== undefined && value > spec.max) return `must be at most ${spec.max}`;
      return undefined;
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return /[;<>]/.test(value) ? "must not contain ';', '<' or '>'" : undefined;
    case 'string-list':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return 'must be a list of strings';
      if (value.some((item: string) => item === '' || /[,;<>]/.test(item))) {
        return "must hold non-empty items without ',', ';', '<' or '>'";
      }
      return undefined;
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? undefined : `must be one of ${spec.values.join(', ')}`;
  }
}

/** Parses the text of one value (after `=`). Returns the value or a problem description. */
function parseValueText(spec: OptionSpec, raw: string): { value: unknown } | { problem: string } {
  switch (spec.type) {
    case 'boolean': {
      const lower = raw.toLowerCase();
      if (lower === 'true' || lower === '1') return { value: true };
      if (lower === 'false' || lower === '0') return { value: false };
      return { problem: `'${raw}' is not a boolean (true, false, 1 or 0)` };
    }
    case 'integer': {
      if (!/^-?\d+$/.test(raw)) return { problem: `'${raw}' is not an integer` };
      const value = Number(raw);
      const problem = valueProblem(spec, value);
      return problem === undefined ? { value } : { problem: `${raw} ${problem.replace(/^must/, 'is out of range: must')}` };
    }
    case 'string':
      return { value: raw };
    case 'string-list':
      // Like LLVM's cl::opt handling of these lists: split on ',', dropping empty pieces.
      return { value: raw.split(',').filter((item) => item !== '') };
    case 'enum':
      return spec.values.includes(raw)
        ? { value: raw }
        : { problem: `'${raw}' is not one of ${spec.values.join(', ')}${didYouMean(raw, spec.values)}` };
  }
}

/** One `;`-separated piece of `<...>`, with its offset in the whole pipeline text. */
export interface OptionEntry {
  readonly text: string;
  readonly offset: number;
}

/**
 * Parses option entries against a schema, filling in defaults. Errors are PipelineErrors pointing
 * at the entry (or the value after `=`) within `source`.
 */
export function parseOptionEntries<S extends OptionsSchema>(
  passName: string,
  schema: S,
  entries: readonly OptionEntry[],
  source: { readonly text: string; readonly name?: string },
): OptionValues<S> {
  const fail = (message: string, offset: number, length: number): never => {
    throw new PipelineError(message, source.text, offset, length, source.name);
  };
  const byName = new Map<string, string>();
  const bareValues = new Map<string, string>();
  for (const [key, spec] of Object.entries(schema)) {
    byName.set(optionTextName(key), key);
    if (spec.type === 'enum' && spec.bare === true) for (const value of spec.values) bareValues.set(value, key);
  }
  const values: Record<string, unknown> = {};
  const set = (key: string, value: unknown, entry: OptionEntry): void => {
    if (Object.hasOwn(values, key)) fail(`option '${optionTextName(key)}' of pass '${passName}' is given more than once`, entry.offset, entry.text.length);
    values[key] = value;
  };
  for (const entry of entries) {
    const { text } = entry;
    if (text === '') fail(`empty option in '${passName}<...>'`, entry.offset, 1);
    const eq = text.indexOf('=');
    const name = eq < 0 ? text : text.slice(0, eq);
    const key = byName.get(name);
    if (eq < 0 && key === undefined) {
      const bareKey = bareValues.get(text);
      if (bareKey !== undefined) {
        set(bareKey, text, entry);
        continue;
      }
      const negated = text.startsWith('no-') ? byName.get(text.slice(3)) : undefined;
      if (negated !== undefined && schema[negated]!.type === 'boolean') {
        set(negated, false, entry);
        continue;
      }
    }
    if (key === undefined) {
      const spellings = [...byName.keys(), ...bareValues.keys()];
      const known = spellings.length === 0 ? `pass '${passName}' takes no options` : `pass '${passName}' takes ${optionsDoc(schema)}`;
      fail(`unknown option '${name}'${didYouMean(name, spellings)}; ${known}`, entry.offset, name.length);
      continue;
    }
    const spec = schema[key]!;
    if (eq < 0) {
      if (spec.type === 'boolean') set(key, true, entry);
      else fail(`option '${name}' of pass '${passName}' needs a value: ${docOf(name, spec)}`, entry.offset, text.length);
      continue;
    }
    if (spec.type === 'boolean') {
      fail(`boolean option '${name}' takes no value; write '${name}' or 'no-${name}'`, entry.offset, text.length);
    }
    const raw = text.slice(eq + 1);
    const parsed = parseValueText(spec, raw);
    if ('problem' in parsed) fail(`invalid value for option '${name}' of pass '${passName}': ${parsed.problem}`, entry.offset + eq + 1, Math.max(1, raw.length));
    else {
      const problem = valueProblem(spec, parsed.value);
      if (problem !== undefined) fail(`invalid value for option '${name}' of pass '${passName}': ${problem}`, entry.offset + eq + 1, Math.max(1, raw.length));
      set(key, parsed.value, entry);
    }
  }
  for (const [key, spec] of Object.entries(schema)) if (!Object.hasOwn(values, key)) values[key] = spec.default;
  return values as OptionValues<S>;
}

/**
 * Checks programmatic option values (a partial set: missing keys get their defaults). Throws a
 * TypeError naming the pass and option for unknown keys or bad values.
 */
export function completeOptions<S extends OptionsSchema>(passName: string, schema: S, given: Partial<Record<string, unknown>> = {}): OptionValues<S> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(schema, key)) {
      throw new TypeError(`pass '${passName}' has no option '${key}'${didYouMean(key, Object.keys(schema))}`);
    }
  }
  for (const [key, spec] of Object.entries(schema)) {
    const value = given[key] === undefined ? spec.default : given[key];
    const problem = valueProblem(spec, value);
    if (problem !== undefined) throw new TypeError(`option '${optionTextName(key)}' of pass '${passName}' ${problem}`);
    values[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return Object.freeze(values) as OptionValues<S>;
}

/** Canonical option text: `<a;no-b;k=v>` with every option in declaration order, or '' if none. */
export function printOptions(schema: OptionsSchema, values: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [key, spec] of Object.entries(schema)) {
    const name = optionTextName(key);
    const value = values[key];
    if (spec.type === 'boolean') parts.push(value === true ? name : `no-${name}`);
    else if (spec.type === 'enum' && spec.bare === true) parts.push(String(value));
    else if (spec.type === 'string-list') parts.push(`${name}=${(value as readonly string[]).join(',')}`);
    else parts.push(`${name}=${String(value)}`);
  }
  return parts.length === 0 ? '' : `<${parts.join(';')}>`;
}

/** The value part of a syntax line: `<int>`, `<string>`, `<string,...>`, `a|b`. */
function valueDoc(spec: Exclude<OptionSpec, BooleanOption>): string {
  switch (spec.type) {
    case 'integer':
      return '<int>';
    case 'string':
      return `<${spec.valueName ?? 'string'}>`;
    case 'string-list':
      return `<${spec.valueName ?? 'string'},...>`;
    case 'enum':
      return spec.values.join('|');
  }
}

function docOf(name: string, spec: OptionSpec): string {
  if (spec.type === 'boolean') return `[no-]${name}`;
  if (spec.type === 'enum' && spec.bare === true) return valueDoc(spec);
  return `${name}=${valueDoc(spec)}`;
}

/** The one-line syntax of a schema in LLVM's params-doc style: `[no-]a;max-size=<int>;x|y`. */
export function optionsDoc(schema: OptionsSchema): string {
  return Object.entries(schema)
    .map(([key, spec]) => docOf(optionTextName(key), spec))
    .join(';');
}

function formatDefault(spec: OptionSpec): string {
  if (spec.type === 'string-list') return spec.default.length === 0 ? 'none' : spec.default.join(',');
  if (spec.type === 'string') return spec.default === '' ? "''" : spec.default;
  return String(spec.default);
}

/** Help rows for options: `name=<int>   doc (default: 0)`. */
export function describeOptions(schema: OptionsSchema): string[] {
  return Object.entries(schema).map(([key, spec]) => `${docOf(optionTextName(key), spec)}  ${spec.doc} (default: ${formatDefault(spec)})`);
}

/** `-name` for booleans, `-name=<value>` otherwise. */
export function flagSyntax(spec: FlagSpec): string {
  return spec.type === 'boolean' ? `-${spec.name}` : `-${spec.name}=${valueDoc(spec)}`;
}

/** Help row for a flag: `-name=<value>   doc (default: ...)`. */
export function describeFlag(spec: FlagSpec): string {
  return `${flagSyntax(spec)}  ${spec.doc} (default: ${formatDefault(spec)})`;
}

/**
 * Parses a flag value as given on the command line: `undefined` for a bare `-name`. Booleans
 * accept bare, `=true/false/1/0`; lists are split on ',' with empty pieces dropped.
 */
export function parseFlagValue(spec: FlagSpec, raw: string | undefined): unknown {
  if (raw === undefined) {
    if (spec.type === 'boolean') return true;
    throw new FlagError(`option '-${spec.name}' needs a value: ${flagSyntax(spec)}`, spec.name);
  }
  const parsed = parseValueText(spec, raw);
  if ('problem' in parsed) throw new FlagError(`invalid value for '-${spec.name}': ${parsed.problem}`, spec.name);
  if (spec.type === 'integer') {
    const problem = valueProblem(spec, parsed.value);
    if (problem !== undefined) throw new FlagError(`invalid value for '-${spec.name}': ${problem}`, spec.name);
  }
  return parsed.value;
}

/** Whether two flag declarations (from different passes) are compatible: same type and default. */
export function sameFlag(a: FlagSpec, b: FlagSpec): boolean {
  if (a.type !== b.type || JSON.stringify(a.default) !== JSON.stringify(b.default)) return false;
  return a.type !== 'enum' || (b.type === 'enum' && a.values.join('|') === b.values.join('|'));
}

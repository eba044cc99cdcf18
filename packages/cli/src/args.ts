/**
 * LLVM-style command-line parsing: `-name`, `-name=value`, `--name=value`, `-name value` for
 * options that take a value, repeatable options, and positionals. Unknown options are errors,
 * never silently ignored.
 */
import { suggest } from '@syclkit/pass-manager';

export { suggest };

export interface OptionSpec {
  /** Option name without dashes, e.g. `passes`, `o`, `S`. */
  readonly name: string;
  /** `flag` takes no value; `value` takes one (`-x=v` or `-x v`). Default `flag`. */
  readonly kind?: 'flag' | 'value';
  /** May be given more than once; values are collected in order. */
  readonly repeatable?: boolean;
  /** Accept a value only as `-name=value` (LLVM `cl::opt` with `=` syntax), never `-name value`. */
  readonly joinedOnly?: boolean;
  /** Other spellings, e.g. `help` aliases `h`. */
  readonly aliases?: readonly string[];
  /** One line for `--help`. */
  readonly help?: string;
  /** Placeholder for `--help`, e.g. `<file>`. */
  readonly valueName?: string;
}

export interface ParsedArgs {
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, readonly string[]>;
  readonly positionals: readonly string[];
  /** Options in the order given, for tools where order matters (e.g. `-o target,table`). */
  readonly ordered: readonly { readonly name: string; readonly value?: string }[];
  /** Options and positionals interleaved as given, for tools whose options apply to the inputs after them. */
  readonly items: readonly ArgItem[];
}

export type ArgItem =
  | { readonly kind: 'option'; readonly name: string; readonly value?: string }
  | { readonly kind: 'positional'; readonly value: string };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map<string, OptionSpec>();
  for (const spec of specs) {
    byName.set(spec.name, spec);
    for (const alias of spec.aliases ?? []) byName.set(alias, spec);
  }
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  const positionals: string[] = [];
  const ordered: { name: string; value?: string }[] = [];
  const items: ArgItem[] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      items.push({ kind: 'positional', value: arg });
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = byName.get(name);
    if (spec === undefined) {
      const hint = suggest(name, [...byName.keys()]);
      throw new UsageError(`unknown option '${arg}'${hint ? `; did you mean '-${hint}'?` : ''}`);
    }
    const canonical = spec.name;
    if ((spec.kind ?? 'flag') === 'flag') {
      if (eq >= 0) {
        const v = body.slice(eq + 1);
        if (v === 'false' || v === '0') {
          flags.delete(canonical);
          continue;
        }
        if (v !== 'true' && v !== '1') throw new UsageError(`option '-${name}' does not take a value`);
      }
      flags.add(canonical);
      ordered.push({ name: canonical });
      items.push({ kind: 'option', name: canonical });
      continue;
    }
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else {
      if (spec.joinedOnly) throw new UsageError(`option '-${name}' needs a value: -${name}=<value>`);
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`option '-${name}' needs a value`);
      value = next;
      i++;
    }
    const list = values.get(canonical) ?? [];
    if (list.length > 0 && !spec.repeatable) {
      throw new UsageError(`option '-${name}' given more than once`);
    }
    list.push(value);
    values.set(canonical, list);
    ordered.push({ name: canonical, value });
    items.push({ kind: 'option', name: canonical, value });
  }
  return { flags, values, positionals, ordered, items };
}

/** The value of an option that takes one of `choices`, or undefined when it is not given. */
export function choiceOf<T extends string>(args: ParsedArgs, name: string, choices: readonly T[]): T | undefined {
  const value = valueOf(args, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`invalid value '${value}' for -${name}; expected ${choices.join('|')}`);
  return value as T;
}

/** The last value of a single-valued option, or undefined. */
export function valueOf(args: ParsedArgs, name: string): string | undefined {
  const list = args.values.get(name);
  return list === undefined ? undefined : list[list.length - 1];
}

/** Renders the option list for `--help`, one option per line, in declaration order. */
export function formatOptions(specs: readonly OptionSpec[]): string {
  const rows = specs
    .filter((s) => s.help !== undefined)
    .map((s) => {
      const value = (s.kind ?? 'flag') === 'value' ? `${s.joinedOnly ? '=' : ' '}${s.valueName ?? '<value>'}` : '';
      return [`  -${s.name}${value}`, s.help ?? ''] as const;
    });
  const width = Math.min(34, Math.max(0, ...rows.map(([left]) => left.length)) + 2);
  return rows.map(([left, help]) => (left.length >= width ? `${left}\n${' '.repeat(width)}${help}` : left.padEnd(width) + help)).join('\n') + '\n';
}

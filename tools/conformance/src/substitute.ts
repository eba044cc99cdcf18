/**
 * lit substitutions, after `getDefaultSubstitutions` and `applySubstitutions` in
 * llvm/utils/lit/lit/TestRunner.py (LLVM 19). Substitutions apply in list order, each to the
 * result of the previous one; `%%` is hidden behind a marker throughout and becomes `%` at the
 * end, so `%%s` stays a literal `%s`. `DEFINE:` puts a new substitution at the front of the list,
 * `REDEFINE:` replaces one in place. `%if <feature> %{ a %} %else %{ b %}` picks a branch.
 *
 * lit matches patterns as Python regexes and replaces with escaped values; every built-in
 * pattern and every `%{name}` is free of regex syntax and every value is taken literally, so
 * plain string replacement gives the same result.
 */
import { dirname, basename, sep, delimiter } from 'node:path';
import { realpathSync } from 'node:fs';
import { evaluateBooleanExpression } from './boolean-expression.js';
import { ScriptError, type ScriptDirective } from './script.js';

export interface Substitution {
  readonly pattern: string;
  readonly value: string;
}

export interface TestPaths {
  /** Absolute path of the test file (`%s`). */
  readonly sourcePath: string;
  /** Directory for temporary files (`%T`); `%t` is `<tmpBase>.tmp`. */
  readonly tmpDir: string;
  /** `<tmpDir>/<test file name>`. */
  readonly tmpBase: string;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** lit's per-test substitutions in lit's order (`%s %S %p %t %T %{pathsep}` and their variants). */
export function defaultSubstitutions(paths: TestPaths): Substitution[] {
  const sourceDir = dirname(paths.sourcePath);
  const tmpName = `${paths.tmpBase}.tmp`;
  const list: Substitution[] = [
    { pattern: '%{pathsep}', value: delimiter },
    { pattern: '%basename_t', value: basename(paths.tmpBase) },
    { pattern: '%{fs-src-root}', value: sep },
    { pattern: '%{fs-tmp-root}', value: sep },
    { pattern: '%{fs-sep}', value: sep },
    { pattern: '%/et', value: tmpName },
  ];
  const byLetter: [string, string][] = [
    ['s', paths.sourcePath],
    ['S', sourceDir],
    ['p', sourceDir],
    ['t', tmpName],
    ['T', paths.tmpDir],
  ];
  for (const [letter, path] of byLetter) {
    const real = realpathOr(path);
    list.push(
      { pattern: `%${letter}`, value: path },
      { pattern: `%/${letter}`, value: path },
      { pattern: `%{${letter}:real}`, value: real },
      { pattern: `%{/${letter}:real}`, value: real },
      { pattern: `%{/${letter}:regex_replacement}`, value: path.replace(/@/g, '\\@').replace(/&/g, '\\&') },
      { pattern: `%:${letter}`, value: path.replace(/^\//, '') },
    );
  }
  return list;
}

const PERCENT_MARKER = '#_MARKER_#';

function escapePercents(line: string): string {
  return line.split('%%').join(PERCENT_MARKER);
}

/** Expands `%if cond %{ ... %} %else %{ ... %}` (nesting allowed) with `features` available. */
export function substituteIfElse(line: string, features: readonly string[]): string {
  if (!line.includes('%if ')) return line;
  let rest = line;
  const parse = (nested: boolean): string => {
    let result = '';
    while (rest.length > 0) {
      if (nested && rest.startsWith('%}')) break;
      if (rest.startsWith('%if ')) {
        const open = rest.indexOf('%{', 4);
        if (open < 0) throw new ScriptError("'%{' is missing for %if substitution");
        const condition = rest.slice(4, open);
        rest = rest.slice(open + 2);
        const whenTrue = parse(true);
        if (!rest.startsWith('%}')) throw new ScriptError("'%}' is missing for %if substitution");
        rest = rest.slice(2);
        let whenFalse = '';
        const elseMatch = /^\s*%else\s*(%\{)?/.exec(rest);
        if (elseMatch !== null) {
          if (elseMatch[1] === undefined) throw new ScriptError("'%{' is missing for %else substitution");
          rest = rest.slice(elseMatch[0].length);
          whenFalse = parse(true);
          if (!rest.startsWith('%}')) throw new ScriptError("'%}' is missing for %else substitution");
          rest = rest.slice(2);
        }
        result += evaluateBooleanExpression(condition, features) ? whenTrue : whenFalse;
        continue;
      }
      // Plain text up to the next `%if` (or `%}` inside a branch).
      const m = (nested ? /%if|%\}/ : /%if/).exec(rest);
      // A `%if` without the space is plain text (lit itself would loop forever on it).
      const end = m === null ? rest.length : Math.max(1, m.index);
      result += rest.slice(0, end);
      rest = rest.slice(end);
    }
    return result;
  };
  return parse(false);
}

function replaceAll(text: string, pattern: string, value: string): string {
  return text.split(pattern).join(value);
}

/** Applies `substitutions` in order to one command line. */
export function substituteLine(line: string, substitutions: readonly Substitution[], features: readonly string[] = []): string {
  let text = substituteIfElse(escapePercents(line), features);
  for (const { pattern, value } of substitutions) text = replaceAll(escapePercents(text), pattern, value);
  return replaceAll(text, PERCENT_MARKER, '%').trim();
}

export interface SubstitutedCommand {
  readonly startLine: number;
  readonly endLine: number;
  /** The command as written (continuations joined). */
  readonly raw: string;
  /** The command after substitution, as executed. */
  readonly command: string;
}

/**
 * Walks the directives in order: `DEFINE:`/`REDEFINE:` adjust the substitution list, `RUN:`
 * commands are substituted with the list as it stands. Throws ScriptError on lit's errors
 * (defining an existing name, redefining an unknown one).
 */
export function applySubstitutions(
  directives: readonly ScriptDirective[],
  initial: readonly Substitution[],
  features: readonly string[] = [],
): SubstitutedCommand[] {
  const substitutions = [...initial];
  const commands: SubstitutedCommand[] = [];
  for (const directive of directives) {
    if (directive.kind === 'run') {
      commands.push({
        startLine: directive.startLine,
        endLine: directive.endLine,
        raw: directive.command,
        command: substituteLine(directive.command, substitutions, features),
      });
      continue;
    }
    const keyword = directive.kind === 'define' ? 'DEFINE:' : 'REDEFINE:';
    const existing = substitutions.flatMap((s, i) => (s.pattern.includes(directive.name) ? [i] : []));
    if (directive.kind === 'define') {
      if (existing.length > 0) {
        throw new ScriptError(`Substitution whose pattern contains '${directive.name}' is already defined before '${keyword}' directive at line ${directive.startLine}`, directive.startLine);
      }
      substitutions.unshift({ pattern: directive.name, value: directive.value });
      continue;
    }
    if (existing.length > 1) {
      throw new ScriptError(`Multiple substitutions whose patterns contain '${directive.name}' are defined before '${keyword}' directive at line ${directive.startLine}`, directive.startLine);
    }
    const index = existing[0];
    if (index === undefined) {
      throw new ScriptError(`No substitution for '${directive.name}' is defined before '${keyword}' directive at line ${directive.startLine}`, directive.startLine);
    }
    if (substitutions[index]!.pattern !== directive.name) {
      throw new ScriptError(`Existing substitution whose pattern contains '${directive.name}' does not have the pattern specified by '${keyword}' directive at line ${directive.startLine}`, directive.startLine);
    }
    substitutions[index] = { pattern: directive.name, value: directive.value };
  }
  return commands;
}

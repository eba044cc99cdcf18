/**
 * Extraction of a lit test's directives, after `parseIntegratedTestScriptCommands` and
 * `_parseKeywords` in llvm/utils/lit/lit/TestRunner.py (LLVM 19):
 *
 * - A keyword (`RUN:`, `XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:`, `END.`, `DEFINE:`,
 *   `REDEFINE:`) is found anywhere in a line, whatever precedes it (`;`, `//`, `#`), and the rest
 *   of the line is its value. The first keyword of a line wins. `RUN` without the colon is text.
 * - A `RUN:` line ending in `\` continues with the next `RUN:` line: the `\` is dropped and the
 *   next line's text (after its keyword) is appended as is.
 * - `DEFINE:`/`REDEFINE:` share the ordered script with `RUN:` so they apply to later lines only.
 * - A test without any `RUN:` line, or with an unterminated continuation, is unresolved.
 */
import { BooleanExpressionError, evaluateBooleanExpression } from './boolean-expression.js';

export interface CommandDirective {
  readonly kind: 'run';
  readonly startLine: number;
  endLine: number;
  /** The command with continuations joined, trailing whitespace removed, not yet substituted. */
  command: string;
}

export interface SubstitutionDirective {
  readonly kind: 'define' | 'redefine';
  readonly startLine: number;
  endLine: number;
  /** The text accumulated so far (name = value), continuations joined with one space. */
  body: string;
  /** `%{name}`, set once the directive is complete. */
  name: string;
  value: string;
}

export type ScriptDirective = CommandDirective | SubstitutionDirective;

export interface TestScript {
  /** `RUN:`, `DEFINE:` and `REDEFINE:` directives in file order. */
  readonly directives: readonly ScriptDirective[];
  readonly requires: readonly string[];
  readonly unsupported: readonly string[];
  readonly xfails: readonly string[];
  /** `ALLOW_RETRIES:` value, 0 when absent. */
  readonly allowedRetries: number;
}

/** A test lit would report as UNRESOLVED (malformed directives, no `RUN:` line). */
export class ScriptError extends Error {
  override readonly name = 'ScriptError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

const KEYWORDS = ['RUN:', 'XFAIL:', 'REQUIRES:', 'UNSUPPORTED:', 'ALLOW_RETRIES:', 'END.', 'DEFINE:', 'REDEFINE:'] as const;
type Keyword = (typeof KEYWORDS)[number];

// `[^\n]*` rather than `.*`: lit scans bytes, where `.` also matches `\r` and U+2028/9.
const KEYWORD_LINE = new RegExp(`(${KEYWORDS.map((k) => k.replace(/[.]/g, '\\.')).join('|')})([^\\n]*)\\n`, 'g');

/** Every keyword occurrence: line number (1-based), keyword and the text after it. */
export function scanKeywords(text: string): { line: number; keyword: Keyword; value: string }[] {
  const data = text.endsWith('\n') ? text : `${text}\n`;
  const found: { line: number; keyword: Keyword; value: string }[] = [];
  let line = 1;
  let last = 0;
  for (const match of data.matchAll(KEYWORD_LINE)) {
    for (let i = last; i < match.index; i++) if (data.charCodeAt(i) === 10) line++;
    last = match.index;
    found.push({ line, keyword: match[1] as Keyword, value: match[2]!.replace(/\r+$/, '') });
  }
  return found;
}

/** lit's `%(line)`, `%(line+N)`, `%(line-N)`: line numbers are fixed when the line is read. */
export function substituteLineNumbers(lineNumber: number, text: string): string {
  return text
    .replace(/%\(line\)/g, String(lineNumber))
    .replace(/%\(line *([+-]) *(\d+)\)/g, (_, sign: string, n: string) =>
      String(sign === '+' ? lineNumber + Number(n) : lineNumber - Number(n)),
    );
}

const SUBSTITUTION_NAME = /^%\{[_a-zA-Z][-_:0-9a-zA-Z]*\}$/;

function needsContinuation(directive: ScriptDirective): boolean {
  return directive.kind === 'run' ? directive.command.endsWith('\\') : directive.body.trimEnd().endsWith('\\');
}

function completeSubstitution(directive: SubstitutionDirective, keyword: string): void {
  if (needsContinuation(directive)) return;
  const eq = directive.body.indexOf('=');
  if (eq < 0) throw new ScriptError(`Substitution's definition does not contain '=' in ${keyword} directive`, directive.startLine);
  directive.name = directive.body.slice(0, eq).trim();
  directive.value = directive.body.slice(eq + 1).trim();
  if (!SUBSTITUTION_NAME.test(directive.name)) {
    throw new ScriptError(
      `Substitution name '${directive.name}' is malformed as it must start with '%{', it must end with '}', and the rest must start with a letter or underscore and contain only alphanumeric characters, hyphens, underscores, and colons`,
      directive.startLine,
    );
  }
}

function keywordOf(directive: ScriptDirective): Keyword {
  return directive.kind === 'run' ? 'RUN:' : directive.kind === 'define' ? 'DEFINE:' : 'REDEFINE:';
}

/** Parses the directives of a lit test file; throws ScriptError where lit reports UNRESOLVED. */
export function parseTestScript(text: string): TestScript {
  const directives: ScriptDirective[] = [];
  const lists: Record<'XFAIL:' | 'REQUIRES:' | 'UNSUPPORTED:', string[]> = { 'XFAIL:': [], 'REQUIRES:': [], 'UNSUPPORTED:': [] };
  const retries: number[] = [];
  for (const { line, keyword, value } of scanKeywords(text)) {
    switch (keyword) {
      case 'RUN:': {
        const command = substituteLineNumbers(line, value);
        const previous = directives[directives.length - 1];
        if (previous?.kind === 'run' && needsContinuation(previous)) {
          previous.command = previous.command.slice(0, -1) + command.trimEnd();
          previous.endLine = line;
        } else {
          directives.push({ kind: 'run', startLine: line, endLine: line, command: command.trimEnd() });
        }
        break;
      }
      case 'DEFINE:':
      case 'REDEFINE:': {
        const body = substituteLineNumbers(line, value);
        const kind = keyword === 'DEFINE:' ? 'define' : 'redefine';
        const previous = directives[directives.length - 1];
        if (previous !== undefined && previous.kind === kind && needsContinuation(previous)) {
          if (body.trim() === '') throw new ScriptError(`Substitution's continuation is empty in ${keyword} directive`, line);
          previous.body = `${previous.body.trimEnd().slice(0, -1).trimEnd()} ${body.trimStart()}`;
          previous.endLine = line;
          completeSubstitution(previous, keyword);
        } else {
          const directive: SubstitutionDirective = { kind, startLine: line, endLine: line, body, name: '', value: '' };
          completeSubstitution(directive, keyword);
          directives.push(directive);
        }
        break;
      }
      case 'XFAIL:':
      case 'REQUIRES:':
      case 'UNSUPPORTED:': {
        const list = lists[keyword];
        const parts = value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        const last = list[list.length - 1];
        if (last !== undefined && last.endsWith('\\')) {
          const first = parts.shift();
          if (first === undefined) throw new ScriptError(`Empty continuation of '${keyword}' line`, line);
          list[list.length - 1] = last.slice(0, -1) + first;
        }
        list.push(...parts);
        for (const expression of list) {
          if (expression === '*' || expression.endsWith('\\')) continue;
          try {
            evaluateBooleanExpression(expression, []);
          } catch (error) {
            if (error instanceof BooleanExpressionError) throw new ScriptError(`${error.message} in ${keyword} directive`, line);
            throw error;
          }
        }
        break;
      }
      case 'ALLOW_RETRIES:': {
        if (!/^\s*[-+]?\d+\s*$/.test(value)) {
          throw new ScriptError(`INTEGER parser requires the input to be an integer (got ${value.trim()})`, line);
        }
        retries.push(Number.parseInt(value, 10));
        break;
      }
      case 'END.':
        break;
    }
    // `END.` with nothing after it stops the scan (lit's TAG keyword).
    if (keyword === 'END.' && value.trim() === '') break;
  }

  if (!directives.some((d) => d.kind === 'run')) throw new ScriptError("Test has no 'RUN:' line");
  for (const directive of directives) {
    if (needsContinuation(directive)) {
      const where = directive.startLine === directive.endLine ? `at line ${directive.startLine}` : `from line ${directive.startLine} to ${directive.endLine}`;
      throw new ScriptError(`Test has unterminated '${keywordOf(directive)}' directive (with '\\') ${where}`, directive.startLine);
    }
  }
  for (const [keyword, list] of Object.entries(lists)) {
    if (list[list.length - 1]?.endsWith('\\')) throw new ScriptError(`Test has unterminated '${keyword}' lines (with '\\')`);
  }
  if (retries.length > 1) throw new ScriptError('Test has more than one ALLOW_RETRIES lines');

  return {
    directives,
    requires: lists['REQUIRES:'],
    unsupported: lists['UNSUPPORTED:'],
    xfails: lists['XFAIL:'],
    allowedRetries: retries[0] ?? 0,
  };
}

/** The `RUN:` commands of a test, continuations joined, before substitution. */
export function extractRunLines(text: string): string[] {
  return parseTestScript(text)
    .directives.filter((d): d is CommandDirective => d.kind === 'run')
    .map((d) => d.command);
}

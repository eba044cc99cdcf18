/**
 * Pipeline text → syntax tree, in LLVM's style: commas make a sequence, parentheses nest,
 * angle brackets hold options. Only syntax: names are looked up later (see the registry).
 *
 *   pipeline  = [ element { "," element } ] ;
 *   element   = name [ options ] [ "(" element { "," element } ")" ] ;
 *   options   = "<" [ entry { ";" entry } ] ">" ;
 *   name      = namechar { namechar } ;      namechar = letter | digit | "-" | "_" | "." ;
 *   entry     = { any character except ";" "<" ">" } ;
 *
 * Whitespace is allowed around "," and ")", after "(" and at the ends; nowhere else (not between a
 * name and its "<" or "("). Inside "<...>" it is part of the entry.
 */
import { PipelineError } from './errors.js';
import type { OptionEntry } from './options.js';

export interface SyntaxOptions {
  /** Offset of `<`. */
  readonly offset: number;
  /** Offset just past `>`. */
  readonly end: number;
  readonly entries: readonly OptionEntry[];
}

export interface SyntaxNode {
  readonly name: string;
  /** Offset of the name in the text. */
  readonly offset: number;
  readonly options?: SyntaxOptions;
  readonly inner?: readonly SyntaxNode[];
  /** Offset of `(` when there is a nested pipeline. */
  readonly innerOffset?: number;
}

const MAX_DEPTH = 256;

function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_.-]/.test(c);
}

/** Parses pipeline text into syntax nodes. Throws a PipelineError with the offset on bad syntax. */
export function parsePipelineSyntax(text: string, source = 'pipeline'): SyntaxNode[] {
  let pos = 0;
  const fail = (message: string, offset: number, length = 1): never => {
    throw new PipelineError(message, text, offset, length, source);
  };
  const describe = (at: number): string => (at >= text.length ? 'end of pipeline' : `'${text[at]}'`);
  const skipSpace = (): void => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };

  const parseList = (depth: number): SyntaxNode[] => {
    const nodes = [parseElement(depth)];
    for (;;) {
      skipSpace();
      if (text[pos] !== ',') return nodes;
      pos++;
      nodes.push(parseElement(depth));
    }
  };

  const parseOptions = (): SyntaxOptions => {
    const open = pos;
    pos++;
    const entries: OptionEntry[] = [];
    let entryStart = pos;
    for (;;) {
      if (pos >= text.length) return fail("unterminated options: expected '>'", open);
      const c = text[pos]!;
      if (c === '<') return fail("'<' inside options; options cannot nest", pos);
      if (c === ';' || c === '>') {
        entries.push({ text: text.slice(entryStart, pos), offset: entryStart });
        entryStart = pos + 1;
      }
      pos++;
      if (c === '>') break;
    }
    // `name<>` means "all defaults": no entries rather than one empty entry.
    const onlyEntry = entries.length === 1 ? entries[0] : undefined;
    return { offset: open, end: pos, entries: onlyEntry !== undefined && onlyEntry.text === '' ? [] : entries };
  };

  const parseElement = (depth: number): SyntaxNode => {
    skipSpace();
    const start = pos;
    while (pos < text.length && isNameChar(text[pos]!)) pos++;
    if (pos === start) {
      const found = describe(pos);
      return fail(`expected a pass name, found ${found}`, pos);
    }
    const name = text.slice(start, pos);
    let options: SyntaxOptions | undefined;
    if (text[pos] === '<') options = parseOptions();
    if (text[pos] !== '(') return options === undefined ? { name, offset: start } : { name, offset: start, options };
    if (depth + 1 >= MAX_DEPTH) fail(`pipeline nests deeper than ${MAX_DEPTH} levels`, pos);
    const innerOffset = pos;
    pos++;
    skipSpace();
    if (text[pos] === ')') fail(`empty nested pipeline in '${name}(...)'`, innerOffset, pos - innerOffset + 1);
    const inner = parseList(depth + 1);
    skipSpace();
    if (text[pos] !== ')') {
      if (pos >= text.length) fail(`unclosed '(' of '${name}'`, innerOffset);
      fail(`expected ',' or ')', found ${describe(pos)}`, pos);
    }
    pos++;
    return { name, offset: start, ...(options !== undefined && { options }), inner, innerOffset };
  };

  skipSpace();
  if (pos >= text.length) return [];
  const nodes = parseList(0);
  skipSpace();
  if (pos < text.length) {
    if (text[pos] === ')') fail("unmatched ')'", pos);
    fail(`expected ',' or end of pipeline, found ${describe(pos)}`, pos);
  }
  return nodes;
}

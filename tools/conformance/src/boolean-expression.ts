/**
 * lit's boolean feature expressions (`REQUIRES:`, `UNSUPPORTED:`, `XFAIL:`), after
 * llvm/utils/lit/lit/BooleanExpression.py:
 *
 *   expr       :: or_expr
 *   or_expr    :: and_expr ('||' and_expr)*
 *   and_expr   :: not_expr ('&&' not_expr)*
 *   not_expr   :: '!' not_expr | '(' or_expr ')' | match_expr
 *   match_expr :: (identifier | '{{' regex '}}')+      identifier :: [-+=._a-zA-Z0-9]+
 *
 * A match expression is true when it fully matches one of the available features; `true` is
 * always available. Every other identifier is false, which is how unknown features behave.
 */

export class BooleanExpressionError extends Error {
  override readonly name = 'BooleanExpressionError';
}

const END = Symbol('end of expression');
type Token = string | typeof END;

const TOKEN = /^\s*([()]|&&|\|\||!|(?:[-+=._a-zA-Z0-9]+|\{\{.+?\}\})+)\s*(.*)$/s;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let rest = text;
  while (true) {
    const m = TOKEN.exec(rest);
    if (m === null) {
      if (rest === '') break;
      throw new BooleanExpressionError(`couldn't parse text: '${rest}'`);
    }
    tokens.push(m[1]!);
    rest = m[2]!;
  }
  tokens.push(END);
  return tokens;
}

function quote(token: Token): string {
  return token === END ? '<end of expression>' : `'${token}'`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Evaluates `expression` with `features` available; throws BooleanExpressionError on bad syntax. */
export function evaluateBooleanExpression(expression: string, features: Iterable<string>): boolean {
  const variables = new Set(features);
  variables.add('true');
  const tokens = tokenize(expression);
  let position = 0;
  let token: Token = tokens[0]!;
  const advance = (): void => {
    position++;
    token = tokens[position] ?? END;
  };
  const accept = (t: string): boolean => {
    if (token !== t) return false;
    advance();
    return true;
  };
  const expect = (t: Token): void => {
    if (token !== t) throw new BooleanExpressionError(`expected: ${quote(t)}; have: ${quote(token)}`);
    if (token !== END) advance();
  };

  const parseMatch = (text: string): boolean => {
    let source = '';
    for (const part of text.split(/(\{\{.+?\}\})/)) {
      if (part === '') continue;
      source += part.startsWith('{{') ? `(?:${part.slice(2, -2)})` : escapeRegExp(part);
    }
    let regex: RegExp;
    try {
      regex = new RegExp(`^(?:${source})$`);
    } catch (error) {
      throw new BooleanExpressionError(`bad regex in '${text}': ${(error as Error).message}`);
    }
    return [...variables].some((v) => regex.test(v));
  };
  const parseNot = (): boolean => {
    if (accept('!')) return !parseNot();
    if (accept('(')) {
      const value = parseOr();
      expect(')');
      return value;
    }
    if (token === END || token === '&&' || token === '||' || token === ')') {
      throw new BooleanExpressionError(`expected: '!', '(', '{{', or identifier; have: ${quote(token)}`);
    }
    const value = parseMatch(token);
    advance();
    return value;
  };
  const parseAnd = (): boolean => {
    let value = parseNot();
    while (accept('&&')) {
      const right = parseNot();
      value = value && right;
    }
    return value;
  };
  const parseOr = (): boolean => {
    let value = parseAnd();
    while (accept('||')) {
      const right = parseAnd();
      value = value || right;
    }
    return value;
  };

  try {
    const value = parseOr();
    expect(END);
    return value;
  } catch (error) {
    if (error instanceof BooleanExpressionError) {
      throw new BooleanExpressionError(`${error.message} in expression: '${expression}'`);
    }
    throw error;
  }
}

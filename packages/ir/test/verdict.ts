import { IrSyntaxError } from '../src/errors.js';
import { parseModule } from '../src/reader/parser.js';

/** What the parser says about `text`: `line:col: message` for a syntax error, undefined when it reads it. */
export function syntaxVerdict(text: string, filename = '<stdin>'): string | undefined {
  try {
    parseModule(text, { filename });
    return undefined;
  } catch (error) {
    if (!(error instanceof IrSyntaxError)) throw error;
    return `${error.line}:${error.column}: ${error.message}`;
  }
}

/** Whether the parser reads `text` without an error of any kind. */
export function parses(text: string, filename = '<stdin>'): boolean {
  try {
    parseModule(text, { filename });
    return true;
  } catch {
    return false;
  }
}

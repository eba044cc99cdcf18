import { IrSyntaxError } from '../errors.js';
import { parseModule } from '../parser.js';

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

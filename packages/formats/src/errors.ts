/** A position in a text input: 1-based line and column (columns count UTF-16 code units). */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Every error this package throws. `reason` is the bare message; `message` and `render()` add the
 * location (`file:line:col`) when there is one, so a CLI can print it without a stack trace.
 */
export class FormatError extends Error {
  override readonly name: string = 'FormatError';

  constructor(
    readonly reason: string,
    readonly location?: SourceLocation,
  ) {
    super(location === undefined ? reason : `${formatLocation(location)}: ${reason}`);
  }

  render(): string {
    return this.location === undefined ? `error: ${this.reason}` : `${formatLocation(this.location)}: error: ${this.reason}`;
  }
}

/** A malformed custom-base64 string; `index` is the offending character (or the string length). */
export class Base64DecodeError extends FormatError {
  override readonly name: string = 'Base64DecodeError';

  constructor(
    reason: string,
    readonly index: number,
  ) {
    super(reason);
  }
}

function formatLocation(location: SourceLocation): string {
  return `${location.file}:${location.line}:${location.column}`;
}

/** Shows a character in an error message; control and non-ASCII characters as a code point. */
export function describeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).padStart(2, '0');
  return code >= 0x21 && code <= 0x7e ? `'${char}' (0x${hex})` : `U+${hex.toUpperCase().padStart(4, '0')}`;
}

import { FormatError } from './errors.js';

/** The text of a file: a string, or bytes that must be UTF-8. */
export type TextInput = string | Uint8Array;

/** Options shared by the readers. */
export interface ReadOptions {
  /** Name used in error locations; default `<input>`. */
  readonly fileName?: string;
}

export const DEFAULT_FILE_NAME = '<input>';

/** One non-blank line and its 1-based number. */
export interface SourceLine {
  readonly text: string;
  readonly line: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes the input and splits it the way LLVM's `line_iterator` does: lines end at `\n` or `\r\n`,
 * blank lines are skipped but still counted. Invalid UTF-8 and NUL characters are errors (upstream
 * silently stops reading at a NUL; a file holding one is corrupt).
 */
export function splitLines(input: TextInput, file: string): SourceLine[] {
  const text = decodeText(input, file);
  const nul = text.indexOf('\0');
  if (nul >= 0) throw new FormatError('unexpected NUL character', locate(text, nul, file));
  // Only string input can hold these; they have no UTF-8 form, so they could not be written back.
  const surrogate = typeof input === 'string' ? text.search(/\p{Cs}/u) : -1;
  if (surrogate >= 0) throw new FormatError('unpaired UTF-16 surrogate', locate(text, surrogate, file));
  const lines: SourceLine[] = [];
  let start = 0;
  let number = 1;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    // `\r` belongs to the line ending only when `\n` follows it.
    const contentEnd = newline >= 0 && end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (contentEnd > start) lines.push({ text: text.slice(start, contentEnd), line: number });
    if (newline < 0) break;
    start = newline + 1;
    number++;
  }
  return lines;
}

function decodeText(input: TextInput, file: string): string {
  if (typeof input === 'string') return input;
  try {
    return utf8.decode(input);
  } catch {
    const offset = firstInvalidUtf8(input);
    const valid = utf8.decode(input.subarray(0, offset));
    throw new FormatError('invalid UTF-8 sequence', locate(valid, valid.length, file));
  }
}

function locate(text: string, index: number, file: string): { file: string; line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { file, line, column: index - lineStart + 1 };
}

/** Byte offset of the first byte that does not start a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let length: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      length = 2;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      min = 0x10000;
    } else {
      return i;
    }
    if (i + length > bytes.length) return i;
    let codePoint = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i;
    i += length;
  }
  return bytes.length;
}

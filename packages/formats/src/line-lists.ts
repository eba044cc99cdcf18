import { FormatError } from './errors.js';
import { DEFAULT_FILE_NAME, splitLines, type ReadOptions, type TextInput } from './lines.js';

/**
 * A `.sym` file: the image's entry-point names, one per line, each followed by `\n`, no header.
 * The offload wrapper reads it with `line_iterator`, so blank lines are skipped and `\r\n` ends a line.
 */
export function writeSymbolFile(names: readonly string[]): string {
  return writeLines(names, 'symbol name');
}

/** Reads a `.sym` file into names in file order. */
export function readSymbolFile(input: TextInput, options: ReadOptions = {}): string[] {
  return splitLines(input, options.fileName ?? DEFAULT_FILE_NAME).map((line) => line.text);
}

/**
 * A file list (`TY_Tempfilelist`): one path per line, as `file-table-tform --extract=<col>
 * --drop_titles` writes and `llvm-foreach` reads. Paths must also be valid one-column table cells
 * (no `|`, not starting with `[`) because `file-table-tform --replace` reads lists as tables.
 */
export function writeFileList(paths: readonly string[]): string {
  paths.forEach((path) => {
    if (path.includes('|')) throw new FormatError(`file list entry ${JSON.stringify(path)} contains '|'`);
    if (path.startsWith('[')) throw new FormatError(`file list entry ${JSON.stringify(path)} starts with '['`);
  });
  return writeLines(paths, 'file list entry');
}

/** Reads a file list: every non-blank line is one path. */
export function readFileList(input: TextInput, options: ReadOptions = {}): string[] {
  return splitLines(input, options.fileName ?? DEFAULT_FILE_NAME).map((line) => line.text);
}

function writeLines(entries: readonly string[], what: string): string {
  let out = '';
  for (const entry of entries) {
    let problem: string | undefined;
    if (entry.length === 0) problem = 'is empty (a blank line is skipped on reading)';
    else if (entry.includes('\n')) problem = 'contains a newline';
    else if (entry.includes('\0')) problem = 'contains NUL';
    else if (entry.endsWith('\r')) problem = "ends with '\\r' (read as part of the line ending)";
    else if (/\p{Cs}/u.test(entry)) problem = 'contains an unpaired surrogate';
    if (problem !== undefined) throw new FormatError(`${what} ${JSON.stringify(entry)} ${problem}`);
    out += `${entry}\n`;
  }
  return out;
}

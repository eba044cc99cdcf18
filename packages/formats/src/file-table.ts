import { FormatError } from './errors.js';
import { DEFAULT_FILE_NAME, splitLines, type ReadOptions, type TextInput } from './lines.js';

type Row = readonly string[];

/**
 * A file table (intel/llvm `SimpleTable`): named columns, rows of string cells. Immutable: every
 * operation returns a new table. Operations mirror `file-table-tform` flags (see README).
 */
export class FileTable {
  readonly columns: readonly string[];
  readonly rows: readonly Row[];

  private constructor(columns: readonly string[], rows: readonly Row[]) {
    this.columns = columns;
    this.rows = rows;
  }

  /** A table with the given column names (unique) and rows (each exactly one cell per column). */
  static create(columns: readonly string[], rows: readonly Row[] = []): FileTable {
    const seen = new Set<string>();
    for (const name of columns) {
      if (seen.has(name)) throw new FormatError(`column already exists ${name}`);
      seen.add(name);
    }
    if (columns.length === 0 && rows.length > 0) throw new FormatError('a table with no columns cannot have rows');
    rows.forEach((row, i) => {
      if (row.length !== columns.length) {
        throw new FormatError(`row size mismatch: row ${i} has ${row.length} cells, the table has ${columns.length} columns`);
      }
    });
    return new FileTable(Object.freeze([...columns]), Object.freeze(rows.map((row) => Object.freeze([...row]))));
  }

  /** A table without titles: columns are named `0`, `1`, … as upstream does. */
  static untitled(columnCount: number, rows: readonly Row[] = []): FileTable {
    return FileTable.create(
      Array.from({ length: columnCount }, (_, i) => String(i)),
      rows,
    );
  }

  get rowCount(): number {
    return this.rows.length;
  }

  get columnCount(): number {
    return this.columns.length;
  }

  /** Index of a column, or -1. */
  columnIndex(name: string): number {
    return this.columns.indexOf(name);
  }

  hasColumn(name: string): boolean {
    return this.columns.includes(name);
  }

  /** A column's cells top to bottom; with `--extract=<name> --drop_titles` this is a file list. */
  column(name: string): string[] {
    const index = this.#requireColumn(name);
    return this.rows.map((row) => row[index]!);
  }

  /** One cell. */
  cell(row: number, column: string): string {
    const index = this.#requireColumn(column);
    return this.#requireRow(row)[index]!;
  }

  /** Appends a column (`SimpleTable::addColumn`). */
  addColumn(name: string, cells: readonly string[]): FileTable {
    if (this.columnCount > 0 && cells.length !== this.rowCount) {
      throw new FormatError(`column size mismatch for ${name}: ${cells.length} cells for ${this.rowCount} rows`);
    }
    const rows = this.columnCount === 0 ? cells.map((cell) => [cell]) : this.rows.map((row, i) => [...row, cells[i]!]);
    return FileTable.create([...this.columns, name], rows);
  }

  /** Appends a row. */
  addRow(cells: readonly string[]): FileTable {
    return FileTable.create(this.columns, [...this.rows, cells]);
  }

  /** Replaces a column's cells with a list of the same length (e.g. `.bc` files → `.spv` files). */
  replaceColumnCells(name: string, cells: readonly string[]): FileTable {
    const index = this.#requireColumn(name);
    if (cells.length !== this.rowCount) {
      throw new FormatError(`column length mismatch for '${name}': ${this.rowCount} rows, ${cells.length} replacement cells`);
    }
    return new FileTable(
      this.columns,
      Object.freeze(this.rows.map((row, r) => Object.freeze(row.map((cell, c) => (c === index ? cells[r]! : cell))))),
    );
  }

  /**
   * `--replace=<name>,<sourceName>`: copies a column of `source` into column `name`. As upstream,
   * a table with at most one column uses that column whatever the name given, so a file list (one
   * untitled column) can replace any column by naming it.
   */
  replaceColumn(name: string, source: FileTable, sourceName: string = name): FileTable {
    if (this.rowCount !== source.rowCount) {
      throw new FormatError(
        `column length mismatch for '${name}' and '${sourceName}': ${this.rowCount} rows, source has ${source.rowCount}`,
      );
    }
    if (this.columnCount === 0 && source.columnCount === 0) throw new FormatError('empty table');
    const targetIndex = this.columnCount <= 1 ? 0 : this.columnIndex(name);
    const sourceIndex = source.columnCount <= 1 ? 0 : source.columnIndex(sourceName);
    if (targetIndex < 0) throw new FormatError(`column not found: ${name}`);
    if (sourceIndex < 0) throw new FormatError(`column not found: ${sourceName}`);
    if (this.rowCount === 0) return this;
    return new FileTable(
      this.columns,
      Object.freeze(
        this.rows.map((row, r) => Object.freeze(row.map((cell, c) => (c === targetIndex ? source.rows[r]![sourceIndex]! : cell)))),
      ),
    );
  }

  /** `--replace_cell=<column>,<row>`: sets one cell. */
  replaceCell(column: string, row: number, value: string): FileTable {
    const index = this.#requireColumn(column);
    this.#requireRow(row);
    return new FileTable(
      this.columns,
      Object.freeze(this.rows.map((cells, r) => (r === row ? Object.freeze(cells.map((cell, c) => (c === index ? value : cell))) : cells))),
    );
  }

  /** `--rename=<old>,<new>`. */
  renameColumn(oldName: string, newName: string): FileTable {
    const index = this.#requireColumn(oldName);
    if (oldName !== newName && this.hasColumn(newName)) throw new FormatError(`column already exists ${newName}`);
    const columns = this.columns.map((name, i) => (i === index ? newName : name));
    return new FileTable(Object.freeze(columns), this.rows);
  }

  /** `--extract=<a>,<b>,…` (`peelColumns`): keeps only these columns, in the table's own order. */
  extractColumns(names: readonly string[]): FileTable {
    if (new Set(names).size !== names.length) throw new FormatError('duplicated column names found');
    const missing = names.find((name) => !this.hasColumn(name));
    if (missing !== undefined) throw new FormatError(`column not found ${missing}`);
    const keep = this.columns.flatMap((name, i) => (names.includes(name) ? [i] : []));
    return new FileTable(
      Object.freeze(keep.map((i) => this.columns[i]!)),
      Object.freeze(this.rows.map((row) => Object.freeze(keep.map((i) => row[i]!)))),
    );
  }

  /** Removes columns (the complement of `extractColumns`; file-table-tform has no such flag). */
  dropColumns(names: readonly string[]): FileTable {
    const missing = names.find((name) => !this.hasColumn(name));
    if (missing !== undefined) throw new FormatError(`column not found ${missing}`);
    return this.extractColumns(this.columns.filter((name) => !names.includes(name)));
  }

  /** `--merge`: appends the rows of a table with exactly the same column names. */
  merge(other: FileTable): FileTable {
    if (this.columnCount !== other.columnCount) throw new FormatError('different number of columns');
    if (this.columns.some((name, i) => name !== other.columns[i])) throw new FormatError('different column names');
    return new FileTable(this.columns, Object.freeze([...this.rows, ...other.rows]));
  }

  /**
   * `--copy_single_file=<column>[,<row>]`: the path in that cell, which the tool copies to its output.
   * An unknown column or an empty cell is "no file found", as upstream.
   */
  singleFile(column: string, row = 0): string {
    if (!Number.isInteger(row) || row < 0 || row >= this.rowCount) throw new FormatError('row index is out of bounds');
    const index = this.columnIndex(column);
    const path = index < 0 ? '' : this.rows[row]![index]!;
    if (path === '') throw new FormatError(`no file found in specified column ${column}`);
    return path;
  }

  #requireColumn(name: string): number {
    const index = this.columnIndex(name);
    if (index < 0) throw new FormatError(`column not found: ${name}`);
    return index;
  }

  #requireRow(row: number): Row {
    if (!Number.isInteger(row) || row < 0 || row >= this.rowCount) {
      throw new FormatError(`row index out of bounds: ${row} (the table has ${this.rowCount} rows)`);
    }
    return this.rows[row]!;
  }
}

/** Writer options. */
export interface WriteFileTableOptions {
  /** Write the `[A|B]` title line (default true); false is `--drop_titles`. */
  readonly titles?: boolean;
}

/**
 * Writes a table byte-exactly as upstream: `[A|B|C]\n`, then `a|b|c\n` per row. Throws for content
 * the reader could not give back: `|`, newlines or NUL in a name or cell, a `\r` ending a line, an
 * empty cell in a one-column table (a blank line is skipped on reading), or an untitled first row
 * that starts with `[` (it would read as a title).
 */
export function writeFileTable(table: FileTable, options: WriteFileTableOptions = {}): string {
  const titles = options.titles ?? true;
  let out = '';
  if (titles) {
    table.columns.forEach((name) => checkCell(name, 'column name'));
    out += `[${table.columns.join('|')}]\n`;
  }
  table.rows.forEach((row, r) => {
    row.forEach((cell) => checkCell(cell, `cell in row ${r}`));
    const line = row.join('|');
    if (line === '') throw new FormatError(`row ${r} would be a blank line, which the reader skips`);
    if (line.endsWith('\r')) throw new FormatError(`row ${r} ends with '\\r', which the reader takes as part of the line ending`);
    if (!titles && r === 0 && line.startsWith('[')) {
      throw new FormatError("the first row of an untitled table must not start with '[' (it would read as a title)");
    }
    out += `${line}\n`;
  });
  return out;
}

function checkCell(text: string, what: string): void {
  let problem: string | undefined;
  if (text.includes('|')) problem = "contains '|'";
  else if (text.includes('\n')) problem = 'contains a newline';
  else if (text.includes('\0')) problem = 'contains NUL';
  else if (/\p{Cs}/u.test(text)) problem = 'contains an unpaired surrogate';
  if (problem !== undefined) throw new FormatError(`${what} ${JSON.stringify(text)} ${problem}`);
}

/**
 * Reads a table as upstream `SimpleTable::read`: the first non-blank line is a title if it starts
 * with `[` (then it must end with `]`), otherwise columns are named `0`, `1`, …; blank lines are
 * skipped; every row must have exactly one cell per column. An empty file is an empty table.
 */
export function readFileTable(input: TextInput, options: ReadOptions = {}): FileTable {
  const file = options.fileName ?? DEFAULT_FILE_NAME;
  const lines = splitLines(input, file);
  const first = lines[0];
  if (first === undefined) return FileTable.create([]);
  let columns: string[];
  let rowStart: number;
  if (first.text.startsWith('[')) {
    if (!first.text.endsWith(']')) {
      throw new FormatError("malformed title line: it starts with '[' but does not end with ']'", {
        file,
        line: first.line,
        column: first.text.length,
      });
    }
    columns = first.text.slice(1, -1).split('|');
    const duplicate = columns.find((name, i) => columns.indexOf(name) !== i);
    if (duplicate !== undefined) {
      throw new FormatError(`column already exists ${duplicate}`, { file, line: first.line, column: 1 });
    }
    rowStart = 1;
  } else {
    columns = first.text.split('|').map((_, i) => String(i));
    rowStart = 0;
  }
  const rows: string[][] = [];
  for (let i = rowStart; i < lines.length; i++) {
    const { text, line } = lines[i]!;
    const cells = text.split('|');
    if (cells.length !== columns.length) {
      throw new FormatError(`row size mismatch at line ${line}: ${cells.length} cells, expected ${columns.length}`, {
        file,
        line,
        column: 1,
      });
    }
    rows.push(cells);
  }
  return FileTable.create(columns, rows);
}

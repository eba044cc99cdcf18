import { FormatError } from './errors.js';
import { FileTable } from './file-table.js';

/** Column names shared by sycl-post-link, file-table-tform, the driver and the offload wrapper. */
export const FileTableColumn = {
  CODE: 'Code',
  PROPERTIES: 'Properties',
  SYMBOLS: 'Symbols',
  MANIFEST: 'Manifest',
} as const;
export type FileTableColumn = (typeof FileTableColumn)[keyof typeof FileTableColumn];

/** The files of one device image as sycl-post-link lists them. */
export interface PostLinkImageFiles {
  readonly code: string;
  readonly properties?: string;
  readonly symbols?: string;
}

/** Which optional columns sycl-post-link writes (`-properties`, `-symbols`). */
export interface PostLinkColumns {
  readonly properties: boolean;
  readonly symbols: boolean;
}

/** Column order sycl-post-link writes: always `Code`, then `Properties`, then `Symbols`. */
export function postLinkColumns(options: PostLinkColumns): FileTableColumn[] {
  const columns: FileTableColumn[] = [FileTableColumn.CODE];
  if (options.properties) columns.push(FileTableColumn.PROPERTIES);
  if (options.symbols) columns.push(FileTableColumn.SYMBOLS);
  return columns;
}

/** The table sycl-post-link writes; every image must have the files its enabled columns need. */
export function createPostLinkTable(images: readonly PostLinkImageFiles[], options: PostLinkColumns): FileTable {
  const rows = images.map((image, i) => {
    const row = [image.code];
    if (options.properties) row.push(required(image.properties, FileTableColumn.PROPERTIES, i));
    if (options.symbols) row.push(required(image.symbols, FileTableColumn.SYMBOLS, i));
    return row;
  });
  return FileTable.create(postLinkColumns(options), rows);
}

function required(path: string | undefined, column: string, row: number): string {
  if (path === undefined) throw new FormatError(`image ${row} has no file for the ${column} column`);
  return path;
}

/**
 * Reads a post-link table strictly, as the library parser `parseSplitModulesFromFile` does: the
 * columns must be exactly `[Code|Properties|Symbols]`.
 */
export function readSplitModulesTable(table: FileTable): Required<PostLinkImageFiles>[] {
  const expected = [FileTableColumn.CODE, FileTableColumn.PROPERTIES, FileTableColumn.SYMBOLS];
  if (table.columns.length !== expected.length || table.columns.some((name, i) => name !== expected[i])) {
    throw new FormatError(`expected columns [${expected.join('|')}], found [${table.columns.join('|')}]`);
  }
  return table.rows.map(([code, properties, symbols]) => ({ code: code!, properties: properties!, symbols: symbols! }));
}

/** One image of a wrapper `-batch` table; a missing optional column gives `''` (no file). */
export interface WrapperImageFiles {
  readonly code: string;
  readonly properties: string;
  readonly symbols: string;
  readonly manifest: string;
}

/**
 * Reads a `clang-offload-wrapper -batch` table: columns are looked up by name, so their order does
 * not matter; `Code` is required, `Properties`, `Symbols` and `Manifest` are optional.
 */
export function readWrapperBatchTable(table: FileTable): WrapperImageFiles[] {
  if (!table.hasColumn(FileTableColumn.CODE)) throw new FormatError(`batch table has no '${FileTableColumn.CODE}' column`);
  const optional = (name: string): string[] =>
    table.hasColumn(name) ? table.column(name) : table.rows.map(() => '');
  const code = table.column(FileTableColumn.CODE);
  const properties = optional(FileTableColumn.PROPERTIES);
  const symbols = optional(FileTableColumn.SYMBOLS);
  const manifest = optional(FileTableColumn.MANIFEST);
  return code.map((path, i) => ({ code: path, properties: properties[i]!, symbols: symbols[i]!, manifest: manifest[i]! }));
}

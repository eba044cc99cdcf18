import { FormatError, type FileTable } from '@syclkit/formats';
import { WrapperError } from './errors.js';

/**
 * One `file-table-tform` operation. Operations run in command-line order on the first input table;
 * `replace` and `replace_cell` each consume the next extra input, left to right.
 */
export type TableTransform =
  /** `-extract=<a>,<b>,…`: keep these columns (in the table's order). */
  | { readonly op: 'extract'; readonly columns: readonly string[] }
  /** `-rename=<old>,<new>`. */
  | { readonly op: 'rename'; readonly from: string; readonly to: string }
  /** `-replace=<column>,<source column>`: the column's cells from the next input (a table or a file list). */
  | { readonly op: 'replace'; readonly column: string; readonly sourceColumn: string }
  /** `-replace_cell=<column>,<row>`: the cell becomes the next input's path. */
  | { readonly op: 'replace_cell'; readonly column: string; readonly row: number }
  /** `-merge=<column>`: the result is the tables listed in that column, merged in order. */
  | { readonly op: 'merge'; readonly column: string }
  /** `-copy_single_file=<column>[,<row>]`: the output is a copy of the file in that cell (row 0 by default); must be last. */
  | { readonly op: 'copy_single_file'; readonly column: string; readonly row: number };

/** The flags, in the order `--help` lists them. */
export const TABLE_TRANSFORM_OPS = ['extract', 'rename', 'replace', 'replace_cell', 'merge', 'copy_single_file'] as const;
export type TableTransformOp = (typeof TABLE_TRANSFORM_OPS)[number];

function usage(op: string, argument: string, expected: string): WrapperError {
  return new WrapperError(`invalid argument in -${op}=${argument}: expected ${expected}`);
}

function parseRow(op: string, argument: string, text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw usage(op, argument, 'a row number (0, 1, …) after the comma');
  return Number(text);
}

/** Parses one flag's argument as upstream does, with a message naming what was expected. */
export function parseTableTransform(op: string, argument: string): TableTransform {
  const parts = argument.split(',');
  const two = (expected: string): [string, string] => {
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw usage(op, argument, expected);
    return [parts[0]!, parts[1]!];
  };
  switch (op) {
    case 'extract':
      if (argument === '' || parts.includes('')) throw usage(op, argument, 'one or more column names separated by commas');
      return { op, columns: parts };
    case 'rename': {
      const [from, to] = two('<old name>,<new name>');
      return { op, from, to };
    }
    case 'replace': {
      const [column, sourceColumn] = two('<column>,<source column>');
      return { op, column, sourceColumn };
    }
    case 'replace_cell': {
      const [column, row] = two('<column>,<row>');
      return { op, column, row: parseRow(op, argument, row) };
    }
    case 'merge':
      if (argument === '' || parts.length !== 1) throw usage(op, argument, 'one column name');
      return { op, column: argument };
    case 'copy_single_file': {
      if (parts.length === 1 && argument !== '') return { op, column: argument, row: 0 };
      const [column, row] = two('<column> or <column>,<row>');
      return { op, column, row: parseRow(op, argument, row) };
    }
    default:
      throw new WrapperError(`unknown file-table-tform operation '${op}'`);
  }
}

/** The canonical flag text of an operation (`parseTableTransform` reads it back). */
export function formatTableTransform(transform: TableTransform): string {
  switch (transform.op) {
    case 'extract':
      return `-extract=${transform.columns.join(',')}`;
    case 'rename':
      return `-rename=${transform.from},${transform.to}`;
    case 'replace':
      return `-replace=${transform.column},${transform.sourceColumn}`;
    case 'replace_cell':
      return `-replace_cell=${transform.column},${transform.row}`;
    case 'merge':
      return `-merge=${transform.column}`;
    case 'copy_single_file':
      return `-copy_single_file=${transform.column},${transform.row}`;
  }
}

/** How transforms read the tables they name (replace inputs, merged tables). */
export interface TableTransformIO {
  readTable(path: string): FileTable;
}

/** A table to write, or (after `copy_single_file`) the file to copy to the output. */
export type TableTransformResult = { readonly kind: 'table'; readonly table: FileTable } | { readonly kind: 'copy'; readonly path: string };

/**
 * Runs operations in order on `table`. `inputs` are the extra inputs after the main table: each
 * `replace` and `replace_cell` takes the next one; an input left over, or an operation without
 * one, is an error (upstream silently ignores extra inputs). `copy_single_file` must be last.
 */
export function runTableTransforms(
  table: FileTable,
  transforms: readonly TableTransform[],
  inputs: readonly string[],
  io: TableTransformIO,
): TableTransformResult {
  const copyAt = transforms.findIndex((t) => t.op === 'copy_single_file');
  if (copyAt >= 0 && copyAt !== transforms.length - 1) throw new WrapperError('copy_single_file must be the last transformation');
  const needed = transforms.filter((t) => t.op === 'replace' || t.op === 'replace_cell').length;
  if (needed > inputs.length) {
    const op = transforms.filter((t) => t.op === 'replace' || t.op === 'replace_cell')[inputs.length]!.op;
    throw new WrapperError(`no input for '${op}' command (${needed} operations take an input, ${inputs.length} given after the main table)`);
  }
  if (needed < inputs.length) throw new WrapperError(`unused input '${inputs[needed]!}': only ${needed} operations take an input`);
  let next = 0;
  let current = table;
  for (const transform of transforms) {
    try {
      switch (transform.op) {
        case 'extract':
          current = current.extractColumns(transform.columns);
          break;
        case 'rename':
          current = current.renameColumn(transform.from, transform.to);
          break;
        case 'replace': {
          const path = inputs[next++]!;
          current = current.replaceColumn(transform.column, io.readTable(path), transform.sourceColumn);
          break;
        }
        case 'replace_cell':
          current = current.replaceCell(transform.column, transform.row, inputs[next++]!);
          break;
        case 'merge': {
          const paths = current.column(transform.column);
          if (paths.length === 0) throw new WrapperError(`-merge=${transform.column}: the column lists no tables`);
          let merged = io.readTable(paths[0]!);
          for (const path of paths.slice(1)) merged = merged.merge(io.readTable(path));
          current = merged;
          break;
        }
        case 'copy_single_file':
          return { kind: 'copy', path: current.singleFile(transform.column, transform.row) };
      }
    } catch (error) {
      if (error instanceof FormatError && error.location === undefined) {
        throw new WrapperError(`${formatTableTransform(transform)}: ${error.reason}`);
      }
      throw error;
    }
  }
  return { kind: 'table', table: current };
}

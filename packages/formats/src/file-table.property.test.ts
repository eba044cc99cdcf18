// Properties checked:
// 1. readFileTable(writeFileTable(t)) = t for generated titled tables (cells without '|',
//    newlines or NUL; rows that are not blank and do not end in '\r').
// 2. Without titles the rows read back unchanged under columns 0, 1, … (first row not '[…').
// 3. Replacing a column's cells and then extracting that column gives the new list; the other
//    columns are unchanged. The same holds when the list goes through a file list and --replace.
// 4. --extract keeps the requested columns in table order with their cells; --rename then
//    reading back finds the cells under the new name.
// 5. Symbol files: readSymbolFile(writeSymbolFile(names)) = names.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { lineText } from '../test/arbitraries.js';
import { FileTable, readFileTable, writeFileTable } from './file-table.js';
import { readFileList, readSymbolFile, writeFileList, writeSymbolFile } from './line-lists.js';
import { fcOptions } from '@syclkit/testing';

const cellText = lineText().filter((text) => !text.includes('|'));

const table: fc.Arbitrary<FileTable> = fc
  .uniqueArray(cellText, { minLength: 1, maxLength: 5 })
  .chain((columns) =>
    fc
      .array(fc.array(cellText, { minLength: columns.length, maxLength: columns.length }), { maxLength: 6 })
      .map((rows) => rows.filter((row) => row.join('|') !== '' && !row.join('|').endsWith('\r')))
      .map((rows) => FileTable.create(columns, rows)),
  );

const listEntry = cellText.filter((text) => text !== '' && !text.startsWith('[') && !text.endsWith('\r'));

describe('file table properties', () => {
  test.prop([table], fcOptions())('read(write(t)) = t', (original) => {
    const read = readFileTable(writeFileTable(original));
    expect(read.columns).toEqual(original.columns);
    expect(read.rows).toEqual(original.rows);
  });

  test.prop([table.filter((t) => !(t.rows[0]?.join('|') ?? '').startsWith('['))], fcOptions())(
    'untitled tables keep their rows under columns 0, 1, …',
    (original) => {
      const read = readFileTable(writeFileTable(original, { titles: false }));
      expect(read.rows).toEqual(original.rows);
      if (original.rowCount > 0) expect(read.columns).toEqual(original.columns.map((_, i) => String(i)));
    },
  );

  test.prop(
    [table.chain((t) => fc.tuple(fc.constant(t), fc.nat({ max: t.columnCount - 1 }), fc.array(listEntry, { minLength: t.rowCount, maxLength: t.rowCount })))],
    fcOptions(),
  )('replacing a column then extracting it gives the new list', ([original, columnIndex, list]) => {
    const name = original.columns[columnIndex]!;
    const replaced = original.replaceColumnCells(name, list);
    expect(replaced.column(name)).toEqual(list);
    for (const other of original.columns) if (other !== name) expect(replaced.column(other)).toEqual(original.column(other));

    // Through a file list on disk and --replace=<name>,<anything>, as the driver does after llvm-foreach.
    const viaList = original.replaceColumn(name, readFileTable(writeFileList(list)), 'ignored');
    expect(viaList.rows).toEqual(replaced.rows);
    expect(readFileList(writeFileList(list))).toEqual(list);
  });

  test.prop([table.chain((t) => fc.tuple(fc.constant(t), fc.subarray([...t.columns], { minLength: 1 })))], fcOptions())(
    '--extract keeps the requested columns in table order',
    ([original, names]) => {
      const extracted = original.extractColumns([...names].reverse());
      expect(extracted.columns).toEqual(original.columns.filter((name) => names.includes(name)));
      for (const name of names) expect(extracted.column(name)).toEqual(original.column(name));
    },
  );

  test.prop([table, cellText], fcOptions())('--rename moves the cells to the new name', (original, newName) => {
    const oldName = original.columns[0]!;
    fc.pre(newName === oldName || !original.hasColumn(newName));
    const renamed = readFileTable(writeFileTable(original.renameColumn(oldName, newName)));
    expect(renamed.column(newName)).toEqual(original.column(oldName));
  });

  test.prop([fc.array(listEntry.filter((s) => !s.startsWith('[')), { maxLength: 8 })], fcOptions())(
    'symbol files round-trip',
    (names) => {
      expect(readSymbolFile(writeSymbolFile(names))).toEqual(names);
    },
  );
});

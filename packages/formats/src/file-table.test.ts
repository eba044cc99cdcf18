import { describe, expect, it } from 'vitest';
import { FormatError } from './errors.js';
import { FileTable, readFileTable, writeFileTable } from './file-table.js';

const POST_LINK = '[Code|Properties|Symbols]\nm_0.bc|m_0.prop|m_0.sym\nm_1.bc|m_1.prop|m_1.sym\n';

function tableError(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError');
}

describe('readFileTable / writeFileTable (§3.1)', () => {
  it('reads the title line as column names and rewrites the table byte-exactly', () => {
    const table = readFileTable(POST_LINK);
    expect(table.columns).toEqual(['Code', 'Properties', 'Symbols']);
    expect(table.rows).toEqual([
      ['m_0.bc', 'm_0.prop', 'm_0.sym'],
      ['m_1.bc', 'm_1.prop', 'm_1.sym'],
    ]);
    expect(writeFileTable(table)).toBe(POST_LINK);
  });

  it('keeps empty cells', () => {
    const table = readFileTable('[A|B|C]\n|x|\n');
    expect(table.rows).toEqual([['', 'x', '']]);
    expect(writeFileTable(table)).toBe('[A|B|C]\n|x|\n');
  });

  it('names the columns of an untitled table 0, 1, …', () => {
    const table = readFileTable('a.spv|a.sym\nb.spv|b.sym\n');
    expect(table.columns).toEqual(['0', '1']);
    expect(table.rowCount).toBe(2);
  });

  it('reads an empty file as an empty table, and a title alone as a table with no rows', () => {
    expect(readFileTable('').columns).toEqual([]);
    expect(readFileTable('').rowCount).toBe(0);
    const titleOnly = readFileTable('[Code]\n');
    expect(titleOnly.columns).toEqual(['Code']);
    expect(writeFileTable(titleOnly)).toBe('[Code]\n');
  });

  it('skips blank lines and accepts \\r\\n line endings', () => {
    const table = readFileTable('\n[A|B]\r\n\r\n1|2\r\n\n3|4');
    expect(table.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('writes without the title line for --drop_titles', () => {
    expect(writeFileTable(readFileTable(POST_LINK), { titles: false })).toBe('m_0.bc|m_0.prop|m_0.sym\nm_1.bc|m_1.prop|m_1.sym\n');
  });

  it('writes a table with no columns as [] like upstream', () => {
    expect(writeFileTable(FileTable.create([]))).toBe('[]\n');
  });

  it('reports a row with the wrong number of cells at its line, counting blank lines', () => {
    const error = tableError(() => readFileTable('[A|B]\n1|2\n\n3\n', { fileName: 't.table' }));
    expect(error.message).toBe('t.table:4:1: row size mismatch at line 4: 1 cells, expected 2');
  });

  it('reports a title line that does not end with ]', () => {
    expect(tableError(() => readFileTable('[A|B\n1|2\n', { fileName: 't' })).message).toBe(
      "t:1:4: malformed title line: it starts with '[' but does not end with ']'",
    );
  });

  it('reports duplicate column names', () => {
    expect(tableError(() => readFileTable('[A|A]\n')).reason).toBe('column already exists A');
    expect(() => FileTable.create(['A', 'A'])).toThrow('column already exists A');
  });

  it.each([
    [['a|b'], "contains '|'"],
    [['a\nb'], 'contains a newline'],
    [['a\0'], 'contains NUL'],
  ])('refuses to write the cell %j (%s)', (cells, problem) => {
    expect(() => writeFileTable(FileTable.create(['A'], [cells]))).toThrow(problem);
    expect(() => writeFileTable(FileTable.create([cells[0]!]))).toThrow(problem);
  });

  it('refuses rows that would not read back: blank, ending in \\r, or an untitled first row starting with [', () => {
    expect(() => writeFileTable(FileTable.create(['A'], [['']]))).toThrow('row 0 would be a blank line');
    expect(() => writeFileTable(FileTable.create(['A', 'B'], [['x', 'y\r']]))).toThrow("row 0 ends with '\\r'");
    expect(() => writeFileTable(FileTable.create(['A'], [['[x]']]), { titles: false })).toThrow(/would read as a title/);
    expect(writeFileTable(FileTable.create(['A'], [['[x]']]))).toBe('[A]\n[x]\n');
  });

  it('refuses rows that do not match the column count', () => {
    expect(() => FileTable.create(['A', 'B'], [['1']])).toThrow('row size mismatch: row 0 has 1 cells, the table has 2 columns');
    expect(() => FileTable.create([], [[]])).toThrow('a table with no columns cannot have rows');
  });
});

describe('file-table-tform operations', () => {
  const table = FileTable.create(
    ['W', 'X', 'Y', 'Z'],
    [
      ['w0', 'x0', '10', 'z0'],
      ['w1', 'x1', '20', 'z1'],
    ],
  );

  it('--extract keeps the named columns in the table’s own order', () => {
    const extracted = table.extractColumns(['Z', 'W', 'Y']);
    expect(extracted.columns).toEqual(['W', 'Y', 'Z']);
    expect(writeFileTable(extracted)).toBe('[W|Y|Z]\nw0|10|z0\nw1|20|z1\n');
  });

  it('--extract rejects duplicate and unknown names', () => {
    expect(() => table.extractColumns(['W', 'W'])).toThrow('duplicated column names found');
    expect(() => table.extractColumns(['W', 'Q'])).toThrow('column not found Q');
  });

  it('--extract=<col> --drop_titles produces the column as a file list', () => {
    expect(writeFileTable(table.extractColumns(['X']), { titles: false })).toBe('x0\nx1\n');
    expect(table.column('X')).toEqual(['x0', 'x1']);
  });

  it('--rename renames a column and refuses an unknown or already used name', () => {
    expect(table.renameColumn('W', 'WW').columns).toEqual(['WW', 'X', 'Y', 'Z']);
    expect(table.renameColumn('W', 'W').columns).toEqual(table.columns);
    expect(() => table.renameColumn('Q', 'R')).toThrow('column not found: Q');
    expect(() => table.renameColumn('W', 'X')).toThrow('column already exists X');
  });

  it('--replace copies a named column of another table (extract, rename, replace chain)', () => {
    const source = readFileTable('[p|q]\np0|q0\np1|q1\n');
    const result = table.extractColumns(['W', 'Y', 'Z']).renameColumn('W', 'V').replaceColumn('V', source, 'p');
    expect(writeFileTable(result)).toBe('[V|Y|Z]\np0|10|z0\np1|20|z1\n');
  });

  it('--replace takes the only column of a file list whatever the source name', () => {
    const list = readFileTable('m_0.spv\nm_1.spv\n');
    const result = readFileTable(POST_LINK).replaceColumn('Code', list, 'Code');
    expect(result.column('Code')).toEqual(['m_0.spv', 'm_1.spv']);
  });

  it('--replace into a one-column table uses that column whatever the name, as upstream', () => {
    const single = FileTable.create(['Code'], [['a.bc']]);
    expect(single.replaceColumn('Other', FileTable.create(['0'], [['a.spv']])).rows).toEqual([['a.spv']]);
  });

  it('--replace requires the same number of rows and an existing column', () => {
    const short = readFileTable('only.spv\n');
    expect(() => table.replaceColumn('X', short)).toThrow("column length mismatch for 'X' and 'X': 2 rows, source has 1");
    const twoColumns = readFileTable('[p|q]\n1|2\n3|4\n');
    expect(() => table.replaceColumn('X', twoColumns, 'r')).toThrow('column not found: r');
    expect(() => table.replaceColumn('Q', twoColumns, 'p')).toThrow('column not found: Q');
    expect(() => FileTable.create([]).replaceColumn('X', FileTable.create([]))).toThrow('empty table');
  });

  it('replaceColumnCells replaces a column from a list of the same length', () => {
    expect(table.replaceColumnCells('Y', ['a', 'b']).column('Y')).toEqual(['a', 'b']);
    expect(() => table.replaceColumnCells('Y', ['a'])).toThrow("column length mismatch for 'Y': 2 rows, 1 replacement cells");
  });

  it('--replace_cell sets one cell and checks the row index', () => {
    expect(table.replaceCell('X', 1, 'new').rows).toEqual([
      ['w0', 'x0', '10', 'z0'],
      ['w1', 'new', '20', 'z1'],
    ]);
    // Upstream accepts row == row count (an off-by-one); it is an error here.
    expect(() => table.replaceCell('X', 2, 'new')).toThrow('row index out of bounds: 2 (the table has 2 rows)');
    expect(() => table.replaceCell('X', -1, 'new')).toThrow(/row index out of bounds/);
    expect(() => table.replaceCell('Q', 0, 'new')).toThrow('column not found: Q');
  });

  it('--copy_single_file picks the path in a cell (row 0 by default)', () => {
    expect(table.singleFile('Z')).toBe('z0');
    expect(table.singleFile('Z', 1)).toBe('z1');
    expect(() => table.singleFile('Z', 2)).toThrow('row index is out of bounds');
    expect(() => table.singleFile('Q')).toThrow('no file found in specified column Q');
    expect(() => FileTable.create(['A'], [['']]).singleFile('A')).toThrow('no file found in specified column A');
  });

  it('--merge appends the rows of tables with the same columns', () => {
    const first = readFileTable('[n|m]\n00|11\n22|33\n');
    const second = readFileTable('[n|m]\n44|55\n');
    expect(writeFileTable(first.merge(second))).toBe('[n|m]\n00|11\n22|33\n44|55\n');
    expect(() => first.merge(readFileTable('[n]\n1\n'))).toThrow('different number of columns');
    expect(() => first.merge(readFileTable('[m|n]\n1|2\n'))).toThrow('different column names');
  });

  it('addColumn appends a column of the right length (e.g. the wrapper’s Manifest)', () => {
    const withManifest = readFileTable(POST_LINK).addColumn('Manifest', ['m_0.mnf', 'm_1.mnf']);
    expect(withManifest.columns).toEqual(['Code', 'Properties', 'Symbols', 'Manifest']);
    expect(() => table.addColumn('M', ['one'])).toThrow('column size mismatch for M: 1 cells for 2 rows');
    expect(() => table.addColumn('W', ['a', 'b'])).toThrow('column already exists W');
    expect(FileTable.create([]).addColumn('Code', ['a', 'b']).rows).toEqual([['a'], ['b']]);
  });

  it('dropColumns removes columns (a convenience; the tool itself only has --extract)', () => {
    expect(table.dropColumns(['X', 'Z']).columns).toEqual(['W', 'Y']);
    expect(() => table.dropColumns(['Q'])).toThrow('column not found Q');
  });

  it('never changes the table it is called on', () => {
    const before = writeFileTable(table);
    table.replaceCell('X', 0, 'changed');
    table.renameColumn('X', 'XX');
    table.replaceColumnCells('Y', ['a', 'b']);
    expect(writeFileTable(table)).toBe(before);
    expect(Object.isFrozen(table.rows)).toBe(true);
  });

  it('looks up cells and rows with clear errors', () => {
    expect(table.cell(1, 'Y')).toBe('20');
    expect(() => table.cell(0, 'Q')).toThrow('column not found: Q');
    expect(() => table.column('Q')).toThrow('column not found: Q');
    expect(table.addRow(['a', 'b', 'c', 'd']).rowCount).toBe(3);
    expect(() => table.addRow(['a'])).toThrow(/row size mismatch/);
  });

  it('names untitled columns 0, 1, …', () => {
    expect(FileTable.untitled(3).columns).toEqual(['0', '1', '2']);
  });
});

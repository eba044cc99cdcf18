import { describe, expect, it } from 'vitest';
import { FileTable, readFileTable, writeFileTable } from './file-table.js';
import {
  createPostLinkTable,
  FileTableColumn,
  postLinkColumns,
  readSplitModulesTable,
  readWrapperBatchTable,
} from './post-link-table.js';

describe('post-link column conventions (§3.2)', () => {
  it('orders columns Code, Properties, Symbols for every flag combination', () => {
    expect(postLinkColumns({ properties: false, symbols: false })).toEqual(['Code']);
    expect(postLinkColumns({ properties: true, symbols: false })).toEqual(['Code', 'Properties']);
    expect(postLinkColumns({ properties: false, symbols: true })).toEqual(['Code', 'Symbols']);
    expect(postLinkColumns({ properties: true, symbols: true })).toEqual(['Code', 'Properties', 'Symbols']);
  });

  it('writes the post-link table for -properties -symbols', () => {
    const table = createPostLinkTable(
      [
        { code: 'out_0.bc', properties: 'out_0.prop', symbols: 'out_0.sym' },
        { code: 'out_1.bc', properties: 'out_1.prop', symbols: 'out_1.sym' },
      ],
      { properties: true, symbols: true },
    );
    expect(writeFileTable(table)).toBe('[Code|Properties|Symbols]\nout_0.bc|out_0.prop|out_0.sym\nout_1.bc|out_1.prop|out_1.sym\n');
  });

  it('leaves out disabled columns even when files are given', () => {
    const table = createPostLinkTable([{ code: 'a.bc', properties: 'a.prop', symbols: 'a.sym' }], {
      properties: false,
      symbols: true,
    });
    expect(writeFileTable(table)).toBe('[Code|Symbols]\na.bc|a.sym\n');
  });

  it('requires a file for every enabled column', () => {
    expect(() => createPostLinkTable([{ code: 'a.bc' }], { properties: true, symbols: false })).toThrow(
      'image 0 has no file for the Properties column',
    );
  });

  it('parses [Code|Properties|Symbols] strictly, as parseSplitModulesFromFile does', () => {
    const table = readFileTable('[Code|Properties|Symbols]\na.bc|a.prop|a.sym\n');
    expect(readSplitModulesTable(table)).toEqual([{ code: 'a.bc', properties: 'a.prop', symbols: 'a.sym' }]);
    expect(() => readSplitModulesTable(readFileTable('[Code|Symbols|Properties]\n'))).toThrow(
      'expected columns [Code|Properties|Symbols], found [Code|Symbols|Properties]',
    );
    expect(() => readSplitModulesTable(readFileTable('[Code]\n'))).toThrow(/found \[Code\]/);
  });
});

describe('wrapper -batch tables (§6.2)', () => {
  it('finds columns by name, so [Code|Symbols|Properties|Manifest] works', () => {
    const table = readFileTable('[Code|Symbols|Properties|Manifest]\na.spv|a.sym|a.prop|a.mnf\n');
    expect(readWrapperBatchTable(table)).toEqual([{ code: 'a.spv', symbols: 'a.sym', properties: 'a.prop', manifest: 'a.mnf' }]);
  });

  it('gives an empty path for a missing optional column', () => {
    expect(readWrapperBatchTable(readFileTable('[Code]\nx.spv\n'))).toEqual([
      { code: 'x.spv', symbols: '', properties: '', manifest: '' },
    ]);
  });

  it('requires a Code column', () => {
    expect(() => readWrapperBatchTable(FileTable.create(['Symbols'], [['a.sym']]))).toThrow("batch table has no 'Code' column");
  });

  it('spells the column names the tools share', () => {
    expect(FileTableColumn).toEqual({ CODE: 'Code', PROPERTIES: 'Properties', SYMBOLS: 'Symbols', MANIFEST: 'Manifest' });
  });
});

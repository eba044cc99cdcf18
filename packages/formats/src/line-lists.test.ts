import { describe, expect, it } from 'vitest';
import { readFileList, readSymbolFile, writeFileList, writeSymbolFile } from './line-lists.js';

describe('.sym files (§3.4)', () => {
  it('writes one name per line, each followed by \\n', () => {
    expect(writeSymbolFile(['_ZTS4foo', '_Z3barv'])).toBe('_ZTS4foo\n_Z3barv\n');
  });

  it('writes no entry points as the empty file', () => {
    expect(writeSymbolFile([])).toBe('');
  });

  it('reads names in file order, skipping blank lines and accepting \\r\\n, as the wrapper does', () => {
    expect(readSymbolFile('a\r\n\nb\nc')).toEqual(['a', 'b', 'c']);
    expect(readSymbolFile(Buffer.from('k1\nk2\n'))).toEqual(['k1', 'k2']);
  });

  it.each([
    ['', 'is empty'],
    ['a\nb', 'contains a newline'],
    ['a\0', 'contains NUL'],
    ['a\r', "ends with '\\r'"],
  ])('refuses the name %j (%s)', (name, problem) => {
    expect(() => writeSymbolFile([name])).toThrow(problem);
  });

  it('reports a NUL in a symbol file at its position', () => {
    expect(() => readSymbolFile('a\nb\0c\n', { fileName: 'm_0.sym' })).toThrow('m_0.sym:2:2: unexpected NUL character');
  });
});

describe('file lists', () => {
  it('write and read one path per line', () => {
    const text = writeFileList(['a_0.spv', 'a_1.spv']);
    expect(text).toBe('a_0.spv\na_1.spv\n');
    expect(readFileList(text)).toEqual(['a_0.spv', 'a_1.spv']);
  });

  it('refuse paths that file-table-tform would read as several cells or as a title', () => {
    expect(() => writeFileList(['a|b'])).toThrow("contains '|'");
    expect(() => writeFileList(['[a]'])).toThrow("starts with '['");
    expect(() => writeFileList([''])).toThrow('is empty');
  });
});

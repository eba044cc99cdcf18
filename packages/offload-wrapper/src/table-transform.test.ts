import { FileTable, readFileTable, writeFileTable } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { WrapperError } from './errors.js';
import { formatTableTransform, parseTableTransform, runTableTransforms, type TableTransform, type TableTransformIO } from './table-transform.js';

/** Tables by path, as a file system would give them. */
function io(files: Record<string, string>): TableTransformIO {
  return {
    readTable(path) {
      const text = files[path];
      if (text === undefined) throw new WrapperError(`no such file: ${path}`);
      return readFileTable(text, { fileName: path });
    },
  };
}

const table = (text: string) => readFileTable(text);
const ops = (...flags: [string, string][]): TableTransform[] => flags.map(([op, arg]) => parseTableTransform(op, arg));

function runToText(input: string, transforms: TableTransform[], inputs: string[], files: Record<string, string> = {}): string {
  const result = runTableTransforms(table(input), transforms, inputs, io(files));
  if (result.kind !== 'table') throw new Error('expected a table');
  return writeFileTable(result.table);
}

describe('parseTableTransform', () => {
  it('reads each flag argument', () => {
    expect(parseTableTransform('extract', 'A,C,D')).toEqual({ op: 'extract', columns: ['A', 'C', 'D'] });
    expect(parseTableTransform('rename', 'A,AA')).toEqual({ op: 'rename', from: 'A', to: 'AA' });
    expect(parseTableTransform('replace', 'Code,Code')).toEqual({ op: 'replace', column: 'Code', sourceColumn: 'Code' });
    expect(parseTableTransform('replace_cell', 'A,0')).toEqual({ op: 'replace_cell', column: 'A', row: 0 });
    expect(parseTableTransform('merge', 'Two')).toEqual({ op: 'merge', column: 'Two' });
    expect(parseTableTransform('copy_single_file', 'A')).toEqual({ op: 'copy_single_file', column: 'A', row: 0 });
    expect(parseTableTransform('copy_single_file', 'Code,2')).toEqual({ op: 'copy_single_file', column: 'Code', row: 2 });
  });

  it('prints flags that read back', () => {
    for (const [op, arg] of [
      ['extract', 'A,B'],
      ['rename', 'x,y'],
      ['replace', 'Code,Files'],
      ['replace_cell', 'A,3'],
      ['merge', 'M'],
      ['copy_single_file', 'Code,1'],
    ] as const) {
      const transform = parseTableTransform(op, arg);
      const text = formatTableTransform(transform);
      expect(text).toBe(`-${op}=${arg}`);
      expect(parseTableTransform(op, text.slice(op.length + 2))).toEqual(transform);
    }
  });

  it('names what it expected for a bad argument', () => {
    expect(() => parseTableTransform('replace', 'Code')).toThrow('invalid argument in -replace=Code: expected <column>,<source column>');
    expect(() => parseTableTransform('rename', 'A,')).toThrow('invalid argument in -rename=A,: expected <old name>,<new name>');
    expect(() => parseTableTransform('extract', 'A,,B')).toThrow('invalid argument in -extract=A,,B: expected one or more column names separated by commas');
    expect(() => parseTableTransform('replace_cell', 'A,x')).toThrow('invalid argument in -replace_cell=A,x: expected a row number (0, 1, …) after the comma');
    expect(() => parseTableTransform('replace_cell', 'A,-1')).toThrow('a row number');
    expect(() => parseTableTransform('merge', 'A,B')).toThrow('invalid argument in -merge=A,B: expected one column name');
    expect(() => parseTableTransform('copy_single_file', '')).toThrow('expected <column> or <column>,<row>');
    expect(() => parseTableTransform('drop_column', 'A')).toThrow("unknown file-table-tform operation 'drop_column'");
  });
});

describe('runTableTransforms', () => {
  const abcd = '[A|B|C|D]\nx1|y1|100|P\nx2|y2|200|Q\n';

  it('extracts, renames and replaces in command-line order', () => {
    const replacement = '[11|12]\n00|11\n22|33\n';
    const out = runToText(abcd, ops(['extract', 'A,C,D'], ['rename', 'A,AA'], ['replace', 'AA,11']), ['r.txt'], { 'r.txt': replacement });
    expect(out).toBe('[AA|C|D]\n00|100|P\n22|200|Q\n');
  });

  it('replaces a column from a file list whatever its name (the llvm-foreach output)', () => {
    const post = '[Code|Properties|Symbols]\na_0.bc|a_0.prop|a_0.sym\na_1.bc|a_1.prop|a_1.sym\n';
    expect(runToText(post, ops(['replace', 'Code,Code']), ['spv.list'], { 'spv.list': 'a_0.spv\na_1.spv\n' })).toBe(
      '[Code|Properties|Symbols]\na_0.spv|a_0.prop|a_0.sym\na_1.spv|a_1.prop|a_1.sym\n',
    );
  });

  it('extracts the Code column as a file list', () => {
    const result = runTableTransforms(table('[Code|Symbols]\na.bc|a.sym\nb.bc|b.sym\n'), ops(['extract', 'Code']), [], io({}));
    expect(result.kind === 'table' && writeFileTable(result.table, { titles: false })).toBe('a.bc\nb.bc\n');
  });

  it('merges the tables listed in a column, in order', () => {
    const files = { 'p0.txt': '[11|12]\n00|11\n22|33\n', 'p1.txt': '[11|12]\n44|55\n66|77\n' };
    expect(runToText('[One|Two]\n0|p0.txt\n1|p1.txt\n', ops(['merge', 'Two']), [], files)).toBe('[11|12]\n00|11\n22|33\n44|55\n66|77\n');
  });

  it('puts an input path into a cell, then names that file for copying', () => {
    const result = runTableTransforms(table('[A|B|C|D]\naaa|bbb|100|XXX\n'), ops(['replace_cell', 'A,0'], ['copy_single_file', 'A']), ['gold.txt'], io({}));
    expect(result).toEqual({ kind: 'copy', path: 'gold.txt' });
  });

  it('consumes extra inputs left to right, one per replace', () => {
    const files = { 'c.list': 'c0\nc1\n', 's.list': 's0\ns1\n' };
    const post = '[Code|Symbols]\na.bc|a.sym\nb.bc|b.sym\n';
    expect(runToText(post, ops(['replace', 'Code,Code'], ['replace', 'Symbols,Symbols']), ['c.list', 's.list'], files)).toBe('[Code|Symbols]\nc0|s0\nc1|s1\n');
  });

  it('requires copy_single_file to be last and the right number of inputs', () => {
    const run = (transforms: TableTransform[], inputs: string[]) => () => runTableTransforms(table(abcd), transforms, inputs, io({}));
    expect(run(ops(['copy_single_file', 'A'], ['rename', 'A,B']), [])).toThrow('copy_single_file must be the last transformation');
    expect(run(ops(['replace', 'A,A']), [])).toThrow("no input for 'replace' command (1 operations take an input, 0 given after the main table)");
    expect(run(ops(['rename', 'A,Z']), ['extra.txt'])).toThrow("unused input 'extra.txt': only 0 operations take an input");
  });

  it('reports table errors with the operation that failed', () => {
    expect(() => runTableTransforms(table(abcd), ops(['rename', 'Z,Y']), [], io({}))).toThrow('-rename=Z,Y: column not found: Z');
    expect(() => runTableTransforms(table(abcd), ops(['extract', 'A,Q']), [], io({}))).toThrow('-extract=A,Q: column not found Q');
    expect(() => runTableTransforms(table(abcd), ops(['replace', 'A,A']), ['one.list'], io({ 'one.list': 'only-one\n' }))).toThrow(
      "-replace=A,A: column length mismatch for 'A' and 'A': 2 rows, source has 1",
    );
    expect(() => runTableTransforms(table(abcd), ops(['copy_single_file', 'A,5']), [], io({}))).toThrow('-copy_single_file=A,5: row index is out of bounds');
  });

  it('returns the table unchanged with no operations', () => {
    const result = runTableTransforms(FileTable.create(['A'], [['x']]), [], [], io({}));
    expect(result.kind === 'table' && writeFileTable(result.table)).toBe('[A]\nx\n');
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSyclkit } from '../../test/testing.js';

async function run(argv: string[], stdin?: string) {
  return runSyclkit(['file-table-tform', ...argv], stdin);
}

const dir = mkdtempSync(join(tmpdir(), 'syclkit-ftt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const read = (path: string) => readFileSync(path, 'utf8');

describe('syclkit file-table-tform', () => {
  const abcd = file('abcd.txt', '[A|B|C|D]\naaa|bbb|100|XXX\nccc|ddd|200|YYY\n');

  it('extracts, renames and replaces columns as the upstream lit test chain does', async () => {
    const b = join(dir, 'b.txt');
    const c = join(dir, 'c.txt');
    const d = join(dir, 'd.txt');
    expect((await run(['--extract=A,C,D', abcd, '-o', b])).code).toBe(0);
    expect(read(b)).toBe('[A|C|D]\naaa|100|XXX\nccc|200|YYY\n');
    expect((await run(['--rename=A,AA', b, '-o', c])).code).toBe(0);
    const a0 = file('a0.txt', '[11|12]\n00|11\n22|33\n');
    expect((await run(['--replace=AA,11', c, a0, '-o', d])).code).toBe(0);
    expect(read(d)).toBe('[AA|C|D]\n00|100|XXX\n22|200|YYY\n');
  });

  it('runs several operations in command-line order in one call', async () => {
    const out = join(dir, 'chain.txt');
    const list = file('list.txt', 'x.spv\ny.spv\n');
    expect((await run(['-extract=A,C', '-rename=A,Code', '-replace=Code,Code', abcd, list, '-o', out])).code).toBe(0);
    expect(read(out)).toBe('[Code|C]\nx.spv|100\ny.spv|200\n');
  });

  it('writes a file list with -drop_titles, to stdout with -o -', async () => {
    const { code, out } = await run(['-extract=A', '-drop_titles', abcd, '-o', '-']);
    expect(code).toBe(0);
    expect(out).toBe('aaa\nccc\n');
  });

  it('reads the main table from stdin with -', async () => {
    const { code, out } = await run(['-rename=X,Y', '-', '-o', '-'], '[X]\n1\n');
    expect(code).toBe(0);
    expect(out).toBe('[Y]\n1\n');
  });

  it('puts an input path in a cell, then copies that file to the output', async () => {
    const gold = file('gold.txt', 'the gold file\n');
    const single = file('s.txt', '[A|B|C|D]\naaa|bbb|100|XXX\n');
    const t = join(dir, 't.txt');
    const u = join(dir, 'u.txt');
    expect((await run(['--replace_cell=A,0', single, gold, '-o', t])).code).toBe(0);
    expect(read(t)).toBe(`[A|B|C|D]\n${gold}|bbb|100|XXX\n`);
    expect((await run(['--copy_single_file=A', t, '-o', u])).code).toBe(0);
    expect(read(u)).toBe('the gold file\n');
  });

  it('merges the tables listed in a column', async () => {
    const p0 = file('p0.txt', '[11|12]\n00|11\n22|33\n');
    const p1 = file('p1.txt', '[11|12]\n44|55\n66|77\n');
    const listing = file('merge-input.txt', `[One|Two]\n0|${p0}\n1|${p1}\n`);
    const out = join(dir, 'merged.txt');
    expect((await run(['--merge=Two', listing, '-o', out])).code).toBe(0);
    expect(read(out)).toBe('[11|12]\n00|11\n22|33\n44|55\n66|77\n');
  });

  it('fails with a clear message and leaves no output for bad operations', async () => {
    const out = join(dir, 'never.txt');
    expect(await run(['-rename=Z,Y', abcd, '-o', out])).toEqual({ code: 1, out: '', err: 'syclkit file-table-tform: error: -rename=Z,Y: column not found: Z\n' });
    expect(await run(['-replace=A', abcd, '-o', out])).toMatchObject({ code: 2, err: 'syclkit file-table-tform: error: invalid argument in -replace=A: expected <column>,<source column>\n' });
    expect(await run(['-replace=A,A', abcd, '-o', out])).toMatchObject({
      code: 1,
      err: "syclkit file-table-tform: error: no input for 'replace' command (1 operations take an input, 0 given after the main table)\n",
    });
    expect(await run(['-copy_single_file=A', '-rename=A,B', abcd, '-o', out])).toMatchObject({ code: 1, err: 'syclkit file-table-tform: error: copy_single_file must be the last transformation\n' });
    expect(readdirSync(dir)).not.toContain('never.txt');
  });

  it('reports a malformed table at file:line:col', async () => {
    const bad = file('bad.txt', '[A|B]\nonly-one\n');
    expect(await run(['-extract=A', bad, '-o', '-'])).toEqual({ code: 1, out: '', err: `${bad}:2:1: error: row size mismatch at line 2: 1 cells, expected 2\n` });
  });

  it('requires -o and an input', async () => {
    expect(await run([abcd])).toMatchObject({ code: 2, err: 'syclkit file-table-tform: error: no output file: give -o <file> (- for stdout)\n' });
    expect(await run(['-o', '-'])).toMatchObject({ code: 2, err: 'syclkit file-table-tform: error: no input table\n' });
    expect(await run(['-o', '-', join(dir, 'missing.txt')])).toMatchObject({ code: 1, err: `syclkit file-table-tform: error: ${join(dir, 'missing.txt')}: no such file or directory\n` });
  });

  it('documents every upstream operation in --help', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    for (const flag of ['-extract=', '-rename=', '-replace=', '-replace_cell=', '-merge=', '-copy_single_file=', '-drop_titles', '-o <file>']) expect(out).toContain(flag);
  });
});

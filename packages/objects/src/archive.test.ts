import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tool } from '../test/elf-builder.js';
import { isArchive, readArchive, writeArchive } from './archive.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('ar archives', () => {
  it('round-trip members with short and long names and odd sizes', () => {
    const members = [
      { name: 'a.o', data: bytes('odd') },
      { name: 'a_very_long_member_name.o', data: bytes('even') },
      { name: 'another_long_member_name.o', data: new Uint8Array(0) },
    ];
    const archive = writeArchive(members);
    expect(isArchive(archive)).toBe(true);
    expect(readArchive(archive).map((m) => ({ name: m.name, data: m.data }))).toEqual(members);
  });

  it('name what is wrong: truncation, a bad header, a dangling long name, a thin archive', () => {
    const archive = writeArchive([{ name: 'member.o', data: bytes('0123456789') }]);
    expect(() => readArchive(archive.subarray(0, archive.length - 4), 'lib.a')).toThrow(/^lib\.a: offset 8 \(0x8\): truncated: member 'member\.o' \(header at offset 8\) has 10 bytes of data, but the archive ends at offset 74$/);
    expect(() => readArchive(archive.subarray(0, 40), 'lib.a')).toThrow(/truncated: the member header at offset 8 needs 60 bytes/);
    const badEnd = archive.slice();
    badEnd[8 + 58] = 0x41;
    expect(() => readArchive(badEnd, 'lib.a')).toThrow(/corrupt member header: expected the terminator/);
    const badSize = archive.slice();
    badSize.set(bytes('x'), 8 + 48);
    expect(() => readArchive(badSize, 'lib.a')).toThrow(/size field 'x0 +' is not a decimal number/);
    const dangling = archive.slice();
    dangling.set(bytes('/0'.padEnd(16)), 8);
    expect(() => readArchive(dangling, 'lib.a')).toThrow(/refers to the long-name table \('\/0'\), but there is none before it/);
    expect(() => readArchive(bytes('!<thin>\n'), 'lib.a')).toThrow(/a thin archive/);
    expect(() => readArchive(bytes('not an archive'), 'lib.a')).toThrow(/not an archive/);
  });

  it('read BSD-style names (#1/<n>)', () => {
    const name = 'bsd_long_name.o';
    const data = bytes('xyz');
    const header = `${`#1/${name.length}`.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'644'.padEnd(8)}${String(name.length + data.length).padEnd(10)}\`\n`;
    const archive = new Uint8Array([...bytes('!<arch>\n'), ...bytes(header), ...bytes(name), ...data]);
    expect(readArchive(archive).map((m) => [m.name, new TextDecoder().decode(m.data)])).toEqual([[name, 'xyz']]);
  });
});

const ar = tool('ar');
const llvmAr = tool('llvm-ar-16', 'llvm-ar');
const work = mkdtempSync(join(tmpdir(), 'syclkit-ar-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each([
  ['ar (binutils)', ar],
  ['llvm-ar-16', llvmAr],
])('archives made by %s', { timeout: 60_000 }, (_label, archiver) => {
  it.skipIf(archiver === undefined)('read member for member, byte-exact, symbol index and name table left out', () => {
    const dir = mkdtempSync(join(work, 'm-'));
    const names = ['x.o', 'a_member_with_a_long_name.o', 'odd.o'];
    const contents = [bytes('short'), new Uint8Array(Array.from({ length: 301 }, (_, i) => i & 0xff)), bytes('z')];
    names.forEach((n, i) => writeFileSync(join(dir, n), contents[i]!));
    execFileSync(archiver!, ['rcs', join(dir, 'lib.a'), ...names], { cwd: dir });
    const members = readArchive(new Uint8Array(readFileSync(join(dir, 'lib.a'))), 'lib.a');
    expect(members.map((m) => m.name)).toEqual(names);
    expect(members.map((m) => m.data)).toEqual(contents);
  });

  it.skipIf(archiver === undefined)("lists and extracts syclkit's archives", () => {
    const dir = mkdtempSync(join(work, 'w-'));
    writeFileSync(join(dir, 'w.a'), writeArchive([{ name: 'one.o', data: bytes('1') }, { name: 'a_member_with_a_long_name.o', data: bytes('22') }]));
    expect(execFileSync(archiver!, ['t', join(dir, 'w.a')]).toString()).toBe('one.o\na_member_with_a_long_name.o\n');
    execFileSync(archiver!, ['x', join(dir, 'w.a')], { cwd: dir });
    expect(readFileSync(join(dir, 'a_member_with_a_long_name.o'), 'latin1')).toBe('22');
  });
});

// Properties checked (fuzzing the readers of every format this package reads):
// 1. readFatObject(writeFatObject(host, bundles, .tgtsym)) gives back the bundles, in order, byte
//    for byte, the host marker and the target symbols.
// 2. readBinaryBundle(writeBinaryBundle(bundles, align)) = bundles for any alignment.
// 3. readArchive(writeArchive(members)) = members (names and bytes).
// 4. Any truncation or byte change of a fat object, a binary bundle or an archive either reads or
//    is an ObjectFormatError: never another exception, never a read outside the file.
// 5. ElfFile.read and symbols() on a changed object are total in the same sense.
// 6. addElfSections keeps every existing section's index, name and bytes (except the name table,
//    which grows) and every symbol.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { buildElfObject } from '../test/elf-builder.js';
import { readArchive, writeArchive } from './archive.js';
import { readBinaryBundle, readFatObject, writeBinaryBundle, writeFatObject } from './bundle.js';
import { ElfFile } from './elf.js';
import { addElfSections } from './elf-write.js';
import { ObjectFormatError } from './errors.js';

const host = buildElfObject({
  sections: [
    { name: '.text', data: Uint8Array.of(0x55, 0xc3), type: 1, flags: 6, align: 16 },
    { name: '.data', data: Uint8Array.of(1, 2, 3, 4), type: 1, flags: 3, align: 4 },
  ],
  symbols: [
    { name: 'main', section: 0, global: true },
    { name: 'x', section: 'undef', global: true },
  ],
});
const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/);
const bundleId = fc.tuple(fc.constantFrom('sycl', 'openmp', 'hip', 'fpga'), word, word).map(([k, a, b]) => `${k}-${a}-${b}`);
const bundles = fc.uniqueArray(fc.record({ id: bundleId, data: fc.uint8Array({ maxLength: 300 }) }), { selector: (b) => b.id, maxLength: 4 });
const symbolName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.$]{0,20}$/);

function totalOrFormatError(read: () => unknown): void {
  try {
    read();
  } catch (error) {
    if (!(error instanceof ObjectFormatError)) throw error;
  }
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('flips' as const), at: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 2, maxLength: 8 }) }),
);
type Mutation = { kind: 'truncate'; at: number } | { kind: 'flip'; at: number; value: number } | { kind: 'flips'; at: [number, number][] };
function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  if (m.kind === 'truncate') return bytes.slice(0, m.at % (bytes.length + 1));
  const out = bytes.slice();
  const flips: [number, number][] = m.kind === 'flip' ? [[m.at, m.value]] : m.at;
  for (const [at, value] of flips) if (out.length > 0) out[at % out.length] = value;
  return out;
}

describe('round trips', { timeout: 60_000 }, () => {
  test.prop([bundles, fc.array(symbolName, { maxLength: 5 })], fcOptions())('fat objects keep bundles and target symbols', (list, symbols) => {
    const targetSymbols = new Map(list.length === 0 || symbols.length === 0 ? [] : [[list[0]!.id, symbols]]);
    const fat = readFatObject(writeFatObject({ hostObject: host, hostId: 'host-x86_64-unknown-linux-gnu', bundles: list, targetSymbols }));
    expect(fat.hostId).toBe('host-x86_64-unknown-linux-gnu');
    expect(fat.bundles.map((b) => ({ id: b.id, data: b.data }))).toEqual(list);
    expect([...fat.targetSymbols]).toEqual([...targetSymbols]);
  });

  test.prop([bundles, fc.constantFrom(1, 2, 8, 64, 4096)], fcOptions())('binary bundles keep bundles at any alignment', (list, align) => {
    expect(readBinaryBundle(writeBinaryBundle(list, { align }))).toEqual(list);
  });

  test.prop([fc.uniqueArray(fc.record({ name: fc.stringMatching(/^[A-Za-z0-9_.+-]{1,40}$/), data: fc.uint8Array({ maxLength: 200 }) }), { selector: (m) => m.name, maxLength: 6 })], fcOptions())(
    'archives keep member names and bytes',
    (members) => {
      expect(readArchive(writeArchive(members)).map((m) => ({ name: m.name, data: m.data }))).toEqual(members);
    },
  );

  test.prop([fc.array(fc.record({ name: symbolName, data: fc.uint8Array({ maxLength: 50 }), align: fc.constantFrom(1, 4, 16) }), { maxLength: 5 })], fcOptions())(
    'adding sections keeps the existing sections and symbols',
    (added) => {
      const before = ElfFile.read(host);
      const after = ElfFile.read(addElfSections(host, added));
      for (const s of before.sections) {
        if (s.index === before.shstrndx) continue;
        expect([after.sections[s.index]!.name, after.contents(after.sections[s.index]!)]).toEqual([s.name, before.contents(s)]);
      }
      expect(after.symbols()).toEqual(before.symbols());
      expect(after.sections.slice(before.sections.length).map((s) => [s.name, after.contents(s)])).toEqual(added.map((s) => [s.name, s.data]));
    },
  );
});

describe('fuzzing: damaged inputs read or fail with an ObjectFormatError', { timeout: 60_000 }, () => {
  const fat = writeFatObject({ hostObject: host, hostId: 'host-x86_64-unknown-linux-gnu', bundles: [{ id: 'sycl-spir64-unknown-unknown', data: new Uint8Array(100).fill(7) }], targetSymbols: new Map([['sycl-spir64-unknown-unknown', ['k']]]) });
  const binary = writeBinaryBundle([{ id: 'sycl-spir64-unknown-unknown', data: new Uint8Array(40).fill(1) }, { id: 'host-x', data: Uint8Array.of(2) }]);
  const archive = writeArchive([{ name: 'a.o', data: fat }, { name: 'a_long_member_name.o', data: host }]);

  test.prop([mutation], fcOptions(300))('fat objects', (m) => totalOrFormatError(() => readFatObject(mutate(fat, m))));
  test.prop([mutation], fcOptions(300))('binary bundles', (m) => totalOrFormatError(() => readBinaryBundle(mutate(binary, m))));
  test.prop([mutation], fcOptions(300))('archives and their members', (m) =>
    totalOrFormatError(() => {
      for (const member of readArchive(mutate(archive, m))) totalOrFormatError(() => readFatObject(member.data));
    }),
  );
  test.prop([mutation], fcOptions(300))('ELF objects and their symbol tables', (m) =>
    totalOrFormatError(() => {
      const elf = ElfFile.read(mutate(host, m));
      elf.symbols();
    }),
  );
});

import { describe, expect, it } from 'vitest';
import { buildElfObject } from '../test/elf-builder.js';
import { ElfFile, ElfType, SectionFlag, SectionType, SymbolBinding, elfIdentity, isElf, latin1, latin1Bytes, machineArch, machineOfTriple } from './elf.js';
import { addElfSections } from './elf-write.js';
import { ObjectFormatError } from './errors.js';

const object = buildElfObject({
  sections: [
    { name: '.text', data: Uint8Array.of(0x55, 0xc3), type: 1, flags: 6, align: 16 },
    { name: '.data', data: Uint8Array.of(1, 2, 3, 4), type: 1, flags: 3, align: 4 },
  ],
  symbols: [
    { name: 'main', section: 0, global: true, size: 2 },
    { name: 'local_data', section: 1, type: 1, size: 4 },
    { name: 'printf', section: 'undef', global: true },
  ],
});

function thrown(action: () => unknown): ObjectFormatError {
  try {
    action();
  } catch (error) {
    if (error instanceof ObjectFormatError) return error;
    throw error;
  }
  throw new Error('expected an ObjectFormatError');
}

describe('ElfFile', () => {
  it('reads sections, their bytes and symbols of a relocatable object', () => {
    const elf = ElfFile.read(object, 'a.o');
    expect(elf.type).toBe(ElfType.REL);
    expect(elf.machine).toBe(62);
    expect(elf.sections.map((s) => s.name)).toEqual(['', '.text', '.data', '.symtab', '.strtab', '.shstrtab']);
    expect([...elf.contents(elf.section('.data')!)]).toEqual([1, 2, 3, 4]);
    const symbols = elf.symbols().filter((s) => s.name !== '');
    expect(symbols.map((s) => [s.name, s.binding, s.sectionIndex])).toEqual([
      ['local_data', SymbolBinding.LOCAL, 2],
      ['main', SymbolBinding.GLOBAL, 1],
      ['printf', SymbolBinding.GLOBAL, 0],
    ]);
  });

  it('names the offset when the file is cut before its section headers', () => {
    const error = thrown(() => ElfFile.read(object.subarray(0, object.length - 10), 'cut.o'));
    expect(error.render()).toMatch(/^cut\.o: error: offset \d+ \(0x[0-9a-f]+\): truncated: the section header table \(6 headers\) spans offsets \d+–\d+, but the file is \d+ bytes long$/);
  });

  it('refuses a section whose contents run past the end of the file', () => {
    const bad = object.slice();
    const view = new DataView(bad.buffer);
    const shoff = Number(view.getBigUint64(40, true));
    view.setBigUint64(shoff + 64 + 32, 1n << 20n, true); // .text size
    expect(thrown(() => ElfFile.read(bad, 'b.o')).reason).toMatch(/^truncated: the contents of section 1 \(section header at offset \d+\) spans offsets/);
  });

  it('says what a non-ELF, a 32-bit and a big-endian file are', () => {
    expect(thrown(() => ElfFile.read(new TextEncoder().encode('garbage!'), 'g.o')).reason).toBe('not an ELF file: expected the magic bytes 7f 45 4c 46 at offset 0');
    const i386 = object.slice(0, 64);
    i386[4] = 1;
    i386[18] = 3;
    expect(thrown(() => ElfFile.read(i386, 'x.o')).reason).toBe('a 32-bit little-endian ELF file for i386; only 64-bit little-endian ELF is read');
    expect(elfIdentity(i386)).toEqual({ elfClass: 32, littleEndian: true, type: 1, machine: 3 });
    expect(isElf(Uint8Array.of(0x7f, 0x45, 0x4c))).toBe(false);
    expect(thrown(() => ElfFile.read(object.subarray(0, 10), 't.o')).reason).toBe('truncated: the file is 10 bytes long, shorter than the ELF identification');
  });

  it('maps machines and triples both ways', () => {
    expect(machineArch(62)).toBe('x86_64');
    expect(machineArch(183)).toBe('aarch64');
    expect(machineArch(9999)).toBe('machine 9999');
    expect(machineOfTriple('x86_64-unknown-linux-gnu')).toBe(62);
    expect(machineOfTriple('aarch64-unknown-linux-gnu')).toBe(183);
    expect(machineOfTriple('spir64-unknown-unknown')).toBeUndefined();
  });

  it('keeps names as bytes (latin1) in both directions', () => {
    expect(latin1(latin1Bytes('a\u00ff'))).toBe('a\u00ff');
    expect(() => latin1Bytes('\u0100')).toThrow(/is not a byte/);
  });
});

describe('addElfSections', () => {
  it('adds sections after the existing ones, which keep their indices, bytes and symbols', () => {
    const out = addElfSections(object, [
      { name: '__CLANG_OFFLOAD_BUNDLE__sycl-spir64-unknown-unknown', data: Uint8Array.of(9, 8, 7), flags: SectionFlag.EXCLUDE },
      { name: '.tgtsym', data: latin1Bytes('x\0') },
    ]);
    const before = ElfFile.read(object);
    const after = ElfFile.read(out);
    expect(after.sections.slice(0, before.sections.length).map((s) => [s.name, s.type, latin1(after.contents(s))])).toEqual(
      before.sections.map((s) => [s.name, s.type, s.index === before.shstrndx ? latin1(after.contents(after.sections[s.index]!)) : latin1(before.contents(s))]),
    );
    expect(after.symbols()).toEqual(before.symbols());
    const added = after.sections.slice(before.sections.length);
    expect(added.map((s) => [s.name, s.type, s.flags, s.addralign, [...after.contents(s)]])).toEqual([
      ['__CLANG_OFFLOAD_BUNDLE__sycl-spir64-unknown-unknown', SectionType.PROGBITS, SectionFlag.EXCLUDE, 1, [9, 8, 7]],
      ['.tgtsym', SectionType.PROGBITS, 0, 1, [0x78, 0]],
    ]);
  });

  it('adds only to relocatable objects', () => {
    const exec = buildElfObject({ type: ElfType.EXEC });
    expect(() => addElfSections(exec, [{ name: 'x', data: new Uint8Array(0) }], 'app')).toThrow(/only to relocatable objects \(ET_REL\); this file has e_type 2/);
  });
});

/**
 * Adding sections to a relocatable ELF64 object, as `llvm-objcopy --add-section` does for the
 * offload bundler: the new sections' bytes and a new section-name string table go after the
 * existing contents, then a new section header table. Existing sections keep their indices, so
 * symbols and relocations stay valid; nothing else in the file moves.
 */
import { ElfFile, ElfType, SHN_LORESERVE, SectionType, latin1Bytes } from './elf.js';

export interface NewSection {
  readonly name: string;
  readonly data: Uint8Array;
  /** `sh_type` (default SHT_PROGBITS). */
  readonly type?: number;
  /** `sh_flags` (default 0). */
  readonly flags?: number;
  /** `sh_addralign` (default 1: bundles are concatenated with no padding). */
  readonly align?: number;
}

const SHDR_SIZE = 64;

function alignUp(value: number, align: number): number {
  return align <= 1 ? value : Math.ceil(value / align) * align;
}

/** A copy of a relocatable ELF64 object with `added` appended as new sections. */
export function addElfSections(bytes: Uint8Array, added: readonly NewSection[], fileName = '<memory>'): Uint8Array {
  const elf = ElfFile.read(bytes, fileName);
  if (elf.type !== ElfType.REL) throw elf.error(`sections are added only to relocatable objects (ET_REL); this file has e_type ${elf.type}`, 16);
  if (elf.sections.length === 0) throw elf.error('the object has no section header table');
  const total = elf.sections.length + added.length;
  if (total >= SHN_LORESERVE) throw elf.error(`the object would have ${total} sections; this writer stays below ${SHN_LORESERVE}`);
  const names = elf.sections[elf.shstrndx];
  if (names === undefined || names.type !== SectionType.STRTAB) throw elf.error('the object has no section name string table');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shoff = Number(view.getBigUint64(40, true));

  // The old header table is dropped when it ends the file (it does for llc and objcopy output).
  const keep = shoff + elf.sections.length * SHDR_SIZE === bytes.length ? shoff : bytes.length;
  const oldNames = elf.contents(names);
  const nameBytes = added.map((s) => {
    if (s.name.includes('\0')) throw new RangeError(`section name ${JSON.stringify(s.name)} contains NUL`);
    return latin1Bytes(s.name);
  });
  const strtabSize = oldNames.length + nameBytes.reduce((n, b) => n + b.length + 1, 0);

  let end = keep;
  const strtabOffset = end;
  end += strtabSize;
  const dataOffsets = added.map((s) => {
    const at = alignUp(end, s.align ?? 1);
    end = at + s.data.length;
    return at;
  });
  const newShoff = alignUp(end, 8);
  const out = new Uint8Array(newShoff + total * SHDR_SIZE);
  const outView = new DataView(out.buffer);
  out.set(bytes.subarray(0, keep));
  out.set(oldNames, strtabOffset);
  const nameOffsets: number[] = [];
  let cursor = strtabOffset + oldNames.length;
  for (const name of nameBytes) {
    nameOffsets.push(cursor - strtabOffset);
    out.set(name, cursor);
    cursor += name.length + 1; // the NUL is already there
  }
  added.forEach((s, i) => out.set(s.data, dataOffsets[i]!));

  // Old headers, with the name table moved; then the new ones.
  out.set(bytes.subarray(shoff, shoff + elf.sections.length * SHDR_SIZE), newShoff);
  const namesHeader = newShoff + elf.shstrndx * SHDR_SIZE;
  outView.setBigUint64(namesHeader + 24, BigInt(strtabOffset), true);
  outView.setBigUint64(namesHeader + 32, BigInt(strtabSize), true);
  added.forEach((s, i) => {
    const at = newShoff + (elf.sections.length + i) * SHDR_SIZE;
    outView.setUint32(at, nameOffsets[i]!, true);
    outView.setUint32(at + 4, s.type ?? SectionType.PROGBITS, true);
    outView.setBigUint64(at + 8, BigInt(s.flags ?? 0), true);
    outView.setBigUint64(at + 24, BigInt(dataOffsets[i]!), true);
    outView.setBigUint64(at + 32, BigInt(s.data.length), true);
    outView.setBigUint64(at + 48, BigInt(s.align ?? 1), true);
  });
  outView.setBigUint64(40, BigInt(newShoff), true);
  outView.setUint16(60, total, true);
  return out;
}

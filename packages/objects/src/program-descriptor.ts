/**
 * Reading the offload descriptors (`__tgt_bin_desc` / `sycl_device_binaries_struct`, version 1,
 * images of version 2 as clang-offload-wrapper writes them) out of an ELF file: a linked program
 * (ET_EXEC, or ET_DYN for PIE and shared libraries) or a wrapper object (ET_REL).
 *
 * Pointers are resolved as the loader or linker would: in a linked program through its loadable
 * segments, after applying the dynamic relocations that fill pointers in a position-independent
 * program (R_X86_64_RELATIVE, R_X86_64_64, RELR); in an object, each section gets an address of its
 * own and its RELA relocations (R_X86_64_64) are applied. Descriptors are found by their symbol
 * (`.sycl_offloading.descriptor`, or another `.sycl_offloading.<name>` from `-desc-name`); in a
 * stripped program, by scanning the data for a descriptor whose images' data match the `.tgtimg`
 * records the wrapper leaves beside them.
 *
 * Layouts (LP64; `sycl/include/sycl/detail/pi.h` of intel/llvm 2023, the PI era):
 *   descriptor 32 bytes: u16 Version, u16 NumDeviceBinaries, ptr DeviceBinaries, ptr HostEntriesBegin/End
 *   image 96 bytes: u16 Version, u8 Kind, u8 Format, ptr DeviceTargetSpec, CompileOptions, LinkOptions,
 *     ManifestStart/End, BinaryStart/End, EntriesBegin/End, PropertySetsBegin/End
 *   entry 32 bytes: ptr addr, ptr name, u64 size, i32 flags, i32 reserved
 *   property set 24 bytes: ptr Name, ptr PropertiesBegin, ptr PropertiesEnd
 *   property 32 bytes: ptr Name, ptr ValAddr, u32 Type, u64 ValSize (at 24)
 */
import { BinaryPropertyType, PropertySetRegistry, fromBinaryProperty, type PropertyValue } from '@syclkit/formats';
import { deviceImage, type BinaryDescriptor, type Bundle, type DeviceImage } from '@syclkit/offload-wrapper';
import { ElfFile, ElfType, SectionFlag, SectionType, SHN_ABS, SHN_COMMON, SHN_LORESERVE, SHN_UNDEF, type ElfSection } from './elf.js';

export const DESCRIPTOR_SIZE = 32;
export const IMAGE_STRUCT_SIZE = 96;
export const ENTRY_SIZE = 32;
export const PROPERTY_SET_SIZE = 24;
export const PROPERTY_SIZE = 32;

const R_X86_64_64 = 1;
const R_X86_64_RELATIVE = 8;

/** A program's memory as the loader would see it, with the pointers the relocations fill. */
class AddressSpace {
  private readonly ranges: { start: number; end: number; bytes: Uint8Array }[] = [];
  private readonly pointers = new Map<number, number>();

  constructor(
    readonly elf: ElfFile,
    readonly sectionBase: ReadonlyMap<number, number>,
  ) {}

  static of(elf: ElfFile): AddressSpace {
    const bases = new Map<number, number>();
    if (elf.type === ElfType.REL) {
      // Each section at an address of its own, in section order (4 KiB apart to keep them distinct).
      let next = 0x10000;
      for (const section of elf.sections) {
        if (section.index === 0 || section.size === 0) continue;
        bases.set(section.index, next);
        next = Math.ceil((next + section.size + 1) / 0x1000) * 0x1000;
      }
    }
    const space = new AddressSpace(elf, bases);
    if (elf.type === ElfType.REL) {
      for (const [index, base] of bases) {
        const section = elf.sections[index]!;
        // Zero-filled sections (.bss) hold no descriptor data; they get an address but no bytes.
        if (section.type !== SectionType.NOBITS) space.ranges.push({ start: base, end: base + section.size, bytes: elf.contents(section) });
      }
      space.applyObjectRelocations();
    } else {
      for (const segment of elf.segments) {
        if (segment.type !== 1) continue; // PT_LOAD
        // The file's bytes only: the zero-filled rest (memsz > filesz, .bss) holds no descriptor data.
        const size = Math.min(segment.filesz, segment.memsz);
        space.ranges.push({ start: segment.vaddr, end: segment.vaddr + size, bytes: elf.bytes.subarray(segment.offset, segment.offset + size) });
      }
      space.applyDynamicRelocations();
    }
    space.ranges.sort((a, b) => a.start - b.start);
    return space;
  }

  private applyObjectRelocations(): void {
    for (const section of this.elf.sections) {
      if (section.type !== SectionType.RELA) continue;
      const target = this.sectionBase.get(section.info);
      if (target === undefined) continue;
      const symbols = this.elf.symbolsOf(this.elf.linkedSection(section, SectionType.SYMTAB, 'symbol table'));
      for (const r of this.elf.relocations(section)) {
        if (r.type !== R_X86_64_64) continue;
        const symbol = symbols[r.symbol];
        if (symbol === undefined) throw this.elf.error(`relocation in '${section.name}' names symbol ${r.symbol}, which the symbol table lacks`);
        let value: number | undefined;
        if (symbol.sectionIndex === SHN_ABS) value = symbol.value;
        else if (symbol.sectionIndex !== SHN_UNDEF && symbol.sectionIndex !== SHN_COMMON && symbol.sectionIndex < SHN_LORESERVE) {
          const base = this.sectionBase.get(symbol.sectionIndex);
          if (base !== undefined) value = base + symbol.value;
        }
        if (value !== undefined) this.pointers.set(target + r.offset, value + r.addend);
      }
    }
  }

  private applyDynamicRelocations(): void {
    const dynamicSymbols = this.elf.sections.find((s) => s.type === SectionType.DYNSYM);
    const symbols = dynamicSymbols === undefined ? [] : this.elf.symbolsOf(dynamicSymbols);
    for (const section of this.elf.sections) {
      if ((section.flags & SectionFlag.ALLOC) === 0) continue;
      if (section.type === SectionType.RELA) {
        for (const r of this.elf.relocations(section)) {
          if (r.type === R_X86_64_RELATIVE) this.pointers.set(r.offset, r.addend);
          else if (r.type === R_X86_64_64) {
            const symbol = symbols[r.symbol];
            if (symbol !== undefined && symbol.sectionIndex !== SHN_UNDEF) this.pointers.set(r.offset, symbol.value + r.addend);
          }
        }
      } else if (section.type === SectionType.RELR) {
        this.applyRelr(section);
      }
    }
  }

  /** RELR: an address entry, then bitmaps of the following 63 words that also hold relative pointers. */
  private applyRelr(section: ElfSection): void {
    const bytes = this.elf.contents(section);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let base = 0;
    for (let at = 0; at + 8 <= bytes.length; at += 8) {
      const entry = view.getBigUint64(at, true);
      if ((entry & 1n) === 0n) {
        const address = Number(entry);
        this.relative(address);
        base = address + 8;
      } else {
        for (let bit = 1n, i = 0; bit < 64n; bit++, i++) if ((entry >> bit) & 1n) this.relative(base + i * 8);
        base += 63 * 8;
      }
    }
  }

  private relative(address: number): void {
    const stored = this.readRaw(address, 8);
    if (stored !== undefined) this.pointers.set(address, Number(new DataView(stored.buffer, stored.byteOffset, 8).getBigUint64(0, true)));
  }

  private readRaw(address: number, length: number): Uint8Array | undefined {
    for (const range of this.ranges) {
      if (address >= range.start && address + length <= range.end) return range.bytes.subarray(address - range.start, address - range.start + length);
    }
    return undefined;
  }

  /** Whether `length` bytes at `address` are mapped. */
  has(address: number, length: number): boolean {
    return this.readRaw(address, length) !== undefined;
  }

  bytes(address: number, length: number, what: string): Uint8Array {
    const bytes = this.readRaw(address, length);
    if (bytes === undefined) throw this.elf.error(`${what}: ${length} bytes at address 0x${address.toString(16)} are not in the program`);
    return bytes;
  }

  u16(address: number, what: string): number {
    const b = this.bytes(address, 2, what);
    return b[0]! | (b[1]! << 8);
  }

  u32(address: number, what: string): number {
    const b = this.bytes(address, 4, what);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
  }

  u64(address: number, what: string): bigint {
    const b = this.bytes(address, 8, what);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);
  }

  pointer(address: number, what: string): number {
    const relocated = this.pointers.get(address);
    if (relocated !== undefined) return relocated;
    const value = this.u64(address, what);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw this.elf.error(`${what}: pointer 0x${value.toString(16)} at address 0x${address.toString(16)} is out of range`);
    return Number(value);
  }

  cString(address: number, what: string): string {
    for (const range of this.ranges) {
      if (address < range.start || address >= range.end) continue;
      const start = address - range.start;
      const end = range.bytes.indexOf(0, start);
      if (end < 0) throw this.elf.error(`${what}: the string at address 0x${address.toString(16)} has no terminating NUL`);
      return new TextDecoder('utf-8', { fatal: false }).decode(range.bytes.subarray(start, end));
    }
    throw this.elf.error(`${what}: address 0x${address.toString(16)} is not in the program`);
  }

  /** Addresses of the data sections' contents (for the scan of a stripped program). */
  dataRanges(): { start: number; end: number }[] {
    const out: { start: number; end: number }[] = [];
    for (const section of this.elf.sections) {
      if ((section.flags & SectionFlag.ALLOC) === 0 || (section.flags & SectionFlag.EXECINSTR) !== 0 || section.type === SectionType.NOBITS) continue;
      const start = this.elf.type === ElfType.REL ? this.sectionBase.get(section.index) : section.addr;
      if (start !== undefined) out.push({ start, end: start + section.size });
    }
    return out;
  }

  /** The address of a symbol's value (in an object: its section's address plus the value). */
  symbolAddress(sectionIndex: number, value: number): number | undefined {
    if (this.elf.type !== ElfType.REL) return value;
    const base = this.sectionBase.get(sectionIndex);
    return base === undefined ? undefined : base + value;
  }
}

/** One descriptor found in the file: where it is and what it registers. */
export interface ProgramDescriptor {
  /** Its address (in an object, in the reader's own numbering of the sections). */
  readonly address: number;
  /** The symbol it was found by, or undefined when found by scanning. */
  readonly symbol: string | undefined;
  readonly version: number;
  readonly images: readonly DeviceImage[];
}

export interface ReadDescriptorsOptions {
  /** Name of image `index` of bundle `target` (default `<target>_<index>`). */
  readonly imageName?: (target: string, index: number) => string;
}

/** The offload descriptors of an ELF program or object, in symbol (or address) order. */
export function readProgramDescriptors(bytes: Uint8Array, fileName = '<memory>', options: ReadDescriptorsOptions = {}): ProgramDescriptor[] {
  const elf = ElfFile.read(bytes, fileName);
  return readDescriptorsOf(elf, options);
}

export function readDescriptorsOf(elf: ElfFile, options: ReadDescriptorsOptions = {}): ProgramDescriptor[] {
  const space = AddressSpace.of(elf);
  const found: { address: number; symbol: string | undefined }[] = [];
  const symbolTable = elf.sections.find((s) => s.type === SectionType.SYMTAB);
  if (symbolTable !== undefined) {
    for (const symbol of elf.symbolsOf(symbolTable)) {
      if (!symbol.name.startsWith('.sycl_offloading.') || symbol.size !== DESCRIPTOR_SIZE || symbol.sectionIndex === SHN_UNDEF) continue;
      const address = space.symbolAddress(symbol.sectionIndex, symbol.value);
      if (address === undefined || !looksLikeDescriptor(space, address)) continue;
      if (!found.some((f) => f.address === address)) found.push({ address, symbol: symbol.name });
    }
  }
  if (found.length === 0) for (const address of scanForDescriptors(space)) found.push({ address, symbol: undefined });
  const names = options.imageName ?? ((target: string, index: number) => `${target}_${index}`);
  const perTarget = new Map<string, number>();
  return found.map(({ address, symbol }) => {
    const version = space.u16(address, 'descriptor version');
    const count = space.u16(address + 2, 'descriptor image count');
    const array = space.pointer(address + 8, 'descriptor DeviceBinaries');
    const images: DeviceImage[] = [];
    for (let i = 0; i < count; i++) {
      const image = readImage(space, array + i * IMAGE_STRUCT_SIZE, `image ${i} of the descriptor at 0x${address.toString(16)}`, (target) => {
        const n = perTarget.get(target) ?? 0;
        perTarget.set(target, n + 1);
        return names(target, n);
      });
      images.push(image);
    }
    return { address, symbol, version, images };
  });
}

function looksLikeDescriptor(space: AddressSpace, address: number): boolean {
  if (!space.has(address, DESCRIPTOR_SIZE)) return false;
  if (space.u16(address, '') !== 1) return false;
  const count = space.u16(address + 2, '');
  if (count === 0) return true;
  const images = space.pointer(address + 8, '');
  if (!space.has(images, count * IMAGE_STRUCT_SIZE)) return false;
  const kind = space.bytes(images + 2, 1, '')[0];
  const version = space.u16(images, '');
  return kind === 4 && version >= 1 && version <= 3;
}

/**
 * Descriptors in a program without symbols: data whose layout is a descriptor (version 1, padding
 * zero, no host entries) pointing at images whose first image's data is listed in `.tgtimg`.
 */
function scanForDescriptors(space: AddressSpace): number[] {
  const tgtimg = space.elf.section('.tgtimg');
  if (tgtimg === undefined) return [];
  const starts = new Set<number>();
  const base = space.elf.type === ElfType.REL ? space.sectionBase.get(tgtimg.index) : tgtimg.addr;
  if (base === undefined) return [];
  for (let at = 0; at + 16 <= tgtimg.size; at += 16) starts.add(space.pointer(base + at, '.tgtimg record'));
  const out: number[] = [];
  for (const range of space.dataRanges()) {
    for (let address = Math.ceil(range.start / 8) * 8; address + DESCRIPTOR_SIZE <= range.end; address += 8) {
      if (space.u16(address, '') !== 1 || space.u16(address + 4, '') !== 0 || space.u16(address + 6, '') !== 0) continue;
      if (space.u64(address + 16, '') !== 0n || space.u64(address + 24, '') !== 0n) continue;
      if (!looksLikeDescriptor(space, address) || space.u16(address + 2, '') === 0) continue;
      const images = space.pointer(address + 8, '');
      if (starts.has(space.pointer(images + 48, ''))) out.push(address);
    }
  }
  return out;
}

function readImage(space: AddressSpace, address: number, what: string, nameFor: (target: string) => string): DeviceImage {
  const version = space.u16(address, `${what}: version`);
  const head = space.bytes(address + 2, 2, `${what}: kind and format`);
  const target = space.cString(space.pointer(address + 8, `${what}: DeviceTargetSpec`), `${what}: DeviceTargetSpec`);
  const optional = (pointer: number, field: string): string => (pointer === 0 ? '' : space.cString(pointer, `${what}: ${field}`));
  const compileOptions = optional(space.pointer(address + 16, `${what}: CompileOptions`), 'CompileOptions');
  const linkOptions = optional(space.pointer(address + 24, `${what}: LinkOptions`), 'LinkOptions');
  const range = (offset: number, field: string): Uint8Array | null => {
    const begin = space.pointer(address + offset, `${what}: ${field} begin`);
    const end = space.pointer(address + offset + 8, `${what}: ${field} end`);
    if (begin === 0 && end === 0) return null;
    if (end < begin) throw space.elf.error(`${what}: ${field} ends at 0x${end.toString(16)}, before it begins at 0x${begin.toString(16)}`);
    return space.bytes(begin, end - begin, `${what}: ${field}`).slice();
  };
  const manifest = range(32, 'manifest');
  const image = range(48, 'image') ?? new Uint8Array(0);
  const entries: string[] = [];
  const entriesBegin = space.pointer(address + 64, `${what}: EntriesBegin`);
  const entriesEnd = space.pointer(address + 72, `${what}: EntriesEnd`);
  if ((entriesEnd - entriesBegin) % ENTRY_SIZE !== 0 || entriesEnd < entriesBegin) throw space.elf.error(`${what}: the entry array is ${entriesEnd - entriesBegin} bytes, not a whole number of ${ENTRY_SIZE}-byte entries`);
  for (let at = entriesBegin; at < entriesEnd; at += ENTRY_SIZE) entries.push(space.cString(space.pointer(at + 8, `${what}: entry name`), `${what}: entry name`));
  const properties = new PropertySetRegistry();
  const setsBegin = space.pointer(address + 80, `${what}: PropertySetsBegin`);
  const setsEnd = space.pointer(address + 88, `${what}: PropertySetsEnd`);
  if ((setsEnd - setsBegin) % PROPERTY_SET_SIZE !== 0 || setsEnd < setsBegin) throw space.elf.error(`${what}: the property set array is ${setsEnd - setsBegin} bytes, not a whole number of ${PROPERTY_SET_SIZE}-byte sets`);
  for (let at = setsBegin; at < setsEnd; at += PROPERTY_SET_SIZE) {
    const setName = space.cString(space.pointer(at, `${what}: property set name`), `${what}: property set name`);
    const begin = space.pointer(at + 8, `${what}: [${setName}] PropertiesBegin`);
    const end = space.pointer(at + 16, `${what}: [${setName}] PropertiesEnd`);
    if ((end - begin) % PROPERTY_SIZE !== 0 || end < begin) throw space.elf.error(`${what}: [${setName}] has ${end - begin} bytes of properties, not a whole number of ${PROPERTY_SIZE}-byte properties`);
    properties.ensureSet(setName);
    for (let p = begin; p < end; p += PROPERTY_SIZE) {
      const name = space.cString(space.pointer(p, `${what}: property name`), `${what}: property name in [${setName}]`);
      const valAddr = space.pointer(p + 8, `${what}: ValAddr of '${name}'`);
      const type = space.u32(p + 16, `${what}: Type of '${name}'`);
      const valSize = space.u64(p + 24, `${what}: ValSize of '${name}'`);
      let value: PropertyValue;
      try {
        const bytes = type === BinaryPropertyType.BYTE_ARRAY && valAddr !== 0 ? space.bytes(valAddr, Number(valSize), `${what}: value of '${name}'`).slice() : null;
        value = fromBinaryProperty({ type: type as BinaryPropertyType, bytes: type === BinaryPropertyType.UINT32 && valAddr !== 0 ? new Uint8Array(0) : bytes, valSize });
      } catch (error) {
        if (error instanceof Error && error.name === 'FormatError') throw space.elf.error(`${what}: property '${name}' in [${setName}]: ${error.message}`);
        throw error;
      }
      properties.add(setName, name, value);
    }
  }
  return deviceImage({ name: nameFor(target), version, kind: head[0]!, format: head[1]!, target, compileOptions, linkOptions, manifest, image, entries, properties, empty: image.length === 0 });
}

/** The images of several descriptors as one descriptor: bundles by target, in first-seen order. */
export function mergeDescriptors(descriptors: readonly ProgramDescriptor[]): BinaryDescriptor {
  const bundles = new Map<string, DeviceImage[]>();
  for (const descriptor of descriptors) {
    for (const image of descriptor.images) {
      const list = bundles.get(image.target) ?? [];
      list.push(image);
      bundles.set(image.target, list);
    }
  }
  return { bundles: [...bundles].map(([target, images]): Bundle => ({ target, images })) };
}

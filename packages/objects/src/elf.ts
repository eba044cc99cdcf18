/**
 * A small ELF reader: what the device link needs from host objects and linked programs (sections,
 * their bytes, symbols, RELA relocations, program headers). ELF64 little-endian is read in full;
 * for other ELF files the identification (class, byte order, machine) is read so that an object
 * for another host is reported as such rather than as a corrupt file. Every offset and size in the
 * headers is checked against the file before it is used: a bad file is an ObjectFormatError that
 * names the offset, never a read out of bounds.
 */
import { ObjectFormatError } from './errors.js';

export const ELF_MAGIC = Uint8Array.of(0x7f, 0x45, 0x4c, 0x46);

/** `e_type` values. */
export const ElfType = { NONE: 0, REL: 1, EXEC: 2, DYN: 3, CORE: 4 } as const;

/** `sh_type` values used here. */
export const SectionType = {
  NULL: 0,
  PROGBITS: 1,
  SYMTAB: 2,
  STRTAB: 3,
  RELA: 4,
  HASH: 5,
  DYNAMIC: 6,
  NOTE: 7,
  NOBITS: 8,
  REL: 9,
  DYNSYM: 11,
  INIT_ARRAY: 14,
  FINI_ARRAY: 15,
  GROUP: 17,
  SYMTAB_SHNDX: 18,
  RELR: 19,
} as const;

/** `sh_flags` bits used here. */
export const SectionFlag = { WRITE: 0x1, ALLOC: 0x2, EXECINSTR: 0x4, MERGE: 0x10, STRINGS: 0x20, EXCLUDE: 0x80000000 } as const;

/** Special section indices. */
export const SHN_UNDEF = 0;
export const SHN_LORESERVE = 0xff00;
export const SHN_ABS = 0xfff1;
export const SHN_COMMON = 0xfff2;
export const SHN_XINDEX = 0xffff;

/** `EM_*` machine numbers and the triple architecture each stands for. */
const MACHINES: Readonly<Record<number, string>> = {
  3: 'i386',
  8: 'mips',
  20: 'powerpc',
  21: 'powerpc64',
  22: 's390x',
  40: 'arm',
  62: 'x86_64',
  183: 'aarch64',
  190: 'nvptx64',
  224: 'amdgcn',
  243: 'riscv64',
  258: 'loongarch64',
};

export const EM_X86_64 = 62;

/** The triple architecture of an ELF machine number (`x86_64` for 62), or `machine <n>`. */
export function machineArch(machine: number, elfClass: 32 | 64 = 64): string {
  if (machine === 243 && elfClass === 32) return 'riscv32';
  if (machine === 21 && elfClass === 32) return 'powerpc';
  return MACHINES[machine] ?? `machine ${machine}`;
}

/** The ELF machine number of a triple's architecture (`x86_64-unknown-linux-gnu` → 62), if known. */
export function machineOfTriple(triple: string): number | undefined {
  const arch = triple.split('-')[0] ?? '';
  const alias: Record<string, string> = { i686: 'i386', i586: 'i386', amd64: 'x86_64', arm64: 'aarch64', ppc64le: 'powerpc64', ppc64: 'powerpc64' };
  const name = alias[arch] ?? arch;
  for (const [number, value] of Object.entries(MACHINES)) if (value === name) return Number(number);
  return undefined;
}

/** What the first 20 bytes say: enough to tell a host object for another machine from a bad file. */
export interface ElfIdentity {
  readonly elfClass: 32 | 64;
  readonly littleEndian: boolean;
  readonly type: number;
  readonly machine: number;
}

/** Whether the bytes start with the ELF magic. */
export function isElf(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
}

/** The identification of an ELF file, or undefined when the bytes are not one (or too short). */
export function elfIdentity(bytes: Uint8Array): ElfIdentity | undefined {
  if (!isElf(bytes) || bytes.length < 20) return undefined;
  const elfClass = bytes[4] === 1 ? 32 : bytes[4] === 2 ? 64 : undefined;
  const littleEndian = bytes[5] === 1 ? true : bytes[5] === 2 ? false : undefined;
  if (elfClass === undefined || littleEndian === undefined) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { elfClass, littleEndian, type: view.getUint16(16, littleEndian), machine: view.getUint16(18, littleEndian) };
}

export interface ElfSection {
  readonly index: number;
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly addr: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  readonly info: number;
  readonly addralign: number;
  readonly entsize: number;
}

export interface ElfSegment {
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly vaddr: number;
  readonly filesz: number;
  readonly memsz: number;
}

/** `st_info` binding and type values used here. */
export const SymbolBinding = { LOCAL: 0, GLOBAL: 1, WEAK: 2 } as const;
export const SymbolType = { NOTYPE: 0, OBJECT: 1, FUNC: 2, SECTION: 3, FILE: 4, COMMON: 5, TLS: 6 } as const;

export interface ElfSymbol {
  readonly name: string;
  readonly value: number;
  readonly size: number;
  readonly binding: number;
  readonly type: number;
  readonly visibility: number;
  /** `st_shndx`: 0 undefined, SHN_ABS, SHN_COMMON, or a section index. */
  readonly sectionIndex: number;
}

export interface ElfRelocation {
  readonly offset: number;
  readonly type: number;
  readonly symbol: number;
  readonly addend: number;
}

const EHDR_SIZE = 64;
const SHDR_SIZE = 64;
const PHDR_SIZE = 56;
const SYM_SIZE = 24;
const RELA_SIZE = 24;

/** A parsed ELF64 little-endian file. */
export class ElfFile {
  readonly type: number;
  readonly machine: number;
  readonly entry: number;
  readonly sections: readonly ElfSection[];
  readonly segments: readonly ElfSegment[];
  readonly shstrndx: number;
  private readonly view: DataView;
  private readonly symbolCache = new Map<number, readonly ElfSymbol[]>();

  private constructor(
    readonly bytes: Uint8Array,
    readonly fileName: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const identity = elfIdentity(bytes);
    if (identity === undefined) {
      if (!isElf(bytes)) throw this.error('not an ELF file: expected the magic bytes 7f 45 4c 46 at offset 0', 0);
      throw this.error(bytes.length < 20 ? `truncated: the file is ${bytes.length} bytes long, shorter than the ELF identification` : 'invalid ELF class or byte order', bytes.length < 20 ? undefined : 4);
    }
    if (identity.elfClass !== 64 || !identity.littleEndian) {
      throw this.error(`a ${identity.elfClass}-bit ${identity.littleEndian ? 'little' : 'big'}-endian ELF file for ${machineArch(identity.machine, identity.elfClass)}; only 64-bit little-endian ELF is read`);
    }
    if (bytes.length < EHDR_SIZE) throw this.error(`truncated: the file is ${bytes.length} bytes long, shorter than the 64-byte ELF header`);
    this.type = identity.type;
    this.machine = identity.machine;
    this.entry = this.u64(24);
    const phoff = this.u64(32);
    const shoff = this.u64(40);
    const phentsize = this.view.getUint16(54, true);
    let phnum = this.view.getUint16(56, true);
    const shentsize = this.view.getUint16(58, true);
    let shnum = this.view.getUint16(60, true);
    let shstrndx = this.view.getUint16(62, true);

    if (shoff !== 0) {
      if (shentsize !== SHDR_SIZE) throw this.error(`section header size is ${shentsize}; expected ${SHDR_SIZE}`, 58);
      this.need(shoff, SHDR_SIZE, 'the first section header');
      // Extended numbering: counts too large for the header live in section header 0.
      if (shnum === 0) shnum = this.u64(shoff + 32);
      if (shstrndx === SHN_XINDEX) shstrndx = this.view.getUint32(shoff + 40, true);
      if (phnum === 0xffff) phnum = this.view.getUint32(shoff + 44, true);
      this.need(shoff, shnum * SHDR_SIZE, `the section header table (${shnum} headers)`);
    } else {
      shnum = 0;
    }
    const raw: Omit<ElfSection, 'name'>[] = [];
    const nameOffsets: number[] = [];
    for (let i = 0; i < shnum; i++) {
      const at = shoff + i * SHDR_SIZE;
      nameOffsets.push(this.view.getUint32(at, true));
      const section = {
        index: i,
        type: this.view.getUint32(at + 4, true),
        flags: this.u64(at + 8),
        addr: this.u64(at + 16),
        offset: this.u64(at + 24),
        size: this.u64(at + 32),
        link: this.view.getUint32(at + 40, true),
        info: this.view.getUint32(at + 44, true),
        addralign: this.u64(at + 48),
        entsize: this.u64(at + 56),
      };
      if (section.type !== SectionType.NOBITS && section.type !== SectionType.NULL) {
        this.need(section.offset, section.size, `the contents of section ${i} (section header at offset ${at})`);
      }
      raw.push(section);
    }
    if (shnum > 0 && shstrndx >= shnum) throw this.error(`the section name string table index ${shstrndx} is not below the section count ${shnum}`, 62);
    const names = shnum > 0 && shstrndx !== SHN_UNDEF ? { ...raw[shstrndx]!, name: '' } : undefined;
    this.shstrndx = shstrndx;
    this.sections = raw.map((section, i) => ({ ...section, name: names === undefined ? '' : this.stringAt(names, nameOffsets[i]!, `the name of section ${i}`) }));

    const segments: ElfSegment[] = [];
    if (phoff !== 0 && phnum > 0) {
      if (phentsize !== PHDR_SIZE) throw this.error(`program header size is ${phentsize}; expected ${PHDR_SIZE}`, 54);
      this.need(phoff, phnum * PHDR_SIZE, `the program header table (${phnum} headers)`);
      for (let i = 0; i < phnum; i++) {
        const at = phoff + i * PHDR_SIZE;
        const segment = {
          type: this.view.getUint32(at, true),
          flags: this.view.getUint32(at + 4, true),
          offset: this.u64(at + 8),
          vaddr: this.u64(at + 16),
          filesz: this.u64(at + 32),
          memsz: this.u64(at + 40),
        };
        if (segment.type === 1) this.need(segment.offset, segment.filesz, `the contents of loadable segment ${i}`);
        segments.push(segment);
      }
    }
    this.segments = segments;
  }

  /** Parses ELF64 little-endian bytes (`fileName` is used in errors). */
  static read(bytes: Uint8Array, fileName = '<memory>'): ElfFile {
    return new ElfFile(bytes, fileName);
  }

  /** The first section with this name. */
  section(name: string): ElfSection | undefined {
    return this.sections.find((s) => s.name === name);
  }

  /** A section's bytes (a view into the file; empty for SHT_NOBITS). */
  contents(section: ElfSection): Uint8Array {
    if (section.type === SectionType.NOBITS || section.type === SectionType.NULL) return new Uint8Array(0);
    return this.bytes.subarray(section.offset, section.offset + section.size);
  }

  /** The symbols of `.symtab` (or, when there is none, `.dynsym`), index 0 included. */
  symbols(): readonly ElfSymbol[] {
    const table = this.sections.find((s) => s.type === SectionType.SYMTAB) ?? this.sections.find((s) => s.type === SectionType.DYNSYM);
    return table === undefined ? [] : this.symbolsOf(table);
  }

  /** The symbols of one symbol table section (read once; every relocation section of an object names the same table). */
  symbolsOf(table: ElfSection): readonly ElfSymbol[] {
    let symbols = this.symbolCache.get(table.index);
    if (symbols === undefined) {
      symbols = this.readSymbols(table);
      this.symbolCache.set(table.index, symbols);
    }
    return symbols;
  }

  private readSymbols(table: ElfSection): ElfSymbol[] {
    if (table.entsize !== SYM_SIZE) throw this.error(`symbol table '${table.name}' has entry size ${table.entsize}; expected ${SYM_SIZE}`);
    if (table.size % SYM_SIZE !== 0) throw this.error(`symbol table '${table.name}' is ${table.size} bytes, not a whole number of ${SYM_SIZE}-byte entries`, table.offset);
    const strings = this.linkedSection(table, SectionType.STRTAB, 'string table');
    const symbols: ElfSymbol[] = [];
    for (let at = table.offset; at < table.offset + table.size; at += SYM_SIZE) {
      const info = this.bytes[at + 4]!;
      symbols.push({
        name: this.stringAt(strings, this.view.getUint32(at, true), `the name of the symbol at offset ${at}`),
        binding: info >> 4,
        type: info & 0xf,
        visibility: this.bytes[at + 5]! & 0x3,
        sectionIndex: this.view.getUint16(at + 6, true),
        value: this.u64(at + 8),
        size: this.u64(at + 16),
      });
    }
    return symbols;
  }

  /** The entries of a SHT_RELA section. */
  relocations(section: ElfSection): ElfRelocation[] {
    if (section.type !== SectionType.RELA) throw this.error(`section '${section.name}' is not a RELA section`);
    if (section.size % RELA_SIZE !== 0) throw this.error(`relocation section '${section.name}' is ${section.size} bytes, not a whole number of ${RELA_SIZE}-byte entries`, section.offset);
    const out: ElfRelocation[] = [];
    for (let at = section.offset; at < section.offset + section.size; at += RELA_SIZE) {
      const info = this.view.getBigUint64(at + 8, true);
      out.push({ offset: this.u64(at), type: Number(info & 0xffffffffn), symbol: Number(info >> 32n), addend: Number(this.view.getBigInt64(at + 16, true)) });
    }
    return out;
  }

  /** The section a symbol table or relocation section links to (`sh_link`), checked. */
  linkedSection(section: ElfSection, type: number, what: string): ElfSection {
    const linked = this.sections[section.link];
    if (linked === undefined || linked.type !== type) throw this.error(`section '${section.name}' links to section ${section.link}, which is not a ${what}`);
    return linked;
  }

  /** The NUL-terminated string at `offset` in a string table section. */
  stringAt(table: ElfSection, offset: number, what: string): string {
    if (offset >= table.size) {
      if (offset === 0 && table.size === 0) return '';
      throw this.error(`${what}: offset ${offset} is outside the string table '${table.name || `#${table.index}`}' (${table.size} bytes)`);
    }
    const start = table.offset + offset;
    const end = this.bytes.indexOf(0, start);
    if (end < 0 || end >= table.offset + table.size) throw this.error(`${what}: the string at offset ${offset} of string table ${table.index} has no terminating NUL`);
    return latin1(this.bytes.subarray(start, end));
  }

  error(reason: string, offset?: number): ObjectFormatError {
    return new ObjectFormatError(this.fileName, reason, offset);
  }

  private u64(at: number): number {
    const value = this.view.getBigUint64(at, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw this.error(`a 64-bit field holds ${value}, beyond any file this reader handles`, at);
    return Number(value);
  }

  private need(offset: number, size: number, what: string): void {
    if (offset + size > this.bytes.length) {
      throw this.error(`truncated: ${what} spans offsets ${offset}–${offset + size}, but the file is ${this.bytes.length} bytes long`, offset);
    }
  }
}

/** Bytes as a string, one character per byte (symbol and section names are bytes, not UTF-8). */
export function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

/** A string's characters as bytes (the inverse of {@link latin1}; characters above 0xff are refused). */
export function latin1Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) throw new RangeError(`character U+${code.toString(16).toUpperCase().padStart(4, '0')} in '${text}' is not a byte`);
    out[i] = code;
  }
  return out;
}

/**
 * Builds small ELF64 little-endian relocatable objects for tests, without any tool: a null
 * section, the given sections, `.symtab` with the given symbols, `.strtab` and `.shstrtab`, and
 * the section header table at the end (as llc and objcopy place it).
 */
import { existsSync } from 'node:fs';

export interface BuiltSection {
  readonly name: string;
  readonly data: Uint8Array;
  readonly type?: number;
  readonly flags?: number;
  readonly align?: number;
}

export interface BuiltSymbol {
  readonly name: string;
  /** Index into `sections` (0-based), or 'undef'. */
  readonly section: number | 'undef';
  readonly value?: number;
  readonly size?: number;
  readonly global?: boolean;
  /** STT_* (default FUNC for defined, NOTYPE for undefined). */
  readonly type?: number;
}

export function buildElfObject(options: { readonly sections?: readonly BuiltSection[]; readonly symbols?: readonly BuiltSymbol[]; readonly machine?: number; readonly type?: number } = {}): Uint8Array {
  const sections = options.sections ?? [{ name: '.text', data: Uint8Array.of(0xc3), type: 1, flags: 6, align: 16 }];
  const symbols = options.symbols ?? [];
  const encoder = new TextEncoder();
  let strtab = '\0';
  const strOffset = (name: string): number => {
    if (name === '') return 0;
    const at = strtab.length;
    strtab += `${name}\0`;
    return at;
  };
  let shstrtab = '\0';
  const shName = (name: string): number => {
    const at = shstrtab.length;
    shstrtab += `${name}\0`;
    return at;
  };
  // Symbols: the null symbol, locals first, then globals (sh_info = first global).
  const ordered = [...symbols.filter((s) => s.global !== true), ...symbols.filter((s) => s.global === true)];
  const symtab = new Uint8Array(24 * (ordered.length + 1));
  const symView = new DataView(symtab.buffer);
  ordered.forEach((s, i) => {
    const at = 24 * (i + 1);
    symView.setUint32(at, strOffset(s.name), true);
    const type = s.type ?? (s.section === 'undef' ? 0 : 2);
    symtab[at + 4] = ((s.global === true ? 1 : 0) << 4) | type;
    symView.setUint16(at + 6, s.section === 'undef' ? 0 : s.section + 1, true);
    symView.setBigUint64(at + 8, BigInt(s.value ?? 0), true);
    symView.setBigUint64(at + 16, BigInt(s.size ?? 0), true);
  });
  const firstGlobal = 1 + ordered.filter((s) => s.global !== true).length;
  const all = [
    ...sections.map((s) => ({ ...s, link: 0, info: 0, entsize: 0 })),
    { name: '.symtab', data: symtab, type: 2, flags: 0, align: 8, link: sections.length + 2, info: firstGlobal, entsize: 24 },
    { name: '.strtab', data: encoder.encode(strtab), type: 3, flags: 0, align: 1, link: 0, info: 0, entsize: 0 },
  ];
  const names = all.map((s) => shName(s.name));
  const shstrndx = all.length + 1;
  const shstrName = shName('.shstrtab');
  all.push({ name: '.shstrtab', data: encoder.encode(shstrtab), type: 3, flags: 0, align: 1, link: 0, info: 0, entsize: 0 });
  names.push(shstrName);
  let offset = 64;
  const offsets = all.map((s) => {
    const align = s.align ?? 1;
    offset = Math.ceil(offset / align) * align;
    const at = offset;
    offset += s.data.length;
    return at;
  });
  const shoff = Math.ceil(offset / 8) * 8;
  const out = new Uint8Array(shoff + 64 * (all.length + 1));
  const view = new DataView(out.buffer);
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  view.setUint16(16, options.type ?? 1, true);
  view.setUint16(18, options.machine ?? 62, true);
  view.setUint32(20, 1, true);
  view.setBigUint64(40, BigInt(shoff), true);
  view.setUint16(52, 64, true);
  view.setUint16(58, 64, true);
  view.setUint16(60, all.length + 1, true);
  view.setUint16(62, shstrndx, true);
  all.forEach((s, i) => {
    out.set(s.data, offsets[i]!);
    const at = shoff + 64 * (i + 1);
    view.setUint32(at, names[i]!, true);
    view.setUint32(at + 4, s.type ?? 1, true);
    view.setBigUint64(at + 8, BigInt(s.flags ?? 0), true);
    view.setBigUint64(at + 24, BigInt(offsets[i]!), true);
    view.setBigUint64(at + 32, BigInt(s.data.length), true);
    view.setUint32(at + 40, s.link, true);
    view.setUint32(at + 44, s.info, true);
    view.setBigUint64(at + 48, BigInt(s.align ?? 1), true);
    view.setBigUint64(at + 56, BigInt(s.entsize), true);
  });
  return out;
}

/** Finds an executable LLVM 16 or binutils tool, or undefined (tests that need it skip). */
export function tool(...candidates: string[]): string | undefined {
  for (const candidate of candidates) {
    for (const dir of ['/usr/lib/llvm-16/bin', '/usr/bin', '/usr/local/bin']) {
      const path = `${dir}/${candidate}`;
      if (existsSync(path)) return path;
    }
  }
  return undefined;
}

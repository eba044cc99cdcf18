/**
 * clang-offload-bundler's formats, as intel/llvm's `clang/lib/Driver/OffloadBundler.cpp` (2023,
 * the LLVM 16/17 era) reads and writes them. See the README's "Fat object layout".
 *
 * - Object files (`-type=o`): the host object itself, plus one section per bundle named
 *   `__CLANG_OFFLOAD_BUNDLE__<kind>-<triple>` (SHT_PROGBITS, flags SHF_EXCLUDE, alignment 1)
 *   holding that target's file; the host's section holds one zero byte and stands for the whole
 *   file. intel/llvm adds `.tgtsym`: `<kind>-<triple>.<symbol>` NUL-terminated, for every global
 *   symbol the device code defines.
 * - Other binary files (`-type=bc`, ...): the magic `__CLANG_OFFLOAD_BUNDLE__`, a u64 bundle count,
 *   per bundle u64 offset, u64 size, u64 ID length and the ID; then the bundles' bytes.
 */
import { ElfFile, SectionFlag, SectionType, latin1, latin1Bytes, type ElfSection } from './elf.js';
import { addElfSections } from './elf-write.js';
import { ObjectFormatError } from './errors.js';

export const OFFLOAD_BUNDLER_MAGIC = '__CLANG_OFFLOAD_BUNDLE__';
/** intel/llvm's section listing the device code's defined symbols. */
export const TARGET_SYMBOLS_SECTION = '.tgtsym';
/** Offload kinds the bundler accepts in a bundle ID (intel/llvm adds `sycl` and `fpga` to upstream's). */
export const OFFLOAD_KINDS = ['host', 'openmp', 'sycl', 'fpga', 'hip', 'hipv4'] as const;

/** A bundle entry ID: `<kind>-<triple>` (`sycl-spir64-unknown-unknown`, `host-x86_64-unknown-linux-gnu`). */
export interface BundleId {
  readonly kind: string;
  readonly triple: string;
}

/** Splits a bundle ID at its first `-`; undefined when there is none or either side is empty. */
export function parseBundleId(id: string): BundleId | undefined {
  const dash = id.indexOf('-');
  if (dash <= 0 || dash === id.length - 1) return undefined;
  return { kind: id.slice(0, dash), triple: id.slice(dash + 1) };
}

export function formatBundleId(id: BundleId): string {
  return `${id.kind}-${id.triple}`;
}

/** One bundle: its ID and its bytes. */
export interface OffloadBundle {
  readonly id: string;
  readonly data: Uint8Array;
}

/** A fat object read back: its host part and device bundles. */
export interface FatObject {
  /** The object itself (the host bundle's bytes are the whole file, as the bundler unbundles them). */
  readonly elf: ElfFile;
  /** The `host-<triple>` bundle ID, when the object has one. */
  readonly hostId: string | undefined;
  /** The other bundles, in section order. */
  readonly bundles: readonly OffloadBundle[];
  /** `.tgtsym`: defined symbols per bundle ID (empty when the section is absent). */
  readonly targetSymbols: ReadonlyMap<string, readonly string[]>;
  /** Whether the object had a `.tgtsym` section. */
  readonly hasTargetSymbols: boolean;
}

/**
 * Whether a section is a bundle the bundler wrote: named with the magic and not loaded. Wrapper
 * objects put their images in allocated sections of the same name (`__CLANG_OFFLOAD_BUNDLE__sycl-spir64`):
 * those are wrapped images, not device code to link.
 */
export function isBundleSection(section: ElfSection): boolean {
  return section.name.startsWith(OFFLOAD_BUNDLER_MAGIC) && (section.flags & SectionFlag.ALLOC) === 0;
}

/** Reads an ELF fat object (any ELF object: one without bundle sections has no bundles). */
export function readFatObject(bytes: Uint8Array, fileName = '<memory>'): FatObject {
  const elf = ElfFile.read(bytes, fileName);
  let hostId: string | undefined;
  const bundles: OffloadBundle[] = [];
  const seen = new Set<string>();
  for (const section of elf.sections) {
    if (!isBundleSection(section)) continue;
    const id = section.name.slice(OFFLOAD_BUNDLER_MAGIC.length);
    const parsed = parseBundleId(id);
    if (parsed === undefined) throw elf.error(`corrupt fat object: section '${section.name}' names no bundle '<kind>-<triple>'`, section.offset);
    if (section.type === SectionType.NOBITS) throw elf.error(`corrupt fat object: bundle section '${section.name}' has no contents (SHT_NOBITS)`);
    if (seen.has(id)) throw elf.error(`corrupt fat object: two sections hold bundle '${id}'`, section.offset);
    seen.add(id);
    const data = elf.contents(section);
    if (parsed.kind === 'host') {
      hostId = id;
      if (!(data.length === 1 && data[0] === 0)) bundles.push({ id, data });
      continue;
    }
    bundles.push({ id, data });
  }
  const symbolsSection = elf.section(TARGET_SYMBOLS_SECTION);
  const targetSymbols = symbolsSection === undefined ? new Map<string, string[]>() : parseTargetSymbols(elf, symbolsSection, [...seen]);
  return { elf, hostId, bundles, targetSymbols, hasTargetSymbols: symbolsSection !== undefined };
}

function parseTargetSymbols(elf: ElfFile, section: ElfSection, ids: readonly string[]): Map<string, string[]> {
  const bytes = elf.contents(section);
  const out = new Map<string, string[]>();
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0) throw elf.error(`corrupt fat object: '${TARGET_SYMBOLS_SECTION}' does not end with a NUL`, section.offset + bytes.length - 1);
  const byLength = [...ids].sort((a, b) => b.length - a.length);
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0, start);
    const entry = latin1(bytes.subarray(start, end));
    const id = byLength.find((candidate) => entry.startsWith(`${candidate}.`)) ?? entry.slice(0, Math.max(0, entry.indexOf('.')));
    if (id === '') throw elf.error(`corrupt fat object: '${TARGET_SYMBOLS_SECTION}' entry '${entry}' is not '<kind>-<triple>.<symbol>'`, section.offset + start);
    const list = out.get(id) ?? [];
    list.push(entry.slice(id.length + 1));
    out.set(id, list);
    start = end + 1;
  }
  return out;
}

/** The bytes the bundler unbundles for `id`: a device bundle's data, or for the host the whole object. */
export function unbundle(fat: FatObject, id: string): Uint8Array | undefined {
  if (id === fat.hostId) return fat.bundles.find((b) => b.id === id)?.data ?? fat.elf.bytes;
  return fat.bundles.find((b) => b.id === id)?.data;
}

export interface WriteFatObjectOptions {
  /** The relocatable host object the bundles are added to. */
  readonly hostObject: Uint8Array;
  /** The host bundle ID (`host-x86_64-unknown-linux-gnu`). */
  readonly hostId: string;
  /** Device bundles, written in this order before the host's marker section. */
  readonly bundles: readonly OffloadBundle[];
  /** intel/llvm's `.tgtsym` entries per bundle ID (omitted when empty, as the bundler does). */
  readonly targetSymbols?: ReadonlyMap<string, readonly string[]>;
  /** Name used in errors. */
  readonly fileName?: string;
}

/** A fat object: the host object with a bundle section per target (see the module comment). */
export function writeFatObject(options: WriteFatObjectOptions): Uint8Array {
  const ids = [...options.bundles.map((b) => b.id), options.hostId];
  for (const id of ids) {
    const parsed = parseBundleId(id);
    if (parsed === undefined) throw new RangeError(`invalid bundle ID '${id}': expected <kind>-<triple>`);
  }
  if (parseBundleId(options.hostId)?.kind !== 'host') throw new RangeError(`the host bundle ID must have kind 'host', got '${options.hostId}'`);
  if (new Set(ids).size !== ids.length) throw new RangeError(`duplicate bundle IDs: ${ids.join(', ')}`);
  const flags: number = SectionFlag.EXCLUDE;
  const sections: { name: string; data: Uint8Array; flags: number }[] = [
    ...options.bundles.map((b) => ({ name: OFFLOAD_BUNDLER_MAGIC + b.id, data: b.data, flags })),
    { name: OFFLOAD_BUNDLER_MAGIC + options.hostId, data: Uint8Array.of(0), flags },
  ];
  const entries: Uint8Array[] = [];
  for (const [id, symbols] of options.targetSymbols ?? []) for (const symbol of symbols) entries.push(latin1Bytes(`${id}.${symbol}\0`));
  if (entries.length > 0) sections.push({ name: TARGET_SYMBOLS_SECTION, data: concat(entries), flags: 0 });
  return addElfSections(options.hostObject, sections, options.fileName);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const MAGIC_BYTES = latin1Bytes(OFFLOAD_BUNDLER_MAGIC);

/** Whether the bytes start with the bundler's magic (the binary bundle format). */
export function isBinaryBundle(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC_BYTES.length) return false;
  for (let i = 0; i < MAGIC_BYTES.length; i++) if (bytes[i] !== MAGIC_BYTES[i]) return false;
  return true;
}

/**
 * Reads the binary bundle format. Where the bundler silently finds no bundles in a damaged
 * header, this names the offset and what is wrong.
 */
export function readBinaryBundle(bytes: Uint8Array, fileName = '<memory>'): OffloadBundle[] {
  const fail = (reason: string, offset?: number): never => {
    throw new ObjectFormatError(fileName, reason, offset);
  };
  if (!isBinaryBundle(bytes)) fail(`not an offload bundle: expected '${OFFLOAD_BUNDLER_MAGIC}' at offset 0`, 0);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at: number, what: string): number => {
    if (at + 8 > bytes.length) fail(`truncated: ${what} at offset ${at} needs 8 bytes, but the file is ${bytes.length} bytes long`, at);
    const value = view.getBigUint64(at, true);
    if (value > BigInt(bytes.length)) fail(`corrupt bundle header: ${what} is ${value}, more than the file's ${bytes.length} bytes`, at);
    return Number(value);
  };
  let at = MAGIC_BYTES.length;
  const count = u64(at, 'the bundle count');
  at += 8;
  const out: OffloadBundle[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const offset = u64(at, `the offset of bundle ${i}`);
    const size = u64(at + 8, `the size of bundle ${i}`);
    const idLength = u64(at + 16, `the ID length of bundle ${i}`);
    at += 24;
    if (at + idLength > bytes.length) fail(`truncated: the ID of bundle ${i} (${idLength} bytes at offset ${at}) runs past the end of the file (${bytes.length} bytes)`, at);
    const id = latin1(bytes.subarray(at, at + idLength));
    at += idLength;
    if (parseBundleId(id) === undefined) fail(`corrupt bundle header: bundle ${i} has ID '${id}', not '<kind>-<triple>'`, at - idLength);
    if (seen.has(id)) fail(`corrupt bundle header: bundle '${id}' is listed twice`, at - idLength);
    seen.add(id);
    if (offset === 0 || offset + size > bytes.length) fail(`truncated: bundle '${id}' spans offsets ${offset}–${offset + size}, but the file is ${bytes.length} bytes long`, offset);
    out.push({ id, data: bytes.subarray(offset, offset + size) });
  }
  for (const bundle of out) {
    const offset = bundle.data.byteOffset - bytes.byteOffset;
    if (offset < at) fail(`corrupt bundle header: bundle '${bundle.id}' starts at offset ${offset}, inside the header (which ends at ${at})`, offset);
  }
  return out;
}

/** Writes the binary bundle format; `align` is `-bundle-align` (default 1). */
export function writeBinaryBundle(bundles: readonly OffloadBundle[], options: { readonly align?: number } = {}): Uint8Array {
  const align = options.align ?? 1;
  const ids = bundles.map((b) => latin1Bytes(b.id));
  if (new Set(bundles.map((b) => b.id)).size !== bundles.length) throw new RangeError('duplicate bundle IDs');
  let header = MAGIC_BYTES.length + 8;
  for (const id of ids) header += 24 + id.length;
  const offsets: number[] = [];
  let end = header;
  for (const bundle of bundles) {
    end = align <= 1 ? end : Math.ceil(end / align) * align;
    offsets.push(end);
    end += bundle.data.length;
  }
  const out = new Uint8Array(end);
  const view = new DataView(out.buffer);
  out.set(MAGIC_BYTES, 0);
  let at = MAGIC_BYTES.length;
  view.setBigUint64(at, BigInt(bundles.length), true);
  at += 8;
  bundles.forEach((bundle, i) => {
    view.setBigUint64(at, BigInt(offsets[i]!), true);
    view.setBigUint64(at + 8, BigInt(bundle.data.length), true);
    view.setBigUint64(at + 16, BigInt(ids[i]!.length), true);
    out.set(ids[i]!, at + 24);
    at += 24 + ids[i]!.length;
    out.set(bundle.data, offsets[i]!);
  });
  return out;
}

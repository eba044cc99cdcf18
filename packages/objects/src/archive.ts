/**
 * Unix `ar` archives (static libraries), as GNU ar and llvm-ar write them: the magic `!<arch>\n`,
 * then per member a 60-byte header (name 16, date 12, uid 6, gid 6, mode 8, size 10, "`\n") and
 * the data padded to an even offset. GNU names end with `/`; longer names live in the `//`
 * member and are referenced as `/<offset>`; `/` and `/SYM64/` are symbol indexes. BSD archives
 * (`#1/<n>`, name in the data; `__.SYMDEF` indexes) are read too. Thin archives are refused: their
 * members are other files.
 */
import { latin1, latin1Bytes } from './elf.js';
import { ObjectFormatError } from './errors.js';

export const ARCHIVE_MAGIC = '!<arch>\n';
const THIN_MAGIC = '!<thin>\n';
const HEADER_SIZE = 60;

export interface ArchiveMember {
  /** The member's file name. */
  readonly name: string;
  /** Offset of the member's header in the archive (used in error messages). */
  readonly offset: number;
  readonly data: Uint8Array;
}

/** Whether the bytes start like an archive (regular or thin). */
export function isArchive(bytes: Uint8Array): boolean {
  const head = latin1(bytes.subarray(0, 8));
  return head === ARCHIVE_MAGIC || head === THIN_MAGIC;
}

/** The members of an archive, in order, without its symbol indexes and name table. */
export function readArchive(bytes: Uint8Array, fileName = '<memory>'): ArchiveMember[] {
  const fail = (reason: string, offset?: number): never => {
    throw new ObjectFormatError(fileName, reason, offset);
  };
  const head = latin1(bytes.subarray(0, 8));
  if (head === THIN_MAGIC) fail('a thin archive: its members are separate files, which the device link does not read; make a regular archive (ar rcs)');
  if (head !== ARCHIVE_MAGIC) fail(`not an archive: expected '!<arch>\\n' at offset 0`, 0);
  const members: ArchiveMember[] = [];
  let longNames: Uint8Array | undefined;
  let at = 8;
  while (at < bytes.length) {
    if (at + HEADER_SIZE > bytes.length) fail(`truncated: the member header at offset ${at} needs ${HEADER_SIZE} bytes, but the archive ends at offset ${bytes.length}`, at);
    const header = latin1(bytes.subarray(at, at + HEADER_SIZE));
    if (header.slice(58, 60) !== '`\n') fail(`corrupt member header: expected the terminator '\`\\n' at offset ${at + 58}`, at + 58);
    const sizeText = header.slice(48, 58).trimEnd();
    if (!/^\d+$/.test(sizeText)) fail(`corrupt member header: size field '${header.slice(48, 58)}' is not a decimal number`, at + 48);
    const size = Number(sizeText);
    const dataStart = at + HEADER_SIZE;
    const rawName = header.slice(0, 16).trimEnd();
    if (dataStart + size > bytes.length) {
      fail(`truncated: member '${displayName(rawName)}' (header at offset ${at}) has ${size} bytes of data, but the archive ends at offset ${bytes.length}`, at);
    }
    let data = bytes.subarray(dataStart, dataStart + size);
    let name: string | undefined;
    if (rawName === '/' || rawName === '/SYM64/' || rawName === '__.SYMDEF' || rawName === '__.SYMDEF SORTED' || rawName === '/SYM64') {
      name = undefined; // symbol index
    } else if (rawName === '//') {
      longNames = data;
    } else if (/^\/\d+$/.test(rawName)) {
      if (longNames === undefined) fail(`member header at offset ${at} refers to the long-name table ('${rawName}'), but there is none before it`, at);
      const start = Number(rawName.slice(1));
      if (start >= longNames!.length) fail(`member header at offset ${at}: long-name offset ${start} is outside the name table (${longNames!.length} bytes)`, at);
      let end = start;
      while (end < longNames!.length && longNames![end] !== 0x0a) end++;
      name = latin1(longNames!.subarray(start, end)).replace(/\/$/, '');
    } else if (rawName.startsWith('#1/')) {
      const length = Number(rawName.slice(3));
      if (!Number.isInteger(length) || length > size) fail(`member header at offset ${at}: BSD name length '${rawName.slice(3)}' does not fit the member's ${size} bytes`, at);
      name = latin1(data.subarray(0, length)).replace(/\0+$/, '');
      data = data.subarray(length);
    } else {
      name = rawName.endsWith('/') ? rawName.slice(0, -1) : rawName;
    }
    if (name !== undefined && rawName !== '//') members.push({ name, offset: at, data });
    at = dataStart + size + (size % 2);
  }
  return members;
}

function displayName(rawName: string): string {
  return rawName.endsWith('/') && rawName.length > 1 ? rawName.slice(0, -1) : rawName;
}

/**
 * A GNU-format archive of these members (names longer than 15 bytes go in the `//` table). No
 * symbol index: the host linker needs one (`ranlib` adds it); the device link does not.
 */
export function writeArchive(members: readonly { readonly name: string; readonly data: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [latin1Bytes(ARCHIVE_MAGIC)];
  const header = (name: string, size: number): Uint8Array =>
    latin1Bytes(`${name.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'644'.padEnd(8)}${String(size).padEnd(10)}\`\n`);
  let table = '';
  const names = members.map((m) => {
    if (m.name === '' || m.name.includes('/') || m.name.includes('\n') || m.name.includes('\0')) throw new RangeError(`invalid archive member name ${JSON.stringify(m.name)}`);
    if (m.name.length <= 15) return `${m.name}/`;
    const at = table.length;
    table += `${m.name}/\n`;
    return `/${at}`;
  });
  const push = (name: string, data: Uint8Array): void => {
    parts.push(header(name, data.length), data);
    if (data.length % 2 === 1) parts.push(Uint8Array.of(0x0a));
  };
  if (table !== '') push('//', latin1Bytes(table));
  members.forEach((m, i) => push(names[i]!, m.data));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

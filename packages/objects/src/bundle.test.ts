import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildElfObject, tool } from '../test/elf-builder.js';
import {
  OFFLOAD_BUNDLER_MAGIC,
  isBinaryBundle,
  parseBundleId,
  readBinaryBundle,
  readFatObject,
  unbundle,
  writeBinaryBundle,
  writeFatObject,
} from './bundle.js';
import { ElfFile, SectionFlag, latin1Bytes } from './elf.js';
import { addElfSections } from './elf-write.js';
import { ObjectFormatError } from './errors.js';

const HOST = 'host-x86_64-unknown-linux-gnu';
const SYCL = 'sycl-spir64-unknown-unknown';
const host = buildElfObject();
const ir = new TextEncoder().encode('target triple = "spir64-unknown-unknown"\ndefine spir_kernel void @k() {\n  ret void\n}\n');

describe('bundle IDs', () => {
  it('split at the first dash into kind and triple', () => {
    expect(parseBundleId(SYCL)).toEqual({ kind: 'sycl', triple: 'spir64-unknown-unknown' });
    expect(parseBundleId('sycl-spir64_gen_image-unknown-unknown')).toEqual({ kind: 'sycl', triple: 'spir64_gen_image-unknown-unknown' });
    expect(parseBundleId('sycl')).toBeUndefined();
    expect(parseBundleId('-x')).toBeUndefined();
  });
});

describe('fat objects', () => {
  it('hold the device IR in a __CLANG_OFFLOAD_BUNDLE__ section, the host marker and .tgtsym', () => {
    const fat = writeFatObject({ hostObject: host, hostId: HOST, bundles: [{ id: SYCL, data: ir }], targetSymbols: new Map([[SYCL, ['k', '_Z3foov']]]) });
    const elf = ElfFile.read(fat);
    const added = elf.sections.slice(-3);
    expect(added.map((s) => [s.name, s.flags, s.addralign, s.size])).toEqual([
      [`${OFFLOAD_BUNDLER_MAGIC}${SYCL}`, SectionFlag.EXCLUDE, 1, ir.length],
      [`${OFFLOAD_BUNDLER_MAGIC}${HOST}`, SectionFlag.EXCLUDE, 1, 1],
      ['.tgtsym', 0, 1, `${SYCL}.k\0${SYCL}._Z3foov\0`.length],
    ]);
    const read = readFatObject(fat, 'a.o');
    expect(read.hostId).toBe(HOST);
    expect(read.bundles).toEqual([{ id: SYCL, data: ir }]);
    expect([...read.targetSymbols]).toEqual([[SYCL, ['k', '_Z3foov']]]);
    expect(unbundle(read, HOST)).toBe(read.elf.bytes);
    expect(unbundle(read, SYCL)).toEqual(ir);
    expect(unbundle(read, 'sycl-nvptx64-nvidia-cuda')).toBeUndefined();
  });

  it('does not take a wrapper object\'s allocated image sections for bundles', () => {
    const wrapper = buildElfObject({ sections: [{ name: `${OFFLOAD_BUNDLER_MAGIC}sycl-spir64`, data: Uint8Array.of(1, 2), flags: SectionFlag.ALLOC }] });
    expect(readFatObject(wrapper).bundles).toEqual([]);
  });

  it('reports a bundle section that names no target, and a bundle given twice', () => {
    const noKind = addElfSections(host, [{ name: `${OFFLOAD_BUNDLER_MAGIC}sycl`, data: Uint8Array.of(1) }]);
    expect(() => readFatObject(noKind, 'x.o')).toThrow(/corrupt fat object: section '__CLANG_OFFLOAD_BUNDLE__sycl' names no bundle/);
    const twice = addElfSections(host, [
      { name: `${OFFLOAD_BUNDLER_MAGIC}${SYCL}`, data: Uint8Array.of(1) },
      { name: `${OFFLOAD_BUNDLER_MAGIC}${SYCL}`, data: Uint8Array.of(2) },
    ]);
    expect(() => readFatObject(twice, 'x.o')).toThrow(/two sections hold bundle 'sycl-spir64-unknown-unknown'/);
    const badSymbols = addElfSections(host, [{ name: '.tgtsym', data: latin1Bytes('sycl-x.k') }]);
    expect(() => readFatObject(badSymbols, 'x.o')).toThrow(/'\.tgtsym' does not end with a NUL/);
  });

  it('refuses bad bundle IDs when writing', () => {
    expect(() => writeFatObject({ hostObject: host, hostId: 'sycl-x86_64-unknown-linux-gnu', bundles: [] })).toThrow(/kind 'host'/);
    expect(() => writeFatObject({ hostObject: host, hostId: HOST, bundles: [{ id: 'nodash', data: ir }] })).toThrow(/invalid bundle ID 'nodash'/);
    expect(() => writeFatObject({ hostObject: host, hostId: HOST, bundles: [{ id: HOST, data: ir }] })).toThrow(/duplicate/);
  });
});

describe('binary bundles', () => {
  it('lay out the magic, the entry table and the bundles (offsets, sizes, IDs little-endian)', () => {
    const bytes = writeBinaryBundle([
      { id: 'a-b', data: Uint8Array.of(7) },
      { id: 'host-c', data: Uint8Array.of(8, 9) },
    ]);
    const header = 24 + 8 + (24 + 3) + (24 + 6);
    const view = new DataView(bytes.buffer);
    expect(new TextDecoder().decode(bytes.subarray(0, 24))).toBe(OFFLOAD_BUNDLER_MAGIC);
    expect(view.getBigUint64(24, true)).toBe(2n);
    expect([view.getBigUint64(32, true), view.getBigUint64(40, true), view.getBigUint64(48, true)]).toEqual([BigInt(header), 1n, 3n]);
    expect([...bytes.subarray(header)]).toEqual([7, 8, 9]);
    expect(readBinaryBundle(bytes)).toEqual([
      { id: 'a-b', data: Uint8Array.of(7) },
      { id: 'host-c', data: Uint8Array.of(8, 9) },
    ]);
    expect(isBinaryBundle(bytes)).toBe(true);
  });

  it('align bundles with -bundle-align', () => {
    const bytes = writeBinaryBundle([{ id: 'a-b', data: Uint8Array.of(7) }, { id: 'c-d', data: Uint8Array.of(8) }], { align: 64 });
    const view = new DataView(bytes.buffer);
    expect(Number(view.getBigUint64(32, true)) % 64).toBe(0);
    expect(Number(view.getBigUint64(32 + 27, true)) % 64).toBe(0);
    expect(readBinaryBundle(bytes).map((b) => [...b.data])).toEqual([[7], [8]]);
  });

  it('name the offset of what is wrong', () => {
    const bytes = writeBinaryBundle([{ id: 'a-b', data: Uint8Array.of(7, 7, 7) }]);
    expect(() => readBinaryBundle(bytes.subarray(0, bytes.length - 1), 'f.bc')).toThrow(/^f\.bc: offset \d+ \(0x[0-9a-f]+\): truncated: bundle 'a-b' spans offsets \d+–\d+, but the file is \d+ bytes long$/);
    expect(() => readBinaryBundle(bytes.subarray(0, 30), 'f.bc')).toThrow(/truncated: the bundle count at offset 24 needs 8 bytes/);
    const noDash = bytes.slice();
    noDash[24 + 8 + 24 + 1] = 0x5f;
    expect(() => readBinaryBundle(noDash, 'f.bc')).toThrow(ObjectFormatError);
    expect(() => readBinaryBundle(Uint8Array.of(1, 2, 3), 'f.bc')).toThrow(/not an offload bundle/);
  });
});

// Interop with the real tool: Debian's clang-offload-bundler-16 (upstream LLVM 16, which knows the
// offload kinds host, openmp, hip and hipv4 but not intel/llvm's sycl; the layout does not depend
// on the kind, so the round trips use openmp bundles, and -list shows it reads sycl ones).
const bundler = tool('clang-offload-bundler-16', 'clang-offload-bundler');
const llc = tool('llc-16', 'llc');
const work = mkdtempSync(join(tmpdir(), 'syclkit-bundler-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const OMP = 'openmp-spir64-unknown-unknown';

describe.skipIf(bundler === undefined || llc === undefined)('interop with clang-offload-bundler-16 (skipped without clang-tools-16 and llc)', { timeout: 60_000 }, () => {
  const path = (name: string): string => join(work, name);
  const realHost = (): Uint8Array => new Uint8Array(execFileSync(llc!, ['-filetype=obj', '-o', '-'], { input: 'target triple = "x86_64-unknown-linux-gnu"\n' }));
  const device = new Uint8Array(Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff));

  it('unbundles syclkit fat objects byte-exact (device bundle; the host bundle is the whole object)', () => {
    const fat = writeFatObject({ hostObject: realHost(), hostId: HOST, bundles: [{ id: OMP, data: device }], targetSymbols: new Map([[OMP, ['k']]]) });
    writeFileSync(path('sk.o'), fat);
    execFileSync(bundler!, ['-type=o', `-targets=${OMP},${HOST}`, `-input=${path('sk.o')}`, `-output=${path('dev.out')}`, `-output=${path('host.out')}`, '-unbundle']);
    expect(new Uint8Array(readFileSync(path('dev.out')))).toEqual(device);
    expect(new Uint8Array(readFileSync(path('host.out')))).toEqual(fat);
  });

  it('lists the sycl bundles of a syclkit fat object', () => {
    writeFileSync(path('sycl.o'), writeFatObject({ hostObject: realHost(), hostId: HOST, bundles: [{ id: SYCL, data: ir }] }));
    expect(execFileSync(bundler!, ['-list', '-type=o', `-input=${path('sycl.o')}`]).toString()).toBe(`${SYCL}\n${HOST}\n`);
  });

  it("reads the tool's fat objects byte-exact", () => {
    writeFileSync(path('host.o'), realHost());
    writeFileSync(path('dev.bin'), device);
    execFileSync(bundler!, ['-type=o', `-targets=${OMP},${HOST}`, `-input=${path('dev.bin')}`, `-input=${path('host.o')}`, `-output=${path('theirs.o')}`]);
    const fat = readFatObject(new Uint8Array(readFileSync(path('theirs.o'))), 'theirs.o');
    expect(fat.hostId).toBe(HOST);
    expect(fat.bundles).toEqual([{ id: OMP, data: device }]);
  });

  it('writes binary bundles byte-identical to the tool, and each reads the other', () => {
    writeFileSync(path('dev.bin'), device);
    writeFileSync(path('host.bin'), ir);
    execFileSync(bundler!, ['-type=bc', `-targets=${OMP},${HOST}`, `-input=${path('dev.bin')}`, `-input=${path('host.bin')}`, `-output=${path('theirs.bc')}`]);
    const ours = writeBinaryBundle([{ id: OMP, data: device }, { id: HOST, data: ir }]);
    expect(new Uint8Array(readFileSync(path('theirs.bc')))).toEqual(ours);
    writeFileSync(path('ours.bc'), ours);
    execFileSync(bundler!, ['-type=bc', `-targets=${OMP}`, `-input=${path('ours.bc')}`, `-output=${path('out.bin')}`, '-unbundle']);
    expect(new Uint8Array(readFileSync(path('out.bin')))).toEqual(device);
  });
});

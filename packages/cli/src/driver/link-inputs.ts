/**
 * The inputs of a device link, read and classified: device IR files, host objects (fat or plain)
 * and static libraries. Fat objects follow clang-offload-bundler's object layout
 * (`@syclkit/objects`); their `sycl-<triple>` bundles are device IR to link, their
 * `sycl-<arch>_image-<...>` bundles are device images linked already (a wrapper object, made by
 * `-fsycl-link` or `-fno-sycl-rdc -c`), and the host part is an ordinary object.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseModule, type Module } from '@syclkit/ir';
import {
  DeviceLinkError,
  ElfFile,
  ElfType,
  SHN_UNDEF,
  SymbolBinding,
  SymbolType,
  elfIdentity,
  isArchive,
  isElf,
  kernelsReferencedBy,
  machineArch,
  machineOfTriple,
  parseBundleId,
  readArchive,
  readFatObject,
  type FatObject,
} from '@syclkit/objects';
import { isBitcode } from '../llvm-tools.js';
import { irTextOf } from '../read-module.js';
import { undefinedFunctions } from './compile.js';

export const DEFAULT_HOST_TRIPLE = 'x86_64-unknown-linux-gnu';
/** The offload kind of SYCL bundles. */
export const SYCL_KIND = 'sycl';
/** The suffix intel/llvm gives the architecture of a bundle holding a linked device image (`spir64_gen_image`). */
export const IMAGE_ARCH_SUFFIX = '_image';
/** The bundle ID syclkit gives the wrapper object of fully linked device code (all targets in one). */
export const LINKED_IMAGE_BUNDLE = `${SYCL_KIND}-spir64${IMAGE_ARCH_SUFFIX}-unknown-unknown`;

/** Device IR of one translation unit, with the symbols it defines and needs. */
export interface DeviceUnit {
  /** Where it came from: `a.o`, `libfoo.a(b.o)`, `tu.ll`. */
  readonly file: string;
  /** Its IR text. */
  readonly text: string;
  /** Global symbols it defines (kernels and SYCL_EXTERNAL functions among them). */
  readonly defines: readonly string[];
  /**
   * What intel/llvm's bundler lists in `.tgtsym` for it: the defined global symbols except
   * variables in the constant address space (2), which it leaves out for SPIR targets.
   */
  readonly listed: readonly string[];
  /** Kernels (spir_kernel definitions). */
  readonly kernels: readonly string[];
  /** Functions and variables it uses that it does not define, with the function using each. */
  readonly needs: ReadonlyMap<string, string>;
}

/** The host side of an object: what the host linker sees. */
export interface HostSide {
  readonly defines: readonly string[];
  readonly needs: readonly string[];
  /** Kernels its symbols refer to (`KernelInfo<K>` members). */
  readonly kernels: readonly string[];
  readonly definesMain: boolean;
}

/** One object file (direct input or archive member). */
export interface ObjectInput {
  readonly file: string;
  readonly bytes: Uint8Array;
  readonly fat: FatObject;
  readonly host: HostSide;
  /** Device IR bundles (read lazily: an archive member is parsed only when it is linked). */
  readonly deviceBundles: readonly { readonly id: string; readonly data: Uint8Array }[];
  /** Wrapper objects of device code linked already. */
  readonly imageObjects: readonly Uint8Array[];
  /** The device symbols its `.tgtsym` section lists, when it has one. */
  readonly listedDeviceSymbols: readonly string[] | undefined;
}

export type LinkInputFile =
  | { readonly kind: 'ir'; readonly file: string; readonly bytes: Uint8Array }
  | { readonly kind: 'object'; readonly object: ObjectInput }
  | { readonly kind: 'archive'; readonly file: string; readonly members: readonly ObjectInput[] };

/** Reads and classifies one input file for a link for `hostTriple`. */
export function readLinkInput(file: string, hostTriple: string, bytes: Uint8Array = readFileSync(file)): LinkInputFile {
  if (isArchive(bytes)) {
    const members = readArchive(bytes, file).map((m) => readObject(`${file}(${m.name})`, m.data, hostTriple));
    return { kind: 'archive', file, members };
  }
  if (isElf(bytes)) return { kind: 'object', object: readObject(file, bytes, hostTriple) };
  if (/\.(o|obj|a|lib)$/i.test(file)) {
    throw new DeviceLinkError(file, `not an ELF object or an ar archive: the file starts with ${hexHead(bytes)} (expected 7f 45 4c 46 or '!<arch>')`);
  }
  if (isBitcode(bytes) || looksLikeIRText(bytes)) return { kind: 'ir', file, bytes };
  throw new DeviceLinkError(file, 'not an object file, a static library (ar archive) or device IR (.ll/.bc)');
}

function hexHead(bytes: Uint8Array): string {
  return bytes.length === 0 ? 'nothing (it is empty)' : [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

function looksLikeIRText(bytes: Uint8Array): boolean {
  for (let i = 0; i < Math.min(bytes.length, 512); i++) if (bytes[i] === 0) return false;
  return true;
}

/** Reads one object: the host triple is checked first, so a foreign object is not called corrupt. */
export function readObject(file: string, bytes: Uint8Array, hostTriple: string): ObjectInput {
  const identity = elfIdentity(bytes);
  const machine = machineOfTriple(hostTriple);
  if (identity !== undefined && machine !== undefined && (identity.machine !== machine || identity.elfClass !== 64 || !identity.littleEndian)) {
    throw new DeviceLinkError(file, `an object for ${machineArch(identity.machine, identity.elfClass)} (${identity.elfClass}-bit ELF); this link is for host '${hostTriple}'`);
  }
  const fat = readFatObject(bytes, file);
  if (fat.elf.type !== ElfType.REL) throw new DeviceLinkError(file, `not a relocatable object (ELF type ${fat.elf.type}); link takes objects (.o) and static libraries (.a)`);
  if (fat.hostId !== undefined) {
    const triple = parseBundleId(fat.hostId)!.triple;
    if (!sameTriple(triple, hostTriple)) throw new DeviceLinkError(file, `a fat object for host '${triple}' (bundle '${fat.hostId}'); this link is for host '${hostTriple}'`);
  }
  const deviceBundles: { id: string; data: Uint8Array }[] = [];
  const imageObjects: Uint8Array[] = [];
  for (const bundle of fat.bundles) {
    const id = parseBundleId(bundle.id)!;
    if (id.kind === 'host') continue;
    if (id.kind !== SYCL_KIND) continue; // OpenMP/HIP code: not this toolchain's
    const arch = id.triple.split('-')[0] ?? '';
    if (arch.endsWith(IMAGE_ARCH_SUFFIX)) {
      if (!isElf(bundle.data)) throw new DeviceLinkError(file, `corrupt fat object: bundle '${bundle.id}' should hold a wrapper object (ELF), but does not`);
      imageObjects.push(bundle.data);
    } else {
      deviceBundles.push(bundle);
    }
  }
  const listed = fat.hasTargetSymbols ? deviceBundles.flatMap((b) => fat.targetSymbols.get(b.id) ?? []) : undefined;
  return { file, bytes, fat, host: hostSide(fat.elf), deviceBundles, imageObjects, listedDeviceSymbols: listed };
}

/** Triples name the same host when arch, vendor and OS agree (`x86_64-linux-gnu` = `x86_64-unknown-linux-gnu`). */
export function sameTriple(a: string, b: string): boolean {
  const norm = (t: string): string => {
    const parts = t.split('-');
    if (parts.length === 3 && parts[1] === 'linux') parts.splice(1, 0, 'unknown');
    return parts.join('-');
  };
  return norm(a) === norm(b);
}

function hostSide(elf: ElfFile): HostSide {
  const symbols = elf.symbols();
  const defines: string[] = [];
  const needs: string[] = [];
  for (const s of symbols) {
    if (s.name === '' || s.binding === SymbolBinding.LOCAL || s.type === SymbolType.FILE || s.type === SymbolType.SECTION) continue;
    if (s.sectionIndex === SHN_UNDEF) {
      if (s.binding === SymbolBinding.GLOBAL) needs.push(s.name);
    } else defines.push(s.name);
  }
  return { defines, needs, kernels: kernelsReferencedBy(symbols), definesMain: defines.includes('main') };
}

/** Reads a device IR file or bundle into a unit (bitcode through llvm-dis). */
export function deviceUnit(file: string, bytes: Uint8Array): DeviceUnit {
  const text = irTextOf(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), `reading the device bitcode of ${file}`);
  const module = parseModule(text, { filename: file });
  return { file, text, ...deviceSymbols(module) };
}

/** The global symbols a device module defines, its kernels, and what it uses without defining. */
export function deviceSymbols(module: Module): Pick<DeviceUnit, 'defines' | 'listed' | 'kernels' | 'needs'> {
  const defines: string[] = [];
  const kernels: string[] = [];
  for (const fn of module.functions) {
    if (fn.isDeclaration || fn.hasLocalLinkage()) continue;
    defines.push(fn.name);
    if (fn.callingConv === 'spir_kernel') kernels.push(fn.name);
  }
  const constants = new Set<string>();
  for (const g of module.globals) {
    if (g.isDeclaration || g.hasLocalLinkage() || g.name.startsWith('llvm.')) continue;
    defines.push(g.name);
    if ((g.type as { addressSpace?: number }).addressSpace === 2) constants.add(g.name);
  }
  const needs = new Map<string, string>();
  const wanted = new Set(undefinedFunctions(module));
  const externalVariables = new Set(module.globals.filter((g) => g.isDeclaration && !g.name.startsWith('llvm.') && !g.name.startsWith('__')).map((g) => g.name));
  const visit = (op: { readonly vk: string; readonly name?: string; readonly operands?: readonly unknown[] }, user: string): void => {
    if (op.vk === 'expr') {
      for (const inner of op.operands ?? []) visit(inner as typeof op, user);
      return;
    }
    const name = op.name;
    if (name === undefined || needs.has(name)) return;
    if ((op.vk === 'function' && wanted.has(name)) || (op.vk === 'global' && externalVariables.has(name))) needs.set(name, user);
  };
  for (const fn of module.functions) {
    if (fn.isDeclaration) continue;
    for (const inst of fn.instructions()) for (const op of inst.operands) visit(op as Parameters<typeof visit>[0], fn.name);
  }
  return { defines, listed: defines.filter((d) => !constants.has(d)), kernels, needs };
}

/** `libfoo.a(b.o)` → `b.o`; `dir/a.o` → `a.o`. */
export function displayName(file: string): string {
  return basename(file);
}

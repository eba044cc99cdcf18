/**
 * Image bytes out of a container, as clang-offload-extract takes them out of a host binary, so
 * vendor tools can be run on them (`spirv-dis`, `ptxas`, `llvm-dis`, …): one file per non-empty
 * image, named after the image with the extension of its format. Also what `inspect` reports
 * about a SPIR-V image.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isSpirv, readSpirvModule, writeFileAtomic } from '@syclkit/formats';
import type { ContainerImage, ContainerReader } from './container.js';
import type { InspectReport } from './inspect.js';
import { ImageFormat, detectImageFormat } from './descriptor.js';
import { WrapperError } from './errors.js';

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];
const EM_AMDGPU = 224;

function isElf(bytes: Uint8Array): boolean {
  return bytes.length >= 20 && ELF_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** `e_machine` of an ELF file (little- or big-endian, per EI_DATA). */
function elfMachine(bytes: Uint8Array): number {
  return bytes[5] === 2 ? (bytes[18]! << 8) | bytes[19]! : bytes[18]! | (bytes[19]! << 8);
}

function looksLikePtx(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  return /^\s*\.version\s+\d/m.test(head) && /^\s*\.target\s/m.test(head);
}

/**
 * The file extension of an image: `.spv` (SPIR-V), `.bc` (LLVM bitcode), `.ll` (LLVM IR text),
 * `.ptx` (PTX text), `.hsaco` (an AMDGPU ELF code object), `.o` (another ELF object), `.zst` (a
 * compressed image, not decompressed), else `.bin`. By the bytes first, then the recorded format.
 */
export function imageFileExtension(format: number, bytes: Uint8Array): string {
  if (format === ImageFormat.COMPRESSED_NONE) return '.zst';
  if (isSpirv(bytes)) return '.spv';
  if (detectImageFormat(bytes) === ImageFormat.LLVMIR_BITCODE) return '.bc';
  if (isElf(bytes)) return elfMachine(bytes) === EM_AMDGPU ? '.hsaco' : '.o';
  if (looksLikePtx(bytes)) return '.ptx';
  if (format === ImageFormat.NONE && /^(\s|;[^\n]*\n)*(source_filename|target (datalayout|triple)|define |declare |@|%|!|attributes )/.test(new TextDecoder('latin1').decode(bytes.subarray(0, 4096)))) return '.ll';
  return '.bin';
}

/** One file `extractImages` wrote. */
export interface ExtractedImage {
  readonly bundle: string;
  readonly image: string;
  /** `<dir>/<file>`, `dir` as given. */
  readonly path: string;
  readonly format: string;
  readonly size: number;
}

export interface ExtractResult {
  readonly written: readonly ExtractedImage[];
  /** Empty (filtered) images, which have no bytes: `<bundle>/<image>`. */
  readonly skipped: readonly string[];
}

/** A file name part made of the image name (no path separators, no leading dots). */
function safeName(name: string): string {
  const cleaned = name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_');
  return cleaned === '' ? 'image' : cleaned;
}

/**
 * Writes every non-empty image of the container to `<dir>/<image name><ext>` (see
 * `imageFileExtension`); an image whose name another bundle's image already took gets
 * `<image name>.<bundle><ext>`. Creates `dir` when missing; each file is written atomically.
 */
export function extractImages(reader: ContainerReader, dir: string): ExtractResult {
  const root = resolve(dir);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new WrapperError(`cannot extract into '${dir}': it is not a directory`);
  mkdirSync(root, { recursive: true });
  const used = new Set<string>();
  const written: ExtractedImage[] = [];
  const skipped: string[] = [];
  for (const bundle of reader.bundles) {
    for (const image of bundle.images) {
      if (image.empty || image.dataLength === 0) {
        skipped.push(`${bundle.target}/${image.name}`);
        continue;
      }
      const bytes = reader.readImageData(image);
      const ext = imageFileExtension(image.format, bytes);
      let stem = safeName(image.name);
      if (used.has(stem + ext)) stem = `${stem}.${safeName(bundle.target)}`;
      for (let n = 2; used.has(stem + ext); n++) stem = `${safeName(image.name)}.${safeName(bundle.target)}~${n}`;
      used.add(stem + ext);
      writeFileAtomic(join(root, stem + ext), bytes);
      written.push({ bundle: bundle.target, image: image.name, path: join(dir, stem + ext), format: ext.slice(1), size: bytes.length });
    }
  }
  return { written, skipped };
}

/** What `inspect` shows about a SPIR-V image. */
export interface SpirvImageReport {
  readonly version: string;
  readonly generator: string;
  readonly memoryModel: string;
  readonly capabilities: readonly string[];
  readonly extensions: readonly string[];
  readonly entryPoints: readonly { readonly executionModel: string; readonly name: string; readonly executionModes: readonly string[] }[];
}

/** The SPIR-V summary of an image's bytes, or `{ error }` when they are not a readable module. */
export function spirvImageReport(bytes: Uint8Array, fileName?: string): SpirvImageReport | { readonly error: string } {
  try {
    const module = readSpirvModule(bytes, fileName === undefined ? {} : { fileName });
    return {
      version: `${module.version.major}.${module.version.minor}`,
      generator: `${module.generator.name ?? `tool ${module.generator.tool}`} ${module.generator.version}`,
      memoryModel: `${module.addressingModel.name} ${module.memoryModel.name}`,
      capabilities: module.capabilities.map((c) => c.name),
      extensions: [...module.extensions],
      entryPoints: module.entryPoints.map((entry) => ({
        executionModel: entry.executionModel.name,
        name: entry.name,
        executionModes: entry.executionModes.map((m) => (m.operands.length === 0 ? m.mode.name : `${m.mode.name} ${m.operands.join(' ')}`)),
      })),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The SPIR-V summary of a container image whose format is SPIR-V; a damaged image or one that does
 * not read as SPIR-V gives `{ error }`.
 */
export function containerSpirvReport(reader: ContainerReader, image: ContainerImage): SpirvImageReport | { readonly error: string } | undefined {
  if (image.empty || image.dataLength === 0 || image.format !== ImageFormat.SPIRV) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = reader.readImageData(image);
  } catch (error) {
    return { error: `cannot read the image: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isSpirv(bytes)) return { error: 'the image is marked SPIR-V but does not start with the SPIR-V magic number' };
  return spirvImageReport(bytes, image.name);
}

/**
 * The report with each SPIR-V image's module summary (`ImageReport.spirv`). Unlike
 * `inspectContainer`, this reads image bytes, of the SPIR-V images only. `images` are the
 * container images the report lists (default: all of them, for a report of the whole container;
 * for `inspectKernel`'s report, the images of the kernel), matched by bundle and name.
 */
export function withSpirvDetails(report: InspectReport, reader: ContainerReader, images: readonly ContainerImage[] = reader.images): InspectReport {
  const byKey = new Map(images.map((image) => [`${image.target}\0${image.name}`, image]));
  return {
    ...report,
    bundles: report.bundles.map((bundle) => ({
      ...bundle,
      images: bundle.images.map((image) => {
        const source = byKey.get(`${bundle.target}\0${image.name}`);
        const spirv = source === undefined ? undefined : containerSpirvReport(reader, source);
        return spirv === undefined ? image : { ...image, spirv };
      }),
    })),
  };
}

import { PropertySetRegistry, PropertyType, type PropertyValue } from '@syclkit/formats';
import { WrapperError } from './errors.js';

/** Offload kinds of clang-offload-wrapper (`-kind=`); the runtime only registers SYCL (4). */
export const OffloadKind = { UNKNOWN: 0, HOST: 1, OPENMP: 2, HIP: 3, SYCL: 4 } as const;
export type OffloadKind = (typeof OffloadKind)[keyof typeof OffloadKind];

/**
 * `Format` of a device image (`-format=`): NONE lets the runtime look at the first bytes;
 * COMPRESSED_NONE is the zstd-compressed form `--offload-compress` produces.
 */
export const ImageFormat = { NONE: 0, NATIVE: 1, SPIRV: 2, LLVMIR_BITCODE: 3, COMPRESSED_NONE: 4 } as const;
export type ImageFormat = (typeof ImageFormat)[keyof typeof ImageFormat];

const FORMAT_NAMES: Readonly<Record<number, string>> = { 0: 'none', 1: 'native', 2: 'spirv', 3: 'llvmbc', 4: 'compressed' };
const KIND_NAMES: Readonly<Record<number, string>> = { 0: 'unknown', 1: 'host', 2: 'openmp', 3: 'hip', 4: 'sycl' };

/** `none`, `native`, `spirv`, `llvmbc` (the `-format=` spellings), `compressed`, or `format <n>`. */
export function imageFormatName(format: number): string {
  return FORMAT_NAMES[format] ?? `format ${format}`;
}

/** `sycl`, `openmp`, … (the `-kind=` spellings), or `kind <n>`. */
export function offloadKindName(kind: number): string {
  return KIND_NAMES[kind] ?? `kind ${kind}`;
}

/** Version of `__tgt_device_image` clang-offload-wrapper writes (the runtime header says 1). */
export const DEVICE_IMAGE_VERSION = 2;
/** Version of `__tgt_bin_desc` (`sycl_device_binaries_struct`). */
export const BINARY_DESCRIPTOR_VERSION = 1;

const SPIRV_MAGIC = 0x07230203;
const BITCODE_MAGIC = 0xdec04342; // 'BC' 0xC0DE read as a little-endian u32
const BITCODE_WRAPPER_MAGIC = 0x0b17c0de;

/**
 * The format the runtime would detect for an image of format NONE: SPIR-V and LLVM bitcode by their
 * first four bytes (little-endian u32), anything else NONE.
 */
export function detectImageFormat(bytes: Uint8Array): ImageFormat {
  if (bytes.length < 4) return ImageFormat.NONE;
  const word = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
  if (word === SPIRV_MAGIC) return ImageFormat.SPIRV;
  if (word === BITCODE_MAGIC || word === BITCODE_WRAPPER_MAGIC) return ImageFormat.LLVMIR_BITCODE;
  return ImageFormat.NONE;
}

/**
 * One device image, with everything `__tgt_device_image` (`sycl_device_binary_struct`) holds plus
 * a name and whether the image is an empty (filtered) one.
 */
export interface DeviceImage {
  /** A label for people and for `inspect --diff` (e.g. `a_0`); not part of the runtime struct. */
  readonly name: string;
  /** Struct version (clang-offload-wrapper writes 2). */
  readonly version: number;
  /** Offload kind (SYCL = 4). */
  readonly kind: number;
  /** Image format (`ImageFormat`). */
  readonly format: number;
  /** `DeviceTargetSpec`: `spir64`, or a device name such as `intel_gpu_pvc` for AOT bundles. */
  readonly target: string;
  readonly compileOptions: string;
  readonly linkOptions: string;
  /** Manifest bytes, or null (ManifestStart = ManifestEnd = null). */
  readonly manifest: Uint8Array | null;
  /** The image bytes (empty for a filtered image). */
  readonly image: Uint8Array;
  /** Offload entries: the names of the image's `.sym` file, in order. */
  readonly entries: readonly string[];
  /** Property sets, in `.prop` file order. */
  readonly properties: PropertySetRegistry;
  /**
   * A row sycl-post-link filtered out for this target (its Code was empty or an empty module): it
   * keeps its entries and properties, so the runtime can explain why its kernels cannot run, but
   * has no code. `image` is then empty.
   */
  readonly empty: boolean;
}

/** The images of one offload target. */
export interface Bundle {
  readonly target: string;
  readonly images: readonly DeviceImage[];
}

/** Everything one wrapper object registers: bundles in order, images in order within each. */
export interface BinaryDescriptor {
  readonly bundles: readonly Bundle[];
}

/** What `deviceImage` needs; everything else has the clang-offload-wrapper default. */
export interface DeviceImageInit extends Partial<DeviceImage> {
  readonly target: string;
  readonly image: Uint8Array;
}

/**
 * A `DeviceImage` with defaults: version 2, kind SYCL, format detected from the bytes, empty
 * options, no manifest, no entries, no properties, not empty, name ''. The result is checked with
 * `checkDeviceImage`.
 */
export function deviceImage(init: DeviceImageInit): DeviceImage {
  const image: DeviceImage = {
    name: init.name ?? '',
    version: init.version ?? DEVICE_IMAGE_VERSION,
    kind: init.kind ?? OffloadKind.SYCL,
    format: init.format ?? detectImageFormat(init.image),
    target: init.target,
    compileOptions: init.compileOptions ?? '',
    linkOptions: init.linkOptions ?? '',
    manifest: init.manifest ?? null,
    image: init.image,
    entries: init.entries ?? [],
    properties: init.properties ?? new PropertySetRegistry(),
    empty: init.empty ?? false,
  };
  checkDeviceImage(image);
  return image;
}

/**
 * Throws a WrapperError for what neither the runtime struct nor the container can hold: fields out
 * of range (version u16, kind and format u8), strings with NUL (the runtime reads C strings) or
 * unpaired surrogates (they have no UTF-8 form), bad property values, or an empty image with bytes.
 */
export function checkDeviceImage(image: DeviceImage): void {
  checkDeviceImageWith(image, undefined);
}

/** Strings a writer already found valid; a bounded memo (see {@link checkDeviceImageWith}). */
export type ValidTexts = Set<string>;

const MAX_VALID_TEXTS = 1 << 14;

/**
 * `checkDeviceImage`, skipping the text checks of strings `valid` holds (a writer's images repeat
 * their set and property names, and the rows of one image their entries); strings found valid are
 * added. Strings are immutable, so a memo can only skip work, never change the outcome.
 */
export function checkDeviceImageWith(image: DeviceImage, valid: ValidTexts | undefined): void {
  // Messages are made only on failure, and no closure per call: this runs for every image of a compile.
  checkInteger(image, image.version, 0xffff, 'version');
  checkInteger(image, image.kind, 0xff, 'kind');
  checkInteger(image, image.format, 0xff, 'format');
  if (valid !== undefined && valid.size > MAX_VALID_TEXTS) valid.clear();
  // Names differ from image to image: not worth remembering.
  const nameProblem = textProblem(image.name);
  if (nameProblem !== undefined) failImage(image, `name ${nameProblem}`);
  checkText(image, image.target, 'target', valid);
  checkText(image, image.compileOptions, 'compile options', valid);
  checkText(image, image.linkOptions, 'link options', valid);
  const entries = image.entries;
  for (let i = 0; i < entries.length; i++) {
    const problem = textProblemWith(entries[i]!, valid);
    if (problem !== undefined) failImage(image, `entry ${i} ${problem}`);
  }
  for (const [setName, set] of image.properties) {
    const setProblem = textProblemWith(setName, valid);
    if (setProblem !== undefined) failImage(image, `property set name '${setName}' ${setProblem}`);
    for (const [name, value] of set) {
      const problem = textProblemWith(name, valid);
      if (problem !== undefined) failImage(image, `property name '${name}' in [${setName}] ${problem}`);
      const valueProblem = propertyValueProblem(value);
      if (valueProblem !== undefined) failImage(image, `property '${name}' in [${setName}]: ${valueProblem}`);
    }
  }
  if (image.empty && image.image.length > 0) failImage(image, `an empty (filtered) image has no bytes, got ${image.image.length}`);
}

function failImage(image: DeviceImage, reason: string): never {
  throw new WrapperError(`${image.name === '' ? 'device image' : `device image '${image.name}'`}: ${reason}`);
}

function checkInteger(image: DeviceImage, value: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) failImage(image, `${what} must be an integer in 0..${max}, got ${value}`);
}

function checkText(image: DeviceImage, value: string, what: string, valid: ValidTexts | undefined): void {
  const problem = textProblemWith(value, valid);
  if (problem !== undefined) failImage(image, `${what} ${problem}`);
}

/** `textProblem`, skipped for strings `valid` holds; valid strings are added to it. */
function textProblemWith(value: string, valid: ValidTexts | undefined): string | undefined {
  if (valid === undefined) return textProblem(value);
  if (valid.has(value)) return undefined;
  const problem = textProblem(value);
  if (problem === undefined) valid.add(value);
  return problem;
}

/** Lone UTF-16 surrogates (they have no UTF-8 form). */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

function textProblem(text: string): string | undefined {
  if (text.includes('\0')) return 'contains NUL';
  if (UNPAIRED_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

function propertyValueProblem(value: PropertyValue): string | undefined {
  if (value.type === PropertyType.UINT32) {
    if (!Number.isInteger(value.value) || value.value < 0 || value.value > 0xffff_ffff) return `UINT32 value out of range: ${value.value}`;
  } else if (value.type === PropertyType.BYTE_ARRAY) {
    if (!Number.isSafeInteger(value.bitCount) || value.bitCount < 0 || Math.ceil(value.bitCount / 8) !== value.payload.length) {
      return `${value.payload.length} bytes cannot hold ${value.bitCount} bits`;
    }
  } else {
    return `unknown property type ${(value as { type: unknown }).type as string}`;
  }
  return undefined;
}

/** All images of a descriptor in registration order (bundle by bundle). */
export function descriptorImages(descriptor: BinaryDescriptor): DeviceImage[] {
  return descriptor.bundles.flatMap((bundle) => bundle.images);
}

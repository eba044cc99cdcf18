import { isUtf8 } from 'node:buffer';
import { builtinAspectTable, type AspectTable } from '@syclkit/device-config';
import {
  DeviceRequirementName,
  PropertySetName,
  PropertyType,
  decodeBitVector,
  decodeInt32Array,
  decodeString,
  decodeUint32Array,
  decodeUint64Array,
  type PropertySetRegistry,
  type PropertyValue,
} from '@syclkit/formats';
import type { ContainerImage, ContainerReader } from './container.js';
import type { SpirvImageReport } from './extract.js';
import { imageFormatName, offloadKindName } from './descriptor.js';

/** Property sets of the device_if design (DeviceIf.md) that `inspect` shows as add-on images. */
export const ADD_ON_IMAGES_SET = 'SYCL/add on images';
export const ADD_ON_IMAGE_SET = 'SYCL/add on image';

/**
 * A property value for people and JSON: UINT32 as a number; byte arrays decoded by what the
 * property is (uint32/int32/uint64 arrays as numbers, strings, bit vectors as `"0110"`); a byte
 * array of unknown layout as `{ bits, hex }`.
 */
export type DisplayValue = number | string | readonly (number | string)[] | { readonly bits: number; readonly hex: string };

type Decoder = (value: PropertyValue) => DisplayValue;

const uint32s: Decoder = (value) => decodeUint32Array(value);
const int32s: Decoder = (value) => decodeInt32Array(value);
const text: Decoder = (value) => decodeString(value);
const uint64s: Decoder = (value) => decodeUint64Array(value).map((n) => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString()));
const bits: Decoder = (value) => decodeBitVector(value).map((bit) => (bit ? '1' : '0')).join('');

/** Byte-array layouts by set, then property name (`*@suffix` matches program-metadata keys). */
const LAYOUTS: Readonly<Record<string, Readonly<Record<string, Decoder>>>> = {
  [PropertySetName.DEVICE_REQUIREMENTS]: {
    [DeviceRequirementName.ASPECTS]: uint32s,
    [DeviceRequirementName.FIXED_TARGET]: uint32s,
    [DeviceRequirementName.JOINT_MATRIX]: text,
    [DeviceRequirementName.JOINT_MATRIX_MAD]: text,
    [DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE]: uint32s,
    [DeviceRequirementName.REQD_WORK_GROUP_SIZE]: uint64s,
    [DeviceRequirementName.COMPILE_TARGET]: text,
  },
  [PropertySetName.PROGRAM_METADATA]: { '*@reqd_work_group_size': uint32s, '*@max_work_group_size': uint32s, '*@global_id_mapping': text },
  [PropertySetName.MISC_PROP]: { sanUsed: text },
  [PropertySetName.SPECIALIZATION_CONSTANTS]: { '*': uint32s },
  [PropertySetName.DEVICE_GLOBALS]: { '*': uint32s },
  [PropertySetName.HOST_PIPES]: { '*': uint32s },
  [PropertySetName.VIRTUAL_FUNCTIONS]: { '*': text },
  [PropertySetName.REGISTERED_KERNELS]: { '*': text },
  [PropertySetName.KERNEL_PARAM_OPT_INFO]: { '*': bits },
  [ADD_ON_IMAGES_SET]: { '*': int32s },
};

function decoderFor(setName: string, propertyName: string): Decoder | undefined {
  const layouts = LAYOUTS[setName];
  if (layouts === undefined) return undefined;
  const exact = layouts[propertyName];
  if (exact !== undefined) return exact;
  const at = propertyName.lastIndexOf('@');
  if (at >= 0) {
    const suffix = layouts[`*${propertyName.slice(at)}`];
    if (suffix !== undefined) return suffix;
  }
  return layouts['*'];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes one property for display (see `DisplayValue`). Never throws. */
export function displayPropertyValue(setName: string, propertyName: string, value: PropertyValue): DisplayValue {
  if (value.type === PropertyType.UINT32) return value.value;
  const decoder = decoderFor(setName, propertyName);
  if (decoder !== undefined) {
    try {
      return decoder(value);
    } catch {
      // a value that does not have the expected layout: shown raw below
    }
  }
  const bytes = Buffer.from(value.payload.buffer, value.payload.byteOffset, value.payload.byteLength);
  // isUtf8 first: a fatal decoder throws on binary data, and throwing costs more than the check
  if (value.bitCount === value.payload.length * 8 && value.payload.length > 0 && isUtf8(bytes)) {
    const decoded = utf8.decode(value.payload);
    // eslint-disable-next-line no-control-regex
    if (!/[\u0000-\u001f\u007f]/.test(decoded)) return decoded;
  }
  return { bits: value.bitCount, hex: bytes.toString('hex') };
}

/** All property sets of an image, decoded for display, in file order. */
export function displayProperties(registry: PropertySetRegistry): Record<string, Record<string, DisplayValue>> {
  const out: Record<string, Record<string, DisplayValue>> = {};
  for (const [setName, set] of registry) {
    const props: Record<string, DisplayValue> = {};
    for (const [name, value] of set) props[name] = displayPropertyValue(setName, name, value);
    out[setName] = props;
  }
  return out;
}

/** What `inspect` reports about one image (the JSON form of `syclkit inspect --json`). */
export interface ImageReport {
  readonly name: string;
  readonly kernels: readonly string[];
  readonly empty: boolean;
  readonly properties: Record<string, Record<string, DisplayValue>>;
  readonly version: number;
  readonly kind: string;
  readonly format: string;
  readonly size: number;
  /** CRC-32 of the image bytes, `0x…` (equal bytes, equal CRC). */
  readonly crc32: string;
  readonly compileOptions: string;
  readonly linkOptions: string;
  /** Manifest size in bytes, or null. */
  readonly manifest: number | null;
  /** For a SPIR-V image, what its module declares (added by `withSpirvDetails`, which reads the image). */
  readonly spirv?: SpirvImageReport | { readonly error: string };
}

export interface BundleReport {
  readonly target: string;
  readonly images: readonly ImageReport[];
  /** In a report of one kernel: how many images the bundle has (`images` lists those with the kernel). */
  readonly imageCount?: number;
}

export interface InspectReport {
  readonly file: string;
  readonly containerVersion: number;
  readonly size: number;
  /** Set in a report of one kernel (`inspectKernel`): its bundles list only the images with it. */
  readonly kernel?: string;
  readonly bundles: readonly BundleReport[];
}

/** The report of one image (reads no image bytes). */
export function inspectImage(image: ContainerImage): ImageReport {
  return {
    name: image.name,
    kernels: [...image.entries],
    empty: image.empty,
    properties: displayProperties(image.properties),
    version: image.version,
    kind: offloadKindName(image.kind),
    format: imageFormatName(image.format),
    size: image.dataLength,
    crc32: `0x${image.dataCrc.toString(16).padStart(8, '0')}`,
    compileOptions: image.compileOptions,
    linkOptions: image.linkOptions,
    manifest: image.manifest === null ? null : image.manifest.length,
  };
}

/** The report of an open container; reads no image bytes. */
export function inspectContainer(reader: ContainerReader): InspectReport {
  return {
    file: reader.fileName,
    containerVersion: reader.version,
    size: reader.size,
    bundles: reader.bundles.map((bundle) => ({ target: bundle.target, images: bundle.images.map(inspectImage) })),
  };
}

/**
 * The report of one kernel: every bundle with the images that list the kernel among their offload
 * entries. Reads the container's index and those images' records only.
 */
export function inspectKernel(reader: ContainerReader, kernel: string): InspectReport {
  const images = reader.lookup('entry', kernel);
  return {
    file: reader.fileName,
    containerVersion: reader.version,
    size: reader.size,
    kernel,
    bundles: reader.bundleRanges.map((range) => ({
      target: range.target,
      imageCount: range.count,
      images: images.filter((image) => image.target === range.target).map(inspectImage),
    })),
  };
}

/** Requirements of an image, read from its displayed `SYCL/device requirements`. */
export interface ImageRequirements {
  readonly aspects: readonly number[];
  readonly fixedTarget: readonly number[];
  readonly reqdSubGroupSize?: number;
  readonly reqdWorkGroupSize?: readonly (number | string)[];
  readonly workGroupNumDim?: number;
  readonly jointMatrix?: string;
  readonly jointMatrixMad?: string;
  readonly compileTarget?: string;
}

function numbers(value: DisplayValue | undefined): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

export function imageRequirements(image: ImageReport): ImageRequirements {
  const set = image.properties[PropertySetName.DEVICE_REQUIREMENTS] ?? {};
  const pick = <T>(name: string, is: (v: DisplayValue) => v is DisplayValue & T): T | undefined => {
    const value = set[name];
    return value !== undefined && is(value) ? value : undefined;
  };
  const isNumber = (v: DisplayValue): v is number => typeof v === 'number';
  const isString = (v: DisplayValue): v is string => typeof v === 'string';
  const isList = (v: DisplayValue): v is readonly (number | string)[] => Array.isArray(v);
  const result: { -readonly [K in keyof ImageRequirements]: ImageRequirements[K] } = {
    aspects: numbers(set[DeviceRequirementName.ASPECTS]),
    fixedTarget: numbers(set[DeviceRequirementName.FIXED_TARGET]),
  };
  const subGroup = pick(DeviceRequirementName.REQD_SUB_GROUP_SIZE, isNumber);
  if (subGroup !== undefined) result.reqdSubGroupSize = subGroup;
  const workGroup = pick(DeviceRequirementName.REQD_WORK_GROUP_SIZE, isList) ?? pick(DeviceRequirementName.LEGACY_REQD_WORK_GROUP_SIZE, isList);
  if (workGroup !== undefined) result.reqdWorkGroupSize = workGroup;
  const dims = pick(DeviceRequirementName.WORK_GROUP_NUM_DIM, isNumber);
  if (dims !== undefined) result.workGroupNumDim = dims;
  const jointMatrix = pick(DeviceRequirementName.JOINT_MATRIX, isString);
  if (jointMatrix !== undefined) result.jointMatrix = jointMatrix;
  const jointMatrixMad = pick(DeviceRequirementName.JOINT_MATRIX_MAD, isString);
  if (jointMatrixMad !== undefined) result.jointMatrixMad = jointMatrixMad;
  const compileTarget = pick(DeviceRequirementName.COMPILE_TARGET, isString);
  if (compileTarget !== undefined) result.compileTarget = compileTarget;
  return result;
}

/** `fp64 (6)`, or `aspect 99` for a number the table does not know. */
export function formatAspect(value: number, table: AspectTable = builtinAspectTable): string {
  const name = table.nameOf(value);
  return name === undefined ? `aspect ${value}` : `${name} (${value})`;
}

function formatRequirements(requirements: ImageRequirements, table: AspectTable): string {
  const parts: string[] = [];
  if (requirements.aspects.length > 0) parts.push(`aspects ${requirements.aspects.map((a) => formatAspect(a, table)).join(', ')}`);
  if (requirements.fixedTarget.length > 0) parts.push(`fixed target ${requirements.fixedTarget.map((a) => formatAspect(a, table)).join(', ')}`);
  if (requirements.reqdSubGroupSize !== undefined) parts.push(`sub-group size ${requirements.reqdSubGroupSize}`);
  if (requirements.reqdWorkGroupSize !== undefined) parts.push(`work-group size ${requirements.reqdWorkGroupSize.join('x')}`);
  if (requirements.workGroupNumDim !== undefined) parts.push(`work-group dimensions ${requirements.workGroupNumDim}`);
  if (requirements.jointMatrix !== undefined) parts.push(`joint_matrix ${requirements.jointMatrix}`);
  if (requirements.jointMatrixMad !== undefined) parts.push(`joint_matrix_mad ${requirements.jointMatrixMad}`);
  if (requirements.compileTarget !== undefined) parts.push(`compile target ${requirements.compileTarget}`);
  return parts.length === 0 ? '(none)' : parts.join('; ');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function formatDisplay(value: DisplayValue): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  const raw = value as { bits: number; hex: string };
  return `${raw.bits} bits 0x${raw.hex}`;
}

function formatSpirv(spirv: SpirvImageReport | { readonly error: string }): string[] {
  if ('error' in spirv) return [`    SPIR-V: ${spirv.error}`];
  const entries = spirv.entryPoints.map((e) => `${e.executionModel} ${e.name}${e.executionModes.length === 0 ? '' : ` (${e.executionModes.join(', ')})`}`);
  return [
    `    SPIR-V ${spirv.version}, ${spirv.memoryModel}, by ${spirv.generator}`,
    `      capabilities: ${spirv.capabilities.join(', ') || '(none)'}`,
    ...(spirv.extensions.length === 0 ? [] : [`      extensions: ${spirv.extensions.join(', ')}`]),
    `      entry points: ${entries.join('; ') || '(none)'}`,
  ];
}

/** Options of `formatInspectReport`. */
export interface FormatReportOptions {
  /** Aspect names (default: device-config's built-in table). */
  readonly aspects?: AspectTable;
  /** Also list every property value (default false). */
  readonly properties?: boolean;
}

/** The human-readable summary `syclkit inspect` prints (for a kernel report: its images only). */
export function formatInspectReport(report: InspectReport, options: FormatReportOptions = {}): string {
  const table = options.aspects ?? builtinAspectTable;
  const images = report.bundles.flatMap((b) => b.images);
  let lines: string[];
  if (report.kernel === undefined) {
    const empties = images.filter((i) => i.empty).length;
    lines = [
      `${report.file}: container version ${report.containerVersion}, ${plural(report.bundles.length, 'bundle')}, ${plural(images.length, 'image')}${empties > 0 ? ` (${empties} empty)` : ''}, ${plural(report.size, 'byte')}`,
    ];
  } else {
    const total = report.bundles.reduce((sum, b) => sum + (b.imageCount ?? b.images.length), 0);
    const holding = report.bundles.filter((b) => b.images.length > 0).length;
    lines = [
      `${report.file}: container version ${report.containerVersion}, ${plural(report.bundles.length, 'bundle')}, ${plural(total, 'image')}, ${plural(report.size, 'byte')}`,
      `kernel ${report.kernel}: ${plural(images.length, 'image')} in ${plural(holding, 'bundle')}`,
    ];
  }
  for (const bundle of report.bundles) {
    const count = report.kernel === undefined ? plural(bundle.images.length, 'image') : `${bundle.images.length} of ${plural(bundle.imageCount ?? bundle.images.length, 'image')}`;
    lines.push('', `bundle ${bundle.target} (${count})`);
    for (const image of bundle.images) lines.push(...imageLines(image, table, options.properties === true));
  }
  return `${lines.join('\n')}\n`;
}

function imageLines(image: ImageReport, table: AspectTable, properties: boolean): string[] {
  const lines: string[] = [];
  const details = [image.empty ? 'empty: filtered out for this target, no code' : `${image.format}, ${plural(image.size, 'byte')}`];
  if (image.kind !== 'sycl') details.push(`kind ${image.kind}`);
  if (image.version !== 2) details.push(`struct version ${image.version}`);
  if (image.compileOptions !== '') details.push(`compile options ${JSON.stringify(image.compileOptions)}`);
  if (image.linkOptions !== '') details.push(`link options ${JSON.stringify(image.linkOptions)}`);
  if (image.manifest !== null) details.push(`manifest ${plural(image.manifest, 'byte')}`);
  lines.push(`  image ${image.name === '' ? '(unnamed)' : image.name}: ${details.join(', ')}`);
  lines.push(`    kernels: ${image.kernels.length === 0 ? '(none)' : image.kernels.join(', ')}`);
  if (image.spirv !== undefined) lines.push(...formatSpirv(image.spirv));
  lines.push(`    requirements: ${formatRequirements(imageRequirements(image), table)}`);
  const addOns = image.properties[ADD_ON_IMAGES_SET];
  if (addOns !== undefined) {
    const entries = Object.entries(addOns);
    lines.push(`    add-on images: ${entries.length === 0 ? '(none)' : entries.map(([id, condition]) => `${id} if ${formatDisplay(condition)}`).join('; ')}`);
  }
  const addOn = image.properties[ADD_ON_IMAGE_SET];
  if (addOn !== undefined) {
    lines.push(
      `    add-on image: ${Object.entries(addOn)
        .map(([id, primary]) => `${id} (${primary === 1 ? 'definitions' : primary === 0 ? 'stubs' : formatDisplay(primary)})`)
        .join(', ')}`,
    );
  }
  const sets = Object.entries(image.properties);
  lines.push(`    property sets: ${sets.length === 0 ? '(none)' : sets.map(([name, props]) => `${name} (${Object.keys(props).length})`).join(', ')}`);
  if (properties) {
    for (const [name, props] of sets) {
      for (const [prop, value] of Object.entries(props)) lines.push(`      [${name}] ${prop} = ${formatDisplay(value)}`);
    }
  }
  return lines;
}

import { PropertyType, rawByteArray, type PropertySetRegistry } from '@syclkit/formats';
import { parseModule, printModule } from '@syclkit/ir';
import { BINARY_DESCRIPTOR_VERSION, checkDeviceImage, descriptorImages, type BinaryDescriptor, type DeviceImage } from './descriptor.js';
import { WrapperError } from './errors.js';

/** Options of `emitWrapperIR`, named after clang-offload-wrapper's flags. */
export interface WrapperIROptions {
  /** `-host=<triple>`: the module's target triple (default `x86_64-unknown-linux-gnu`). */
  readonly host?: string;
  /**
   * `-desc-name=<name>`: the descriptor becomes the external `@.sycl_offloading.<name>`; without
   * it, it is the internal `@.sycl_offloading.descriptor`.
   */
  readonly descriptorName?: string;
  /** `-emit-reg-funcs` (default true): the `.tgtimg` records, `llvm.used` and the (un)registration functions. */
  readonly registrationFunctions?: boolean;
}

/** The module name clang-offload-wrapper gives its output. */
export const WRAPPER_MODULE_ID = 'offload.wrapper.object';
const DEFAULT_HOST = 'x86_64-unknown-linux-gnu';
const TAG = '.sycl_offloading.';

const ENTRY_TYPE = '%__tgt_offload_entry';
const PROP_TYPE = '%_pi_device_binary_property_struct';
const PROP_SET_TYPE = '%_pi_device_binary_property_set_struct';
const IMAGE_TYPE = '%__tgt_device_image';
const DESC_TYPE = '%__tgt_bin_desc';

const encoder = new TextEncoder();
const HEX = '0123456789ABCDEF';

/** `c"..."` as LLVM prints it, or `zeroinitializer` when every byte is 0 (LLVM's form). */
function byteArray(bytes: Uint8Array): string {
  if (bytes.every((b) => b === 0)) return 'zeroinitializer';
  const parts: string[] = [];
  let run = '';
  for (const b of bytes) {
    if (b >= 0x20 && b <= 0x7e && b !== 0x22 && b !== 0x5c) run += String.fromCharCode(b);
    else if (b === 0x5c) run += '\\\\';
    else run += `\\${HEX[b >> 4]!}${HEX[b & 15]!}`;
    if (run.length > 4096) {
      parts.push(run);
      run = '';
    }
  }
  parts.push(run);
  return `c"${parts.join('')}"`;
}

function quoted(text: string): string {
  const bytes = encoder.encode(text);
  const literal = byteArray(bytes);
  return literal === 'zeroinitializer' ? '""' : literal.slice(1);
}

/** Global names made unique the way LLVM's symbol table does: `name`, then `name.<n>` with one counter per module. */
class SymbolTable {
  readonly #used = new Set<string>();
  #last = 0;
  unique(base: string): string {
    let name = base;
    while (this.#used.has(name)) name = `${base}.${++this.#last}`;
    this.#used.add(name);
    return name;
  }
}

const PLAIN_NAME = /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/;

function global(name: string): string {
  if (PLAIN_NAME.test(name)) return `@${name}`;
  return `@${quoted(name)}`;
}

/**
 * Generates the wrapper module as text, global by global in the order clang-offload-wrapper creates
 * them. `emitWrapperIR` gives the canonical form.
 */
export function wrapperModuleText(descriptor: BinaryDescriptor, options: WrapperIROptions = {}): string {
  const images = descriptorImages(descriptor);
  images.forEach(checkDeviceImage);
  for (const bundle of descriptor.bundles) {
    for (const image of bundle.images) {
      if (image.target !== bundle.target) throw new WrapperError(`image '${image.name}' has target '${image.target}' but is in bundle '${bundle.target}'`);
    }
  }
  if (images.length > 0xffff) throw new WrapperError(`too many images: the descriptor holds at most 65535, got ${images.length}`);
  const host = options.host ?? DEFAULT_HOST;
  const registration = options.registrationFunctions ?? true;
  const descName = options.descriptorName;
  if (descName !== undefined && (descName === '' || descName.includes('\0'))) throw new WrapperError(`invalid descriptor name ${JSON.stringify(descName)}`);

  const symbols = new SymbolTable();
  const globals: string[] = [];
  const used: string[] = [];
  const types = { entry: false, prop: false, propSet: false };
  const imageInits: string[] = [];

  /** An internal unnamed_addr byte array; returns its name. */
  const addBytes = (base: string, bytes: Uint8Array, section?: string): string => {
    const name = global(symbols.unique(base));
    const sectionText = section === undefined ? '' : `, section ${quoted(section)}`;
    globals.push(`${name} = internal unnamed_addr constant [${bytes.length} x i8] ${byteArray(bytes)}${sectionText}`);
    return name;
  };
  const addString = (base: string, text: string): string => {
    const bytes = encoder.encode(text);
    const withNul = new Uint8Array(bytes.length + 1);
    withNul.set(bytes);
    return addBytes(base, withNul);
  };
  /** Begin and end pointers of an array global of `count` elements of `type`. */
  const range = (name: string, count: number, type: string): [string, string] => [
    `ptr ${name}`,
    count === 0 ? `ptr ${name}` : `ptr getelementptr inbounds ([${count} x ${type}], ptr ${name}, i64 1, i64 0)`,
  ];
  const addArray = (base: string, type: string, elements: readonly string[]): [string, string] => {
    if (elements.length === 0) return ['ptr null', 'ptr null'];
    const name = global(symbols.unique(base));
    globals.push(`${name} = internal constant [${elements.length} x ${type}] [${elements.map((e) => `${type} ${e}`).join(', ')}]`);
    return range(name, elements.length, type);
  };
  const addPropertySets = (registry: PropertySetRegistry): [string, string] => {
    const sets: string[] = [];
    for (const [setName, set] of registry) {
      const props: string[] = [];
      for (const [propName, value] of set) {
        const nameRef = addString('prop', propName);
        if (value.type === PropertyType.UINT32) {
          props.push(`{ ptr ${nameRef}, ptr null, i32 1, i64 ${value.value} }`);
        } else {
          const raw = rawByteArray(value);
          const valRef = addBytes('prop_val', raw);
          props.push(`{ ptr ${nameRef}, ptr ${valRef}, i32 2, i64 ${raw.length} }`);
        }
      }
      if (props.length > 0) types.prop = true;
      const [begin, end] = addArray('__sycl_offload_prop_sets_arr', PROP_TYPE, props);
      const setRef = addString('SYCL_PropSetName', setName);
      sets.push(`{ ptr ${setRef}, ${begin}, ${end} }`);
    }
    if (sets.length > 0) types.propSet = true;
    return addArray('__sycl_offload_prop_sets_arr', PROP_SET_TYPE, sets);
  };

  images.forEach((image: DeviceImage, id) => {
    const target = addString(`${TAG}target.${id}`, image.target);
    const compile = addString(`${TAG}opts.compile.${id}`, image.compileOptions);
    const link = addString(`${TAG}opts.link.${id}`, image.linkOptions);
    let manifest: [string, string] = ['ptr null', 'ptr null'];
    if (image.manifest !== null) {
      const name = addBytes(`${TAG}${id}.manifest`, image.manifest);
      manifest = range(name, image.manifest.length, 'i8');
    }
    const propertySets = addPropertySets(image.properties);
    const data = addBytes(`${TAG}${id}.data`, image.image, image.target === '' ? undefined : `__CLANG_OFFLOAD_BUNDLE__sycl-${image.target}`);
    const [dataBegin, dataEnd] = range(data, image.image.length, 'i8');
    const entryInits = image.entries.map((entry) => `{ ptr null, ptr ${addString('__sycl_offload_entry_name', entry)}, i64 0, i32 0, i32 0 }`);
    if (entryInits.length > 0) types.entry = true;
    const entries = addArray('__sycl_offload_entries_arr', ENTRY_TYPE, entryInits);
    imageInits.push(
      `{ i16 ${image.version}, i8 ${image.kind}, i8 ${image.format}, ptr ${target}, ptr ${compile}, ptr ${link}, ${manifest[0]}, ${manifest[1]}, ${dataBegin}, ${dataEnd}, ${entries[0]}, ${entries[1]}, ${propertySets[0]}, ${propertySets[1]} }`,
    );
    if (registration) {
      const info = global(symbols.unique(`${TAG}${id}.info`));
      globals.push(
        `${info} = internal local_unnamed_addr constant [2 x i64] [i64 ptrtoint (ptr ${data} to i64), i64 ${image.image.length}], section ".tgtimg", align 16`,
      );
      used.push(info);
      if (id === images.length - 1) {
        globals.push(`@llvm.used = appending global [${used.length} x ptr] [${used.map((u) => `ptr ${u}`).join(', ')}], section "llvm.metadata"`);
      }
    }
  });

  const imagesName = global(symbols.unique(`${TAG}device_images`));
  const imageArray = imageInits.length === 0 ? 'zeroinitializer' : `[${imageInits.map((init) => `${IMAGE_TYPE} ${init}`).join(', ')}]`;
  globals.push(`${imagesName} = internal unnamed_addr constant [${imageInits.length} x ${IMAGE_TYPE}] ${imageArray}`);
  const descRef = global(symbols.unique(`${TAG}${descName ?? 'descriptor'}`));
  const linkage = descName === undefined ? 'internal ' : '';
  globals.push(`${descRef} = ${linkage}constant ${DESC_TYPE} { i16 ${BINARY_DESCRIPTOR_VERSION}, i16 ${images.length}, ptr ${imagesName}, ptr null, ptr null }`);

  const functions: string[] = [];
  if (registration) {
    globals.push('@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_reg, ptr null }]');
    globals.push('@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @sycl.descriptor_unreg, ptr null }]');
    for (const [fn, callee] of [
      ['sycl.descriptor_reg', '__sycl_register_lib'],
      ['sycl.descriptor_unreg', '__sycl_unregister_lib'],
    ] as const) {
      functions.push(
        `define internal void @${fn}() section ".text.startup" {\nentry:\n  call void @${callee}(ptr ${descRef})\n  ret void\n}`,
        `declare void @${callee}(ptr)`,
      );
    }
  }

  const typeLines = [
    types.entry ? `${ENTRY_TYPE} = type { ptr, ptr, i64, i32, i32 }` : undefined,
    types.prop ? `${PROP_TYPE} = type { ptr, ptr, i32, i64 }` : undefined,
    types.propSet ? `${PROP_SET_TYPE} = type { ptr, ptr, ptr }` : undefined,
    `${IMAGE_TYPE} = type { i16, i8, i8, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }`,
    `${DESC_TYPE} = type { i16, i16, ptr, ptr, ptr }`,
  ].filter((line): line is string => line !== undefined);

  return [
    `; ModuleID = '${WRAPPER_MODULE_ID}'`,
    `source_filename = "${WRAPPER_MODULE_ID}"`,
    `target triple = ${quoted(host)}`,
    '',
    ...typeLines,
    '',
    ...globals,
    ...functions.flatMap((fn) => ['', fn]),
    '',
  ].join('\n');
}

/**
 * The wrapper module clang-offload-wrapper would emit for this descriptor (kind `sycl`), as LLVM 16
 * prints it: the generated text parsed and printed again by `@syclkit/ir`, so the output is
 * canonical and deterministic.
 */
export function emitWrapperIR(descriptor: BinaryDescriptor, options: WrapperIROptions = {}): string {
  const text = wrapperModuleText(descriptor, options);
  return printModule(parseModule(text, { filename: WRAPPER_MODULE_ID }));
}

import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import {
  DeviceRequirementName,
  FormatError,
  PropertySetName,
  PropertySetRegistry,
  decodeString,
  readFileTable,
  readPropertySetRegistry,
  readSymbolFile,
  readWrapperBatchTable,
  type WrapperImageFiles,
} from '@syclkit/formats';
import { keepIrCompiler, type AotCompiler, type ToolSearch } from './aot.js';
import { DEVICE_IMAGE_VERSION, ImageFormat, OffloadKind, type DeviceImage } from './descriptor.js';
import { classifyDeviceCode } from './empty-module.js';
import { WrapperError } from './errors.js';

/** The target of the generic (JIT, SPIR-V) bundle. */
export const GENERIC_TARGET = 'spir64';

/** One post-link table to wrap (one `-target=<t> <file.table>` of `syclkit wrap`). */
export interface PackInput {
  /** Path of the table (`[Code|Properties|Symbols]`, optionally `Manifest`). */
  readonly table: string;
  /** Bundle target: `spir64` (default) for the generic table, a device name for an AOT table. */
  readonly target?: string;
  /** The AOT step for this table's rows (default: keep the device IR). */
  readonly compiler?: AotCompiler;
  readonly compileOptions?: string;
  readonly linkOptions?: string;
}

export interface PackOptions {
  /** Relative paths in tables resolve against this directory, as upstream tools use the working directory (default `process.cwd()`). */
  readonly baseDir?: string;
  /** AOT compilations run at once (default 1). Images are still delivered in row order. */
  readonly jobs?: number;
  /** Receives warnings (e.g. a bitcode file whose emptiness cannot be checked). */
  readonly onWarning?: (message: string) => void;
  /** Where `llvm-dis` is looked for (to tell whether a bitcode Code file is an empty module). */
  readonly toolSearch?: ToolSearch;
}

/** What one table contributed. */
export interface PackedTable {
  readonly table: string;
  readonly target: string;
  readonly images: number;
  readonly empty: number;
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES') return 'permission denied';
  return (error as Error).message;
}

/** Reads a file named in a table cell; errors name the table, row and column. */
function readCell(path: string, table: string, row: number, column: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new WrapperError(`row ${row}: cannot read the ${column} file '${path}': ${describeFsError(error)}`, table);
  }
}

function readTableFile(path: string, name: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new WrapperError(`cannot read the table: ${describeFsError(error)}`, name);
  }
}

/**
 * The image name: the stem of the Code file, else of the Symbols or Properties file, else
 * `<table>_<row>`. A filtered row's Code is a shared empty module, so its name comes from its
 * Symbols file first (sycl-post-link names `<prefix>_<i>.bc` and `<prefix>_<i>.sym` alike).
 */
function imageName(files: WrapperImageFiles, table: string, row: number, empty: boolean): string {
  const order = empty ? [files.symbols, files.properties, files.code] : [files.code, files.symbols, files.properties];
  for (const path of order) {
    if (path !== '') return basename(path, extname(path));
  }
  return `${basename(table, extname(table))}_${row}`;
}

interface PendingRow {
  readonly promise: Promise<DeviceImage>;
}

/**
 * Turns post-link tables into device images, one bundle per target: for every row it reads the
 * Properties (`.prop`), Symbols (`.sym`) and Manifest files, and runs the table's AOT compiler on
 * the Code file, unless that file is empty or an empty module (a row filtered out for the target),
 * which becomes an empty image that keeps its entries and properties and is never compiled. Images
 * are handed to `sink` in table and row order as they are produced (e.g. `ContainerWriter.addImage`),
 * so at most `jobs` images are held at a time.
 */
export async function packTables(inputs: readonly PackInput[], sink: (image: DeviceImage) => void, options: PackOptions = {}): Promise<PackedTable[]> {
  const baseDir = options.baseDir ?? process.cwd();
  const jobs = Math.max(1, Math.floor(options.jobs ?? 1));
  const warn = options.onWarning ?? (() => {});
  const packed: PackedTable[] = [];
  const names = new Map<string, Set<string>>();
  for (const input of inputs) {
    const target = input.target ?? GENERIC_TARGET;
    const compiler = input.compiler ?? keepIrCompiler();
    const tablePath = resolve(baseDir, input.table);
    let rows: WrapperImageFiles[];
    try {
      rows = readWrapperBatchTable(readFileTable(readTableFile(tablePath, input.table), { fileName: input.table }));
    } catch (error) {
      if (error instanceof FormatError && error.location === undefined) throw new WrapperError(error.reason, input.table);
      throw error;
    }
    const used = names.get(target) ?? new Set<string>();
    names.set(target, used);
    const queue: PendingRow[] = [];
    let count = 0;
    let empty = 0;
    const deliver = async (): Promise<void> => {
      const image = await queue.shift()!.promise;
      sink(image);
      count++;
      if (image.empty) empty++;
    };
    for (let row = 0; row < rows.length; row++) {
      const files = rows[row]!;
      const properties =
        files.properties === '' ? new PropertySetRegistry() : readPropertySetRegistry(readCell(resolve(baseDir, files.properties), input.table, row, 'Properties'), { fileName: files.properties });
      const entries = files.symbols === '' ? [] : readSymbolFile(readCell(resolve(baseDir, files.symbols), input.table, row, 'Symbols'), { fileName: files.symbols });
      const manifest = files.manifest === '' ? null : new Uint8Array(readCell(resolve(baseDir, files.manifest), input.table, row, 'Manifest'));
      checkCompileTarget(properties, target, input.table, row, warn);
      const code = files.code === '' ? new Uint8Array(0) : new Uint8Array(readCell(resolve(baseDir, files.code), input.table, row, 'Code'));
      const kind = files.code === '' ? { empty: true } : classifyDeviceCode(code, files.code, options.toolSearch);
      if (kind.warning !== undefined) warn(kind.warning);
      const stem = imageName(files, input.table, row, kind.empty);
      let name = stem;
      for (let n = 2; used.has(name); n++) name = `${stem}~${n}`;
      used.add(name);
      const base = {
        name,
        version: DEVICE_IMAGE_VERSION,
        kind: OffloadKind.SYCL,
        target,
        compileOptions: input.compileOptions ?? '',
        linkOptions: input.linkOptions ?? '',
        manifest,
        entries,
        properties,
      };
      const promise: Promise<DeviceImage> = kind.empty
        ? Promise.resolve({ ...base, format: ImageFormat.NONE, image: new Uint8Array(0), empty: true })
        : compiler
            .compile({ input: code, inputPath: files.code, target, name })
            .then((result) => ({ ...base, format: result.format, image: result.image, empty: false }));
      // Keep a rejection from being reported as unhandled before its turn comes.
      promise.catch(() => {});
      queue.push({ promise });
      if (queue.length >= jobs) await deliver();
    }
    while (queue.length > 0) await deliver();
    packed.push({ table: input.table, target, images: count, empty });
  }
  return packed;
}

/** sycl-post-link adds `compile_target=<t>` to the images of a `-o <t>,<table>` table. */
function checkCompileTarget(properties: PropertySetRegistry, target: string, table: string, row: number, warn: (message: string) => void): void {
  const value = properties.get(PropertySetName.DEVICE_REQUIREMENTS, DeviceRequirementName.COMPILE_TARGET);
  if (value === undefined) return;
  let compileTarget: string;
  try {
    compileTarget = decodeString(value);
  } catch {
    return;
  }
  if (compileTarget !== target) {
    warn(`${table}: row ${row}: the image was compiled for '${compileTarget}' (its compile_target), but is wrapped for '${target}'`);
  }
}

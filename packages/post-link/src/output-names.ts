/**
 * Output file naming (reference §3.3): the prefix is `-out-dir` (or the directory of the first
 * `-o`) plus the stem of the first `-o` (last extension dropped); files are
 * `<prefix><suffix>_<id>.<ext>`, `_esimd` for ESIMD-only images, and property files of a target
 * table use `_<target>` instead.
 */
import { basename, extname } from 'node:path';

/** One `-o` value: `<table>` or `<target>,<table>`. */
export interface OutputTableSpec {
  readonly path: string;
  readonly target?: string;
}

/** Parses `-o` values; the first comma separates a target (targets never contain commas). */
export function parseOutputSpec(value: string): OutputTableSpec {
  const comma = value.indexOf(',');
  if (comma <= 0) return { path: value };
  return { target: value.slice(0, comma), path: value.slice(comma + 1) };
}

/** LLVM `sys::path::stem`: the file name without its last extension. */
export function stem(path: string): string {
  const name = basename(path);
  if (name === '.' || name === '..') return name;
  const ext = extname(name);
  return ext === '' ? name : name.slice(0, -ext.length);
}

/** The output prefix for generated files. */
export function outputPrefix(firstOutput: string, outDir?: string): string {
  const dir = outDir ?? parentPath(firstOutput);
  if (dir === '') return stem(firstOutput);
  return dir.endsWith('/') ? dir + stem(firstOutput) : `${dir}/${stem(firstOutput)}`;
}

/** LLVM `sys::path::parent_path` for POSIX paths: everything before the last `/` (`/` for the root). */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return '';
  return slash === 0 ? '/' : path.slice(0, slash);
}

export interface ImageFileNames {
  readonly code: string;
  readonly symbols: string;
  /** Property file of the table with this target (undefined: the untargeted table). */
  properties(target?: string): string;
}

export function imageFileNames(prefix: string, id: number, esimd: boolean, textIR: boolean): ImageFileNames {
  const suffix = esimd ? '_esimd' : '';
  return {
    code: `${prefix}${suffix}_${id}.${textIR ? 'll' : 'bc'}`,
    symbols: `${prefix}${suffix}_${id}.sym`,
    properties: (target) => `${prefix}${target === undefined ? suffix : `_${target}`}_${id}.prop`,
  };
}

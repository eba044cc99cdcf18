/**
 * The fat binaries `check`, `inspect`, `explain` and `run` read: a syclkit container, or a linked
 * program (an ELF executable or shared library made by `syclkit link`, or a wrapper object) whose
 * offload descriptors are read from the ELF file itself (`@syclkit/objects`). A program's images
 * are named `<program>_<target>_<n>`, as `compile` names a container's after its output file.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ContainerReader, ContainerWriter } from '@syclkit/offload-wrapper';
import { isElf, readProgramDescriptors, readFatObject, unbundle } from '@syclkit/objects';
import { CliError } from '../command.js';
import { LINKED_IMAGE_BUNDLE } from './link-inputs.js';

function head(path: string, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(length);
    const n = readSync(fd, bytes, 0, length, 0);
    return bytes.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Whether a file is an ELF file (a linked program or an object), by its first bytes; false for what is not a regular file. */
export function isElfPath(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
  } catch {
    return false; // the container reader says what is wrong with the path
  }
  return isElf(head(path, 4));
}

/**
 * A container of what an ELF program registers: every offload descriptor, images by target. A fat
 * object from `-fsycl-link`/`-fno-sycl-rdc -c` is read through the wrapper object it bundles.
 */
export function containerOfProgram(bytes: Uint8Array, fileName: string): Uint8Array {
  const name = basename(fileName);
  const stem = extname(name) === '' ? name : name.slice(0, -extname(name).length);
  let program = bytes;
  const fat = readFatObject(bytes, fileName);
  const linked = unbundle(fat, LINKED_IMAGE_BUNDLE);
  if (linked !== undefined) program = linked;
  const descriptors = readProgramDescriptors(program, fileName, { imageName: (target, index) => `${stem}_${target}_${index}` });
  if (descriptors.length === 0) throw new CliError(`${fileName}: an ELF file with no SYCL offload descriptor (nothing registers device images)`);
  const writer = ContainerWriter.toMemory();
  for (const descriptor of descriptors) for (const image of descriptor.images) writer.addImage(image);
  writer.finish();
  return writer.bytes();
}

/** Opens a container, or reads a linked program's descriptors into one (see the module comment). */
export function openFatBinary(path: string): ContainerReader {
  if (!isElfPath(path)) return ContainerReader.open(path);
  return ContainerReader.fromBytes(containerOfProgram(new Uint8Array(readFileSync(path)), path), { fileName: path });
}

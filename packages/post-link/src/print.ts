/** Printing images to bytes. */
import { printModuleTo, type Module, type PrintCache } from '@syclkit/ir';

/**
 * The textual IR of a module as latin1 bytes, in one right-sized buffer (the printer's chunks
 * are slices of 1 MiB buffers; keeping one alive until its write completes would pin the rest).
 */
export function printBytes(m: Module, cache?: PrintCache): Uint8Array {
  const chunks: Uint8Array[] = [];
  printModuleTo(m, (chunk) => chunks.push(chunk), cache === undefined ? {} : { cache });
  if (chunks.length === 1) {
    const only = chunks[0]!;
    return only.byteLength * 2 >= only.buffer.byteLength ? only : new Uint8Array(only);
  }
  return Buffer.concat(chunks);
}

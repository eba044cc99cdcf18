/** Below Node's limit for external strings (about 1 MiB), so every slice is an ordinary heap string. */
const SLICE = 512 * 1024;

/**
 * The text of IR bytes as {@link parseModule} reads it: one character per byte (latin1), so
 * source offsets are byte offsets and any byte survives the round trip. Same characters as
 * `Buffer.toString('latin1')`, but for inputs over about 1 MiB Node makes that an external
 * string, and the parser reads characters from an external string more slowly (~5 % on the
 * 10 MiB benchmark). Decoding in slices and joining them gives one flat string on the heap.
 */
export function decodeIRText(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length <= SLICE) return buffer.toString('latin1');
  const parts: string[] = [];
  for (let start = 0; start < buffer.length; start += SLICE) parts.push(buffer.toString('latin1', start, Math.min(buffer.length, start + SLICE)));
  return parts.join('');
}

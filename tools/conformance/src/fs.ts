import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let tempCounter = 0;

/**
 * Writes a file atomically: the bytes go to a temporary file beside the target, which is then
 * renamed over it, so a reader never sees a half-written file and a failure leaves the old one.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${tempCounter++}.tmp`);
  const fd = openSync(temp, 'w', mode);
  try {
    if (typeof data === 'string') writeSync(fd, data, null, 'utf8');
    else writeSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

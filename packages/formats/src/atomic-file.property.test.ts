/**
 * Properties of atomic file writing:
 * 1. Whatever chunks a producer writes, the committed file holds exactly their concatenation.
 * 2. A producer that throws after any number of chunks leaves the previous file byte for byte.
 * 3. Neither outcome leaves a temporary file in the directory.
 * (Each with and without the fsync of `durable`.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { writeFileAtomicWith } from './atomic-file.js';

const chunks = fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 });

function concat(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts.map((part) => Buffer.from(part)));
}

describe('atomic file writing', () => {
  it('commits exactly the concatenated chunks, or keeps the old file when the producer throws', () => {
    const dir = mkdtempSync(join(tmpdir(), 'syclkit-atomic-prop-'));
    try {
      const path = join(dir, 'out');
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 32 }), chunks, fc.boolean(), fc.boolean(), (old, parts, fail, durable) => {
          writeFileSync(path, old);
          const run = (): void =>
            writeFileAtomicWith(path, (file) => {
              for (const part of parts) file.write(part);
              if (fail) throw new Error('stop');
            }, { durable });
          if (fail) expect(run).toThrow('stop');
          else run();
          expect(readFileSync(path).equals(fail ? Buffer.from(old) : concat(parts))).toBe(true);
          expect(readdirSync(dir)).toEqual(['out']);
        }),
        fcOptions(100),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtomicFile, writeFileAtomic, writeFileAtomicWith } from './atomic-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'syclkit-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it.each([false, true])('replaces an existing file and leaves no temporary file behind (durable: %s)', (durable) => {
    const path = join(dir, 'out.txt');
    writeFileSync(path, 'old');
    writeFileAtomic(path, 'new', { durable });
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });

  it('encodes strings as UTF-8 by default and latin1 on request', () => {
    const path = join(dir, 'out.bin');
    writeFileAtomic(path, '\u00e9');
    expect([...readFileSync(path)]).toEqual([0xc3, 0xa9]);
    writeFileAtomic(path, '\u00e9', { encoding: 'latin1' });
    expect([...readFileSync(path)]).toEqual([0xe9]);
  });

  it.each([false, true])('creates new files with the requested mode (durable: %s)', (durable) => {
    const path = join(dir, 'tool');
    writeFileAtomic(path, '#!/bin/sh\n', { mode: 0o755, durable });
    expect(statSync(path).mode & 0o100).toBe(0o100);
  });

  it('fails without creating anything when the directory does not exist', () => {
    expect(() => writeFileAtomic(join(dir, 'missing', 'out.txt'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([false, true])('names the target, not its temporary file, when it cannot be written (durable: %s)', (durable) => {
    const path = join(dir, 'missing', 'out.txt');
    let caught: NodeJS.ErrnoException | undefined;
    try {
      writeFileAtomic(path, 'x', { durable });
    } catch (error) {
      caught = error as NodeJS.ErrnoException;
    }
    expect(caught?.code).toBe('ENOENT');
    expect(caught?.path).toBe(path);
    expect(caught?.message).toContain(path);
    expect(caught?.message).not.toContain('.tmp');
  });

  it('removes the temporary file when the rename fails (target is a non-empty directory)', () => {
    const path = join(dir, 'taken');
    mkdirSync(join(path, 'inner'), { recursive: true });
    expect(() => writeFileAtomic(path, 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});

describe('writeFileAtomicWith', () => {
  it('keeps the old contents when the producer throws', () => {
    const path = join(dir, 'out.txt');
    writeFileSync(path, 'old');
    expect(() =>
      writeFileAtomicWith(path, (file) => {
        file.write('partial');
        throw new Error('producer failed');
      }),
    ).toThrow('producer failed');
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });

  it('counts the bytes written', () => {
    let seen = 0;
    writeFileAtomicWith(join(dir, 'out'), (file) => {
      file.write(new Uint8Array(3));
      file.write('ab');
      seen = file.position;
    });
    expect(seen).toBe(5);
  });
});

describe('AtomicFile', () => {
  it('refuses writes after commit', () => {
    const file = new AtomicFile(join(dir, 'out'));
    file.commit();
    expect(() => file.write('x')).toThrow(/already committed or discarded/);
  });

  it('overwrites earlier bytes in place with writeAt, and refuses bytes it has not written', () => {
    const path = join(dir, 'patched');
    const file = new AtomicFile(path);
    file.write('header:v2|body');
    file.writeAt(8, Uint8Array.of(0x33));
    expect(file.position).toBe(14);
    expect(() => file.writeAt(12, Uint8Array.of(1, 2, 3))).toThrow(/outside the 14 bytes written/);
    expect(() => file.writeAt(-1, Uint8Array.of(1))).toThrow(/outside the 14 bytes written/);
    file.write('!');
    file.commit();
    expect(readFileSync(path, 'utf8')).toBe('header:v3|body!');
    expect(() => file.writeAt(0, Uint8Array.of(1))).toThrow(/already committed or discarded/);
  });

  it('discard leaves the target untouched', () => {
    const path = join(dir, 'out');
    writeFileSync(path, 'old');
    const file = new AtomicFile(path);
    file.write('new');
    file.discard();
    file.discard();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out']);
  });
});

// `-o /dev/null` and the like: a device or pipe is written in place, never replaced by a renamed file
describe('targets that are no regular file', () => {
  const fifo = (): string | undefined => {
    const path = join(dir, 'pipe');
    return spawnSync('mkfifo', [path]).status === 0 ? path : undefined;
  };

  it.each([false, true])('writes a FIFO in place and leaves it a FIFO, with no temporary file (durable: %s)', (durable) => {
    const path = fifo();
    if (path === undefined) return; // no mkfifo here
    // held open for reading (Linux: read-write open of a FIFO does not block), so the write does not wait
    const reader = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      writeFileAtomic(path, 'one ', { durable });
      writeFileAtomicWith(path, (file) => file.write('two'), { durable });
      const buf = Buffer.alloc(64);
      const n = readSync(reader, buf, 0, buf.length, null);
      expect(buf.subarray(0, n).toString()).toBe('one two');
    } finally {
      closeSync(reader);
    }
    expect(statSync(path).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  it('discard closes a FIFO target and leaves it in place', () => {
    const path = fifo();
    if (path === undefined) return;
    const reader = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const file = new AtomicFile(path);
      expect(file.temp).toBe(path);
      file.discard();
    } finally {
      closeSync(reader);
    }
    expect(statSync(path).isFIFO()).toBe(true);
  });
});

/**
 * `transientChunks`: a sink that is done with each chunk when it returns lets the printer write
 * every chunk into the same buffer. Checked: the text is the same as a print with fresh chunks,
 * whether the type definitions are found while printing (held text, with any limit on it) or the
 * plain way (numbered structs), and the buffer is in fact reused once printing streams; without
 * the option every chunk is a buffer of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Module } from '../model/module.js';
import { parseModule } from '../reader/parser.js';
import { printLimits, printModule, printModuleTo } from './printer.js';

interface Printed {
  /** The chunks' bytes as they were when handed over (copied then, as a synchronous file write does). */
  readonly text: string;
  /** The chunks' bytes after the print, from the chunks themselves (as a callee that keeps them sees them). */
  readonly kept: string;
  readonly chunks: number;
  /** Distinct memory the chunks were handed out in. */
  readonly buffers: number;
}

function print(m: Module, transientChunks: boolean): Printed {
  const copies: Buffer[] = [];
  const kept: Uint8Array[] = [];
  const buffers = new Set<ArrayBufferLike>();
  printModuleTo(
    m,
    (c) => {
      kept.push(c);
      buffers.add(c.buffer);
      copies.push(Buffer.from(c));
    },
    { transientChunks },
  );
  const text = (list: readonly Uint8Array[]): string => Buffer.concat(list).toString('latin1');
  return { text: text(copies), kept: text(kept), chunks: kept.length, buffers: buffers.size };
}

/** A module of about `n` x 28 bytes of text, with a struct type met only in its last function. */
function bigModule(n: number, numbered: boolean): Module {
  const body = Array.from({ length: n }, (_, i) => `  %v${i} = add i32 %x, ${i}`).join('\n');
  const struct = numbered ? '%0' : '%struct.OnlyLast';
  return parseModule(
    `%struct.First = type { i8 }\n${struct} = type { i32, i32 }\n\n` +
      `define i32 @first(ptr %p) {\n  %a = alloca %struct.First, align 1\n  ret i32 0\n}\n\n` +
      `define i32 @big(i32 %x) {\n${body}\n  ret i32 %x\n}\n\n` +
      `define void @last(ptr %p) {\n  %s = alloca ${struct}, align 4\n  ret void\n}\n`,
    { filename: 'chunks.ll' },
  );
}

describe('printModuleTo with transientChunks', () => {
  const limit = printLimits.hold;
  afterEach(() => {
    printLimits.hold = limit;
  });

  it('prints the same text as with fresh chunks, types found while printing or the plain way', () => {
    for (const numbered of [false, true]) {
      const m = bigModule(120000, numbered);
      const expected = printModule(m);
      expect(expected).toContain(numbered ? '%0 = type { i32, i32 }' : '%struct.OnlyLast = type { i32, i32 }');
      for (const hold of [0, 3 << 20, limit]) {
        printLimits.hold = hold;
        const fresh = print(m, false);
        const reused = print(m, true);
        expect(fresh.text).toBe(expected);
        expect(reused.text).toBe(expected);
        expect(reused.chunks).toBeGreaterThan(2);
      }
    }
  }, 120_000);

  it('reuses its buffer once the text streams; without the option the chunks keep their bytes', () => {
    const m = bigModule(120000, false);
    printLimits.hold = 0;
    const fresh = print(m, false);
    expect(fresh.kept).toBe(fresh.text);
    const reused = print(m, true);
    expect(reused.text).toBe(fresh.text);
    // the held first part (until the types are known) takes buffers of its own; the rest streams through one
    expect(reused.kept).not.toBe(reused.text);
    expect(reused.buffers).toBeLessThanOrEqual(4);
    expect(reused.chunks).toBeGreaterThan(reused.buffers);
  }, 120_000);
});

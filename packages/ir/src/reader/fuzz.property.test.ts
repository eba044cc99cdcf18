/**
 * Properties (robustness of the parser and printer against bad input):
 * 1. Random bytes either parse or throw an IrSyntaxError with a position inside the input —
 *    never another exception, never a hang.
 * 2. Corpus files with random edits (byte flips, deletions, duplicated slices) behave the same.
 * 3. Whatever parses also prints, and printing is a fixed point: parse(print(m)) prints the same.
 * 4. When LLVM 16's opt is installed: a corpus file with one token replaced, deleted or repeated
 *    is read by syclkit exactly when opt reads it (or refuses it only in its verifier, which
 *    reports no source position), and when both read it they print the same text.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusFiles, fixtures } from '../../test/support.js';
import { IrSyntaxError } from '../errors.js';
import { parseModule } from './parser.js';
import { printModule } from '../printer/printer.js';
import { fcOptions } from '@syclkit/testing';
import { llvmTool, runTool } from '../../test/llvm.js';

function check(text: string): void {
  const started = performance.now();
  let printed: string | undefined;
  try {
    printed = printModule(parseModule(text, { filename: 'fuzz.ll' }));
  } catch (error) {
    if (!(error instanceof IrSyntaxError)) throw error;
    expect(error.line).toBeGreaterThanOrEqual(1);
    expect(error.column).toBeGreaterThanOrEqual(1);
  }
  if (printed !== undefined) expect(printModule(parseModule(printed, { filename: 'fuzz.ll' }))).toBe(printed);
  expect(performance.now() - started).toBeLessThan(5000);
}

const seeds = [...corpusFiles().slice(0, 60), `${fixtures}/roundtrip/instructions.ll`, `${fixtures}/roundtrip/debug-info-nodes.ll`].map((f) =>
  readFileSync(f, 'latin1'),
);

const edit = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 80 }), to: fc.nat() }),
  fc.record({ kind: fc.constant('token' as const), at: fc.nat(), token: fc.constantFrom('%', '@', '!', '{', '}', '(', ')', ',', '=', '"', '#0', 'i32', 'ptr', '...', '\n', 'x', '0x', '-', ':') }),
);

type Edit =
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number; to: number }
  | { kind: 'token'; at: number; token: string };

function applyEdits(text: string, edits: readonly Edit[]): string {
  let s = text;
  for (const e of edits) {
    const at = s.length === 0 ? 0 : e.at % s.length;
    switch (e.kind) {
      case 'flip':
        s = s.slice(0, at) + String.fromCharCode(e.byte) + s.slice(at + 1);
        break;
      case 'delete':
        s = s.slice(0, at) + s.slice(at + e.length);
        break;
      case 'duplicate': {
        const piece = s.slice(at, at + e.length);
        const to = s.length === 0 ? 0 : e.to % s.length;
        s = s.slice(0, to) + piece + s.slice(to);
        break;
      }
      case 'token':
        s = s.slice(0, at) + e.token + s.slice(at);
        break;
    }
  }
  return s;
}

describe('parser robustness', () => {
  it('random bytes never crash or hang the parser', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => check(Buffer.from(bytes).toString('latin1'))),
      fcOptions(300),
    );
  });

  it('edited corpus files never crash or hang the parser, and what parses prints to a fixed point', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (i, edits) =>
        check(applyEdits(seeds[i]!, edits)),
      ),
      fcOptions(400),
    );
  }, 120_000);
});

const opt16 = llvmTool('opt');
describe.skipIf(opt16 === undefined)('agreement with LLVM 16 on edited corpus files', () => {
  const accepted = opt16 === undefined ? [] : seeds.filter((text) => runTool(opt16, ['-S', '-o', '/dev/null', '-'], text).status === 0);
  const tokenEdit = fc.record({ kind: fc.constantFrom('replace', 'delete', 'repeat'), at: fc.nat(), other: fc.nat() });

  it('4: one-token edits are read exactly when opt reads them, and print as opt prints them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.max(0, accepted.length - 1) }), tokenEdit, (i, e) => {
        const text = accepted[i]!;
        const tokens = [...text.matchAll(/[%@!#]?[\w.$-]+|[(){}[\]<>,=*]/g)];
        const a = tokens[e.at % tokens.length]!;
        const b = tokens[e.other % tokens.length]![0];
        const end = a.index + a[0].length;
        const edited =
          e.kind === 'replace' ? text.slice(0, a.index) + b + text.slice(end) : e.kind === 'delete' ? text.slice(0, a.index) + text.slice(end) : text.slice(0, a.index) + b + ' ' + text.slice(a.index);
        const theirs = runTool(opt16!, ['-S', '-'], edited);
        let ours: string | undefined;
        try {
          ours = printModule(parseModule(edited, { filename: '<stdin>' }));
        } catch (error) {
          if (!(error instanceof IrSyntaxError)) throw error;
        }
        if (theirs.status === 0) expect(ours).toBe(theirs.stdout);
        else if (/<stdin>:\d+:\d+: error:/.test(theirs.stderr)) expect({ edited: edited.slice(Math.max(0, a.index - 40), a.index + 40), ours }).toEqual({ edited: edited.slice(Math.max(0, a.index - 40), a.index + 40), ours: undefined });
      }),
      fcOptions(60),
    );
  }, 120_000);
});

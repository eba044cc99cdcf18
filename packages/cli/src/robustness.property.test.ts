/**
 * Property (no internal errors on bad input): an intel/llvm corpus file with one token replaced,
 * deleted or repeated, when it still parses, goes through every command that reads a module —
 * post-link (auto split; per kernel with dynamic linking), module-split, llvm-split, opt with
 * the propagation pass (with and without excluded aspects) and the conditional-call pass,
 * split-plan and explain — and each either succeeds or fails with a user-facing error (exit 1 or
 * 2): never exit 70, never a JavaScript exception text or stack frame on stderr.
 * Skipped when the corpus is not beside the checkout.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseModule } from '@syclkit/ir';
import { fcOptions } from '@syclkit/testing';
import { runSyclkit } from '../test/testing.js';

const corpus = new URL('../../../../shared/conformance/intel-llvm/llvm/test/', import.meta.url).pathname;
function corpusFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? corpusFiles(p) : name.endsWith('.ll') ? [p] : [];
    });
}
const texts = corpusFiles(corpus).map((f) => readFileSync(f, 'latin1'));

const scratch = mkdtempSync(join(tmpdir(), 'syclkit-robustness-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let runs = 0;

/** Commands over `<out>/in.ll`, writing into `<out>`. */
const COMMANDS: readonly ((out: string) => string[])[] = [
  (out) => ['post-link', '-split=auto', '-symbols', '-properties', '-S', `${out}/in.ll`, '-o', `${out}/a.table`],
  (out) => ['post-link', '-split=kernel', '-emit-exported-symbols', '-emit-imported-symbols', '-allow-device-image-dependencies', '-symbols', '-properties', '-S', `${out}/in.ll`, '-o', `${out}/b.table`],
  (out) => ['module-split', '-split=source', '-S', `${out}/in.ll`, '-o', `${out}/m`],
  (out) => ['llvm-split', '-sycl-split=kernel', '-S', `${out}/in.ll`, '-o', `${out}/l`],
  (out) => ['opt', '-passes=sycl-propagate-aspects-usage', '-S', `${out}/in.ll`],
  (out) => ['opt', '-passes=sycl-propagate-aspects-usage', '-sycl-propagate-aspects-usage-exclude-aspects=fp64', '-S', `${out}/in.ll`],
  (out) => ['opt', '-passes=sycl-conditional-call-on-device', '-S', `${out}/in.ll`],
  (out) => ['split-plan', `${out}/in.ll`],
  (out) => ['explain', `${out}/in.ll`, '--kernel', 'k', '--aspect', 'fp64'],
];

const parses = (text: string): boolean => {
  try {
    parseModule(text, { filename: 'edited.ll' });
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(texts.length === 0)('commands on edited corpus files', () => {
  it('fail with user errors, never internal ones', async () => {
    const edit = fc.record({ file: fc.nat(), at: fc.nat(), other: fc.nat(), kind: fc.constantFrom('replace', 'delete', 'repeat'), command: fc.nat() });
    await fc.assert(
      fc.asyncProperty(edit, async (e) => {
        const text = texts[e.file % texts.length]!;
        const tokens = [...text.matchAll(/[%@!#]?[\w.$"-]+|[(){}[\]<>,=*]/g)];
        const a = tokens[e.at % tokens.length]!;
        const b = tokens[e.other % tokens.length]![0];
        const end = a.index + a[0].length;
        const edited =
          e.kind === 'replace' ? text.slice(0, a.index) + b + text.slice(end) : e.kind === 'delete' ? text.slice(0, a.index) + text.slice(end) : text.slice(0, a.index) + b + ' ' + text.slice(a.index);
        fc.pre(parses(edited));
        const out = join(scratch, String(runs++));
        mkdirSync(out);
        writeFileSync(`${out}/in.ll`, edited, 'latin1');
        const argv = COMMANDS[e.command % COMMANDS.length]!(out);
        const { code, err } = await runSyclkit(argv);
        // writing into the scratch directory must work: a failure there would hide the command's own behaviour
        expect(err).not.toMatch(/no such file or directory/);
        expect({ argv, code, err }).toEqual({ argv, code: expect.toSatisfy((c: number) => c === 0 || c === 1 || c === 2), err: expect.not.stringMatching(/internal error|TypeError|RangeError|ReferenceError|\n\s+at /) });
      }),
      { ...fcOptions(60), maxSkipsPerRun: 1000 },
    );
  }, 120_000);
});

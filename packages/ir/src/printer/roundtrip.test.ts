import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFiles, corpusRoot, fixtures, llvm16, llvm19, run } from '../../test/support.js';
import { parseModule } from '../reader/parser.js';
import { printModule } from './printer.js';

function roundTrip(text: string, filename: string, odrTypeUniquing = true): string {
  return printModule(parseModule(text, { filename, odrTypeUniquing }));
}

describe('printing matches LLVM 16 opt -S', () => {
  const dir = join(fixtures, 'roundtrip');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ll') && !n.endsWith('.expected.ll'))) {
    it(`prints ${name} exactly as the recorded opt -S output`, () => {
      const input = readFileSync(join(dir, name), 'latin1');
      const expected = readFileSync(join(dir, name.replace(/\.ll$/, '.expected.ll')), 'latin1');
      expect(roundTrip(input, name)).toBe(expected);
    });
  }

  const opt = llvm16('opt');
  const files = corpusFiles();
  it.skipIf(files.length === 0 || opt === undefined)('prints every intel/llvm corpus input opt-16 accepts exactly as opt -S does', () => {
    let compared = 0;
    const mismatches: string[] = [];
    for (const file of files) {
      const id = relative(corpusRoot, file);
      const expected = run(opt!, ['-S', id], undefined, corpusRoot);
      if (expected === undefined) continue; // opt rejects it (e.g. unknown target triple); covered below
      compared++;
      const ours = roundTrip(readFileSync(file, 'latin1'), id);
      if (ours !== expected) mismatches.push(id);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(100);
  }, 120_000);
});

describe('lossless round trip (llvm-as | llvm-dis of ours equals that of the input)', () => {
  const files = corpusFiles();
  const as16 = llvm16('llvm-as');
  const dis16 = llvm16('llvm-dis');
  const as19 = llvm19('llvm-as');
  const dis19 = llvm19('llvm-dis');
  it.skipIf(files.length === 0 || as16 === undefined || dis16 === undefined)('holds for every corpus input that LLVM 16 or 19 parses', () => {
    let checked = 0;
    const lossy: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'latin1');
      // `<stdin>` so a missing source_filename defaults the same way on both sides
      // llvm-as does not enable debug-type ODR uniquing (opt does), so compare without it
      const ours = roundTrip(text, '<stdin>', false);
      for (const [as, dis] of [
        [as16!, dis16!],
        [as19, dis19],
      ] as const) {
        if (as === undefined || dis === undefined) continue;
        const bcIn = run(as, ['-o', '-', '-'], text);
        if (bcIn === undefined) continue;
        const viaInput = run(dis, ['-o', '-', '-'], bcIn);
        const bcOurs = run(as, ['-o', '-', '-'], ours);
        const viaOurs = bcOurs === undefined ? undefined : run(dis, ['-o', '-', '-'], bcOurs);
        if (viaInput !== viaOurs) lossy.push(relative(corpusRoot, file));
        checked++;
        break;
      }
    }
    expect(lossy).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(files.length - 1);
  }, 180_000);
});

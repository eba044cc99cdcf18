import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const reader = fileURLToPath(new URL('../../dist/reader/', import.meta.url));

// The reader compares token kinds (`Tok`) and opcode families (`Dispatch`) millions of times a
// parse; as property loads of the enums' objects they cost about 3 % of it. packages/ir's
// tsconfig lets tsc write them as numbers.
describe('the built reader', () => {
  it.skipIf(!existsSync(reader))('compares const enum members as numbers, not as property loads', () => {
    const loads: string[] = [];
    for (const file of readdirSync(reader).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(reader + file, 'utf8');
      // tsc writes a member as its number and its name in a comment (`3 /* Tok.Comma */`)
      for (const m of text.matchAll(/(?<!\/\* )\b(?:Tok|Dispatch)\.[A-Z]\w*/g)) loads.push(`${file}: ${m[0]}`);
    }
    expect(loads).toEqual([]);
    expect(readFileSync(reader + 'parse-types.js', 'utf8')).toContain('/* Tok.LBrace */');
  });
});

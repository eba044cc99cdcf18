/**
 * Properties of the lexer's identifiers (keywords and other words of [A-Za-z_][A-Za-z0-9_]*),
 * which it interns while it scans them (short ones by their packed spelling, longer ones by hash
 * and characters):
 * 1. An identifier token's text is its spelling in the source, at any length.
 * 2. Two identifier tokens have the identical string exactly when they are spelled alike, also
 *    when spellings differ in one character only, or share a prefix, and after thousands of
 *    distinct words (the table grows).
 * 3. `isIdent` is true exactly for the word the token is spelled as.
 */
import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { fcOptions } from '@syclkit/testing';
import { Lexer, Tok } from './lexer.js';

const FIRST = 'abcdefghjklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_';
const REST = FIRST + 'i0123456789';
/** A word the lexer reads as one identifier: no `i` first (`i32` is a type), no `u0x`/`s0x` (hex integers). */
const word = fc
  .tuple(fc.constantFrom(...FIRST), fc.array(fc.constantFrom(...REST), { maxLength: 24 }))
  .map(([first, rest]) => first + rest.join(''))
  .filter((w) => !/^[us]0x/.test(w));

function identifiers(text: string): string[] {
  const lexer = new Lexer(text, 't.ll');
  const out: string[] = [];
  for (let kind = lexer.next(); kind !== Tok.Eof; kind = lexer.next()) {
    expect(kind).toBe(Tok.Ident);
    out.push(lexer.text);
  }
  return out;
}

describe('identifier tokens', () => {
  test.prop([fc.array(word, { minLength: 1, maxLength: 60 })], fcOptions(300))('have their spelling, one string per spelling', (words) => {
    const texts = identifiers(words.join(' '));
    expect(texts).toEqual(words);
    for (let i = 0; i < words.length; i++)
      for (let j = 0; j < words.length; j++) expect(Object.is(texts[i], texts[j])).toBe(words[i] === words[j]);
  });

  test.prop([word, fc.nat(), fc.constantFrom(...REST)], fcOptions(300))('differ when one character differs', (w, at, c) => {
    const i = at % w.length;
    const other = w.slice(0, i) + (i === 0 ? c.replace(/[i0-9]/, 'q') : c) + w.slice(i + 1);
    const [a, b] = identifiers(`${w} ${other}`);
    expect(a).toBe(w);
    expect(b).toBe(other);
    expect(Object.is(a, b)).toBe(w === other);
  });

  test.prop([fc.array(word, { minLength: 1, maxLength: 20 })], fcOptions(200))('isIdent answers for the spelling only', (words) => {
    const lexer = new Lexer(words.join(' '), 't.ll');
    for (const w of words) {
      expect(lexer.next()).toBe(Tok.Ident);
      for (const candidate of words) expect(lexer.isIdent(candidate)).toBe(candidate === w);
      expect(lexer.isIdent(w + 'x')).toBe(false);
      expect(lexer.isIdent(w.slice(0, -1))).toBe(false);
    }
  });

  test.prop([fc.integer({ min: 1, max: 40 })], fcOptions(8))('stay distinct and shared across thousands of words', (seed) => {
    const words: string[] = [];
    for (let n = 0; n < 3000; n++) words.push(`w${(n * 7919 + seed).toString(36)}_${n % 17}`);
    // every word twice, the second time after the table has grown several times
    const texts = identifiers([...words, ...words].join(' '));
    expect(texts).toEqual([...words, ...words]);
    for (let n = 0; n < words.length; n++) expect(Object.is(texts[n], texts[n + words.length])).toBe(true);
    expect(new Set(texts).size).toBe(new Set(words).size);
  });
});

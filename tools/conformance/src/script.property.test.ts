/**
 * Properties of RUN-line extraction and substitution:
 * 1. A command written over any number of `RUN:` lines, split at arbitrary points with trailing
 *    backslashes, behind any comment prefix, is extracted as the joined command (trailing
 *    whitespace dropped), whatever non-directive lines sit between the pieces.
 * 2. Extraction keeps the commands of a file in order and one per directive.
 * 3. Doubling every `%` makes a line immune to substitution: the result is the line itself.
 * 4. `%t<suffix>` becomes `<tmpBase>.tmp<suffix>` for any suffix of path characters.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { extractRunLines } from './script.js';
import { defaultSubstitutions, substituteLine } from './substitute.js';
import { fcOptions } from '@syclkit/testing';

// Characters of real RUN lines; no ':' so a piece can never spell a keyword, no newlines.
const commandChar = fc.constantFrom(...'abcXYZ019 -_=.,%|<>&"\'$/()[]{}*\\\t'.split(''));
const piece = fc.string({ unit: commandChar, maxLength: 12 });
const prefix = fc.constantFrom('; ', ';', '// ', '# ', '', '  ;; ', '; CHECK-NOT: x ');
const filler = fc.constantFrom('; CHECK: foo', '', 'define void @f() {', '; RUN without colon', '  ret void');

/** A command split into pieces; the last piece must not end in `\` (that would continue it). */
const splitCommand = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 5 }), piece.filter((p) => !p.trimEnd().endsWith('\\') && p.trim() !== ''))
  .map(([head, last]) => [...head, last]);

function render(pieces: readonly string[], prefixes: readonly string[], fillers: readonly (string | null)[]): string[] {
  const lines: string[] = [];
  pieces.forEach((p, i) => {
    const continued = i < pieces.length - 1;
    lines.push(`${prefixes[i % prefixes.length]}RUN:${p}${continued ? '\\' : ''}`);
    const extra = fillers[i % fillers.length];
    if (extra !== null && extra !== undefined) lines.push(extra);
  });
  return lines;
}

const paths = { sourcePath: '/c/test/x.ll', tmpDir: '/w/Output', tmpBase: '/w/Output/x.ll' };
const defaults = defaultSubstitutions(paths);

describe('RUN-line extraction (properties)', () => {
  test.prop(
    [splitCommand, fc.array(prefix, { minLength: 1, maxLength: 3 }), fc.array(fc.option(filler), { minLength: 1, maxLength: 3 })],
    fcOptions(),
  )('joins a command split over continuation lines back into the command', (pieces, prefixes, fillers) => {
    const text = render(pieces, prefixes, fillers).join('\n');
    expect(extractRunLines(text)).toEqual([pieces.join('').trimEnd()]);
  });

  test.prop([fc.array(splitCommand, { minLength: 1, maxLength: 4 }), prefix], fcOptions())(
    'extracts several commands in order, one per directive',
    (commands, p) => {
      const text = commands.flatMap((pieces) => render(pieces, [p], [null])).join('\n');
      expect(extractRunLines(text)).toEqual(commands.map((pieces) => pieces.join('').trimEnd()));
    },
  );
});

describe('substitution (properties)', () => {
  const anyLine = fc.string({ unit: fc.constantFrom(...'%stTSp{}/:ab_ -#'.split('')), maxLength: 30 }).filter((s) => !s.includes('#_MARKER_#'));

  test.prop([anyLine], fcOptions())('leaves a line with every % doubled unchanged but for one % each', (line) => {
    expect(substituteLine(line.replace(/%/g, '%%'), defaults)).toBe(line.trim());
  });

  test.prop([fc.string({ unit: fc.constantFrom(...'abz09_.-'.split('')), maxLength: 10 })], fcOptions())(
    'expands %t<suffix> to <tmpBase>.tmp<suffix>',
    (suffix) => {
      expect(substituteLine(`-o %t${suffix}`, defaults)).toBe(`-o /w/Output/x.ll.tmp${suffix}`);
    },
  );
});

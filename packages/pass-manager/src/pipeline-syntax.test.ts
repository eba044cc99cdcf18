import { describe, expect, it } from 'vitest';
import { parsePipelineSyntax, PipelineError } from './index.js';

describe('parsePipelineSyntax', () => {
  it('reads sequences, options and nesting with the offset of every part', () => {
    expect(parsePipelineSyntax('a,b<x;no-y;k=v>,m(c,d<>(e))')).toEqual([
      { name: 'a', offset: 0 },
      {
        name: 'b',
        offset: 2,
        options: {
          offset: 3,
          end: 15,
          entries: [
            { text: 'x', offset: 4 },
            { text: 'no-y', offset: 6 },
            { text: 'k=v', offset: 11 },
          ],
        },
      },
      {
        name: 'm',
        offset: 16,
        innerOffset: 17,
        inner: [
          { name: 'c', offset: 18 },
          { name: 'd', offset: 20, options: { offset: 21, end: 23, entries: [] }, innerOffset: 23, inner: [{ name: 'e', offset: 24 }] },
        ],
      },
    ]);
  });

  it('keeps commas, parentheses and spaces inside options as part of the entry', () => {
    const [node] = parsePipelineSyntax('p<targets=a,b;s=(x) y>');
    expect(node!.options!.entries.map((e) => e.text)).toEqual(['targets=a,b', 's=(x) y']);
  });

  it('keeps empty entries so the resolver can point at them', () => {
    expect(parsePipelineSyntax('p<a;;b>')[0]!.options!.entries.map((e) => e.text)).toEqual(['a', '', 'b']);
  });

  it('allows whitespace around separators only', () => {
    expect(parsePipelineSyntax(' a , m( b )\n').map((n) => n.name)).toEqual(['a', 'm']);
    expect(() => parsePipelineSyntax('a <x>')).toThrow(/expected ',' or end of pipeline, found '<'/);
  });

  it('reports the offset of syntax errors', () => {
    const offsetOf = (text: string): number => {
      try {
        parsePipelineSyntax(text);
      } catch (error) {
        return (error as PipelineError).offset;
      }
      return -1;
    };
    expect(offsetOf('a,')).toBe(2);
    expect(offsetOf('a<b<c>>')).toBe(3);
    expect(offsetOf('m(a')).toBe(1);
    expect(offsetOf('m(a b)')).toBe(4);
    expect(offsetOf('$')).toBe(0);
  });

  it('limits nesting depth instead of overflowing the stack', () => {
    const deep = 'm('.repeat(300) + 'a' + ')'.repeat(300);
    expect(() => parsePipelineSyntax(deep)).toThrow(/nests deeper than 256 levels/);
  });
});

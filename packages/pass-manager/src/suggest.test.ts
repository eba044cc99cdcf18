import { describe, expect, it } from 'vitest';
import { didYouMean, suggest } from './suggest.js';

describe('suggest', () => {
  it('prefers a candidate that differs only in case, whatever the edit distance', () => {
    expect(suggest('AMX', ['ams', 'amx'])).toBe('amx');
    expect(suggest('CUSTOM', ['customs', 'custom'])).toBe('custom');
  });

  it('offers the closest candidate within the typo distance', () => {
    expect(suggest('renam', ['rename', 'noop'])).toBe('rename');
    expect(suggest('xyz', ['rename', 'noop'])).toBeUndefined();
  });

  it('breaks ties by name, not by candidate order', () => {
    expect(suggest('ab', ['ac', 'aa'])).toBe('aa');
    expect(suggest('ab', ['aa', 'ac'])).toBe('aa');
  });
});

describe('didYouMean', () => {
  it('formats the hint with an optional prefix, or nothing', () => {
    expect(didYouMean('-helpp', ['help'].map((n) => `-${n}`))).toBe("; did you mean '-help'?");
    expect(didYouMean('helpp', ['help'], '-')).toBe("; did you mean '-help'?");
    expect(didYouMean('zzzzzz', ['help'])).toBe('');
  });
});

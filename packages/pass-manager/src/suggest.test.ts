import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, suggest } from './suggest.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('fp64', 'fp64')).toBe(0);
    expect(editDistance('fp46', 'fp64')).toBe(2);
    expect(editDistance('pvc', 'pvcc')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('suggest', () => {
  it('prefers a candidate that differs only in case, whatever the edit distance', () => {
    expect(suggest('AMX', ['ams', 'amx'])).toBe('amx');
    expect(suggest('CUSTOM', ['customs', 'custom'])).toBe('custom');
  });

  it('offers the closest candidate within the typo distance', () => {
    expect(suggest('renam', ['rename', 'noop'])).toBe('rename');
    expect(suggest('xyz', ['rename', 'noop'])).toBeUndefined();
  });

  it('suggests nothing when every candidate is far away, and never the word itself', () => {
    expect(suggest('banana', ['intel_gpu_pvc', 'spir64'])).toBeUndefined();
    expect(suggest('fp64', ['fp64'])).toBeUndefined();
    expect(suggest('fp64', ['fp64', 'fp16'])).toBeUndefined();
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

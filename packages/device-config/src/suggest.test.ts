import { describe, expect, it } from 'vitest';
import { closestMatch, didYouMean, editDistance } from './suggest.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('fp64', 'fp64')).toBe(0);
    expect(editDistance('fp46', 'fp64')).toBe(2);
    expect(editDistance('pvc', 'pvcc')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('closestMatch', () => {
  it('suggests the nearest candidate within the typo budget', () => {
    expect(closestMatch('intel_gpu_pvcc', ['intel_gpu_pvc', 'intel_gpu_dg1'])).toBe('intel_gpu_pvc');
  });

  it('suggests nothing when every candidate is far away', () => {
    expect(closestMatch('banana', ['intel_gpu_pvc', 'spir64'])).toBeUndefined();
  });

  it('prefers a candidate that differs only in case', () => {
    expect(closestMatch('INTEL_GPU_PVC', ['intel_gpu_dg1', 'intel_gpu_pvc'])).toBe('intel_gpu_pvc');
  });

  it('never suggests the word itself', () => {
    expect(closestMatch('fp64', ['fp64'])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('formats the suggestion as a message suffix, or nothing', () => {
    expect(didYouMean('aspect', ['aspects'])).toBe("; did you mean 'aspects'?");
    expect(didYouMean('zzzzzzzz', ['aspects'])).toBe('');
  });
});

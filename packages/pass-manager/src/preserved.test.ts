import { describe, expect, it } from 'vitest';
import { allAnalysesOn, PreservedAnalyses } from './index.js';

describe('PreservedAnalyses', () => {
  it('all() keeps everything and none() keeps nothing', () => {
    expect(PreservedAnalyses.all().isPreserved('x')).toBe(true);
    expect(PreservedAnalyses.all().areAllPreserved()).toBe(true);
    expect(PreservedAnalyses.none().isPreserved('x')).toBe(false);
    expect(PreservedAnalyses.none().areAllPreserved()).toBe(false);
  });

  it('only(...) keeps exactly the named analyses, given by key or by analysis object', () => {
    const pa = PreservedAnalyses.only('call-graph', { name: 'dom-tree' });
    expect(pa.isPreserved('call-graph')).toBe(true);
    expect(pa.isPreserved('dom-tree')).toBe(true);
    expect(pa.isPreserved('loops')).toBe(false);
  });

  it('preserveSet keeps every analysis in the set, by the sets the analysis names', () => {
    const pa = PreservedAnalyses.none().preserveSet('cfg');
    expect(pa.isPreserved('dom-tree', ['cfg'])).toBe(true);
    expect(pa.isPreserved('dom-tree', ['other'])).toBe(false);
    expect(pa.isSetPreserved('cfg')).toBe(true);
    expect(PreservedAnalyses.none().preserveSet(allAnalysesOn('function')).isSetPreserved('all-analyses-on:function')).toBe(true);
  });

  it('abandon wins over all() and over sets, and preserve undoes it', () => {
    const pa = PreservedAnalyses.all().preserveSet('cfg').abandon('dom-tree');
    expect(pa.isPreserved('dom-tree', ['cfg'])).toBe(false);
    expect(pa.isPreserved('loops')).toBe(true);
    expect(pa.areAllPreserved()).toBe(false);
    expect(pa.isSetPreserved('cfg')).toBe(false);
    expect(pa.preserve('dom-tree').isPreserved('dom-tree')).toBe(true);
  });

  it('is immutable: building from all() never changes all()', () => {
    PreservedAnalyses.all().abandon('x');
    PreservedAnalyses.none().preserve('y');
    expect(PreservedAnalyses.all().isPreserved('x')).toBe(true);
    expect(PreservedAnalyses.none().isPreserved('y')).toBe(false);
  });

  it('intersect keeps what both keep', () => {
    const a = PreservedAnalyses.only('x', 'y');
    const b = PreservedAnalyses.only('y', 'z');
    expect(a.intersect(b).toString()).toBe('y');
    expect(PreservedAnalyses.all().intersect(a)).toBe(a);
    expect(a.intersect(PreservedAnalyses.all())).toBe(a);
    expect(a.intersect(PreservedAnalyses.none()).toString()).toBe('none');
    expect(PreservedAnalyses.all().abandon('x').intersect(PreservedAnalyses.only('x', 'y')).toString()).toBe('y,-x');
  });

  it('prints a stable description for traces', () => {
    expect(PreservedAnalyses.all().toString()).toBe('all');
    expect(PreservedAnalyses.none().toString()).toBe('none');
    expect(PreservedAnalyses.only('b', 'a').preserveSet('cfg').toString()).toBe('a,b,set:cfg');
    expect(PreservedAnalyses.all().abandon('x').toString()).toBe('all,-x');
  });
});

import { describe, expect, it } from 'vitest';
import { AnalysisManager, defineAnalysis, PreservedAnalyses, type AnalysisEvent } from './index.js';
import { INTERNAL } from './analysis.js';
import { functionKind, moduleKind, toyModule, type ToyFunction } from '../test/toy.js';

function counter<R>(name: string, compute: (f: ToyFunction) => R, sets?: string[]) {
  const runs = { count: 0 };
  const analysis = defineAnalysis({
    name,
    unit: functionKind,
    ...(sets !== undefined && { sets }),
    run: (f: ToyFunction) => {
      runs.count++;
      return compute(f);
    },
  });
  return { analysis, runs };
}

describe('AnalysisManager', () => {
  it('caches a result per unit and per analysis', () => {
    const { analysis, runs } = counter('lines', (f) => f.lines.length);
    const am = new AnalysisManager();
    const f = { name: 'f', lines: ['a'] };
    const g = { name: 'g', lines: [] };
    expect(am.getResult(analysis, f)).toBe(1);
    expect(am.getResult(analysis, f)).toBe(1);
    expect(am.getResult(analysis, g)).toBe(0);
    expect(runs.count).toBe(2);
  });

  it('getCachedResult never computes', () => {
    const { analysis, runs } = counter('lines', (f) => f.lines.length);
    const am = new AnalysisManager();
    const f = { name: 'f', lines: [] };
    expect(am.getCachedResult(analysis, f)).toBeUndefined();
    expect(runs.count).toBe(0);
    am.getResult(analysis, f);
    expect(am.getCachedResult(analysis, f)).toBe(0);
  });

  it('provide() caches a result without computing, replaces a cached one, and is dropped like one', () => {
    const { analysis, runs } = counter('lines', (f) => f.lines.length);
    const am = new AnalysisManager();
    const events: string[] = [];
    am[INTERNAL].observe((e) => events.push(`${e.type} ${e.analysis}`));
    const f = { name: 'f', lines: ['a'] };
    am.provide(analysis, f, 7);
    expect(am.getResult(analysis, f)).toBe(7);
    expect(runs.count).toBe(0);
    am.provide(analysis, f, 8);
    expect(am.getCachedResult(analysis, f)).toBe(8);
    am.invalidate(f, PreservedAnalyses.none());
    expect(am.isCached(analysis, f)).toBe(false);
    expect(am.getResult(analysis, f)).toBe(1);
    expect(runs.count).toBe(1);
    expect(events).toEqual(['run lines', 'invalidate lines', 'run lines', 'invalidate lines', 'run lines']);
  });

  it('drops results only as the preserved set says', () => {
    const { analysis: kept } = counter('kept', () => 1, ['cfg']);
    const { analysis: lost } = counter('lost', () => 2);
    const am = new AnalysisManager();
    const f = { name: 'f', lines: [] };
    am.getResult(kept, f);
    am.getResult(lost, f);
    am.invalidate(f, PreservedAnalyses.none().preserveSet('cfg'));
    expect(am.isCached(kept, f)).toBe(true);
    expect(am.isCached(lost, f)).toBe(false);
    am.invalidate(f, PreservedAnalyses.all().abandon(kept));
    expect(am.isCached(kept, f)).toBe(false);
  });

  it('drops an analysis together with the analyses computed from it, on other units too', () => {
    const { analysis: lines } = counter('lines', (f) => f.lines.length);
    const total = defineAnalysis({
      name: 'total',
      unit: moduleKind,
      run: (m, analyses) => m.functions.reduce((n, f) => n + analyses.getResult(lines, f), 0),
    });
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'], g: ['b', 'c'] });
    expect(am.getResult(total, module)).toBe(3);
    am.invalidate(module.functions[1]!, PreservedAnalyses.none());
    expect(am.isCached(total, module)).toBe(false);
    expect(am.isCached(lines, module.functions[0]!)).toBe(true);
  });

  it('reaches sub-units recorded while computing when the enclosing unit is invalidated', () => {
    const { analysis: lines } = counter('lines', (f) => f.lines.length);
    const total = defineAnalysis({
      name: 'total',
      unit: moduleKind,
      run: (m, analyses) => m.functions.reduce((n, f) => n + analyses.getResult(lines, f), 0),
    });
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    am.getResult(total, module);
    am.invalidate(module, PreservedAnalyses.only(total));
    expect(am.isCached(total, module)).toBe(false); // its input was dropped
    expect(am.isCached(lines, module.functions[0]!)).toBe(false);
  });

  it('reports a cycle between analyses instead of recursing forever', () => {
    const a: ReturnType<typeof defineAnalysis<ToyFunction, number>> = defineAnalysis({
      name: 'cyc-a',
      unit: functionKind,
      run: (f, analyses): number => analyses.getResult(b, f),
    });
    const b = defineAnalysis({ name: 'cyc-b', unit: functionKind, run: (f, analyses): number => analyses.getResult(a, f) });
    expect(() => new AnalysisManager().getResult(a, { name: 'f', lines: [] })).toThrow('analysis cycle: cyc-a -> cyc-b -> cyc-a');
  });

  it('refuses two different analyses with one name', () => {
    const first = counter('same', () => 1).analysis;
    const second = counter('same', () => 2).analysis;
    const am = new AnalysisManager();
    const f = { name: 'f', lines: [] };
    am.getResult(first, f);
    expect(() => am.getResult(second, f)).toThrow(/two different analyses are named 'same'/);
  });

  it('clear() drops everything, clear(unit) only that unit and its recorded sub-units', () => {
    const { analysis } = counter('lines', (f) => f.lines.length);
    const am = new AnalysisManager();
    const module = toyModule('m', { f: [], g: [] });
    const [f, g] = module.functions as [ToyFunction, ToyFunction];
    am.getResult(analysis, f);
    am.getResult(analysis, g);
    am[INTERNAL].noteSubunit(module, 'function', f);
    am.clear(module);
    expect(am.isCached(analysis, f)).toBe(false);
    expect(am.isCached(analysis, g)).toBe(true);
    am.clear();
    expect(am.isCached(analysis, g)).toBe(false);
  });

  it('tells observers about runs and invalidations', () => {
    const { analysis } = counter('lines', (f) => f.lines.length);
    const am = new AnalysisManager();
    const events: string[] = [];
    const stop = am[INTERNAL].observe((e: AnalysisEvent) => events.push(`${e.type} ${e.analysis} ${e.kind.name}`));
    const f = { name: 'f', lines: [] };
    am.getResult(analysis, f);
    am.invalidate(f, PreservedAnalyses.none());
    stop();
    am.getResult(analysis, f);
    expect(events).toEqual(['run lines function', 'invalidate lines function']);
  });

  it('rejects analysis names that are not kebab-case', () => {
    expect(() => defineAnalysis({ name: 'CallGraph', unit: functionKind, run: () => 0 })).toThrow(/not kebab-case/);
  });
});
